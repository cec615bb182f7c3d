// @ts-check
/** @file Pools and per-round scoring (docs/tournaments.md#pools-top-boards-and-per-round-scoring):
 * the tournament page's "Pools and round scoring" section — each round's pool (the best n·k or
 * named players, its multiplier, whether it decides places, its boards once seeded) and each
 * round's own scoring system — and, for a director, one step away, the forms that set a round's
 * pool before it is seeded (the best by standings or players they name), remove it, and set a
 * round's scoring system. A list, not a table, so a phone never scrolls sideways. */

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

/** The entrants still in, one checkbox each, and a count in boards of k as they are ticked:
 * the players a director names for a pool. @param {any} t */
function namedPlayers(t) {
  const boxes = t.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound === null)
    .map((/** @type {any} */ e) => ({ id: e.player.id, box: input("checkbox", { value: e.player.id }), name: e.player.name }));
  const count = h("p", { class: "hint", "aria-live": "polite" });
  const showCount = () => {
    const n = boxes.filter((b) => b.box.checked).length;
    const boards = n / t.playersPerBoard;
    count.textContent = `${n} named: ${Number.isInteger(boards) ? `${boards} board${boards === 1 ? "" : "s"}` : `not a whole number of boards of ${t.playersPerBoard}`}.`;
  };
  for (const b of boxes) b.box.addEventListener("change", showCount);
  showCount();
  const element = h("fieldset", { class: "named-pool", id: "named-pool" },
    h("legend", {}, "Pool players"),
    boxes.map((b) => field(b.name, b.box)),
    count,
    h("p", { class: "field-error", id: "named-pool-error", hidden: true }));
  return { element, chosen: () => boxes.filter((b) => b.box.checked).map((b) => b.id) };
}

/** A director's form setting a round's pool: the best n·k by standings or players they name.
 * @param {TournamentPage} page */
function poolForm(page) {
  const rounds = unseededRounds(page.t);
  const round = selectOf(rounds, (r) => ({ value: String(r), text: `Round ${r}` }));
  round.value = String(rounds[rounds.length - 1]);
  const chosenBy = selectOf(["best", "named"], (v) => ({ value: v, text: v === "best" ? "The best by standings" : "Players I name" }));
  const best = input("number", { required: true, min: "1", step: "1", inputmode: "numeric", value: String(page.t.playersPerBoard) });
  const bestField = field("Pool of the best (players, whole boards)", best, { field: "best" });
  const named = namedPlayers(page.t);
  const showChoice = () => {
    const byName = chosenBy.value === "named";
    bestField.hidden = byName;
    best.required = !byName;
    named.element.hidden = !byName;
    // A refusal of the pool's players (`players`) is shown next to them when they are named.
    if (byName) named.element.dataset.field = "players";
    else delete named.element.dataset.field;
  };
  chosenBy.addEventListener("change", showChoice);
  showChoice();
  const multiplier = input("text", { required: true, value: "1", inputmode: "decimal" });
  const decides = input("checkbox", {});
  const form = h("form", { class: "round-pool" }, formError(),
    field("Pool round", round, { field: "round" }),
    field("Pool chosen", chosenBy, { field: "chosenBy" }),
    bestField,
    named.element,
    field("Score multiplier", multiplier, { field: "multiplier", hint: "An exact decimal, e.g. 1.5" }),
    field("The pool decides the top places (last round only)", decides, { field: "decidesPlaces" }),
    h("button", { type: "submit" }, "Set pool"));
  onSubmit(form, async (idempotencyKey) => {
    const byName = chosenBy.value === "named";
    await gql(Q.SET_ROUND_POOL, {
      tournamentId: page.id, round: Number(round.value), best: byName ? null : Number(best.value), named: byName ? named.chosen() : null,
      multiplier: multiplier.value, decidesPlaces: decides.checked, idempotencyKey,
    });
    await page.reload();
  });
  return form;
}

/** A round's stage in the list, with a director's Remove button while its pool may change.
 * @param {TournamentPage} page @param {any} stage @param {HTMLElement} where */
function stageItem(page, stage, where) {
  const removable = page.director && stage.pool && stage.round > page.t.rounds.length;
  return h("li", {}, h("strong", {}, `Round ${stage.round}: `), stageText(stage, page),
    removable ? h("button", { type: "button", class: "secondary", onclick: () => page.act(where, Q.REMOVE_ROUND_POOL, { round: stage.round }, `Round ${stage.round}'s pool removed.`) },
      `Remove round ${stage.round}'s pool`) : null);
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
 * system and the reader does not direct the tournament. A director's forms sit in a
 * `<details>` kept across refreshes, so it stays open after a change.
 * @param {HTMLElement} section @param {TournamentPage} page */
export function renderPools(section, page) {
  const { t } = page;
  const stages = t.roundStages.filter((/** @type {any} */ s) => s.pool || s.ownScoringSystem);
  section.hidden = stages.length === 0 && !page.director;
  const list = h("div", { id: "round-stages" }, formError());
  list.append(stages.length === 0
    ? h("p", {}, "Every round is seeded as one and scored by the tournament's system.")
    : h("ul", { class: "round-stages" }, stages.map((/** @type {any} */ s) => stageItem(page, s, list))));
  const forms = page.director
    ? /** @type {HTMLElement} */ (section.querySelector("details#set-pool") ?? h("details", { class: "one-step", id: "set-pool" }))
    : null;
  if (forms) {
    replace(forms, h("summary", {}, "Set a round's pool or scoring"),
      unseededRounds(t).length > 0 ? page.keep("round-pool", [t.rounds.length, t.entrants.length], () => poolForm(page)) : null,
      page.keep("round-scoring", t.rounds.map((/** @type {any} */ r) => r.started), () => scoringForm(page)));
  }
  replace(section, h("h2", { id: "pools-h" }, "Pools and round scoring"), list, forms);
}
