// @ts-check
// Every route of the web app (web/js/main.js's ROUTES, with real ids of a league, a game, a
// tournament, a board, a round and a player set up over GraphQL) opened on a 360 px wide
// phone as each role would: anonymous, a player, an organiser and the site admin. No page
// scrolls sideways and axe-core finds no serious or critical violation on any of them.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, accessibilityProblems, sidewaysScroll } from "./harness.js";

/** The narrowest phone the app is held to. */
const NARROW = { viewport: { width: 360, height: 800 }, isMobile: true, hasTouch: true };

test("every route fits a 360 px phone and passes axe in every role", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  test.setTimeout(600_000);

  try {
    /** @type {{ id: string, token: string, name: string }[]} */
    const players = [];
    for (const name of ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Olga"]) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      players.push({ id: registerPlayer.player.id, token: registerPlayer.token, name });
    }
    const seven = players.slice(0, 7);
    const organiser = /** @type {{ id: string, token: string, name: string }} */ (players.at(-1));
    await server.gql(`mutation($p: ID!) { appointOrganiser(playerId: $p) { id } }`, { p: organiser.id });

    // A league of seven Diplomacy players with one game reported and corrected.
    const { createLeague } = await server.gql(
      `mutation { createLeague(input: {name: "Spring Diplomacy", game: "Diplomacy", scoringSystem: BAF, playersPerGame: 7, size: 7, gamesPerSeat: 1}) { id } }`);
    const leagueId = createLeague.id;
    for (const p of seven) await server.gql(`mutation($l: ID!, $p: ID!) { subscribeToLeague(leagueId: $l, playerId: $p) { id } }`, { l: leagueId, p: p.id });
    await server.gql(`mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }`, { c: leagueId, p: organiser.id });
    const { league } = await server.gql(`query($id: ID!) { league(id: $id) { games { id seats { player { id } } } } }`, { id: leagueId });
    const game = league.games[0];
    /** @param {{ player: { id: string } }[]} seats */
    const diplomacy = (seats) => ({ diplomacy: seats.map((s, i) => ({ playerId: s.player.id, centres: [10, 8, 6, 4, 3, 2, 1][i] })) });
    await server.gql(`mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }`, { g: game.id, r: diplomacy(game.seats) });

    // A tournament of the same seven: round 1 seeded, its board reported and corrected.
    const { createTournament } = await server.gql(
      `mutation { createTournament(input: {name: "Autumn Cup", game: "Diplomacy", scoringSystem: SQUARES, playersPerBoard: 7, rounds: 2, tournamentScoring: "sum-all-rounds"}) { id } }`);
    const tournamentId = createTournament.id;
    await server.gql(`mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }`, { c: tournamentId, p: organiser.id });
    for (const p of seven) {
      await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: tournamentId, p: p.id });
      await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: tournamentId, p: p.id });
    }
    const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1) { boards { id seats { player { id } } } } }`, { t: tournamentId });
    const board = seedRound.boards[0];
    await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { id } }`,
      { t: tournamentId, b: board.id, r: diplomacy(board.seats) });
    const { scoringSystems } = await server.gql(`{ scoringSystems { system ratingKind } }`);
    const kind = scoringSystems.find((/** @type {any} */ s) => s.system === "BAF").ratingKind.toLowerCase().replaceAll("_", "-");

    // A series over the tournament and the league (docs/series.md).
    const { createSeries } = await server.gql(`mutation { createSeries(input: {name: "Circuit", best: 2, basis: RANK_POINTS}) { id } }`);
    const seriesId = createSeries.id;
    for (const c of [tournamentId, leagueId]) await server.gql(`mutation($s: ID!, $c: ID!) { addSeriesEvent(seriesId: $s, competitionId: $c) { id } }`, { s: seriesId, c });

    const player = seven[0];
    // Every route of main.js's ROUTES, in its order, and a path no route takes.
    const routes = [
      "/", `/leagues/${leagueId}`, `/leagues/${leagueId}/audit`, `/leagues/${leagueId}/organisers`,
      `/games/${game.id}`, `/players/${player.id}`, `/players/${player.id}/account`, "/ratings", `/ratings/${kind}`,
      "/tournaments", `/tournaments/${tournamentId}`, `/tournaments/${tournamentId}/organisers`,
      `/tournaments/${tournamentId}/audit`, `/tournaments/${tournamentId}/boards/${board.id}`,
      `/tournaments/${tournamentId}/rounds/1/board-call`, `/tournaments/${tournamentId}/walk-ins`, "/signup",
      `/tournaments/${tournamentId}/sign-in-sheet`, "/signin", "/signin/link", "/admin", "/people", "/webhooks",
      "/series", `/series/${seriesId}`,
      "/no-such-page",
    ];
    /** @type {[string, string | null][]} */
    const roles = [["anonymous", null], ["player", player.token], ["organiser", organiser.token], ["admin", ADMIN]];
    /** @type {string[]} */
    const found = [];
    for (const [role, token] of roles) {
      const context = await newContext(NARROW);
      const page = token ? await signIn(context, token) : await context.newPage();
      for (const route of routes) {
        await page.goto(route);
        await expect(page.locator("main h1").first()).toBeVisible();
        await expect(page.locator("main .loading")).toHaveCount(0);
        const sideways = await sidewaysScroll(page);
        if (sideways > 0) found.push(`${role} ${route}: scrolls ${sideways} px sideways`);
        for (const problem of await accessibilityProblems(page)) found.push(`${role} ${route}: ${problem}`);
      }
      await context.close();
    }
    expect(found).toEqual([]);
  } finally {
    await harness.tearDown();
  }
});
