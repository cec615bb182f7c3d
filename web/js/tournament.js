// @ts-check
/** @file A tournament's page: settings, registration with its waitlist and requests, entrants,
 * the open round's roll call with its live proposal, a player's own boards and powers, every
 * seeded round with its boards, seeding record and swap form, standings per round updated
 * live, and the seeding checks. This module holds the page's state and its refresh; one view
 * per section renders it (tournament-registration.js, tournament-entrants.js,
 * tournament-roll-call.js, tournament-rounds.js). */

import { gql, session } from "./api.js";
import { h, replace, announce } from "./dom.js";
import { catalogue } from "./catalogue.js";
import * as Q from "./queries.js";
import { command, keeper } from "./forms.js";
import { follow, liveBadge, serial } from "./live.js";
import { downloads, tournamentStandingsTable } from "./standings.js";
import { allPlayers, tournamentCatalogue } from "./tournament-common.js";
import { renderActions, renderEntrants, renderSettings, renderTitle } from "./tournament-entrants.js";
import { renderRegistration } from "./tournament-registration.js";
import { renderRollCall } from "./tournament-roll-call.js";
import { renderChecks, renderMyBoards, renderRounds } from "./tournament-rounds.js";

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

/** @type {import("./main.js").View} */
export async function tournamentView(main, [id]) {
  const [{ tournament: first }, cat, tcat] = await Promise.all([gql(Q.TOURNAMENT, { id }), catalogue(), tournamentCatalogue()]);
  if (!first) {
    replace(main, h("h1", {}, "Tournament not found"), h("p", {}, h("a", { href: "/tournaments" }, "See every tournament.")));
    return;
  }
  const page = await pageState(id, first, { cat, tcat });
  const title = h("h1", {});
  const actions = h("div", { class: "actions" });
  const settings = h("section", { "aria-labelledby": "settings-h" });
  const registration = h("section", { "aria-labelledby": "registration-h", id: "registration" });
  const entrants = h("section", { "aria-labelledby": "entrants-h" });
  const rollCall = h("section", { "aria-labelledby": "roll-call-h", id: "roll-call" });
  const mine = h("section", { "aria-labelledby": "my-boards-h", id: "my-boards" });
  const rounds = h("section", { "aria-labelledby": "rounds-h", id: "rounds" });
  const live = liveBadge();
  const standingsBody = h("div", { id: "standings", "aria-live": "polite" });
  const roundSelect = /** @type {HTMLSelectElement} */ (h("select", { id: "standings-after" }));
  const checks = h("section", { "aria-labelledby": "checks-h", id: "seeding-checks" });
  const walkIns = page.director ? h("p", {}, h("a", { href: `/tournaments/${id}/walk-ins` }, "Register and enter walk-ins")) : null;
  const sheet = page.director
    ? h("p", {}, h("a", { href: `/tournaments/${id}/sign-in-sheet` }, "Sign-in QR codes for every entrant (print)"))
    : null;
  const organisers = h("p", {}, h("a", { href: `/tournaments/${id}/organisers`, class: "button" }, page.director ? "Organisers: add a co-organiser" : "Organisers"));
  replace(main, title, actions, walkIns, sheet, downloads("tournaments", id), organisers, settings, registration, entrants, rollCall, mine, rounds,
    h("section", { "aria-labelledby": "standings-h" },
      h("h2", { id: "standings-h" }, "Standings ", live.element),
      h("div", { class: "field" }, h("label", { for: "standings-after" }, "Standings after"), roundSelect),
      standingsBody),
    checks);

  const render = () => {
    renderTitle(title, page);
    renderSettings(settings, page);
    renderActions(actions, page);
    renderRegistration(registration, page);
    renderEntrants(entrants, page);
    renderRollCall(rollCall, page);
    renderMyBoards(mine, page);
    renderRounds(rounds, page);
    renderStandings(roundSelect, standingsBody, page);
  };
  page.reload = serial(async () => {
    await load(page);
    render();
  });
  roundSelect.addEventListener("change", () => {
    page.afterRound = roundSelect.value === "" ? null : Number(roundSelect.value);
    void page.reload();
  });

  await load(page);
  render();
  renderChecks(checks, id);

  // Every event of the tournament's stream (roll-call answers included) refreshes the page;
  // the server says which of them moved the standings.
  return follow(live, [
    { query: Q.TOURNAMENT_EVENTS, variables: { tournamentId: id }, onData: () => void page.reload() },
    { query: Q.TOURNAMENT_STANDINGS_MOVED, variables: { tournamentId: id }, onData: () => announce("The standings changed.") },
  ]);
}
