// @ts-check
/** @file A tournament's page in the order people use it on the day (docs/tournaments.md#the-web-app):
 * for its directors what to do next (the open roll call, the round in play and the boards
 * still missing a result, or the standings once it is complete); for a player their next
 * board and power, then their check-in; then the current round's boards and the standings,
 * updated live. Earlier rounds, entrants, settings, registration, links and the seeding checks
 * are one step away in closed sections. This module holds the page's state, its refresh and
 * where each part goes; one view per part renders it (tournament-next.js,
 * tournament-registration.js, tournament-entrants.js, tournament-roll-call.js,
 * tournament-rounds.js). */

import { gql, session } from "./api.js";
import { h, replace, announce } from "./dom.js";
import { catalogue } from "./catalogue.js";
import * as Q from "./queries.js";
import { command, keeper } from "./forms.js";
import { follow, liveBadge, serial } from "./live.js";
import { downloads, tournamentStandingsTable } from "./standings.js";
import { allPlayers, keepFocus, tournamentCatalogue } from "./tournament-common.js";
import { renderActions, renderEntrants, renderSettings, renderTitle } from "./tournament-entrants.js";
import { renderRegistration } from "./tournament-registration.js";
import { renderRollCall } from "./tournament-roll-call.js";
import { renderChecks, renderMyBoards, renderRounds } from "./tournament-rounds.js";
import { nextAction, renderNext } from "./tournament-next.js";
import { renderBestCountries } from "./awards.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** The standings after the chosen round (every round so far by default), and the picker of
 * that round. @param {HTMLSelectElement} roundSelect @param {HTMLElement} body @param {TournamentPage} page */
function renderStandings(roundSelect, body, page) {
  const { t, afterRound, standings } = page;
  const chosen = afterRound === null ? "" : String(afterRound);
  replace(roundSelect, h("option", { value: "" }, "Every round so far"),
    t.rounds.map((/** @type {any} */ r) => h("option", { value: r.number }, `Round ${r.number}`)));
  roundSelect.value = chosen;
  replace(body, standings.length === 0 ? h("p", {}, "No entrants yet.") : tournamentStandingsTable(standings, t.entrants, afterRound));
}

/** The tournament, its standings after the chosen round and the reader's own boards, into
 * the page's state. @param {TournamentPage} page */
async function load(page) {
  const { id, me } = page;
  const [{ tournament: fresh }, standingsData, boardsData] = await Promise.all([
    gql(Q.TOURNAMENT, { id }),
    gql(Q.TOURNAMENT_STANDINGS, { id, afterRound: page.afterRound }),
    me ? gql(Q.BOARDS_OF, { id, playerId: me }) : Promise.resolve(null),
  ]);
  if (fresh) page.t = fresh;
  page.standings = standingsData.tournament?.standings ?? [];
  page.myBoards = boardsData?.tournament?.boardsOf ?? [];
}

/** The page's state before its first load. @param {string} id @param {any} first the
 * tournament as first read @param {Pick<TournamentPage, "cat" | "tcat">} catalogues */
async function pageState(id, first, { cat, tcat }) {
  const role = session.role;
  const me = role?.kind === "player" ? role.id : null;
  // The director: the site admin or one of the tournament's organisers.
  const director = role?.kind === "admin" || first.organisers.some((/** @type {any} */ o) => o.id === me);
  /** @type {TournamentPage} */
  const page = {
    id, me, director, cat, tcat, t: first,
    // Registered players, for the director's "enter player".
    registered: director ? await allPlayers() : [],
    afterRound: null, standings: [], myBoards: [],
    keep: keeper(),
    // A refusal is shown in `where` (and changed nothing); otherwise the page refreshes.
    act: (where, doc, variables, done) => command(where, () => gql(doc, { tournamentId: id, ...variables }), done, () => page.reload()),
    reload: async () => {},
  };
  return page;
}

/** A closed section one step away from the page's top, open when `open`.
 * @param {string} id @param {HTMLElement} summary @param {boolean} open @param {...any} children */
function oneStepAway(id, summary, open, ...children) {
  return h("details", { id, class: "one-step", ...(open ? { open: true } : {}) }, h("summary", {}, summary), ...children);
}

