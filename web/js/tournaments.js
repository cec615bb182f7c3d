// @ts-check
/** @file The tournaments list (an organiser sees only those they organise) with the
 * director's create-tournament form, every list in it from the server. */

import { gql, session } from "./api.js";
import { h, replace, badge, announce } from "./dom.js";
import { catalogue, playersPerGame, systemName, usualSystem } from "./catalogue.js";
import * as Q from "./queries.js";
import { field, formError, input, numberOf, onSubmit, competitionFields, selectOf, explainedField } from "./forms.js";
import { wideTable } from "./table.js";
import { navigate } from "./main.js";
import { allPlayers, playerSelect, tournamentCatalogue, words } from "./tournament-common.js";
import { registrationFields } from "./tournament-registration.js";
import { scheduleFields } from "./times.js";

/** @typedef {import("./tournament-common.js").PlayerRef} PlayerRef */

/** One tournament's row; the entrants against the cap, if any. @param {import("./catalogue.js").Catalogue} cat @param {any} t */
function tournamentRow(cat, t) {
  const seeded = t.nextRound === null ? t.roundCount : t.nextRound - 1;
  const active = t.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound === null).length;
  return h("tr", {},
    h("th", { scope: "row" }, h("a", { href: `/tournaments/${t.id}` }, t.name)),
    h("td", {}, badge(t.status)),
    h("td", {}, t.game, t.gameVersion ? ` (${t.gameVersion})` : ""),
    h("td", {}, systemName(cat, t.scoringSystem)),
    h("td", { class: "num" }, t.registration.maxEntrants === null ? active : `${active} of ${t.registration.maxEntrants}`),
    h("td", { class: "num" }, t.playersPerBoard),
    h("td", { class: "num" }, `${seeded}/${t.roundCount}`));
}

/** @type {import("./main.js").View} */
export async function tournamentsView(main) {
  const role = session.role;
  const admin = role?.kind === "admin";
  const [{ tournaments: every }, cat, mine] = await Promise.all([gql(Q.TOURNAMENTS), catalogue(),
    role?.kind === "player" ? gql(Q.ME).then((/** @type {any} */ d) => d.me) : Promise.resolve(null)]);
  // An organiser manages their own tournaments: their page lists only those.
  const organiser = Boolean(mine?.isOrganiser);
  const tournaments = organiser
    ? every.filter((/** @type {any} */ t) => t.organisers.some((/** @type {any} */ o) => o.id === mine.id))
    : every;
  replace(main,
    h("h1", {}, organiser ? "Tournaments you organise" : "Tournaments"),
    tournaments.length === 0 ? h("p", {}, organiser ? "You organise no tournament yet." : "No tournaments yet.")
      : wideTable(["Tournament", "Status", "Game", "Scoring", "Entrants", "Per board", "Rounds seeded"],
          tournaments.map((/** @type {any} */ t) => tournamentRow(cat, t)), { class: "tournaments" }),
    admin || organiser ? createTournamentForm(cat, await tournamentCatalogue(), await allPlayers()) : null);
}

/** The keep-apart pairs: two registered players at a time, listed with a remove button;
 * `pairs` holds them. @param {PlayerRef[]} players */
function keepApartField(players) {
  /** @type {[PlayerRef, PlayerRef][]} */
  const pairs = [];
  const firstOfPair = playerSelect(players, "Choose a player");
  const secondOfPair = playerSelect(players, "Choose a player");
  const pairList = h("ul", { class: "pairs", "aria-live": "polite" });
  const pairError = h("p", { class: "field-error", hidden: true });
  const showPairs = () => replace(pairList, pairs.map(([a, b], i) => h("li", {}, `${a.name} and ${b.name} `,
    h("button", { type: "button", class: "link", "aria-label": `Remove ${a.name} and ${b.name}`, onclick: () => {
      pairs.splice(i, 1);
      showPairs();
    } }, "Remove"))));
  const addPair = () => {
    const a = players.find((p) => p.id === firstOfPair.value);
    const b = players.find((p) => p.id === secondOfPair.value);
    pairError.toggleAttribute("hidden", Boolean(a && b && a !== b));
    if (!a || !b || a === b) {
      pairError.textContent = "Choose two different players.";
      return;
    }
    pairs.push([a, b]);
    firstOfPair.value = secondOfPair.value = "";
    showPairs();
  };
  const element = h("fieldset", { class: "keep-apart", "data-field": "keepApart", tabindex: "-1" },
    h("legend", {}, "Keep apart"),
    h("p", { class: "hint" }, "Pairs never seated together unless impossible (e.g. family members)."),
    field("First player", firstOfPair),
    field("Second player", secondOfPair),
    h("button", { type: "button", onclick: addPair }, "Add pair"),
    pairError,
    pairList);
  return { element, pairs };
}

