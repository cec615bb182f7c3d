// @ts-check
/** @file Pools and per-round scoring (docs/tournaments.md#pools-top-boards-and-per-round-scoring):
 * the tournament page's "Pools and round scoring" section — each round's pool (the best n·k or
 * named players, its multiplier, whether it decides places, its boards once seeded) and each
 * round's own scoring system — and, for a director, the forms that set a round's pool before it
 * is seeded and a round's scoring system. A list, not a table, so a phone never scrolls
 * sideways. */

import { gql } from "./api.js";
import { h, replace } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, input, onSubmit, selectOf } from "./forms.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** A round's stage in words. @param {any} stage @param {TournamentPage} page */
function stageText(stage, page) {
  const parts = [];
  const pool = stage.pool;
  if (pool) {
    const size = pool.best ?? pool.named.length;
    const who = pool.best !== null ? `the best ${pool.best} by standings` : pool.named.map((/** @type {any} */ p) => p.name).join(", ");
    let text = `pool of ${who}, scores ×${pool.multiplier}`;
    if (pool.decidesPlaces) text += `, deciding places 1–${size}`;
    if (pool.poolBoards !== null) text += ` (board${pool.poolBoards === 1 ? "" : "s"} 1${pool.poolBoards === 1 ? "" : `–${pool.poolBoards}`})`;
    parts.push(text);
  }
  if (stage.ownScoringSystem) {
    const system = page.cat.bySystem.get(stage.scoringSystem);
    parts.push(`scored by ${system?.displayName ?? stage.scoringSystem}`);
  }
  return parts.join("; ");
}

/** The rounds not seeded yet. @param {any} t @returns {number[]} */
function unseededRounds(t) {
  const seeded = t.rounds.length;
  return t.roundStages.map((/** @type {any} */ s) => s.round).filter((/** @type {number} */ r) => r > seeded);
}

/** A director's form setting a round's pool of the best n·k. @param {TournamentPage} page */
function poolForm(page) {
  const rounds = unseededRounds(page.t);
  const round = selectOf(rounds, (r) => ({ value: String(r), text: `Round ${r}` }));
  round.value = String(rounds[rounds.length - 1]);
  const best = input("number", { required: true, min: "1", step: "1", inputmode: "numeric", value: String(page.t.playersPerBoard) });
  const multiplier = input("text", { required: true, value: "1", inputmode: "decimal" });
  const decides = input("checkbox", {});
  const form = h("form", { class: "round-pool" }, formError(),
    field("Pool round", round, { field: "round" }),
    field("Pool of the best (players, whole boards)", best, { field: "best" }),
    field("Score multiplier", multiplier, { field: "multiplier", hint: "An exact decimal, e.g. 1.5" }),
    field("The pool decides the top places (last round only)", decides, { field: "decidesPlaces" }),
    h("button", { type: "submit" }, "Set pool"));
  onSubmit(form, async (idempotencyKey) => {
    await gql(Q.SET_ROUND_POOL, {
      tournamentId: page.id, round: Number(round.value), best: Number(best.value),
      multiplier: multiplier.value, decidesPlaces: decides.checked, idempotencyKey,
    });
    await page.reload();
  });
  return form;
}

/** A director's form setting a round's scoring system. @param {TournamentPage} page */
function scoringForm(page) {
  const { t } = page;
  const own = page.cat.bySystem.get(t.scoringSystem);
  const systems = page.cat.systems.filter((s) => s.resultShape === own?.resultShape
    && s.minPlayersPerGame <= t.playersPerBoard && (s.maxPlayersPerGame ?? Infinity) >= t.playersPerBoard);
  const rounds = t.roundStages.filter((/** @type {any} */ s) => !t.rounds[s.round - 1]?.started);
  const round = selectOf(rounds, (/** @type {any} */ s) => ({ value: String(s.round), text: `Round ${s.round}` }));
  const system = selectOf(systems, (s) => ({ value: s.system, text: s.displayName }));
  const form = h("form", { class: "round-scoring" }, formError(),
    field("Scored round", round, { field: "round" }),
    field("Scoring system", system, { field: "scoringSystem" }),
    h("button", { type: "submit" }, "Set round scoring"));
  onSubmit(form, async () => {
    await gql(Q.SET_ROUND_SCORING, { tournamentId: page.id, round: Number(round.value), scoringSystem: system.value });
    await page.reload();
  });
  return form;
}

/** The page's "Pools and round scoring" section; hidden when no round has a pool or its own
 * system and the reader does not direct the tournament. @param {HTMLElement} section @param {TournamentPage} page */
export function renderPools(section, page) {
  const { t } = page;
  const stages = t.roundStages.filter((/** @type {any} */ s) => s.pool || s.ownScoringSystem);
  section.hidden = stages.length === 0 && !page.director;
  replace(section,
    h("h2", { id: "pools-h" }, "Pools and round scoring"),
    stages.length === 0
      ? h("p", {}, "Every round is seeded as one and scored by the tournament's system.")
      : h("ul", { class: "round-stages" }, stages.map((/** @type {any} */ s) => h("li", {}, h("strong", {}, `Round ${s.round}: `), stageText(s, page)))),
    page.director && unseededRounds(t).length > 0 ? page.keep("round-pool", t.rounds.length, () => poolForm(page)) : null,
    page.director ? page.keep("round-scoring", t.rounds.map((/** @type {any} */ r) => r.started), () => scoringForm(page)) : null);
}
