// @ts-check
/** @file A league's or tournament's organisers page (`/leagues/ID/organisers`,
 * `/tournaments/ID/organisers`): who manages it, and for its organisers and the site admin,
 * adding a co-organiser found by name (docs/api.md#roles), and the way to its webhooks. Nobody is removed from a
 * competition's organisers: the API has no such operation. */

import { gql, session } from "./api.js";
import { h, replace } from "./dom.js";
import { command, formError } from "./forms.js";
import { playerSearch, nameWithBadges } from "./people.js";
import * as Q from "./queries.js";

/** How many players a search shows. */
const SHOWN = 20;

/** @param {"leagues"|"tournaments"} kind */
const organisersView = (kind) => /** @type {import("./main.js").View} */ (async (main, [id]) => {
  const read = async () => {
    const data = await gql(kind === "leagues" ? Q.LEAGUE_ORGANISERS : Q.TOURNAMENT_ORGANISERS, { id });
    return kind === "leagues" ? data.league : data.tournament;
  };
  const first = await read();
  if (!first) {
    replace(main, h("h1", {}, "Not found"), h("p", {}, h("a", { href: `/${kind === "leagues" ? "" : "tournaments"}` }, "See the list.")));
    return;
  }
  const role = session.role;
  const director = role?.kind === "admin" || (role?.kind === "player" && first.organisers.some((/** @type {any} */ o) => o.id === role.id));
  const list = h("section", { "aria-labelledby": "organisers-h" });
  const showList = (/** @type {any} */ competition) => replace(list,
    h("h2", { id: "organisers-h" }, `Organisers (${competition.organisers.length})`),
    competition.organisers.length === 0 ? h("p", {}, "The site admin manages it alone.")
      : h("ul", { class: "organisers" }, competition.organisers.map((/** @type {any} */ o) => h("li", {}, h("a", { href: `/players/${o.id}` }, o.name)))));
  let current = first;
  showList(current);
  const reload = async () => {
    current = (await read()) ?? current;
    showList(current);
  };
  replace(main,
    h("h1", {}, `Organisers of ${first.name}`),
    h("p", {}, h("a", { href: `/${kind}/${id}` }, `Back to ${first.name}`)),
    director ? addCoOrganiser(id, reload, () => current.organisers) : null,
    list,
    director ? h("p", {}, h("a", { href: `/webhooks?competition=${id}`, class: "button" }, "Webhooks")) : null);
});

export const leagueOrganisersView = organisersView("leagues");
export const tournamentOrganisersView = organisersView("tournaments");

/** The "Add co-organiser" section: search a player by name, then add them.
 * @param {string} competitionId @param {() => Promise<void>} reload @param {() => { id: string }[]} organisers who is one already */
function addCoOrganiser(competitionId, reload, organisers) {
  const found = h("div", { id: "candidates", "aria-live": "polite" });
  const section = h("section", { "aria-labelledby": "add-h" }, h("h2", { id: "add-h" }, "Add a co-organiser"),
    h("p", { class: "hint" }, "A co-organiser manages it as you do: entries, roll calls, rounds, results."));
  const search = async (/** @type {string} */ text) => {
    if (text === "") {
      replace(found, h("p", { class: "hint" }, "Type part of a name."));
      return;
    }
    const { players } = await gql(Q.FIND_PLAYERS, { first: SHOWN, after: null, search: text });
    const already = new Set(organisers().map((o) => o.id));
    const candidates = players.nodes.filter((/** @type {any} */ p) => !p.erased);
    replace(found, formError(), candidates.length === 0 ? h("p", {}, "No player found.")
      : h("ul", { class: "candidates" }, candidates.map((/** @type {any} */ p) => h("li", {}, ...nameWithBadges(p), " ",
        already.has(p.id) ? h("span", { class: "hint" }, "(an organiser)")
          : h("button", { type: "button", "aria-label": `Add ${p.name}`, onclick: () => void command(found,
            () => gql(Q.ADD_CO_ORGANISER, { competitionId, playerId: p.id }), `${p.name} is a co-organiser now.`,
            async () => { await reload(); replace(found, h("p", { role: "status" }, `${p.name} added.`)); }) }, "Add")))),
      players.totalCount > SHOWN ? h("p", { class: "hint" }, `The first ${SHOWN} of ${players.totalCount}: type more of the name.`) : null);
  };
  section.append(playerSearch("Find a player by name", search), found);
  return section;
}
