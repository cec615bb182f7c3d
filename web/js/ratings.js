// @ts-check
/** @file Ratings across leagues (docs/ratings.md): a leaderboard page per game kind, paged
 * through the `ratings` connection, and a player's rating per kind with its history (on demand). The
 * kinds and which systems count towards each come from the catalogue. */

import { gql } from "./api.js";
import { h, replace, score, delta, when } from "./dom.js";
import { catalogue, kindName, kindSlug, ratingKinds, systemsRatedAs } from "./catalogue.js";
import { formError, showError } from "./forms.js";
import * as Q from "./queries.js";
import { firstRow, pager, wideTable } from "./table.js";

const PAGE = 20;

/** A rating's numbers, to one decimal. @param {number} x */
const rounded = (x) => score(Math.round(x * 10) / 10);

/** Tabs to every kind's leaderboard. @param {string[]} kinds @param {string} current */
function kindTabs(kinds, current) {
  return h("nav", { class: "kinds", "aria-label": "Game kinds" },
    h("ul", {}, kinds.map((kind) => h("li", {},
      h("a", { href: `/ratings/${kindSlug(kind)}`, "aria-current": kind === current ? "page" : null }, kindName(kind))))));
}

/** @type {import("./main.js").View} */
export async function ratingsView(main, [slug]) {
  const cat = await catalogue();
  const kinds = ratingKinds(cat);
  const kind = slug === undefined ? kinds[0] : kinds.find((k) => kindSlug(k) === slug);
  if (!kind) {
    replace(main, h("h1", {}, "No such rating"), kindTabs(kinds, ""));
    return;
  }
  /** @type {(string|null)[]} cursors of the pages seen, for "Previous" */
  const stack = [null];
  const body = h("div");
  replace(main,
    h("h1", {}, `Ratings: ${kindName(kind)}`),
    kindTabs(kinds, kind),
    h("p", { class: "hint" }, "Weng–Lin ratings across every league; ranked on μ − 3σ. Counts the games of ",
      systemsRatedAs(cat, kind).map((s) => s.displayName).join(", "), "."),
    body);
  const load = async () => {
    const { ratings } = await gql(Q.RATINGS, { game: kind, first: PAGE, after: stack[stack.length - 1] });
    const first = firstRow(stack, PAGE);
    replace(body,
      ratings.totalCount === 0 ? h("p", {}, "Nobody is rated at this kind of game yet.")
        : wideTable(["Rank", "Player", "Rating", "μ", "σ", "Games"], ratings.nodes.map((/** @type {any} */ row) => h("tr", {},
            h("td", { class: "num" }, row.rank),
            h("th", { scope: "row" }, h("a", { href: `/players/${row.player.id}` }, row.player.name)),
            h("td", { class: "num total" }, rounded(row.rating.display)),
            h("td", { class: "num" }, rounded(row.rating.mu)),
            h("td", { class: "num" }, rounded(row.rating.sigma)),
            h("td", { class: "num" }, row.rating.games))),
          { class: "leaderboard", caption: `Players ${first}–${first + ratings.nodes.length - 1} of ${ratings.totalCount}` }),
      pager(stack, ratings.pageInfo, load));
  };
  await load();
}

/**
 * A player's ratings section: one part per kind they have played, each with its history
 * one click away.
 * @param {import("./catalogue.js").Catalogue} cat
 * @param {string} playerId
 */
export async function playerRatings(cat, playerId) {
  const kinds = ratingKinds(cat);
  const answers = await Promise.all(kinds.map((game) => gql(Q.PLAYER_RATING, { id: playerId, game })));
  const played = kinds.map((kind, i) => ({ kind, player: answers[i].player })).filter(({ player }) => player && player.rating.games > 0);
  return h("section", { "aria-labelledby": "ratings-h", class: "player-ratings" },
    h("h2", { id: "ratings-h" }, "Ratings"),
    played.length === 0 ? h("p", {}, "No rated game yet.") : played.map(({ kind, player }) => h("section", { "data-kind": kind },
      h("h3", {}, h("a", { href: `/ratings/${kindSlug(kind)}` }, kindName(kind)), ": ", rounded(player.rating.display)),
      h("p", { class: "hint" }, `μ ${rounded(player.rating.mu)}, σ ${rounded(player.rating.sigma)}, ${player.rating.games} ${player.rating.games === 1 ? "game" : "games"}`),
      historyOnDemand(playerId, kind))));
}

/**
 * A button that fetches and shows one kind's rating history in its place.
 * @param {string} playerId @param {string} kind
 */
function historyOnDemand(playerId, kind) {
  const label = `Show the ${kindName(kind)} rating history`;
  const holder = h("div", { class: "table-wrap" });
  const error = formError();
  const button = h("button", { type: "button", onclick: async () => {
    button.setAttribute("disabled", "");
    button.textContent = "Loading the rating history…";
    try {
      const { player } = await gql(Q.PLAYER_RATING_HISTORY, { id: playerId, game: kind });
      replace(holder, historyTable(kind, player.ratingHistory));
    } catch (e) {
      button.removeAttribute("disabled");
      button.textContent = label;
      showError(holder, e);
    }
  } }, label);
  replace(holder, error, button);
  return holder;
}

/** What a rating change rated: a league game, or a tournament's board by round and number.
 * @param {any} c */
function ratedWhat(c) {
  if (c.game) return [h("a", { href: `/games/${c.game.id}` }, `Game ${c.game.number}`), ` · ${c.game.league.name}`];
  if (c.board) return [h("a", { href: `/tournaments/${c.board.tournamentId}/boards/${c.board.id}` }, `Round ${c.board.round}, board ${c.board.number}`), ` · ${c.board.tournamentName}`];
  return "—";
}

/** @param {string} kind @param {any[]} changes */
function historyTable(kind, changes) {
  return h("table", { class: "rating-history" },
    h("caption", {}, `${kindName(kind)} rating history`),
    h("thead", {}, h("tr", {}, ...["Game or board", "Position", "Time", "Change of μ", "Rating", "Note"].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, changes.map((c) => h("tr", { class: c.correction ? "rerated" : null },
      h("th", { scope: "row" }, ratedWhat(c)),
      h("td", { class: "num" }, c.position),
      h("td", {}, c.recordedAt ? when(c.recordedAt) : "—"),
      h("td", { class: "num" }, delta(Math.round(c.delta * 10) / 10)),
      h("td", { class: "num" }, rounded(c.rating.display)),
      h("td", {}, c.correction ? "Re-rated after a correction" : "Rated")))));
}
