// @ts-check
/** @file What the tournament pages share: the server's tournament catalogue (asked once per
 * page load), every registered player, a player picker, names in a sentence, keyboard focus
 * kept across a refresh, and the state a tournament page's section views read. */

import { gql } from "./api.js";
import { h } from "./dom.js";
import * as Q from "./queries.js";

/**
 * @typedef {{ value: string, name: string, description: string }} RoundScoringInfo
 * @typedef {{ id: string, name: string, description: string, usesRoundScores: boolean }} TournamentScoringInfo
 * @typedef {{ tournamentScorings: TournamentScoringInfo[], roundScorings: RoundScoringInfo[], replacementScores: string[] }} TournamentCatalogue
 * @typedef {{ id: string, name: string }} PlayerRef
 * @typedef {{
 *   id: string, me: string|null, director: boolean,
 *   cat: import("./catalogue.js").Catalogue, tcat: TournamentCatalogue,
 *   t: any, registered: PlayerRef[], afterRound: number|null, standings: any[], myBoards: any[],
 *   keep: (key: string, basis: unknown, build: () => HTMLElement) => HTMLElement,
 *   act: (where: HTMLElement, doc: string, variables: Record<string, unknown>, done: string) => Promise<void>,
 *   reload: () => Promise<void>,
 * }} TournamentPage a tournament's page: who reads it (`me`, whether the `director`), the
 *   tournament `t` and what else the page shows (refreshed together), `keep` for forms that
 *   survive a refresh, `act` for a button's mutation (then a refresh), and `reload`
 */

/** @type {Promise<TournamentCatalogue> | null} */
let loadingCatalogue = null;

/** The tournament and round scorings the server offers, asked once per page load (a failed
 * request is forgotten). @returns {Promise<TournamentCatalogue>} */
export function tournamentCatalogue() {
  loadingCatalogue ??= gql(Q.TOURNAMENT_CATALOGUE).then(
    (data) => ({
      tournamentScorings: data.tournamentScorings,
      roundScorings: data.roundScorings,
      replacementScores: (data.replacementScores?.enumValues ?? []).map((/** @type {{ name: string }} */ v) => v.name),
    }),
    (error) => {
      loadingCatalogue = null;
      throw error;
    },
  );
  return loadingCatalogue;
}

/** An enum value in words: `SEATED_PLAYER` → `Seated player`. @param {string} value */
export function words(value) {
  const text = value.toLowerCase().replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every registered player, in registration order (paged through `players`). @returns {Promise<PlayerRef[]>} */
export async function allPlayers() {
  /** @type {PlayerRef[]} */
  const all = [];
  let after = null;
  for (;;) {
    const { players } = await gql(Q.PLAYERS, { first: 100, after });
    all.push(...players.nodes);
    if (!players.pageInfo.hasNextPage) return all;
    after = players.pageInfo.endCursor;
  }
}

/** A `<select>` of players, with an empty first choice. @param {PlayerRef[]} players @param {string} empty */
export function playerSelect(players, empty) {
  return /** @type {HTMLSelectElement} */ (h("select", {},
    h("option", { value: "" }, empty),
    players.map((p) => h("option", { value: p.id }, p.name))));
}

/** Names joined for a sentence, or "nobody". @param {PlayerRef[]} players */
export function names(players) {
  return players.length === 0 ? "nobody" : players.map((p) => p.name).join(", ");
}

/**
 * Runs `render` (which may rebuild the controls under `root`) and gives keyboard focus back to
 * the control that had it: the same element if it survived, else the new one with the same
 * `data-focus-key`, so pressing a control never drops focus to the page.
 * @param {HTMLElement} root @param {() => void} render
 */
export function keepFocus(root, render) {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.focusKey : undefined;
  render();
  if (!key || (document.activeElement instanceof HTMLElement && document.activeElement !== document.body)) return;
  const again = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (again instanceof HTMLElement) again.focus({ preventScroll: true });
}
