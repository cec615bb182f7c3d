// @ts-check
// Walk-ins in the web app (docs/tournaments.md#walk-ins-and-bulk-entry), on a desktop and a
// 390 px phone: an appointed organiser opens the walk-ins page from their tournament, and
// 30 people are registered, entered and handed their sign-in tokens in at most 5 actions
// (counted: each click, fill, file choice and selection); a bad line is shown by its number
// and registers nobody; a name matching a registered player offers that player. No sideways
// scroll at 360 px, no serious or critical axe-core violation; every GraphQL document sent
// fits schema.graphql.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";

/** 30 names, the first `first` (a registered player's name written otherwise, if given).
 * @param {string} prefix @param {string} [first] */
function thirtyNames(prefix, first) {
  const names = Array.from({ length: 30 }, (_, i) => `${prefix} ${i + 1},${i % 3 === 0 ? 1000 + i : ""}`);
  if (first) names[0] = first;
  return `name,wdr\n${names.join("\n")}\n`;
}

test("an organiser registers and enters 30 walk-ins in at most 5 actions", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;
  try {
    const { registerPlayer: olive } = await server.gql(`mutation { registerPlayer(input: {name: "Olive"}) { token player { id } } }`);
    await server.gql(`mutation($id: ID!) { appointOrganiser(playerId: $id) { id } }`, { id: olive.player.id });
    const { registerPlayer: zoe } = await server.gql(`mutation { registerPlayer(input: {name: "Zoë Müller"}) { token player { id } } }`);
    /** @param {string} name */
    const create = async (name) => (await server.gql(
      `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
      { input: { name, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 2 } }, olive.token)).createTournament.id;
    /** The tournament's entrants' names, from the server. @param {string} id */
    const entrants = async (id) => (await server.gql(`query($id: ID!) { tournament(id: $id) { entrants { player { name } } } }`, { id }))
      .tournament.entrants.map((/** @type {any} */ e) => e.player.name);

    await test.step("desktop: a bad line registers nobody; an uploaded file, then one button (3 actions)", async () => {
      const id = await create("Desktop Open");
      const page = await signIn(await newContext(DESKTOP), olive.token);
      await page.goto(`/tournaments/${id}`);
      let actions = 0;
      await page.getByRole("link", { name: "Register and enter walk-ins" }).click();
      actions++;
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Walk-ins: Desktop Open");

      // A bad line first (not counted: the organiser's slip).
      await page.getByLabel("Names (paste)").fill("Ann\nBob,not-a-number\n");
      await page.getByRole("button", { name: "Check the list" }).click();
      await expect(page.getByRole("alert")).toContainText("Line 2: wdr:");
      await expect(page.getByRole("button", { name: "Register and enter 1 player" })).toBeDisabled();
      await page.getByLabel("Names (paste)").fill("");

      await page.getByLabel("Or a CSV file").setInputFiles({ name: "walk-ins.csv", mimeType: "text/csv", buffer: Buffer.from(thirtyNames("Desk")) });
      actions++;
      await expect(page.locator("table.walk-ins tbody tr")).toHaveCount(30);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole("button", { name: "Register and enter 30 players" }).click();
      actions++;
      await expect(page.getByRole("heading", { name: "Entered: 30 players" })).toBeVisible();
      await expect(page.locator("table.walked-in code.token")).toHaveCount(30);
      expect(actions).toBeLessThanOrEqual(5);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: resolve(shots, "walk-ins-desktop.png"), fullPage: true });

      expect(await entrants(id)).toHaveLength(30);
      // A token shown signs its player in.
      const row = page.locator('table.walked-in tr[data-player="Desk 7"]');
      const token = await row.locator("code.token").textContent();
      const { me } = await server.gql(`{ me { name } }`, {}, token ?? "");
      expect(me.name).toBe("Desk 7");
    });

    await test.step("phone: pasted (checked at once), the registered Zoë picked, one button, the QR sheet (5 actions)", async () => {
      const id = await create("Phone Open");
      const page = await signIn(await newContext(PHONE), olive.token);
      await page.goto(`/tournaments/${id}`);
      let actions = 0;
      await page.getByRole("link", { name: "Register and enter walk-ins" }).click();
      actions++;
      // Pasted: checked as soon as the typing stops.
      await page.getByLabel("Names (paste)").fill(thirtyNames("Phone", "zoe muller,77"));
      actions++;
      await expect(page.locator("table.walk-ins tbody tr")).toHaveCount(30);
      await expect(page.locator("#walk-ins-preview")).toContainText("1 name matches a registered player");
      await page.getByLabel("Line 2: zoe muller is").selectOption(zoe.player.id);
      actions++;
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole("button", { name: "Register and enter 30 players" }).click();
      actions++;
      await expect(page.getByRole("heading", { name: "Entered: 30 players" })).toBeVisible();
      await expect(page.locator('table.walked-in tr[data-player="Zoë Müller"]')).toContainText("entered");
      await expect(page.locator("table.walked-in code.token")).toHaveCount(29);
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: resolve(shots, "walk-ins-phone.png"), fullPage: true });
      // The sign-in QR codes, printed.
      await page.getByRole("link", { name: "Print sign-in QR codes for every entrant" }).click();
      actions++;
      await expect(page).toHaveURL(new RegExp(`/tournaments/${id}/sign-in-sheet$`));
      expect(actions).toBeLessThanOrEqual(5);
      const names = await entrants(id);
      expect(names).toHaveLength(30);
      expect(names[0]).toBe("Zoë Müller");
    });

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
