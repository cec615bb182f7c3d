// @ts-check
/** @file Public league pages: the paged leagues list, and a league's page (one view per
 * section: title, actions, settings, players, live standings, time travel over its log, a
 * chart of running totals, and its games). */

import { gql, session } from "./api.js";
import { h, replace, score, when, badge, announce } from "./dom.js";
import { aggregationText, catalogue, systemName } from "./catalogue.js";
import { seriesLinks } from "./series.js";
import * as Q from "./queries.js";
import { formError, showError } from "./forms.js";
import { firstRow, pager, settingsList, wideTable } from "./table.js";
import { follow, liveBadge, serial, versioned, withChangedRows } from "./live.js";
import { downloads, standingsTable } from "./standings.js";
import { timeTravel } from "./time-travel.js";
import { totalsChart } from "./chart.js";

const PAGE = 20;

/** @type {import("./main.js").View} */
export async function leaguesView(main) {
  /** @type {(string|null)[]} cursors of the pages seen, for "Previous" */
  const stack = [null];
  const body = h("div");
  replace(main, h("h1", {}, "Leagues"), body);
  const load = async () => {
    const after = stack[stack.length - 1];
    const [{ leagues }, cat] = await Promise.all([gql(Q.LEAGUES, { first: PAGE, after }), catalogue()]);
    const rows = leagues.nodes.map((/** @type {any} */ l) =>
      h("tr", {},
        h("th", { scope: "row" }, h("a", { href: `/leagues/${l.id}` }, l.name)),
        h("td", {}, badge(l.status)),
        h("td", {}, l.game, l.gameVersion ? ` (${l.gameVersion})` : ""),
        h("td", {}, systemName(cat, l.scoringSystem)),
        h("td", { class: "num" }, `${l.players.length}/${l.size}`),
        h("td", { class: "num" }, l.playersPerGame)));
    const first = firstRow(stack, PAGE);
    replace(body,
      leagues.totalCount === 0
        ? h("p", {}, "No leagues yet.", session.role?.kind === "admin" ? [" ", h("a", { href: "/admin" }, "Create one.")] : null)
        : wideTable(["League", "Status", "Game", "Scoring", "Players", "Per game"], rows,
            { caption: `Leagues ${first}–${first + leagues.nodes.length - 1} of ${leagues.totalCount}` }),
      pager(stack, leagues.pageInfo, load));
  };
  await load();
}

/** The result of a finished game, in its system's terms. @param {any} game */
function resultText(game) {
  const r = game.result;
  if (!r) return "—";
  const name = (/** @type {string} */ id) => game.seats.find((/** @type {any} */ s) => s.player.id === id)?.player.name ?? id;
  if (r.__typename === "PlacementResult") return r.entries.map((/** @type {any} */ e) => `${name(e.player.id)} ${score(e.points)}`).join(", ");
  if (r.__typename === "DiplomacyResult") {
    return r.entries.map((/** @type {any} */ e) => `${name(e.player.id)} ${e.centres}${e.eliminated ? ` (out ${e.eliminatedYear ?? ""})` : ""}`
      + `${e.inDraw ? " (in draw)" : ""}${e.soloYear ? ` (solo ${e.soloYear})` : ""}`).join(", ");
  }
  return (r.draw ? "Draw. " : "") + r.sides.map((/** @type {any} */ s) => `${s.name}: ${s.players.map((/** @type {any} */ p) => `${name(p.player.id)} ${score(p.points)}${p.surrendered ? " (surrendered)" : ""}`).join(", ")}`).join("; ");
}

/** The league's settings. @param {any} league @param {import("./catalogue.js").Catalogue} cat */
function settingsView(league, cat) {
  return [h("h2", { id: "settings-h" }, "Settings"), settingsList([
    ["Game", league.game + (league.gameVersion ? ` (${league.gameVersion})` : "")],
    ["Scoring system", systemName(cat, league.scoringSystem)],
    ["Players per game (k)", league.playersPerGame],
    ["Players (n/N)", `${league.players.length}/${league.size}`],
    ["Games per seat (s)", league.gamesPerSeat],
    ["Active players required", league.requireActivePlayers ? "yes" : "no"],
    ["Standings total", aggregationText(cat, league.aggregation)],
    ["Created", when(league.createdAt)]])];
}

/** Who has joined. @param {any} league */
function playersView(league) {
  return [h("h2", { id: "players-h" }, `Players (${league.players.length}/${league.size})`),
    league.players.length === 0 ? h("p", {}, "Nobody has joined yet.")
      : h("ol", { class: "players" }, league.players.map((/** @type {any} */ p) => h("li", {}, h("a", { href: `/players/${p.id}` }, p.name))))];
}

