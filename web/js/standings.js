// @ts-check
/** @file Standings as the competition pages show them: a league's table, a tournament's
 * table (a column per round, dropped and sat-out rounds marked, a two-board round's boards),
 * and the links to a competition's downloads and embeddable standings widget. */

import { h, score } from "./dom.js";
import { wideTable } from "./table.js";

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

/** A standing's total, with the tie-breaker that split it from a neighbour level on total
 * written under it (docs/scoring.md#standings-and-tie-breakers). @param {any} s */
function totalCell(s) {
  return h("td", { class: "num total" }, score(s.total),
    s.separatedBy ? h("span", { class: "tie-break", "data-tie-break": s.separatedBy.code }, `tie-break: ${s.separatedBy.label}`) : null);
}

/** A league's standings table. @param {any[]} standings @param {string} caption */
export function standingsTable(standings, caption) {
  return wideTable(["Rank", "Player", "Total", "Played", "Wins", "Draws"], standings.map((s) => h("tr", {},
    h("td", { class: "num" }, s.rank),
    h("th", { scope: "row" }, h("a", { href: `/players/${s.player.id}` }, s.player.name)),
    totalCell(s),
    h("td", { class: "num" }, s.played),
    h("td", { class: "num" }, s.wins),
    h("td", { class: "num" }, s.draws))), { class: "standings", caption });
}

/** The marker of a corrected board's score: a link to its reasons below the table, which a
 * screen reader reads out. @param {number} round @param {number} board @param {string[]} reasons */
function correctedMark(round, board, reasons) {
  return h("a", { href: `#correction-${round}-${board}`, class: "corrected", title: `Corrected: ${reasons.join("; ")}` },
    "*", h("span", { class: "visually-hidden" }, ` board ${board} corrected: ${reasons.join("; ")}`));
}

/** A tournament standing's cell for one round: its score (struck through when dropped),
 * "sat out", each board's score when the player played two, and a corrected board's mark.
 * @param {any} r @param {Map<string, string[]>} corrections reasons by `round:board` */
function roundCell(r, corrections) {
  const text = r.score === null ? "—" : score(r.score);
  const main = r.dropped ? h("del", { title: "dropped: does not count" }, text) : h("span", {}, text);
  const boards = r.boards.length > 1
    ? h("span", { class: "board-scores" }, ` (${r.boards.map((/** @type {any} */ b) => `board ${b.board}: ${score(b.score)}${b.dropped ? " dropped" : ""}`).join(", ")})`)
    : null;
  const marks = r.boards.filter((/** @type {any} */ b) => corrections.has(`${r.round}:${b.board}`))
    .map((/** @type {any} */ b) => correctedMark(r.round, b.board, corrections.get(`${r.round}:${b.board}`) ?? []));
  return h("td", { class: `num${r.dropped ? " dropped" : ""}${r.satOut ? " sat-out" : ""}`, "data-round": r.round },
    main, ...marks, r.satOut ? " sat out" : null, boards);
}

/**
 * A tournament's standings table, a column per round; a withdrawn entrant is marked.
 * @param {any[]} standings
 * @param {any[]} entrants the tournament's entrants (who withdrew, after which round)
 * @param {number|null} afterRound the round the standings are after (null: every round so far)
 * @param {Map<string, string[]>} [corrections] each corrected board's reasons by `round:board`
 */
export function tournamentStandingsTable(standings, entrants, afterRound, corrections = new Map()) {
  const withdrawn = new Map(entrants.filter((e) => e.withdrawnAfterRound !== null).map((e) => [e.player.id, e.withdrawnAfterRound]));
  const roundNumbers = standings[0]?.rounds.map((/** @type {any} */ r) => r.round) ?? [];
  const columns = ["Rank", "Player", ...roundNumbers.map((/** @type {number} */ n) => `Round ${n}`), "Total", "Boards", "Wins", "Draws"];
  return wideTable(columns, standings.map((s) => h("tr", { "data-player": s.player.name },
    h("td", { class: "num rank" }, s.unranked ? "–" : s.rank),
    h("th", { scope: "row" }, h("a", { href: `/players/${s.player.id}` }, s.player.name),
      s.unranked ? h("span", { class: "unranked" }, " (unranked)") : null,
      s.rulings.some((/** @type {any} */ r) => r.kind !== "UNRANKED") ? h("a", { href: "#rulings-h", class: "ruled", title: "see the rulings" }, " †") : null,
      withdrawn.has(s.player.id) ? h("span", { class: "withdrawn" }, ` (withdrew after round ${withdrawn.get(s.player.id)})`) : null,
      s.notes.length > 0 ? h("span", { class: "hint" }, ` ${s.notes.join("; ")}`) : null),
    ...s.rounds.map((/** @type {any} */ r) => roundCell(r, corrections)),
    totalCell(s),
    h("td", { class: "num" }, s.games),
    h("td", { class: "num" }, s.wins),
    h("td", { class: "num" }, s.draws))),
  { class: "standings tournament-standings", caption: afterRound === null ? "Standings now" : `Standings after round ${afterRound}` });
}
