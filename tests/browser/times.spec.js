// @ts-check
// A tournament's times in the web app (docs/tournaments.md#times), on a 390 px phone and a
// desktop: the director creates a Diplomacy tournament (the form starts on the game's usual
// system, Squares, from the server) with its time zone, day, venue, check-in window and
// round start times, and the tournament page shows each round's local start and when its
// check-in opens; a player's rating history names the tournament, round and board it rated
// (docs/ratings.md), and their page lists the tournament with their rank. Actions (clicks and fills) are counted. No sideways scroll at 360 px,
// no serious or critical axe-core violation; every GraphQL document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";

test("a director creates a timed tournament and a player's rating history names its board", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    /** @type {{ id: string, token: string }[]} */
    const players = [];
    for (let i = 1; i <= 7; i += 1) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: `T${i}` });
      players.push({ id: registerPlayer.player.id, token: registerPlayer.token });
    }
    /** The 360 px and axe checks of the page as it stands. @param {import("@playwright/test").Page} page */
    const checkPage = async (page) => {
      expect(await accessibilityProblems(page)).toEqual([]);
      const width = page.viewportSize();
      await page.setViewportSize({ width: 360, height: width?.height ?? 800 });
      expect(await sidewaysScroll(page)).toBe(0);
      if (width) await page.setViewportSize(width);
    };

    /** @type {string[]} */
    const created = [];
    for (const [label, device] of /** @type {const} */ ([["Phone", PHONE], ["Desktop", DESKTOP]])) {
      await test.step(`${label}: the director creates a timed tournament`, async () => {
        const admin = await signIn(await newContext(device), ADMIN);
        await admin.goto("/tournaments");
        let actions = 0;
        const create = admin.getByRole("form", { name: "Create a tournament" });
        await expect(create.getByLabel("Scoring system")).toHaveValue("SQUARES");
        await create.getByLabel("Name", { exact: true }).fill(`${label} Open`);
        await create.getByLabel("Rounds").fill("2");
        await create.getByLabel("Time zone").fill("Europe/Paris");
        await create.getByLabel("First day").fill("2030-06-01");
        await create.getByLabel("Venue", { exact: true }).fill("Club Diplo");
        await create.getByLabel("Check-in opens (minutes before a round)").fill("60");
        await create.getByLabel("Round 1 starts at").fill("2030-06-01T10:00");
        await create.getByLabel("Round 2 starts at").fill("2030-06-01T15:00");
        actions += 8;
        await checkPage(admin);
        await create.getByRole("button", { name: "Create tournament" }).click();
        actions += 1;
        await expect(admin).toHaveURL(/\/tournaments\/[0-9a-f-]{36}$/);
        const times = admin.getByRole("list", { name: "Round times" });
        await expect(times.getByRole("listitem")).toHaveText([
          "Round 1 starts at Sat 1 Jun, 10:00 (Europe/Paris); check-in opens at Sat 1 Jun, 09:00.",
          "Round 2 starts at Sat 1 Jun, 15:00 (Europe/Paris); check-in opens at Sat 1 Jun, 14:00.",
        ]);
        await expect(admin.getByText("2030-06-01 at Club Diplo.")).toBeVisible();
        await checkPage(admin);
        console.log(`${label}: a timed tournament created in ${actions} actions`);
        created.push(admin.url().split("/").pop() ?? "");
      });
    }

    await test.step("the server stored the instants in UTC", async () => {
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { scoringSystem schedule { timeZone } roundTimes { round startsAt checkInOpensAt } } }`, { id: created[0] });
      expect(tournament.scoringSystem).toBe("SQUARES");
      expect(tournament.schedule.timeZone).toBe("Europe/Paris");
      expect(tournament.roundTimes.map((/** @type {any} */ r) => r.startsAt)).toEqual(["2030-06-01T08:00:00+00:00", "2030-06-01T13:00:00+00:00"]);
    });

    await test.step("a player's rating history names the tournament, round and board", async () => {
      const id = created[1];
      for (const player of players) {
        await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: player.id });
        await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: id, p: player.id });
      }
      const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { boards { id seats { player { id } } } } }`, { t: id });
      const board = seedRound.boards[0];
      const centres = [10, 8, 6, 4, 3, 2, 1];
      const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: centres[i] })) };
      await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`, { t: id, b: board.id, r: result });

      const player = await signIn(await newContext(PHONE), players[0].token);
      await player.goto(`/players/${players[0].id}`);
      // My page lists the tournament with the player's rank.
      const mine = player.getByRole("region", { name: "Tournaments and leagues" }).getByRole("listitem");
      await expect(mine).toHaveCount(1);
      await expect(mine).toContainText(/Desktop Open\s*RUNNING\s*Tournament: \d+(st|nd|rd|th) of 7/);
      await player.getByRole("button", { name: "Show the Diplomacy rating history" }).click();
      const row = player.locator("table.rating-history tbody tr").first();
      await expect(row.locator("th")).toHaveText("Round 1, board 1 · Desktop Open");
      await expect(row.getByRole("link", { name: "Round 1, board 1" })).toHaveAttribute("href", `/tournaments/${id}/boards/${board.id}`);
      await checkPage(player);
    });

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
