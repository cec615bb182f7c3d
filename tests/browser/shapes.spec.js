// @ts-check
// One league of each result shape, created through the admin's form (its system picker
// and k limits come from the server's catalogue), and a game of each reported through the
// player's result form: placement points; a Diplomacy concession with its solo year and an
// eliminated power's year; sides with ships left and a surrender. The scores the app shows
// are the server's; the ratings leaderboard and the player's page show the rated players.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */

test("every result shape is created and reported through the web app's forms", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;

  /** The server's scores of a game, by player name. @param {string} gameId */
  const serverScores = async (gameId) => {
    const { game } = await server.gql(`query($id: ID!) { game(id: $id) { status scores { score player { name } } } }`, { id: gameId });
    expect(game.status).toBe("FINISHED");
    return new Map(game.scores.map((/** @type {any} */ s) => [s.player.name, s.score]));
  };
  /** The scores the game page shows, by player name. @param {Page} page @param {string} gameId */
  const shownScores = async (page, gameId) => {
    await page.goto(`/games/${gameId}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("FINISHED");
    const rows = await page.locator("table", { has: page.locator("caption", { hasText: "Seats" }) }).locator("tbody tr").allInnerTexts();
    return new Map(rows.map((row) => {
      const [, name, shown] = row.split("\t");
      return [name.trim(), Number(shown.trim())];
    }));
  };
  /** The page shows the server's score for every player of the game. @param {Page} page @param {string} gameId */
  const expectServerScores = async (page, gameId) => {
    const expected = await serverScores(gameId);
    const shown = await shownScores(page, gameId);
    expect([...shown.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, score] of expected) expect(shown.get(name), name).toBeCloseTo(score, 3);
  };

  try {
    const names = ["Ava", "Ben", "Cat", "Dan", "Eli", "Fox", "Gil"];
    /** @type {Record<string, { id: string, token: string }>} */
    const players = {};
    for (const name of names) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      players[name] = { id: registerPlayer.player.id, token: registerPlayer.token };
    }
    const { scoringSystems } = await server.gql(`{ scoringSystems { system displayName } }`);

    const admin = await signIn(await newContext(), ADMIN);
    /**
     * Creates a league through the admin's form and fills it over the API.
     * @param {{ name: string, system: string, k: string, size: string, members: string[], kAfterPick?: string }} league
     */
    const createLeague = async ({ name, system, k, size, members, kAfterPick }) => {
      await admin.goto("/admin");
      const create = admin.getByRole("form", { name: "Create a league" });
      await create.getByLabel("Name").fill(name);
      await create.getByLabel("Players per game (k)").fill("4");
      await create.getByLabel("Scoring system").selectOption(system);
      // Picking a system keeps k within its limits.
      if (kAfterPick) await expect(create.getByLabel("Players per game (k)")).toHaveValue(kAfterPick);
      await create.getByLabel("Players per game (k)").fill(k);
      await create.getByLabel("League size (N)").fill(size);
      await create.getByLabel("Games per seat (s)").fill("1");
      await create.getByRole("button", { name: "Create league" }).click();
      await expect(admin).toHaveURL(/\/leagues\/[0-9a-f-]{36}$/);
      await expect(admin.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`${name}\\s*OPEN`));
      const leagueId = new URL(admin.url()).pathname.split("/").pop() ?? "";
      for (const member of members) {
        await server.gql(`mutation($l: ID!, $p: ID!) { subscribeToLeague(leagueId: $l, playerId: $p) { status } }`, { l: leagueId, p: players[member].id });
      }
      const { league } = await server.gql(
        `query($id: ID!) { league(id: $id) { status scoringSystem games { id number seats { player { name } } } } }`, { id: leagueId });
      expect(league.status).toBe("RUNNING");
      expect(league.scoringSystem).toBe(system);
      return league.games[0];
    };
    /** A page of the first seated player of a game, on the game's result form. @param {any} game */
    const reporter = async (game) => {
      const page = await signIn(await newContext(), players[game.seats[0].player.name].token);
      await page.goto(`/games/${game.id}`);
      await expect(page.getByRole("heading", { name: "Report the result" })).toBeVisible();
      return page;
    };
    /** The result form's control for a seated player. @param {Page} page @param {string} what @param {string} name */
    const control = (page, what, name) => page.getByLabel(new RegExp(`^${what} .*, ${name}$`));

    await test.step("1. the system picker offers every system the server scores, by its display name", async () => {
      const options = admin.getByRole("form", { name: "Create a league" }).getByLabel("Scoring system").locator("option");
      await expect(options).toHaveCount(scoringSystems.length);
      expect(await options.allInnerTexts()).toEqual(scoringSystems.map((/** @type {any} */ s) => s.displayName));
    });

    await test.step("2. placement: k = 4, points through the form", async () => {
      const game = await createLeague({ name: "Placement Cup", system: "PLACEMENT", k: "4", size: "4", members: names.slice(0, 4) });
      const page = await reporter(game);
      const points = [61, 52, 45, 38];
      for (const [i, seat] of game.seats.entries()) await control(page, "Points of", seat.player.name).fill(String(points[i]));
      await page.getByRole("button", { name: "Check the result" }).click();
      await page.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(page).toHaveURL(/\/leagues\//);
      await expectServerScores(page, game.id);
    });

    await test.step("3. Diplomacy (World Classic, k = 7): a concession with its solo year and an eliminated power", async () => {
      const game = await createLeague({ name: "World Classic Open", system: "WORLD_CLASSIC", k: "7", size: "7", members: names, kAfterPick: "7" });
      const page = await reporter(game);
      const seat = (/** @type {number} */ i) => game.seats[i].player.name;
      await expect(control(page, "Solo year of", seat(0))).toBeVisible();
      await expect(page.getByLabel(new RegExp(`^Year .*, ${seat(6)} was eliminated$`))).toBeVisible();
      const centres = [15, 6, 5, 4, 2, 2, 0];
      for (const [i, count] of centres.entries()) await control(page, "Supply centres of", seat(i)).fill(String(count));
      // Everybody else conceded to the first power: it alone is in the draw.
      await page.getByLabel(new RegExp(`, ${seat(0)} in the draw$`)).check();
      await control(page, "Solo year of", seat(0)).fill("1908");
      await page.getByLabel(new RegExp(`, ${seat(6)} eliminated$`)).check();
      await page.getByLabel(new RegExp(`^Year .*, ${seat(6)} was eliminated$`)).fill("1905");
      await page.screenshot({ path: resolve(shots, "result-diplomacy.png"), fullPage: true });
      await page.getByRole("button", { name: "Check the result" }).click();
      await page.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(page).toHaveURL(/\/leagues\//);
      const { game: reported } = await server.gql(
        `query($id: ID!) { game(id: $id) { result { ... on DiplomacyResult { entries { inDraw soloYear eliminatedYear player { name } } } } } }`, { id: game.id });
      const bySeat = new Map(reported.result.entries.map((/** @type {any} */ e) => [e.player.name, e]));
      expect(bySeat.get(seat(0))).toMatchObject({ inDraw: true, soloYear: 1908 });
      expect(bySeat.get(seat(6))).toMatchObject({ inDraw: false, eliminatedYear: 1905 });
      await expectServerScores(page, game.id);
      // A concession scores as a solo: the power conceded to takes the top score.
      const scores = await serverScores(game.id);
      expect(Math.max(...scores.values())).toBe(scores.get(seat(0)));
    });

    await test.step("4. teams (Wooden Ships, k = 4): sides, ships left and a surrender", async () => {
      const game = await createLeague({ name: "Wooden Ships League", system: "WOODEN_SHIPS", k: "4", size: "4", members: names.slice(0, 4) });
      const page = await reporter(game);
      const seat = (/** @type {number} */ i) => game.seats[i].player.name;
      await expect(page.getByLabel(/^Kills of /)).toHaveCount(0);
      const rows = [
        { side: "Side 1", points: "10", ships: "2" },
        { side: "Side 1", points: "8", ships: "1" },
        { side: "Side 2", points: "5", ships: "0" },
        { side: "Side 2", points: "3", ships: "0" },
      ];
      for (const [i, row] of rows.entries()) {
        await control(page, "Side of", seat(i)).selectOption({ label: row.side });
        await control(page, "Points of", seat(i)).fill(row.points);
        await control(page, "Ships left of", seat(i)).fill(row.ships);
      }
      await page.getByLabel(new RegExp(`, ${seat(3)} surrendered$`)).check();
      await page.screenshot({ path: resolve(shots, "result-teams.png"), fullPage: true });
      await page.getByRole("button", { name: "Check the result" }).click();
      await page.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(page).toHaveURL(/\/leagues\//);
      await expectServerScores(page, game.id);
    });

    await test.step("5. the ratings leaderboard and the player's page show the rated players", async () => {
      const page = await (await newContext()).newPage();
      await page.goto("/");
      await page.getByRole("link", { name: "Ratings" }).click();
      for (const [kind, slug] of [["PLACEMENT", "placement"], ["DIPLOMACY", "diplomacy"], ["WOODEN_SHIPS", "wooden-ships"]]) {
        await page.goto(`/ratings/${slug}`);
        const { ratings } = await server.gql(`query($k: GameKind!) { ratings(game: $k, first: 100) { nodes { rank player { name } } } }`, { k: kind });
        expect(ratings.nodes.length).toBeGreaterThan(0);
        const table = page.locator("table.leaderboard");
        await expect(table.locator("tbody tr")).toHaveCount(ratings.nodes.length);
        const shown = (await table.locator("tbody tr").allInnerTexts()).map((row) => row.split("\t").slice(0, 2).join(" ").trim());
        expect(shown).toEqual(ratings.nodes.map((/** @type {any} */ r) => `${r.rank} ${r.player.name}`));
        if (kind === "DIPLOMACY") await page.screenshot({ path: resolve(shots, "ratings.png"), fullPage: true });
      }
      await page.locator("table.leaderboard").getByRole("link").first().click();
      const diplomacy = page.locator('.player-ratings section[data-kind="DIPLOMACY"]');
      await expect(diplomacy.locator("table.rating-history")).toHaveCount(0);
      await diplomacy.getByRole("button", { name: /rating history/ }).click();
      await expect(diplomacy.locator("table.rating-history tbody tr")).toHaveCount(1);
      await page.screenshot({ path: resolve(shots, "player-ratings.png"), fullPage: true });
    });

    await test.step("6. no console error on any page, no request off loopback, every document fits the schema", async () => {
      harness.verify(8);
    });
  } finally {
    await harness.tearDown();
  }
});
