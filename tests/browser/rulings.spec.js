// @ts-check
// Rulings in the web app (docs/tournaments.md#rulings), on a 390 px phone and a desktop: a
// one-round Diplomacy tournament's board is reported; its director, a co-organiser who plays
// on the board, gives a penalty with a reason from the tournament page's "Rulings" section and
// marks themselves unranked; a spectator, not signed in, sees both in the section and in the
// standings. Actions (clicks, fills and choices) are counted. No sideways scroll at 360 px, no
// serious or critical axe-core violation; every GraphQL document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";

test("a director gives a penalty, marks themselves unranked, and a spectator sees both", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    /** The 360 px and axe checks of the page as it stands. @param {import("@playwright/test").Page} page */
    const checkPage = async (page) => {
      expect(await accessibilityProblems(page)).toEqual([]);
      const size = page.viewportSize();
      await page.setViewportSize({ width: 360, height: size?.height ?? 800 });
      expect(await sidewaysScroll(page)).toBe(0);
      if (size) await page.setViewportSize(size);
    };

    /** A reported one-board tournament directed by its first player (a co-organiser).
     * @param {string} prefix */
    const tournament = async (prefix) => {
      /** @type {{ id: string, token: string, name: string }[]} */
      const players = [];
      for (let i = 1; i <= 7; i += 1) {
        const name = `${prefix}${i}`;
        const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
        players.push({ id: registerPlayer.player.id, token: registerPlayer.token, name });
      }
      const input = { name: `${prefix} Cup`, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1, tournamentScoring: "sum-all-rounds" };
      const { createTournament } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`, { i: input });
      const id = createTournament.id;
      await server.gql(`mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }`, { c: id, p: players[0].id });
      for (const player of players) {
        await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: player.id });
        await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: id, p: player.id });
      }
      const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { boards { id seats { player { id } } } } }`, { t: id });
      const board = seedRound.boards[0];
      const centres = [10, 8, 6, 4, 3, 2, 1];
      const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: centres[i] })) };
      await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`, { t: id, b: board.id, r: result });
      return { id, director: players[0], penalised: players[1] };
    };

    for (const [label, device] of /** @type {const} */ ([["Phone", PHONE], ["Desktop", DESKTOP]])) {
      const { id, director, penalised } = await tournament(label === "Phone" ? "P" : "D");

      await test.step(`${label}: the director gives a penalty and marks themselves unranked`, async () => {
        const page = await signIn(await newContext(device), director.token);
        await page.goto(`/tournaments/${id}`);
        const section = page.getByRole("region", { name: "Rulings" });
        await expect(section).toContainText("No rulings.");
        let actions = 0;
        await section.getByText("Give a ruling").click();
        await section.getByLabel("Player").selectOption({ label: penalised.name });
        await section.getByLabel("Applies to").selectOption({ label: "Round 1, board 1" });
        await section.getByLabel("Points (negative for a penalty)").fill("-5");
        await section.getByLabel("Reason", { exact: true }).fill("late to the board");
        await section.getByRole("button", { name: "Adjust score" }).click();
        actions += 6;
        await expect(section.locator("ul.rulings")).toContainText(`${penalised.name}: penalty -5 (round 1, board 1): late to the board`);
        await section.getByLabel("Entrant").selectOption({ label: director.name });
        await section.getByLabel("Reason (optional)").fill("I direct and fill the board");
        await section.getByRole("button", { name: "Mark unranked or ranked again" }).click();
        actions += 3;
        await expect(section.locator("ul.rulings")).toContainText(`${director.name}: unranked: I direct and fill the board`);
        const row = page.locator(`#standings tr[data-player="${director.name}"]`);
        await expect(row).toContainText("(unranked)");
        await expect(row.locator("td.rank")).toHaveText("–");
        await checkPage(page);
        console.log(`${label}: a penalty with its reason and the director unranked in ${actions} actions`);
      });

      await test.step(`${label}: a spectator sees the penalty and the unranked director`, async () => {
        const spectator = await newContext(device);
        const page = await spectator.newPage();
        await page.goto(`/tournaments/${id}`);
        const section = page.getByRole("region", { name: "Rulings" });
        await expect(section.locator("ul.rulings")).toContainText(`${penalised.name}: penalty -5 (round 1, board 1): late to the board`);
        await expect(section.locator("ul.rulings")).toContainText(`${director.name}: unranked`);
        await expect(section.getByRole("button", { name: "Adjust score" })).toHaveCount(0);
        const row = page.locator(`#standings tr[data-player="${director.name}"]`);
        await expect(row).toContainText("(unranked)");
        await expect(page.locator(`#standings tr[data-player="${penalised.name}"]`)).toContainText("†");
        await checkPage(page);
      });
    }

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
