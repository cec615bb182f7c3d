// @ts-check
// Sign-in with an identity provider (docs/sign-in.md#identity-providers) in Chromium against
// the real server and a real OpenID Connect provider (the npm `oidc-provider` package, on
// its own loopback port, with its development log-in and consent pages): a player signed in
// with their token links their identity once on their own page; then, in a fresh browser
// context, they sign in through the provider from a page of the site and land back on that
// page, signed in. On a 390 px phone and on a desktop.
import { test, expect } from "@playwright/test";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";
import { startProvider, CLIENT_ID, CLIENT_SECRET } from "./oidc-provider.js";

const PROVIDER_NAME = "Club ID";

/**
 * Signs in at the provider's development pages as `login` and consents when asked.
 * @param {import("@playwright/test").Page} page @param {string} login
 */
async function signInAtProvider(page, login) {
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any password");
  await page.locator("button[type=submit]").click();
  // Consent is asked the first time this account meets the client.
  const consent = page.getByRole("button", { name: "Continue" });
  if (await consent.isVisible().catch(() => false)) await consent.click();
}

for (const [device, options] of /** @type {const} */ ([["phone", PHONE], ["desktop", DESKTOP]])) {
  test(`a player links their identity once, then signs in through the provider (${device})`, async ({ browser }, info) => {
    const provider = await startProvider();
    const harness = await setUp(browser, info, {
      LEAGUE_OIDC_ISSUER: provider.issuer,
      LEAGUE_OIDC_CLIENT_ID: CLIENT_ID,
      LEAGUE_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      LEAGUE_OIDC_NAME: PROVIDER_NAME,
    });
    if (!harness) return provider.stop();
    const { server, shots, newContext, signIn } = harness;
    try {
      const { registerPlayer: ann } = await server.gql(
        `mutation { registerPlayer(input: { name: "Ann" }) { player { id } token } }`);
      const { createLeague } = await server.gql(
        `mutation { createLeague(input: { name: "Club League", game: "Go", scoringSystem: PLACEMENT, playersPerGame: 2, size: 2, gamesPerSeat: 1 }) { id } }`);
      const login = `ann-${device}`;

      await test.step("signed in with her token, Ann links her identity on her own page", async () => {
        const page = await signIn(await newContext(options), ann.token);
        await page.goto(`/players/${ann.player.id}`);
        const before = await server.head();
        await page.getByRole("link", { name: `Link my ${PROVIDER_NAME} account` }).click();
        await signInAtProvider(page, login);
        await expect(page).toHaveURL(new RegExp(`/players/${ann.player.id}$`));
        await expect(page.getByText(`Your ${PROVIDER_NAME} account is linked`)).toBeVisible();
        expect(await server.head()).toBe(before + 1);
        await page.screenshot({ path: `${shots}/identity-linked-${device}.png`, fullPage: true });
        expect(await accessibilityProblems(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toBe(0);
      });

      await test.step("in a fresh context she signs in through the provider and lands where she was", async () => {
        const page = await (await newContext(options)).newPage();
        await page.goto(`/leagues/${createLeague.id}`);
        await expect(page.getByRole("heading", { level: 1 })).toContainText("Club League");
        await page.getByRole("link", { name: "Sign in", exact: true }).click();
        const withProvider = page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` });
        await expect(withProvider).toBeVisible();
        expect(await accessibilityProblems(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toBe(0);
        await withProvider.click();
        await signInAtProvider(page, login);
        await expect(page).toHaveURL(new RegExp(`/leagues/${createLeague.id}$`));
        await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
        await page.screenshot({ path: `${shots}/identity-signed-in-${device}.png`, fullPage: true });
      });

      await test.step("an identity linked to nobody is told to link it first, and nothing is appended", async () => {
        const page = await (await newContext(options)).newPage();
        const before = await server.head();
        await page.goto(`/auth/oidc/start?return=/`);
        await signInAtProvider(page, `stranger-${device}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign-in refused");
        await expect(page.getByRole("alert")).toContainText(`This ${PROVIDER_NAME} account is not linked to a player yet`);
        expect(await server.head()).toBe(before);
        expect(await accessibilityProblems(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toBe(0);
      });
    } finally {
      await harness.tearDown();
      await provider.stop();
    }
  });
}