/** A player's join or leave button while the league is open, the audit log's and the
 * organisers' links; a refusal is shown in `actions`. @param {HTMLElement} actions @param {any} league @param {() => Promise<void>} reload */
function actionsView(actions, league, reload) {
  const role = session.role;
  const joined = role?.kind === "player" && league.players.some((/** @type {any} */ p) => p.id === role.id);
  /** @param {string} doc @param {string} done */
  const act = (doc, done) => async () => {
    try {
      await gql(doc, { leagueId: league.id });
      announce(done);
      await reload();
    } catch (e) {
      showError(actions, e);
    }
  };
  return [formError(),
    role?.kind === "player" && league.status === "OPEN"
      ? joined
        ? h("button", { type: "button", onclick: act(Q.UNSUBSCRIBE, "You left the league.") }, "Leave league")
        : h("button", { type: "button", class: "primary", onclick: act(Q.SUBSCRIBE, "You joined the league.") }, "Join league")
      : null,
    h("a", { href: `/leagues/${league.id}/audit`, class: "button" }, "Audit log"),
    h("a", { href: `/leagues/${league.id}/organisers`, class: "button" }, "Organisers")];
}

/** One game's row: seats, status, result, league scores and the report or correct link.
 * @param {any} league @param {any} g */
function gameRow(league, g) {
  const role = session.role;
  const seated = role?.kind === "player" && g.seats.some((/** @type {any} */ s) => s.player.id === role.id);
  // The site admin and the league's organisers manage every game.
  const manager = role?.kind === "admin" || (role?.kind === "player" && league.organisers.some((/** @type {any} */ o) => o.id === role.id));
  const canReport = g.status === "SCHEDULED" && (seated || manager);
  const canCorrect = g.status === "FINISHED" && manager;
  return h("tr", { "data-game": g.number },
    h("th", { scope: "row" }, h("a", { href: `/games/${g.id}` }, `Game ${g.number}`)),
    h("td", {}, h("ul", { class: "seats" }, g.seats.map((/** @type {any} */ s) => h("li", {}, h("span", { class: "seat-label" }, s.label), " ", s.player.name)))),
    h("td", {}, badge(g.status)),
    h("td", {}, resultText(g)),
    h("td", {}, g.scores.map((/** @type {any} */ s) => `${s.player.name} ${score(s.score)}`).join(", ") || "—"),
    h("td", {}, canReport ? h("a", { href: `/games/${g.id}`, class: "button" }, "Report result")
      : canCorrect ? h("a", { href: `/games/${g.id}`, class: "button" }, "Correct result") : null));
}

/** The league's games. @param {any} league */
function gamesView(league) {
  return [h("h2", { id: "games-h" }, `Games (${league.games.length})`),
    league.games.length === 0 ? h("p", {}, `The games are scheduled when ${league.size} players have joined.`)
      : wideTable(["Game", "Seats", "Status", "Result", "League scores", ""], league.games.map((/** @type {any} */ g) => gameRow(league, g)), { class: "games" })];
}

/** The running totals chart. @param {any} league */
function chartView(league) {
  return [h("h2", { id: "chart-h" }, "Running totals"), totalsChart(league.scoreHistories, gameNumbers(league))];
}

/** The league's game numbers by game id. @param {any} league */
const gameNumbers = (league) => new Map(league.games.map((/** @type {any} */ g) => [g.id, g.number]));

/** The league as read, with what a result or a correction changed (`LEAGUE_CHANGE`): the
 * games its score changes name, and each player's new score changes. @param {any} league
 * @param {any} change */
function withChange(league, change) {
  const histories = /** @type {any[]} */ (change.scoreHistories);
  const games = new Map(histories.flatMap((s) => s.changes.map((/** @type {any} */ c) => [c.game.id, c.game])));
  const added = new Map(histories.map((s) => [s.player.id, s.changes]));
  return {
    ...league,
    status: change.status,
    games: league.games.map((/** @type {any} */ g) => ({ ...g, ...games.get(g.id) })),
    scoreHistories: league.scoreHistories.map((/** @type {any} */ s) => {
      const known = new Set(s.changes.map((/** @type {any} */ c) => c.position));
      const more = (added.get(s.player.id) ?? []).filter((/** @type {any} */ c) => !known.has(c.position));
      return { ...s, changes: [...s.changes, ...more] };
    }),
  };
}

/** Event types whose whole change a `LEAGUE_CHANGE` read brings (a result, a correction). */
const RESULT_EVENTS = new Set(["GameFinished", "GameResultCorrected"]);

