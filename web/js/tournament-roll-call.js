// @ts-check
/** @file A tournament page's roll call for the open round: the live proposal (how many
 * boards, who sits out, who plays two, and for its directors why), the director's "Mark all
 * present", search, one-press table and "Seed round" button, and a player's own check-in
 * form. */

import { gql } from "./api.js";
import { h, replace, announce } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, showError, clearErrors } from "./forms.js";
import { wideTable } from "./table.js";
import { names } from "./tournament-common.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** The proposal's one line per player sitting out or playing twice: why the proposal chose
 * them (docs/tournaments.md#rounds-and-roll-call). @param {any} proposal */
function reasonsList(proposal) {
  const everyone = [...proposal.sittingOut, ...proposal.playingTwice];
  if (everyone.length === 0) return null;
  const why = new Map(proposal.reasons.map((/** @type {any} */ r) => [r.player.id, r.reason]));
  return h("ul", { class: "proposal-reasons", "aria-label": "Why" },
    everyone.map((/** @type {any} */ p) => h("li", {}, `${p.name}: ${why.get(p.id) ?? "chosen"}`)));
}

/** What the director does about a roll call that cannot be seeded yet, in words.
 * @param {any} t @param {any} proposal */
function shortfall(t, proposal) {
  const needed = t.playersPerBoard - proposal.present;
  return needed > 0
    ? `${needed} more must check in before round ${proposal.round} can be seeded (${proposal.present} present; a board needs ${t.playersPerBoard}).`
    : `Round ${proposal.round} cannot be seeded yet: ${proposal.problem}`;
}

/** The server's proposal for the round, or its problem: the shortfall is the director's to act
 * on, so everyone else sees how many are present so far. @param {any} t @param {boolean} director */
function proposalView(t, director) {
  const proposal = t.proposal;
  if (!proposal) return null;
  if (proposal.problem) {
    return director
      ? h("p", { class: "proposal problem", role: "status" }, shortfall(t, proposal))
      : h("p", { class: "proposal", role: "status" }, `${proposal.present} present so far.`);
  }
  const seats = proposal.present - proposal.sittingOut.length + proposal.playingTwice.length;
  return h("div", { class: "proposal", role: "status" },
    h("p", {}, `${proposal.present} present: ${seats / t.playersPerBoard} boards of ${t.playersPerBoard}.`),
    h("p", { class: "proposal-sitting-out" }, `Sitting out: ${names(proposal.sittingOut)}.`),
    h("p", { class: "proposal-playing-twice" }, `Playing two boards: ${names(proposal.playingTwice)}.`),
    director ? reasonsList(proposal) : null);
}

/** One GraphQL request answering "present" for every player in `entries` (one field per
 * player, each keeping their standby and two-board answers). @param {any[]} entries */
function markAllPresentDocument(entries) {
  const fields = entries.map((e, i) => `p${i}: answerRollCall(tournamentId: $tournamentId, round: $round, playerId: ${JSON.stringify(e.player.id)}, ` +
    `present: true, standby: ${Boolean(e.standby)}, twoBoards: ${Boolean(e.twoBoards)}) { id }`);
  return `mutation MarkAllPresent($tournamentId: ID!, $round: Int!) {\n  ${fields.join("\n  ")}\n}`;
}

/** The director's "Mark all present": one press, one request, for everyone not answered yet
 * (those who checked out stay out). @param {HTMLElement} rollCall @param {TournamentPage} page @param {number} round */
function markAll(rollCall, page, round) {
  const unanswered = page.t.rollCall.filter((/** @type {any} */ e) => !e.answered);
  return h("p", { class: "mark-all" },
    h("button", { type: "button", class: "primary", "data-focus-key": "mark-all", disabled: unanswered.length === 0, onclick: () =>
      page.act(rollCall, markAllPresentDocument(unanswered), { round }, `${unanswered.length} players marked present.`) }, "Mark all present"),
    h("span", { class: "hint" }, unanswered.length === 0 ? " Everyone has answered."
      : ` Marks the ${unanswered.length} not answered yet; anyone who checked out stays out.`));
}

/** The search box over the roll call's rows, kept across refreshes (its text and focus).
 * @param {TournamentPage} page @param {number} round */
function searchBox(page, round) {
  return page.keep("roll-call-search", round, () => {
    const box = /** @type {HTMLInputElement} */ (h("input", { type: "search", id: "roll-call-search", autocomplete: "off" }));
    box.addEventListener("input", () => filterRows(box));
    return h("div", { class: "field" }, h("label", { for: "roll-call-search" }, "Find a player"), box);
  });
}

/** Shows only the roll call's rows whose player's name contains the search text.
 * @param {HTMLInputElement} box */
function filterRows(box) {
  const text = box.value.trim().toLowerCase();
  for (const row of document.querySelectorAll("table.roll-call tbody tr")) {
    const name = /** @type {HTMLElement} */ (row).dataset.player ?? "";
    /** @type {HTMLElement} */ (row).hidden = text !== "" && !name.toLowerCase().includes(text);
  }
}

/** The director's roll call: one press per player (present or absent), standby and two
 * boards. Each control's accessible name contains its visible text, and carries a stable
 * `data-focus-key` so focus stays on it after the refresh.
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
    h("th", { scope: "row" }, entry.player.name, h("span", { class: "answer" }, entry.present ? "" : entry.answered ? " (absent)" : " (not answered)")),
    h("td", {}, h("button", { type: "button", class: entry.present ? "toggle on" : "toggle", "aria-pressed": String(entry.present),
      "aria-label": `${entry.player.name} present`, "data-focus-key": `present-${entry.player.id}`,
      onclick: () => answer(entry, { present: !entry.present }) }, "Present")),
    h("td", {}, h("input", { type: "checkbox", checked: entry.standby, "aria-label": `${entry.player.name} standby`, "data-focus-key": `standby-${entry.player.id}`,
      onchange: (/** @type {Event} */ e) => answer(entry, { standby: /** @type {HTMLInputElement} */ (e.target).checked }) })),
    h("td", {}, h("input", { type: "checkbox", checked: entry.twoBoards, "aria-label": `${entry.player.name} two boards`, "data-focus-key": `two-boards-${entry.player.id}`,
      onchange: (/** @type {Event} */ e) => answer(entry, { twoBoards: /** @type {HTMLInputElement} */ (e.target).checked }) })))),
  { class: "roll-call", caption: "One press per player: present or not." });
}

/** The open round's roll call (empty once every round is seeded): a player's check-in, the
 * proposal, and for its directors "Mark all present", the search, the table and "Seed round".
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
    ? h("button", { type: "button", class: "primary", "data-focus-key": "seed", disabled: Boolean(!proposal || proposal.problem), onclick: () =>
        page.act(rollCall, Q.SEED_ROUND, { round, idempotencyKey: crypto.randomUUID() }, `Round ${round} seeded.`) }, `Seed round ${round}`)
    : null;
  let table = null;
  if (director) {
    const search = searchBox(page, round);
    table = [markAll(rollCall, page, round), search, rollCallTable(rollCall, page, round)];
  }
  replace(rollCall, h("h2", { id: "roll-call-h" }, `Roll call for round ${round}`), formError(),
    checkIn(page, round), table, proposalView(t, director), seed);
  const box = rollCall.querySelector("#roll-call-search");
  if (box instanceof HTMLInputElement) filterRows(box);
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
      h("button", { type: "submit", class: "primary", "data-focus-key": "check-in" }, "Check in"),
      h("button", { type: "button", "data-focus-key": "check-out", onclick: () => send(false) }, "Check out")));
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
