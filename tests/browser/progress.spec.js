// @ts-check
// Live board progress and the projector page (docs/tournaments.md#live-progress,
// #projector-page) on 390 px phones: a director and a player seated on the board record the
// supply-centre counts of two game years through the board page's form; a spectator's board
// page (a second context) shows the centre chart, the provisional scores and standings
// updated without a reload, and the kiosk page shows the provisional standings. Actions
// (clicks, fills, key presses) are counted; no sideways scroll at 360 px, no serious or
// critical axe-core violation, every GraphQL document sent fits schema.graphql.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE } from "./harness.js";

const POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

/** How far the live progress section (chart, scores, count form) reaches past the window's
 * right edge, in pixels (0: it fits). The result form below it is the result form's own
 * (docs/tournaments.md); the whole page is checked where no result form is shown.
 * @param {import("@playwright/test").Page} page */
async function progressOverflow(page) {
  return page.evaluate(() => {
    // A table scrolls sideways inside its wrapper, not the page: the wrapper is what counts.
    const edges = [...document.querySelectorAll(".live-progress, .live-progress *")]
      .filter((el) => el.matches(".table-wrap") || !el.parentElement?.closest(".table-wrap"))
      .map((el) => el.getBoundingClientRect().right);
    return Math.max(0, Math.ceil(Math.max(...edges) - document.documentElement.clientWidth));
  });
}

