// @ts-check
// Series in the web app (docs/series.md), on a desktop and a 390 px phone: two one-board
// tournaments are played (set up through GraphQL); the site admin creates a series from the
// web app and adds both (actions counted: each click, fill and selection); the series page
// shows the standings (each player's best result) and the attendance grid, which scrolls
// inside its own box so the page never scrolls sideways at 360 px; a member tournament's page
// links to its series. No serious or critical axe-core violation; every GraphQL document sent
// fits schema.graphql.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { setUp, pageIsSound, PHONE, DESKTOP } from "./harness.js";
import { ADMIN } from "./server.js";

test("a series over two tournaments: created and filled from the web app, standings and grid", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;
  try {
    /** @type {{ id: string, token: string }[]} */
    const players = [];
    for (let i = 1; i <= 9; i++) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: `Circuit ${i}` });
      players.push({ id: registerPlayer.player.id, token: registerPlayer.token });
    }
    /** A one-round tournament of seven players, its board reported. @param {string} name @param {typeof players} seated */
    const played = async (name, seated) => {
      const { createTournament: t } = await server.gql(`mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
        { input: { name, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1 } });
      for (const p of seated) {
        await server.gql(`mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: t.id, p: p.id });
        await server.gql(`mutation($t: ID!) { answerRollCall(tournamentId: $t, round: 1, present: true) { id } }`, { t: t.id }, p.token);
      }
      const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { boards { id seats { player { id } } } } }`, { t: t.id });
      const board = seedRound.boards[0];
      const centres = [10, 8, 6, 4, 3, 2, 1];
      const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: centres[i] })) };
      await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`,
        { t: t.id, b: board.id, r: result }, ADMIN);
      return t.id;
    };
    const spring = await played("Spring Cup", players.slice(0, 7));
    const autumn = await played("Autumn Cup", players.slice(2));

    let seriesPath = "";
    await test.step("desktop: the admin creates the series and adds both tournaments", async () => {
      const page = await signIn(await newContext(DESKTOP), ADMIN);
      let actions = 0;
      await page.getByRole("link", { name: "Series", exact: true }).click();
      actions++;
      await page.getByLabel("Name").fill("Circuit 2026");
      await page.getByLabel("Results that count (best N)").fill("1");
      await page.getByLabel("Each result is worth").selectOption("RANK_POINTS");
      await page.getByRole("button", { name: "Create series" }).click();
      actions += 4;
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Circuit 2026");
      seriesPath = new URL(page.url()).pathname;
      for (const [id, name] of [[spring, "Spring Cup"], [autumn, "Autumn Cup"]]) {
        await page.getByLabel("Tournament or league").selectOption(id);
        await page.getByRole("button", { name: "Add to series" }).click();
        actions += 2;
        await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
      }
      console.log(`series: created and two tournaments added in ${actions} actions`);
      expect(actions).toBeLessThanOrEqual(9);
      const standings = page.locator("table.series-standings tbody tr");
      await expect(standings).toHaveCount(9);
      // Each winner of a seven-player board scores 7 rank points: two share first place.
      await expect(standings.nth(0).locator("td").nth(0)).toHaveText("1");
      await expect(standings.nth(0).locator("td").nth(2)).toHaveText("7");
      await expect(page.locator("table.series-grid tbody tr")).toHaveCount(9);
      await expect(page.locator("table.series-grid td.absent")).toHaveCount(4);
      await pageIsSound(page);
      await page.screenshot({ path: resolve(shots, "series-desktop.png"), fullPage: true });
      // The member tournament links to its series.
      await page.goto(`/tournaments/${spring}`);
      await page.getByRole("link", { name: "Circuit 2026" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Circuit 2026");
    });

    await test.step("phone: anyone reads the standings and the grid without sideways scroll", async () => {
      const page = await (await newContext(PHONE)).newPage();
      await page.goto(seriesPath);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Circuit 2026");
      await expect(page.locator("table.series-standings tbody tr")).toHaveCount(9);
      await expect(page.getByRole("region", { name: "Attendance grid" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Add to series" })).toHaveCount(0);
      await pageIsSound(page);
      await page.screenshot({ path: resolve(shots, "series-phone.png"), fullPage: true });
    });
    harness.verify(5);
  } finally {
    await harness.tearDown();
  }
});
