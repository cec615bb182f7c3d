// @ts-check
/** @file Getting in and staying in (docs/sign-in.md), as an organiser and players would, on a
 * 390 px phone and a desktop: the organiser prints the tournament's sheet of sign-in QR codes;
 * a player opens their code on a phone, is signed in on the tournament's page, closes the
 * browser, comes back still signed in and checks in; from another device they sign out
 * everywhere and the phone is signed out; a cross-site form carrying the cookie is refused
 * and appends nothing. Actions are counted and printed. */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect, chromium } from "@playwright/test";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE, DESKTOP } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */

/** A phone browser whose profile (cookies included) lives in `dir`, as a phone keeps it
 * between visits. @param {string} dir @param {string} baseURL */
function phoneBrowser(dir, baseURL) {
  return chromium.launchPersistentContext(dir, {
    ...PHONE,
    baseURL,
    headless: true,
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}

/** No serious accessibility problem and no sideways scroll at 360 px. @param {Page} page */
async function pageIsUsable(page) {
  expect(await accessibilityProblems(page)).toEqual([]);
  const width = page.viewportSize();
  await page.setViewportSize({ width: 360, height: width?.height ?? 800 });
  expect(await sidewaysScroll(page)).toBe(0);
  if (width) await page.setViewportSize(width);
}

test("a printed QR code signs a player in on their phone for good, until they sign out everywhere", async ({ browser }, info) => {
  const env = await setUp(browser, info);
  if (!env) return;
  const { server, newContext, signIn } = env;
  const profile = mkdtempSync(join(tmpdir(), "league-phone-"));
  try {
    const names = ["Ada Byron", "Bea Cole", "Cy Dunn"];
    /** @type {{ id: string, token: string }[]} */
    const players = [];
    for (const name of names) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      players.push({ id: registerPlayer.player.id, token: registerPlayer.token });
    }
    const { createTournament } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`,
      { i: { name: "Club Cup", game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1 } });
    const tournamentId = createTournament.id;
    for (const player of players) {
      await server.gql(`mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: tournamentId, p: player.id });
    }

    /** @type {string[]} */
    const links = [];
    await test.step("the organiser prints the sheet of sign-in codes: three actions", async () => {
      const organiser = await signIn(await newContext(DESKTOP), "browser-tests-admin-token");
      await organiser.goto(`/tournaments/${tournamentId}`);
      let actions = 0;
      await organiser.getByRole("link", { name: /Sign-in QR codes for every entrant/ }).click();
      actions += 1;
      await organiser.getByRole("button", { name: "Make 3 sign-in codes" }).click();
      actions += 1;
      const cards = organiser.locator(".sheet-card");
      await expect(cards).toHaveCount(3);
      await expect(cards.first()).toContainText(names[0]);
      await pageIsUsable(organiser);
      // The printed page: the cards alone, three across.
      await organiser.emulateMedia({ media: "print" });
      await expect(organiser.locator("header.top, .top").first()).toBeHidden();
      await expect(organiser.getByRole("button", { name: "Print" })).toBeHidden();
      await expect(cards.nth(2)).toBeVisible();
      await organiser.emulateMedia({ media: "screen" });
      actions += 1; // Print
      for (const link of await cards.locator("a.sheet-link").all()) links.push(/** @type {string} */ (await link.getAttribute("href")));
      expect(links).toHaveLength(3);
      console.log(`[sign-in] organiser: sheet of 3 sign-in codes printed in ${actions} actions`);
    });

    const tournamentPath = `/tournaments/${tournamentId}`;
    await test.step("a player scans their code on a phone: signed in on the tournament's page, one action", async () => {
      const phone = await phoneBrowser(profile, server.base);
      const page = await phone.newPage();
      await page.goto(links[0]); // scanning the code opens it: the only action
      await expect(page).toHaveURL(new RegExp(`${tournamentPath}$`));
      await expect(page.locator("#nav .who")).toContainText(names[0]);
      expect(page.url()).not.toContain("#");
      await pageIsUsable(page);
      // The code works once.
      const again = await phone.newPage();
      await again.goto(links[0]);
      await expect(again.getByRole("heading", { level: 1 })).toHaveText("This sign-in link does not work");
      await phone.close();
      console.log("[sign-in] player, new phone: signed in with 1 action (scan)");
    });

    await test.step("the next day the phone is still signed in and checks in: no action to sign in", async () => {
      const phone = await phoneBrowser(profile, server.base);
      const page = await phone.newPage();
      await page.goto(tournamentPath);
      await expect(page.locator("#nav .who")).toContainText(names[0]);
      const checkIn = page.getByRole("form", { name: "Check in for round 1" });
      await checkIn.getByRole("button", { name: "Check in" }).click();
      await expect(page.getByRole("form", { name: "Check in for round 1" }).locator(".check-in-status")).toContainText("You are checked in");
      console.log("[sign-in] player, returning: 0 actions to sign in");

      await phone.close();
    });

    await test.step("a cross-site form carrying the session cookie is refused and appends nothing", async () => {
      // Not a watched context: the refused request is logged in the console, as it should be.
      const own = await browser.newContext({ ...DESKTOP, baseURL: server.base });
      await signIn(own, players[2].token);
      const head = await server.head();
      const attacker = await own.newPage();
      await attacker.setContent(`<form method="POST" action="${server.base}/graphql" enctype="text/plain">
        <input name='{"query":"mutation { rotateToken { token } }","x":"' value='"}'></form>`);
      const answer = attacker.waitForResponse(`${server.base}/graphql`);
      await attacker.evaluate(() => /** @type {HTMLFormElement} */ (document.querySelector("form")).submit());
      expect((await answer).status()).toBe(415);
      expect(await server.head()).toBe(head);
      await own.close();
    });

    await test.step("from a laptop the player signs out everywhere; the phone is signed out", async () => {
      const laptop = await signIn(await newContext(DESKTOP), players[0].token);
      await laptop.goto(`/players/${players[0].id}`);
      await expect(laptop.locator("#devices li")).toHaveCount(2);
      await pageIsUsable(laptop);
      laptop.once("dialog", (dialog) => void dialog.accept());
      await laptop.getByRole("button", { name: "Sign out everywhere" }).click();
      await expect(laptop).toHaveURL(/\/signin$/);
      const phone = await phoneBrowser(profile, server.base);
      const page = await phone.newPage();
      await page.goto(tournamentPath);
      await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
      await phone.close();
    });

    await test.step("a signed-in player signs their other device in with a code from their page", async () => {
      const laptop = await signIn(await newContext(DESKTOP), players[1].token);
      await laptop.goto(`/players/${players[1].id}`);
      await laptop.getByRole("button", { name: "Sign in another device" }).click();
      const link = laptop.locator("#device-link a");
      await expect(laptop.locator("#device-link img.qr")).toBeVisible();
      const phone = await newContext(PHONE);
      const page = await phone.newPage();
      await page.goto(/** @type {string} */ (await link.getAttribute("href")));
      await expect(page.locator("#nav .who")).toContainText(names[1]);
      await expect(page).toHaveURL(new RegExp(`/players/${players[1].id}$`));
    });
    env.verify(5);
  } finally {
    rmSync(profile, { recursive: true, force: true });
    await env.tearDown();
  }
});
