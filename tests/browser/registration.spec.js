// @ts-check
// A tournament's registration controls in the web app (docs/tournaments.md#registration), on a
// desktop and a 390 px phone: the director creates a tournament capped at two entrants whose
// entries need approval; players ask to enter (one on the phone); the director approves, so
// the third waits on the waitlist; on the phone the entrant's withdrawal is not the first
// control under the title and asks to confirm (the first press appends nothing); the
// withdrawal promotes the first on the waitlist; the director undoes it. No sideways scroll
// at 360 px, no serious or critical axe-core violation; every GraphQL document sent fits
// schema.graphql.
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp } from "./harness.js";

/** axe-core's script, injected into a page to check it. */
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The tournament page's parts this flow changes: the entry under the title, the
 * registration section and the entrants. */
const REGISTRATION_PARTS = ["main > h1", "main > .actions", "#registration", "table.entrants"];

/** The serious and critical axe-core violations in the page's parts `within` (selectors),
 * each as "rule: targets". @param {import("@playwright/test").Page} page @param {string[]} within */
async function seriousViolations(page, within) {
  await page.addScriptTag({ path: AXE });
  const context = { include: within.map((selector) => [selector]) };
  const found = await page.evaluate((include) => /** @type {any} */ (window).axe.run(include, { resultTypes: ["violations"] }), context);
  return found.violations
    .filter((/** @type {any} */ v) => v.impact === "serious" || v.impact === "critical")
    .map((/** @type {any} */ v) => `${v.id}: ${v.nodes.map((/** @type {any} */ n) => n.target.join(" ")).join(", ")}`);
}

