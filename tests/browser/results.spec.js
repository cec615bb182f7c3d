// @ts-check
// Result entry on a phone (docs/tournaments.md#result-entry): a seated player reports a board
// of a tournament that asks for confirmation on a 390 px phone, the form fits at 390 and 360
// px, shows the centre total against the board's and refuses more before sending, marks a
// power typed to 0 eliminated, and shows a review step; the report awaits confirmation until
// another player of the board confirms it on their own phone; the director corrects it with
// a reason, shown on the board's page and the tournament's audit page. The player's actions
// to report a board are counted.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, accessibilityProblems, sidewaysScroll, PHONE } from "./harness.js";

test("a player reports a board on a phone, another confirms it, the director corrects it", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;

  try {
    /** @type {Record<string, { id: string, token: string }>} */
    const players = {};
    for (const name of ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]) {
      const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { token player { id } } }`, { n: name });
      players[name] = { id: registerPlayer.player.id, token: registerPlayer.token };
    }
    const { createTournament } = await server.gql(
      `mutation { createTournament(input: {name: "Confirmed Cup", game: "Diplomacy", scoringSystem: SQUARES, playersPerBoard: 7, rounds: 1, tournamentScoring: "sum-all-rounds", confirmPlayerResults: true}) { id } }`);
    const id = createTournament.id;
    for (const p of Object.values(players)) {
      await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: p.id });
      await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: id, p: p.id });
    }
    const { seedRound } = await server.gql(`mutation($t: ID!) { seedRound(tournamentId: $t, round: 1) { boards { id } } }`, { t: id });
    const boardUrl = `/tournaments/${id}/boards/${seedRound.boards[0].id}`;

    const ann = await signIn(await newContext(PHONE), players.Ann.token);
    let actions = 0;
    await test.step("1. the form fits a phone, totals the centres and refuses more than the board's", async () => {
      await ann.goto(`/tournaments/${id}`);
      await ann.getByRole("link", { name: "Report result: round 1, board 1" }).click();
      actions += 1;
      const centres = ann.getByLabel(/^Supply centres of /);
      await expect(centres).toHaveCount(7);
      expect(await sidewaysScroll(ann)).toBe(0);
      await ann.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(ann)).toBe(0);
      expect(await accessibilityProblems(ann)).toEqual([]);
      await ann.setViewportSize(PHONE.viewport);
      const counts = [10, 9, 6, 4, 3, 2, 0];
      for (const [i, count] of counts.entries()) await centres.nth(i).fill(String(count));
      actions += counts.length;
      await expect(ann.locator(".centre-total")).toHaveText("Centres: 34 of 34");
      // 0 centres: eliminated without a tick.
      await expect(ann.getByLabel(/^[A-Za-z]+, [A-Za-z]+ eliminated$/).nth(6)).toBeChecked();
      await expect(ann.getByLabel(/^[A-Za-z]+, [A-Za-z]+ eliminated$/).nth(5)).not.toBeChecked();
      // A typo: 19 for 9 makes 44, refused before anything is sent.
      const before = await server.head();
      await centres.nth(1).fill("19");
      await expect(ann.locator(".centre-total")).toHaveText("Centres: 44 of 34");
      await ann.getByRole("button", { name: "Check the result" }).click();
      await expect(ann.locator("#result-error")).toHaveText("The centres add up to 44, more than the 34 on the board.");
      expect(await server.head()).toBe(before);
      await centres.nth(1).fill("9");
      actions += 2;
    });

    await test.step("2. the review step, then the report awaits confirmation", async () => {
      await ann.getByRole("button", { name: "Check the result" }).click();
      actions += 1;
      const review = ann.getByRole("region", { name: "Check the result" });
      await expect(review.getByRole("listitem")).toHaveCount(7);
      await expect(review.getByRole("listitem").nth(6)).toContainText(": 0 centres, eliminated");
      expect(await sidewaysScroll(ann)).toBe(0);
      await ann.getByRole("button", { name: "Submit", exact: true }).click();
      actions += 1;
      await ann.goto(boardUrl);
      await expect(ann.getByRole("heading", { name: "Result awaiting confirmation" })).toBeVisible();
      await expect(ann.getByRole("button", { name: "Confirm result" })).toHaveCount(0);
      const { tournament } = await server.gql(`query($t: ID!) { tournament(id: $t) { standings { total } } }`, { t: id });
      expect(tournament.standings.every((/** @type {any} */ s) => s.total === 0)).toBe(true);
      expect(await accessibilityProblems(ann)).toEqual([]);
      console.log(`actions for a player to report a board (a typo fixed included): ${actions}; without the typo: ${actions - 2}`);
    });

    const bob = await signIn(await newContext(PHONE), players.Bob.token);
    await test.step("3. another player of the board confirms it", async () => {
      await bob.goto(boardUrl);
      await bob.getByRole("button", { name: "Confirm result" }).click();
      await expect(bob.getByRole("heading", { level: 1 })).toContainText("FINISHED");
      const { tournament } = await server.gql(`query($t: ID!) { tournament(id: $t) { status } }`, { t: id });
      expect(tournament.status).toBe("COMPLETED");
    });

    await test.step("4. the director corrects it; the reason shows on the board and the audit page", async () => {
      const admin = await signIn(await newContext(PHONE), ADMIN);
      await admin.goto(boardUrl);
      await admin.getByLabel(/^Supply centres of /).nth(0).fill("9");
      await admin.getByLabel(/^Supply centres of /).nth(1).fill("10");
      await admin.getByLabel("Reason for the correction").fill("Recount: England held 10");
      await admin.getByRole("button", { name: "Check the result" }).click();
      await expect(admin.locator(".review .reason")).toHaveText("Reason: Recount: England held 10");
      await admin.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(admin).toHaveURL(new RegExp(`/tournaments/${id}$`));
      await bob.goto(boardUrl);
      await expect(bob.getByRole("region", { name: "Corrections" })).toContainText("Recount: England held 10");
      await bob.goto(`/tournaments/${id}/audit`);
      await expect(bob.getByRole("heading", { level: 1 })).toHaveText("Audit log: Confirmed Cup");
      await expect(bob.locator("tr", { hasText: "BoardResultCorrected" }).locator(".reason")).toHaveText("Reason: Recount: England held 10");
      await expect(bob.locator("tr", { hasText: "BoardResultAwaitingConfirmation" })).toHaveCount(1);
      expect(await sidewaysScroll(bob)).toBe(0);
      expect(await accessibilityProblems(bob)).toEqual([]);
    });
    harness.verify(5);
  } finally {
    await harness.tearDown();
  }
});
