// @ts-check
/** @file The scoring catalogue as the server states it (`scoringSystems`, `aggregations`):
 * fetched once per page load and kept in memory. Every system picker, result form and label
 * of the app is built from it, so the app knows every system the server scores and nothing
 * the server does not say. */

import { gql } from "./api.js";
import { CATALOGUE } from "./queries.js";

/**
 * @typedef {{ field: string, description: string }} Requirement
 * @typedef {{
 *   system: string, cliName: string, displayName: string, aliases: string[],
 *   resultShape: "PLACEMENT" | "DIPLOMACY" | "TEAMS",
 *   minPlayersPerGame: number, maxPlayersPerGame: number | null,
 *   requires: Requirement[], concessionScoring: string, rule: string, source: string,
 *   description: string, ratingKind: string, totalCentres: number | null,
 * }} SystemInfo
 * @typedef {{ kind: string, displayName: string, rule: string, takesN: boolean }} AggregationInfo
 * @typedef {{ systems: SystemInfo[], aggregations: AggregationInfo[], bySystem: Map<string, SystemInfo>, usual: Map<string, string> }} Catalogue
 */

/** @type {Promise<Catalogue> | null} */
let loading = null;

/** The catalogue; the first call asks the server, later calls share its answer. A failed
 * request is forgotten, so the next page tries again. @returns {Promise<Catalogue>} */
export function catalogue() {
  loading ??= gql(CATALOGUE).then(
    ({ scoringSystems, aggregations, usualScoringSystems }) => ({
      systems: scoringSystems,
      aggregations,
      usual: new Map(usualScoringSystems.map((/** @type {{ game: string, system: string }} */ u) => [u.game.toLowerCase(), u.system])),
      bySystem: new Map(scoringSystems.map((/** @type {SystemInfo} */ info) => [info.system, info])),
    }),
    (error) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The system a new competition of `game` starts with (docs/scoring.md#the-usual-system-of-a-game):
 * the server's usual one for the game, else the catalogue's first.
 * @param {Catalogue} cat @param {string} game */
export function usualSystem(cat, game) {
  return cat.usual.get(game.trim().toLowerCase()) ?? cat.systems[0]?.system ?? "";
}

/** A system's display name (its enum value if the server does not know it).
 * @param {Catalogue} cat @param {string} system */
export function systemName(cat, system) {
  return cat.bySystem.get(system)?.displayName ?? system;
}

/** Whether a system's results must carry a field (`SOLO_YEAR`, `KILLS`…).
 * @param {SystemInfo} info @param {string} field */
export function requires(info, field) {
  return info.requires.some((r) => r.field === field);
}

/** Players per game in words: `exactly 7`, `2 to 8`, `at least 2`. @param {SystemInfo} info */
export function playersPerGame(info) {
  const { minPlayersPerGame: min, maxPlayersPerGame: max } = info;
  if (max === null) return `at least ${min}`;
  return max === min ? `exactly ${min}` : `${min} to ${max}`;
}

/** A league's aggregation in words (the default when absent).
 * @param {Catalogue} cat @param {{ kind: string, n?: number | null } | null | undefined} aggregation */
export function aggregationText(cat, aggregation) {
  const info = aggregation ? cat.aggregations.find((a) => a.kind === aggregation.kind) : cat.aggregations[0];
  if (!info) return aggregation?.kind ?? "";
  return info.takesN && aggregation?.n != null ? `${info.displayName} (N = ${aggregation.n})` : info.displayName;
}

/** The rating kinds, in the order the catalogue first names them. @param {Catalogue} cat */
export function ratingKinds(cat) {
  return [...new Set(cat.systems.map((s) => s.ratingKind))];
}

/** The systems whose games count towards a rating kind. @param {Catalogue} cat @param {string} kind */
export function systemsRatedAs(cat, kind) {
  return cat.systems.filter((s) => s.ratingKind === kind);
}

/** A rating kind in words: `BLUE_MAX` → `Blue Max`. @param {string} kind */
export function kindName(kind) {
  return kind.split("_").map((w) => w.charAt(0) + w.slice(1).toLowerCase()).join(" ");
}

/** A rating kind in a path: `BLUE_MAX` → `blue-max`. @param {string} kind */
export function kindSlug(kind) {
  return kind.toLowerCase().replaceAll("_", "-");
}
