// @ts-check
/** @file Power assignment (docs/tournaments.md#power-assignment): the tournament page's
 * "Powers" section. It says how powers are given; a signed-in entrant ranks the powers (one
 * choice per line, best first); a board choosing its powers says whose turn it is, and that
 * player (or a director) picks; a director changes the method, pastes everyone's rankings and
 * sees them all. On a board's page, a director sets every power of the board before its
 * result (`boardPowersForm`). Lists and stacked fields, so a phone never scrolls sideways. */

import { gql } from "./api.js";
import { h, replace } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, input, onSubmit, selectOf } from "./forms.js";
import { refuseRepeats } from "./distinct-choices.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** Each method in words. @type {Record<string, string>} */
const METHODS = {
  AUTOMATIC: "Automatic: the seeder avoids powers a player already had",
  PREFERENCES: "By preferences: the lowest placed choose first",
  MANUAL: "Set by the directors",
  ORDERED_CHOICE: "Ordered choice at the board: the best placed pick first",
};

/** The method in a sentence. @param {any} rule */
function methodWords(rule) {
  return `${METHODS[rule.method]}.${rule.topBoardOrderedChoice ? " A top board picks by ordered choice." : ""}`;
}

/** The signed-in entrant's ranking form: one choice per line, best first. @param {TournamentPage} page */
function rankingForm(page) {
  const { t } = page;
  const mine = t.powerPreferences.find((/** @type {any} */ p) => p.player.id === page.me)?.powers ?? [];
  const choices = t.seatLabels.map((/** @type {string} */ _, /** @type {number} */ i) => {
    const select = selectOf(["", ...t.seatLabels], (/** @type {string} */ s) => ({ value: s, text: s === "" ? "No preference" : s }));
    select.value = mine[i] ?? "";
    return select;
  });
  const form = h("form", { class: "power-ranking" }, formError(),
    h("p", {}, mine.length === 0 ? "You have not ranked the powers: any power suits you." : `Your ranking: ${mine.join(", ")}.`),
    choices.map((select, i) => field(`Choice ${i + 1}`, select, { field: "powers" })),
    h("button", { type: "submit" }, "Save my ranking"));
  onSubmit(form, async () => {
    const powers = choices.map((s) => s.value).filter((v) => v !== "");
    await gql(Q.SUBMIT_POWER_PREFERENCES, { tournamentId: page.id, powers });
    await page.reload();
  });
  return form;
}

/** A director's form changing the method. @param {TournamentPage} page */
function methodForm(page) {
  const rule = page.t.powerAssignment;
  const method = selectOf(Object.keys(METHODS), (m) => ({ value: m, text: METHODS[m] }));
  method.value = rule.method;
  const topBoard = input("checkbox", { checked: rule.topBoardOrderedChoice });
  const form = h("form", { class: "power-method" }, formError(),
    field("Powers given", method, { field: "method" }),
    field("A top board picks by ordered choice", topBoard, { field: "topBoardOrderedChoice" }),
    h("button", { type: "submit" }, "Save power assignment"));
  onSubmit(form, async () => {
    await gql(Q.CHANGE_POWER_ASSIGNMENT, { tournamentId: page.id, method: method.value, topBoardOrderedChoice: topBoard.checked });
    await page.reload();
  });
  return form;
}

/** A director's form recording a pasted list of rankings. @param {TournamentPage} page */
function pasteForm(page) {
  const list = /** @type {HTMLTextAreaElement} */ (h("textarea", { rows: 5, autocomplete: "off", spellcheck: "false", required: true }));
  const form = h("form", { class: "power-paste" }, formError(),
    field("Rankings, one line per player", list, { field: "list", hint: "The name or id, then the powers best first, separated by commas: Ann Smith, France, England" }),
    h("button", { type: "submit" }, "Record rankings"));
  onSubmit(form, async () => {
    await gql(Q.PASTE_POWER_PREFERENCES, { tournamentId: page.id, list: list.value });
    /** @type {HTMLFormElement} */ (form).reset();
    await page.reload();
  });
  return form;
}

/** Every ranking recorded, for a director. @param {any[]} rankings */
function rankingsList(rankings) {
  if (rankings.length === 0) return h("p", {}, "No rankings recorded yet.");
  return h("ul", { class: "power-rankings" }, rankings.map((r) => h("li", {}, h("strong", {}, r.player.name), `: ${r.powers.join(", ")}`)));
}

