// @ts-check
// Match day: a director on a phone runs a 30-player, 3-round Diplomacy tournament from the
// top of the tournament page (docs/tournaments.md#the-web-app): each round's roll call with
// "Mark all present" (after checking one player in by keyboard, focus staying on the toggle),
// the proposal saying why two players sit out, "Seed round N", the round's boards with
// "r of b boards reported" and the boards still missing a result, then the next roll call.
// Two players on their own phones see their board and power first and check in; a spectator
// never sees a seeding problem; the board call lists players by name. Every board records
// its centres for two game years; the provisional standings show on the projector page and
// on a second spectator's phone; each round's last board is reported by one of its players
// on their phone from the last counts, through the review step; after round 1 the director
// corrects a board with a reason, which the affected player finds on their own page and
// everyone beside the score in the standings. A spectator's open tournament page is metered
// for a result reported elsewhere (docs/performance.md#live-pages). Axe and the 360 px check
// run on every page. The tournament, its players, the progress and most results are set up
// through GraphQL; the director's work is done in the UI, and its actions are counted.
//
// Each step is a function of the shared `Day`.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, pageIsSound, meter, DESKTOP, PHONE } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */
/** @typedef {import("@playwright/test").Locator} Locator */
/** @typedef {NonNullable<Awaited<ReturnType<typeof setUp>>>} Harness */

const PLAYERS = 30;
const ROUNDS = 3;
/** 30 present at 7 a board: four boards and two sit out. */
const BOARDS = 4;

/**
 * A page whose clicks, key presses and fills are counted (the action counts).
 * @typedef {{ page: Page, actions: number,
 *   click: (l: Locator) => Promise<void>, fill: (l: Locator, text: string) => Promise<void>,
 *   press: (l: Locator, key: string) => Promise<void> }} Counted
 */

/** @param {Page} page @returns {Counted} */
function counted(page) {
  /** @type {Counted} */
  const user = {
    page,
    actions: 0,
    async click(locator) {
      user.actions += 1;
      await locator.click();
    },
    async fill(locator, text) {
      user.actions += 1;
      await locator.fill(text);
    },
    async press(locator, key) {
      user.actions += 1;
      await locator.press(key);
    },
  };
  return user;
}

/**
 * Everything the steps share.
 * @typedef {{ harness: Harness, tournamentId: string, url: string,
 *   players: { name: string, id: string, token: string }[],
 *   director: Counted, seated: Map<string, Counted>, spectator: Page, reportActions: number[] }} Day
 */

/** The tournament, its 30 players and their entries, through GraphQL.
 * @param {Harness} harness @returns {Promise<Omit<Day, "director" | "seated" | "spectator" | "reportActions">>} */
async function setUpTournament(harness) {
  const { server } = harness;
  const players = [];
  for (let i = 1; i <= PLAYERS; i += 1) {
    const name = `Player ${String(i).padStart(2, "0")}`;
    const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
    players.push({ name, id: registerPlayer.player.id, token: registerPlayer.token });
  }
  const { createTournament } = await server.gql(`mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
    { input: { name: "Match Day Open", game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: ROUNDS } });
  const tournamentId = createTournament.id;
  for (const p of players) {
    await server.gql(`mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: tournamentId, p: p.id });
  }
  return { harness, tournamentId, url: `/tournaments/${tournamentId}`, players };
}

/** Reports boards of a round through GraphQL (seat i gets 10, 8, 6, 4, 3, 2, 1 centres,
 * rotated by board so the scores differ). @param {Day} day @param {number} round @param {number} count how many of the unfinished boards */
