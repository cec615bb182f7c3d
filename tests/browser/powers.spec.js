// @ts-check
// Power assignment in the web app (docs/tournaments.md#power-assignment), on a 390 px phone
// and a desktop: a signed-in entrant ranks the powers from the tournament page's "Powers"
// section; the director switches the method to preferences there, seeds the round and sees
// the entrant seated on their first choice. Actions (clicks, fills and choices) are counted.
// No sideways scroll at 360 px, no serious or critical axe-core violation; every GraphQL
// document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, pageIsSound, PHONE, DESKTOP } from "./harness.js";

test("an entrant ranks the powers and the director seeds by preferences", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    for (const [label, device, first, second] of /** @type {const} */ ([["Phone", PHONE, "Italy", "France"], ["Desktop", DESKTOP, "Turkey", "Russia"]])) {
      /** @type {{ id: string, token: string, name: string }[]} */
      const players = [];
      for (let i = 1; i <= 7; i += 1) {
        const name = `${label} ${i}`;
        const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
        players.push({ id: registerPlayer.player.id, token: registerPlayer.token, name });
      }
      const input = { name: `${label} Cup`, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1, tournamentScoring: "sum-all-rounds" };
      const { createTournament } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`, { i: input });
      const id = createTournament.id;
      for (const player of players) {
        await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: player.id });
        await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: id, p: player.id });
      }
      const ranker = players[0];

      await test.step(`${label}: an entrant ranks ${first} then ${second}`, async () => {
        const page = await signIn(await newContext(device), ranker.token);
        await page.goto(`/tournaments/${id}`);
        const section = page.getByRole("region", { name: "Powers" });
        await expect(section).toContainText("You have not ranked the powers");
        let actions = 0;
        await section.getByLabel("Choice 1", { exact: true }).selectOption(first);
        await section.getByLabel("Choice 2", { exact: true }).selectOption(second);
        actions += 2;
        await section.getByRole("button", { name: "Save my ranking" }).click();
        actions += 1;
        await expect(section).toContainText(`Your ranking: ${first}, ${second}.`);
        await pageIsSound(page);
        console.log(`${label}: an entrant ranked the powers in ${actions} actions`);
      });

      await test.step(`${label}: the director seeds by preferences and sees ${first} given`, async () => {
        const admin = await signIn(await newContext(device), ADMIN);
        await admin.goto(`/tournaments/${id}`);
        const section = admin.getByRole("region", { name: "Powers" });
        await expect(section.locator("ul.power-rankings")).toContainText(`${ranker.name}: ${first}, ${second}`);
        let actions = 0;
        await section.getByLabel("Powers given").selectOption("PREFERENCES");
        actions += 1;
        await section.getByRole("button", { name: "Save power assignment" }).click();
        actions += 1;
        await expect(section).toContainText("By preferences: the lowest placed choose first.");
        await admin.getByRole("button", { name: "Seed round 1" }).click();
        actions += 1;
        const round = admin.locator(`section.round[data-round="1"]`);
        await expect(round.locator("table.boards tbody tr")).toHaveCount(1);
        await expect(round.locator("ul.seats li").filter({ hasText: ranker.name })).toContainText(first);
        await pageIsSound(admin);
        console.log(`${label}: the director set the method and seeded in ${actions} actions`);
      });

      await test.step(`${label}: the server seated the entrant on ${first} and the seeding verifies`, async () => {
        const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { rounds { seeding { algorithm } boards { seats { label player { id } } } } } }`, { id });
        const seat = tournament.rounds[0].boards[0].seats.find((/** @type {any} */ s) => s.player.id === ranker.id);
        expect(seat.label).toBe(first);
        expect(tournament.rounds[0].seeding.algorithm).toBe("league-seeder/1+preferences/1");
      });
    }

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
