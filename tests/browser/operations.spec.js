// @ts-check
// Every documented operation that had no page is done through the web app, in the roles
// that may, on a 390 px phone and on a desktop: the site admin appoints and dismisses an
// organiser and issues a sign-in link (People page), replaces and revokes a player's token,
// downloads a player's data (the access request) and erases a player (account page); an organiser adds co-organisers to
// their tournament and league (organisers page) and registers and removes a webhook for it
// (webhooks page); a player downloads and erases their own data.
// Each effect is checked through the API; each operation's action count is printed. Players,
// anonymous readers and other players see none of the controls they may not use. Axe finds
// no serious or critical violation on the new pages nor on GraphiQL, and no new page scrolls
// sideways at 360 px.
import { test, expect } from "@playwright/test";
import { setUp, accessibilityProblems, pageIsSound, PHONE, DESKTOP } from "./harness.js";
import { ADMIN } from "./server.js";

/** @typedef {import("@playwright/test").Page} Page */
/** @typedef {import("@playwright/test").Locator} Locator */

const DEVICES = /** @type {const} */ ([["phone", PHONE], ["desktop", DESKTOP]]);

/** Counts the reader's actions (clicks, fields filled, boxes ticked) per operation. */
function actionCounter() {
  let count = 0;
  /** @type {[string, number][]} */
  const done = [];
  return {
    /** @param {Locator} locator */
    click: async (locator) => { count += 1; await locator.click(); },
    /** @param {Locator} locator @param {string} value */
    fill: async (locator, value) => { count += 1; await locator.fill(value); },
    /** @param {Locator} locator */
    check: async (locator) => { count += 1; await locator.check(); },
    /** Closes an operation's count. @param {string} operation */
    record: (operation) => { done.push([operation, count]); count = 0; },
    print: (/** @type {string} */ label) => {
      // Before, each was done in GraphiQL only: open it, type the Authorization header, look
      // the id up with a query, run it, copy the id, type the mutation, run it (7 at least).
      for (const [operation, n] of done) console.log(`[${label}] ${operation}: 7+ actions in GraphiQL → ${n} in the web app`);
    },
  };
}

/** The page's main navigation. @param {Page} page */
const nav = (page) => page.getByRole("navigation", { name: "Main" });

