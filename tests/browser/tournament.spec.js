// @ts-check
// A 3-round Diplomacy tournament run through the web app as a director and players would:
// the director creates it and enters twenty players; round 1's roll call has a volunteer for
// two boards (who checks in in their own browser), so twenty players fill three boards; two
// late entries and a standby who sits out in round 2; a withdrawal; a swap before round 3;
// every result entered through the board's result form; standings per round, the seeding
// checks and the printable board call. No page logs a console error and every GraphQL
// document sent fits schema.graphql.
import { resolve } from "node:path";
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { openSection, setUp } from "./harness.js";

/** @typedef {import("@playwright/test").Page} Page */
/** @typedef {import("@playwright/test").Locator} Locator */

test("a director runs a three-round Diplomacy tournament in the web app", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, shots, newContext, signIn } = harness;

  /** Player names P01…P22 (fixed width, so a name is never the start of another). */
  const names = Array.from({ length: 22 }, (_, i) => `P${String(i + 1).padStart(2, "0")}`);
  const twoBoards = "P03";
  const standby = "P05";
  const withdrawing = "P07";
  const POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

  /** The seven players of a round's boards, by board number, as the server has them.
   * @param {string} tournamentId @param {number} round */
  const serverBoards = async (tournamentId, round) => {
    const { tournament } = await server.gql(
      `query($id: ID!, $n: Int!) { tournament(id: $id) { round(number: $n) { boards { number seats { label player { name } } } } } }`,
      { id: tournamentId, n: round });
    return tournament.round.boards.map((/** @type {any} */ b) => b.seats.map((/** @type {any} */ s) => s.player.name));
  };
  /** The standings table's rows as [rank, name]. @param {Page} page */
  const standingsRows = async (page) => {
    const rows = page.locator("#standings table tbody tr");
    const ranks = (await rows.locator("td.rank").allInnerTexts()).map(Number);
    const who = await rows.locator("th a").allInnerTexts();
    return ranks.map((rank, i) => /** @type {[number, string]} */ ([rank, who[i]]));
  };
  /** Ranks start at 1 and never go down. @param {[number, string][]} rows */
  const expectRanksAscending = (rows) => {
    expect(rows[0][0]).toBe(1);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i][0]).toBeGreaterThanOrEqual(rows[i - 1][0]);
  };

  try {
    /** @type {Record<string, { id: string, token: string }>} */
    const players = {};
    for (const name of names) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      players[name] = { id: registerPlayer.player.id, token: registerPlayer.token };
    }

    const admin = await signIn(await newContext(), ADMIN);
    let tournamentUrl = "";

    await test.step("1. the director creates the tournament from the server's lists", async () => {
      await admin.getByRole("link", { name: "Tournaments" }).click();
      const create = admin.getByRole("form", { name: "Create a tournament" });
      await create.getByLabel("Name", { exact: true }).fill("Winter Masters");
      await create.getByLabel("Game version").fill("Classic");
      await create.getByLabel("Scoring system").selectOption("SQUARES");
      await expect(create.getByLabel("Players per board")).toHaveValue("7");
      await create.getByLabel("Rounds").fill("3");
      await create.getByLabel("Round scoring (two boards)").selectOption("BEST_BOARD");
      await create.getByLabel("Tournament scoring").selectOption("sum-all-rounds");
      await create.getByLabel("Sit-out points", { exact: true }).fill("5");
      await create.getByLabel("Sit-out points only once").check();
      await create.getByLabel("First player").selectOption({ label: "P01" });
      await create.getByLabel("Second player").selectOption({ label: "P02" });
      await create.getByRole("button", { name: "Add pair" }).click();
      await expect(create.locator("ul.pairs li")).toHaveText(["P01 and P02 Remove"]);
      await create.getByRole("button", { name: "Create tournament" }).click();
      await expect(admin).toHaveURL(/\/tournaments\/[0-9a-f-]{36}$/);
      await expect(admin.getByRole("heading", { level: 1 })).toHaveText(/Winter Masters\s*OPEN/);
      const settings = admin.locator("dl.settings").first();
      await expect(settings).toContainText("Sum all round scores");
      await expect(settings).toContainText("5 (once)");
      await expect(settings).toContainText("P01, P02");
      tournamentUrl = new URL(admin.url()).pathname;
    });
    const tournamentId = tournamentUrl.split("/").pop() ?? "";

    /** Enters a player through the director's form (the entrants are one step away once a
     * round is seeded). @param {string} name */
    const enter = async (name) => {
      await openSection(admin, "entrants-more");
      const form = admin.getByRole("form", { name: "Enter a player" });
      await form.getByLabel("Player").selectOption({ label: name });
      await form.getByRole("button", { name: "Enter player" }).click();
      await expect(admin.locator(`table.entrants tr[data-player="${name}"]`)).toBeVisible();
    };
    /** Marks players present with one click each on the director's roll call. @param {string[]} who */
    const markPresent = async (who) => {
      for (const name of who) {
        const toggle = admin.getByRole("button", { name: `${name} present`, exact: true });
        await expect(toggle).toHaveAttribute("aria-pressed", "false");
        await toggle.click();
        await expect(toggle).toHaveAttribute("aria-pressed", "true");
      }
    };
    /** The director seeds the round; its section shows `boards` boards. @param {number} round @param {number} boards */
    const seed = async (round, boards) => {
      await admin.getByRole("button", { name: `Seed round ${round}` }).click();
      const section = admin.locator(`section.round[data-round="${round}"]`);
      await expect(section.locator("table.boards tbody tr")).toHaveCount(boards);
      return section;
    };
    /** Enters every board's result of a round through its result form (centres in seat
     * order, rotated by board so the scores differ). @param {number} round */
    const reportRound = async (round) => {
      const boards = await serverBoards(tournamentId, round);
      for (const [i] of boards.entries()) {
        await admin.getByRole("link", { name: `Report result: round ${round}, board ${i + 1}` }).click();
        await expect(admin.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`Round ${round}, board ${i + 1}\\s*SCHEDULED`));
        const centres = admin.getByLabel(/^Supply centres of /);
        await expect(centres).toHaveCount(7);
        const counts = [10, 8, 6, 4, 3, 2, 1];
        for (let seat = 0; seat < 7; seat += 1) await centres.nth(seat).fill(String(counts[(seat + i + round) % 7]));
        await admin.getByRole("button", { name: "Check the result" }).click();
        await admin.getByRole("button", { name: "Submit", exact: true }).click();
        await expect(admin).toHaveURL(tournamentUrl);
        await expect(admin.locator(`section.round[data-round="${round}"] tr[data-board="${i + 1}"]`)).toContainText("FINISHED");
      }
      await expect(admin.locator(`section.round[data-round="${round}"] h3`)).toContainText("COMPLETED");
    };

    await test.step("2. the director enters twenty players", async () => {
      for (const name of names.slice(0, 20)) await enter(name);
      await expect(admin.locator("table.entrants tbody tr")).toHaveCount(20);
      await expect(admin.locator("#roll-call .proposal")).toContainText("7 more must check in");
    });

    /** @type {Page} */
    let volunteer = admin;
    await test.step("3. round 1: a player volunteers for two boards in their own browser; all twenty are present", async () => {
      volunteer = await signIn(await newContext(), players[twoBoards].token);
      await volunteer.goto(tournamentUrl);
      const checkIn = volunteer.getByRole("form", { name: "Check in for round 1" });
      await checkIn.getByLabel("Two boards: I can play two boards").check();
      await checkIn.getByRole("button", { name: "Check in" }).click();
      await expect(volunteer.getByRole("form", { name: "Check in for round 1" }).locator(".check-in-status")).toHaveText("You are checked in for two boards.");
      // The shortfall is the director's business: a player sees how many are present.
      await expect(volunteer.locator("#roll-call .proposal")).toHaveText("1 present so far.");

      // The director's page learns of it without a reload.
      await expect(admin.getByRole("button", { name: `${twoBoards} present`, exact: true })).toHaveAttribute("aria-pressed", "true");
      await expect(admin.getByLabel(`${twoBoards} two boards`)).toBeChecked();
      await markPresent(names.slice(0, 20).filter((n) => n !== twoBoards));
      const proposal = admin.locator("#roll-call .proposal");
      await expect(proposal).toContainText("20 present: 3 boards of 7.");
      await expect(proposal.locator(".proposal-playing-twice")).toHaveText(`Playing two boards: ${twoBoards}.`);
      await expect(proposal.locator(".proposal-sitting-out")).toHaveText("Sitting out: nobody.");
      await admin.screenshot({ path: resolve(shots, "tournament-roll-call.png"), fullPage: true });

      const round = await seed(1, 3);
      await expect(round.locator(".playing-twice")).toHaveText(`Playing two boards: ${twoBoards}.`);
      await expect(round.locator(".sitting-out")).toHaveText("Sitting out: nobody.");
      const boards = await serverBoards(tournamentId, 1);
      expect(boards.filter((seats) => seats.includes(twoBoards)).length).toBe(2);
      expect(new Set(boards.flat()).size).toBe(20);
      // The volunteer sees both boards and powers.
      await expect(volunteer.locator('#my-boards li[data-round="1"]')).toHaveCount(2);
      await expect(volunteer.locator('#my-boards li[data-round="1"]').first()).toContainText(new RegExp(`Round 1, board \\d: (${POWERS.join("|")})`));
    });

    await test.step("4. round 1's results through the board forms; the standings after round 1", async () => {
      await reportRound(1);
      const rows = await standingsRows(admin);
      expect(rows.length).toBe(20);
      expectRanksAscending(rows);
      // The two-board player's round shows both boards, one of them dropped (best board counts).
      await expect(admin.locator(`#standings tr[data-player="${twoBoards}"] td[data-round="1"] .board-scores`)).toContainText("dropped");
      await admin.screenshot({ path: resolve(shots, "tournament-round-1.png"), fullPage: true });
    });

    await test.step("5. two late entries; round 2 with a standby who sits out (22 present = 3 boards + 1)", async () => {
      await enter(names[20]);
      await enter(names[21]);
      await expect(admin.locator(`table.entrants tr[data-player="${names[20]}"] td`).first()).toHaveText("2");
      await admin.getByLabel(`${standby} standby`).check();
      await expect(admin.getByRole("button", { name: `${standby} present`, exact: true })).toHaveAttribute("aria-pressed", "true");
      await markPresent(names.filter((n) => n !== standby));
      await expect(admin.locator("#roll-call .proposal")).toContainText("22 present: 3 boards of 7.");
      await expect(admin.locator("#roll-call .proposal-sitting-out")).toHaveText(`Sitting out: ${standby}.`);
      const round = await seed(2, 3);
      await expect(round.locator(".sitting-out")).toHaveText(`Sitting out: ${standby}.`);
      await expect(round.locator(".playing-twice")).toHaveText("Playing two boards: nobody.");
      const boards = await serverBoards(tournamentId, 2);
      expect(boards.flat()).not.toContain(standby);
      expect(new Set(boards.flat()).size).toBe(21);
      await reportRound(2);
      const rows = await standingsRows(admin);
      expect(rows.length).toBe(22);
      expectRanksAscending(rows);
      await expect(admin.locator(`#standings tr[data-player="${standby}"] td[data-round="2"]`)).toContainText("sat out");
    });

    await test.step("6. a withdrawal after round 2; round 3 with the other 21 and a swap before it starts", async () => {
      await openSection(admin, "entrants-more");
      await admin.getByRole("button", { name: `Withdraw ${withdrawing}` }).click();
      // A withdrawal asks to confirm: the first press changes nothing.
      await expect(admin.getByText(`Withdraw ${withdrawing}? They will not be seated again.`)).toBeVisible();
      await admin.getByRole("button", { name: `Yes, withdraw ${withdrawing}` }).click();
      await expect(admin.locator(`table.entrants tr[data-player="${withdrawing}"]`)).toContainText("withdrew after round 2");
      await expect(admin.locator(`#roll-call tr[data-player="${withdrawing}"]`)).toHaveCount(0);
      await markPresent(names.filter((n) => n !== withdrawing));
      await expect(admin.locator("#roll-call .proposal")).toContainText("21 present: 3 boards of 7.");
      await seed(3, 3);
      let boards = await serverBoards(tournamentId, 3);
      expect(boards.flat()).not.toContain(withdrawing);
      expect(new Set(boards.flat()).size).toBe(21);

      // The director swaps a player of board 1 with one of board 2, giving the reason.
      const [first, second] = [boards[0][0], boards[1][0]];
      const swap = admin.getByRole("form", { name: "Swap two players of round 3" });
      await swap.getByLabel("First player").selectOption({ label: first });
      await swap.getByLabel("Second player").selectOption({ label: second });
      await swap.getByLabel("Reason").fill("they came together and asked not to share a board");
      await swap.getByRole("button", { name: "Swap players" }).click();
      await expect.poll(async () => (await serverBoards(tournamentId, 3))[0]).toContain(second);
      boards = await serverBoards(tournamentId, 3);
      expect(boards[1]).toContain(first);
      await expect(admin.locator('section.round[data-round="3"] tr[data-board="1"]')).toContainText(second);
      await expect(admin.getByRole("list", { name: "Swaps in round 3" }))
        .toHaveText(`${first} ⇄ ${second}: they came together and asked not to share a board`);
    });

    await test.step("7. round 3's results: the tournament is completed, the final standings keep the withdrawn player", async () => {
      await reportRound(3);
      await expect(admin.getByRole("heading", { level: 1 })).toHaveText(/Winter Masters\s*COMPLETED/);
      await expect(admin.locator("#roll-call")).toBeEmpty();
      const rows = await standingsRows(admin);
      expect(rows.length).toBe(22);
      expectRanksAscending(rows);
      await expect(admin.locator(`#standings tr[data-player="${withdrawing}"]`)).toContainText("withdrew after round 2");
      await expect(admin.locator(`#standings tr[data-player="${withdrawing}"] td[data-round="3"]`)).toHaveText("—");
      const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { status standings { rank player { name } } } }`, { id: tournamentId });
      expect(tournament.status).toBe("COMPLETED");
      expect(rows.map(([rank, name]) => `${rank} ${name}`)).toEqual(tournament.standings.map((/** @type {any} */ s) => `${s.rank} ${s.player.name}`));

      // The standings after round 1 again: the late entrants have no score there.
      await admin.getByLabel("Standings after").selectOption({ label: "Round 1" });
      await expect(admin.locator("#standings caption")).toHaveText("Standings after round 1");
      const early = await standingsRows(admin);
      expectRanksAscending(early);
      await expect(admin.locator(`#standings tr[data-player="${names[21]}"] td[data-round="1"]`)).toHaveText("—");
      await admin.getByLabel("Standings after").selectOption({ label: "Every round so far" });
      await expect(admin.locator("#standings caption")).toHaveText("Standings now");
      await admin.screenshot({ path: resolve(shots, "tournament-final.png"), fullPage: true });
    });

    await test.step("8. every seeding re-runs to the same boards; the board call prints seven powers per board", async () => {
      await openSection(admin, "links-more");
      await admin.getByRole("button", { name: "Verify seeding" }).click();
      const checks = admin.locator("#seeding-check-results tbody tr");
      await expect(checks).toHaveCount(3);
      await expect(checks.locator("td:nth-child(2)")).toHaveText(["verified", "verified", "verified"]);

      await admin.getByRole("link", { name: "Board call for round 3" }).click();
      await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Winter Masters: round 3 board call");
      const boards = admin.locator("section.call-board");
      await expect(boards).toHaveCount(3);
      for (let i = 0; i < 3; i += 1) {
        await expect(boards.nth(i).locator("tbody th")).toHaveText(POWERS);
        await expect(boards.nth(i).locator("tbody td")).toHaveCount(7);
      }
      await expect(admin.getByRole("button", { name: "Print" })).toBeVisible();
      await admin.emulateMedia({ media: "print" });
      await expect(admin.locator("header.top")).toBeHidden();
      await expect(admin.getByRole("button", { name: "Print" })).toBeHidden();
      await admin.screenshot({ path: resolve(shots, "tournament-board-call.png"), fullPage: true });
      await admin.emulateMedia({ media: "screen" });

      // The volunteer's own page: every board and power, round by round.
      await volunteer.reload();
      await expect(volunteer.locator("#my-boards li")).toHaveCount(4);
    });

    await test.step("9. no console error on any page, no request off loopback, every document fits the schema", async () => {
      harness.verify(12);
    });
  } finally {
    await harness.tearDown();
  }
});
