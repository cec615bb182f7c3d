// @ts-check
/** @file The projector page of a tournament (docs/tournaments.md#projector-page): no sign-in,
 * no navigation, large type. It cycles, a view every 15 seconds, through the official
 * standings, the provisional standings, the current round's board call and each of its
 * boards' centre charts; Pause (or the space bar) stops the cycle. Progress records update it
 * from the subscription's payload; a result applies the pushed standings and reads only the
 * provisional standings and which boards are finished; a seeding, or a missed push, reloads
 * it (docs/api.md#live-updates). */

import { gql } from "./api.js";
import { h, replace, score, badge } from "./dom.js";
import * as Q from "./queries.js";
import { centreChart } from "./centre-chart.js";
import { table } from "./table.js";
import { follow, liveBadge, serial, versioned, withChangedRows } from "./live.js";
import { bestCountriesSlide } from "./awards.js";

/** Seconds each view stays on the screen. */
const VIEW_SECONDS = 15;
/** Standings lines a view shows (the top of the table, readable across a room). */
const STANDINGS_LINES = 12;

/** @typedef {{ title: string, render: () => HTMLElement }} KioskView */

/** A standings view. @param {string} title @param {any[]} standings @param {boolean} provisional */
function standingsView(title, standings, provisional) {
  return {
    title,
    render: () => h("section", { class: "kiosk-view", "aria-labelledby": "kiosk-view-h" },
      h("h2", { id: "kiosk-view-h" }, title, provisional ? " " : null, provisional ? badge("PROVISIONAL") : null),
      standings.length === 0 ? h("p", {}, "No standings yet.") : table(["Rank", "Player", "Total"], standings.slice(0, STANDINGS_LINES).map((s) => h("tr", {},
        h("td", { class: "num" }, s.rank),
        h("th", { scope: "row" }, s.player.name),
        h("td", { class: "num" }, score(s.total)))), { class: "standings", caption: provisional ? "If every board ended now" : "Official standings" })),
  };
}

/** The board call of a round. @param {any} round */
function boardCallView(round) {
  return {
    title: `Round ${round.number} board call`,
    render: () => h("section", { class: "kiosk-view", "aria-labelledby": "kiosk-view-h" },
      h("h2", { id: "kiosk-view-h" }, `Round ${round.number} board call`),
      h("div", { class: "kiosk-boards" }, round.boards.map((/** @type {any} */ b) => h("div", { class: "kiosk-board" },
        h("h3", {}, `Board ${b.number}`),
        h("ul", {}, b.seats.map((/** @type {any} */ s) => h("li", {}, h("span", { class: "seat-label" }, `${s.label} `), s.player.name))))))),
  };
}

/** A board's centre chart. @param {any} board */
function chartView(board) {
  const title = `Board ${board.number} centres`;
  return {
    title,
    render: () => h("section", { class: "kiosk-view", "aria-labelledby": "kiosk-view-h" },
      h("h2", { id: "kiosk-view-h" }, title, board.finished ? " (finished)" : ""),
      centreChart(board.progress.powers, `kiosk-chart-${board.number}`, title)),
  };
}

/** Best countries (each power's best result across the boards), once any power has one.
 * @param {any} tournament @returns {KioskView | null} */
function bestCountriesView(tournament) {
  return bestCountriesSlide(tournament);
}

/** Every view of the cycle, in order. @param {any} t @returns {KioskView[]} */
function views(t) {
  const round = t.rounds.at(-1);
  const charted = round ? round.boards.filter((/** @type {any} */ b) => b.progress.powers.some((/** @type {any} */ p) => p.counts.length > 0)) : [];
  return [
    standingsView("Standings", t.standings, false),
    standingsView("Provisional standings", t.provisionalStandings, true),
    round ? boardCallView(round) : null,
    ...charted.map(chartView),
    bestCountriesView(t),
  ].filter((v) => v !== null);
}

