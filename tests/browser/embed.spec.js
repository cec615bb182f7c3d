// @ts-check
// The feeds in Chromium against the real server: a club's page on another origin (a second
// loopback port) shows a league's standings widget in an iframe, which updates live when a
// result is reported through the API; the app's own pages refuse to be framed; a player gets
// their calendar address on their page and it serves their games; the league page links to
// its downloads.
import { createServer } from "node:http";
import { test, expect } from "@playwright/test";
import { setUp } from "./harness.js";

/**
 * A club's site on its own loopback port (another origin than the league server): `/` is a
 * page framing `src`.
 * @param {string} src
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
async function clubSite(src) {
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><title>Club</title></head><body>
<h1>Our club</h1><iframe title="League standings" src="${src}" width="600" height="400"></iframe></body></html>`);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

test("a club embeds live standings; calendars and downloads", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;
  /** @type {{ close: () => Promise<void> }[]} */
  const sites = [];
  try {
    /** @param {string} name */
    const register = async (name) => (await server.gql(
      `mutation($name: String!) { registerPlayer(input: { name: $name }) { player { id } token } }`, { name })).registerPlayer;
    const ann = await register("Ann");
    const bob = await register("Bob");
    const { createLeague } = await server.gql(
      `mutation { createLeague(input: { name: "Club League", game: "Go", scoringSystem: PLACEMENT, playersPerGame: 2, size: 2, gamesPerSeat: 1 }) { id } }`);
    const leagueId = createLeague.id;
    for (const p of [ann, bob]) {
      await server.gql(`mutation($l: ID!) { subscribeToLeague(leagueId: $l) { id } }`, { l: leagueId }, p.token);
    }
    const { league } = await server.gql(`query($id: ID!) { league(id: $id) { games { id seats { player { id } } } } }`, { id: leagueId });

    await test.step("the widget in another origin's iframe follows a result reported through the API", async () => {
      const site = await clubSite(`${server.base}/embed/leagues/${leagueId}`);
      sites.push(site);
      expect(new URL(site.url).origin).not.toBe(new URL(server.base).origin);
      const page = await (await newContext()).newPage();
      await page.goto(site.url);
      const widget = page.frameLocator("iframe[title='League standings']");
      await expect(widget.getByRole("heading", { level: 1 })).toContainText("Club League");
      await expect(widget.locator(".live")).toHaveText("live");
      await expect(widget.locator("table.standings tbody tr")).toHaveCount(2);
      await expect(widget.locator("table.standings tbody tr").first()).toContainText("0");
      // No app chrome in the widget: no navigation, no sign-in.
      await expect(widget.locator("header.top")).toHaveCount(0);

      const game = league.games[0];
      const [first, second] = game.seats.map((/** @type {any} */ s) => s.player.id);
      await server.gql(
        `mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }`,
        { g: game.id, r: { placement: [{ playerId: first, points: 30 }, { playerId: second, points: 10 }] } },
        ann.token);
      const winner = first === ann.player.id ? "Ann" : "Bob";
      await expect(widget.locator("table.standings caption")).toContainText("after position");
      await expect(widget.locator("table.standings tbody tr").first()).toContainText(winner);
      await expect(widget.locator("table.standings tbody tr").first().locator("td.total")).not.toHaveText("0");
      await page.screenshot({ path: `${shots}/embed-club-page.png`, fullPage: true });
    });

    await test.step("the app's own pages refuse to be framed by another origin", async () => {
      const site = await clubSite(`${server.base}/leagues/${leagueId}`);
      sites.push(site);
      // A context of its own: the browser's refusal is logged as a console error, which
      // the harness counts against every watched page.
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const framed = page.waitForResponse((r) => r.url() === `${server.base}/leagues/${leagueId}`);
        await page.goto(site.url);
        const response = await framed;
        expect(response.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
        expect(response.headers()["x-frame-options"]).toBe("DENY");
        await expect.poll(() => page.frames().length).toBe(2);
        await expect.poll(() => page.frames()[1].evaluate(() => document.querySelector("#main") !== null).catch(() => false), { timeout: 5_000 }).toBe(false);
      } finally {
        await context.close();
      }
    });

    await test.step("a player gets their calendar address, which serves their games", async () => {
      const page = await signIn(await newContext(), ann.token);
      await page.goto(`/players/${ann.player.id}`);
      await page.getByRole("button", { name: "Get my calendar address" }).click();
      const address = page.locator("#calendar-feed code.feed");
      await expect(address).toHaveText(/\/calendar\/[0-9a-f]{96}\.ics$/);
      const url = /** @type {string} */ (await address.textContent());
      expect(new URL(url).origin).toBe(new URL(server.base).origin);
      const response = await fetch(url);
      expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      const text = await response.text();
      expect(text).toContain("BEGIN:VCALENDAR");
      expect(text).toContain(`UID:game-${league.games[0].id}@league`);
      await page.reload();
      await expect(page.getByRole("button", { name: "Get a new calendar address" })).toBeVisible();
    });

    await test.step("the league page links to its downloads", async () => {
      const page = await (await newContext()).newPage();
      await page.goto(`/leagues/${leagueId}`);
      const link = page.getByRole("link", { name: "Results (CSV)" });
      await expect(link).toHaveAttribute("href", `/export/leagues/${leagueId}.csv`);
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      expect(download.suggestedFilename()).toBe("club-league-results.csv");
    });

    harness.verify(4);
  } finally {
    for (const site of sites) await site.close();
    await harness.tearDown();
  }
});
