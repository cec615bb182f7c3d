// @ts-check
/** @file A tournament's page in the order people use it on the day (docs/tournaments.md#the-web-app):
 * for its directors what to do next (the open roll call, the round in play and the boards
 * still missing a result, or the standings once it is complete); for a player their next
 * board and power, then their check-in; then the current round's boards and the standings,
 * updated live. Earlier rounds, entrants, settings, registration, links and the seeding checks
 * are one step away in closed sections. This module holds the page's state, its live
 * updates (pushed standings applied in place, a result reading only its board:
 * docs/api.md#live-updates) and where each part goes; one view per part renders it (tournament-next.js,
 * tournament-registration.js, tournament-entrants.js, tournament-roll-call.js,
 * tournament-rounds.js). */

import { gql, session } from "./api.js";
import { h, replace, announce } from "./dom.js";
import { catalogue } from "./catalogue.js";
import { seriesLinks } from "./series.js";
import * as Q from "./queries.js";
import { command, keeper } from "./forms.js";
import { follow, liveBadge, serial, versioned, withChangedRows } from "./live.js";
import { downloads, tournamentStandingsTable } from "./standings.js";
import { allPlayers, keepFocus, tournamentCatalogue } from "./tournament-common.js";
import { renderActions, renderEntrants, renderSettings, renderTitle } from "./tournament-entrants.js";
import { renderRegistration } from "./tournament-registration.js";
import { renderRollCall } from "./tournament-roll-call.js";
import { renderChecks, renderMyBoards, renderRounds } from "./tournament-rounds.js";
import { nextAction, renderNext } from "./tournament-next.js";
import { renderBestCountries } from "./awards.js";
import { renderTeams } from "./teams.js";
import { renderPowers } from "./powers.js";
import { renderPools } from "./pools.js";
import { renderRulings } from "./rulings.js";
import { renderKeepApart } from "./keep-apart.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** The standings after the chosen round (every round so far by default), and the picker of
 * that round. @param {HTMLSelectElement} roundSelect @param {HTMLElement} body @param {TournamentPage} page */
function renderStandings(roundSelect, body, page) {
  const { t, afterRound, standings } = page;
  const chosen = afterRound === null ? "" : String(afterRound);
  replace(roundSelect, h("option", { value: "" }, "Every round so far"),
    t.rounds.map((/** @type {any} */ r) => h("option", { value: r.number }, `Round ${r.number}`)));
  roundSelect.value = chosen;
  const corrections = correctedBoards(t);
  replace(body, standings.length === 0 ? h("p", {}, "No entrants yet.") : tournamentStandingsTable(standings, t.entrants, afterRound, corrections),
    corrections.size === 0 ? null : h("section", { "aria-labelledby": "corrections-h", class: "corrections" },
      h("h3", { id: "corrections-h" }, "Corrected results (*)"),
      h("ul", {}, [...corrections].map(([key, reasons]) => {
        const [round, board] = key.split(":");
        return h("li", { id: `correction-${round}-${board}` },
          h("a", { href: `/tournaments/${page.id}/boards/${boardId(t, Number(round), Number(board))}` }, `Round ${round}, board ${board}`),
          `: ${reasons.join("; ")}`);
      }))));
}

/** Each corrected board's reasons (oldest first), by `round:board`, in round and board
 * order (docs/tournaments.md#the-audit-page). @param {any} t */
function correctedBoards(t) {
  return new Map(t.rounds.flatMap((/** @type {any} */ r) => r.boards
    .filter((/** @type {any} */ b) => b.correctionReasons.length > 0)
    .map((/** @type {any} */ b) => [`${r.number}:${b.number}`, /** @type {string[]} */ (b.correctionReasons)])));
}

/** The id of board `board` of round `round`. @param {any} t @param {number} round @param {number} board */
function boardId(t, round, board) {
  return t.rounds.find((/** @type {any} */ r) => r.number === round)?.boards.find((/** @type {any} */ b) => b.number === board)?.id ?? "";
}

/** The tournament and the reader's own boards, into the page's state (the standings are
 * read and pushed apart: `loadStandings`). @param {TournamentPage} page */
async function load(page) {
  const { id, me } = page;
  const [{ tournament: fresh }, boardsData] = await Promise.all([
    gql(Q.TOURNAMENT, { id }),
    me ? gql(Q.BOARDS_OF, { id, playerId: me }) : Promise.resolve(null),
  ]);
  if (fresh) page.t = fresh;
  page.myBoards = boardsData?.tournament?.boardsOf ?? [];
}

/** The standings after the chosen round, into the page's state; returns the tournament's
 * version they were read at. @param {TournamentPage} page */
async function loadStandings(page) {
  const { tournament } = await gql(Q.TOURNAMENT_STANDINGS, { id: page.id, afterRound: page.afterRound });
  page.standings = tournament?.standings ?? [];
  return /** @type {number} */ (tournament?.version ?? page.t.version);
}

/** Event types that change one board of the page (and the standings, which are pushed):
 * the page reads that board alone. */
const BOARD_RESULT_EVENTS = new Set(["BoardFinished", "BoardResultCorrected"]);
/** Event types that change nothing the page shows (they show on the board's page). */
const BOARD_PAGE_EVENTS = new Set(["BoardProgressRecorded", "BoardResultAwaitingConfirmation", "BoardResultDisputed"]);

/** The page's tournament with `board` (as `CHANGED_BOARD` reads it) in place of the board
 * with its id, and the reader's own copy of it marked finished or not.
 * @param {TournamentPage} page @param {any} board */
