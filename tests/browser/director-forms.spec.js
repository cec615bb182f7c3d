// @ts-check
// A director's forms for what GraphQL and the CLI offered first (docs/tournaments.md#power-assignment,
// #pools-top-boards-and-per-round-scoring and #rulings), on a 390 px phone and a desktop: a
// two-round Diplomacy tournament of 14 with a top board in its last round, directed by a
// co-organiser who does not play. Before round 1 the director sets a handicap with its reason,
// names round 2's pool (a refused six first: not a whole board) and removes it again; in round 1
// they set a board's powers from its page (an unchanged set and a power given twice refused);
// in round 2 they order two players of the top board with a reason (a place given twice
// refused). A spectator, not signed in, sees each result and no form; a seated player sees no
// powers form. Actions (clicks, fills and choices) are counted. No sideways scroll at 360 px,
// no serious or critical axe-core violation; every GraphQL document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { setUp, pageIsSound, PHONE, DESKTOP } from "./harness.js";

test("a director sets a handicap, a named pool, a board's powers and a top board's order; a spectator sees them", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    /** @param {string} name */
    const register = async (name) => {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      return { id: registerPlayer.player.id, token: registerPlayer.token, name };
    };
    /** @param {string} id @param {{ id: string }[]} players @param {number} round */
    const checkIn = async (id, players, round) => {
      for (const player of players) {
        await server.gql(`mutation($t: ID!, $p: ID!, $r: Int!) { answerRollCall(tournamentId: $t, round: $r, playerId: $p, present: true) { id } }`, { t: id, p: player.id, r: round });
      }
    };
    /** Round `round`'s boards: ids and seats (power, player id and name). @param {string} id @param {number} round */
    const boardsOf = async (id, round) => {
      const { tournament } = await server.gql(`query($id: ID!, $r: Int!) { tournament(id: $id) { round(number: $r) { boards { id seats { label player { id name } } } } } }`, { id, r: round });
      return /** @type {{ id: string, seats: { label: string, player: { id: string, name: string } }[] }[]} */ (tournament.round.boards);
    };
    /** Reports every board of round 1 10, 8, 6, 4, 3, 2, 1 centres in seat order. @param {string} id */
    const reportRound1 = async (id) => {
      const centres = [10, 8, 6, 4, 3, 2, 1];
      for (const board of await boardsOf(id, 1)) {
        const result = { diplomacy: board.seats.map((s, i) => ({ playerId: s.player.id, centres: centres[i] })) };
        await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`, { t: id, b: board.id, r: result });
      }
    };

    for (const [label, device] of /** @type {const} */ ([["Phone", PHONE], ["Desktop", DESKTOP]])) {
      const prefix = label[0];
      const director = await register(`${prefix}D`);
      /** @type {{ id: string, token: string, name: string }[]} */
      const players = [];
      for (let i = 1; i <= 14; i += 1) players.push(await register(`${prefix}${i}`));
      const input = { name: `${label} Forms Cup`, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 2, tournamentScoring: "sum-all-rounds", topBoardLastRound: true };
      const { createTournament } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`, { i: input });
      const id = createTournament.id;
      await server.gql(`mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }`, { c: id, p: director.id });
      for (const player of players) {
        await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: player.id });
      }
      const handicapped = players[2];
      const pool = players.slice(0, 7);
      const directorPage = await signIn(await newContext(device), director.token);

      await test.step(`${label}: before round 1 the director sets a handicap and names round 2's pool`, async () => {
        const page = directorPage;
        await page.goto(`/tournaments/${id}`);
        const rulings = page.getByRole("region", { name: "Rulings" });
        await expect(rulings).toContainText("No rulings.");
        let actions = 0;
        await rulings.getByText("Give a ruling").click();
        await rulings.getByLabel("Whose handicap", { exact: true }).selectOption({ label: handicapped.name });
        await rulings.getByLabel("Handicap points", { exact: true }).fill("2.5");
        await rulings.getByLabel("Why the handicap (optional)", { exact: true }).fill("hosts the event");
        await rulings.getByRole("button", { name: "Set handicap" }).click();
        actions += 5;
        await expect(rulings.locator("ul.rulings")).toContainText(`${handicapped.name}: handicap +2.5: hosts the event`);
        console.log(`${label}: a handicap with its reason in ${actions} actions`);

        const pools = page.getByRole("region", { name: "Pools and round scoring" });
        actions = 0;
        await pools.getByText("Set a round's pool or scoring").click();
        await expect(pools.getByLabel("Pool round", { exact: true })).toHaveValue("2");
        await pools.getByLabel("Pool chosen", { exact: true }).selectOption({ label: "Players I name" });
        await expect(pools.getByLabel("Pool of the best (players, whole boards)")).toBeHidden();
        actions += 2;
        for (const player of pool.slice(0, 6)) await pools.getByLabel(player.name, { exact: true }).check();
        await expect(pools.locator("fieldset.named-pool")).toContainText("6 named: not a whole number of boards of 7.");
        await pools.getByRole("button", { name: "Set pool" }).click();
        await expect(pools.locator("#named-pool-error")).toContainText("a pool is a whole number of boards of 7 players, not 6");
        await pools.getByLabel(pool[6].name, { exact: true }).check();
        await expect(pools.locator("fieldset.named-pool")).toContainText("7 named: 1 board.");
        await pools.getByRole("button", { name: "Set pool" }).click();
        actions += 7 + 1;
        await expect(pools.locator("ul.round-stages")).toContainText(`Round 2: pool of ${pool.map((p) => p.name).join(", ")}, scores ×1`);
        await pageIsSound(page);
        console.log(`${label}: a named pool of 7 in ${actions} actions (and one refused submit of 6)`);
      });

      await test.step(`${label}: a spectator sees the handicap and the named pool, and no form`, async () => {
        const page = await (await newContext(device)).newPage();
        await page.goto(`/tournaments/${id}`);
        const rulings = page.getByRole("region", { name: "Rulings" });
        await expect(rulings.locator("ul.rulings")).toContainText(`${handicapped.name}: handicap +2.5: hosts the event`);
        await expect(rulings.getByText("Give a ruling")).toHaveCount(0);
        const pools = page.getByRole("region", { name: "Pools and round scoring" });
        await expect(pools.locator("ul.round-stages")).toContainText(`Round 2: pool of ${pool.map((p) => p.name).join(", ")}`);
        await expect(pools.getByRole("button", { name: "Remove round 2's pool" })).toHaveCount(0);
        await expect(pools.getByText("Set a round's pool or scoring")).toHaveCount(0);
        await pageIsSound(page);
      });

      await test.step(`${label}: the director removes round 2's pool`, async () => {
        const pools = directorPage.getByRole("region", { name: "Pools and round scoring" });
        await pools.getByRole("button", { name: "Remove round 2's pool" }).click();
        await expect(pools).toContainText("Every round is seeded as one and scored by the tournament's system.");
        console.log(`${label}: a pool removed in 1 action`);
      });

      await checkIn(id, players, 1);
      await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: "7") { number } }`, { t: id });
      const [board] = await boardsOf(id, 1);
      const [first, second] = board.seats;

      await test.step(`${label}: the director sets board 1's powers from its page`, async () => {
        const page = directorPage;
        await page.goto(`/tournaments/${id}`);
        let actions = 0;
        await page.getByRole("link", { name: "Board 1: enter its result" }).click();
        actions += 1;
        const details = page.locator("details#set-powers");
        await details.getByText("Set the powers").click();
        actions += 1;
        const firstPower = details.getByLabel(`Power of ${first.player.name}`, { exact: true });
        const secondPower = details.getByLabel(`Power of ${second.player.name}`, { exact: true });
        await expect(firstPower).toHaveValue(first.label);
        // Unchanged: the server refuses it (CONFLICT) and says why.
        await details.getByRole("button", { name: "Set powers" }).click();
        await expect(details.locator(".form-error")).toContainText("the board already has those powers");
        // A power given twice is refused before anything is sent, next to the repeat.
        await firstPower.selectOption(second.label);
        await details.getByRole("button", { name: "Set powers" }).click();
        await expect(details.getByText(`${second.label} is given twice: give each power once.`)).toBeVisible();
        await expect(secondPower).toHaveAttribute("aria-invalid", "true");
        await secondPower.selectOption(first.label);
        await details.getByRole("button", { name: "Set powers" }).click();
        actions += 3;
        const seats = page.getByRole("table", { name: "Seats" });
        await expect(seats.locator("tr").filter({ hasText: first.player.name }).locator("th")).toHaveText(second.label);
        await expect(seats.locator("tr").filter({ hasText: second.player.name }).locator("th")).toHaveText(first.label);
        await pageIsSound(page);
        console.log(`${label}: a board's powers set in ${actions} actions from the tournament page (and two refused submits)`);
      });

      await test.step(`${label}: a spectator sees the new powers; neither they nor a seated player see the form`, async () => {
        const spectator = await (await newContext(device)).newPage();
        await spectator.goto(`/tournaments/${id}/boards/${board.id}`);
        const seats = spectator.getByRole("table", { name: "Seats" });
        await expect(seats.locator("tr").filter({ hasText: first.player.name }).locator("th")).toHaveText(second.label);
        await expect(spectator.getByText("Set the powers")).toHaveCount(0);
        await pageIsSound(spectator);
        const seated = players.find((p) => p.id === first.player.id);
        const player = await signIn(await newContext(device), /** @type {{ token: string }} */ (seated).token);
        await player.goto(`/tournaments/${id}/boards/${board.id}`);
        await expect(player.getByRole("table", { name: "Seats" })).toBeVisible();
        await expect(player.getByText("Set the powers")).toHaveCount(0);
      });

      await reportRound1(id);
      await checkIn(id, players, 2);
      await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 2, seed: "8") { number } }`, { t: id });
      const [top] = await boardsOf(id, 2);
      const [ahead, behind] = [top.seats[1].player, top.seats[0].player];

      await test.step(`${label}: the director orders two players of round 2's top board`, async () => {
        const page = directorPage;
        await page.goto(`/tournaments/${id}`);
        const rulings = page.getByRole("region", { name: "Rulings" });
        let actions = 0;
        await rulings.getByText("Give a ruling").click();
        await expect(rulings.getByLabel("Top board of", { exact: true })).toHaveValue("2");
        await rulings.getByLabel(`Place of ${ahead.name}`, { exact: true }).selectOption({ label: "Place 1" });
        await rulings.getByLabel(`Place of ${behind.name}`, { exact: true }).selectOption({ label: "Place 1" });
        await rulings.getByLabel("Why this order", { exact: true }).fill("won the coin toss");
        await rulings.getByRole("button", { name: "Order top board" }).click();
        await expect(rulings.getByText("Place 1 is given twice: give each place once.")).toBeVisible();
        await rulings.getByLabel(`Place of ${behind.name}`, { exact: true }).selectOption({ label: "Place 2" });
        await rulings.getByRole("button", { name: "Order top board" }).click();
        actions += 5;
        await expect(rulings.locator("ul.rulings")).toContainText(`Top board: round 2's top board, in the director's order: ${ahead.name}, ${behind.name}: won the coin toss`);
        await pageIsSound(page);
        console.log(`${label}: a top board's order in ${actions} actions (and one refused submit)`);
      });

      await test.step(`${label}: a spectator sees the handicap and the top board's order, and no form`, async () => {
        const page = await (await newContext(device)).newPage();
        await page.goto(`/tournaments/${id}`);
        const rulings = page.getByRole("region", { name: "Rulings" });
        await expect(rulings.locator("ul.rulings")).toContainText(`${handicapped.name}: handicap +2.5: hosts the event`);
        await expect(rulings.locator("ul.rulings")).toContainText(`round 2's top board, in the director's order: ${ahead.name}, ${behind.name}: won the coin toss`);
        await expect(rulings.getByRole("button", { name: "Order top board" })).toHaveCount(0);
        await expect(rulings.getByText("Give a ruling")).toHaveCount(0);
        await pageIsSound(page);
      });
    }

    await test.step("no console error, no request off loopback, every document fits the schema", async () => {
      harness.verify(4);
    });
  } finally {
    await harness.tearDown();
  }
});
