// @ts-check
/** @file Series pages (docs/series.md): `/series`, every series, with the admin's or an
 * organiser's create form; `/series/ID`, a series' rule, its events, its standings (each
 * player's best N results) and the attendance grid (player × event, scrolling inside its own
 * box on a phone), re-read live when a member tournament's standings move; its organisers
 * add and remove events there. `seriesLinks` names a league's or tournament's series on its
 * own page. */

import { gql, session } from "./api.js";
import { h, replace, score } from "./dom.js";
import { table, wideTable, settingsList } from "./table.js";
import { command, field, formError, input, onSubmit, selectOf } from "./forms.js";
import { liveBadge, follow, serial } from "./live.js";
import * as Q from "./queries.js";

const BASES = { RANK_POINTS: "rank points (players ranked − rank + 1)", SCORE: "the event's score" };

/** @type {import("./main.js").View} */
export async function seriesListView(main) {
  const list = h("section", { "aria-labelledby": "series-list-h" });
  const load = async () => {
    const { seriesList } = await gql(Q.SERIES_LIST);
    replace(list, h("h2", { id: "series-list-h" }, `Series (${seriesList.length})`),
      seriesList.length === 0 ? h("p", {}, "None yet.")
        : h("ul", {}, seriesList.map((/** @type {any} */ s) => h("li", {}, h("a", { href: `/series/${s.id}` }, s.name),
          ` · best ${s.best} on ${BASES[/** @type {keyof typeof BASES} */ (s.basis)]} · ${s.events.length} event(s)`))));
  };
  const role = session.role;
  const me = role?.kind === "player" ? (await gql(Q.ME)).me : null;
  const creates = role?.kind === "admin" || Boolean(me?.isOrganiser);
  replace(main, h("h1", {}, "Series"), h("p", { class: "hint" }, "A series ranks each player's best results over its tournaments and leagues."),
    creates ? createForm() : null, list);
  await load();
}

/** Creates a series and opens its page. */
function createForm() {
  const name = input("text", { required: true });
  const best = input("number", { required: true, min: 1, max: 100, value: 3 });
  const basis = selectOf(Object.keys(BASES), (value) => ({ value, text: BASES[/** @type {keyof typeof BASES} */ (value)] }));
  const form = h("form", { novalidate: true, "aria-labelledby": "create-series-h" },
    h("h2", { id: "create-series-h" }, "Create a series"), formError(),
    field("Name", name, { field: "name" }),
    field("Results that count (best N)", best, { field: "best" }),
    field("Each result is worth", basis, { field: "basis" }),
    h("button", { type: "submit", class: "primary" }, "Create series"));
  onSubmit(form, async (idempotencyKey) => {
    const input = { name: name.value.trim(), best: Number(best.value), basis: basis.value };
    const { createSeries } = await gql(Q.CREATE_SERIES, { input, idempotencyKey });
    const { navigate } = await import("./main.js");
    navigate(`/series/${createSeries.id}`);
  });
  return form;
}

/** @type {import("./main.js").View} */
export async function seriesView(main, [id]) {
  const { series: first } = await gql(Q.SERIES, { id });
  if (!first) {
    replace(main, h("h1", {}, "Series not found"), h("p", {}, h("a", { href: "/series" }, "See every series.")));
    return;
  }
  const live = liveBadge();
  const about = h("section", { "aria-labelledby": "series-events-h" });
  const standings = h("section", { "aria-labelledby": "series-standings-h", "aria-live": "polite" });
  const grid = h("section", { "aria-labelledby": "series-grid-h" });
  const title = h("h1", {});
  const role = session.role;
  const manages = !!role && (role.kind === "admin" || first.createdBy === `player:${role.id}`);
  const show = (/** @type {any} */ s) => {
    title.textContent = s.name;
    replace(about, settingsList([["Counts", `each player's best ${s.best}`], ["Each result is worth", BASES[/** @type {keyof typeof BASES} */ (s.basis)]]]),
      h("h2", { id: "series-events-h" }, `Events (${s.events.length})`), eventList(s, manages, reload));
    replace(standings, h("h2", { id: "series-standings-h" }, "Standings ", live.element), standingsTable(s));
    replace(grid, h("h2", { id: "series-grid-h" }, "Attendance"), attendanceGrid(s));
  };
  const reload = serial(async () => show((await gql(Q.SERIES, { id })).series));
  replace(main, title, about, manages ? addForm(first, reload) : null, standings, grid,
    h("p", {}, h("a", { href: "/series" }, "Every series")));
  show(first);
  const feeds = first.events.filter((/** @type {any} */ e) => e.kind === "TOURNAMENT").map((/** @type {any} */ e) => ({
    query: Q.TOURNAMENT_STANDINGS_MOVED, variables: { tournamentId: e.id }, onData: () => void reload(),
  }));
  return feeds.length > 0 ? follow(live, feeds, () => void reload()) : (live.show(false), undefined);
}