async function reportBoards(day, round, count) {
  const { server } = day.harness;
  const { tournament } = await server.gql(`query($id: ID!, $n: Int!) { tournament(id: $id) { round(number: $n) { boards { id number finished seats { player { id } } } } } }`,
    { id: day.tournamentId, n: round });
  const open = tournament.round.boards.filter((/** @type {any} */ b) => !b.finished).slice(0, count);
  for (const board of open) {
    const centres = [10, 8, 6, 4, 3, 2, 1];
    const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: centres[(i + board.number) % 7] })) };
    await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`,
      { t: day.tournamentId, b: board.id, r: result });
  }
}

/** Centres after 1901 and 1902 of each board, seat by seat (33 and 34 of 34). */
const COUNTS = [[5, 5, 5, 5, 4, 5, 4], [10, 8, 6, 5, 3, 2, 0]];

/** Two game years of centres on every board of the round, through GraphQL, each by one of
 * the board's players (their own token). @param {Day} day @param {number} round */
async function progressOnEveryBoard(day, round) {
  const { server } = day.harness;
  const { tournament } = await server.gql(`query($id: ID!, $n: Int!) { tournament(id: $id) { round(number: $n) { boards { id seats { player { id } } } } } }`,
    { id: day.tournamentId, n: round });
  const tokens = new Map(day.players.map((p) => [p.id, p.token]));
  for (const board of tournament.round.boards) {
    for (const [i, centres] of COUNTS.entries()) {
      const token = tokens.get(board.seats[i].player.id);
      await server.gql(`mutation($t: ID!, $b: ID!, $y: Int!, $c: [Int!]!) { recordBoardProgress(tournamentId: $t, boardId: $b, year: $y, centres: $c) { id } }`,
        { t: day.tournamentId, b: board.id, y: 1901 + i, c: centres }, token);
    }
  }
}

/** The provisional standings ("if every board ended now") on the projector page and on a
 * second spectator's phone (a board's page), live and sound. @param {Day} day */
async function provisionalStandings(day) {
  const kiosk = await (await day.harness.newContext(DESKTOP)).newPage();
  await kiosk.goto(`${day.url}/kiosk`);
  await kiosk.getByRole("button", { name: "Pause" }).click();
  for (let step = 0; step < 8 && !/Provisional standings/.test(await kiosk.getByRole("heading", { level: 2 }).innerText()); step += 1) {
    await kiosk.getByRole("button", { name: "Next view" }).click();
  }
  await expect(kiosk.getByRole("heading", { level: 2 })).toHaveText(/Provisional standings/);
  await expect(kiosk.locator("table.standings tbody tr")).toHaveCount(12);
  // The view fades in: its colours are checked once the fade has ended.
  await kiosk.locator(".kiosk-view").evaluate((view) => Promise.all(view.getAnimations().map((a) => a.finished)));
  await pageIsSound(kiosk);
  const second = await (await day.harness.newContext(PHONE)).newPage();
  await second.goto(day.url);
  await second.locator("#rounds table.boards tbody tr").first().getByRole("link").click();
  await expect(second.locator(".progress-last")).toHaveText("Last counted: 1902, 34 of 34 centres.");
  await expect(second.locator(".provisional-standings tbody tr")).toHaveCount(PLAYERS);
  await expect(second.locator("body")).not.toContainText("cannot seed");
  await pageIsSound(second);
}

/** The round's last board, reported on their phone by one of its players: from their
 * board's link, "Fill from the last counts", the review step, Submit. Returns the actions.
 * @param {Day} day @param {number} round */
async function playerReportsLastBoard(day, round) {
  const { tournament } = await day.harness.server.gql(`query($id: ID!, $n: Int!) { tournament(id: $id) { round(number: $n) { boards { number finished seats { player { id } } } } } }`,
    { id: day.tournamentId, n: round });
  const board = tournament.round.boards.find((/** @type {any} */ b) => !b.finished);
  const reporter = /** @type {Day["players"][number]} */ (day.players.find((p) => p.id === board.seats[1].player.id));
  const player = await phoneOf(day, reporter);
  const before = player.actions;
  const page = player.page;
  await page.goto(day.url);
  await player.click(page.getByRole("link", { name: `Report result: round ${round}, board ${board.number}` }));
  await player.click(page.getByRole("button", { name: "Fill from the last counts" }));
  await expect(page.locator(".centre-total")).toHaveText("Centres: 34 of 34");
  await player.click(page.getByRole("button", { name: "Check the result" }));
  const review = page.getByRole("region", { name: "Check the result" });
  await expect(review.getByRole("listitem")).toHaveCount(7);
  await expect(review.getByRole("listitem").nth(6)).toContainText(": 0 centres, eliminated");
  await pageIsSound(page);
  await player.click(page.getByRole("button", { name: "Submit", exact: true }));
  await expect.poll(async () => (await day.harness.server.gql(`query($id: ID!, $n: Int!) { tournament(id: $id) { round(number: $n) { boards { finished } } } }`,
    { id: day.tournamentId, n: round })).tournament.round.boards.every((/** @type {any} */ b) => b.finished)).toBe(true);
  return player.actions - before;
}

/** The director corrects a round-1 board with a reason on their phone; the affected player
 * finds it on their own page, and the standings mark the corrected score with it.
 * @param {Day} day */
async function correctionReachesThePlayer(day) {
  const { director } = day;
  const page = director.page;
  // Board 1 was reported with Austria 8 and England 6 (reportBoards).
  const reason = "Recount: Austria held 9, England 5";
  const { tournament } = await day.harness.server.gql(`query($id: ID!) { tournament(id: $id) { round(number: 1) { boards { id number seats { player { id } } } } } }`,
    { id: day.tournamentId });
  const board = tournament.round.boards[0];
  await director.click(page.getByRole("link", { name: `Correct result: round 1, board ${board.number}` }));
  await director.fill(page.getByLabel(/^Supply centres of /).nth(0), "9");
  await director.fill(page.getByLabel(/^Supply centres of /).nth(1), "5");
  await director.fill(page.getByLabel("Reason for the correction"), reason);
  await director.click(page.getByRole("button", { name: "Check the result" }));
  await expect(page.locator(".review .reason")).toHaveText(`Reason: ${reason}`);
  await director.click(page.getByRole("button", { name: "Submit", exact: true }));
  await expect(page).toHaveURL(new RegExp(`/tournaments/${day.tournamentId}$`));
  // Beside the score in the standings: a mark, read out with the reason, and the reason below.
  const affected = /** @type {Day["players"][number]} */ (day.players.find((p) => p.id === board.seats[0].player.id));
  const row = page.locator(`#standings tr[data-player="${affected.name}"]`);
  await expect(row.locator('td[data-round="1"] a.corrected')).toContainText(`corrected: ${reason}`);
  await expect(page.locator(`#correction-1-${board.number}`)).toContainText(reason);
  await pageIsSound(page);
  // The affected player, on their own page.
  const player = await phoneOf(day, affected);
  await player.page.goto(`/players/${affected.id}`);
  player.actions += 1;
  await expect(player.page.locator(".player-competitions .corrections li")).toHaveText(`Round 1, board ${board.number} corrected: ${reason}`);
  await pageIsSound(player.page);
}

