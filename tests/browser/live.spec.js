// @ts-check
// A 64-player league's page is cheap to watch (docs/performance.md#live-pages): on a phone
// and on a desktop it reads its data in one GraphQL request (the scoring catalogue aside,
// read once per visit), and a result reported in another browser updates it without a
// reload, with at most one request and a few kilobytes per result; axe finds no serious or
// critical violation and nothing scrolls sideways at 360 px.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { DESKTOP, PHONE, accessibilityProblems, meter, setUp, sidewaysScroll } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */

test("a 64-player league's page: one request to load, a pushed result applied in place", async ({ browser }, info) => {
  // Setting up 64 players is ~140 admin mutations in a few seconds, over the default burst.
  const harness = await setUp(browser, info, { LEAGUE_RATE_MUTATIONS_BURST: "1000" });
  if (!harness) return;
  const { server, newContext, signIn, verify, tearDown } = harness;
  try {
    // A running 64-player league (k = 4, one game per seat: 16 games), 10 results in.
    const players = [];
    for (let n = 1; n <= 64; n++) {
      const { registerPlayer } = await server.gql(`mutation($name: String!) { registerPlayer(input: { name: $name }) { player { id name } } }`, { name: `Player ${String(n).padStart(2, "0")}` });
      players.push(registerPlayer.player);
    }
    const { createLeague } = await server.gql(`mutation($input: CreateLeagueInput!) { createLeague(input: $input) { id } }`,
      { input: { name: "Big league", game: "Carcassonne", scoringSystem: "PLACEMENT", playersPerGame: 4, size: 64, gamesPerSeat: 1 } });
    const leagueId = createLeague.id;
    for (const player of players) {
      await server.gql(`mutation($l: ID!, $p: ID) { subscribeToLeague(leagueId: $l, playerId: $p) { id } }`, { l: leagueId, p: player.id });
    }
    const { league } = await server.gql(`query($id: ID!) { league(id: $id) { games { id number seats { player { id name } } } } }`, { id: leagueId });
    /** @param {any} game @param {number} turn */
    const report = (game, turn) => server.gql(`mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }`, {
      g: game.id,
      r: { placement: game.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, points: ((i + turn) % 4) * 10 + 5 })) },
    });
    for (const game of league.games.slice(0, 10)) await report(game, game.number);
    /** The server's standings as "rank name total". */
    const standingsNow = async () => {
      const data = await server.gql(`query($id: ID!) { standings(leagueId: $id) { rank total player { name } } }`, { id: leagueId });
      return data.standings.map((/** @type {any} */ s) => `${s.rank} ${s.player.name} ${s.total}`);
    };
    /** The rows of the page's standings table in the same form. @param {Page} page */
    const rowsOf = async (page) =>
      (await page.locator("#standings table tbody tr").allInnerTexts()).map((row) => row.split("\t").slice(0, 3).map((cell) => cell.split("\n")[0]).join(" ").trim());

    /** @type {{ name: string, page: Page, meter: ReturnType<typeof meter> }[]} */
    const watchers = [];
    for (const [name, options] of /** @type {const} */ ([["phone", PHONE], ["desktop", DESKTOP]])) {
      await test.step(`${name}: the page loads with one request for its data`, async () => {
        const page = await (await newContext(options)).newPage();
        const metered = meter(page);
        await page.goto(`/leagues/${leagueId}`);
        await expect(page.locator(".live")).toHaveText("live");
        await expect(page.locator("figure.chart-figure svg polyline")).toHaveCount(64);
        await expect(page.locator("#travel-event")).toContainText("Result of game 10 reported");
        expect(await rowsOf(page)).toEqual(await standingsNow());
        const loaded = await metered.since(0);
        const data = loaded.operations.filter((o) => o !== "Catalogue");
        expect(data).toEqual(["League"]);
        console.log(`${name}: first load ${loaded.operations.length} requests (${loaded.operations.join(", ")}), ${loaded.bytes} bytes received`);
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.setViewportSize({ width: 360, height: 800 });
        expect(await sidewaysScroll(page)).toBe(0);
        await page.evaluate(() => Object.assign(window, { notReloaded: true }));
        watchers.push({ name, page, meter: metered });
      });
    }

    await test.step("a result reported in another browser updates both pages in place, with ≤ 1 request and ≤ 5 kB each", async () => {
      const marks = watchers.map((w) => w.meter.mark());
      const reporter = await signIn(await newContext(), ADMIN);
      const game = league.games[10];
      await reporter.goto(`/games/${game.id}`);
      for (const seat of game.seats) {
        const points = ((game.seats.indexOf(seat) + game.number) % 4) * 10 + 5;
        await reporter.getByLabel(new RegExp(`^Points of .*, ${seat.player.name}$`)).fill(String(points));
      }
      await reporter.getByRole("button", { name: "Check the result" }).click();
      await reporter.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(reporter).toHaveURL(`/leagues/${leagueId}`);
      const after = await standingsNow();
      for (const [n, { name, page, meter: metered }] of watchers.entries()) {
        await expect.poll(() => rowsOf(page)).toEqual(after);
        await expect(page.locator(`tr[data-game="${game.number}"]`)).toContainText("FINISHED");
        await expect(page.locator("#travel-event")).toContainText(`Result of game ${game.number} reported`);
        await expect(page.locator(`figure.chart-figure circle[aria-label*="game ${game.number},"]`)).toHaveCount(4);
        expect(await page.evaluate(() => /** @type {any} */ (window).notReloaded)).toBe(true);
        const cost = await metered.since(marks[n]);
        console.log(`${name}: one result cost ${cost.operations.length} requests (${cost.operations.join(", ")}), ${cost.bytes} bytes received`);
        expect(cost.operations.length).toBeLessThanOrEqual(1);
        expect(cost.bytes).toBeLessThanOrEqual(5_000);
      }
    });
    verify(3);
  } finally {
    await tearDown();
  }
});