/** The events, each a link, with a remove button for the series' organisers.
 * @param {any} s @param {boolean} manages @param {() => Promise<void>} reload */
function eventList(s, manages, reload) {
  if (s.events.length === 0) return h("p", {}, "No events yet.");
  const where = h("div", {}, formError());
  where.append(h("ul", {}, s.events.map((/** @type {any} */ e) => h("li", {},
    h("a", { href: `/${e.kind === "LEAGUE" ? "leagues" : "tournaments"}/${e.id}` }, e.name), " ",
    manages ? h("button", { type: "button", "aria-label": `Remove ${e.name} from the series`,
      onclick: () => void command(where, () => gql(Q.REMOVE_SERIES_EVENT, { seriesId: s.id, competitionId: e.id }), `${e.name} removed.`, reload) }, "Remove") : null))));
  return where;
}

/** Rank, player, total and events attended, best first. @param {any} s */
function standingsTable(s) {
  if (s.standings.length === 0) return h("p", {}, "No results yet.");
  return wideTable(["Rank", "Player", "Total", "Events"], s.standings.map((/** @type {any} */ r) => h("tr", {},
    h("td", {}, r.rank), h("td", {}, h("a", { href: `/players/${r.player.id}` }, r.player.name)), h("td", {}, score(r.total)), h("td", {}, r.attended))),
  { class: "series-standings" });
}

/** Player × event: the place and its points (counted ones in bold), "–" where absent; the
 * table scrolls inside its own box. @param {any} s */
function attendanceGrid(s) {
  if (s.attendance.length === 0) return h("p", {}, "No results yet.");
  const cell = (/** @type {any} */ r) => r === null ? h("td", { class: "absent" }, h("span", { "aria-label": "absent" }, "–"))
    : h("td", {}, r.counted ? h("strong", {}, `#${r.rank} · ${score(r.points)}`) : `#${r.rank} · ${score(r.points)}`);
  return h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "Attendance grid" },
    table(["Player", ...s.events.map((/** @type {any} */ e) => e.name)], s.attendance.map((/** @type {any} */ row) => h("tr", {},
      h("th", { scope: "row" }, row.player.name), row.results.map(cell))),
    { class: "series-grid", caption: "Place and points per event; counted results in bold." }));
}

/** Adds a league or tournament, picked from every one. @param {any} s @param {() => Promise<void>} reload */
function addForm(s, reload) {
  const pick = /** @type {HTMLSelectElement} */ (h("select", { required: true }));
  const form = h("form", { novalidate: true, "aria-labelledby": "add-series-event-h" },
    h("h2", { id: "add-series-event-h" }, "Add an event"), formError(),
    field("Tournament or league", pick, { field: "competitionId" }),
    h("button", { type: "submit" }, "Add to series"));
  void gql(Q.SERIES_CANDIDATES).then(({ tournaments, leagues }) => {
    const options = [...tournaments.map((/** @type {any} */ t) => [t.id, `${t.name} (tournament)`]), ...leagues.nodes.map((/** @type {any} */ l) => [l.id, `${l.name} (league)`])];
    replace(pick, options.map(([value, text]) => h("option", { value }, text)));
  });
  onSubmit(form, async (idempotencyKey) => {
    await gql(Q.ADD_SERIES_EVENT, { seriesId: s.id, competitionId: pick.value, idempotencyKey });
    await reload();
  });
  return form;
}

/** A line naming the series a league or tournament belongs to (none when it is in none):
 * the page's own query reads them (`seriesOf`).
 * @param {{ id: string, name: string }[]} series */
export function seriesLinks(series) {
  return series.length === 0 ? null : h("p", { class: "series-links" }, "Part of ",
    series.flatMap((s, i) => [i > 0 ? ", " : "", h("a", { href: `/series/${s.id}` }, s.name)]), ".");
}
