// @ts-check
/** @file A player's page (leagues and score history, corrections with their reason, ratings
 * per game kind with their history) and a game's page (seats, result, scores, and the form to
 * report or correct its result, built for the league's scoring system). */

import { ApiError, gql, session } from "./api.js";
import { h, replace, score, delta, when, badge, announce } from "./dom.js";
import { catalogue, systemName } from "./catalogue.js";
import { playerRatings } from "./ratings.js";
import * as Q from "./queries.js";
import { formError, resultFields, showError, clearErrors, field, requireFilled } from "./forms.js";
import { navigate } from "./main.js";

/** @type {import("./main.js").View} */
export async function playerView(main, [id]) {
  const [{ player }, cat] = await Promise.all([gql(Q.PLAYER, { id }), catalogue()]);
  if (!player) {
    replace(main, h("h1", {}, "Player not found"));
    return;
  }
  const ratings = playerRatings(cat, id);
  const sections = await Promise.all(player.leagues.map(async (/** @type {any} */ league) => {
    const { scoreHistory } = await gql(Q.SCORE_HISTORY, { leagueId: league.id, playerId: id });
    return h("section", { class: "player-league" },
      h("h3", {}, h("a", { href: `/leagues/${league.id}` }, league.name), " ", badge(league.status)),
      h("p", {}, `${league.game} · ${systemName(cat, league.scoringSystem)}`),
      scoreHistory.length === 0 ? h("p", {}, "No results yet.")
        : h("div", { class: "table-wrap" }, h("table", { class: "history" },
            h("caption", {}, `Score history in ${league.name}`),
            h("thead", {}, h("tr", {}, ...["Game", "Position", "Time", "Change", "Total", "Note"].map((x) => h("th", { scope: "col" }, x)))),
            h("tbody", {}, scoreHistory.map((/** @type {any} */ c) => h("tr", { class: c.reason ? "correction" : null },
              h("th", { scope: "row" }, h("a", { href: `/games/${c.game.id}` }, `Game ${c.game.number}`)),
              h("td", { class: "num" }, c.position),
              h("td", {}, when(c.recordedAt)),
              h("td", { class: "num" }, delta(c.delta)),
              h("td", { class: "num" }, score(c.total)),
              h("td", { class: "reason" }, c.reason ? `Corrected: ${c.reason}` : "Reported")))))));
  }));
  replace(main,
    h("h1", {}, player.name),
    player.registeredAt ? h("p", {}, `Registered ${when(player.registeredAt)}`) : null,
    h("h2", {}, "Leagues"),
    sections.length === 0 ? h("p", {}, "Not in any league yet. ", h("a", { href: "/" }, "Find an open one.")) : sections,
    await ratings);
}

/** @type {import("./main.js").View} */
export async function gameView(main, [id]) {
  const [{ game }, cat] = await Promise.all([gql(Q.GAME, { id }), catalogue()]);
  if (!game) {
    replace(main, h("h1", {}, "Game not found"));
    return;
  }
  const role = session.role;
  const seated = role?.kind === "player" && game.seats.some((/** @type {any} */ s) => s.player.id === role.id);
  const mode = game.status === "SCHEDULED" && (seated || role?.kind === "admin") ? "report"
    : game.status === "FINISHED" && role?.kind === "admin" ? "correct" : null;
  const scores = new Map(game.scores.map((/** @type {any} */ s) => [s.player.id, s.score]));
  replace(main,
    h("h1", {}, `Game ${game.number} `, badge(game.status)),
    h("p", {}, h("a", { href: `/leagues/${game.league.id}` }, game.league.name), ` · ${systemName(cat, game.league.scoringSystem)}`,
      game.finishedAt ? ` · finished ${when(game.finishedAt)}` : ""),
    h("div", { class: "table-wrap" }, h("table", {},
      h("caption", {}, "Seats"),
      h("thead", {}, h("tr", {}, ...["Seat", "Player", "League score"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, game.seats.map((/** @type {any} */ s) => h("tr", {},
        h("th", { scope: "row" }, s.label),
        h("td", {}, h("a", { href: `/players/${s.player.id}` }, s.player.name)),
        h("td", { class: "num" }, scores.has(s.player.id) ? score(/** @type {number} */ (scores.get(s.player.id))) : "—")))))),
    mode ? resultForm(game, mode, cat) : null);
}

/** The report or correction form, with the fields the league's system needs.
 * @param {any} game @param {"report"|"correct"} mode @param {import("./catalogue.js").Catalogue} cat */
function resultForm(game, mode, cat) {
  const info = cat.bySystem.get(game.league.scoringSystem);
  if (!info) return h("p", { role: "alert" }, `This app does not know the scoring system ${game.league.scoringSystem}.`);
  const result = resultFields(game, info);
  const reason = /** @type {HTMLTextAreaElement} */ (h("textarea", { required: true, rows: 2 }));
  const submit = h("button", { type: "submit", class: "primary" }, mode === "report" ? "Report result" : "Correct result");
  // A resubmission after a lost answer reuses the key, so it appends nothing twice; a
  // refused submission appended nothing, so the next one gets a fresh key.
  let idempotencyKey = crypto.randomUUID();
  const form = h("form", { class: "result-form", novalidate: true, "aria-labelledby": "result-form-h" },
    h("h2", { id: "result-form-h" }, mode === "report" ? "Report the result" : "Correct the result"),
    formError(),
    result.element,
    mode === "correct" ? field("Reason for the correction", reason, { field: "reason", hint: "Kept in the log and shown in score histories." }) : null,
    submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!requireFilled(form)) return;
    submit.setAttribute("disabled", "");
    try {
      const variables = { gameId: game.id, result: result.read(), idempotencyKey };
      if (mode === "report") await gql(Q.REPORT_RESULT, variables);
      else await gql(Q.CORRECT_RESULT, { ...variables, reason: reason.value });
      announce(mode === "report" ? "Result reported." : "Result corrected.");
      navigate(`/leagues/${game.league.id}`);
    } catch (error) {
      showError(form, error);
      if (!(error instanceof ApiError) || error.code !== "NETWORK") idempotencyKey = crypto.randomUUID();
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return form;
}
