// @ts-check
// One tournament with all of the tournament practice (docs/tournaments.md: walk-ins, power
// assignment, pools, rulings, Best Country and awards, teams; docs/series.md), run through the
// web app as its people would: a director who plays (an appointed organiser, on a desktop)
// creates a two-round Diplomacy tournament, registers and enters thirteen walk-ins and
// herself, sets powers by preference, seeds round 1 and enters its results through the board
// forms; she gives a penalty with its reason and marks herself unranked; two players rank the
// powers on their phones; round 2 seats a pool of the best 7 ×1.5, the lowest placed player
// outside it gets their first choice and the other their second; two teams are made, round
// 2's results entered, an award given; a spectator on a phone sees the unranked director,
// the penalty, the pool's multiplied scores, Best Country and the team standings; a second
// tournament (set up through GraphQL: no new form in it) and a series over both, created
// from the web app, show the series standing. Actions (clicks, fills, choices, presses) are
// counted per person. No sideways scroll at 360 px and no serious or critical axe-core
// violation on the pages visited; every GraphQL document sent fits schema.graphql.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { setUp, pageIsSound, PHONE, DESKTOP } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */

test("a director runs a tournament with preferences, a pool, rulings, Best Country, teams and a series", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;
  const started = Date.now();
  /** Actions per person. */
  const actions = { director: 0, players: 0, spectator: 0 };
  const names = Array.from({ length: 13 }, (_, i) => `P${String(i + 1).padStart(2, "0")}`);
  /** Centres in seat order: board 1, board 2 (no two seats of either score alike). */
  const CENTRES = [[10, 8, 6, 4, 3, 2, 1], [12, 7, 5, 4, 3, 2, 1]];
  try {
    const { registerPlayer: dana } = await server.gql(`mutation { registerPlayer(input: {name: "Dana"}) { token player { id } } }`);
    await server.gql(`mutation($id: ID!) { appointOrganiser(playerId: $id) { id } }`, { id: dana.player.id });
    const director = await signIn(await newContext(DESKTOP), dana.token);
    let url = "";
    /** @type {Record<string, string>} */
    const tokens = {};

    /** The standings lines as the server has them (the test's oracle, read over GraphQL). */
    const standings = async () => {
      const id = url.split("/").pop();
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { standings { rank unranked total player { name } } } }`, { id });
      return /** @type {{ rank: number, unranked: boolean, total: number, player: { name: string } }[]} */ (tournament.standings);
    };
    /** Enters every board of a round through its result form. @param {number} round */
    const reportRound = async (round) => {
      for (const [i, centres] of CENTRES.entries()) {
        await director.getByRole("link", { name: `Report result: round ${round}, board ${i + 1}` }).click();
        await expect(director.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`Round ${round}, board ${i + 1}\\s*SCHEDULED`));
        const boxes = director.getByLabel(/^Supply centres of /);
        await expect(boxes).toHaveCount(7);
        for (let seat = 0; seat < 7; seat += 1) await boxes.nth(seat).fill(String(centres[seat]));
        if (round === 1 && i === 0) await pageIsSound(director);
        await director.getByRole("button", { name: "Check the result" }).click();
        await director.getByRole("button", { name: "Submit", exact: true }).click();
        actions.director += 10;
        await expect(director).toHaveURL(url);
        await expect(director.locator(`section.round[data-round="${round}"] tr[data-board="${i + 1}"]`)).toContainText("FINISHED");
      }
    };
    /** Everyone present with one press, then the round seeded. @param {number} round */
    const seed = async (round) => {
      await director.getByRole("button", { name: "Mark all present" }).click();
      await expect(director.locator("#roll-call .proposal")).toContainText("14 present: 2 boards of 7.");
      await director.getByRole("button", { name: `Seed round ${round}` }).click();
      actions.director += 2;
      await expect(director.locator(`section.round[data-round="${round}"] table.boards tbody tr`)).toHaveCount(2);
    };

    await test.step("the director creates the tournament and registers the walk-ins and herself", async () => {
      await director.getByRole("link", { name: "Tournaments" }).click();
      const create = director.getByRole("form", { name: "Create a tournament" });
      await create.getByLabel("Name", { exact: true }).fill("Practice Open");
      await create.getByLabel("Scoring system").selectOption("SQUARES");
      await create.getByLabel("Rounds").fill("2");
      await create.getByLabel("Tournament scoring").selectOption("sum-all-rounds");
      await create.getByRole("button", { name: "Create tournament" }).click();
      actions.director += 6;
      await expect(director).toHaveURL(/\/tournaments\/[0-9a-f-]{36}$/);
      url = new URL(director.url()).pathname;

      await director.getByRole("link", { name: "Register and enter walk-ins" }).click();
      const list = ["name,wdr", "Dana,1000", ...names.map((n, i) => `${n},${1001 + i}`)].join("\n");
      await director.getByLabel("Names (paste)").fill(`${list}\n`);
      await expect(director.locator("table.walk-ins tbody tr")).toHaveCount(14);
      await director.getByLabel("Line 2: Dana is").selectOption(dana.player.id);
      await pageIsSound(director);
      await director.getByRole("button", { name: "Register and enter 14 players" }).click();
      actions.director += 4;
      await expect(director.getByRole("heading", { name: "Entered: 14 players" })).toBeVisible();
      for (const name of names) {
        tokens[name] = (await director.locator(`table.walked-in tr[data-player="${name}"] code.token`).textContent()) ?? "";
      }
      await director.goto(url);
      await expect(director.locator("table.entrants tbody tr")).toHaveCount(14);
    });

    await test.step("powers by preference; round 1 seeded and its results entered through the board forms", async () => {
      const powers = director.getByRole("region", { name: "Powers" });
      await powers.getByLabel("Powers given").selectOption("PREFERENCES");
      await powers.getByRole("button", { name: "Save power assignment" }).click();
      actions.director += 2;
      await expect(powers).toContainText("By preferences: the lowest placed choose first.");
      await seed(1);
      await reportRound(1);
      await expect(director.locator(`section.round[data-round="1"] h3`)).toContainText("COMPLETED");
    });

    /** @type {string[]} */
    let pool = [];
    let lowest = "";
    let eighth = "";
    await test.step("a penalty with its reason; the director marks herself unranked", async () => {
      const before = await standings();
      const penalised = before.find((l) => l.rank >= 2 && l.player.name !== "Dana")?.player.name ?? "";
      const rulings = director.getByRole("region", { name: "Rulings" });
      await rulings.getByText("Give a ruling").click();
      await rulings.getByLabel("Player").selectOption({ label: penalised });
      await rulings.getByLabel("Applies to").selectOption({ label: `Round 1, board ${await boardOf(penalised, 1)}` });
      await rulings.getByLabel("Points (negative for a penalty)").fill("-5");
      await rulings.getByLabel("Reason", { exact: true }).fill("late to the board");
      await rulings.getByRole("button", { name: "Adjust score" }).click();
      actions.director += 6;
      await expect(rulings.locator("ul.rulings")).toContainText(`${penalised}: penalty -5 (round 1, board`);
      await rulings.getByLabel("Entrant").selectOption({ label: "Dana" });
      await rulings.getByLabel("Reason (optional)").fill("I direct and fill the board");
      await rulings.getByRole("button", { name: "Mark unranked or ranked again" }).click();
      actions.director += 3;
      await expect(rulings.locator("ul.rulings")).toContainText("Dana: unranked: I direct and fill the board");
      await expect(director.locator(`#standings tr[data-player="Dana"] td.rank`)).toHaveText("–");
      const after = (await standings()).filter((l) => !l.unranked);
      expect(after.map((l) => l.rank)).toEqual(after.map((_, i) => i + 1));
      pool = after.slice(0, 7).map((l) => l.player.name);
      eighth = after[7].player.name;
      lowest = after[after.length - 1].player.name;
    });

    /** The board number a player sits at in a round, as the server has it.
     * @param {string} name @param {number} round */
    async function boardOf(name, round) {
      const { tournament } = await server.gql(`query($id: ID!, $n: Int!) { tournament(id: $id) { round(number: $n) { boards { number seats { player { name } } } } } }`,
        { id: url.split("/").pop(), n: round });
      return tournament.round.boards.find((/** @type {any} */ b) => b.seats.some((/** @type {any} */ s) => s.player.name === name)).number;
    }

    await test.step("two players rank the powers on their phones: France first for both", async () => {
      for (const [name, ranking] of [[lowest, ["France"]], [eighth, ["France", "England"]]]) {
        const page = await signIn(await newContext(PHONE), tokens[/** @type {string} */ (name)]);
        await page.goto(url);
        const section = page.getByRole("region", { name: "Powers" });
        for (const [i, power] of /** @type {string[]} */ (ranking).entries()) {
          await section.getByLabel(`Choice ${i + 1}`, { exact: true }).selectOption(power);
        }
        await section.getByRole("button", { name: "Save my ranking" }).click();
        actions.players += ranking.length + 1;
        await expect(section).toContainText(`Your ranking: ${/** @type {string[]} */ (ranking).join(", ")}.`);
        if (name === lowest) await pageIsSound(page);
      }
    });

    await test.step("round 2: a pool of the best 7 ×1.5; the lowest placed outside it gets France", async () => {
      const section = director.getByRole("region", { name: "Pools and round scoring" });
      await section.getByText("Set a round's pool or scoring").click();
      await section.getByLabel("Pool of the best (players, whole boards)").fill("7");
      await section.getByLabel("Score multiplier").fill("1.5");
      await section.getByRole("button", { name: "Set pool" }).click();
      actions.director += 4;
      await expect(section.getByRole("listitem")).toContainText("Round 2: pool of the best 7 by standings, scores ×1.5");
      await seed(2);
      await expect(section.getByRole("listitem")).toContainText("(board 1)");
      const round = director.locator(`section.round[data-round="2"]`);
      // docs/tournaments.md#power-assignment: the lowest placed choose first.
      await expect(round.locator("ul.seats li").filter({ hasText: lowest })).toContainText("France");
      await expect(round.locator("ul.seats li").filter({ hasText: eighth })).toContainText("England");
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { round(number: 2) { boards { seats { player { name } } } } } }`, { id: url.split("/").pop() });
      expect(tournament.round.boards[0].seats.map((/** @type {any} */ s) => s.player.name).sort()).toEqual([...pool].sort());
      await pageIsSound(director);
    });

    await test.step("two teams; round 2's results; an award", async () => {
      const teams = director.getByRole("region", { name: "Teams" });
      for (const [team, members] of /** @type {const} */ ([["North", [0, 1]], ["South", [2, 3]]])) {
        await teams.getByLabel("Team name").fill(team);
        await teams.getByRole("button", { name: "Create team" }).click();
        actions.director += 2;
        for (const member of members) {
          await teams.getByLabel(`Entrant for ${team}`).selectOption({ label: names[member] });
          await teams.getByRole("button", { name: `Add to ${team}` }).click();
          actions.director += 2;
          await expect(teams.getByRole("button", { name: `Take out ${names[member]} from ${team}` })).toBeVisible();
        }
      }
      await reportRound(2);
      const best = director.getByRole("region", { name: "Best countries" });
      await best.getByLabel("Award", { exact: true }).fill("Best Diplomat");
      await best.getByLabel("Player").selectOption({ label: pool[0] });
      await best.getByRole("button", { name: "Give award" }).click();
      actions.director += 3;
      await expect(best.locator("ul.awards")).toContainText(`Best Diplomat — ${pool[0]}`);
      await director.screenshot({ path: resolve(shots, "practice-director.png"), fullPage: true });
    });

    await test.step("a spectator on a phone sees the rulings, the pool, Best Country and the team standings", async () => {
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) {
        standings { rank total player { name } rulings { kind } }
        bestCountries { power leaders { player { name } } }
        teamStandings { rank total team { name } } } }`, { id: url.split("/").pop() });
      const page = await (await newContext(PHONE)).newPage();
      await page.goto(url);
      actions.spectator += 1;
      const dana = page.locator(`#standings tr[data-player="Dana"]`);
      await expect(dana).toContainText("(unranked)");
      await expect(dana.locator("td.rank")).toHaveText("–");
      const penalised = tournament.standings.find((/** @type {any} */ l) => l.rulings.some((/** @type {any} */ r) => r.kind === "BOARD_ADJUSTMENT")).player.name;
      await expect(page.locator(`#standings tr[data-player="${penalised}"]`)).toContainText("†");
      await expect(page.getByRole("region", { name: "Rulings" }).locator("ul.rulings")).toContainText(`${penalised}: penalty -5 (round 1, board`);
      for (const name of pool) await expect(page.locator(`#standings tr[data-player="${name}"]`)).toContainText("pool: round 2 ×1.5");
      const best = page.getByRole("region", { name: "Best countries" });
      for (const power of tournament.bestCountries) {
        await expect(best.getByRole("listitem").filter({ hasText: `Best ${power.power}:` })).toContainText(`${power.leaders[0].player.name} — `);
      }
      expect(tournament.bestCountries.flatMap((/** @type {any} */ p) => p.leaders.map((/** @type {any} */ l) => l.player.name))).not.toContain("Dana");
      const rows = page.getByRole("region", { name: "Teams" }).locator("ol.team-standings > li");
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText(`${tournament.teamStandings[0].rank}. ${tournament.teamStandings[0].team.name}`);
      await pageIsSound(page);
      await page.screenshot({ path: resolve(shots, "practice-spectator.png"), fullPage: true });
    });

    let seriesPath = "";
    await test.step("a second tournament, then the director makes a series over both", async () => {
      // The second tournament is played as the first (its forms are covered above): set up
      // over GraphQL, Dana and six walk-ins on one board.
      const { createTournament: close } = await server.gql(`mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
        { input: { name: "Practice Close", game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1 } });
      const ids = await playerIds(["Dana", ...names.slice(6, 12)]);
      for (const id of ids) {
        await server.gql(`mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: close.id, p: id });
        await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: close.id, p: id });
      }
      const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { boards { id seats { player { id } } } } }`, { t: close.id });
      const board = seedRound.boards[0];
      const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: CENTRES[0][i] })) };
      await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`, { t: close.id, b: board.id, r: result });

      await director.getByRole("link", { name: "Series", exact: true }).click();
      await director.getByLabel("Name").fill("Practice Circuit");
      await director.getByLabel("Results that count (best N)").fill("2");
      await director.getByLabel("Each result is worth").selectOption("RANK_POINTS");
      await director.getByRole("button", { name: "Create series" }).click();
      actions.director += 5;
      await expect(director.getByRole("heading", { level: 1 })).toHaveText("Practice Circuit");
      seriesPath = new URL(director.url()).pathname;
      for (const [id, name] of [[url.split("/").pop() ?? "", "Practice Open"], [close.id, "Practice Close"]]) {
        await director.getByLabel("Tournament or league").selectOption(id);
        await director.getByRole("button", { name: "Add to series" }).click();
        actions.director += 2;
        await expect(director.getByRole("link", { name, exact: true })).toBeVisible();
      }
      await pageIsSound(director);
    });

    /** The first tournament's entrants' ids by name, from the server. @param {string[]} wanted */
    async function playerIds(wanted) {
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { entrants { player { id name } } } }`, { id: url.split("/").pop() });
      return wanted.map((name) => tournament.entrants.find((/** @type {any} */ e) => e.player.name === name).player.id);
    }

    await test.step("a spectator on a phone reads the series standing", async () => {
      const { series } = await server.gql(`query($id: ID!) { series(id: $id) { standings { rank total player { name } } } }`, { id: seriesPath.split("/").pop() });
      const page = await (await newContext(PHONE)).newPage();
      await page.goto(seriesPath);
      actions.spectator += 1;
      const rows = page.locator("table.series-standings tbody tr");
      await expect(rows).toHaveCount(series.standings.length);
      expect(series.standings.length).toBe(14);
      await expect(rows.first().locator("td").nth(0)).toHaveText(String(series.standings[0].rank));
      await expect(rows.first().locator("td").nth(2)).toHaveText(String(series.standings[0].total));
      await expect(rows.first()).toContainText(series.standings[0].player.name);
      await pageIsSound(page);
    });

    console.log(`practice: the director took ${actions.director} actions, two players ${actions.players}, spectators ${actions.spectator}; ${Math.round((Date.now() - started) / 1000)} s`);
    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(10);
    });
  } finally {
    await harness.tearDown();
  }
});
