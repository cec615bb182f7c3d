// @ts-check
/** @file Tournament pages: the list with the director's create form, and a tournament's page
 * (settings, entrants, the open round's roll call with its live proposal, every seeded round
 * with its boards, seeding record and swap form, standings per round updated live, and the
 * seeding checks; a player checks in there and sees their boards and powers). */

import { ApiError, gql, session, subscribe } from "./api.js";
import { h, replace, score, when, badge, announce } from "./dom.js";
import { catalogue, playersPerGame, systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { field, formError, showError, clearErrors, input, numberOf, onSubmit, competitionFields } from "./forms.js";
import { navigate } from "./main.js";
import { downloads } from "./league.js";

/**
 * @typedef {{ value: string, name: string, description: string }} RoundScoringInfo
 * @typedef {{ id: string, name: string, description: string, usesRoundScores: boolean }} TournamentScoringInfo
 * @typedef {{ tournamentScorings: TournamentScoringInfo[], roundScorings: RoundScoringInfo[], replacementScores: string[] }} TournamentCatalogue
 * @typedef {{ id: string, name: string }} PlayerRef
 */

/** @type {Promise<TournamentCatalogue> | null} */
let loadingCatalogue = null;

/** The tournament and round scorings the server offers, asked once per page load (a failed
 * request is forgotten). @returns {Promise<TournamentCatalogue>} */
function tournamentCatalogue() {
  loadingCatalogue ??= gql(Q.TOURNAMENT_CATALOGUE).then(
    (data) => ({
      tournamentScorings: data.tournamentScorings,
      roundScorings: data.roundScorings,
      replacementScores: (data.replacementScores?.enumValues ?? []).map((/** @type {{ name: string }} */ v) => v.name),
    }),
    (error) => {
      loadingCatalogue = null;
      throw error;
    },
  );
  return loadingCatalogue;
}

/** An enum value in words: `SEATED_PLAYER` → `Seated player`. @param {string} value */
function words(value) {
  const text = value.toLowerCase().replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every registered player, in registration order (paged through `players`). @returns {Promise<PlayerRef[]>} */
async function allPlayers() {
  /** @type {PlayerRef[]} */
  const all = [];
  let after = null;
  for (;;) {
    const { players } = await gql(Q.PLAYERS, { first: 100, after });
    all.push(...players.nodes);
    if (!players.pageInfo.hasNextPage) return all;
    after = players.pageInfo.endCursor;
  }
}

/** A `<select>` of players, with an empty first choice. @param {PlayerRef[]} players @param {string} empty */
function playerSelect(players, empty) {
  return /** @type {HTMLSelectElement} */ (h("select", {},
    h("option", { value: "" }, empty),
    players.map((p) => h("option", { value: p.id }, p.name))));
}

/** Names joined for a sentence, or "nobody". @param {PlayerRef[]} players */
export function names(players) {
  return players.length === 0 ? "nobody" : players.map((p) => p.name).join(", ");
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
  const rows = tournaments.map((/** @type {any} */ t) => {
    const seeded = t.nextRound === null ? t.roundCount : t.nextRound - 1;
    const active = t.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound === null).length;
    return h("tr", {},
      h("th", { scope: "row" }, h("a", { href: `/tournaments/${t.id}` }, t.name)),
      h("td", {}, badge(t.status)),
      h("td", {}, t.game, t.gameVersion ? ` (${t.gameVersion})` : ""),
      h("td", {}, systemName(cat, t.scoringSystem)),
      h("td", { class: "num" }, active),
      h("td", { class: "num" }, t.playersPerBoard),
      h("td", { class: "num" }, `${seeded}/${t.roundCount}`));
  });
  replace(main,
    h("h1", {}, organiser ? "Tournaments you organise" : "Tournaments"),
    tournaments.length === 0 ? h("p", {}, organiser ? "You organise no tournament yet." : "No tournaments yet.")
      : h("div", { class: "table-wrap" }, h("table", { class: "tournaments" },
          h("thead", {}, h("tr", {}, ...["Tournament", "Status", "Game", "Scoring", "Entrants", "Per board", "Rounds seeded"].map((x) => h("th", { scope: "col" }, x)))),
          h("tbody", {}, rows))),
    admin || organiser ? createTournamentForm(cat, await tournamentCatalogue(), await allPlayers()) : null);
}

/** The director's create-tournament form; every list in it comes from the server.
 * @param {import("./catalogue.js").Catalogue} cat @param {TournamentCatalogue} tcat @param {PlayerRef[]} players */
function createTournamentForm(cat, tcat, players) {
  const number = (/** @type {Record<string, any>} */ attrs = {}) => input("number", { step: 1, ...attrs });
  const check = () => input("checkbox");
  const competition = competitionFields(cat);
  const { system, systemRule } = competition;
  const perBoard = number({ required: true, min: 2, value: 7 });
  const rounds = number({ required: true, min: 1, value: 3 });
  const roundScoring = /** @type {HTMLSelectElement} */ (h("select", {},
    tcat.roundScorings.map((r) => h("option", { value: r.value, title: r.description }, r.name))));
  const tournamentScoring = /** @type {HTMLSelectElement} */ (h("select", {},
    tcat.tournamentScorings.map((s) => h("option", { value: s.id, title: s.description }, s.name))));
  const sitOutPoints = number({ step: "any", min: 0, value: 0 });
  const sitOutOnce = check();
  const topBoard = check();
  const replacementScores = /** @type {HTMLSelectElement} */ (h("select", {},
    tcat.replacementScores.map((value) => h("option", { value }, words(value)))));

  // Keep-apart pairs: two registered players at a time, listed with a remove button.
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
  const keepApart = h("fieldset", { class: "keep-apart", "data-field": "keepApart", tabindex: "-1" },
    h("legend", {}, "Keep apart"),
    h("p", { class: "hint" }, "Pairs never seated together unless impossible (e.g. family members)."),
    field("First player", firstOfPair),
    field("Second player", secondOfPair),
    h("button", { type: "button", onclick: addPair }, "Add pair"),
    pairError,
    pairList);

  const showSystem = () => {
    const info = cat.bySystem.get(system.value);
    if (info) systemRule.textContent = `${info.rule} ${playersPerGame(info)} players per board.`;
  };
  const scoringField = field("Tournament scoring", tournamentScoring, { field: "tournamentScoring", hint: " " });
  const scoringRule = /** @type {HTMLElement} */ (scoringField.querySelector(".hint"));
  const showScoring = () => {
    scoringRule.textContent = tcat.tournamentScorings.find((s) => s.id === tournamentScoring.value)?.description ?? "";
  };
  const roundField = field("Round scoring (two boards)", roundScoring, { field: "roundScoring", hint: " " });
  const roundRule = /** @type {HTMLElement} */ (roundField.querySelector(".hint"));
  const showRound = () => {
    roundRule.textContent = tcat.roundScorings.find((r) => r.value === roundScoring.value)?.description ?? "";
  };
  system.addEventListener("change", showSystem);
  tournamentScoring.addEventListener("change", showScoring);
  roundScoring.addEventListener("change", showRound);
  showSystem();
  showScoring();
  showRound();

  const form = h("form", { novalidate: true, "aria-labelledby": "create-tournament-h" },
    h("h2", { id: "create-tournament-h" }, "Create a tournament"),
    formError(),
    competition.fields,
    field("Players per board", perBoard, { field: "playersPerBoard" }),
    field("Rounds", rounds, { field: "rounds" }),
    roundField,
    scoringField,
    field("Sit-out points", sitOutPoints, { field: "sitOutPoints", hint: "Points for a round sat out." }),
    field("Sit-out points only once", sitOutOnce, { field: "sitOutPointsOnce", hint: "A second round sat out scores nothing." }),
    field("Top board in the last round", topBoard, { field: "topBoardLastRound", hint: "Board 1 of the last round seats the leaders." }),
    keepApart,
    field("Replacement scores", replacementScores, { field: "replacementScores", hint: "Who is credited with a seat a replacement player finished." }),
    h("button", { type: "submit", class: "primary" }, "Create tournament"));
  onSubmit(form, async (idempotencyKey) => {
    const settings = {
      ...competition.read(),
      playersPerBoard: numberOf(perBoard),
      rounds: numberOf(rounds),
      roundScoring: roundScoring.value,
      tournamentScoring: tournamentScoring.value,
      keepApart: pairs.map(([a, b]) => [a.id, b.id]),
      sitOutPoints: numberOf(sitOutPoints) ?? 0,
      sitOutPointsOnce: sitOutOnce.checked,
      topBoardLastRound: topBoard.checked,
      replacementScores: replacementScores.value || null,
    };
    const { createTournament } = await gql(Q.CREATE_TOURNAMENT, { input: settings, idempotencyKey });
    announce(`Tournament ${createTournament.name} created.`);
    navigate(`/tournaments/${createTournament.id}`);
  });
  return form;
}

/** Events after which the page says the standings changed. */
const STANDINGS_EVENTS = new Set(["TournamentPlayerEntered", "RoundSeeded", "RoundPlayersSwapped", "BoardFinished", "BoardResultCorrected"]);

/** @type {import("./main.js").View} */
export async function tournamentView(main, [id]) {
  const [{ tournament: first }, cat, tcat] = await Promise.all([gql(Q.TOURNAMENT, { id }), catalogue(), tournamentCatalogue()]);
  if (!first) {
    replace(main, h("h1", {}, "Tournament not found"), h("p", {}, h("a", { href: "/tournaments" }, "See every tournament.")));
    return;
  }
  const role = session.role;
  const me = role?.kind === "player" ? role.id : null;
  // The director: the site admin or one of the tournament's organisers.
  const director = role?.kind === "admin" || first.organisers.some((/** @type {any} */ o) => o.id === me);
  /** @type {any} */
  let t = first;
  /** @type {PlayerRef[]} registered players, for the director's "enter player" */
  let registered = director ? await allPlayers() : [];
  /** @type {number | null} the round the standings are shown after (null: every round so far) */
  let afterRound = null;
  /** @type {any[]} */
  let standings = [];
  /** @type {any[]} */
  let myBoards = [];

  const title = h("h1", {});
  const actions = h("div", { class: "actions" });
  const settings = h("section", { "aria-labelledby": "settings-h" });
  const entrants = h("section", { "aria-labelledby": "entrants-h" });
  const rollCall = h("section", { "aria-labelledby": "roll-call-h", id: "roll-call" });
  const mine = h("section", { "aria-labelledby": "my-boards-h", id: "my-boards" });
  const rounds = h("section", { "aria-labelledby": "rounds-h", id: "rounds" });
  const live = h("span", { class: "live", "data-state": "connecting" }, "connecting…");
  const standingsBody = h("div", { id: "standings", "aria-live": "polite" });
  const roundSelect = /** @type {HTMLSelectElement} */ (h("select", { id: "standings-after" }));
  const checks = h("section", { "aria-labelledby": "checks-h", id: "seeding-checks" });
  replace(main, title, actions, downloads("tournaments", id), settings, entrants, rollCall, mine, rounds,
    h("section", { "aria-labelledby": "standings-h" },
      h("h2", { id: "standings-h" }, "Standings ", live),
      h("div", { class: "field" }, h("label", { for: "standings-after" }, "Standings after"), roundSelect),
      standingsBody),
    checks);

  // Forms the director or a player may be filling in survive a refresh of the page's data:
  // each is kept while what it was built from stays the same.
  /** @type {Map<string, { signature: string, element: HTMLElement }>} */
  const kept = new Map();
  /** @param {string} key @param {unknown} basis @param {() => HTMLElement} build */
  const keep = (key, basis, build) => {
    const signature = JSON.stringify(basis);
    const found = kept.get(key);
    if (found && found.signature === signature) return found.element;
    const element = build();
    kept.set(key, { signature, element });
    return element;
  };

  /** Runs a mutation from a button and refreshes; a refusal is shown in `where` (and changed nothing).
   * @param {HTMLElement} where @param {string} doc @param {Record<string, unknown>} variables @param {string} done */
  const act = async (where, doc, variables, done) => {
    clearErrors(where);
    try {
      await gql(doc, { tournamentId: id, ...variables });
    } catch (error) {
      showError(where, error);
      return;
    }
    announce(done);
    await reload();
  };

  const entrantName = (/** @type {string} */ playerId) =>
    t.entrants.find((/** @type {any} */ e) => e.player.id === playerId)?.player.name ?? playerId;

  const renderHead = () => {
    replace(title, t.name, " ", badge(t.status));
    const scoring = t.tournamentScoring;
    const roundScoring = tcat.roundScorings.find((r) => r.value === t.roundScoring);
    const seeded = t.rounds.length;
    replace(settings, h("h2", { id: "settings-h" }, "Settings"), h("dl", { class: "settings" },
      ...[["Game", t.game + (t.gameVersion ? ` (${t.gameVersion})` : "")],
        ["Scoring system", systemName(cat, t.scoringSystem)],
        ["Players per board", t.playersPerBoard],
        ["Rounds (seeded/planned)", `${seeded}/${t.roundCount}`],
        ["Round scoring (two boards)", roundScoring ? roundScoring.name : t.roundScoring],
        ["Tournament scoring", `${scoring.name}: ${scoring.description}`],
        ["Sit-out points", `${score(t.sitOutPoints)}${t.sitOutPointsOnce ? " (once)" : ""}`],
        ["Top board in the last round", t.topBoardLastRound ? "yes" : "no"],
        ["Keep apart", t.keepApart.length === 0 ? "nobody" : t.keepApart.map((/** @type {PlayerRef[]} */ pair) => names(pair)).join("; ")],
        ["Replacement scores", words(t.replacementScores)],
        ["Seats", t.seatLabels.join(", ")],
        ["Created", t.createdAt ? when(t.createdAt) : "—"]].flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])));
    const error = formError();
    const entry = me ? t.entrants.find((/** @type {any} */ e) => e.player.id === me) : null;
    replace(actions, error,
      me && !entry && t.nextRound !== null
        ? h("button", { type: "button", class: "primary", onclick: () => act(actions, Q.ENTER_TOURNAMENT, {}, "You entered the tournament.") }, "Enter tournament")
        : null,
      me && entry && entry.withdrawnAfterRound === null
        ? h("button", { type: "button", onclick: () => act(actions, Q.WITHDRAW_FROM_TOURNAMENT, {}, "You withdrew from the tournament.") }, "Withdraw from tournament")
        : null);
  };

  const renderEntrants = () => {
    const active = t.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound === null);
    const error = formError();
    const list = h("div", { class: "table-wrap" }, h("table", { class: "entrants" },
      h("thead", {}, h("tr", {}, ...["Player", "From round", "Status", ""].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, t.entrants.map((/** @type {any} */ e) => h("tr", { "data-player": e.player.name },
        h("th", { scope: "row" }, h("a", { href: `/players/${e.player.id}` }, e.player.name)),
        h("td", { class: "num" }, e.enteredAfterRound + 1),
        h("td", {}, e.withdrawnAfterRound === null ? "in" : `withdrew after round ${e.withdrawnAfterRound}`),
        h("td", {}, director && e.withdrawnAfterRound === null
          ? h("button", { type: "button", "aria-label": `Withdraw ${e.player.name}`, onclick: () =>
              act(entrants, Q.WITHDRAW_FROM_TOURNAMENT, { playerId: e.player.id }, `${e.player.name} withdrew.`) }, "Withdraw")
          : null))))));
    const entered = new Set(t.entrants.map((/** @type {any} */ e) => e.player.id));
    const candidates = registered.filter((p) => !entered.has(p.id));
    const enterForm = director && t.nextRound !== null
      ? keep("enter", candidates.map((p) => p.id), () => {
          const choice = playerSelect(candidates, "Choose a registered player");
          choice.required = true;
          const form = h("form", { novalidate: true, "aria-labelledby": "enter-h", class: "inline" },
            h("h3", { id: "enter-h" }, "Enter a player"),
            formError(),
            field("Player", choice, { field: "playerId", hint: t.rounds.length > 0 ? `A late entry plays from round ${t.nextRound}.` : undefined }),
            h("button", { type: "submit", class: "primary" }, "Enter player"));
          onSubmit(form, async (idempotencyKey) => {
            if (!choice.value) throw new ApiError([{ message: "Choose a player.", extensions: { field: "playerId" } }]);
            await gql(Q.ENTER_TOURNAMENT, { tournamentId: id, playerId: choice.value, idempotencyKey });
            announce("Player entered.");
            registered = await allPlayers();
            await reload();
          });
          return form;
        })
      : null;
    replace(entrants, h("h2", { id: "entrants-h" }, `Entrants (${active.length} in, ${t.entrants.length - active.length} withdrawn)`),
      error, t.entrants.length === 0 ? h("p", {}, "Nobody has entered yet.") : list, enterForm);
  };

  const renderRollCall = () => {
    if (t.nextRound === null) {
      replace(rollCall);
      return;
    }
    const round = t.nextRound;
    const proposal = t.proposal;
    const error = formError();
    const seats = proposal ? proposal.present - proposal.sittingOut.length + proposal.playingTwice.length : 0;
    const proposalText = !proposal ? null
      : proposal.problem ? h("p", { class: "proposal problem", role: "status" }, proposal.problem)
      : h("div", { class: "proposal", role: "status" },
          h("p", {}, `${proposal.present} present: ${seats / t.playersPerBoard} boards of ${t.playersPerBoard}.`),
          h("p", { class: "proposal-sitting-out" }, `Sitting out: ${names(proposal.sittingOut)}.`),
          h("p", { class: "proposal-playing-twice" }, `Playing two boards: ${names(proposal.playingTwice)}.`));
    /** @param {any} entry @param {{ present?: boolean, standby?: boolean, twoBoards?: boolean }} change */
    const answer = (entry, change) => {
      const next = { present: entry.present, standby: entry.standby, twoBoards: entry.twoBoards, ...change };
      // A standby or a second board only means something for a player who is there.
      if (change.standby || change.twoBoards) next.present = true;
      if (!next.present) next.standby = next.twoBoards = false;
      return act(rollCall, Q.ANSWER_ROLL_CALL, { round, playerId: entry.player.id, ...next }, `${entry.player.name}: roll call answered.`);
    };
    const table = director ? h("div", { class: "table-wrap" }, h("table", { class: "roll-call" },
      h("caption", {}, "One click per player: present or absent."),
      h("thead", {}, h("tr", {}, ...["Player", "Present", "Standby", "Two boards"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, t.rollCall.map((/** @type {any} */ entry) => h("tr", { "data-player": entry.player.name },
        h("th", { scope: "row" }, entry.player.name),
        h("td", {}, h("button", { type: "button", class: entry.present ? "toggle on" : "toggle", "aria-pressed": String(entry.present),
          "aria-label": `${entry.player.name} present`, onclick: () => answer(entry, { present: !entry.present }) },
          entry.present ? "Present" : entry.answered ? "Absent" : "Not answered")),
        h("td", {}, h("input", { type: "checkbox", checked: entry.standby, "aria-label": `${entry.player.name} standby`,
          onchange: (/** @type {Event} */ e) => answer(entry, { standby: /** @type {HTMLInputElement} */ (e.target).checked }) })),
        h("td", {}, h("input", { type: "checkbox", checked: entry.twoBoards, "aria-label": `${entry.player.name} two boards`,
          onchange: (/** @type {Event} */ e) => answer(entry, { twoBoards: /** @type {HTMLInputElement} */ (e.target).checked }) })))))))
      : null;
    const seed = director
      ? h("button", { type: "button", class: "primary", disabled: Boolean(!proposal || proposal.problem), onclick: () =>
          act(rollCall, Q.SEED_ROUND, { round, idempotencyKey: crypto.randomUUID() }, `Round ${round} seeded.`) }, `Seed round ${round}`)
      : null;
    replace(rollCall, h("h2", { id: "roll-call-h" }, `Roll call for round ${round}`), error,
      checkIn(round), proposalText, table, seed);
  };

  /** A player's own check-in for the open round. @param {number} round */
  const checkIn = (round) => {
    const entry = me ? t.rollCall.find((/** @type {any} */ e) => e.player.id === me) : null;
    if (!entry) return null;
    return keep("check-in", [round, entry], () => {
      const standby = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", checked: entry.standby }));
      const twoBoards = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", checked: entry.twoBoards }));
      const form = h("form", { novalidate: true, "aria-labelledby": "check-in-h", class: "check-in" },
        h("h3", { id: "check-in-h" }, `Check in for round ${round}`),
        formError(),
        h("p", { class: "check-in-status", role: "status" }, !entry.answered ? "You have not answered yet."
          : entry.present ? `You are checked in${entry.standby ? " as a standby" : ""}${entry.twoBoards ? " for two boards" : ""}.` : "You are checked out."),
        field("Standby: I may sit out if the count needs it", standby, { field: "standby" }),
        field("Two boards: I can play two boards", twoBoards, { field: "twoBoards" }),
        h("div", { class: "actions" },
          h("button", { type: "submit", class: "primary" }, "Check in"),
          h("button", { type: "button", onclick: () => send(false) }, "Check out")));
      /** @param {boolean} present */
      const send = async (present) => {
        clearErrors(form);
        try {
          await gql(Q.ANSWER_ROLL_CALL, { tournamentId: id, round, present, standby: present && standby.checked, twoBoards: present && twoBoards.checked });
          announce(present ? "You are checked in." : "You are checked out.");
          await reload();
        } catch (error) {
          showError(form, error);
        }
      };
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        void send(true);
      });
      return form;
    });
  };

  const renderMine = () => {
    if (!me) {
      replace(mine);
      return;
    }
    replace(mine, h("h2", { id: "my-boards-h" }, "My board and power"),
      myBoards.length === 0 ? h("p", {}, "You are not seated in any round yet.")
        : h("ul", { class: "my-boards" }, myBoards.map((b) => {
            const seat = b.seats.find((/** @type {any} */ s) => s.player.id === me);
            return h("li", { "data-round": b.round },
              h("a", { href: `/tournaments/${id}/boards/${b.id}` }, `Round ${b.round}, board ${b.number}`), `: ${seat?.label ?? "?"}`,
              b.finished ? " (finished)" : "");
          })));
  };

  /** The round's status: seeded, running (a board has a result) or completed. @param {any} round */
  const roundStatus = (round) => (round.completed ? "COMPLETED" : round.started ? "RUNNING" : "SEEDED");

  /** @param {any} round */
  const roundSection = (round) => {
    const scores = (/** @type {any} */ board) => new Map(board.scores.map((/** @type {any} */ s) => [s.player.id, s.score]));
    const boards = h("div", { class: "table-wrap" }, h("table", { class: "boards" },
      h("thead", {}, h("tr", {}, ...["Board", "Seats", "Status", ""].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, round.boards.map((/** @type {any} */ b) => {
        const byPlayer = scores(b);
        const seated = me !== null && b.seats.some((/** @type {any} */ s) => s.player.id === me);
        const link = !b.finished && (director || seated) ? "Report result" : b.finished && director ? "Correct result" : "View board";
        return h("tr", { "data-board": b.number },
          h("th", { scope: "row" }, `Board ${b.number}`),
          h("td", {}, h("ul", { class: "seats" }, b.seats.map((/** @type {any} */ s) => h("li", {},
            h("span", { class: "seat-label" }, s.label), " ", s.player.name,
            byPlayer.has(s.player.id) ? ` ${score(/** @type {number} */ (byPlayer.get(s.player.id)))}` : "")))),
          h("td", {}, badge(b.finished ? "FINISHED" : "SCHEDULED"), b.corrections > 0 ? ` corrected ${b.corrections}×` : ""),
          h("td", {}, h("a", { href: `/tournaments/${id}/boards/${b.id}`, class: "button", "aria-label": `${link}: round ${round.number}, board ${b.number}` }, link)));
      }))));
    const s = round.seeding;
    const record = h("details", { class: "seeding" }, h("summary", {}, "Seeding record"), h("dl", { class: "settings" },
      ...[["Algorithm", s.algorithm], ["Seed", s.seed], ["Inputs digest", h("code", { class: "hash" }, s.inputsDigest)],
        ["Repeat score", s.repeatScore], ["Seat repeats", s.seatRepeats], ["Keep-apart pairs seated together", s.keepApartMet],
        ["Top board", round.topBoard ? "yes" : "no"]].flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])));
    const players = [...new Map([...round.boards.flatMap((/** @type {any} */ b) => b.seats.map((/** @type {any} */ x) => x.player)), ...round.sittingOut]
      .map((/** @type {PlayerRef} */ p) => [p.id, p])).values()];
    const swap = director && !round.started ? keep(`swap-${round.number}`, round.boards, () => swapForm(round.number, players)) : null;
    return h("section", { class: "round", "data-round": round.number, "aria-labelledby": `round-${round.number}-h` },
      h("h3", { id: `round-${round.number}-h` }, `Round ${round.number} `, badge(roundStatus(round))),
      h("p", {}, h("a", { href: `/tournaments/${id}/rounds/${round.number}/board-call`, class: "button" }, `Board call for round ${round.number}`)),
      boards,
      h("p", { class: "sitting-out" }, `Sitting out: ${names(round.sittingOut)}.`),
      h("p", { class: "playing-twice" }, `Playing two boards: ${names(round.playingTwice)}.`),
      round.swaps.length === 0 ? "" : h("ul", { class: "swaps", "aria-label": `Swaps in round ${round.number}` },
        ...round.swaps.map((/** @type {any} */ w) => h("li", {}, `${w.first.name} ⇄ ${w.second.name}: ${w.reason}`))),
      record, swap);
  };

  /** The director's swap of two players of a round not yet started.
   * @param {number} round @param {PlayerRef[]} players */
  const swapForm = (round, players) => {
    const firstPlayer = playerSelect(players, "Choose a player");
    const secondPlayer = playerSelect(players, "Choose a player");
    const reason = /** @type {HTMLTextAreaElement} */ (h("textarea", { required: true, rows: 2 }));
    const form = h("form", { novalidate: true, "aria-labelledby": `swap-${round}-h`, class: "swap" },
      h("h4", { id: `swap-${round}-h` }, `Swap two players of round ${round}`),
      formError(),
      field("First player", firstPlayer, { field: "first" }),
      field("Second player", secondPlayer, { field: "second", hint: "Seats are exchanged; a player sitting out takes the other's seat." }),
      field("Reason", reason, { field: "reason" }),
      h("button", { type: "submit" }, "Swap players"));
    onSubmit(form, async () => {
      await gql(Q.SWAP_ROUND_PLAYERS, { tournamentId: id, round, first: firstPlayer.value, second: secondPlayer.value, reason: reason.value });
      announce(`${entrantName(firstPlayer.value)} and ${entrantName(secondPlayer.value)} swapped.`);
      await reload();
    });
    return form;
  };

  const renderRounds = () => {
    replace(rounds, h("h2", { id: "rounds-h" }, `Rounds (${t.rounds.length}/${t.roundCount} seeded)`),
      t.rounds.length === 0 ? h("p", {}, "No round seeded yet.") : [...t.rounds].reverse().map(roundSection));
  };

  const renderStandings = () => {
    const chosen = afterRound === null ? "" : String(afterRound);
    replace(roundSelect, h("option", { value: "" }, "Every round so far"),
      t.rounds.map((/** @type {any} */ r) => h("option", { value: r.number }, `Round ${r.number}`)));
    roundSelect.value = chosen;
    const withdrawn = new Map(t.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound !== null)
      .map((/** @type {any} */ e) => [e.player.id, e.withdrawnAfterRound]));
    const roundNumbers = standings[0]?.rounds.map((/** @type {any} */ r) => r.round) ?? [];
    /** @param {any} r */
    const roundCell = (r) => {
      const text = r.score === null ? "—" : score(r.score);
      const main = r.dropped ? h("del", { title: "dropped: does not count" }, text) : h("span", {}, text);
      const boards = r.boards.length > 1
        ? h("span", { class: "board-scores" }, ` (${r.boards.map((/** @type {any} */ b) => `board ${b.board}: ${score(b.score)}${b.dropped ? " dropped" : ""}`).join(", ")})`)
        : null;
      return h("td", { class: `num${r.dropped ? " dropped" : ""}${r.satOut ? " sat-out" : ""}`, "data-round": r.round },
        main, r.satOut ? " sat out" : null, boards);
    };
    replace(standingsBody, standings.length === 0 ? h("p", {}, "No entrants yet.") : h("div", { class: "table-wrap" }, h("table", { class: "standings tournament-standings" },
      h("caption", {}, afterRound === null ? "Standings now" : `Standings after round ${afterRound}`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"),
        ...roundNumbers.map((/** @type {number} */ n) => h("th", { scope: "col" }, `Round ${n}`)),
        ...["Total", "Boards", "Wins", "Draws"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, standings.map((s) => h("tr", { "data-player": s.player.name },
        h("td", { class: "num rank" }, s.rank),
        h("th", { scope: "row" }, h("a", { href: `/players/${s.player.id}` }, s.player.name),
          withdrawn.has(s.player.id) ? h("span", { class: "withdrawn" }, ` (withdrew after round ${withdrawn.get(s.player.id)})`) : null,
          s.notes.length > 0 ? h("span", { class: "hint" }, ` ${s.notes.join("; ")}`) : null),
        ...s.rounds.map(roundCell),
        h("td", { class: "num total" }, score(s.total)),
        h("td", { class: "num" }, s.games),
        h("td", { class: "num" }, s.wins),
        h("td", { class: "num" }, s.draws)))))));
  };
  roundSelect.addEventListener("change", () => {
    afterRound = roundSelect.value === "" ? null : Number(roundSelect.value);
    void reload();
  });

  const renderChecks = () => {
    const output = h("div", { id: "seeding-check-results", "aria-live": "polite" });
    const verify = async () => {
      const { tournament } = await gql(Q.SEEDING_CHECKS, { id });
      const list = tournament?.seedingChecks ?? [];
      replace(output, list.length === 0 ? h("p", {}, "No round seeded yet.") : h("div", { class: "table-wrap" }, h("table", { class: "checks" },
        h("thead", {}, h("tr", {}, ...["Round", "Verified", "Algorithm", "Seed", "Recorded digest", "Recomputed digest", "Same boards", "Problem"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, list.map((/** @type {any} */ c) => h("tr", { "data-round": c.round, class: c.verified ? "verified" : "not-verified" },
          h("th", { scope: "row" }, c.round),
          h("td", {}, c.verified ? "verified" : "NOT verified"),
          h("td", {}, c.algorithm),
          h("td", {}, c.seed),
          h("td", {}, h("code", { class: "hash" }, c.recordedDigest)),
          h("td", {}, h("code", { class: "hash" }, c.recomputedDigest)),
          h("td", {}, c.boardsMatch ? "yes" : "no"),
          h("td", {}, c.problem ?? "—")))))));
      announce("Seeding checked.");
    };
    replace(checks, h("h2", { id: "checks-h" }, "Seeding checks"),
      h("p", { class: "hint" }, "Re-runs every recorded seeding from the log and compares the boards."),
      h("button", { type: "button", onclick: () => void verify() }, "Verify seeding"), output);
  };

  const render = () => {
    renderHead();
    renderEntrants();
    renderRollCall();
    renderMine();
    renderRounds();
    renderStandings();
  };

  const fetchAll = async () => {
    const [{ tournament: fresh }, standingsData, boardsData] = await Promise.all([
      gql(Q.TOURNAMENT, { id }),
      gql(Q.TOURNAMENT_STANDINGS, { id, afterRound }),
      me ? gql(Q.BOARDS_OF, { id, playerId: me }) : Promise.resolve(null),
    ]);
    if (fresh) t = fresh;
    standings = standingsData.tournament?.standings ?? [];
    myBoards = boardsData?.tournament?.boardsOf ?? [];
  };
  let reloading = Promise.resolve();
  const reload = () => (reloading = reloading.then(async () => {
    await fetchAll();
    render();
  }));

  await fetchAll();
  render();
  renderChecks();

  // Every event of the tournament's stream (roll-call answers included) refreshes the page.
  const stop = subscribe(Q.TOURNAMENT_EVENTS, { tournamentId: id }, (/** @type {any} */ data) => {
    if (STANDINGS_EVENTS.has(data.tournamentEvents.type)) announce("The standings changed.");
    void reload();
  }, (connected) => {
    live.dataset.state = connected ? "live" : "offline";
    live.textContent = connected ? "live" : "reconnecting…";
  });
  return stop;
}
