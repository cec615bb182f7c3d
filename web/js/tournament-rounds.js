// @ts-check
/** @file A tournament page's rounds: a player's own board and power (earlier ones one step
 * away), the current round and the earlier ones (each with its boards, seats and scores, who
 * sits out and plays two boards, its swaps, seeding record and the director's swap form), and
 * the seeding checks. */

import { gql } from "./api.js";
import { h, replace, score, badge, announce } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, onSubmit } from "./forms.js";
import { settingsList, wideTable } from "./table.js";
import { names, playerSelect } from "./tournament-common.js";
import { roundTimesText } from "./times.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */
/** @typedef {import("./tournament-common.js").PlayerRef} PlayerRef */

/** One of a player's boards: a link to it and their power. @param {TournamentPage} page @param {any} b */
function myBoard(page, b) {
  const seat = b.seats.find((/** @type {any} */ s) => s.player.id === page.me);
  return h("li", { "data-round": b.round },
    h("a", { href: `/tournaments/${page.id}/boards/${b.id}` }, `Round ${b.round}, board ${b.number}`), `: ${seat?.label ?? "?"}`,
    b.finished ? " (finished)" : "");
}

/** A signed-in player's board and power in the latest round they are seated in, first; their
 * earlier boards one step away. @param {HTMLElement} mine @param {TournamentPage} page */
export function renderMyBoards(mine, page) {
  const { me, myBoards } = page;
  if (!me) {
    replace(mine);
    return;
  }
  const latest = Math.max(0, ...myBoards.map((b) => b.round));
  const earlier = myBoards.filter((b) => b.round !== latest).reverse();
  replace(mine, h("h2", { id: "my-boards-h" }, "My board and power"),
    myBoards.length === 0 ? h("p", {}, "You are not seated in any round yet.")
      : h("ul", { class: "my-boards" }, myBoards.filter((b) => b.round === latest).map((b) => myBoard(page, b))),
    earlier.length === 0 ? null
      : h("details", {}, h("summary", {}, "My earlier boards"), h("ul", { class: "my-boards" }, earlier.map((b) => myBoard(page, b)))));
}

/** The round's status: seeded, running (a board has a result) or completed. @param {any} round */
const roundStatus = (round) => (round.completed ? "COMPLETED" : round.started ? "RUNNING" : "SEEDED");

/** One board's row: seats with scores, status, and the link to report, correct or view it.
 * @param {TournamentPage} page @param {any} round @param {any} b */
function boardRow(page, round, b) {
  const { me, director, id } = page;
  const byPlayer = new Map(b.scores.map((/** @type {any} */ s) => [s.player.id, s.score]));
  const seated = me !== null && b.seats.some((/** @type {any} */ s) => s.player.id === me);
  const link = !b.finished && (director || seated) ? "Report result" : b.finished && director ? "Correct result" : "View board";
  return h("tr", { "data-board": b.number },
    h("th", { scope: "row" }, `Board ${b.number}`),
    h("td", {}, h("ul", { class: "seats" }, b.seats.map((/** @type {any} */ s) => h("li", {},
      h("span", { class: "seat-label" }, s.label), " ", s.player.name,
      byPlayer.has(s.player.id) ? ` ${score(/** @type {number} */ (byPlayer.get(s.player.id)))}` : "")))),
    h("td", {}, badge(b.finished ? "FINISHED" : "SCHEDULED"), b.corrections > 0 ? ` corrected ${b.corrections}×` : ""),
    h("td", {}, h("a", { href: `/tournaments/${id}/boards/${b.id}`, class: "button", "aria-label": `${link}: round ${round.number}, board ${b.number}` }, link)));
}

/** How the round was seeded, to check it again. @param {any} round */
function seedingRecord(round) {
  const s = round.seeding;
  return h("details", { class: "seeding" }, h("summary", {}, "Seeding record"), settingsList([
    ["Algorithm", s.algorithm], ["Seed", s.seed], ["Inputs digest", h("code", { class: "hash" }, s.inputsDigest)],
    ["Repeat score", s.repeatScore], ["Seat repeats", s.seatRepeats], ["Keep-apart pairs seated together", s.keepApartMet],
    ["Top board", round.topBoard ? "yes" : "no"]]));
}

/** One seeded round. @param {TournamentPage} page @param {any} round */
function roundSection(page, round) {
  const { director, id } = page;
  const boards = wideTable(["Board", "Seats", "Status", ""], round.boards.map((/** @type {any} */ b) => boardRow(page, round, b)), { class: "boards" });
  const players = [...new Map([...round.boards.flatMap((/** @type {any} */ b) => b.seats.map((/** @type {any} */ x) => x.player)), ...round.sittingOut]
    .map((/** @type {PlayerRef} */ p) => [p.id, p])).values()];
  const swap = director && !round.started ? page.keep(`swap-${round.number}`, round.boards, () => swapForm(page, round.number, players)) : null;
  return h("section", { class: "round", "data-round": round.number, "aria-labelledby": `round-${round.number}-h` },
    h("h3", { id: `round-${round.number}-h` }, `Round ${round.number} `, badge(roundStatus(round))),
    h("p", {}, h("a", { href: `/tournaments/${id}/rounds/${round.number}/board-call`, class: "button" }, `Board call for round ${round.number}`)),
    boards,
    h("p", { class: "sitting-out" }, `Sitting out: ${names(round.sittingOut)}.`),
    h("p", { class: "playing-twice" }, `Playing two boards: ${names(round.playingTwice)}.`),
    round.swaps.length === 0 ? "" : h("ul", { class: "swaps", "aria-label": `Swaps in round ${round.number}` },
      ...round.swaps.map((/** @type {any} */ w) => h("li", {}, `${w.first.name} ⇄ ${w.second.name}: ${w.reason}`))),
    seedingRecord(round), swap);
}