/** @type {import("./main.js").View} */
export async function kioskView(main, [id]) {
  /** @type {any} */
  let tournament = (await gql(Q.KIOSK, { id })).tournament;
  if (!tournament) {
    replace(main, h("h1", {}, "Tournament not found"));
    return;
  }
  document.body.classList.add("kiosk");
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const stage = h("div", { class: `kiosk-stage${reduceMotion ? "" : " animated"}` });
  const where = h("p", { class: "kiosk-where" });
  const pause = h("button", { type: "button", "aria-pressed": "false", onclick: () => setPaused(!paused) }, "Pause");
  const live = liveBadge();
  let index = 0;
  let paused = false;
  const show = (/** @type {number} */ n) => {
    const all = views(tournament);
    index = ((n % all.length) + all.length) % all.length;
    replace(stage, all[index].render());
    where.textContent = `${index + 1} of ${all.length}: ${all[index].title}${paused ? " (paused)" : ""}`;
  };
  const setPaused = (/** @type {boolean} */ value) => {
    paused = value;
    pause.textContent = paused ? "Resume" : "Pause";
    pause.setAttribute("aria-pressed", String(paused));
    show(index);
  };
  replace(main,
    h("h1", { class: "kiosk-title" }, tournament.name, " ", live.element),
    h("div", { class: "kiosk-controls" },
      h("button", { type: "button", onclick: () => show(index - 1) }, "Previous view"),
      pause,
      h("button", { type: "button", onclick: () => show(index + 1) }, "Next view"),
      where),
    stage);
  show(0);
  const timer = setInterval(() => { if (!paused) show(index + 1); }, VIEW_SECONDS * 1000);
  const onKey = (/** @type {KeyboardEvent} */ event) => {
    if (event.key !== " " || (event.target instanceof HTMLElement && event.target.closest("button, input, a"))) return;
    event.preventDefault();
    setPaused(!paused);
  };
  document.addEventListener("keydown", onKey);
  const stop = followKiosk(id, { get: () => tournament, set: (/** @type {any} */ t) => { tournament = t; } }, live, () => show(index));
  return () => {
    stop();
    clearInterval(timer);
    document.removeEventListener("keydown", onKey);
    document.body.classList.remove("kiosk");
  };
}

/**
 * Keeps the projector page live: progress records from their payload, a pushed result in
 * place (then `KIOSK_RESULT`), anything else, a missed push or a reconnection by reading the
 * page again. Returns the clean-up that ends the subscriptions.
 * @param {string} id @param {{ get: () => any, set: (tournament: any) => void }} current the
 * tournament as the page holds it @param {ReturnType<typeof liveBadge>} live @param {() => void} show
 */
function followKiosk(id, current, live, show) {
  const reload = serial(async () => {
    current.set((await gql(Q.KIOSK, { id })).tournament ?? current.get());
    table.holds(current.get().version);
    show();
  });
  const table = versioned(current.get().version, () => void reload());
  // After a pushed result: the provisional standings, the best countries and the boards'
  // finished marks.
  const afterResult = serial(async () => {
    const fresh = (await gql(Q.KIOSK_RESULT, { id })).tournament;
    const finished = new Map(fresh?.rounds.flatMap((/** @type {any} */ r) => r.boards.map((/** @type {any} */ b) => [b.id, b.finished])) ?? []);
    const tournament = current.get();
    const boards = tournament.rounds.flatMap((/** @type {any} */ r) => r.boards);
    if (!fresh || finished.size !== boards.length || boards.some((/** @type {any} */ b) => !finished.has(b.id))) return reload();
    tournament.provisionalStandings = fresh.provisionalStandings;
    tournament.bestCountries = fresh.bestCountries;
    for (const board of boards) board.finished = finished.get(board.id);
    show();
  });
  return follow(live, [
    {
      query: Q.BOARD_PROGRESS_RECORDED,
      variables: { tournamentId: id },
      onData: (/** @type {any} */ data) => {
        const update = data.boardProgressRecorded;
        const tournament = current.get();
        tournament.provisionalStandings = update.tournament.provisionalStandings;
        for (const round of tournament.rounds) {
          for (const board of round.boards) if (board.id === update.board.id) board.progress = { powers: update.board.progress.powers };
        }
        show();
      },
    },
    {
      query: Q.TOURNAMENT_STANDINGS_PUSHED,
      variables: { tournamentId: id },
      onData: ({ tournamentStandingsChanged: update }) => table.apply(update.previousVersion, update.version, () => {
        const tournament = current.get();
        const rows = withChangedRows(tournament.standings, update);
        if (!rows) return void reload();
        tournament.standings = rows;
        void afterResult();
      }),
    },
  ], () => void reload());
}
