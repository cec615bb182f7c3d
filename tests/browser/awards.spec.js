// @ts-check
// Best Country and awards in the web app (docs/tournaments.md#best-country-and-awards), on a
// 390 px phone and a desktop: a one-round Diplomacy tournament's board is reported; a
// director gives a named award for a power from the tournament page's "Best countries"
// section (and, on the desktop, revokes the phone's); a spectator, not signed in, sees each
// power's Best Country and the awards there and on the projector page. Actions (clicks,
// fills and choices) are counted. No sideways scroll at 360 px, no serious or critical axe-core
// violation; every GraphQL document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";

test("a director gives an award and a spectator sees Best Country", async ({ browser }, info) => {
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

    /** @type {string[]} */
    const names = [];
    /** @type {string[]} */
    const ids = [];
    for (let i = 1; i <= 7; i += 1) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: `A${i}` });
      names.push(`A${i}`);
      ids.push(registerPlayer.player.id);
    }
    const input = { name: "Awards Cup", game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1, tournamentScoring: "sum-all-rounds" };
    const { createTournament } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`, { i: input });
    const id = createTournament.id;
    for (const player of ids) {
      await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: player });
      await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: id, p: player });
    }
    const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { boards { id seats { player { id name } } } } }`, { t: id });
    const board = seedRound.boards[0];
    const centres = [10, 8, 6, 4, 3, 2, 1];
    const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: centres[i] })) };
    await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`, { t: id, b: board.id, r: result });
    const austria = board.seats[0].player.name;
    const france = board.seats[2].player.name;

    for (const [label, device, award] of /** @type {const} */ ([["Phone", PHONE, "Best Diplomat"], ["Desktop", DESKTOP, "Best Stab"]])) {
      await test.step(`${label}: the director gives "${award}" for France`, async () => {
        const admin = await signIn(await newContext(device), ADMIN);
        await admin.goto(`/tournaments/${id}`);
        const section = admin.getByRole("region", { name: "Best countries" });
        await expect(section.getByRole("listitem").filter({ hasText: "Best Austria:" })).toContainText(`${austria} — `);
        let actions = 0;
        await section.getByLabel("Award", { exact: true }).fill(award);
        await section.getByLabel("Player").selectOption({ label: france });
        await section.getByLabel("For the power").selectOption("France");
        actions += 3;
        await section.getByRole("button", { name: "Give award" }).click();
        actions += 1;
        await expect(section.locator("ul.awards")).toContainText(`${award} — ${france} (France)`);
        if (label === "Desktop") {
          await section.getByRole("button", { name: "Revoke award 1, Best Diplomat" }).click();
          actions += 1;
          await expect(section.locator("ul.awards li")).toHaveCount(1);
        }
        await checkPage(admin);
        console.log(`${label}: an award given${label === "Desktop" ? " and another revoked" : ""} in ${actions} actions`);
      });

      await test.step(`${label}: a spectator sees Best Country and the awards`, async () => {
        const spectator = await newContext(device);
        const page = await spectator.newPage();
        await page.goto(`/tournaments/${id}`);
        const section = page.getByRole("region", { name: "Best countries" });
        await expect(section.getByRole("listitem").filter({ hasText: "Best France:" })).toContainText(`${france} — `);
        await expect(section.locator("ul.awards")).toContainText(`${award} — ${france} (France)`);
        await expect(section.getByRole("button", { name: "Give award" })).toHaveCount(0);
        await checkPage(page);
        await page.goto(`/tournaments/${id}/kiosk`);
        // The projector's cycle ends with the best countries: step to them.
        await page.getByRole("button", { name: "Pause" }).click();
        const heading = page.getByRole("heading", { level: 2 });
        for (let step = 0; step < 40 && !/Best countries/.test(await heading.innerText()); step += 1) {
          await page.getByRole("button", { name: "Next view" }).click();
        }
        await expect(page.getByRole("heading", { name: "Best countries" })).toBeVisible();
        await expect(page.getByText(`Best Austria: ${austria} — `)).toBeVisible();
      });
    }

    await test.step("the server holds the award left standing", async () => {
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { awards { number name power } } }`, { id });
      expect(tournament.awards).toEqual([{ number: 2, name: "Best Stab", power: "France" }]);
    });

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
