// @ts-check
/** @file Rulings (docs/tournaments.md#rulings): the tournament page's "Rulings" section. Every
 * ruling on the standings lines (penalties and bonuses with their reasons, handicaps, unranked
 * entrants) for everyone; for a director, one step away, the forms that adjust a score, revoke
 * an adjustment and mark an entrant unranked or ranked again. A list, not a table, so a phone
 * never scrolls sideways. */

import { gql } from "./api.js";
import { h, replace, score } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, input, onSubmit, selectOf } from "./forms.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** A ruling in words, as the export says it. @param {any} r */
export function rulingText(r) {
  let text;
  if (r.kind === "UNRANKED") text = "unranked";
  else if (r.kind === "HANDICAP") text = `handicap ${r.points > 0 ? "+" : ""}${score(r.points)}`;
  else text = `${r.points < 0 ? "penalty" : "bonus"} ${r.points > 0 ? "+" : ""}${score(r.points)}`;
  if (r.round !== null && r.board !== null) text += ` (round ${r.round}, board ${r.board})`;
  else if (r.round !== null) text += ` (round ${r.round})`;
  return r.reason ? `${text}: ${r.reason}` : text;
}

/** Every line's rulings, each with a director's Revoke button for an adjustment.
 * @param {TournamentPage} page @param {HTMLElement} where */
function rulingsList(page, where) {
  const ruled = page.standings.filter((s) => s.rulings.length > 0);
  if (ruled.length === 0) return h("p", {}, "No rulings.");
  return h("ul", { class: "rulings" }, ruled.flatMap((s) => s.rulings.map((/** @type {any} */ r) => h("li", {},
    h("strong", {}, s.player.name), `: ${rulingText(r)}`,
    page.director && r.number !== null ? h("button", { type: "button", class: "secondary", "aria-label": `Revoke adjustment ${r.number}`,
      onclick: () => page.act(where, Q.REVOKE_SCORE_ADJUSTMENT, { number: r.number }, `Adjustment ${r.number} revoked.`) }, "Revoke") : null))));
}

/** What an adjustment can apply to: the total, a seeded round, a finished board. @param {any} t */
function targets(t) {
  return [{ value: "", text: "Tournament total" },
    ...t.rounds.flatMap((/** @type {any} */ r) => [{ value: `round:${r.number}`, text: `Round ${r.number}` },
      ...r.boards.filter((/** @type {any} */ b) => b.finished).map((/** @type {any} */ b) => ({ value: `board:${b.id}`, text: `Round ${r.number}, board ${b.number}` }))])];
}

/** A director's form giving a penalty or a bonus. @param {TournamentPage} page */
function adjustForm(page) {
  const { t } = page;
  const player = selectOf(t.entrants, (/** @type {any} */ e) => ({ value: e.player.id, text: e.player.name }));
  const target = selectOf(targets(t), (o) => o);
  const points = input("number", { required: true, step: "any", inputmode: "decimal", placeholder: "-5" });
  const reason = input("text", { required: true });
  const form = h("form", { class: "adjust-score" }, formError(),
    field("Player", player, { field: "playerId" }),
    field("Applies to", target, { field: "level" }),
    field("Points (negative for a penalty)", points, { field: "points" }),
    field("Reason", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Adjust score"));
  onSubmit(form, async (idempotencyKey) => {
    const [kind, value] = target.value.split(":");
    await gql(Q.ADJUST_SCORE, {
      tournamentId: page.id, playerId: player.value, points: Number(points.value), reason: reason.value,
      level: kind === "board" ? "BOARD" : kind === "round" ? "ROUND" : "TOURNAMENT",
      boardId: kind === "board" ? value : null, round: kind === "round" ? Number(value) : null, idempotencyKey,
    });
    /** @type {HTMLFormElement} */ (form).reset();
    await page.reload();
  });
  return form;
}

/** A director's form marking an entrant unranked or ranked again. @param {TournamentPage} page */
function unrankedForm(page) {
  const { t } = page;
  const unranked = new Set(page.standings.filter((s) => s.unranked).map((s) => s.player.id));
  const player = selectOf(t.entrants, (/** @type {any} */ e) => ({ value: e.player.id, text: `${e.player.name}${unranked.has(e.player.id) ? " (unranked)" : ""}` }));
  const reason = input("text", {});
  const form = h("form", { class: "set-unranked" }, formError(),
    field("Entrant", player, { field: "playerId" }),
    field("Reason (optional)", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Mark unranked or ranked again"));
  onSubmit(form, async (idempotencyKey) => {
    await gql(Q.SET_ENTRANT_UNRANKED, {
      tournamentId: page.id, playerId: player.value, unranked: !unranked.has(player.value), reason: reason.value || null, idempotencyKey,
    });
    await page.reload();
  });
  return form;
}

/** The page's "Rulings" section; a director's forms sit in a `<details>` kept across
 * refreshes, so it stays open after a ruling. @param {HTMLElement} section @param {TournamentPage} page */
export function renderRulings(section, page) {
  const { t } = page;
  const list = h("div", { id: "rulings-list" });
  replace(list, rulingsList(page, list));
  const basis = [t.version, page.standings.map((s) => s.rulings.length)];
  const forms = page.director
    ? /** @type {HTMLElement} */ (section.querySelector("details#give-ruling") ?? h("details", { class: "one-step", id: "give-ruling" }))
    : null;
  if (forms) {
    replace(forms, h("summary", {}, "Give a ruling"),
      page.keep("adjust-score", basis, () => adjustForm(page)),
      page.keep("set-unranked", basis, () => unrankedForm(page)));
  }
  replace(section, h("h2", { id: "rulings-h" }, "Rulings"), list, forms);
}
