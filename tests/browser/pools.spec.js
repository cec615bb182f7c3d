// @ts-check
// Pools in the web app (docs/tournaments.md#pools-top-boards-and-per-round-scoring), on a 390 px
// phone and a desktop: a two-round Diplomacy tournament of 14 has played round 1; the director
// sets round 2's pool (the best 7, ×1.5) from the tournament page's "Pools and round scoring"
// section and seeds round 2; once its boards are reported a spectator, not signed in, sees the
// pool there and the pool's multiplied scores marked in the standings. Actions (clicks and
// fills) are counted. No sideways scroll at 360 px, no serious or critical axe-core violation;
// every GraphQL document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";

test("a director sets a pool round and a spectator sees its multiplied scores", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    /** A step's last look at a page: no serious axe-core violation, then at 360 px wide no
     * sideways scroll. @param {import("@playwright/test").Page} page */
    const lastLook = async (page) => {
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.setViewportSize({ width: 360, height: 740 });
      expect(await sidewaysScroll(page)).toBe(0);
    };
    const centres = [10, 8, 6, 4, 3, 2, 1];
    /** Reports every board of a round 10, 8, 6, 4, 3, 2, 1 centres in seat order. @param {string} id @param {number} round */
    const reportRound = async (id, round) => {
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { rounds { boards { id seats { player { id } } } } } }`, { id });
      for (const board of tournament.rounds[round - 1].boards) {
        const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: centres[i] })) };
        await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`, { t: id, b: board.id, r: result });
      }
    };
    /** @param {string} id @param {string[]} players @param {number} round */
    const checkIn = async (id, players, round) => {
      for (const player of players) {
        await server.gql(`mutation($t: ID!, $p: ID!, $r: Int!) { answerRollCall(tournamentId: $t, round: $r, playerId: $p, present: true) { id } }`, { t: id, p: player, r: round });
      }
    };

    for (const [label, device] of /** @type {const} */ ([["Phone", PHONE], ["Desktop", DESKTOP]])) {
      /** @type {string[]} */
      const ids = [];
      for (let i = 1; i <= 14; i += 1) {
        const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { player { id } } }`, { n: `${label[0]}${i}` });
        ids.push(registerPlayer.player.id);
      }
      const input = { name: `Pool Cup ${label}`, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 2, tournamentScoring: "sum-all-rounds" };
      const { createTournament } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`, { i: input });
      const id = createTournament.id;
      for (const player of ids) {
        await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: player });
      }
      await checkIn(id, ids, 1);
      await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { number } }`, { t: id });
      await reportRound(id, 1);
      await checkIn(id, ids, 2);

      await test.step(`${label}: the director sets round 2's pool and seeds it`, async () => {
        const admin = await signIn(await newContext(device), ADMIN);
        await admin.goto(`/tournaments/${id}`);
        const section = admin.getByRole("region", { name: "Pools and round scoring" });
        await expect(section).toContainText("Every round is seeded as one");
        let actions = 0;
        await section.getByText("Set a round's pool or scoring").click();
        await section.getByLabel("Pool of the best (players, whole boards)").fill("7");
        await section.getByLabel("Score multiplier").fill("1.5");
        await section.getByRole("button", { name: "Set pool" }).click();
        actions += 4;
        await expect(section.getByRole("listitem")).toContainText("Round 2: pool of the best 7 by standings, scores ×1.5");
        await admin.getByRole("button", { name: "Seed round 2" }).click();
        actions += 1;
        await expect(section.getByRole("listitem")).toContainText("(board 1)");
        await lastLook(admin);
        console.log(`${label}: a pool round set and seeded in ${actions} actions`);
      });

      await reportRound(id, 2);
      await test.step(`${label}: a spectator sees the pool and its multiplied scores`, async () => {
        const spectator = await newContext(device);
        const page = await spectator.newPage();
        await page.goto(`/tournaments/${id}`);
        const section = page.getByRole("region", { name: "Pools and round scoring" });
        await expect(section.getByRole("listitem")).toContainText("Round 2: pool of the best 7 by standings, scores ×1.5 (board 1)");
        await expect(section.getByRole("button", { name: "Set pool" })).toHaveCount(0);
        const standings = page.getByRole("region", { name: /Standings/ });
        await expect(standings.getByText("pool: round 2 ×1.5").first()).toBeVisible();
        await lastLook(page);
      });

      await test.step(`${label}: the server's standings hold the multiplied board 1 score`, async () => {
        const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { rounds { boards { seats { player { id } } } } standings { player { id } rounds { score } } } }`, { id });
        const winner = tournament.rounds[1].boards[0].seats[0].player.id;
        const line = tournament.standings.find((/** @type {any} */ s) => s.player.id === winner);
        expect(Math.round(line.rounds[1].score * 1000)).toBe(65217);
      });
    }

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
