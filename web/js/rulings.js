// @ts-check
/** @file Rulings (docs/tournaments.md#rulings): the tournament page's "Rulings" section. Every
 * ruling for everyone (the handicaps as the tournament gives them, the penalties, bonuses and
 * unranked entrants on the standings lines, the directors' top-board orders, each with its
 * reason); for a director, one step away, the forms that adjust a score, revoke an adjustment,
 * mark an entrant unranked or ranked again, set a handicap before round 1 and order a round's
 * top board. A list, not a table, so a phone never scrolls sideways. */

import { gql } from "./api.js";
import { h, replace, score } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, input, onSubmit, selectOf } from "./forms.js";
import { refusal, refuseRepeats } from "./distinct-choices.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** A ruling in words, as the export says it. @param {any} r */
export function rulingText(r) {
  let text;
  if (r.kind === "UNRANKED") text = "unranked";
  else if (r.kind === "HANDICAP") text = `handicap ${r.points > 0 ? "+" : ""}${score(r.points)}`;
  else text = `${r.points < 0 ? "penalty" : "bonus"} ${r.points > 0 ? "+" : ""}${score(r.points)}`;
  if (r.round !== null && r.board !== null) text += ` (round ${r.round}, board ${r.board})`;
  else if (r.round !== null) text += ` (round ${r.round})`;
  return r.reason ? `${text}: ${r.reason}` : text;
}

/** A top board's order in words: the players first ahead, and the reason. @param {any} order */
function orderText(order) {
  return `round ${order.round}'s top board, in the director's order: ${order.players.map((/** @type {any} */ p) => p.name).join(", ")}: ${order.reason}`;
}

/** Every ruling: the handicaps (as the tournament gives them), each line's other rulings with
 * a director's Revoke button for an adjustment, then the top-board orders.
 * @param {TournamentPage} page @param {HTMLElement} where */
function rulingsList(page, where) {
  const { handicaps, topBoardOrders } = page.t;
  const ruled = page.standings.flatMap((s) => s.rulings.filter((/** @type {any} */ r) => r.kind !== "HANDICAP").map((/** @type {any} */ r) => ({ s, r })));
  if (handicaps.length + ruled.length + topBoardOrders.length === 0) return h("p", {}, "No rulings.");
  return h("ul", { class: "rulings" },
    handicaps.map((/** @type {any} */ c) => h("li", {},
      h("strong", {}, c.player.name), `: ${rulingText({ kind: "HANDICAP", points: c.points, reason: c.reason, round: null, board: null })}`)),
    ruled.map(({ s, r }) => h("li", {},
      h("strong", {}, s.player.name), `: ${rulingText(r)}`,
      page.director && r.number !== null ? h("button", { type: "button", class: "secondary", "aria-label": `Revoke adjustment ${r.number}`,
        onclick: () => page.act(where, Q.REVOKE_SCORE_ADJUSTMENT, { number: r.number }, `Adjustment ${r.number} revoked.`) }, "Revoke") : null)),
    topBoardOrders.map((/** @type {any} */ o) => h("li", { class: "top-board-order" }, h("strong", {}, "Top board"), `: ${orderText(o)}`)));
}

/** What an adjustment can apply to: the total, a seeded round, a finished board. @param {any} t */
function targets(t) {
  return [{ value: "", text: "Tournament total" },
    ...t.rounds.flatMap((/** @type {any} */ r) => [{ value: `round:${r.number}`, text: `Round ${r.number}` },
      ...r.boards.filter((/** @type {any} */ b) => b.finished).map((/** @type {any} */ b) => ({ value: `board:${b.id}`, text: `Round ${r.number}, board ${b.number}` }))])];
}

