// @ts-check
/** @file A tournament board's page (seats with powers, a director's form setting them before
 * the result, board scores, correction reasons,
 * replacements, a report awaiting confirmation, and the result form of the tournament's
 * scoring system: report, or the director's correction; during play the live progress: the
 * centre chart, provisional scores and standings, and the form for a game year's centre
 * counts), and a round's printable board call (every board with its powers and players, who
 * sits out and who plays two boards). */

import { gql, session } from "./api.js";
import { h, replace, score, badge, announce } from "./dom.js";
import { catalogue, systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { resultForm, fillFromCounts, resultWords } from "./result-form.js";
import { navigate } from "./main.js";
import { names } from "./tournament-common.js";
import { centreChart } from "./centre-chart.js";
import { command, field, formError, input, onSubmit, cellControl } from "./forms.js";
import { table, wideTable } from "./table.js";
import { follow, liveBadge } from "./live.js";
import { boardPowersForm } from "./powers.js";

/** @type {import("./main.js").View} */
export async function boardView(main, [id, boardId]) {
  const [{ tournament }, cat, live] = await Promise.all([gql(Q.TOURNAMENT_BOARD, { id, boardId }), catalogue(), gql(Q.BOARD_PROGRESS, { id, boardId })]);
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
  // Progress is counted in supply centres: Diplomacy boards only (docs/tournaments.md#live-progress).
  const diplomacy = cat.bySystem.get(tournament.scoringSystem)?.resultShape === "DIPLOMACY";
  const progress = diplomacy ? live.tournament?.board?.progress : null;
  const counted = progress && progress.powers.some((/** @type {any} */ p) => p.counts.length > 0);
  const progressArea = h("div", { class: "progress-area" });
  const badgeLive = liveBadge();
  let latest = progress;
  const showProgress = (/** @type {any} */ data) => {
    latest = data.board.progress;
    replace(progressArea, ...progressParts(board, data.board, data.tournament.provisionalStandings));
  };
  /** The progress query's answer as an update. @param {any} t */
  const asUpdate = (t) => ({ board: t.board, tournament: t });
  if (progress) showProgress(asUpdate(live.tournament));
  // The recorder sees their counts at once, whatever the subscription's delay.
  const reload = async () => showProgress(asUpdate((await gql(Q.BOARD_PROGRESS, { id, boardId })).tournament));
  const form = mode ? resultForm(board, mode, cat.bySystem.get(tournament.scoringSystem) ?? tournament.scoringSystem, async (variables) => {
    if (mode === "report") await gql(Q.REPORT_BOARD_RESULT, { tournamentId: id, boardId, ...variables });
    else await gql(Q.CORRECT_BOARD_RESULT, { tournamentId: id, boardId, ...variables });
    navigate(back);
  }) : null;
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
    manager && !board.finished && !pending ? boardPowersForm(id, board, async () => void navigate(`/tournaments/${id}/boards/${boardId}`)) : null,
    board.correctionReasons.length > 0
      ? h("section", { "aria-labelledby": "corrections-h" }, h("h2", { id: "corrections-h" }, "Corrections"),
          h("ol", { class: "corrections" }, board.correctionReasons.map((/** @type {string} */ r) => h("li", { class: "reason" }, r))))
      : null,
    pending ? awaiting(id, boardId, board, pending, { seated, manager, me: role?.kind === "player" ? role.id : null }) : null,
    board.replacements.length > 0
      ? h("p", {}, "Replacements: ", board.replacements.map((/** @type {any} */ r) => `${r.replacement.name} finished ${r.seated.name}'s seat`).join("; "), ".")
      : null,
    progress && (!board.finished || counted)
      ? h("section", { class: "live-progress", "aria-labelledby": "progress-h" },
          h("h2", { id: "progress-h" }, "Live progress ", badgeLive.element),
          progressArea,
          !board.finished && (seated || manager) ? progressForm(id, board, progress, reload) : null)
      : null,
    form && mode === "report" && counted && form instanceof HTMLFormElement ? fillButton(form, () => latest) : null,
    form);
  if (!progress) return;
  return follow(badgeLive, [{
    query: Q.BOARD_PROGRESS_RECORDED,
    variables: { tournamentId: id, boardId },
    onData: (/** @type {any} */ data) => showProgress(data.boardProgressRecorded),
  }]);
}

/**
 * The live progress of a board: its centre chart, each seat's latest centres and provisional
 * score, and the provisional standings (docs/tournaments.md#live-progress).
 * @param {any} board the board with its seats @param {any} live its progress and provisional scores
 * @param {any[]} standings the provisional standings
 */
