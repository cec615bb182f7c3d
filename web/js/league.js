// @ts-check
/** @file Public league pages: the paged leagues list, and a league's page with live
 * standings, time travel over its log, a chart of running totals, and its games. */

import { gql, session, subscribe } from "./api.js";
import { h, replace, score, delta, when, badge, colour, announce } from "./dom.js";
import { aggregationText, catalogue, systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { formError, showError } from "./forms.js";

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
    const first = (stack.length - 1) * PAGE + 1;
    replace(body,
      leagues.totalCount === 0
        ? h("p", {}, "No leagues yet.", session.role?.kind === "admin" ? [" ", h("a", { href: "/admin" }, "Create one.")] : null)
        : h("div", { class: "table-wrap" }, h("table", {},
            h("caption", {}, `Leagues ${first}–${first + leagues.nodes.length - 1} of ${leagues.totalCount}`),
            h("thead", {}, h("tr", {}, ...["League", "Status", "Game", "Scoring", "Players", "Per game"].map((x) => h("th", { scope: "col" }, x)))),
            h("tbody", {}, rows))),
      h("nav", { class: "pager", "aria-label": "Pages" },
        h("button", { type: "button", disabled: stack.length === 1, onclick: () => { stack.pop(); void load(); } }, "Previous"),
        h("button", { type: "button", disabled: !leagues.pageInfo.hasNextPage, onclick: () => { stack.push(leagues.pageInfo.endCursor); void load(); } }, "Next")));
  };
  await load();
}

/** Every event of a league, oldest first (paged through the `events` connection). @param {string} leagueId */
export async function leagueEvents(leagueId) {
  /** @type {any[]} */
  const all = [];
  let after = null;
  for (;;) {
    const { events } = await gql(Q.EVENTS, { leagueId, first: 100, after });
    all.push(...events.nodes);
    if (!events.pageInfo.hasNextPage) return all;
    after = events.pageInfo.endCursor;
  }
}

/** Each subscribed player's score history in a league. @param {string} leagueId @param {{id: string, name: string}[]} players */
export async function histories(leagueId, players) {
  const lists = await Promise.all(players.map((p) => gql(Q.SCORE_HISTORY, { leagueId, playerId: p.id })));
  return players.map((player, i) => ({ player, changes: /** @type {any[]} */ (lists[i].scoreHistory) }));
}

/** What an event did, in words. @param {any} event @param {Map<string, string>} names @param {Map<string, number>} games */
export function describe(event, names, games) {
  const p = event.payload ?? {};
  const who = (/** @type {string|undefined} */ id) => (id && names.get(id)) ?? (id ? `player ${id.slice(0, 8)}` : "someone");
  const game = games.has(p.gameId) ? `game ${games.get(p.gameId)}` : "a game";
  switch (event.type) {
    case "LeagueCreated": return `League created: ${p.name ?? ""}`;
    case "PlayerSubscribed": return `${who(p.playerId)} joined`;
    case "PlayerUnsubscribed": return `${who(p.playerId)} left`;
    case "GamesScheduled": return `${p.games?.length ?? ""} games scheduled`;
    case "GameFinished": return `Result of ${game} reported`;
    case "GameResultCorrected": return `Result of ${game} corrected: ${p.reason ?? ""}`;
    case "LeagueCompleted": return "League completed";
    default: return event.type;
  }
}

/** An actor (`admin`, `player:<id>`) by name. @param {string|null} actor @param {Map<string, string>} names */
export function actorName(actor, names) {
  if (!actor) return "—";
  if (actor.startsWith("player:")) return names.get(actor.slice(7)) ?? actor;
  return actor;
}

/**
 * Links to a competition's downloads (`/export/…`, served as files, so the router leaves
 * them alone) and to its embeddable standings widget.
 * @param {"leagues"|"tournaments"} kind @param {string} id
 */
export function downloads(kind, id) {
  const file = (/** @type {string} */ path, /** @type {string} */ text) =>
    h("li", {}, h("a", { href: path, download: "", "data-external": "" }, text));
  return h("nav", { "aria-label": "Downloads" }, h("ul", { class: "downloads" },
    file(`/export/${kind}/${id}.csv`, "Results (CSV)"),
    file(`/export/${kind}/${id}.csv?table=standings`, "Standings (CSV)"),
    file(`/export/${kind}/${id}.json`, "Everything (JSON)"),
    h("li", {}, h("a", { href: `/embed/${kind}/${id}`, "data-external": "", target: "_blank", rel: "noopener" }, "Standings widget to embed"))));
}