test("a director and a seated player record two game years; spectators and the kiosk follow live", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;
  try {
    /** @type {{ name: string, id: string, token: string }[]} */
    const players = [];
    for (let i = 1; i <= 14; i += 1) {
      const name = `Q${String(i).padStart(2, "0")}`;
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      players.push({ name, id: registerPlayer.player.id, token: registerPlayer.token });
    }
    const { createTournament } = await server.gql(`mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
      { input: { name: "Spring Cup", game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 2 } });
    const id = createTournament.id;
    for (const p of players) {
      await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: p.id });
      await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: id, p: p.id });
    }
    const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { boards { id number seats { label player { name } } } } }`, { t: id });
    const [board1, board2] = seedRound.boards;
    const seats1 = board1.seats.map((/** @type {any} */ s) => s.player.name);
    const seatedName = seats1[2];
    const seated = /** @type {{ token: string }} */ (players.find((p) => p.name === seatedName));
    const boardUrl = (/** @type {any} */ b) => `/tournaments/${id}/boards/${b.id}`;

    // The spectator's pages are open before anything is recorded: they must follow live.
    const spectatorContext = await newContext(PHONE);
    const spectator = await spectatorContext.newPage();
    await spectator.goto(boardUrl(board1));
    await expect(spectator.getByRole("heading", { name: /Live progress/ })).toBeVisible();
    await expect(spectator.locator(".live-progress .live")).toHaveText("live");
    await expect(spectator.getByText("No centre counts recorded yet.")).toBeVisible();
    const kiosk = await spectatorContext.newPage();
    await kiosk.goto(`/tournaments/${id}/kiosk`);
    await expect(kiosk.getByRole("heading", { level: 1 })).toContainText("Spring Cup");
    await expect(kiosk.locator(".kiosk-title .live")).toHaveText("live");

    /** Records one game year on the board page as it is: the year, seven counts, the button.
     * @param {import("@playwright/test").Page} page @param {number} year @param {number[]} counts */
    const record = async (page, year, counts) => {
      let actions = 0;
      const form = page.getByRole("form", { name: "Centres after a game year" });
      await expect(form.getByLabel("Game year")).toHaveValue(String(year));
      for (const [i, power] of POWERS.entries()) {
        await form.getByLabel(`Centres of ${power}`, { exact: true }).fill(String(counts[i]));
        actions++;
      }
      const total = counts.reduce((a, b) => a + b, 0);
      await expect(form.locator(".progress-total")).toHaveText(`Total: ${total} of 34`);
      await form.getByRole("button", { name: "Record centres" }).click();
      actions++;
      await expect(form.getByLabel("Game year")).toHaveValue(String(year + 1));
      return actions;
    };

    let directorActions = 0;
    let playerActions = 0;
    await test.step("the director records 1901 on board 1 from a phone", async () => {
      const director = await signIn(await newContext(PHONE), ADMIN);
      await director.goto(boardUrl(board1));
      const form = director.getByRole("form", { name: "Centres after a game year" });
      // Over the board's 34 centres: the total warns and the server refuses, naming the field.
      await form.getByLabel("Centres of Austria", { exact: true }).fill("30");
      await form.getByLabel("Centres of England", { exact: true }).fill("5");
      await expect(form.locator(".progress-total")).toHaveText("Total: 35 of 34 — too many");
      for (const power of POWERS.slice(2)) await form.getByLabel(`Centres of ${power}`, { exact: true }).fill("0");
      await form.getByRole("button", { name: "Record centres" }).click();
      await expect(form.locator(".field-error:not([hidden])").first()).toContainText("34");
      directorActions += await record(director, 1901, [5, 5, 5, 5, 4, 5, 4]);
      await director.setViewportSize({ width: 360, height: 800 });
      expect(await progressOverflow(director)).toBe(0);
      expect(await accessibilityProblems(director)).toEqual([]);
      await director.screenshot({ path: resolve(shots, "progress-director-phone.png"), fullPage: true });
    });

    await test.step("the spectator's board page shows 1901 without a reload", async () => {
      await expect(spectator.locator("table.centre-table thead")).toContainText("1901");
      await expect(spectator.locator(".progress-last")).toHaveText("Last counted: 1901, 33 of 34 centres.");
      await expect(spectator.locator("table.provisional-scores tbody tr")).toHaveCount(7);
      await expect(spectator.locator(".provisional-standings tbody tr")).toHaveCount(14);
    });

    await test.step("a seated player records 1902 on their board from a phone", async () => {
      const player = await signIn(await newContext(PHONE), seated.token);
      await player.goto(boardUrl(board1));
      playerActions += await record(player, 1902, [10, 8, 6, 5, 3, 2, 0]);
      await player.setViewportSize({ width: 360, height: 800 });
      expect(await progressOverflow(player)).toBe(0);
      expect(await accessibilityProblems(player)).toEqual([]);
      // The result form starts from the last counts.
      await expect(player.locator(".progress-last")).toContainText("1902");
      await player.getByRole("button", { name: "Fill from the last counts" }).click();
      await expect(player.getByLabel(`Supply centres of Austria, ${seats1[0]}`)).toHaveValue("10");
      await expect(player.getByLabel(`Turkey, ${seats1[6]} eliminated`)).toBeChecked();
    });

    await test.step("the spectator's chart and provisional standings follow; Squares scores 10² of 238", async () => {
      await expect(spectator.locator("table.centre-table thead")).toContainText("1902");
      await expect(spectator.locator(".progress-last")).toHaveText("Last counted: 1902, 34 of 34 centres.");
      await expect(spectator.locator("table.provisional-scores tbody tr").first().locator(".provisional-score")).toHaveText("42.017");
      const first = spectator.locator(".provisional-standings tbody tr").first();
      await expect(first.locator("th")).toHaveText(seats1[0]);
      await expect(spectator.locator("svg.centre-chart polyline")).toHaveCount(7);
      await spectator.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(spectator)).toBe(0);
      expect(await accessibilityProblems(spectator)).toEqual([]);
      await spectator.screenshot({ path: resolve(shots, "progress-spectator-phone.png"), fullPage: true });
    });

    await test.step("board 2 by the director, then the kiosk shows the provisional standings", async () => {
      const director = await signIn(await newContext(PHONE), ADMIN);
      await director.goto(boardUrl(board2));
      directorActions += await record(director, 1901, [6, 5, 5, 4, 4, 5, 4]);
      await kiosk.getByRole("button", { name: "Pause" }).click();
      // The cycle may have moved on while the boards were recorded: step to the provisional view.
      for (let step = 0; step < 8 && !/Provisional standings/.test(await kiosk.getByRole("heading", { level: 2 }).innerText()); step += 1) {
        await kiosk.getByRole("button", { name: "Next view" }).click();
      }
      await expect(kiosk.getByRole("heading", { level: 2 })).toHaveText(/Provisional standings/);
      await expect(kiosk.locator(".kiosk-where")).toContainText("(paused)");
      const rows = kiosk.locator(".kiosk-view table tbody tr");
      await expect(rows.first().locator("th")).toHaveText(seats1[0]);
      await kiosk.getByRole("button", { name: "Next view" }).click();
      await expect(kiosk.getByRole("heading", { level: 2 })).toHaveText("Round 1 board call");
      await kiosk.getByRole("button", { name: "Next view" }).click();
      await expect(kiosk.getByRole("heading", { level: 2 })).toHaveText("Board 1 centres");
      await expect(kiosk.locator("svg.centre-chart polyline")).toHaveCount(7);
      await kiosk.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(kiosk)).toBe(0);
      // The view fades in: its colours are checked once the fade has ended.
      await kiosk.locator(".kiosk-view").evaluate((view) => Promise.all(view.getAnimations().map((a) => a.finished)));
      expect(await accessibilityProblems(kiosk)).toEqual([]);
      await kiosk.screenshot({ path: resolve(shots, "progress-kiosk-phone.png"), fullPage: true });
    });

    await test.step("actions: 8 per game year and board, for the director and for a player", async () => {
      // Seven counts and one button; the year is proposed and the counts start from the last ones.
      expect(directorActions).toBe(16);
      expect(playerActions).toBe(8);
      console.log(`progress actions: director ${directorActions} for 2 board-years, player ${playerActions} for 1`);
    });

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
