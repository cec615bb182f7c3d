// @ts-check
// Keep-apart pairs in the web app (docs/tournaments.md#a-players-permanent-keep-apart-list and
// #rulings), on a 390 px phone and a desktop: a player puts another on their permanent
// keep-apart list from their account page; the tournament's director (a co-organiser who
// plays) keeps two entrants apart from the tournament page and removes the pair again. Actions
// (clicks, fills and choices) are counted. No sideways scroll at 360 px, no serious or
// critical axe-core violation; every GraphQL document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { setUp, pageIsSound, PHONE, DESKTOP } from "./harness.js";

test("a player keeps someone apart for good and a director keeps a pair apart", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    const checkPage = pageIsSound;

    /** A one-round tournament of seven entrants, not seeded yet, directed by its first
     * player (a co-organiser). @param {string} prefix */
    const tournament = async (prefix) => {
      const { createTournament: { id } } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`,
        { i: { name: `${prefix} Cup`, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1, tournamentScoring: "sum-all-rounds" } });
      const players = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(async (n) => {
        const name = `${prefix}${n}`;
        const { registerPlayer: made } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
        await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: made.player.id });
        return { id: made.player.id, token: made.token, name };
      }));
      await server.gql(`mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }`, { c: id, p: players[0].id });
      return { id, players };
    };

    for (const [label, device] of /** @type {const} */ ([["Phone", PHONE], ["Desktop", DESKTOP]])) {
      const { id, players } = await tournament(label === "Phone" ? "KP" : "KD");
      const [director, player, other, third] = players;

      await test.step(`${label}: a player adds someone to their permanent keep-apart list`, async () => {
        const page = await signIn(await newContext(device), player.token);
        await page.goto(`/players/${player.id}/account`);
        const section = page.getByRole("region", { name: "Keep apart" });
        await expect(section).toContainText("Nobody.");
        let actions = 0;
        await section.getByLabel("Player to keep apart from").selectOption({ label: other.name });
        await section.getByLabel(/^Reason/).fill("we share a flat");
        await section.getByRole("button", { name: "Add to keep-apart list" }).click();
        actions += 3;
        await expect(section.locator("ul.keep-apart")).toContainText(`${other.name}: we share a flat`);
        await checkPage(page);
        console.log(`${label}: a player keeps someone apart for good in ${actions} actions`);
        // Nobody else sees the list.
        const stranger = await signIn(await newContext(device), third.token);
        await stranger.goto(`/players/${player.id}/account`);
        await expect(stranger.getByRole("heading", { name: "Account" })).toBeVisible();
        await expect(stranger.getByRole("region", { name: "Keep apart" })).toHaveCount(0);
      });

      await test.step(`${label}: the director keeps two entrants apart, then no longer`, async () => {
        const page = await signIn(await newContext(device), director.token);
        await page.goto(`/tournaments/${id}`);
        const section = page.getByRole("region", { name: "Keep-apart pairs" });
        await expect(section).toContainText("No pairs.");
        let actions = 0;
        await section.getByLabel("First player").selectOption({ label: other.name });
        await section.getByLabel("Second player").selectOption({ label: third.name });
        await section.getByLabel("Reason (optional)").fill("same club");
        await section.getByRole("button", { name: "Keep apart", exact: true }).click();
        actions += 4;
        await expect(section.locator("ul.keep-apart")).toContainText(`${other.name} and ${third.name}`);
        await checkPage(page);
        console.log(`${label}: a director keeps a pair apart in ${actions} actions`);
        await section.getByRole("button", { name: `Stop keeping ${other.name} and ${third.name} apart` }).click();
        await expect(section).toContainText("No pairs.");
        console.log(`${label}: a director removes a pair in 1 action`);
        // A spectator sees no director's form.
        const spectator = await (await newContext(device)).newPage();
        await spectator.goto(`/tournaments/${id}`);
        await expect(spectator.getByRole("heading", { name: "Standings" })).toBeVisible();
        await expect(spectator.getByRole("region", { name: "Keep-apart pairs" })).toHaveCount(0);
      });
    }

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
