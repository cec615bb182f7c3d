// @ts-check
/** @file A tournament board's page (seats with powers, board scores, correction reasons,
 * replacements, a report awaiting confirmation, and the result form of the tournament's
 * scoring system: report, or the director's correction), and a
 * round's printable board call (every board with its powers and players, who sits out and
 * who plays two boards). */

import { gql, session } from "./api.js";
import { h, replace, score, badge } from "./dom.js";
import { catalogue, systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { resultForm, resultWords } from "./result-form.js";
import { command, field, formError } from "./forms.js";
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
  const pending = board.awaitingConfirmation;
  // A report awaiting confirmation: its reporter waits, another player of the board confirms
  // or disputes it, a director confirms it or reports the result (docs/tournaments.md#result-confirmation).
  const mode = !board.finished && (manager || (seated && !pending)) ? "report" : board.finished && manager ? "correct" : null;
  const scores = new Map(board.scores.map((/** @type {any} */ s) => [s.player.id, s.score]));
  const back = `/tournaments/${id}`;
  replace(main,
    h("h1", {}, `Round ${board.round}, board ${board.number} `, badge(board.finished ? "FINISHED" : pending ? "AWAITING" : "SCHEDULED")),
    h("p", {}, h("a", { href: back }, tournament.name), ` · ${systemName(cat, tournament.scoringSystem)}`,
      board.corrections > 0 ? ` · corrected ${board.corrections}×` : ""),
    h("div", { class: "table-wrap" }, h("table", {},
      h("caption", {}, "Seats"),
      h("thead", {}, h("tr", {}, ...["Power", "Player", "Board score"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, board.seats.map((/** @type {any} */ s) => h("tr", {},
        h("th", { scope: "row" }, s.label),
        h("td", {}, h("a", { href: `/players/${s.player.id}` }, s.player.name)),
        h("td", { class: "num" }, scores.has(s.player.id) ? score(/** @type {number} */ (scores.get(s.player.id))) : "—")))))),
    board.correctionReasons.length > 0
      ? h("section", { "aria-labelledby": "corrections-h" }, h("h2", { id: "corrections-h" }, "Corrections"),
          h("ol", { class: "corrections" }, board.correctionReasons.map((/** @type {string} */ r) => h("li", { class: "reason" }, r))))
      : null,
    pending ? awaiting(id, boardId, board, pending, { seated, manager, me: role?.kind === "player" ? role.id : null }) : null,
    board.replacements.length > 0
      ? h("p", {}, "Replacements: ", board.replacements.map((/** @type {any} */ r) => `${r.replacement.name} finished ${r.seated.name}'s seat`).join("; "), ".")
      : null,
    mode ? resultForm(board, mode, cat.bySystem.get(tournament.scoringSystem) ?? tournament.scoringSystem, async (variables) => {
      if (mode === "report") await gql(Q.REPORT_BOARD_RESULT, { tournamentId: id, boardId, ...variables });
      else await gql(Q.CORRECT_BOARD_RESULT, { tournamentId: id, boardId, ...variables });
      navigate(back);
    }) : null);
}

/**
 * A report awaiting confirmation: what it says and who reported it, with Confirm and Dispute
 * for those who may (another player of the board; a director confirms).
 * @param {string} id @param {string} boardId @param {any} board @param {any} pending
 * @param {{ seated: boolean, manager: boolean, me: string | null }} who
 */
function awaiting(id, boardId, board, pending, { seated, manager, me }) {
  const reporter = pending.reportedBy?.id === me;
  const mayConfirm = manager || (seated && !reporter && !pending.disputedBy);
  const mayDispute = seated && !reporter && !pending.disputedBy;
  const where = h("div", {}, formError());
  const reason = /** @type {HTMLTextAreaElement} */ (h("textarea", { required: true, rows: 2 }));
  const after = async () => void navigate(`/tournaments/${id}/boards/${boardId}`);
  return h("section", { class: "awaiting", "aria-labelledby": "awaiting-h" },
    h("h2", { id: "awaiting-h" }, pending.disputedBy ? "Disputed result" : "Result awaiting confirmation"),
    h("p", {}, `Reported by ${pending.reportedBy?.name ?? "—"}; not in the standings until confirmed.`),
    h("ul", {}, resultWords(board.seats, pending.result).map((line) => h("li", {}, line))),
    pending.disputedBy ? h("p", { class: "reason" }, `Disputed by ${pending.disputedBy.name}: ${pending.disputeReason}`) : null,
    where,
    mayConfirm ? h("button", { type: "button", class: "primary", onclick: () => void command(where,
      () => gql(Q.CONFIRM_BOARD_RESULT, { tournamentId: id, boardId, idempotencyKey: crypto.randomUUID() }), "Result confirmed.", after) }, "Confirm result") : null,
    mayDispute ? h("div", {}, field("Why the result is wrong", reason, { field: "reason" }),
      h("button", { type: "button", onclick: () => void command(where,
        () => gql(Q.DISPUTE_BOARD_RESULT, { tournamentId: id, boardId, reason: reason.value, idempotencyKey: crypto.randomUUID() }), "Result disputed.", after) }, "Dispute result")) : null);
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
      h("a", { href: `/tournaments/${id}`, class: "button" }, "Back to the tournament")),
    h("div", { class: "board-call" }, round.boards.map((/** @type {any} */ b) => h("section", { class: "call-board", "data-board": b.number, "aria-labelledby": `call-board-${b.number}` },
      h("h2", { id: `call-board-${b.number}` }, `Board ${b.number}`),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Power"), h("th", { scope: "col" }, "Player"))),
        h("tbody", {}, b.seats.map((/** @type {any} */ s) => h("tr", {}, h("th", { scope: "row" }, s.label), h("td", {}, s.player.name)))))))),
    h("p", { class: "sitting-out" }, `Sitting out: ${names(round.sittingOut)}.`),
    h("p", { class: "playing-twice" }, `Playing two boards: ${names(round.playingTwice)}.`));
}