test("a capped tournament with approval: requests, the waitlist, a confirmed withdrawal and its undoing", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;
  try {
    /** @type {Record<string, { id: string, token: string }>} */
    const players = {};
    for (const name of ["Pia", "Quinn", "Rex"]) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      players[name] = { id: registerPlayer.player.id, token: registerPlayer.token };
    }
    /** The server's view: active entrants and the waitlist, by name. @param {string} id */
    const standing = async (id) => {
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) {
        entrants { withdrawnAfterRound player { name } } waitlist { name } entryRequests { name } } }`, { id });
      return {
        active: tournament.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound === null).map((/** @type {any} */ e) => e.player.name),
        waitlist: tournament.waitlist.map((/** @type {any} */ p) => p.name),
        requests: tournament.entryRequests.map((/** @type {any} */ p) => p.name),
      };
    };

    const admin = await signIn(await newContext(), ADMIN);
    let url = "";
    await test.step("the director creates a tournament capped at two, with approval", async () => {
      await admin.getByRole("link", { name: "Tournaments" }).click();
      const create = admin.getByRole("form", { name: "Create a tournament" });
      await create.getByLabel("Name", { exact: true }).fill("Spring Open");
      await create.getByLabel("Scoring system").selectOption("SQUARES");
      await create.getByLabel("Rounds").fill("2");
      await create.getByLabel("Most entrants").fill("2");
      await create.getByLabel("Organisers approve entries").check();
      expect(await seriousViolations(admin, ["fieldset.registration-fields"])).toEqual([]);
      await create.getByRole("button", { name: "Create tournament" }).click();
      await expect(admin).toHaveURL(/\/tournaments\/[0-9a-f-]{36}$/);
      url = new URL(admin.url()).pathname;
      await admin.getByRole("link", { name: "Tournaments" }).click();
      await expect(admin.locator("table.tournaments tr", { hasText: "Spring Open" })).toContainText("0 of 2");
      await admin.goto(url);
      const registration = admin.locator("#registration");
      await expect(registration).toContainText("0 of 2");
      await expect(registration).toContainText("the organisers approve each entry");
    });
    const id = url.split("/").pop() ?? "";

    const phone = await signIn(await newContext({ viewport: { width: 390, height: 844 } }), players.Pia.token);
    await test.step("on the phone, Pia asks to enter; Quinn and Rex ask too", async () => {
      await phone.goto(url);
      await phone.getByRole("button", { name: "Ask to enter" }).click();
      await expect(phone.getByText("Your entry request waits for the organisers' answer.")).toBeVisible();
      for (const name of ["Quinn", "Rex"]) {
        await server.gql(`mutation($t: ID!) { enterTournament(tournamentId: $t) { id } }`, { t: id }, players[name].token);
      }
      expect((await standing(id)).requests).toEqual(["Pia", "Quinn", "Rex"]);
    });

    await test.step("the director approves all three: the third waits on the waitlist", async () => {
      await admin.goto(url);
      const requests = admin.locator("table.entry-requests");
      await expect(requests.locator("tbody tr")).toHaveCount(3);
      for (const name of ["Pia", "Quinn", "Rex"]) {
        await admin.getByRole("button", { name: `Approve ${name}` }).click();
        await expect(requests.locator(`tr[data-player="${name}"]`)).toHaveCount(0);
      }
      await expect(admin.locator("ol.waitlist li")).toHaveText(["Rex"]);
      await expect(admin.locator("#registration")).toContainText("2 of 2");
      expect(await standing(id)).toEqual({ active: ["Pia", "Quinn"], waitlist: ["Rex"], requests: [] });
      await admin.screenshot({ path: resolve(shots, "registration-director.png"), fullPage: true });
      expect(await seriousViolations(admin, REGISTRATION_PARTS)).toEqual([]);
    });

    await test.step("on the phone, withdrawing is further down and asks to confirm", async () => {
      await phone.goto(url);
      await expect(phone.getByText("You are entered.")).toBeVisible();
      // The first control under the title is no withdrawal: it comes after the settings.
      const layout = await phone.evaluate(() => {
        const first = document.querySelector("main h1 ~ * :is(a[href], button, input, select)");
        const withdraw = [...document.querySelectorAll("main button")].find((b) => b.textContent === "Withdraw from tournament");
        const settings = document.querySelector('section[aria-labelledby="settings-h"]');
        return {
          first: first?.textContent ?? "",
          afterSettings: Boolean(withdraw && settings && settings.compareDocumentPosition(withdraw) & Node.DOCUMENT_POSITION_FOLLOWING),
        };
      });
      expect(layout.first).not.toMatch(/withdraw/i);
      expect(layout.afterSettings).toBe(true);
      const before = await server.gql(`query($id: ID!) { tournament(id: $id) { version } }`, { id });
      await phone.getByRole("button", { name: "Withdraw from tournament" }).click();
      await expect(phone.getByText("Withdraw from the tournament? You will not be seated again; your scores stay.")).toBeVisible();
      await expect(phone.getByRole("button", { name: "Cancel" })).toBeFocused();
      const after = await server.gql(`query($id: ID!) { tournament(id: $id) { version } }`, { id });
      expect(after.tournament.version).toBe(before.tournament.version);
      await phone.screenshot({ path: resolve(shots, "registration-confirm-phone.png"), fullPage: true });
      expect(await seriousViolations(phone, REGISTRATION_PARTS)).toEqual([]);
      await phone.getByRole("button", { name: "Yes, withdraw" }).click();
      await expect(phone.getByText("You are entered.")).toHaveCount(0);
      expect(await standing(id)).toEqual({ active: ["Quinn", "Rex"], waitlist: [], requests: [] });
    });

    await test.step("the director sees Rex promoted and undoes Pia's withdrawal", async () => {
      await admin.goto(url);
      await expect(admin.locator('table.entrants tr[data-player="Rex"]')).toContainText("in");
      await expect(admin.locator("ol.waitlist")).toHaveCount(0);
      await admin.getByRole("button", { name: "Undo Pia's withdrawal" }).click();
      await expect(admin.locator('table.entrants tr[data-player="Pia"]')).toContainText("in");
      await expect(admin.locator("#registration")).toContainText("3 of 2");
      expect((await standing(id)).active).toEqual(["Pia", "Quinn", "Rex"]);
      // The director's own withdrawal of an entrant asks to confirm too.
      await admin.getByRole("button", { name: "Withdraw Quinn" }).click();
      await admin.getByRole("button", { name: "Cancel" }).click();
      expect((await standing(id)).active).toEqual(["Pia", "Quinn", "Rex"]);
    });

    await test.step("the director closes registration; no sideways scroll at 360 px", async () => {
      await admin.getByRole("button", { name: "Close registration" }).click();
      await expect(admin.getByRole("button", { name: "Open registration" })).toBeVisible();
      await expect(admin.locator("#registration")).toContainText("no: registration is closed");
      await phone.setViewportSize({ width: 360, height: 740 });
      await phone.goto(url);
      await expect(phone.locator("#registration")).toContainText("no: registration is closed");
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(phone, REGISTRATION_PARTS)).toEqual([]);
    });

    harness.verify(5);
  } finally {
    await harness.tearDown();
  }
});
