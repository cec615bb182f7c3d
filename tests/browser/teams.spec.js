// @ts-check
// Teams in the web app (docs/tournaments.md#teams), on a 390 px phone and a desktop: a
// director makes two teams of two from the tournament page's "Teams" section (one step away
// in "Manage teams"), seeds a team round from the roll call — team-mates land on different
// boards — and once the boards are reported a spectator, not signed in, sees the team
// standings with each team's members. Actions (clicks, fills and choices) are counted. No
// sideways scroll at 360 px, no serious or critical axe-core violation; every GraphQL
// document sent fits schema.graphql.
import { test, expect } from "@playwright/test";
import { ADMIN } from "./server.js";
import { setUp, pageIsSound, PHONE, DESKTOP } from "./harness.js";

test("a director makes teams, seeds a team round and a spectator sees team standings", async ({ browser }, info) => {
  const harness = await setUp(browser, info);
  if (!harness) return;
  const { server, newContext, signIn } = harness;
  try {
    for (const [label, device] of /** @type {const} */ ([["Phone", PHONE], ["Desktop", DESKTOP]])) {
      /** @type {string[]} */
      const names = [];
      /** @type {string[]} */
      const ids = [];
      for (let i = 1; i <= 14; i += 1) {
        const name = `${label[0]}${i}`;
        const { registerPlayer } = await server.gql(`mutation($n: String!) { registerPlayer(input: {name: $n}) { player { id } } }`, { n: name });
        names.push(name);
        ids.push(registerPlayer.player.id);
      }
      const input = { name: `${label} Team Cup`, game: "Diplomacy", scoringSystem: "SQUARES", playersPerBoard: 7, rounds: 1, tournamentScoring: "sum-all-rounds" };
      const { createTournament } = await server.gql(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }`, { i: input });
      const id = createTournament.id;
      for (const player of ids) {
        await server.gql(`mutation($t: ID!, $p: ID!) { enterTournament(tournamentId: $t, playerId: $p) { id } }`, { t: id, p: player });
        await server.gql(`mutation($t: ID!, $p: ID!) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }`, { t: id, p: player });
      }
      const teams = /** @type {const} */ ([["North", [0, 1]], ["South", [2, 3]]]);

      await test.step(`${label}: the director makes two teams and seeds a team round`, async () => {
        const admin = await signIn(await newContext(device), ADMIN);
        await admin.goto(`/tournaments/${id}`);
        const section = admin.getByRole("region", { name: "Teams" });
        await expect(section.getByText("No teams yet.")).toBeVisible();
        let actions = 0;
        for (const [team, members] of teams) {
          await section.getByLabel("Team name").fill(team);
          await section.getByRole("button", { name: "Create team" }).click();
          actions += 2;
          await expect(section.getByRole("button", { name: `Add to ${team}` })).toBeVisible();
          for (const member of members) {
            await section.getByLabel(`Entrant for ${team}`).selectOption({ label: names[member] });
            await section.getByRole("button", { name: `Add to ${team}` }).click();
            actions += 2;
            await expect(section.getByRole("button", { name: `Take out ${names[member]} from ${team}` })).toBeVisible();
          }
        }
        await expect(section.locator("ol.team-standings > li")).toHaveCount(2);
        await pageIsSound(admin);
        await admin.getByRole("button", { name: "Seed round 1" }).click();
        actions += 1;
        await expect(admin.locator(`section.round[data-round="1"] table.boards tbody tr`)).toHaveCount(2);
        const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { rounds { boards { id seats { player { id } } } } } }`, { id });
        const boards = tournament.rounds[0].boards;
        const boardOf = (/** @type {string} */ player) => boards.findIndex((/** @type {any} */ b) => b.seats.some((/** @type {any} */ s) => s.player.id === player));
        for (const [, [a, b]] of teams) expect(boardOf(ids[a])).not.toBe(boardOf(ids[b]));
        console.log(`${label}: two teams of two made and a team round seeded in ${actions} actions`);
        const centres = [10, 8, 6, 4, 3, 2, 1];
        for (const board of boards) {
          const result = { diplomacy: board.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ playerId: s.player.id, centres: centres[i] })) };
          await server.gql(`mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }`, { t: id, b: board.id, r: result });
        }
      });

      await test.step(`${label}: a spectator sees the team standings`, async () => {
        const { tournament } = await server.gql(`query($id: ID!) { tournament(id: $id) { teamStandings { rank total team { name } } } }`, { id });
        const spectator = await newContext(device);
        const page = await spectator.newPage();
        await page.goto(`/tournaments/${id}`);
        const section = page.getByRole("region", { name: "Teams" });
        const rows = section.locator("ol.team-standings > li");
        await expect(rows).toHaveCount(2);
        const first = tournament.teamStandings[0];
        await expect(rows.first()).toContainText(`${first.rank}. ${first.team.name}`);
        const members = teams.find(([team]) => team === first.team.name)?.[1] ?? [];
        await expect(rows.first()).toContainText(members.map((m) => names[m]).join(", "));
        await expect(section.getByText("Manage teams")).toHaveCount(0);
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
