// @ts-check
/** @file A tournament page's first sections: its title, a player's enter and withdraw
 * buttons, its settings, and its entrants with the director's withdraw buttons and "enter a
 * player" form. Each view renders one section from the page's state. */

import { ApiError, gql } from "./api.js";
import { h, replace, score, when, badge, announce } from "./dom.js";
import { systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { field, formError, onSubmit } from "./forms.js";
import { settingsList, wideTable } from "./table.js";
import { allPlayers, names, playerSelect, words } from "./tournament-common.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */
/** @typedef {import("./tournament-common.js").PlayerRef} PlayerRef */

/** The title with the tournament's status. @param {HTMLElement} title @param {TournamentPage} page */
export function renderTitle(title, page) {
  replace(title, page.t.name, " ", badge(page.t.status));
}

/** A signed-in player's "Enter tournament" (while rounds remain) or "Withdraw from tournament"
 * (until the tournament has completed).
 * @param {HTMLElement} actions @param {TournamentPage} page */
export function renderActions(actions, page) {
  const { t, me } = page;
  const entry = me ? t.entrants.find((/** @type {any} */ e) => e.player.id === me) : null;
  replace(actions, formError(),
    me && !entry && t.nextRound !== null
      ? h("button", { type: "button", class: "primary", onclick: () => page.act(actions, Q.ENTER_TOURNAMENT, {}, "You entered the tournament.") }, "Enter tournament")
      : null,
    me && entry && entry.withdrawnAfterRound === null && t.status !== "COMPLETED"
      ? h("button", { type: "button", onclick: () => page.act(actions, Q.WITHDRAW_FROM_TOURNAMENT, {}, "You withdrew from the tournament.") }, "Withdraw from tournament")
      : null);
}

/** The tournament's settings. @param {HTMLElement} settings @param {TournamentPage} page */
export function renderSettings(settings, page) {
  const { t, cat, tcat } = page;
  const scoring = t.tournamentScoring;
  const roundScoring = tcat.roundScorings.find((r) => r.value === t.roundScoring);
  replace(settings, h("h2", { id: "settings-h" }, "Settings"), settingsList([
    ["Game", t.game + (t.gameVersion ? ` (${t.gameVersion})` : "")],
    ["Scoring system", systemName(cat, t.scoringSystem)],
    ["Players per board", t.playersPerBoard],
    ["Rounds (seeded/planned)", `${t.rounds.length}/${t.roundCount}`],
    ["Round scoring (two boards)", roundScoring ? roundScoring.name : t.roundScoring],
    ["Tournament scoring", `${scoring.name}: ${scoring.description}`],
    ["Sit-out points", `${score(t.sitOutPoints)}${t.sitOutPointsOnce ? " (once)" : ""}`],
    ["Top board in the last round", t.topBoardLastRound ? "yes" : "no"],
    ["Keep apart", t.keepApart.length === 0 ? "nobody" : t.keepApart.map((/** @type {PlayerRef[]} */ pair) => names(pair)).join("; ")],
    ["Replacement scores", words(t.replacementScores)],
    ["Seats", t.seatLabels.join(", ")],
    ["Created", t.createdAt ? when(t.createdAt) : "—"]]));
}

/** One entrant's row, with the director's withdraw button.
 * @param {HTMLElement} entrants @param {TournamentPage} page @param {any} e */
function entrantRow(entrants, page, e) {
  return h("tr", { "data-player": e.player.name },
    h("th", { scope: "row" }, h("a", { href: `/players/${e.player.id}` }, e.player.name)),
    h("td", { class: "num" }, e.enteredAfterRound + 1),
    h("td", {}, e.withdrawnAfterRound === null ? "in" : `withdrew after round ${e.withdrawnAfterRound}`),
    h("td", {}, page.director && e.withdrawnAfterRound === null && page.t.status !== "COMPLETED"
      ? h("button", { type: "button", "aria-label": `Withdraw ${e.player.name}`, onclick: () =>
          page.act(entrants, Q.WITHDRAW_FROM_TOURNAMENT, { playerId: e.player.id }, `${e.player.name} withdrew.`) }, "Withdraw")
      : null));
}

/** The director's form to enter a registered player who has not entered.
 * @param {TournamentPage} page @param {PlayerRef[]} candidates */
function enterForm(page, candidates) {
  const { t } = page;
  const choice = playerSelect(candidates, "Choose a registered player");
  choice.required = true;
  const form = h("form", { novalidate: true, "aria-labelledby": "enter-h", class: "inline" },
    h("h3", { id: "enter-h" }, "Enter a player"),
    formError(),
    field("Player", choice, { field: "playerId", hint: t.rounds.length > 0 ? `A late entry plays from round ${t.nextRound}.` : undefined }),
    h("button", { type: "submit", class: "primary" }, "Enter player"));
  onSubmit(form, async (idempotencyKey) => {
    if (!choice.value) throw new ApiError([{ message: "Choose a player.", extensions: { field: "playerId" } }]);
    await gql(Q.ENTER_TOURNAMENT, { tournamentId: page.id, playerId: choice.value, idempotencyKey });
    announce("Player entered.");
    page.registered = await allPlayers();
    await page.reload();
  });
  return form;
}

/** The entrants, and the director's "enter a player" form while rounds remain.
 * @param {HTMLElement} entrants @param {TournamentPage} page */
export function renderEntrants(entrants, page) {
  const { t } = page;
  const active = t.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound === null);
  const list = wideTable(["Player", "From round", "Status", ""], t.entrants.map((/** @type {any} */ e) => entrantRow(entrants, page, e)), { class: "entrants" });
  const entered = new Set(t.entrants.map((/** @type {any} */ e) => e.player.id));
  const candidates = page.registered.filter((p) => !entered.has(p.id));
  const form = page.director && t.nextRound !== null
    ? page.keep("enter", candidates.map((p) => p.id), () => enterForm(page, candidates))
    : null;
  replace(entrants, h("h2", { id: "entrants-h" }, `Entrants (${active.length} in, ${t.entrants.length - active.length} withdrawn)`),
    formError(), t.entrants.length === 0 ? h("p", {}, "Nobody has entered yet.") : list, form);
}
