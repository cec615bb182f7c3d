// @ts-check
// Passkeys (docs/sign-in.md#passkeys) in Chromium's virtual authenticator (DevTools protocol
// `WebAuthn` domain): a player signed in on a desktop adds a passkey on their own page; in a
// fresh phone context (390 px) holding the same credential, the sign-in page's one button
// signs them in with nothing typed, and they act as themselves (remove the passkey from
// there); the removed passkey signs in no more. Passkeys need a domain name, so the pages
// are opened at `localhost`, not 127.0.0.1.
import { test, expect } from "@playwright/test";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */

/** A virtual platform authenticator (resident keys, user verification) on `page`'s browser.
 * @param {Page} page */
async function authenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
}

test("a passkey added on one device signs its player in on a fresh one", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn, verify } = harness;
  const base = server.base.replace("127.0.0.1", "localhost");
  try {
    const { registerPlayer: ann } = await server.gql(
      `mutation { registerPlayer(input: { name: "Ann" }) { player { id } token } }`);
    const own = `/players/${ann.player.id}`;
    /** @type {any[]} */
    let credentials = [];

    await test.step("signed in on a desktop, Ann adds a passkey on her own page", async () => {
      const page = await signIn(await newContext({ ...DESKTOP, baseURL: base }), ann.token);
      const { cdp, authenticatorId } = await authenticator(page);
      await page.goto(own);
      await expect(page.getByRole("heading", { name: "Your passkeys" })).toBeVisible();
      await expect(page.locator("#passkey-list")).toContainText("No passkey yet.");
      await page.getByLabel("Passkey name").fill("My laptop");
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await expect(page.locator("#passkey-list table")).toContainText("My laptop");
      expect(await accessibilityProblems(page)).toEqual([]);
      ({ credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId }));
      expect(credentials).toHaveLength(1);
      expect(credentials[0].isResidentCredential).toBe(true);
      expect(credentials[0].rpId).toBe("localhost");
    });

    await test.step("on a fresh phone holding the passkey, one button signs her in", async () => {
      const phone = await (await newContext({ ...PHONE, baseURL: base })).newPage();
      const { cdp, authenticatorId } = await authenticator(phone);
      for (const credential of credentials) await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
      await phone.goto("/signin");
      expect(await accessibilityProblems(phone)).toEqual([]);
      await phone.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(phone)).toBeLessThanOrEqual(0);
      await phone.setViewportSize(PHONE.viewport);
      await phone.getByRole("button", { name: "Sign in with a passkey" }).click();
      await expect(phone.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
      await phone.goto(own);
      await expect(phone.getByRole("heading", { level: 1 })).toHaveText("Ann");
      await expect(phone.locator("#passkey-list table")).toBeVisible();
      expect(await accessibilityProblems(phone)).toEqual([]);
      await phone.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(phone)).toBeLessThanOrEqual(0);
      await phone.setViewportSize(PHONE.viewport);

      // Acting as Ann: she removes the passkey from the phone.
      await expect(phone.locator("#passkey-list table")).toContainText("My laptop");
      await phone.getByRole("button", { name: "Remove passkey My laptop" }).click();
      await expect(phone.locator("#passkey-list")).toContainText("No passkey yet.");
      const { passkeys } = await server.gql(`query($p: ID) { passkeys(playerId: $p) { id } }`, { p: ann.player.id });
      expect(passkeys).toEqual([]);
    });

    await test.step("the removed passkey signs in no more", async () => {
      // Not a watched context: the refused sign-in's 401 is logged by the browser, as it should be.
      const context = await browser.newContext({ ...DESKTOP, baseURL: base });
      try {
        const page = await context.newPage();
        const { cdp, authenticatorId } = await authenticator(page);
        for (const credential of credentials) await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
        await page.goto("/signin");
        await page.getByRole("button", { name: "Sign in with a passkey" }).click();
        await expect(page.getByRole("alert")).toContainText("not known here");
        await expect(page.getByRole("button", { name: "Sign out", exact: true })).toHaveCount(0);
      } finally {
        await context.close();
      }
    });

    verify(2);
  } finally {
    await harness.tearDown();
  }
});