/** What a spectator's open tournament page reads for one result reported elsewhere, against
 * what the page read before pushes were applied (the tournament and its standings again),
 * measured on the same tournament. @param {Day} day @param {number} round */
async function meteredResult(day, round) {
  const page = day.spectator;
  // Watching before the page opens, so its subscription's pushes are counted too.
  const watch = meter(page);
  await page.goto(day.url);
  await expect(page.locator("#standings-h .live")).toHaveText("live");
  const mark = watch.mark();
  await reportBoards(day, round, 1);
  await expect.poll(async () => (await watch.since(mark)).operations).toEqual(["ChangedBoard"]);
  await page.waitForTimeout(500);
  const after = await watch.since(mark);
  const context = await day.harness.newContext(PHONE);
  const old = await context.newPage();
  const oldMeter = meter(old);
  await old.goto(day.url);
  await expect(old.locator("#standings table")).toBeVisible();
  const oldMark = oldMeter.mark();
  await old.evaluate(async () => {
    // The two reads the page made for every event before (docs/performance.md#live-pages).
    const { gql } = await import("/js/api.js");
    const Q = await import("/js/queries.js");
    const id = location.pathname.split("/")[2];
    await Promise.all([gql(Q.TOURNAMENT, { id }), gql(Q.TOURNAMENT_STANDINGS, { id, afterRound: null })]);
  });
  const before = await oldMeter.since(oldMark);
  console.log(`match day: per reported result a spectator's tournament page (${PLAYERS} players) read ${after.operations.length} request(s), ${(after.bytes / 1000).toFixed(1)} kB with pushes (${after.operations.join(", ")}); before: ${before.operations.length} requests, ${(before.bytes / 1000).toFixed(1)} kB without pushes`);
  expect(after.operations.length).toBeLessThanOrEqual(1);
  await context.close();
}

/** `count` players seated in round `round` (not sitting out), by the server.
 * @param {Day} day @param {number} round @param {number} count */
async function seatedIn(day, round, count) {
  const { tournament } = await day.harness.server.gql(`query($id: ID!, $n: Int!) { tournament(id: $id) { round(number: $n) { boards { seats { player { id } } } } } }`,
    { id: day.tournamentId, n: round });
  const ids = new Set(tournament.round.boards.flatMap((/** @type {any} */ b) => b.seats.map((/** @type {any} */ s) => s.player.id)));
  return day.players.filter((p) => ids.has(p.id)).slice(0, count);
}