/** A standings table. @param {any[]} standings @param {string} caption */
export function standingsTable(standings, caption) {
  return h("div", { class: "table-wrap" }, h("table", { class: "standings" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ...["Rank", "Player", "Total", "Played", "Wins", "Draws"].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, standings.map((s) => h("tr", {},
      h("td", { class: "num" }, s.rank),
      h("th", { scope: "row" }, h("a", { href: `/players/${s.player.id}` }, s.player.name)),
      h("td", { class: "num total" }, score(s.total)),
      h("td", { class: "num" }, s.played),
      h("td", { class: "num" }, s.wins),
      h("td", { class: "num" }, s.draws))))));
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

/** @type {import("./main.js").View} */
export async function leagueView(main, [id]) {
  const [{ league: first }, cat] = await Promise.all([gql(Q.LEAGUE, { id }), catalogue()]);
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
  const live = h("span", { class: "live", "data-state": "connecting" }, "connecting…");
  const travel = h("section", { "aria-labelledby": "travel-h", class: "travel" });
  const chart = h("section", { "aria-labelledby": "chart-h" });
  const games = h("section", { "aria-labelledby": "games-h" });
  replace(main, title, actions, downloads("leagues", id), settings, playersSection,
    h("section", { "aria-labelledby": "standings-h" }, h("h2", { id: "standings-h" }, "Standings ", live), standings),
    travel, chart, games);

  const names = () => new Map(league.players.map((/** @type {any} */ p) => [p.id, p.name]));
  const gameNumbers = () => new Map(league.games.map((/** @type {any} */ g) => [g.id, g.number]));

  const renderHead = () => {
    replace(title, league.name, " ", badge(league.status));
    replace(settings, h("h2", { id: "settings-h" }, "Settings"), h("dl", { class: "settings" },
      ...[["Game", league.game + (league.gameVersion ? ` (${league.gameVersion})` : "")],
        ["Scoring system", systemName(cat, league.scoringSystem)],
        ["Players per game (k)", league.playersPerGame],
        ["Players (n/N)", `${league.players.length}/${league.size}`],
        ["Games per seat (s)", league.gamesPerSeat],
        ["Active players required", league.requireActivePlayers ? "yes" : "no"],
        ["Standings total", aggregationText(cat, league.aggregation)],
        ["Created", when(league.createdAt)]].flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])));
    replace(playersSection, h("h2", { id: "players-h" }, `Players (${league.players.length}/${league.size})`),
      league.players.length === 0 ? h("p", {}, "Nobody has joined yet.")
        : h("ol", { class: "players" }, league.players.map((/** @type {any} */ p) => h("li", {}, h("a", { href: `/players/${p.id}` }, p.name)))));
    const role = session.role;
    const error = formError();
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
    replace(actions, error,
      role?.kind === "player" && league.status === "OPEN"
        ? joined
          ? h("button", { type: "button", onclick: act(Q.UNSUBSCRIBE, "You left the league.") }, "Leave league")
          : h("button", { type: "button", class: "primary", onclick: act(Q.SUBSCRIBE, "You joined the league.") }, "Join league")
        : null,
      h("a", { href: `/leagues/${league.id}/audit`, class: "button" }, "Audit log"));
  };

  const renderGames = () => {
    const role = session.role;
    replace(games, h("h2", { id: "games-h" }, `Games (${league.games.length})`),
      league.games.length === 0 ? h("p", {}, `The games are scheduled when ${league.size} players have joined.`)
        : h("div", { class: "table-wrap" }, h("table", { class: "games" },
            h("thead", {}, h("tr", {}, ...["Game", "Seats", "Status", "Result", "League scores", ""].map((x) => h("th", { scope: "col" }, x)))),
            h("tbody", {}, league.games.map((/** @type {any} */ g) => {
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
            })))));
  };

  /** @type {any[]} */
  let events = [];
  let liveTravel = true;
  const slider = /** @type {HTMLInputElement} */ (h("input", { type: "range", id: "travel-slider", min: 0, max: 0, step: 1, value: 0 }));
  const travelLabel = h("p", { id: "travel-event", class: "travel-event" });
  const travelTable = h("div", { id: "travel-standings" });
  let travelRequest = 0;
  const showTravel = async () => {
    const event = events[Number(slider.value)];
    if (!event) return;
    const text = `Position ${event.position}: ${describe(event, names(), gameNumbers())}`;
    slider.setAttribute("aria-valuetext", text);
    replace(travelLabel, h("strong", {}, text), ` — ${actorName(event.actor, names())}, ${when(event.recordedAt)}`);
    const mine = ++travelRequest;
    const { standings: then } = await gql(Q.STANDINGS_AS_OF, { leagueId: league.id, position: event.position });
    if (mine === travelRequest) replace(travelTable, standingsTable(then, `Standings as of position ${event.position}`));
  };
  slider.addEventListener("input", () => {
    liveTravel = Number(slider.value) === events.length - 1;
    void showTravel();
  });
  replace(travel, h("h2", { id: "travel-h" }, "Time travel"),
    h("label", { for: "travel-slider" }, "Log position"), slider, travelLabel, travelTable);
  const loadEvents = async () => {
    events = await leagueEvents(league.id);
    slider.max = String(Math.max(0, events.length - 1));
    if (liveTravel) slider.value = slider.max;
    await showTravel();
  };

  const loadChart = async () => {
    const data = await histories(league.id, league.players);
    replace(chart, h("h2", { id: "chart-h" }, "Running totals"), totalsChart(data, gameNumbers()));
  };

  let reloading = Promise.resolve();
  const reload = () => (reloading = reloading.then(async () => {
    const { league: fresh } = await gql(Q.LEAGUE, { id });
    if (fresh) league = fresh;
    renderHead();
    renderGames();
    await Promise.all([loadEvents(), loadChart()]);
  }));

  renderHead();
  renderGames();
  replace(standings, standingsTable(league.standings, "Standings now"));
  await Promise.all([loadEvents(), loadChart()]);

  const stopStandings = subscribe(Q.STANDINGS_CHANGED, { leagueId: id }, (data) => {
    const update = data.standingsChanged;
    replace(standings, standingsTable(update.standings, `Standings now (after position ${update.position})`));
    announce("The standings changed.");
  }, (connected) => {
    live.dataset.state = connected ? "live" : "offline";
    live.textContent = connected ? "live" : "reconnecting…";
  });
  const stopEvents = subscribe(Q.LEAGUE_EVENTS, { leagueId: id }, () => void reload());
  return () => {
    stopStandings();
    stopEvents();
  };
}

