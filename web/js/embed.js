// @ts-check
/** @file The embeddable standings widget (`/embed/leagues/<id>`, `/embed/tournaments/<id>`):
 * a competition's name and standings without the app's chrome, kept live over the standings
 * subscriptions, for a club to show in an iframe on its own site. Links open the full pages
 * in a new tab, outside the frame. */

import { gql } from "./api.js";
import { h, replace, score, badge } from "./dom.js";
import * as Q from "./queries.js";
import { table } from "./table.js";
import { follow, liveBadge } from "./live.js";

/** @typedef {{ rank: number, total: number, games: number, player: { id: string, name: string } }} Row */

/** Where the widget's links go: the full app, in a new tab. @param {string} path @param {string} text */
function appLink(path, text) {
  return h("a", { href: path, target: "_blank", rel: "noopener" }, text);
}

/** The standings table. @param {Row[]} rows @param {string} caption */
function standingsTable(rows, caption) {
  return table(["Rank", "Player", "Total", "Games"], rows.map((r) => h("tr", {},
    h("td", { class: "num" }, r.rank),
    h("th", { scope: "row" }, appLink(`/players/${r.player.id}`, r.player.name)),
    h("td", { class: "num total" }, score(r.total)),
    h("td", { class: "num" }, r.games))), { class: "standings", caption });
}

/** What the widget shows of each kind of competition: how to read it and follow it. */
const KINDS = {
  leagues: {
    query: Q.EMBED_LEAGUE,
    subscription: Q.STANDINGS_CHANGED,
    variables: (/** @type {string} */ id) => ({ leagueId: id }),
    /** @returns {{ name: string, status: string, rows: Row[] } | null} */
    read: (/** @type {any} */ data) => data.league && {
      name: data.league.name, status: data.league.status,
      rows: data.league.standings.map((/** @type {any} */ s) => ({ ...s, games: s.played })),
    },
    /** @returns {{ position: number, rows: Row[] }} */
    update: (/** @type {any} */ data) => ({
      position: data.standingsChanged.position,
      rows: data.standingsChanged.standings.map((/** @type {any} */ s) => ({ ...s, games: s.played })),
    }),
  },
  tournaments: {
    query: Q.EMBED_TOURNAMENT,
    subscription: Q.TOURNAMENT_STANDINGS_CHANGED,
    variables: (/** @type {string} */ id) => ({ tournamentId: id }),
    read: (/** @type {any} */ data) => data.tournament && {
      name: data.tournament.name, status: data.tournament.status, rows: data.tournament.standings,
    },
    update: (/** @type {any} */ data) => ({
      position: data.tournamentStandingsChanged.position,
      rows: data.tournamentStandingsChanged.tournament.standings,
    }),
  },
};

async function start() {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const [, kind, id] = /^\/embed\/(leagues|tournaments)\/([^/]+)\/?$/.exec(location.pathname) ?? [];
  const how = kind === "leagues" ? KINDS.leagues : kind === "tournaments" ? KINDS.tournaments : null;
  if (!how) {
    replace(main, h("p", {}, "There are no standings here."));
    return;
  }
  const competition = how.read(await gql(how.query, { id }, null));
  if (!competition) {
    replace(main, h("p", {}, "There are no standings here."));
    return;
  }
  document.title = `${competition.name} · Standings`;
  const live = liveBadge();
  const standings = h("div", { id: "standings", "aria-live": "polite" }, standingsTable(competition.rows, "Standings now"));
  replace(main,
    h("h1", {}, appLink(`/${kind}/${id}`, competition.name), " ", badge(competition.status), " ", live.element),
    standings);
  // The widget lives as long as its frame: its subscription is never ended.
  follow(live, [{
    query: how.subscription,
    variables: how.variables(id),
    onData: (data) => {
      const update = how.update(data);
      replace(standings, standingsTable(update.rows, `Standings now (after position ${update.position})`));
    },
  }]);
}

start().catch((error) => {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  replace(main, h("p", { role: "alert" }, error instanceof Error ? error.message : String(error)));
});
