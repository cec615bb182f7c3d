// @ts-check
/** @file A tournament board's page (seats with powers, board scores, replacements, and the
 * result form of the tournament's scoring system: report, or the director's correction), and a
 * round's printable board call (every board with its powers and players, who sits out and
 * who plays two boards). */

import { gql, session } from "./api.js";
import { h, replace, score, badge } from "./dom.js";
import { catalogue, systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { resultForm } from "./result-form.js";
import { navigate } from "./main.js";
import { names } from "./tournament-common.js";

/** @type {import("./main.js").View} */
export async function boardView(main, [id, boardId]) {
  const [{ tournament }, cat] = await Promise.all([gql(Q.TOURNAMENT_BOARD, { id, boardId }), catalogue()]);
  const board = tournament?.board;
  if (!board) {
    replace(main, h("h1", {}, "Board not found"), h("p", {}, h("a", { href: `/tournaments/${id}` }, "Back to the tournament.")));
    return;
  }
  const role = session.role;
  const seated = role?.kind === "player" && board.seats.some((/** @type {any} */ s) => s.player.id === role.id);
  // The site admin and the tournament's organisers manage every board.
  const manager = role?.kind === "admin" || (role?.kind === "player" && tournament.organisers.some((/** @type {any} */ o) => o.id === role.id));
  const mode = !board.finished && (seated || manager) ? "report" : board.finished && manager ? "correct" : null;
  const scores = new Map(board.scores.map((/** @type {any} */ s) => [s.player.id, s.score]));
  const back = `/tournaments/${id}`;
  replace(main,
    h("h1", {}, `Round ${board.round}, board ${board.number} `, badge(board.finished ? "FINISHED" : "SCHEDULED")),
    h("p", {}, h("a", { href: back }, tournament.name), ` · ${systemName(cat, tournament.scoringSystem)}`,
      board.corrections > 0 ? ` · corrected ${board.corrections}×` : ""),
    h("div", { class: "table-wrap" }, h("table", {},
      h("caption", {}, "Seats"),
      h("thead", {}, h("tr", {}, ...["Power", "Player", "Board score"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, board.seats.map((/** @type {any} */ s) => h("tr", {},
        h("th", { scope: "row" }, s.label),
        h("td", {}, h("a", { href: `/players/${s.player.id}` }, s.player.name)),
        h("td", { class: "num" }, scores.has(s.player.id) ? score(/** @type {number} */ (scores.get(s.player.id))) : "—")))))),
    board.replacements.length > 0
      ? h("p", {}, "Replacements: ", board.replacements.map((/** @type {any} */ r) => `${r.replacement.name} finished ${r.seated.name}'s seat`).join("; "), ".")
      : null,
    mode ? resultForm(board, mode, cat.bySystem.get(tournament.scoringSystem) ?? tournament.scoringSystem, async (variables) => {
      if (mode === "report") await gql(Q.REPORT_BOARD_RESULT, { tournamentId: id, boardId, ...variables });
      else await gql(Q.CORRECT_BOARD_RESULT, { tournamentId: id, boardId, ...variables });
      navigate(back);
    }) : null);
}

/** A board's table label, as the board call and the wall sheet name it. @param {any} board */
const tableLabel = (board) => `Table ${board.number}`;

/** The board call by player name, alphabetical, for posting on a wall: each seat's player,
 * table and power (a player on two boards has two lines), then who sits out. @param {any} round */
function byPlayerName(round) {
  const lines = round.boards.flatMap((/** @type {any} */ b) => b.seats.map((/** @type {any} */ s) => ({ name: s.player.name, table: tableLabel(b), power: s.label })));
  for (const p of round.sittingOut) lines.push({ name: p.name, table: "Sits out", power: "—" });
  lines.sort((a, b) => a.name.localeCompare(b.name) || a.table.localeCompare(b.table, undefined, { numeric: true }));
  return h("section", { class: "call-by-name", "aria-labelledby": "call-by-name-h" },
    h("h2", { id: "call-by-name-h" }, "By player name"),
    h("table", {},
      h("thead", {}, h("tr", {}, ...["Player", "Table", "Power"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, lines.map((line) => h("tr", { "data-player": line.name },
        h("th", { scope: "row" }, line.name), h("td", {}, line.table), h("td", {}, line.power))))));
}

/** @type {import("./main.js").View} */
export async function boardCallView(main, [id, number]) {
  const { tournament } = await gql(Q.BOARD_CALL, { id, round: Number(number) });
  const round = tournament?.round;
  if (!round) {
    replace(main, h("h1", {}, "Round not seeded"), h("p", {}, h("a", { href: `/tournaments/${id}` }, "Back to the tournament.")));
    return;
  }
  replace(main,
    h("h1", {}, `${tournament.name}: round ${round.number} board call`),
    h("div", { class: "actions no-print" },
      h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print"),
      h("a", { href: "#call-by-name-h", class: "button" }, "By player name"),
      h("a", { href: `/tournaments/${id}`, class: "button" }, "Back to the tournament")),
    h("div", { class: "board-call" }, round.boards.map((/** @type {any} */ b) => h("section", { class: "call-board", "data-board": b.number, "aria-labelledby": `call-board-${b.number}` },
      h("h2", { id: `call-board-${b.number}` }, `${tableLabel(b)}: board ${b.number}`),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Power"), h("th", { scope: "col" }, "Player"))),
        h("tbody", {}, b.seats.map((/** @type {any} */ s) => h("tr", {}, h("th", { scope: "row" }, s.label), h("td", {}, s.player.name)))))))),
    h("p", { class: "sitting-out" }, `Sitting out: ${names(round.sittingOut)}.`),
    h("p", { class: "playing-twice" }, `Playing two boards: ${names(round.playingTwice)}.`),
    byPlayerName(round));
}
