// @ts-check
/** @file The director's "what to do next" at the top of a tournament's page
 * (docs/tournaments.md#the-web-app), driven by the tournament's state: the open roll call
 * (how many are present of how many, then the roll call itself), the round in play (its
 * boards, how many are reported, and links to those still missing a result), or the
 * finished tournament. */

import { h, replace } from "./dom.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */
/**
 * @typedef {{ kind: "roll-call", round: number, after: number | null }
 *   | { kind: "in-play", round: number }
 *   | { kind: "complete", round: number }} NextAction what the director does next: answer
 *   round `round`'s roll call and seed it (`after`: the round just completed, if any), get
 *   round `round`'s results in, or nothing (the tournament is complete)
 */

/** The director's next action from the tournament's state. @param {any} t @returns {NextAction} */
export function nextAction(t) {
  const latest = t.rounds.at(-1);
  if (latest && !latest.completed) return { kind: "in-play", round: latest.number };
  if (t.nextRound !== null) return { kind: "roll-call", round: t.nextRound, after: latest ? latest.number : null };
  return { kind: "complete", round: latest ? latest.number : 0 };
}

/** The round in play's boards still missing a result, each a link to its page.
 * @param {TournamentPage} page @param {any} round */
function missingResults(page, round) {
  const missing = round.boards.filter((/** @type {any} */ b) => !b.finished);
  return h("ul", { class: "missing-results", "aria-label": `Round ${round.number}: boards missing a result` },
    missing.map((/** @type {any} */ b) => h("li", { "data-board": b.number },
      h("a", { href: `/tournaments/${page.id}/boards/${b.id}` }, `Board ${b.number}: enter its result`))));
}

/**
 * The director's block: a heading saying where the day stands and `part` (the roll call or
 * the round in play) under it.
 * @param {HTMLElement} next @param {TournamentPage} page @param {NextAction} action
 * @param {HTMLElement | null} part
 */
export function renderNext(next, page, action, part) {
  const { t } = page;
  if (action.kind === "complete") {
    replace(next, h("h2", { id: "next-h" }, "The tournament is complete"),
      h("p", {}, h("a", { href: "#standings-h" }, "See the final standings")));
    return;
  }
  if (action.kind === "in-play") {
    const round = t.rounds.find((/** @type {any} */ r) => r.number === action.round);
    const reported = round.boards.filter((/** @type {any} */ b) => b.finished).length;
    replace(next, h("h2", { id: "next-h" }, `Round ${round.number} in play`), part,
      h("p", { class: "reported", role: "status" }, `Round ${round.number}: ${reported} of ${round.boards.length} boards reported.`),
      missingResults(page, round));
    return;
  }
  const present = t.rollCall.filter((/** @type {any} */ e) => e.present).length;
  replace(next,
    h("h2", { id: "next-h" }, `Round ${action.round} roll call: ${present} present of ${t.rollCall.length}`),
    action.after === null ? null
      : h("p", { class: "round-complete" }, `Round ${action.after} is complete. `, h("a", { href: "#standings-h" }, `Standings after round ${action.after}`)),
    part);
}