/** A board choosing its powers: whose turn it is, and the pick for them or a director.
 * @param {TournamentPage} page @param {any} board */
function choosingBoard(page, board) {
  const choice = board.powerChoice;
  const next = choice.next;
  const picked = choice.order.slice(0, choice.picked.length).map((/** @type {any} */ p, /** @type {number} */ i) => `${p.name} ${choice.picked[i]}`);
  const free = page.t.seatLabels.filter((/** @type {string} */ s) => !choice.picked.includes(s));
  const mayPick = next && (page.director || next.id === page.me);
  const power = selectOf(free, (/** @type {string} */ s) => ({ value: s, text: s }));
  const form = h("form", { class: "power-choice" }, formError(),
    field(`Power for ${next.name}`, power, { field: "power" }),
    h("button", { type: "submit" }, `Choose power for ${next.name}`));
  onSubmit(form, async () => {
    await gql(Q.CHOOSE_POWER, { tournamentId: page.id, boardId: board.id, playerId: next.id, power: power.value });
    await page.reload();
  });
  return h("li", {},
    h("strong", {}, `Board ${board.number}: ${next.name}'s turn to choose.`),
    picked.length > 0 ? ` Chosen so far: ${picked.join("; ")}.` : "",
    mayPick ? form : null,
    page.director ? h("p", {}, h("a", { href: `/tournaments/${page.id}/boards/${board.id}` }, `Set every power of board ${board.number}`)) : null);
}

/**
 * A director's form on a board's page setting every power of the board before its result:
 * one select per player, holding their power now; each power once (a repeat is refused before
 * anything is sent); it ends a choice still running (docs/tournaments.md#power-assignment).
 * It sits one step away, in a closed `<details>`. `done` runs after the powers are set.
 * @param {string} tournamentId @param {any} board its seats, in seat order @param {() => Promise<void>} done
 */
export function boardPowersForm(tournamentId, board, done) {
  const labels = board.seats.map((/** @type {any} */ s) => s.label);
  const selects = board.seats.map((/** @type {any} */ s) => {
    const select = selectOf(labels, (/** @type {string} */ l) => ({ value: l, text: l }));
    select.value = s.label;
    return select;
  });
  const form = h("form", { class: "board-powers" }, formError(),
    board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => field(`Power of ${s.player.name}`, selects[i], { field: `seats[${i}]` })),
    h("button", { type: "submit" }, "Set powers"));
  onSubmit(form, async () => {
    refuseRepeats(selects, (power) => `${power} is given twice: give each power once.`);
    await gql(Q.SET_BOARD_POWERS, {
      tournamentId, boardId: board.id,
      seats: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ power: selects[i].value, playerId: s.player.id })),
    });
    await done();
  });
  return h("details", { class: "one-step", id: "set-powers" },
    h("summary", {}, "Set the powers"),
    h("p", { class: "hint" }, "Each power once. Setting them ends a choice of powers still running."),
    form);
}

/** The page's "Powers" section. @param {HTMLElement} section @param {TournamentPage} page */
export function renderPowers(section, page) {
  const { t } = page;
  const entrant = t.entrants.some((/** @type {any} */ e) => e.player.id === page.me && e.withdrawnAfterRound === null);
  const choosing = (t.rounds.at(-1)?.boards ?? []).filter((/** @type {any} */ b) => b.powerChoice);
  replace(section,
    h("h2", { id: "powers-h" }, "Powers"),
    h("p", {}, methodWords(t.powerAssignment)),
    choosing.length > 0 ? h("ul", { class: "power-choices" }, choosing.map((/** @type {any} */ b) => choosingBoard(page, b))) : null,
    entrant && t.status !== "COMPLETED" ? page.keep("power-ranking", t.powerPreferences, () => rankingForm(page)) : null,
    page.director ? h("h3", {}, "Rankings") : null,
    page.director ? rankingsList(t.powerPreferences) : null,
    page.director ? page.keep("power-paste", null, () => pasteForm(page)) : null,
    page.director ? page.keep("power-method", t.powerAssignment, () => methodForm(page)) : null);
}
