// @ts-check
/** @file A player's page (tournaments and leagues with rank, next board and corrected boards'
 * reasons; leagues and score history, corrections with their reason, ratings
 * per game kind with their history) and a game's page (seats, result, scores, and the form to
 * report or correct its result, built for the league's scoring system). */

import { gql, session } from "./api.js";
import { h, replace, score, delta, when, badge } from "./dom.js";
import { catalogue, systemName } from "./catalogue.js";
import { playerRatings } from "./ratings.js";
import * as Q from "./queries.js";
import { resultForm } from "./result-form.js";
import { navigate } from "./main.js";
import { passkeysSection } from "./passkeys.js";
import { identitySection } from "./identity.js";
import { devicesSection } from "./sign-in.js";
import { localTime } from "./times.js";

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
  const role = session.role;
  replace(main,
    h("h1", {}, player.name),
    player.registeredAt ? h("p", {}, `Registered ${when(player.registeredAt)}`) : null,
    role?.kind === "admin" || (role?.kind === "player" && role.id === id) ? accountLink(id, role.kind === "admin") : null,
    role?.kind === "player" && role.id === id ? devicesSection() : null,
    role?.kind === "player" && role.id === id ? tokenSection() : null,
    role?.kind === "player" && role.id === id ? calendarSection(player.calendarFeed) : null,
    role?.kind === "player" && role.id === id ? passkeysSection() : null,
    role?.kind === "player" && role.id === id ? await identitySection(id) : null,
    competitionsSection(player),
    h("h2", {}, "Leagues"),
    sections.length === 0 ? h("p", {}, "Not in any league yet. ", h("a", { href: "/" }, "Find an open one.")) : sections,
    await ratings);
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st. @param {number} n */
function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

/** The player's tournaments and leagues with their rank ("3rd of 30") and, in a tournament,
 * their next board (docs/tournaments.md#times). @param {any} player */
function competitionsSection(player) {
  const rows = player.competitions.map((/** @type {any} */ c) => {
    const comp = c.tournament ?? c.league;
    const href = c.tournament ? `/tournaments/${comp.id}` : `/leagues/${comp.id}`;
    const rank = c.rank === null ? "not ranked yet" : `${ordinal(c.rank)} of ${c.of}`;
    const board = c.nextBoard;
    const seat = board?.seats.find((/** @type {any} */ s) => s.player.id === player.id);
    const next = board ? [" · next: ", h("a", { href: `/tournaments/${comp.id}/boards/${board.id}` }, `round ${board.round}, board ${board.number}${seat ? ` (${seat.label})` : ""}`),
      c.nextBoardStartsAt ? `, starts ${localTime(c.nextBoardStartsAt, comp.schedule.timeZone)}` : ""] : [];
    return h("li", {}, h("a", { href }, comp.name), " ", badge(comp.status), ` ${c.tournament ? "Tournament" : "League"}: ${rank}`, ...next,
      c.tournament ? correctedBoards(comp) : null);
  });
  return h("section", { class: "player-competitions", "aria-labelledby": "competitions-h" },
    h("h2", { id: "competitions-h" }, "Tournaments and leagues"),
    rows.length === 0 ? h("p", {}, "Not in any tournament or league yet.") : h("ul", { class: "competitions" }, ...rows));
}

/** The player's corrected boards in a tournament, each with its reasons (oldest first);
 * nothing when none was corrected. @param {any} tournament */
function correctedBoards(tournament) {
  const corrected = tournament.boardsOf.filter((/** @type {any} */ b) => b.correctionReasons.length > 0);
  return corrected.length === 0 ? null : h("ul", { class: "corrections" }, corrected.map((/** @type {any} */ b) => h("li", {},
    h("a", { href: `/tournaments/${tournament.id}/boards/${b.id}` }, `Round ${b.round}, board ${b.number}`),
    ` corrected: ${b.correctionReasons.join("; ")}`)));
}

/** The way to the player's account page (their data, erasure; the admin's tokens and roles).
 * @param {string} id @param {boolean} admin */
function accountLink(id, admin) {
  return h("p", {}, h("a", { href: `/players/${id}/account`, class: "button" }, admin ? "Manage this player" : "Your data and erasure"));
}

/**
 * The signed-in player's own token: replace it with a new one (shown once); the old one stops
 * working at once on every gateway (this browser's session stays signed in).
 */
function tokenSection() {
  const output = h("div", { id: "new-token", "aria-live": "polite" });
  const rotate = async () => {
    const { rotateToken } = await gql(Q.ROTATE_TOKEN);
    replace(output, h("p", {}, "Your new token (shown only now; the old one no longer works): ",
      h("code", { class: "token" }, rotateToken.token)));
  };
  return h("section", { "aria-labelledby": "token-h" },
    h("h2", { id: "token-h" }, "Your token"),
    h("p", { class: "hint" }, "If your token may have leaked, replace it: the old one stops working (browsers signed in with a session stay signed in; sign them out above)."),
    h("button", { type: "button", onclick: () => void rotate() }, "Replace my token"),
    output);
}

/**
 * The signed-in player's calendar feed: a secret address a calendar application subscribes
 * to (their games and boards). Getting a new one shows it once and stops the old one.
 * @param {boolean} exists whether a feed was issued before
 */
function calendarSection(exists) {
  const output = h("div", { id: "calendar-feed", "aria-live": "polite" });
  const rotate = async () => {
    const { rotateCalendarFeed } = await gql(Q.ROTATE_CALENDAR_FEED);
    replace(output, h("p", {}, "Your calendar address (shown only now; add it to your calendar application as a subscription): ",
      h("code", { class: "feed" }, rotateCalendarFeed.url)),
    exists ? h("p", { class: "hint" }, "The previous address no longer works.") : null);
  };
  return h("section", { "aria-labelledby": "calendar-h" },
    h("h2", { id: "calendar-h" }, "Your calendar"),
    h("p", { class: "hint" }, exists
      ? "You have a calendar address. If you lost it or it may have leaked, get a new one: the old one stops working."
      : "Get a secret address that puts your league games and tournament boards in your calendar application."),
    h("button", { type: "button", onclick: () => void rotate() }, exists ? "Get a new calendar address" : "Get my calendar address"),
    output);
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
  // The site admin and the league's organisers manage every game.
  const manager = role?.kind === "admin" || (role?.kind === "player" && game.league.organisers.some((/** @type {any} */ o) => o.id === role.id));
  const mode = game.status === "SCHEDULED" && (seated || manager) ? "report"
    : game.status === "FINISHED" && manager ? "correct" : null;
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
    mode ? resultForm(game, mode, cat.bySystem.get(game.league.scoringSystem) ?? game.league.scoringSystem, async (variables) => {
      if (mode === "report") await gql(Q.REPORT_RESULT, { gameId: game.id, ...variables });
      else await gql(Q.CORRECT_RESULT, { gameId: game.id, ...variables });
      navigate(`/leagues/${game.league.id}`);
    }) : null);
}
