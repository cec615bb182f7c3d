// @ts-check
/** @file A tournament's registration (docs/tournaments.md#registration): the controls' fields
 * (the creation form and the directors' change form), the page's registration section (places
 * taken of the cap, the waitlist, entry requests with the directors' Approve and Decline, the
 * directors' open/close button and change form, the reader's own entry with its withdrawal),
 * and the confirmation step a withdrawal asks for. */

import { gql } from "./api.js";
import { h, replace, announce } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, input, numberOf, onSubmit } from "./forms.js";
import { settingsList, wideTable } from "./table.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */
/** @typedef {import("./tournament-common.js").PlayerRef} PlayerRef */

/** An instant as a `datetime-local` value read as UTC. @param {string|null} iso */
const utcValue = (iso) => (iso ? iso.slice(0, 16) : "");

/** An instant in words, in UTC as the organisers set it ("2026-12-01 09:00 UTC"). @param {string} iso */
const utcText = (iso) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** A `datetime-local` value read as UTC, as the API takes it (null when empty). @param {HTMLInputElement} el */
const utcInstant = (el) => (el.value === "" ? null : `${el.value}:00Z`);

/**
 * The registration controls' fields, filled from `current` (the tournament's `registration`;
 * defaults when null); `read()` gives `TournamentRegistrationInput` (empty fields as null).
 * @param {any} [current]
 */
export function registrationFields(current = null) {
  const closed = input("checkbox", { checked: current?.closed ?? false });
  const opensAt = input("datetime-local", { value: utcValue(current?.opensAt ?? null) });
  const closesAt = input("datetime-local", { value: utcValue(current?.closesAt ?? null) });
  const cap = input("number", { step: 1, min: 1, value: current?.maxEntrants ?? "" });
  const approval = input("checkbox", { checked: current?.approval ?? false });
  const element = h("fieldset", { class: "registration-fields" },
    h("legend", {}, "Registration"),
    field("Registration closed", closed, { field: "registration.closed", hint: "Players cannot enter themselves; organisers still enter anyone." }),
    field("Opens at (UTC)", opensAt, { field: "registration.opensAt", hint: "Optional: players enter themselves from then on." }),
    field("Closes at (UTC)", closesAt, { field: "registration.closesAt", hint: "Optional: players enter themselves until then." }),
    field("Most entrants", cap, { field: "registration.maxEntrants", hint: "Optional: later entries join a waitlist, promoted in order when a place comes free." }),
    field("Organisers approve entries", approval, { field: "registration.approval", hint: "A player's entry is a request the organisers approve or decline." }));
  const read = () => ({
    closed: closed.checked, opensAt: utcInstant(opensAt), closesAt: utcInstant(closesAt),
    maxEntrants: numberOf(cap), approval: approval.checked,
  });
  return { element, read };
}

/**
 * A button that asks before it acts: the first press shows `question` with `yes` and Cancel;
 * only `yes` runs `act`. Cancel has the focus, so a second tap in the same place does not act.
 * @param {string} label @param {string} question @param {string} yes @param {() => Promise<void>} act
 * @param {Record<string, string>} [attrs] the first button's attributes (e.g. `aria-label`)
 */
export function confirmStep(label, question, yes, act, attrs = {}) {
  const holder = h("div", { class: "confirm-step" });
  const first = () => replace(holder, h("button", { type: "button", ...attrs, onclick: ask }, label));
  function ask() {
    const cancel = h("button", { type: "button", onclick: () => { first(); holder.querySelector("button")?.focus(); } }, "Cancel");
    replace(holder, h("p", { class: "confirm-question" }, question),
      h("div", { class: "actions" }, h("button", { type: "button", class: "danger", onclick: act }, yes), cancel));
    cancel.focus();
  }
  first();
  return holder;
}

/** Where the reader stands: entered, waiting, asked, or none of these.
 * @param {TournamentPage} page @returns {{ kind: "entrant" | "withdrawn" | "waitlisted" | "requested" | null, place?: number }} */
export function myStanding(page) {
  const { t, me } = page;
  if (!me) return { kind: null };
  const entry = t.entrants.find((/** @type {any} */ e) => e.player.id === me);
  if (entry) return { kind: entry.withdrawnAfterRound === null ? "entrant" : "withdrawn" };
  const place = t.waitlist.findIndex((/** @type {PlayerRef} */ p) => p.id === me);
  if (place >= 0) return { kind: "waitlisted", place: place + 1 };
  if (t.entryRequests.some((/** @type {PlayerRef} */ p) => p.id === me)) return { kind: "requested" };
  return { kind: null };
}

/** The reader's own entry and its withdrawal (asked to confirm), while the tournament runs.
 * @param {HTMLElement} where @param {TournamentPage} page */
