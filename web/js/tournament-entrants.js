// @ts-check
/** @file A tournament page's first sections: its title, a player's entry button, its settings,
 * and its entrants with the director's withdraw (confirmed) and undo buttons and "enter a
 * player" form. Each view renders one section from the page's state; the registration section
 * is tournament-registration.js. */

import { ApiError, gql } from "./api.js";
import { h, replace, score, when, badge, announce } from "./dom.js";
import { systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { field, formError, onSubmit } from "./forms.js";
import { settingsList, wideTable } from "./table.js";
import { allPlayers, names, playerSelect, words } from "./tournament-common.js";
import { confirmStep, myStanding } from "./tournament-registration.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */
/** @typedef {import("./tournament-common.js").PlayerRef} PlayerRef */

/** The title with the tournament's status. @param {HTMLElement} title @param {TournamentPage} page */
export function renderTitle(title, page) {
  replace(title, page.t.name, " ", badge(page.t.status));
}

/** A signed-in player's entry under the title: the button entering them (asking to, or joining
 * the waitlist, as the registration controls say) or where they stand. Withdrawing is further
 * down, in the registration section, and asks to confirm (docs/tournaments.md#registration).
 * @param {HTMLElement} actions @param {TournamentPage} page */
export function renderActions(actions, page) {
  const { t, me } = page;
  const r = t.registration;
  const standing = myStanding(page);
  const enter = (/** @type {string} */ label, /** @type {string} */ done) =>
    h("button", { type: "button", class: "primary", onclick: () => page.act(actions, Q.ENTER_TOURNAMENT, {}, done) }, label);
  /** @type {any} */
  let shown = null;
  if (standing.kind === "entrant") shown = h("p", {}, "You are entered.");
  else if (standing.kind === "waitlisted") shown = h("p", {}, `You are on the waitlist: place ${standing.place}.`);
  else if (standing.kind === "requested") shown = h("p", {}, "Your entry request waits for the organisers' answer.");
  else if (me && !standing.kind && t.nextRound !== null) {
    const full = r.maxEntrants !== null && r.entrants >= r.maxEntrants;
    if (!r.openNow && !page.director) shown = h("p", {}, `You cannot enter now: ${r.refusal}.`);
    else if (r.approval && !page.director) shown = enter("Ask to enter", "You asked to enter the tournament.");
    else if (full) shown = enter("Join the waitlist", "You joined the waitlist.");
    else shown = enter("Enter tournament", "You entered the tournament.");
  }
  replace(actions, formError(), shown);
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

/** A director's control on an entrant's row: Withdraw (asking to confirm) while the tournament
 * runs, or Undo withdrawal until the next round is seeded.
 * @param {HTMLElement} entrants @param {TournamentPage} page @param {any} e */
function directorCell(entrants, page, e) {
  const { t } = page;
  if (!page.director || t.status === "COMPLETED") return null;
  const name = e.player.name;
  if (e.withdrawnAfterRound === null) {
    const withdraw = () => page.act(entrants, Q.WITHDRAW_FROM_TOURNAMENT, { playerId: e.player.id }, `${name} withdrew.`);
    return page.keep(`withdraw-${e.player.id}`, t.version, () => confirmStep("Withdraw",
      `Withdraw ${name}? They will not be seated again.`, `Yes, withdraw ${name}`, withdraw, { "aria-label": `Withdraw ${name}` }));
  }
  if (e.withdrawnAfterRound !== t.rounds.length) return null;
  return h("button", { type: "button", "aria-label": `Undo ${name}'s withdrawal`, onclick: () =>
    page.act(entrants, Q.UNDO_TOURNAMENT_WITHDRAWAL, { playerId: e.player.id }, `${name} is entered again.`) }, "Undo withdrawal");
}

/** One entrant's row, with the director's controls.
 * @param {HTMLElement} entrants @param {TournamentPage} page @param {any} e */
function entrantRow(entrants, page, e) {
  return h("tr", { "data-player": e.player.name },
    h("th", { scope: "row" }, h("a", { href: `/players/${e.player.id}` }, e.player.name)),
    h("td", { class: "num" }, e.enteredAfterRound + 1),
    h("td", {}, e.withdrawnAfterRound === null ? "in" : `withdrew after round ${e.withdrawnAfterRound}`),
    h("td", {}, directorCell(entrants, page, e)));
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
  const entered = new Set([...t.entrants.map((/** @type {any} */ e) => e.player.id),
    ...t.waitlist.map((/** @type {PlayerRef} */ p) => p.id), ...t.entryRequests.map((/** @type {PlayerRef} */ p) => p.id)]);
  const candidates = page.registered.filter((p) => !entered.has(p.id));
  const form = page.director && t.nextRound !== null
    ? page.keep("enter", candidates.map((p) => p.id), () => enterForm(page, candidates))
    : null;
  replace(entrants, h("h2", { id: "entrants-h" }, `Entrants (${active.length} in, ${t.entrants.length - active.length} withdrawn)`),
    formError(), t.entrants.length === 0 ? h("p", {}, "Nobody has entered yet.") : list, form);
}