/** The player's own phone, signed in on first use. @param {Day} day @param {{ name: string, token: string }} player */
async function phoneOf(day, player) {
  let phone = day.seated.get(player.name);
  if (!phone) {
    phone = counted(await day.harness.signIn(await day.harness.newContext(PHONE), player.token));
    day.seated.set(player.name, phone);
  }
  return phone;
}

/** The director's next-action block. @param {Day} day */
const next = (day) => day.director.page.locator("#next");

/** Round `round`'s roll call from the top of the page: one player checked in by keyboard
 * (found with the search box; focus stays on the toggle), "Mark all present" for the rest,
 * the proposal with why two sit out, then "Seed round N". @param {Day} day @param {number} round */
async function rollCallAndSeed(day, round) {
  const { director } = day;
  const page = director.page;
  await expect(next(day).getByRole("heading", { level: 2 }).first()).toHaveText(new RegExp(`^Round ${round} roll call: \\d+ present of ${PLAYERS}$`));
  await pageIsSound(page);
  if (round === 1) {
    // One player by keyboard: the toggle keeps focus after the page refreshes.
    await director.fill(page.getByLabel("Find a player"), "Player 07");
    await expect(page.locator("table.roll-call tbody tr:visible")).toHaveCount(1);
    const toggle = page.getByRole("button", { name: "Player 07 present", exact: true });
    await director.press(toggle, "Enter");
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Player 07 present");
    await director.fill(page.getByLabel("Find a player"), "");
  }
  await director.click(page.getByRole("button", { name: "Mark all present" }));
  await expect(next(day).getByRole("heading", { level: 2 }).first()).toHaveText(`Round ${round} roll call: ${PLAYERS} present of ${PLAYERS}`);
  const proposal = page.locator("#roll-call .proposal");
  await expect(proposal).toContainText(`${PLAYERS} present: ${BOARDS} boards of 7.`);
  // Two sit out, each with the reason (lowest ranked of those who sat out least, or level).
  await expect(proposal.locator(".proposal-reasons li")).toHaveCount(2);
  await expect(proposal.locator(".proposal-reasons li").first()).toContainText(/sat out least/);
  await pageIsSound(page);
  await director.click(page.getByRole("button", { name: `Seed round ${round}` }));
  await expect(page.locator(`#next section.round[data-round="${round}"] table.boards tbody tr`)).toHaveCount(BOARDS);
}

/** The round in play from the director's top block: its boards, then how many are
 * reported and the boards still missing a result, live as results come in.
 * @param {Day} day @param {number} round */
async function roundInPlay(day, round) {
  const page = day.director.page;
  const reported = next(day).locator(".reported");
  await expect(reported).toHaveText(`Round ${round}: 0 of ${BOARDS} boards reported.`);
  await expect(next(day).locator("ul.missing-results li")).toHaveCount(BOARDS);
  // The round's boards come before the count and the missing ones.
  const boardsY = (await page.locator(`#next section.round[data-round="${round}"]`).boundingBox())?.y ?? 0;
  expect(boardsY).toBeLessThan((await reported.boundingBox())?.y ?? 0);
  await pageIsSound(page);
  if (round === 1) await meteredResult(day, round);
  await reportBoards(day, round, round === 1 ? BOARDS - 2 : BOARDS - 1);
  await expect(reported).toHaveText(`Round ${round}: ${BOARDS - 1} of ${BOARDS} boards reported.`);
  await expect(next(day).locator("ul.missing-results li")).toHaveCount(1);
  await expect(next(day).getByRole("link", { name: /^Board \d: enter its result$/ })).toHaveCount(1);
  day.reportActions.push(await playerReportsLastBoard(day, round));
}

/** A seated player's page on their phone: their board and power first (a link to it), then
 * their check-in for the open round, which they answer. @param {Day} day @param {Counted} player @param {number} round the round seated */
async function playerChecksIn(day, player, round) {
  const page = player.page;
  await page.goto(day.url);
  player.actions += 1;
  const mine = page.locator("#my-boards");
  await expect(mine.locator(`li[data-round="${round}"]`)).toHaveCount(1);
  await expect(mine.locator(`li[data-round="${round}"] a`)).toHaveText(new RegExp(`^Round ${round}, board \\d$`));
  const checkIn = page.getByRole("form", { name: `Check in for round ${round + 1}` });
  // Both on the phone's first screens: the board first, the check-in next.
  const mineY = (await mine.boundingBox())?.y ?? 0;
  const checkInY = (await checkIn.boundingBox())?.y ?? 0;
  console.log(`match day: a player's board at y = ${Math.round(mineY)} px, their check-in at y = ${Math.round(checkInY)} px`);
  expect(mineY).toBeLessThan(checkInY);
  expect(mineY).toBeLessThan(PHONE.viewport.height);
  expect(checkInY).toBeLessThan(2 * PHONE.viewport.height);
  await player.click(checkIn.getByRole("button", { name: "Check in" }));
  await expect(page.getByRole("form", { name: `Check in for round ${round + 1}` }).locator(".check-in-status")).toHaveText("You are checked in.");
  await expect(page.locator("text=cannot be seeded")).toHaveCount(0);
  await pageIsSound(page);
}