function myEntry(where, page) {
  const standing = myStanding(page);
  if (!standing.kind || standing.kind === "withdrawn" || page.t.status === "COMPLETED") return null;
  const withdraw = () => page.act(where, Q.WITHDRAW_FROM_TOURNAMENT, {}, "You withdrew.");
  const [label, question, yes] = {
    entrant: ["Withdraw from tournament", "Withdraw from the tournament? You will not be seated again; your scores stay.", "Yes, withdraw"],
    waitlisted: ["Leave the waitlist", "Leave the waitlist? Entering again puts you at its end.", "Yes, leave the waitlist"],
    requested: ["Withdraw my request", "Withdraw your request to enter?", "Yes, withdraw my request"],
  }[standing.kind];
  return h("div", { class: "my-entry" }, h("h3", {}, "Your entry"),
    page.keep(`my-withdraw-${standing.kind}`, page.t.version, () => confirmStep(label, question, yes, withdraw)));
}

/** The waitlist, first in line first. @param {TournamentPage} page */
function waitlist(page) {
  const { t } = page;
  if (t.waitlist.length === 0) return null;
  return h("div", {}, h("h3", { id: "waitlist-h" }, `Waitlist (${t.waitlist.length})`),
    h("ol", { class: "waitlist", "aria-labelledby": "waitlist-h" },
      t.waitlist.map((/** @type {PlayerRef} */ p) => h("li", {}, h("a", { href: `/players/${p.id}` }, p.name)))));
}

/** Entry requests, with Approve and Decline for the directors.
 * @param {HTMLElement} where @param {TournamentPage} page */
function requests(where, page) {
  const { t, director } = page;
  if (t.entryRequests.length === 0) return null;
  const answer = (/** @type {string} */ doc, /** @type {PlayerRef} */ p, /** @type {string} */ done) =>
    page.act(where, doc, { playerId: p.id }, done);
  const rows = t.entryRequests.map((/** @type {PlayerRef} */ p) => h("tr", { "data-player": p.name },
    h("th", { scope: "row" }, h("a", { href: `/players/${p.id}` }, p.name)),
    director ? h("td", {}, h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "aria-label": `Approve ${p.name}`, onclick: () => answer(Q.APPROVE_TOURNAMENT_ENTRY, p, `${p.name}'s entry approved.`) }, "Approve"),
      h("button", { type: "button", "aria-label": `Decline ${p.name}`, onclick: () => answer(Q.DECLINE_TOURNAMENT_ENTRY, p, `${p.name}'s entry declined.`) }, "Decline"))) : null));
  return h("div", {}, h("h3", {}, `Entry requests (${t.entryRequests.length})`),
    wideTable(director ? ["Player", ""] : ["Player"], rows, { class: "entry-requests" }));
}

/** The directors' open/close button and, until round 1 is seeded, their change form.
 * @param {HTMLElement} where @param {TournamentPage} page */
function directorControls(where, page) {
  const { t } = page;
  if (!page.director || t.nextRound === null) return null;
  const closed = t.registration.closed;
  const toggle = h("button", { type: "button", onclick: () => page.act(where, Q.CHANGE_TOURNAMENT_REGISTRATION,
    { registration: { closed: !closed } }, closed ? "Registration opened." : "Registration closed.") },
  closed ? "Open registration" : "Close registration");
  const form = t.rounds.length === 0
    ? page.keep("registration", t.registration, () => changeForm(page))
    : null;
  return h("div", {}, h("div", { class: "actions" }, toggle), form);
}

/** The directors' form changing every registration control at once. @param {TournamentPage} page */
function changeForm(page) {
  const fields = registrationFields(page.t.registration);
  const form = h("form", { novalidate: true, "aria-labelledby": "change-registration-h" },
    h("h3", { id: "change-registration-h" }, "Change registration"),
    formError(), fields.element,
    h("button", { type: "submit", class: "primary" }, "Save registration"));
  onSubmit(form, async () => {
    await gql(Q.CHANGE_TOURNAMENT_REGISTRATION, { tournamentId: page.id, registration: fields.read() });
    announce("Registration changed.");
    await page.reload();
  });
  return form;
}

/** The registration section: whether players may enter now, places taken of the cap, the
 * window and approval, the waitlist, requests, the directors' controls and the reader's entry.
 * @param {HTMLElement} section @param {TournamentPage} page */
export function renderRegistration(section, page) {
  const r = page.t.registration;
  const places = r.maxEntrants === null ? `${r.entrants} (no cap)` : `${r.entrants} of ${r.maxEntrants}`;
  const window = r.opensAt || r.closesAt
    ? `${r.opensAt ? utcText(r.opensAt) : "any time"} to ${r.closesAt ? utcText(r.closesAt) : "the last round"}`
    : "any time until the last round is seeded";
  replace(section, h("h2", { id: "registration-h" }, "Registration"), formError(),
    settingsList([
      ["Players may enter", r.openNow ? "yes" : `no: ${r.refusal}`],
      ["Entrants", places],
      ["Window", window],
      ["Approval", r.approval ? "the organisers approve each entry" : "not needed"]]),
    myEntry(section, page), waitlist(page), requests(section, page), directorControls(section, page));
}