function progressParts(board, live, standings) {
  const powers = live.progress.powers;
  const provisional = new Map(live.provisionalScores.map((/** @type {any} */ s) => [s.player.id, s.score]));
  const last = live.progress.years.at(-1);
  const latest = (/** @type {any} */ p) => p.counts.at(-1)?.centres;
  return [
    centreChart(powers, `centre-chart-${board.id}`, `Board ${board.number} centres per year`),
    last
      ? h("p", { class: "progress-last" }, `Last counted: ${last.year}, ${last.total} of ${live.progress.supplyCentres} centres`,
          last.corrections > 0 ? ` (corrected${last.reason ? `: ${last.reason}` : ""})` : "", ".")
      : null,
    last
      ? wideTable(["Power", "Player", "Centres", "Provisional score"], board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => h("tr", {},
          h("th", { scope: "row" }, s.label),
          h("td", {}, s.player.name),
          h("td", { class: "num" }, latest(powers[i]) ?? "—", powers[i]?.eliminatedYear ? ` (out ${powers[i].eliminatedYear})` : ""),
          h("td", { class: "num provisional-score" }, provisional.has(s.player.id) ? score(/** @type {number} */ (provisional.get(s.player.id))) : "—"))),
        { class: "provisional-scores", caption: "Provisional scores if the board ended now" })
      : null,
    standings.length > 0 && last
      ? h("section", { class: "provisional-standings", "aria-labelledby": "provisional-h" },
          h("h3", { id: "provisional-h" }, "Provisional standings ", badge("PROVISIONAL")),
          wideTable(["Rank", "Player", "Total"], standings.map((/** @type {any} */ s) => h("tr", {},
            h("td", { class: "num" }, s.rank),
            h("th", { scope: "row" }, s.player.name),
            h("td", { class: "num total" }, score(s.total)))),
          { class: "standings", caption: "If every board ended now (provisional; the official standings are on the tournament page)" }))
      : null,
  ];
}

/**
 * The form for a game year's centre counts, one per power, with the total against the
 * board's supply centres; recording a year again corrects it (docs/tournaments.md#live-progress).
 * @param {string} id the tournament @param {any} board @param {any} progress
 * @param {() => Promise<void>} recorded shows the board's progress after a record
 */
function progressForm(id, board, progress, recorded) {
  const years = progress.years.map((/** @type {any} */ y) => y.year);
  const next = years.length > 0 ? Math.max(...years) + 1 : 1901;
  const year = input("number", { min: 1901, step: 1, required: true, value: next });
  const counts = board.seats.map((/** @type {any} */ s, /** @type {number} */ i) =>
    input("number", { min: 0, max: progress.supplyCentres, step: 1, required: true, inputmode: "numeric", value: progress.powers[i]?.counts.at(-1)?.centres ?? "" }));
  const total = h("p", { class: "progress-total", "aria-live": "polite" });
  const showTotal = () => {
    const sum = counts.reduce((/** @type {number} */ a, /** @type {HTMLInputElement} */ c) => a + (Number(c.value) || 0), 0);
    total.textContent = `Total: ${sum} of ${progress.supplyCentres}${sum > progress.supplyCentres ? " — too many" : ""}`;
    total.classList.toggle("over", sum > progress.supplyCentres);
  };
  for (const c of counts) c.addEventListener("input", showTotal);
  showTotal();
  const reason = input("text", { maxlength: 500 });
  const submit = h("button", { type: "submit", class: "primary" }, "Record centres");
  const rows = board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => h("tr", {},
    h("th", { scope: "row" }, s.label, h("span", { class: "seat-player" }, ` ${s.player.name}`)),
    h("td", {}, cellControl(counts[i], `centres[${i}]`, `Centres of ${s.label}`))));
  const form = h("form", { class: "progress-form", novalidate: true, "aria-labelledby": "progress-form-h" },
    h("h3", { id: "progress-form-h" }, "Centres after a game year"),
    formError(),
    field("Game year", year, { field: "year", hint: "Recording a year again corrects it." }),
    h("span", { "data-field": "centres", id: "centres", hidden: true }),
    h("div", { class: "table-wrap" }, table(["Power", "Centres"], rows)),
    total,
    h("p", { class: "field-error", id: "centres-error", hidden: true }),
    field("Reason (only for a correction)", reason, { field: "reason" }),
    submit);
  onSubmit(form, async () => {
    submit.setAttribute("disabled", "");
    try {
      const counted = Number(year.value);
      await gql(Q.RECORD_BOARD_PROGRESS, {
        tournamentId: id, boardId: board.id, year: counted,
        centres: counts.map((/** @type {HTMLInputElement} */ c) => Number(c.value)),
        reason: reason.value.trim() === "" ? null : reason.value,
      });
      year.value = String(counted + 1);
      reason.value = "";
      await recorded();
      announce(`Centres recorded for ${counted}.`);
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return form;
}

/** The button that starts the result form from the last counts.
 * @param {HTMLFormElement} form @param {() => any} current the board's progress as it now stands */
function fillButton(form, current) {
  return h("p", {}, h("button", { type: "button", onclick: () => {
    const progress = current();
    fillFromCounts(form, progress.powers.map((/** @type {any} */ p) => p.counts.at(-1)?.centres ?? 0),
      progress.powers.map((/** @type {any} */ p) => p.eliminatedYear ?? null));
    announce("The result form holds the last counts.");
  } }, "Fill from the last counts"));
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
