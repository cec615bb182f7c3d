// @ts-check
// Standings name the tie-breaker that split equal totals (docs/scoring.md#standings-and-tie-breakers):
// a league and a tournament where the first player, on 2 points with a win, is level with a
// player who drew twice; both pages, on a phone and a desktop, write "tie-break: more wins"
// under the totals of the lines it split, axe finds nothing serious and nothing scrolls
// sideways at 360 px. Reading it takes no action: it is on the page as it loads.
import { test, expect } from "@playwright/test";
import { DESKTOP, PHONE, pageIsSound, setUp } from "./harness.js";

/** A two-player placement result: `first` beats `second`, or a draw. @param {string} first @param {string} second @param {boolean} draw */
const placement = (first, second, draw) => ({ placement: [{ playerId: first, points: 1 }, { playerId: second, points: draw ? 1 : 0 }] });

/** The result of a two-player game or board with `seats` whose one game `first` wins (round or
 * game 1) or loses (later), every other game drawn. @param {string[]} seats @param {string} first @param {boolean} wins */
function resultFor(seats, first, wins) {
  const own = seats.indexOf(first);
  if (own < 0) return placement(seats[0], seats[1], true);
  return wins ? placement(first, seats[1 - own], false) : placement(seats[1 - own], first, false);
}

test("standings name the tie-breaker that split equal totals", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, shots } = harness;
  try {
    /** @type {{ id: string }[]} */
    const players = [];
    for (const name of ["Ann", "Bob", "Cat", "Dan"]) {
      players.push((await server.gql(`mutation($name: String!) { registerPlayer(input: { name: $name }) { player { id } token } }`, { name })).registerPlayer.player);
    }
    const first = players[0].id;

    const { createLeague } = await server.gql(
      `mutation { createLeague(input: { name: "Go ladder", game: "Go", scoringSystem: PLACEMENT, playersPerGame: 2, size: 4, gamesPerSeat: 1 }) { id } }`);
    for (const p of players) {
      await server.gql(`mutation($l: ID!, $p: ID) { subscribeToLeague(leagueId: $l, playerId: $p) { id } }`, { l: createLeague.id, p: p.id });
    }
    const { league } = await server.gql(`query($id: ID!) { league(id: $id) { games { id seats { player { id } } } } }`, { id: createLeague.id });
    let firstGames = 0;
    for (const game of league.games) {
      const seats = game.seats.map((/** @type {any} */ s) => s.player.id);
      if (seats.includes(first)) firstGames += 1;
      await server.gql(`mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }`,
        { g: game.id, r: resultFor(seats, first, firstGames === 1) });
    }

    const { createTournament } = await server.gql(`mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
      { input: { name: "Go Cup", game: "Go", scoringSystem: "PLACEMENT", playersPerBoard: 2, rounds: 2, tournamentScoring: "sum-all-rounds" } });
    const cup = createTournament.id;
    for (const p of players) await server.gql(`mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: cup, p: p.id });
    for (const round of [1, 2]) {
      for (const p of players) {
        await server.gql(`mutation($t: ID!, $r: Int!, $p: ID) { answerRollCall(tournamentId: $t, round: $r, playerId: $p, present: true) { id } }`, { t: cup, r: round, p: p.id });
      }
      await server.gql(`mutation($t: ID!, $r: Int!) { seedRound(tournamentId: $t, round: $r, seed: "7") { number } }`, { t: cup, r: round });
      const { tournament } = await server.gql(`query($t: ID!) { tournament(id: $t) { rounds { boards { id seats { player { id } } } } } }`, { t: cup });
      for (const board of tournament.rounds[round - 1].boards) {
        const seats = board.seats.map((/** @type {any} */ s) => s.player.id);
        await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`,
          { t: cup, b: board.id, r: resultFor(seats, first, round === 1) });
      }
    }

    for (const [device, options] of /** @type {const} */ ([["phone", PHONE], ["desktop", DESKTOP]])) {
      await test.step(`the league's standings say why equal totals rank apart (${device})`, async () => {
        const page = await (await newContext(options)).newPage();
        await page.goto(`/leagues/${createLeague.id}`);
        // The live table (the time-travel section holds a second one).
        const standings = page.locator("table.standings").first();
        const ann = standings.locator("tbody tr", { has: page.getByRole("link", { name: "Ann", exact: true }) });
        await expect(ann.locator(".tie-break")).toHaveText("tie-break: more wins");
        const notes = await standings.locator(".tie-break").allTextContents();
        expect(notes.length).toBeGreaterThanOrEqual(2);
        expect(new Set(notes)).toEqual(new Set(["tie-break: more wins"]));
        await page.screenshot({ path: `${shots}/tiebreak-league-${device}.png`, fullPage: true });
        await pageIsSound(page);
      });

      await test.step(`the tournament's standings say why equal totals rank apart (${device})`, async () => {
        const page = await (await newContext(options)).newPage();
        await page.goto(`/tournaments/${cup}`);
        const standings = page.locator("table.tournament-standings").first();
        await expect(standings.locator('tbody tr[data-player="Ann"] .tie-break')).toHaveText("tie-break: more wins");
        expect(await standings.locator(".tie-break").count()).toBeGreaterThanOrEqual(2);
        await page.screenshot({ path: `${shots}/tiebreak-tournament-${device}.png`, fullPage: true });
        await pageIsSound(page);
      });
    }

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(3);
    });
  } finally {
    await harness.tearDown();
  }
});