/** @type {import("./main.js").View} */
export async function tournamentView(main, [id]) {
  const [{ tournament: first }, cat, tcat] = await Promise.all([gql(Q.TOURNAMENT, { id }), catalogue(), tournamentCatalogue()]);
  if (!first) {
    replace(main, h("h1", {}, "Tournament not found"), h("p", {}, h("a", { href: "/tournaments" }, "See every tournament.")));
    return;
  }
  const page = await pageState(id, first, { cat, tcat });
  // Before the first round the director's work is entrants, settings and registration.
  const beforeFirstRound = first.rounds.length === 0;
  const title = h("h1", {});
  const actions = h("div", { class: "actions" });
  const next = h("section", { "aria-labelledby": "next-h", id: "next" });
  const settings = h("section", { "aria-labelledby": "settings-h" });
  const registration = h("section", { "aria-labelledby": "registration-h", id: "registration" });
  const entrants = h("section", { "aria-labelledby": "entrants-h" });
  const rollCall = h("section", { "aria-labelledby": "roll-call-h", id: "roll-call" });
  const mine = h("section", { "aria-labelledby": "my-boards-h", id: "my-boards" });
  const current = h("section", { "aria-labelledby": "rounds-h", id: "rounds" });
  const earlier = h("div", {});
  // Where the current round sits when it is not the director's next action.
  const currentSlot = h("div", {}, current);
  const live = liveBadge();
  const standingsBody = h("div", { id: "standings", "aria-live": "polite" });
  const roundSelect = /** @type {HTMLSelectElement} */ (h("select", { id: "standings-after" }));
  const checks = h("section", { "aria-labelledby": "checks-h", id: "seeding-checks" });
  const bestCountries = h("section", { "aria-labelledby": "best-countries-h", id: "best-countries" });
  const walkIns = page.director ? h("p", {}, h("a", { href: `/tournaments/${id}/walk-ins` }, "Register and enter walk-ins")) : null;
  const sheet = page.director
    ? h("p", {}, h("a", { href: `/tournaments/${id}/sign-in-sheet` }, "Sign-in QR codes for every entrant (print)"))
    : null;
  const organisers = h("p", {}, h("a", { href: `/tournaments/${id}/organisers`, class: "button" }, page.director ? "Organisers: add a co-organiser" : "Organisers"));
  // The director's roll call while a round is in play: early check-ins for the next one.
  const laterRollCall = oneStepAway("later-roll-call", h("span", {}, "Roll call for the next round"), false);
  const entrantsSummary = h("span", {});
  replace(main, title, actions, page.director ? next : null, mine, page.director ? null : rollCall, currentSlot,
    h("section", { "aria-labelledby": "standings-h" },
      h("h2", { id: "standings-h" }, "Standings ", live.element),
      h("div", { class: "field" }, h("label", { for: "standings-after" }, "Standings after"), roundSelect),
      standingsBody),
    bestCountries,
    page.director ? laterRollCall : null,
    oneStepAway("earlier-rounds", h("span", {}, "Earlier rounds"), false, earlier),
    oneStepAway("entrants-more", entrantsSummary, beforeFirstRound && page.director, entrants, walkIns, sheet),
    oneStepAway("settings-more", h("span", {}, "Settings, registration and organisers"), beforeFirstRound, settings, registration, organisers),
    oneStepAway("links-more", h("span", {}, "Downloads, audit log, projector page and seeding checks"), false, downloads("tournaments", id),
      h("ul", {},
        h("li", {}, h("a", { href: `/tournaments/${id}/audit` }, "Audit log")),
        h("li", {}, h("a", { href: `/tournaments/${id}/kiosk` }, "Projector page (standings, board call and centre charts in turn)"))),
      checks));

  const render = () => {
    const action = nextAction(page.t);
    renderTitle(title, page);
    renderSettings(settings, page);
    renderActions(actions, page);
    renderRegistration(registration, page);
    renderEntrants(entrants, page);
    replace(entrantsSummary, `Entrants (${page.t.entrants.length})`);
    renderRollCall(rollCall, page);
    renderMyBoards(mine, page);
    renderRounds(current, earlier, page);
    if (page.director) {
      // The round in play is the director's next action (its boards go to the top);
      // otherwise the open roll call is, and the round stays in its place.
      const inPlay = action.kind === "in-play";
      const part = inPlay ? current : page.t.nextRound === null ? null : rollCall;
      renderNext(next, page, action, part);
      if (!inPlay && current.parentElement !== currentSlot) currentSlot.append(current);
      if (part !== rollCall && rollCall.parentElement !== laterRollCall) laterRollCall.append(rollCall);
      laterRollCall.hidden = !inPlay || page.t.nextRound === null;
    }
    renderStandings(roundSelect, standingsBody, page);
    renderBestCountries(bestCountries, page);
  };
  // Live events come in bursts (a whole roll call marked at once): one refresh waits at most.
  const refresh = serial(async () => {
    queued = null;
    await load(page);
    keepFocus(main, render);
  });
  /** @type {Promise<void> | null} */
  let queued = null;
  page.reload = () => (queued ??= refresh());
  roundSelect.addEventListener("change", () => {
    page.afterRound = roundSelect.value === "" ? null : Number(roundSelect.value);
    void page.reload();
  });

  await load(page);
  keepFocus(main, render);
  renderChecks(checks, id);

  // Every event of the tournament's stream (roll-call answers included) refreshes the page;
  // the server says which of them moved the standings.
  return follow(live, [
    { query: Q.TOURNAMENT_EVENTS, variables: { tournamentId: id }, onData: () => void page.reload() },
    { query: Q.TOURNAMENT_STANDINGS_MOVED, variables: { tournamentId: id }, onData: () => announce("The standings changed.") },
  ]);
}
