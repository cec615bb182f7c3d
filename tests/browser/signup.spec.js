// @ts-check
// Sign-up in the web app (docs/operations.md#sign-up): on a closed site (the default) the
// page says who registers people; on an invite-only site an organiser issues an invite link
// on the walk-ins page, a person opens it on a 390 px phone, signs up with their name and is
// signed in; a wrong code and, once the organiser revoked it, the link itself are refused
// with the reason shown. No sideways scroll at 360 px, no serious or critical axe-core
// violation; every GraphQL document sent fits schema.graphql.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE } from "./harness.js";

test("a closed site lets nobody sign up", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  try {
    const page = await (await harness.newContext(PHONE)).newPage();
    await page.goto("/signup");
    await expect(page.locator("main")).toContainText("does not let people sign up themselves");
    await expect(page.getByRole("button", { name: "Sign up" })).toHaveCount(0);
    expect(await accessibilityProblems(page)).toEqual([]);
  } finally {
    await harness.tearDown();
  }
});

test("an invite link signs a person up on their phone until it is revoked", async ({ browser }, info) => {
  const harness = await setUp(browser, info, { LEAGUE_SIGN_UP: "invite" });
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;
  try {
    const { registerPlayer: olive } = await server.gql(`mutation { registerPlayer(input: {name: "Olive"}) { token player { id } } }`);
    await server.gql(`mutation($id: ID!) { appointOrganiser(playerId: $id) { id } }`, { id: olive.player.id });
    const { createTournament } = await server.gql(
      `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
      { input: { name: "Invite Open", game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 2 } }, olive.token);

    const organiser = await signIn(await newContext(), olive.token);
    await organiser.goto(`/tournaments/${createTournament.id}/walk-ins`);
    await organiser.getByRole("button", { name: "Issue an invite link" }).click();
    const link = (await organiser.locator("#invite-h ~ div code.token").textContent()) ?? "";
    expect(link).toMatch(/\/signup\?invite=[0-9a-f]{64}$/);

    await test.step("a wrong code is refused, the reason shown", async () => {
      const page = await (await newContext(PHONE)).newPage();
      await page.goto("/signup?invite=wrong");
      await page.getByLabel("Your name").fill("Mallory");
      await page.getByRole("button", { name: "Sign up" }).click();
      await expect(page.locator("main")).toContainText("not known");
      await expect(page.getByRole("button", { name: "Sign out", exact: true })).toHaveCount(0);
    });

    await test.step("the link signs Newt up and in on the phone", async () => {
      const page = await (await newContext(PHONE)).newPage();
      await page.goto(new URL(link).pathname + new URL(link).search);
      await expect(page.getByLabel("Invite code")).toHaveValue(new URL(link).searchParams.get("invite") ?? "");
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByLabel("Your name").fill("Newt");
      await page.getByRole("button", { name: "Sign up" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Newt");
      await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: resolve(shots, "signup-phone.png"), fullPage: true });
      const token = await page.locator("code.token").textContent();
      const { me } = await server.gql(`{ me { name } }`, {}, token ?? "");
      expect(me.name).toBe("Newt");
    });

    await test.step("revoked, the link signs nobody up", async () => {
      await organiser.getByRole("button", { name: "Revoke" }).click();
      await expect(organiser.locator("main")).toContainText("The invite is revoked.");
      const page = await (await newContext(PHONE)).newPage();
      await page.goto(new URL(link).pathname + new URL(link).search);
      await page.getByLabel("Your name").fill("Late");
      await page.getByRole("button", { name: "Sign up" }).click();
      await expect(page.locator("main")).toContainText("revoked");
    });

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(3);
    });
  } finally {
    await harness.tearDown();
  }
});
