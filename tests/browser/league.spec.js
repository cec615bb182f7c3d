// @ts-check
// The web app's whole life cycle in Chromium against the real server: the admin registers
// players and creates a league, players join in their own browsers, results and a
// correction show up live, time travel shows the past, bad input is explained next to its
// field, an erased player shows as their pseudonym, no page logs a console error, no request leaves loopback, and every GraphQL
// document sent fits schema.graphql.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */

test("admin, players and auditors use a league end to end", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;

  /** The rows of a standings table as "rank name total". @param {import("@playwright/test").Locator} table */
  const rowsOf = async (table) =>
    (await table.locator("tbody tr").allInnerTexts()).map((row) => row.split("\t").slice(0, 3).join(" ").trim());
  /** The server's standings in the same form. @param {string} leagueId @param {number} [position] */
  const standingsNow = async (leagueId, position) => {
    const data = await server.gql(
      `query($id: ID!, $asOf: AsOf) { standings(leagueId: $id, asOf: $asOf) { rank total player { name } } }`,
      { id: leagueId, asOf: position === undefined ? null : { position } },
    );
    return data.standings.map((/** @type {any} */ s) => `${s.rank} ${s.player.name} ${s.total}`);
  };

  try {
    const names = ["Ann", "Bob", "Cid", "Dee"];
    /** @type {Record<string, string>} */
    const tokens = {};
    let leagueUrl = "";

    const adminContext = await newContext();
    const admin = await signIn(adminContext, ADMIN);

    await test.step("1. the admin registers four players and creates a league (k = 4, N = 4)", async () => {
      await expect(admin).toHaveURL(/\/admin$/);
      const register = admin.getByRole("form", { name: "Register a player" });
      for (const name of names) {
        await register.getByLabel("Name").fill(name);
        await register.getByRole("button", { name: "Register" }).click();
        const token = register.locator(`li[data-player="${name}"] code.token`);
        await expect(token).toHaveText(/^[0-9a-f]{32,}$/);
        tokens[name] = /** @type {string} */ (await token.textContent());
        await expect(register.getByRole("button", { name: `Copy ${name}'s token` })).toBeVisible();
      }
      const create = admin.getByRole("form", { name: "Create a league" });
      await expect(create.getByLabel("League size (N)")).toHaveValue("8");
      await create.getByLabel("Name").fill("Autumn Cup");
      await create.getByLabel("Game", { exact: true }).fill("Carcassonne");
      await create.getByLabel("Scoring system").selectOption("PLACEMENT");
      await create.getByLabel("Players per game (k)").fill("4");
      await create.getByLabel("League size (N)").fill("4");
      await create.getByLabel("Games per seat (s)").fill("1");
      await create.getByRole("button", { name: "Create league" }).click();
      await expect(admin).toHaveURL(/\/leagues\/[0-9a-f-]{36}$/);
      await expect(admin.getByRole("heading", { level: 1 })).toHaveText(/Autumn Cup\s*OPEN/);
      leagueUrl = new URL(admin.url()).pathname;
    });
    const leagueId = leagueUrl.split("/").pop() ?? "";

    // Someone watching the league page from the start, never reloading it.
    const watcherContext = await newContext();
    const watcher = await watcherContext.newPage();
    await watcher.goto(leagueUrl);
    await expect(watcher.locator(".live")).toHaveText("live");
    await watcher.evaluate(() => Object.assign(window, { notReloaded: true }));

    /** @type {Record<string, Page>} */
    const players = {};
    await test.step("2. four players join in their own browsers; the page turns RUNNING without a reload", async () => {
      for (const name of names) {
        const page = await signIn(await newContext(), tokens[name]);
        await expect(page).toHaveURL(/\/players\/[0-9a-f-]{36}$/);
        await page.goto(leagueUrl);
        await page.getByRole("button", { name: "Join league" }).click();
        players[name] = page;
        if (name !== "Dee") await expect(page.getByRole("button", { name: "Leave league" })).toBeVisible();
      }
      await expect(watcher.getByRole("heading", { level: 1 })).toHaveText(/RUNNING/);
      const { league } = await server.gql(`query($id: ID!) { league(id: $id) { games { number } } }`, { id: leagueId });
      expect(league.games.length).toBeGreaterThan(0);
      await expect(watcher.locator("table.games tbody tr")).toHaveCount(league.games.length);
      await expect(watcher.locator("table.games tbody tr").first()).toContainText("Ann");
      expect(await watcher.evaluate(() => /** @type {any} */ (window).notReloaded)).toBe(true);
    });

    const points = { Ann: "61", Bob: "52", Cid: "45", Dee: "38" };
    /** @type {string[]} */
    let beforeCorrection = [];
    await test.step("3. a player reports a result; the watcher's standings update live", async () => {
      const ann = players.Ann;
      await expect(ann.locator('tr[data-game="1"]').getByRole("link", { name: "Report result" })).toBeVisible();
      await ann.locator('tr[data-game="1"]').getByRole("link", { name: "Report result" }).click();
      for (const [name, value] of Object.entries(points)) {
        await ann.getByLabel(new RegExp(`^Points of .*, ${name}$`)).fill(value);
      }
      await ann.getByRole("button", { name: "Check the result" }).click();
      await ann.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(ann).toHaveURL(leagueUrl);
      beforeCorrection = await standingsNow(leagueId);
      expect(beforeCorrection[0]).toMatch(/^1 Ann [1-9]/);
      await expect.poll(() => rowsOf(watcher.locator("#standings table"))).toEqual(beforeCorrection);
      expect(await watcher.evaluate(() => /** @type {any} */ (window).notReloaded)).toBe(true);
      await expect(watcher.locator('tr[data-game="1"]')).toContainText("FINISHED");
    });

    const reason = "points of Ann and Bob were swapped";
    await test.step("4. the admin corrects it with a reason; the player page shows it; time travel shows the past", async () => {
      await admin.goto(`${leagueUrl}`);
      await admin.locator('tr[data-game="1"]').getByRole("link", { name: "Correct result" }).click();
      await expect(admin.getByLabel(/^Points of .*, Ann$/)).toHaveValue("61");
      await admin.getByLabel(/^Points of .*, Ann$/).fill("52");
      await admin.getByLabel(/^Points of .*, Bob$/).fill("61");
      await admin.getByLabel("Reason for the correction").fill(reason);
      await admin.getByRole("button", { name: "Check the result" }).click();
      await admin.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(admin).toHaveURL(leagueUrl);
      const after = await standingsNow(leagueId);
      expect(after).not.toEqual(beforeCorrection);
      await expect.poll(() => rowsOf(watcher.locator("#standings table"))).toEqual(after);

      const ann = players.Ann;
      await ann.getByRole("link", { name: "My page" }).click();
      await expect(ann.locator("tr.correction")).toContainText(`Corrected: ${reason}`);

      // The slider ends at the correction; one step back is the report before it.
      const slider = watcher.getByLabel("Log position");
      await expect(watcher.locator("#travel-event")).toContainText("corrected");
      await slider.focus();
      await watcher.keyboard.press("ArrowLeft");
      await expect(watcher.locator("#travel-event")).toContainText("Result of game 1 reported");
      await expect.poll(() => rowsOf(watcher.locator("#travel-standings table"))).toEqual(beforeCorrection);
      await watcher.screenshot({ path: resolve(shots, "league.png"), fullPage: true });

      await watcher.getByRole("link", { name: "Audit log" }).click();
      await expect(watcher.locator("table.audit")).toContainText("GameResultCorrected");
      const corrected = watcher.locator("table.audit tr", { hasText: "GameResultCorrected" });
      await expect(corrected).toContainText(`Result of game 1 corrected: ${reason}`);
      await expect(corrected).toContainText(/Ann: 52 game points → −\d+, total \d+/);
      await expect(watcher.locator("table.audit tr", { hasText: "GameFinished" })).toContainText(/Ann: 61 game points → \+\d+, total \d+/);
      await watcher.screenshot({ path: resolve(shots, "audit.png"), fullPage: true });
    });

    await test.step("5. bad input is explained next to its field and appends nothing", async () => {
      await admin.goto("/admin");
      const head = await server.head();
      const create = admin.getByRole("form", { name: "Create a league" });
      await create.getByLabel("Name").fill("Too many seats");
      await create.getByLabel("Scoring system").selectOption("PLACEMENT");
      await create.getByLabel("Players per game (k)").fill("9");
      await create.getByRole("button", { name: "Create league" }).click();
      const k = create.locator(".field", { has: admin.getByLabel("Players per game (k)") });
      await expect(k.locator(".field-error")).toContainText("2 to 8");
      await expect(create.getByLabel("Players per game (k)")).toHaveAttribute("aria-invalid", "true");
      await expect(create.locator(".form-error")).toBeHidden();
      expect(await server.head()).toBe(head);

      // A Diplomacy league of seven, set up over the API; Ann reports 35 centres.
      const ids = [];
      for (const name of ["Eve", "Fay", "Gus"]) {
        const data = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { player { id } } }`, { n: name });
        ids.push(data.registerPlayer.player.id);
      }
      const { players: all } = await server.gql(`{ players(first: 100) { nodes { id name } } }`);
      const { createLeague } = await server.gql(
        `mutation { createLeague(input: {name: "Spring Diplomacy", game: "Diplomacy", scoringSystem: BAF, playersPerGame: 7, size: 7, gamesPerSeat: 1}) { id } }`);
      for (const p of all.nodes) {
        await server.gql(`mutation($l: ID!, $p: ID!) { subscribeToLeague(leagueId: $l, playerId: $p) { status } }`, { l: createLeague.id, p: p.id });
      }
      const { league } = await server.gql(`query($id: ID!) { league(id: $id) { status games { id seats { player { name } } } } }`, { id: createLeague.id });
      expect(league.status).toBe("RUNNING");
      const ann = players.Ann;
      await ann.goto(`/games/${league.games[0].id}`);
      const centres = ann.getByLabel(/^Supply centres of /);
      await expect(centres).toHaveCount(7);
      for (const [i, value] of ["5", "4", "35", "3", "2", "1", "0"].entries()) await centres.nth(i).fill(value);
      const before = await server.head();
      await ann.getByRole("button", { name: "Check the result" }).click();
      const third = centres.nth(2);
      await expect(third).toHaveAttribute("aria-invalid", "true");
      const errorId = (await third.getAttribute("aria-describedby")) ?? "";
      await expect(ann.locator(`[id="${errorId}"]`)).toContainText("more than the 34 centres");
      await expect(ann.locator(".form-error")).toBeHidden();
      expect(await ann.locator(".field-error:not([hidden])").count()).toBe(1);
      expect(await server.head()).toBe(before);
      const { game } = await server.gql(`query($id: ID!) { game(id: $id) { status } }`, { id: league.games[0].id });
      expect(game.status).toBe("SCHEDULED");
    });

    await test.step("6. an erased player shows as their pseudonym in the standings and the audit log", async () => {
      const { players: all } = await server.gql(`{ players(first: 100) { nodes { id name } } }`);
      const cid = all.nodes.find((/** @type {any} */ p) => p.name === "Cid");
      const before = await standingsNow(leagueId);
      const { erasePlayer } = await server.gql(
        `mutation($p: ID!) { erasePlayer(playerId: $p, reason: "asked by email") { name erased } }`, { p: cid.id });
      const pseudonym = `Erased player ${cid.id.replaceAll("-", "").slice(-8)}`;
      expect(erasePlayer).toEqual({ name: pseudonym, erased: true });
      // Same ranks and totals; only the name changed.
      expect(await standingsNow(leagueId)).toEqual(before.map((row) => row.replace(" Cid ", ` ${pseudonym} `)));
      await watcher.goto(leagueUrl);
      await expect(watcher.locator("#standings table")).toContainText(pseudonym);
      await expect(watcher.locator("#standings table")).not.toContainText("Cid");
      await watcher.getByRole("link", { name: "Audit log" }).click();
      await expect(watcher.locator("table.audit tr", { hasText: "GameFinished" })).toContainText(`${pseudonym}: 45 game points`);
      await expect(watcher.locator("table.audit")).not.toContainText("Cid");
      await watcher.screenshot({ path: resolve(shots, "audit-erased.png"), fullPage: true });
    });

    await test.step("readable at phone width", async () => {
      const phone = await (await newContext({ viewport: { width: 375, height: 740 } })).newPage();
      await phone.goto(leagueUrl);
      await expect(phone.locator("#standings table")).toBeVisible();
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await phone.screenshot({ path: resolve(shots, "league-phone.png"), fullPage: true });
    });

    await test.step("GraphiQL loads from the server itself", async () => {
      const page = await watcherContext.newPage();
      await page.goto("/graphiql");
      await expect(page.locator(".graphiql-container")).toBeVisible();
    });

    await test.step("a player replaces their token: the old one is refused, the page keeps working", async () => {
      const dee = players.Dee;
      const deeId = (await server.gql("{ me { id } }", {}, tokens.Dee)).me.id;
      await dee.goto(`/players/${deeId}`);
      await dee.getByRole("button", { name: "Replace my token" }).click();
      const fresh = (await dee.locator("#new-token code.token").textContent())?.trim() ?? "";
      expect(fresh).toMatch(/\S{20,}/);
      expect(fresh).not.toBe(tokens.Dee);
      await expect(server.gql("{ me { id } }", {}, tokens.Dee)).rejects.toThrow(/UNAUTHENTICATED/);
      expect((await server.gql("{ me { id } }", {}, fresh)).me.id).toBe(deeId);
      // The browser's session is its own credential: it stays signed in after a reload.
      await dee.reload();
      await expect(dee.locator("#nav .who")).toContainText("Dee");
    });

    await test.step("6. no console error on any page, no request off loopback, every document fits the schema", async () => {
      harness.verify(8);
    });
  } finally {
    await harness.tearDown();
  }
});