/**
 * An SVG line chart of each player's running total over the league's results (x: the
 * n-th score change of the league, y: total); hovering or focusing a point names the game.
 * @param {{ player: { id: string, name: string }, changes: any[] }[]} data
 * @param {Map<string, number>} gameNumbers
 */
export function totalsChart(data, gameNumbers) {
  const positions = [...new Set(data.flatMap((d) => d.changes.map((c) => c.position)))].sort((a, b) => a - b);
  if (positions.length === 0) return h("p", {}, "No results yet.");
  const W = 640, H = 280, L = 44, R = 12, T = 12, B = 32;
  const totals = data.flatMap((d) => d.changes.map((c) => c.total));
  const lo = Math.min(0, ...totals), hi = Math.max(1, ...totals);
  const x = (/** @type {number} */ i) => L + (positions.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (positions.length - 1));
  const y = (/** @type {number} */ v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const NS = "http://www.w3.org/2000/svg";
  /** @param {string} tag @param {Record<string, any>} attrs @param {...(Node|string)} kids */
  const s = (tag, attrs, ...kids) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    el.append(...kids);
    return el;
  };
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": "chart-title" },
    s("title", { id: "chart-title" }, "Each player's running total after each result"));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, score(Math.round(v * 10) / 10)));
  }
  svg.append(s("text", { x: (W + L) / 2, y: H - 8, "text-anchor": "middle", class: "axis" }, "results in log order"));
  const legend = h("ul", { class: "legend" });
  data.forEach((d, n) => {
    let total = 0;
    const points = positions.map((pos, i) => {
      const change = d.changes.find((c) => c.position === pos);
      if (change) total = change.total;
      return { i, total, change };
    });
    svg.append(s("polyline", { points: points.map((p) => `${x(p.i)},${y(p.total)}`).join(" "), fill: "none", stroke: colour(n), "stroke-width": 2 }));
    for (const p of points.filter((q) => q.change)) {
      const c = p.change;
      const label = `${d.player.name}: game ${gameNumbers.get(c.game.id) ?? c.game.number}, ${delta(c.delta)} → ${score(c.total)}${c.reason ? ` (corrected: ${c.reason})` : ""}`;
      svg.append(s("circle", { cx: x(p.i), cy: y(p.total), r: 5, fill: colour(n), tabindex: 0, class: "point", "aria-label": label }, s("title", {}, label)));
    }
    legend.append(h("li", {}, h("span", { class: "swatch", "data-colour": n }), d.player.name));
  });
  for (const sw of legend.querySelectorAll(".swatch")) {
    /** @type {HTMLElement} */ (sw).style.background = colour(Number(/** @type {HTMLElement} */ (sw).dataset.colour));
  }
  return h("figure", { class: "chart-figure" }, svg, h("figcaption", {}, legend));
}