function withBoard(page, board) {
  const rounds = page.t.rounds.map((/** @type {any} */ r) => r.number !== board.round ? r
    : { ...r, boards: r.boards.map((/** @type {any} */ b) => b.id === board.id ? { ...b, ...board } : b) });
  page.t = { ...page.t, rounds };
  page.myBoards = page.myBoards.map((b) => b.id === board.id ? { ...b, finished: board.finished } : b);
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
  const [{ tournament: first, seriesOf }, cat, tcat] = await Promise.all([gql(Q.TOURNAMENT, { id }), catalogue(), tournamentCatalogue()]);
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
  const teams = h("section", { "aria-labelledby": "teams-h", id: "teams" });
  const powers = h("section", { "aria-labelledby": "powers-h", id: "powers" });
  const pools = h("section", { "aria-labelledby": "pools-h", id: "pools" });
  const rulings = h("section", { "aria-labelledby": "rulings-h", id: "rulings" });
  const keepApart = h("section", { "aria-labelledby": "keep-apart-h", id: "keep-apart-pairs" });
  const walkIns = page.director ? h("p", {}, h("a", { href: `/tournaments/${id}/walk-ins` }, "Register and enter walk-ins")) : null;
  const sheet = page.director
    ? h("p", {}, h("a", { href: `/tournaments/${id}/sign-in-sheet` }, "Sign-in QR codes for every entrant (print)"))
    : null;
  const organisers = h("p", {}, h("a", { href: `/tournaments/${id}/organisers`, class: "button" }, page.director ? "Organisers: add a co-organiser" : "Organisers"));
  // The director's roll call while a round is in play: early check-ins for the next one.
  const laterRollCall = oneStepAway("later-roll-call", h("span", {}, "Roll call for the next round"), false);
  const entrantsSummary = h("span", {});
  replace(main, title, seriesLinks(seriesOf), actions, page.director ? next : null, mine, page.director ? null : rollCall, currentSlot,
    h("section", { "aria-labelledby": "standings-h" },
      h("h2", { id: "standings-h" }, "Standings ", live.element),
      h("div", { class: "field" }, h("label", { for: "standings-after" }, "Standings after"), roundSelect),
      standingsBody),
    bestCountries,
    teams,
    powers,
    pools,
    rulings,
    keepApart,
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
    renderTeams(teams, page);
    renderPowers(powers, page);
    renderPools(pools, page);
    renderRulings(rulings, page);
    renderKeepApart(keepApart, page);
  };
  const stop = await followTournament(page, live, () => keepFocus(main, render), roundSelect);
  renderChecks(checks, id);
  return stop;
}

/**
 * Reads the page, renders it, and keeps it live (docs/api.md#live-updates): the standings
 * take each pushed change in place, a result or a correction reads only its board, events
 * the page does not show read nothing, and any other event reads the tournament again; a
 * missed push or event (a version gap) or a reconnection reads again what it concerns.
 * Returns the clean-up that ends the subscriptions.
 * @param {TournamentPage} page @param {ReturnType<typeof liveBadge>} live
 * @param {() => void} rerender @param {HTMLSelectElement} roundSelect
 */
async function followTournament(page, live, rerender, roundSelect) {
  const { id } = page;
  // Live events come in bursts (a whole roll call marked at once): one refresh waits at most.
  const refresh = serial(async () => {
    queued = null;
    await load(page);
    log.holds(page.t.version);
    rerender();
  });
  /** @type {Promise<void> | null} */
  let queued = null;
  page.reload = () => (queued ??= refresh());
  // The standings, read again (after a missed push, or another round chosen).
  const refreshStandings = serial(async () => {
    table.holds(await loadStandings(page));
    rerender();
  });
  roundSelect.addEventListener("change", () => {
    page.afterRound = roundSelect.value === "" ? null : Number(roundSelect.value);
    void refreshStandings();
  });
  // Only the board a result or a correction changed (and the best countries it may move).
  const refreshBoard = serial(async (/** @type {string} */ boardId) => {
    const changed = (await gql(Q.CHANGED_BOARD, { id, boardId })).tournament;
    if (!changed?.board) return void page.reload();
    withBoard(page, changed.board);
    page.t = { ...page.t, bestCountries: changed.bestCountries, teamStandings: changed.teamStandings };
    rerender();
  });

  const [, standingsVersion] = await Promise.all([load(page), loadStandings(page)]);
  // What the page holds of the tournament's stream: its events and its standings, each
  // followed by its own subscription.
  const log = versioned(page.t.version, () => void page.reload());
  const table = versioned(standingsVersion, () => void refreshStandings());
  rerender();

  return follow(live, [
    {
      query: Q.TOURNAMENT_STANDINGS_PUSHED,
      variables: { tournamentId: id },
      onData: ({ tournamentStandingsChanged: update }) => table.apply(update.previousVersion, update.version, () => {
        // Standings after an earlier round are read again; the current ones take the push.
        const rows = page.afterRound === null ? withChangedRows(page.standings, update) : null;
        if (!rows) return void refreshStandings();
        page.standings = rows;
        rerender();
        announce("The standings changed.");
      }),
    },
    {
      query: Q.TOURNAMENT_EVENTS,
      variables: { tournamentId: id },
      onData: ({ tournamentEvents: event }) => log.apply(event.version - 1, event.version, () => {
        page.t = { ...page.t, version: Math.max(page.t.version, event.version) };
        if (BOARD_RESULT_EVENTS.has(event.type)) void refreshBoard(event.payload.boardId);
        else if (!BOARD_PAGE_EVENTS.has(event.type)) void page.reload();
      }),
    },
  ], () => {
    void page.reload();
    void refreshStandings();
  });
}