/** The director's create-tournament form; every list in it comes from the server.
 * @param {import("./catalogue.js").Catalogue} cat @param {import("./tournament-common.js").TournamentCatalogue} tcat @param {PlayerRef[]} players */
function createTournamentForm(cat, tcat, players) {
  const number = (/** @type {Record<string, any>} */ attrs = {}) => input("number", { step: 1, ...attrs });
  const check = () => input("checkbox");
  const competition = competitionFields(cat);
  const { system, systemRule } = competition;
  const perBoard = number({ required: true, min: 2, value: 7 });
  const rounds = number({ required: true, min: 1, value: 3 });
  const roundScoring = selectOf(tcat.roundScorings, (r) => ({ value: r.value, text: r.name, title: r.description }));
  const tournamentScoring = selectOf(tcat.tournamentScorings, (s) => ({ value: s.id, text: s.name, title: s.description }));
  const sitOutPoints = number({ step: "any", min: 0, value: 0 });
  const sitOutOnce = check();
  const topBoard = check();
  const confirmResults = check();
  const replacementScores = selectOf(tcat.replacementScores, (value) => ({ value, text: words(value) }));
  const keepApart = keepApartField(players);
  const registration = registrationFields();
  const schedule = scheduleFields(() => numberOf(rounds) ?? 0);
  rounds.addEventListener("input", schedule.renderStarts);
  // A new tournament starts with its game's usual system (Diplomacy: Squares), from the server.
  const useUsualSystem = () => { system.value = usualSystem(cat, competition.read().game); showSystem(); };
  competition.fields[1].addEventListener("input", useUsualSystem);
  const showSystem = () => {
    const info = cat.bySystem.get(system.value);
    if (info) systemRule.textContent = `${info.rule} ${playersPerGame(info)} players per board.`;
  };
  system.addEventListener("change", showSystem);
  useUsualSystem();

  const form = h("form", { novalidate: true, "aria-labelledby": "create-tournament-h" },
    h("h2", { id: "create-tournament-h" }, "Create a tournament"),
    formError(),
    competition.fields,
    field("Players per board", perBoard, { field: "playersPerBoard" }),
    field("Rounds", rounds, { field: "rounds" }),
    explainedField("Round scoring (two boards)", roundScoring, "roundScoring",
      () => tcat.roundScorings.find((r) => r.value === roundScoring.value)?.description ?? ""),
    explainedField("Tournament scoring", tournamentScoring, "tournamentScoring",
      () => tcat.tournamentScorings.find((s) => s.id === tournamentScoring.value)?.description ?? ""),
    field("Sit-out points", sitOutPoints, { field: "sitOutPoints", hint: "Points for a round sat out." }),
    field("Sit-out points only once", sitOutOnce, { field: "sitOutPointsOnce", hint: "A second round sat out scores nothing." }),
    field("Top board in the last round", topBoard, { field: "topBoardLastRound", hint: "Board 1 of the last round seats the leaders." }),
    keepApart.element,
    field("Replacement scores", replacementScores, { field: "replacementScores", hint: "Who is credited with a seat a replacement player finished." }),
    registration.element,
    schedule.element,
    field("Players' results need confirming", confirmResults, { field: "confirmPlayerResults", hint: "A result a player reports counts once another player of the board or a director confirms it." }),
    h("button", { type: "submit", class: "primary" }, "Create tournament"));
  onSubmit(form, async (idempotencyKey) => {
    const settings = {
      ...competition.read(),
      playersPerBoard: numberOf(perBoard),
      rounds: numberOf(rounds),
      roundScoring: roundScoring.value,
      tournamentScoring: tournamentScoring.value,
      keepApart: keepApart.pairs.map(([a, b]) => [a.id, b.id]),
      sitOutPoints: numberOf(sitOutPoints) ?? 0,
      sitOutPointsOnce: sitOutOnce.checked,
      topBoardLastRound: topBoard.checked,
      replacementScores: replacementScores.value || null,
      registration: registration.read(),
      schedule: schedule.read(),
      confirmPlayerResults: confirmResults.checked,
    };
    const { createTournament } = await gql(Q.CREATE_TOURNAMENT, { input: settings, idempotencyKey });
    for (const { round, startsAt } of schedule.roundStarts()) {
      await gql(Q.SET_ROUND_TIMES, { tournamentId: createTournament.id, round, startsAt });
    }
    announce(`Tournament ${createTournament.name} created.`);
    navigate(`/tournaments/${createTournament.id}`);
  });
  return form;
}