for (const [label, device] of DEVICES) {
  test(`every documented operation has a page (${label})`, async ({ browser }, info) => {
    const harness = await setUp(browser, info);
    if (!harness) return;
    const { server, newContext, signIn } = harness;
    const acts = actionCounter();
    /** @param {string} name */
    const register = async (name) => (await server.gql(
      `mutation($name: String!) { registerPlayer(input: { name: $name }) { player { id } token } }`, { name })).registerPlayer;
    /** A GraphQL request's first error code (null when it succeeds). @param {string} query @param {Record<string, unknown>} variables @param {string} token */
    const refusal = async (query, variables, token) => {
      try {
        await server.gql(query, variables, token);
        return null;
      } catch (error) {
        return JSON.parse(String(/** @type {Error} */ (error).message))[0].extensions.code;
      }
    };
    const CREATE_TOURNAMENT = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`;
    /** @param {string} name */
    const tournamentInput = (name) => ({ input: { name, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 2 } });
    try {
      const olga = await register("Olga Organiser");
      const pat = await register("Pat Partner");
      const quinn = await register("Quinn Quill");
      const vera = await register("Vera Vanish");
      const sam = await register("Sam Self");
      await register("Rae Reader");
      const admin = await signIn(await newContext(device), ADMIN);

      await test.step("the admin appoints an organiser from the People page", async () => {
        await acts.click(nav(admin).getByRole("link", { name: "People" }));
        await expect(admin.getByRole("heading", { level: 1 })).toHaveText("People");
        await expect(admin.locator("table.people tbody tr")).toHaveCount(6);
        await acts.fill(admin.getByLabel("Find a player by name"), "olga");
        await acts.click(admin.getByRole("button", { name: "Search" }));
        await expect(admin.locator("table.people tbody tr")).toHaveCount(1);
        await acts.click(admin.getByRole("button", { name: "Appoint Olga Organiser organiser" }));
        await expect(admin.getByRole("button", { name: "Dismiss Olga Organiser as organiser" })).toBeVisible();
        acts.record("appointOrganiser");
        const { player } = await server.gql(`query($id: ID!) { player(id: $id) { isOrganiser } }`, { id: olga.player.id });
        expect(player.isOrganiser).toBe(true);
        await pageIsSound(admin);
      });

      const cup = (await server.gql(CREATE_TOURNAMENT, tournamentInput("Olga's Cup"), olga.token)).createTournament.id;
      const { createLeague } = await server.gql(
        `mutation { createLeague(input: { name: "Olga's League", game: "Go", scoringSystem: PLACEMENT, playersPerGame: 2, size: 2 }) { id } }`,
        {}, olga.token);

      await test.step("the organiser adds co-organisers to their tournament and their league", async () => {
        const page = await signIn(await newContext(device), olga.token);
        await page.goto(`/tournaments/${cup}`);
        await acts.click(page.getByRole("link", { name: "Organisers: add a co-organiser" }));
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Organisers of Olga's Cup");
        await acts.fill(page.getByLabel("Find a player by name"), "pat");
        await acts.click(page.getByRole("button", { name: "Search" }));
        await acts.click(page.getByRole("button", { name: "Add Pat Partner" }));
        await expect(page.locator("ul.organisers")).toContainText("Pat Partner");
        acts.record("addCoOrganiser (tournament)");
        await pageIsSound(page);
        const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { organisers { id } } }`, { id: cup });
        expect(tournament.organisers.map((/** @type {any} */ o) => o.id)).toContain(pat.player.id);

        await page.goto(`/leagues/${createLeague.id}`);
        await acts.click(page.getByRole("link", { name: "Organisers" }));
        await acts.fill(page.getByLabel("Find a player by name"), "quinn");
        await acts.click(page.getByRole("button", { name: "Search" }));
        await acts.click(page.getByRole("button", { name: "Add Quinn Quill" }));
        await expect(page.locator("ul.organisers")).toContainText("Quinn Quill");
        acts.record("addCoOrganiser (league)");
        const { league } = await server.gql(`query($id: ID!) { league(id: $id) { organisers { id } } }`, { id: createLeague.id });
        expect(league.organisers.map((/** @type {any} */ o) => o.id)).toContain(quinn.player.id);
      });

      await test.step("the organiser registers a webhook for their tournament (secret shown once) and removes it", async () => {
        const page = await signIn(await newContext(device), olga.token);
        await page.goto(`/tournaments/${cup}/organisers`);
        await acts.click(page.getByRole("link", { name: "Webhooks" }));
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks of Olga's Cup");
        // A public address given as an IP literal (a name must resolve); the tournament has no
        // result while the webhook exists, so nothing is ever sent to it.
        await acts.fill(page.getByLabel("Address (URL)"), "https://1.2.3.4/hooks/olga");
        await acts.click(page.getByRole("button", { name: "Register webhook" }));
        await expect(page.locator("main code.token")).toHaveText(/^\S{16,}$/);
        await expect(page.locator("table.webhooks tbody tr")).toHaveCount(1);
        acts.record("registerWebhook");
        await pageIsSound(page);
        const { webhooks } = await server.gql(`{ webhooks { url competitionIds status } }`, {}, olga.token);
        expect(webhooks).toEqual([{ url: "https://1.2.3.4/hooks/olga", competitionIds: [cup], status: "ACTIVE" }]);
        await acts.click(page.getByRole("button", { name: "Remove the webhook to https://1.2.3.4/hooks/olga" }));
        await acts.click(page.getByRole("button", { name: "Remove for good" }));
        await expect(page.locator("table.webhooks")).toHaveCount(0);
        acts.record("removeWebhook");
        expect((await server.gql(`{ webhooks { id } }`, {}, olga.token)).webhooks).toEqual([]);
        await page.close();
      });

      await test.step("the co-organiser directs the tournament; a player and an anonymous reader see no management", async () => {
        const patPage = await signIn(await newContext(device), pat.token);
        await patPage.goto(`/tournaments/${cup}`);
        await expect(patPage.locator("table.roll-call")).toBeVisible();
        await expect(nav(patPage).getByRole("link", { name: "People" })).toHaveCount(0);
        await patPage.close();
        const vera2 = await signIn(await newContext(device), vera.token);
        await vera2.goto(`/tournaments/${cup}/organisers`);
        await expect(vera2.locator("ul.organisers")).toContainText("Pat Partner");
        await expect(vera2.getByRole("heading", { name: "Add a co-organiser" })).toHaveCount(0);
        await pageIsSound(vera2);
        await vera2.goto(`/webhooks?competition=${cup}`);
        await expect(vera2.getByRole("heading", { name: "Register a webhook" })).toHaveCount(0);
        await vera2.goto(`/players/${pat.player.id}/account`);
        await expect(vera2.getByRole("button")).toHaveText(["Sign out"]);
        await vera2.close();
        const anonymous = await (await newContext(device)).newPage();
        await anonymous.goto("/people");
        await expect(anonymous.locator("main")).toContainText("This page is for the site admin.");
        await expect(anonymous.locator("main table")).toHaveCount(0);
        await anonymous.goto(`/leagues/${createLeague.id}/organisers`);
        await expect(anonymous.locator("ul.organisers")).toContainText("Quinn Quill");
        await expect(anonymous.getByRole("button", { name: "Search" })).toHaveCount(0);
      });

      await test.step("the admin dismisses the organiser, who can no longer create a tournament", async () => {
        await acts.click(nav(admin).getByRole("link", { name: "People" }));
        await acts.fill(admin.getByLabel("Find a player by name"), "olga");
        await acts.click(admin.getByRole("button", { name: "Search" }));
        await acts.click(admin.getByRole("button", { name: "Dismiss Olga Organiser as organiser" }));
        await expect(admin.getByRole("button", { name: "Appoint Olga Organiser organiser" })).toBeVisible();
        acts.record("dismissOrganiser");
        expect(await refusal(CREATE_TOURNAMENT, tournamentInput("Too late"), olga.token)).toBe("FORBIDDEN");
      });

      await test.step("the admin replaces a player's token (shown once), then revokes it", async () => {
        await acts.fill(admin.getByLabel("Find a player by name"), "pat");
        await acts.click(admin.getByRole("button", { name: "Search" }));
        await acts.click(admin.getByRole("link", { name: "Pat Partner" }));
        await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Account: Pat Partner");
        await pageIsSound(admin);
        await acts.click(admin.getByRole("button", { name: "Replace token" }));
        const fresh = (await admin.locator("#new-token code.token").textContent()) ?? "";
        expect(fresh).toMatch(/^[0-9a-f]{64}$/);
        acts.record("rotateToken (someone else's)");
        expect(await refusal(`{ me { id } }`, {}, pat.token)).toBe("UNAUTHENTICATED");
        expect((await server.gql(`{ me { id } }`, {}, fresh)).me.id).toBe(pat.player.id);
        await acts.click(admin.getByRole("button", { name: "Revoke token" }));
        await expect(admin.locator("#new-token")).toContainText("revoked");
        acts.record("revokeToken");
        expect(await refusal(`{ me { id } }`, {}, fresh)).toBe("UNAUTHENTICATED");
        const page = await (await newContext(device)).newPage();
        await page.goto("/signin");
        await page.getByLabel("Token").fill(fresh);
        await page.getByRole("button", { name: "Sign in", exact: true }).click();
        await expect(page.locator(".form-error, .field-error").filter({ hasText: /not known|sign in again/ })).toBeVisible();
      });

      await test.step("the admin issues a sign-in link from the People page; it signs the player in once", async () => {
        await acts.click(nav(admin).getByRole("link", { name: "People" }));
        await acts.fill(admin.getByLabel("Find a player by name"), "rae");
        await acts.click(admin.getByRole("button", { name: "Search" }));
        await acts.click(admin.getByRole("button", { name: "Sign-in link for Rae Reader" }));
        await expect(admin.locator("#sign-in-link img.qr")).toBeVisible();
        acts.record("issueSignInLink (admin)");
        await pageIsSound(admin);
        const url = /** @type {string} */ (await admin.locator("#sign-in-link a").getAttribute("href"));
        const phone = await (await newContext(device)).newPage();
        await phone.goto(url);
        await expect(nav(phone).getByText("Rae Reader")).toBeVisible();
        // Used up: the secret (the link's fragment) is refused the second time.
        const reused = await fetch(`${server.base}/auth/link`, {
          method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ secret: new URL(url).hash.slice(1) }),
        });
        expect(reused.status).toBe(401);
      });

      await test.step("the admin downloads a player's data (the access request) and erases another player", async () => {
        /** Opens a player's account page from the People page. @param {string} search @param {string} name */
        const open = async (search, name) => {
          await acts.click(nav(admin).getByRole("link", { name: "People" }));
          await acts.fill(admin.getByLabel("Find a player by name"), search);
          await acts.click(admin.getByRole("button", { name: "Search" }));
          await acts.click(admin.getByRole("link", { name }));
        };
        await open("quinn", "Quinn Quill");
        const download = admin.waitForEvent("download");
        await acts.click(admin.getByRole("button", { name: "Download their data" }));
        const file = await (await download).path();
        acts.record("personalData (anyone's, admin)");
        const { readFile } = await import("node:fs/promises");
        expect(await readFile(file, "utf8")).toContain("Quinn Quill");

        await open("vera", "Vera Vanish");
        // Refused in the page (not counted): no reason, then not confirmed.
        await admin.getByRole("button", { name: "Erase player" }).click();
        await expect(admin.getByText("Required.")).toBeVisible();
        await acts.fill(admin.getByLabel("Reason", { exact: true }), "asked by letter on 2026-11-27");
        await admin.getByRole("button", { name: "Erase player" }).click();
        await expect(admin.getByText("Tick this to confirm.")).toBeVisible();
        await acts.check(admin.getByLabel("This cannot be undone"));
        await acts.click(admin.getByRole("button", { name: "Erase player" }));
        await expect(admin.locator("main")).toContainText("personal data was erased");
        acts.record("erasePlayer (anyone, admin)");
        const { player } = await server.gql(`query($id: ID!) { player(id: $id) { erased name } }`, { id: vera.player.id });
        expect(player.erased).toBe(true);
        expect(player.name).not.toContain("Vera");
        expect(await refusal(`{ me { id } }`, {}, vera.token)).toBe("UNAUTHENTICATED");
      });

      await test.step("a player downloads their own data and erases themself", async () => {
        const page = await signIn(await newContext(device), sam.token);
        await acts.click(nav(page).getByRole("link", { name: "My page" }));
        await acts.click(page.getByRole("link", { name: "Your data and erasure" }));
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
        await expect(page.getByRole("button", { name: "Replace token" })).toHaveCount(0);
        await expect(page.getByRole("heading", { name: "Organiser" })).toHaveCount(0);
        await pageIsSound(page);
        const download = page.waitForEvent("download");
        await acts.click(page.getByRole("button", { name: "Download my data" }));
        const { readFile } = await import("node:fs/promises");
        expect(await readFile(await (await download).path(), "utf8")).toContain("Sam Self");
        acts.record("personalData (own)");
        await acts.fill(page.getByLabel("Reason", { exact: true }), "I am leaving the club");
        await acts.check(page.getByLabel("I understand this cannot be undone"));
        await acts.click(page.getByRole("button", { name: "Erase my data" }));
        await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
        acts.record("erasePlayer (own)");
        const { player } = await server.gql(`query($id: ID!) { player(id: $id) { erased } }`, { id: sam.player.id });
        expect(player.erased).toBe(true);
      });

      await test.step("GraphiQL has no serious or critical axe violation", async () => {
        const page = await (await newContext(device)).newPage();
        await page.goto("/graphiql");
        await expect(page.locator(".graphiql-container")).toBeVisible();
        await expect(page.locator(".graphiql-query-editor .CodeMirror")).toBeVisible();
        expect(await accessibilityProblems(page)).toEqual([]);
      });

      acts.print(label);
      harness.verify(10);
    } finally {
      await harness.tearDown();
    }
  });
}