/** A spectator (not signed in): the current round and standings, never a seeding problem.
 * @param {Day} day */
async function spectatorLooks(day) {
  const page = day.spectator;
  await page.goto(day.url);
  await expect(page.locator("#rounds section.round")).toHaveCount(1);
  await expect(page.locator("#standings table")).toBeVisible();
  await expect(page.locator("body")).not.toContainText("cannot seed");
  await expect(page.locator("body")).not.toContainText("must check in");
  await expect(page.locator(".proposal.problem")).toHaveCount(0);
  await pageIsSound(page);
}

/** The round's board call, by table and by player name (alphabetical, with tables).
 * @param {Day} day @param {number} round */
async function boardCall(day, round) {
  const page = day.spectator;
  await page.goto(`${day.url}/rounds/${round}/board-call`);
  await expect(page.locator("section.call-board h2")).toHaveText(Array.from({ length: BOARDS }, (_, i) => `Table ${i + 1}: board ${i + 1}`));
  const names = await page.locator(".call-by-name tbody th").allInnerTexts();
  expect(names.length).toBe(PLAYERS);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  await expect(page.locator(".call-by-name tbody td:first-of-type").first()).toHaveText(/^(Table \d|Sits out)$/);
  await pageIsSound(page);
}

/** Round complete: the director's top block links the standings and opens the next roll call,
 * or says the tournament is complete. @param {Day} day @param {number} round */
async function roundComplete(day, round) {
  const page = day.director.page;
  if (round < ROUNDS) {
    await expect(next(day).locator(".round-complete")).toHaveText(`Round ${round} is complete. Standings after round ${round}`);
  } else {
    await expect(page.locator("#next-h")).toHaveText("The tournament is complete");
  }
  await expect(page.locator("#standings table tbody tr")).toHaveCount(PLAYERS);
  await pageIsSound(page);
}

test("match day: a director on a phone runs a 30-player, 3-round tournament from the top of its page", async ({ browser }, info) => {
  test.setTimeout(420_000);
  // Thirty players' set-up, progress and reports are many mutations in a few seconds.
  const harness = await setUp(browser, info, { LEAGUE_RATE_MUTATIONS_BURST: "1000" });
  if (!harness) return;
  const { newContext, signIn } = harness;
  try {
    const setup = await setUpTournament(harness);
    const director = counted(await signIn(await newContext(PHONE), ADMIN));
    const spectator = await (await newContext(PHONE)).newPage();
    /** @type {Day} */
    const day = { ...setup, director, seated: new Map(), spectator, reportActions: [] };

    await director.page.goto(day.url);
    director.actions += 1;
    /** @type {number[]} a player's actions for each check-in */
    const checkIns = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      await test.step(`round ${round}: roll call, seeding, results`, async () => {
        await rollCallAndSeed(day, round);
        await spectatorLooks(day);
        if (round === 1) await boardCall(day, round);
        if (round < ROUNDS) {
          // Two players seated this round check in for the next one on their phones.
          for (const player of await seatedIn(day, round, 2)) {
            const phone = await phoneOf(day, player);
            const before = phone.actions;
            await playerChecksIn(day, phone, round);
            checkIns.push(phone.actions - before);
          }
        }
        await progressOnEveryBoard(day, round);
        if (round === 1) await provisionalStandings(day);
        await roundInPlay(day, round);
        await roundComplete(day, round);
        if (round === 1) await correctionReachesThePlayer(day);
      });
    }
    const perCheckIn = checkIns.reduce((sum, n) => sum + n, 0) / checkIns.length;
    console.log(`match day: the director took ${director.actions} actions for ${PLAYERS} players and ${ROUNDS} rounds (most results reported through GraphQL, one correction in the UI); a player ${perCheckIn} to see their board and check in, ${day.reportActions.join(", ")} to report a board from the last counts`);
    harness.verify(8);
  } finally {
    await harness.tearDown();
  }
});