/** A director's form giving a penalty or a bonus. @param {TournamentPage} page */
function adjustForm(page) {
  const { t } = page;
  const player = selectOf(t.entrants, (/** @type {any} */ e) => ({ value: e.player.id, text: e.player.name }));
  const target = selectOf(targets(t), (o) => o);
  const points = input("number", { required: true, step: "any", inputmode: "decimal", placeholder: "-5" });
  const reason = input("text", { required: true });
  const form = h("form", { class: "adjust-score" }, formError(),
    field("Player", player, { field: "playerId" }),
    field("Applies to", target, { field: "level" }),
    field("Points (negative for a penalty)", points, { field: "points" }),
    field("Reason", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Adjust score"));
  onSubmit(form, async (idempotencyKey) => {
    const [kind, value] = target.value.split(":");
    await gql(Q.ADJUST_SCORE, {
      tournamentId: page.id, playerId: player.value, points: Number(points.value), reason: reason.value,
      level: kind === "board" ? "BOARD" : kind === "round" ? "ROUND" : "TOURNAMENT",
      boardId: kind === "board" ? value : null, round: kind === "round" ? Number(value) : null, idempotencyKey,
    });
    /** @type {HTMLFormElement} */ (form).reset();
    await page.reload();
  });
  return form;
}

/** A director's form marking an entrant unranked or ranked again. @param {TournamentPage} page */
function unrankedForm(page) {
  const { t } = page;
  const unranked = new Set(page.standings.filter((s) => s.unranked).map((s) => s.player.id));
  const player = selectOf(t.entrants, (/** @type {any} */ e) => ({ value: e.player.id, text: `${e.player.name}${unranked.has(e.player.id) ? " (unranked)" : ""}` }));
  const reason = input("text", {});
  const form = h("form", { class: "set-unranked" }, formError(),
    field("Entrant", player, { field: "playerId" }),
    field("Reason (optional)", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Mark unranked or ranked again"));
  onSubmit(form, async (idempotencyKey) => {
    await gql(Q.SET_ENTRANT_UNRANKED, {
      tournamentId: page.id, playerId: player.value, unranked: !unranked.has(player.value), reason: reason.value || null, idempotencyKey,
    });
    await page.reload();
  });
  return form;
}

/** A director's form setting an entrant's handicap before round 1 (0 removes it).
 * @param {TournamentPage} page */
function handicapForm(page) {
  const { t } = page;
  const held = new Map(t.handicaps.map((/** @type {any} */ c) => [c.player.id, c.points]));
  const player = selectOf(t.entrants, (/** @type {any} */ e) => ({
    value: e.player.id, text: `${e.player.name}${held.has(e.player.id) ? ` (handicap ${score(held.get(e.player.id))})` : ""}`,
  }));
  const points = input("number", { required: true, step: "any", inputmode: "decimal", placeholder: "2.5" });
  const reason = input("text", {});
  const form = h("form", { class: "set-handicap" }, formError(),
    field("Whose handicap", player, { field: "playerId" }),
    field("Handicap points", points, { field: "points", hint: "Added to the entrant's total from the start; 0 removes it. Only before round 1 is seeded." }),
    field("Why the handicap (optional)", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Set handicap"));
  onSubmit(form, async () => {
    await gql(Q.SET_HANDICAP, { tournamentId: page.id, playerId: player.value, points: Number(points.value), reason: reason.value || null });
    /** @type {HTMLFormElement} */ (form).reset();
    await page.reload();
  });
  return form;
}

/** One place select per player of a round's top board (empty: not named), holding the
 * director's latest order for that round. @param {any} t @param {number} number */
function placeFields(t, number) {
  const players = t.rounds.find((/** @type {any} */ r) => r.number === number)?.boards[0]?.seats.map((/** @type {any} */ s) => s.player) ?? [];
  const given = t.topBoardOrders.find((/** @type {any} */ o) => o.round === number)?.players.map((/** @type {any} */ p) => p.id) ?? [];
  const places = ["", ...players.map((/** @type {any} */ _, /** @type {number} */ i) => String(i + 1))];
  return players.map((/** @type {any} */ p, /** @type {number} */ i) => {
    const select = selectOf(places, (v) => ({ value: v, text: v === "" ? "Not named" : `Place ${v}` }));
    select.value = given.includes(p.id) ? String(given.indexOf(p.id) + 1) : "";
    return { player: p, select, element: field(`Place of ${p.name}`, select, { field: `order[${i}]` }) };
  });
}

/** A director's form ordering players of a round's top board (first ahead) for when their
 * totals are level, with a reason. @param {TournamentPage} page */
function topBoardForm(page) {
  const { t } = page;
  const rounds = t.rounds.filter((/** @type {any} */ r) => r.topBoard).map((/** @type {any} */ r) => r.number);
  const round = selectOf(rounds, (/** @type {number} */ r) => ({ value: String(r), text: `Round ${r}` }));
  round.value = String(rounds[rounds.length - 1]);
  const players = h("div", { class: "top-board-places" });
  let places = placeFields(t, Number(round.value));
  const showPlaces = () => replace(players, places.map((p) => p.element));
  round.addEventListener("change", () => {
    places = placeFields(t, Number(round.value));
    showPlaces();
  });
  showPlaces();
  const reason = input("text", { required: true });
  const form = h("form", { class: "order-top-board" }, formError(),
    field("Top board of", round, { field: "round" }),
    h("p", { class: "hint" }, "Give places to the players level on total, first ahead; the others stay not named."),
    players,
    field("Why this order", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Order top board"));
  onSubmit(form, async () => {
    const named = places.filter((p) => p.select.value !== "");
    refuseRepeats(named.map((p) => p.select), (place) => `${place} is given twice: give each place once.`);
    if (named.length < 2) throw refusal("Give places to at least two players.");
    named.sort((a, b) => Number(a.select.value) - Number(b.select.value));
    await gql(Q.BREAK_TOP_BOARD_TIE, { tournamentId: page.id, round: Number(round.value), order: named.map((p) => p.player.id), reason: reason.value });
    reason.value = "";
    await page.reload();
  });
  return form;
}

/** The page's "Rulings" section; a director's forms sit in a `<details>` kept across
 * refreshes, so it stays open after a ruling. @param {HTMLElement} section @param {TournamentPage} page */
export function renderRulings(section, page) {
  const { t } = page;
  const list = h("div", { id: "rulings-list" });
  replace(list, rulingsList(page, list));
  const basis = [t.version, page.standings.map((s) => s.rulings.length)];
  const forms = page.director
    ? /** @type {HTMLElement} */ (section.querySelector("details#give-ruling") ?? h("details", { class: "one-step", id: "give-ruling" }))
    : null;
  if (forms) {
    replace(forms, h("summary", {}, "Give a ruling"),
      t.rounds.length === 0 ? page.keep("set-handicap", t.handicaps, () => handicapForm(page)) : null,
      page.keep("adjust-score", basis, () => adjustForm(page)),
      page.keep("set-unranked", basis, () => unrankedForm(page)),
      t.rounds.some((/** @type {any} */ r) => r.topBoard) ? page.keep("top-board-order", [t.rounds.length, t.topBoardOrders], () => topBoardForm(page)) : null);
  }
  replace(section, h("h2", { id: "rulings-h" }, "Rulings"), list, forms);
}