/** The director's swap of two players of a round not yet started.
 * @param {TournamentPage} page @param {number} round @param {PlayerRef[]} players */
function swapForm(page, round, players) {
  const firstPlayer = playerSelect(players, "Choose a player");
  const secondPlayer = playerSelect(players, "Choose a player");
  const reason = /** @type {HTMLTextAreaElement} */ (h("textarea", { required: true, rows: 2 }));
  const form = h("form", { novalidate: true, "aria-labelledby": `swap-${round}-h`, class: "swap" },
    h("h4", { id: `swap-${round}-h` }, `Swap two players of round ${round}`),
    formError(),
    field("First player", firstPlayer, { field: "first" }),
    field("Second player", secondPlayer, { field: "second", hint: "Seats are exchanged; a player sitting out takes the other's seat." }),
    field("Reason", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Swap players"));
  const entrantName = (/** @type {string} */ playerId) =>
    page.t.entrants.find((/** @type {any} */ e) => e.player.id === playerId)?.player.name ?? playerId;
  onSubmit(form, async () => {
    await gql(Q.SWAP_ROUND_PLAYERS, { tournamentId: page.id, round, first: firstPlayer.value, second: secondPlayer.value, reason: reason.value });
    announce(`${entrantName(firstPlayer.value)} and ${entrantName(secondPlayer.value)} swapped.`);
    await page.reload();
  });
  return form;
}

/** When and where the tournament is played, and each round's start (docs/tournaments.md#times).
 * @param {any} t */
function scheduleView(t) {
  const { schedule, roundTimes } = t;
  const days = [schedule.startsOn, schedule.endsOn].filter(Boolean).filter((d, i, all) => all.indexOf(d) === i).join(" to ");
  const venue = schedule.venueName ? `${schedule.venueName}${schedule.venueAddress ? `, ${schedule.venueAddress}` : ""}` : "";
  const where = [days, venue].filter(Boolean).join(" at ");
  if (!where && roundTimes.length === 0) return null;
  return h("div", { class: "schedule" }, where ? h("p", {}, `${where}.`) : null,
    roundTimes.length === 0 ? null : h("ul", { class: "round-times", "aria-label": "Round times" },
      ...roundTimes.map((/** @type {any} */ r) => h("li", {}, roundTimesText(r, schedule.timeZone)))));
}

/** The current round (the latest seeded) in `current`, with when and where the tournament is
 * played, the earlier ones, newest first, in `earlier`. @param {HTMLElement} current
 * @param {HTMLElement} earlier @param {TournamentPage} page */
export function renderRounds(current, earlier, page) {
  const { t } = page;
  const latest = t.rounds.at(-1);
  replace(current, h("h2", { id: "rounds-h" }, latest ? `Round ${latest.number} of ${t.roundCount}` : `Rounds (0/${t.roundCount} seeded)`),
    scheduleView(t),
    latest ? roundSection(page, latest) : h("p", {}, "No round seeded yet."));
  const older = t.rounds.slice(0, -1).reverse();
  replace(earlier, older.length === 0 ? h("p", {}, "No earlier round.") : older.map((/** @type {any} */ round) => roundSection(page, round)));
}

/** One round's check: the recorded seeding against the one re-run from the log. @param {any} c */
function checkRow(c) {
  return h("tr", { "data-round": c.round, class: c.verified ? "verified" : "not-verified" },
    h("th", { scope: "row" }, c.round),
    h("td", {}, c.verified ? "verified" : "NOT verified"),
    h("td", {}, c.algorithm),
    h("td", {}, c.seed),
    h("td", {}, h("code", { class: "hash" }, c.recordedDigest)),
    h("td", {}, h("code", { class: "hash" }, c.recomputedDigest)),
    h("td", {}, c.boardsMatch ? "yes" : "no"),
    h("td", {}, c.problem ?? "—"));
}

/** The seeding checks: a button that re-runs every recorded seeding and shows each round's
 * verdict. @param {HTMLElement} checks @param {string} id the tournament */
export function renderChecks(checks, id) {
  const output = h("div", { id: "seeding-check-results", "aria-live": "polite" });
  const verify = async () => {
    const { tournament } = await gql(Q.SEEDING_CHECKS, { id });
    const list = tournament?.seedingChecks ?? [];
    replace(output, list.length === 0 ? h("p", {}, "No round seeded yet.")
      : wideTable(["Round", "Verified", "Algorithm", "Seed", "Recorded digest", "Recomputed digest", "Same boards", "Problem"], list.map(checkRow), { class: "checks" }));
    announce("Seeding checked.");
  };
  replace(checks, h("h2", { id: "checks-h" }, "Seeding checks"),
    h("p", { class: "hint" }, "Re-runs every recorded seeding from the log and compares the boards."),
    h("button", { type: "button", onclick: () => void verify() }, "Verify seeding"), output);
}
