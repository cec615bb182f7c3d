// @ts-check
// An organiser's pages: a player the site admin appointed organiser sees only the tournaments
// they organise, with the create form; they direct their own tournament (roll call, seeding
// button) and not one the site admin created, whose page shows them as a player only; they
// may correct the results of a league they organise.
import { test, expect } from "@playwright/test";
import { setUp } from "./harness.js";

test("an organiser's pages show only their competitions", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    /** @param {string} name */
    const register = async (name) => (await server.gql(
      `mutation($name: String!) { registerPlayer(input: { name: $name }) { player { id } token } }`, { name })).registerPlayer;
    const olga = await register("Olga");
    const pat = await register("Pat");
    await server.gql(`mutation($id: ID!) { appointOrganiser(playerId: $id) { id isOrganiser } }`, { id: olga.player.id });
    /** @param {string} name @param {string} token */
    const create = async (name, token) => (await server.gql(
      `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
      { input: { name, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 2 } }, token)).createTournament.id;
    const olgasCup = await create("Olga's Cup", olga.token);
    const siteCup = await create("Site Cup", undefined);
    for (const id of [olgasCup, siteCup]) {
      await server.gql(`mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: pat.player.id });
    }

    await test.step("the organiser's list holds only their tournament, with the create form", async () => {
      const page = await signIn(await newContext(), olga.token);
      await page.goto("/tournaments");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tournaments you organise");
      await expect(page.locator("table.tournaments tbody tr")).toHaveCount(1);
      await expect(page.locator("table.tournaments")).toContainText("Olga's Cup");
      await expect(page.locator("table.tournaments")).not.toContainText("Site Cup");
      await expect(page.getByRole("button", { name: "Create tournament" })).toBeVisible();

      await page.goto(`/tournaments/${olgasCup}`);
      await expect(page.locator("table.roll-call")).toBeVisible();
      await page.goto(`/tournaments/${siteCup}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Site Cup");
      await expect(page.locator("table.roll-call")).toHaveCount(0);
    });

    await test.step("a plain player sees every tournament and directs none", async () => {
      const page = await signIn(await newContext(), pat.token);
      await page.goto("/tournaments");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tournaments");
      await expect(page.locator("table.tournaments tbody tr")).toHaveCount(2);
      await expect(page.getByRole("button", { name: "Create tournament" })).toHaveCount(0);
      await page.goto(`/tournaments/${olgasCup}`);
      await expect(page.locator("table.roll-call")).toHaveCount(0);
    });

    await test.step("the organiser of a league may correct its results in the web app; a player may not", async () => {
      const { createLeague } = await server.gql(
        `mutation { createLeague(input: { name: "Olga's League", game: "Go", scoringSystem: PLACEMENT, playersPerGame: 2, size: 2 }) { id } }`,
        {}, olga.token);
      for (const p of [olga, pat]) {
        await server.gql(`mutation($l: ID!) { subscribeToLeague(leagueId: $l) { id } }`, { l: createLeague.id }, p.token);
      }
      const { league } = await server.gql(`query($id: ID!) { league(id: $id) { games { id seats { player { id } } } } }`, { id: createLeague.id });
      const game = league.games[0];
      const entries = game.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, points: 10 - i }));
      await server.gql(`mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }`, { g: game.id, r: { placement: entries } });
      const organiserPage = await signIn(await newContext(), olga.token);
      await organiserPage.goto(`/leagues/${createLeague.id}`);
      await expect(organiserPage.locator('tr[data-game="1"]').getByRole("link", { name: "Correct result" })).toBeVisible();
      const playerPage = await signIn(await newContext(), pat.token);
      await playerPage.goto(`/leagues/${createLeague.id}`);
      await expect(playerPage.locator('tr[data-game="1"]')).toContainText("FINISHED");
      await expect(playerPage.locator('tr[data-game="1"]').getByRole("link", { name: "Correct result" })).toHaveCount(0);
    });

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(3);
    });
  } finally {
    await harness.tearDown();
  }
});
