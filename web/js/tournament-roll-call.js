// @ts-check
/** @file A tournament page's roll call for the open round: the live proposal (how many
 * boards, who sits out, who plays two), the director's one-click table and "Seed round"
 * button, and a player's own check-in form. */

import { gql } from "./api.js";
import { h, replace, announce } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, showError, clearErrors } from "./forms.js";
import { wideTable } from "./table.js";
import { names } from "./tournament-common.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** The server's proposal for the round, or its problem: the shortfall is the director's to act
 * on, so everyone else sees how many are present so far. @param {any} t @param {boolean} director */
function proposalView(t, director) {
  const proposal = t.proposal;
  if (!proposal) return null;
  if (proposal.problem) {
    return director
      ? h("p", { class: "proposal problem", role: "status" }, proposal.problem)
      : h("p", { class: "proposal", role: "status" }, `${proposal.present} present so far.`);
  }
  const seats = proposal.present - proposal.sittingOut.length + proposal.playingTwice.length;
  return h("div", { class: "proposal", role: "status" },
    h("p", {}, `${proposal.present} present: ${seats / t.playersPerBoard} boards of ${t.playersPerBoard}.`),
    h("p", { class: "proposal-sitting-out" }, `Sitting out: ${names(proposal.sittingOut)}.`),
    h("p", { class: "proposal-playing-twice" }, `Playing two boards: ${names(proposal.playingTwice)}.`));
}

/** The director's roll call: one click per player (present or absent), standby and two boards.
 * @param {HTMLElement} rollCall @param {TournamentPage} page @param {number} round */
function rollCallTable(rollCall, page, round) {
  /** @param {any} entry @param {{ present?: boolean, standby?: boolean, twoBoards?: boolean }} change */
  const answer = (entry, change) => {
    const next = { present: entry.present, standby: entry.standby, twoBoards: entry.twoBoards, ...change };
    // A standby or a second board only means something for a player who is there.
    if (change.standby || change.twoBoards) next.present = true;
    if (!next.present) next.standby = next.twoBoards = false;
    return page.act(rollCall, Q.ANSWER_ROLL_CALL, { round, playerId: entry.player.id, ...next }, `${entry.player.name}: roll call answered.`);
  };
  return wideTable(["Player", "Present", "Standby", "Two boards"], page.t.rollCall.map((/** @type {any} */ entry) => h("tr", { "data-player": entry.player.name },
    h("th", { scope: "row" }, entry.player.name),
    h("td", {}, h("button", { type: "button", class: entry.present ? "toggle on" : "toggle", "aria-pressed": String(entry.present),
      "aria-label": `${entry.player.name} present`, onclick: () => answer(entry, { present: !entry.present }) },
      entry.present ? "Present" : entry.answered ? "Absent" : "Not answered")),
    h("td", {}, h("input", { type: "checkbox", checked: entry.standby, "aria-label": `${entry.player.name} standby`,
      onchange: (/** @type {Event} */ e) => answer(entry, { standby: /** @type {HTMLInputElement} */ (e.target).checked }) })),
    h("td", {}, h("input", { type: "checkbox", checked: entry.twoBoards, "aria-label": `${entry.player.name} two boards`,
      onchange: (/** @type {Event} */ e) => answer(entry, { twoBoards: /** @type {HTMLInputElement} */ (e.target).checked }) })))),
  { class: "roll-call", caption: "One click per player: present or absent." });
}

/** The open round's roll call (empty once every round is seeded).
 * @param {HTMLElement} rollCall @param {TournamentPage} page */
export function renderRollCall(rollCall, page) {
  const { t, director } = page;
  if (t.nextRound === null) {
    replace(rollCall);
    return;
  }
  const round = t.nextRound;
  const proposal = t.proposal;
  const seed = director
    ? h("button", { type: "button", class: "primary", disabled: Boolean(!proposal || proposal.problem), onclick: () =>
        page.act(rollCall, Q.SEED_ROUND, { round, idempotencyKey: crypto.randomUUID() }, `Round ${round} seeded.`) }, `Seed round ${round}`)
    : null;
  replace(rollCall, h("h2", { id: "roll-call-h" }, `Roll call for round ${round}`), formError(),
    checkIn(page, round), proposalView(t, director), director ? rollCallTable(rollCall, page, round) : null, seed);
}

/** What a player's own roll-call answer says. @param {any} entry */
function checkInStatus(entry) {
  if (!entry.answered) return "You have not answered yet.";
  return entry.present ? `You are checked in${entry.standby ? " as a standby" : ""}${entry.twoBoards ? " for two boards" : ""}.` : "You are checked out.";
}

/** A player's own check-in for the open round (kept while their answer stays the same).
 * @param {TournamentPage} page @param {number} round */
function checkIn(page, round) {
  const { t, me } = page;
  const entry = me ? t.rollCall.find((/** @type {any} */ e) => e.player.id === me) : null;
  if (!entry) return null;
  return page.keep("check-in", [round, entry], () => checkInForm(page, round, entry));
}

/** @param {TournamentPage} page @param {number} round @param {any} entry */
function checkInForm(page, round, entry) {
  const standby = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", checked: entry.standby }));
  const twoBoards = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", checked: entry.twoBoards }));
  const form = h("form", { novalidate: true, "aria-labelledby": "check-in-h", class: "check-in" },
    h("h3", { id: "check-in-h" }, `Check in for round ${round}`),
    formError(),
    h("p", { class: "check-in-status", role: "status" }, checkInStatus(entry)),
    field("Standby: I may sit out if the count needs it", standby, { field: "standby" }),
    field("Two boards: I can play two boards", twoBoards, { field: "twoBoards" }),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary" }, "Check in"),
      h("button", { type: "button", onclick: () => send(false) }, "Check out")));
  /** @param {boolean} present */
  const send = async (present) => {
    clearErrors(form);
    try {
      await gql(Q.ANSWER_ROLL_CALL, { tournamentId: page.id, round, present, standby: present && standby.checked, twoBoards: present && twoBoards.checked });
      announce(present ? "You are checked in." : "You are checked out.");
      await page.reload();
    } catch (error) {
      showError(form, error);
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void send(true);
  });
  return form;
}