/** @type {import("./main.js").View} */
export async function leagueView(main, [id]) {
  const [{ league: first, seriesOf }, cat] = await Promise.all([gql(Q.LEAGUE, { id }), catalogue()]);
  if (!first) {
    replace(main, h("h1", {}, "League not found"), h("p", {}, h("a", { href: "/" }, "See every league.")));
    return;
  }
  let league = first;
  const title = h("h1", {});
  const settings = h("section", { "aria-labelledby": "settings-h" });
  const actions = h("div", { class: "actions" });
  const playersSection = h("section", { "aria-labelledby": "players-h" });
  const standings = h("div", { id: "standings", "aria-live": "polite" });
  const live = liveBadge();
  const travel = timeTravel(id, () => ({
    names: new Map(league.players.map((/** @type {any} */ p) => [p.id, p.name])),
    games: gameNumbers(league),
  }));
  const chart = h("section", { "aria-labelledby": "chart-h" });
  const games = h("section", { "aria-labelledby": "games-h" });
  replace(main, title, seriesLinks(seriesOf), actions, downloads("leagues", id), settings, playersSection,
    h("section", { "aria-labelledby": "standings-h" }, h("h2", { id: "standings-h" }, "Standings ", live.element), standings),
    travel.element, chart, games);

  const render = () => {
    replace(title, league.name, " ", badge(league.status));
    replace(settings, ...settingsView(league, cat));
    replace(playersSection, ...playersView(league));
    replace(actions, ...actionsView(actions, league, reload));
    replace(games, ...gamesView(league));
    replace(chart, ...chartView(league));
  };
  /** @param {string} caption */
  const renderStandings = (caption) => {
    replace(standings, standingsTable(league.standings, caption));
    travel.follow(league.latestEvent, league.version, league.standings);
  };
  // What the page holds of the league's stream: its log (events) and its standings, each
  // followed by its own subscription (docs/api.md#live-updates).
  const log = versioned(league.version, () => void reload());
  const table = versioned(league.version, () => void reload());
  // One read at a time, in order: the whole league, or (with the position of a result or a
  // correction) only what that event changed.
  const refresh = serial(async (/** @type {number | undefined} */ position) => {
    if (position === undefined) {
      const { league: fresh } = await gql(Q.LEAGUE, { id });
      if (!fresh) return;
      league = fresh;
      log.holds(league.version);
      table.holds(league.version);
      renderStandings("Standings now");
    } else {
      const { league: changed } = await gql(Q.LEAGUE_CHANGE, { id, after: position - 1 });
      if (changed) league = withChange(league, changed);
    }
    render();
  });
  const reload = () => refresh(undefined);

  render();
  renderStandings("Standings now");

  const current = { get: () => league, set: (/** @type {any} */ changed) => { league = changed; } };
  return follow(live, leagueFeeds(id, current, { log, table, travel, refresh, render, renderStandings }), reload);
}

/**
 * The league page's live feeds (docs/api.md#live-updates): the pushed standings rows put in
 * place, and each event of the log followed by the one read it needs (none, only what a
 * result changed, or the whole league).
 * @param {string} id
 * @param {{ get: () => any, set: (league: any) => void }} current the league as the page holds it
 * @param {{ log: ReturnType<typeof versioned>, table: ReturnType<typeof versioned>,
 *   travel: ReturnType<typeof timeTravel>, refresh: (position: number | undefined) => Promise<void>,
 *   render: () => void, renderStandings: (caption: string) => void }} page
 * @returns {import("./live.js").Feed[]}
 */
function leagueFeeds(id, current, page) {
  const reload = () => void page.refresh(undefined);
  return [{
    query: Q.STANDINGS_PUSHED,
    variables: { leagueId: id },
    onData: ({ standingsChanged: update }) => page.table.apply(update.previousVersion, update.version, () => {
      const league = current.get();
      const rows = withChangedRows(league.standings, update);
      if (!rows) return reload();
      current.set({ ...league, standings: rows, version: Math.max(league.version, update.version) });
      page.renderStandings(`Standings now (after position ${update.position})`);
      announce("The standings changed.");
    }),
  }, {
    query: Q.LEAGUE_EVENTS,
    variables: { leagueId: id },
    onData: ({ leagueEvents: event }) => page.log.apply(event.version - 1, event.version, () => {
      const league = { ...current.get(), latestEvent: event, version: Math.max(current.get().version, event.version) };
      current.set(league);
      page.travel.follow(event, league.version, league.standings);
      if (RESULT_EVENTS.has(event.type)) void page.refresh(event.position);
      else if (event.type === "LeagueCompleted") {
        current.set({ ...league, status: "COMPLETED" });
        page.render();
      } else reload();
    }),
  }];
}
