//! Every refusal of a tournament command answers the `extensions.code` that
//! `docs/tournaments.md#refusals-and-their-error-codes` gives it: one tournament is driven
//! through its rounds, each refusal of the table is triggered on the way, and its code is
//! compared with the table's row; every row must be triggered, so the table and the code
//! cannot drift apart unseen.

use std::collections::{BTreeMap, BTreeSet};

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use uuid::Uuid;

use super::confirmation::{confirm, dispute, report, seats_of};
use super::tournament::{
    check_in, create, diplomacy_input, diplomacy_result as result_for, enter, report_round, seed,
};
use crate::support::{ADMIN, TestApp, error_of, spawn_app};

/// `(command, refused when) → code`, read from the docs' table.
fn documented() -> BTreeMap<(String, String), String> {
    let docs = include_str!("../../../docs/tournaments.md");
    let section = docs
        .split("## Refusals and their error codes")
        .nth(1)
        .expect("docs/tournaments.md has the refusals section");
    section
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| command"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            let [command, when, code] = cells[..] else { panic!("a row of three cells: {line}") };
            let unquote = |cell: &str| cell.trim_matches('`').to_owned();
            ((unquote(command), when.to_owned()), unquote(code))
        })
        .collect()
}

/// Compares each refusal's code with its documented row and remembers the rows seen.
struct Table {
    rows: BTreeMap<(String, String), String>,
    seen: BTreeSet<(String, String)>,
}

impl Table {
    fn check(&mut self, command: &str, when: &str, response: &Value) {
        let key = (command.to_owned(), when.to_owned());
        let documented = self.rows.get(&key).unwrap_or_else(|| panic!("no row {key:?}"));
        let (code, _) = error_of(response);
        assert_eq!(code, documented, "{command}: {when}: {response}");
        assert!(response["data"].is_null() || response["data"].as_object().is_some());
        self.seen.insert(key);
    }
}

const ENTER: &str =
    "mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }";
const WITHDRAW: &str =
    "mutation($t: ID!, $p: ID) { withdrawFromTournament(tournamentId: $t, playerId: $p) { id } }";
const ROLL_CALL: &str = "mutation($t: ID!, $r: Int!, $p: ID) {
  answerRollCall(tournamentId: $t, round: $r, playerId: $p, present: true) { id } }";
const SEED: &str = "mutation($t: ID!, $r: Int!, $s: String, $out: [ID!]) {
  seedRound(tournamentId: $t, round: $r, seed: $s, sittingOut: $out) { number } }";
const SWAP: &str = "mutation($t: ID!, $r: Int!, $a: ID!, $b: ID!, $why: String!) {
  swapRoundPlayers(tournamentId: $t, round: $r, first: $a, second: $b, reason: $why) { number } }";
const REPORT: &str = "mutation($t: ID!, $b: ID!, $r: GameResultInput!, $x: [ReplacementInput!]) {
  reportBoardResult(tournamentId: $t, boardId: $b, result: $r, replacements: $x) { finished } }";
const CORRECT: &str = "mutation($t: ID!, $b: ID!, $r: GameResultInput!, $why: String!) {
  correctBoardResult(tournamentId: $t, boardId: $b, result: $r, reason: $why) { finished } }";
const CO_ORGANISER: &str =
    "mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }";
const CREATE: &str =
    "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }";
const REGISTRATION: &str = "mutation($t: ID!, $r: TournamentRegistrationInput!) {
  changeTournamentRegistration(tournamentId: $t, registration: $r) { id } }";

const ROUND_TIMES: &str = "mutation($t: ID!, $r: Int!, $s: DateTime!, $e: DateTime) {
  setRoundTimes(tournamentId: $t, round: $r, startsAt: $s, endsAt: $e) { id } }";
const SCHEDULE: &str = "mutation($t: ID!, $s: TournamentScheduleInput!) {
  changeTournamentSchedule(tournamentId: $t, schedule: $s) { id } }";

/// An organiser's decision `command` (`approveTournamentEntry`, …) about player `p`.
fn decision(command: &str) -> String {
    format!("mutation($t: ID!, $p: ID!) {{ {command}(tournamentId: $t, playerId: $p) {{ id }} }}")
}

/// The boards of `round`: (id, seated player ids).
async fn boards(server: &TestApp, id: &str, round: usize) -> Vec<(String, Vec<String>)> {
    let query = "query($id: ID!) { tournament(id: $id) { rounds { boards {
                   id seats { player { id } } } } } }";
    let data = server.data(None, query, json!({ "id": id })).await;
    data["tournament"]["rounds"][round - 1]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|board| {
            let seats = board["seats"].as_array().unwrap();
            let players = seats.iter().map(|s| s["player"]["id"].as_str().unwrap().to_owned());
            (board["id"].as_str().unwrap().to_owned(), players.collect())
        })
        .collect()
}

async fn every_tournament_refusal_has_its_documented_code(db: TestDatabase) {
    let app = spawn_app(&db.url).await;
    let server = &app;
    let mut table = Table { rows: documented(), seen: BTreeSet::new() };
    let players = server.register_many(9, "Entrant").await;
    let (p1, p2, outsider) = (&players[0], &players[1], &players[8]);
    let nobody = Uuid::now_v7().to_string();
    let head = || async { server.app().store().head_position().await.unwrap() };

    // Creation.
    let response = server.gql(None, CREATE, json!({ "input": diplomacy_input(2) })).await;
    table.check("any", "no `Authorization` header", &response);
    let response =
        server.gql(Some(&p1.token), CREATE, json!({ "input": diplomacy_input(2) })).await;
    table.check("createTournament", "the caller is a player not appointed organiser", &response);
    let response = server.gql(Some(ADMIN), CREATE, json!({ "input": diplomacy_input(0) })).await;
    let when = "a setting that cannot work (rounds outside 1–20, k the system does not allow, …)";
    table.check("createTournament", when, &response);
    let created = server.data(Some(ADMIN), CREATE, json!({ "input": diplomacy_input(2) })).await;
    let id = created["createTournament"]["id"].as_str().unwrap().to_owned();

    // Entries.
    let when = "an id argument that is not an id (`tournamentId`, `playerId`, `boardId`, …)";
    table.check(
        "any",
        when,
        &server.gql(Some(ADMIN), ENTER, json!({ "t": "x", "p": p1.id })).await,
    );
    let response = server.gql(Some(ADMIN), ENTER, json!({ "t": nobody, "p": p1.id })).await;
    table.check("any", "no tournament has that id", &response);
    let response = server.gql(Some(ADMIN), ENTER, json!({ "t": id })).await;
    table.check("enterTournament", "the site admin names no player", &response);
    let response = server.gql(Some(&p1.token), ENTER, json!({ "t": id, "p": p2.id })).await;
    let when = "a player enters another, not organising the tournament";
    table.check("enterTournament", when, &response);
    let response = server.gql(Some(ADMIN), ENTER, json!({ "t": id, "p": nobody })).await;
    table.check("enterTournament", "the player is not registered", &response);
    for player in &players[..8] {
        assert!(enter(server, &player.token, &id, None).await["errors"].is_null());
    }
    let when = "the player has already entered, or has withdrawn";
    table.check("enterTournament", when, &enter(server, &p1.token, &id, None).await);

    // Times (`docs/tournaments.md#times`): round 1 starts in three hours with check-in an
    // hour before, so a player's own check-in is refused; then it starts in the past.
    let times = |token: &'static str, round: u32, starts: String, ends: Option<String>| {
        let variables = json!({ "t": id, "r": round, "s": starts, "e": ends });
        async move { server.gql(Some(token), ROUND_TIMES, variables).await }
    };
    let soon = (chrono::Utc::now() + chrono::Duration::hours(3)).to_rfc3339();
    let response =
        server.gql(Some(&p1.token), ROUND_TIMES, json!({ "t": id, "r": 1, "s": soon })).await;
    table.check("setRoundTimes", "the caller does not organise the tournament", &response);
    let when = "the round is not a planned one, or the end is not after the start";
    table.check("setRoundTimes", when, &times(ADMIN, 3, soon.clone(), None).await);
    let response = times(ADMIN, 1, soon.clone(), Some("2020-01-01T00:00:00Z".into())).await;
    table.check("setRoundTimes", when, &response);
    assert!(times(ADMIN, 1, soon.clone(), None).await["errors"].is_null());
    table.check(
        "setRoundTimes",
        "the times would stay as they are",
        &times(ADMIN, 1, soon, None).await,
    );
    let schedule = |token: &'static str, schedule: Value| {
        let variables = json!({ "t": id, "s": schedule });
        async move { server.gql(Some(token), SCHEDULE, variables).await }
    };
    let response = server.gql(Some(&p1.token), SCHEDULE, json!({ "t": id, "s": {} })).await;
    table.check(
        "changeTournamentSchedule",
        "the caller does not organise the tournament",
        &response,
    );
    let when = "an unknown time zone, a last day before the first, or an address without a venue";
    let response = schedule(ADMIN, json!({ "timeZone": "Mars/Olympus" })).await;
    table.check("changeTournamentSchedule", when, &response);
    let schedule_now = schedule(ADMIN, json!({})).await;
    table.check("changeTournamentSchedule", "the schedule would stay as it is", &schedule_now);
    assert!(schedule(ADMIN, json!({ "checkInOpensMinutesBefore": 60 })).await["errors"].is_null());
    let response = server.gql(Some(&p1.token), ROLL_CALL, json!({ "t": id, "r": 1 })).await;
    let when = "a player checks themself in before the round's check-in opens";
    table.check("answerRollCall", when, &response);
    assert!(times(ADMIN, 1, "2020-01-01T09:00:00Z".into(), None).await["errors"].is_null());

    // Withdrawals.
    let response = server.gql(Some(&p1.token), WITHDRAW, json!({ "t": id, "p": p2.id })).await;
    let when = "a player withdraws another, not organising the tournament";
    table.check("withdrawFromTournament", when, &response);
    let response = server.gql(Some(&outsider.token), WITHDRAW, json!({ "t": id })).await;
    let when = "the player has not entered, or has withdrawn";
    table.check("withdrawFromTournament", when, &response);
    let leaver = &players[7];
    assert!(
        server.gql(Some(&leaver.token), WITHDRAW, json!({ "t": id })).await["errors"].is_null()
    );
    let when = "the player has already entered, or has withdrawn";
    table.check("enterTournament", when, &enter(server, &leaver.token, &id, None).await);
    let undo = decision("undoTournamentWithdrawal");
    let response = server.gql(Some(&p1.token), &undo, json!({ "t": id, "p": leaver.id })).await;
    table.check(
        "undoTournamentWithdrawal",
        "the caller does not organise the tournament",
        &response,
    );
    let response = server.gql(Some(ADMIN), &undo, json!({ "t": id, "p": p1.id })).await;
    table.check("undoTournamentWithdrawal", "the player has not withdrawn", &response);

    // Roll call for round 1.
    let response =
        server.gql(Some(&p1.token), ROLL_CALL, json!({ "t": id, "r": 1, "p": p2.id })).await;
    let when = "a player answers for another, not organising the tournament";
    table.check("answerRollCall", when, &response);
    let response = server.gql(Some(&outsider.token), ROLL_CALL, json!({ "t": id, "r": 1 })).await;
    let when = "the player has not entered, or has withdrawn";
    table.check("answerRollCall", when, &response);
    let response = server.gql(Some(&p1.token), ROLL_CALL, json!({ "t": id, "r": 2 })).await;
    table.check("answerRollCall", "the round is not the open one (the next to seed)", &response);
    for player in &players[..7] {
        check_in(server, player, &id, 1, false).await;
    }

    // Seeding round 1.
    let response = server.gql(Some(ADMIN), SEED, json!({ "t": id, "r": 1, "s": "x" })).await;
    table.check("seedRound", "`seed` is not a whole number 0 to 2^64−1", &response);
    let response = server.gql(Some(&p1.token), SEED, json!({ "t": id, "r": 1 })).await;
    table.check("seedRound", "the caller does not organise the tournament", &response);
    let response = server.gql(Some(ADMIN), SEED, json!({ "t": id, "r": 2 })).await;
    table.check("seedRound", "the round is not the next to seed", &response);
    let response =
        server.gql(Some(ADMIN), SEED, json!({ "t": id, "r": 1, "out": [outsider.id] })).await;
    let when = "`sittingOut` or `playingTwice` names a player not present";
    table.check("seedRound", when, &response);
    let response = server.gql(Some(ADMIN), SEED, json!({ "t": id, "r": 1, "out": [p1.id] })).await;
    table.check("seedRound", "the players present cannot fill whole boards", &response);
    assert!(seed(server, &id, 1).await["errors"].is_null());
    let round_1 = boards(server, &id, 1).await;
    let response = server.gql(Some(ADMIN), &undo, json!({ "t": id, "p": leaver.id })).await;
    let when = "a round was seeded since the withdrawal, or the tournament has completed";
    table.check("undoTournamentWithdrawal", when, &response);
    let cap = json!({ "t": id, "r": { "maxEntrants": 9 } });
    let response = server.gql(Some(ADMIN), REGISTRATION, cap).await;
    let when = "round 1 is seeded and a control other than `closed` would change";
    table.check("changeTournamentRegistration", when, &response);
    let (board, seats) = round_1[0].clone();

    // Round 1 is being played.
    let response = server.gql(Some(ADMIN), SEED, json!({ "t": id, "r": 2 })).await;
    table.check("seedRound", "a board of the previous round has no result", &response);
    let response = server.gql(Some(&p1.token), WITHDRAW, json!({ "t": id })).await;
    let when = "the player is seated in a round still being played";
    table.check("withdrawFromTournament", when, &response);
    let swap = |token: &str, round: u32, a: &str, b: &str, why: &str| {
        let variables = json!({ "t": id, "r": round, "a": a, "b": b, "why": why });
        let token = token.to_owned();
        async move { server.gql(Some(&token), SWAP, variables).await }
    };
    let response = swap(&p1.token, 1, &seats[0], &seats[1], "late").await;
    table.check("swapRoundPlayers", "the caller does not organise the tournament", &response);
    let response = swap(ADMIN, 2, &seats[0], &seats[1], "late").await;
    table.check("swapRoundPlayers", "the round is not seeded", &response);
    let when = "the two players are one, both sit out, or one is not in the round";
    table.check("swapRoundPlayers", when, &swap(ADMIN, 1, &seats[0], &seats[0], "late").await);
    table.check("swapRoundPlayers", when, &swap(ADMIN, 1, &seats[0], &outsider.id, "late").await);
    let response = swap(ADMIN, 1, &seats[0], &seats[1], " ").await;
    table.check("swapRoundPlayers", "the reason is empty or too long", &response);

    // Results.
    let report = |token: &str, board: &str, result: Value, replacements: Value| {
        let variables = json!({ "t": id, "b": board, "r": result, "x": replacements });
        let token = token.to_owned();
        async move { server.gql(Some(&token), REPORT, variables).await }
    };
    let response = report(ADMIN, &nobody, result_for(&seats), Value::Null).await;
    table.check("reportBoardResult", "no board of the tournament has that id", &response);
    let response = report(&outsider.token, &board, result_for(&seats), Value::Null).await;
    let when = "the caller is neither seated on the board nor organising the tournament";
    table.check("reportBoardResult", when, &response);
    let response = report(ADMIN, &board, result_for(&seats[..6]), Value::Null).await;
    let when = "the result does not fit the board or its scoring system";
    table.check("reportBoardResult", when, &response);
    let not_seated = json!([{ "seated": outsider.id, "replacement": p2.id }]);
    let response = report(ADMIN, &board, result_for(&seats), not_seated).await;
    let when = "a replacement is not on the board, already plays on it, or is named twice";
    table.check("reportBoardResult", when, &response);
    let unknown = json!([{ "seated": seats[0], "replacement": nobody }]);
    let response = report(ADMIN, &board, result_for(&seats), unknown).await;
    table.check("reportBoardResult", "a replacement player is not registered", &response);
    let correct = |token: &str, board: &str, result: Value, why: &str| {
        let variables = json!({ "t": id, "b": board, "r": result, "why": why });
        let token = token.to_owned();
        async move { server.gql(Some(&token), CORRECT, variables).await }
    };
    let response = correct(ADMIN, &board, result_for(&seats), "typo").await;
    table.check("correctBoardResult", "the board has no result yet", &response);
    assert!(report(ADMIN, &board, result_for(&seats), Value::Null).await["errors"].is_null());
    let response = report(ADMIN, &board, result_for(&seats), Value::Null).await;
    table.check("reportBoardResult", "the board already has a result", &response);
    let response = swap(ADMIN, 1, &seats[0], &seats[1], "late").await;
    table.check("swapRoundPlayers", "a board of the round has a result", &response);
    let response = correct(&p1.token, &board, result_for(&seats), "typo").await;
    table.check("correctBoardResult", "the caller does not organise the tournament", &response);
    let response = correct(ADMIN, &nobody, result_for(&seats), "typo").await;
    table.check("correctBoardResult", "no board of the tournament has that id", &response);
    let response = correct(ADMIN, &board, result_for(&seats), "").await;
    table.check("correctBoardResult", "the reason is empty or too long", &response);
    let response = correct(ADMIN, &board, result_for(&seats[..6]), "typo").await;
    let when = "the result or a replacement does not fit, as when reporting";
    table.check("correctBoardResult", when, &response);

    // Round 2, the last: entries and the roll call close.
    for player in &players[..7] {
        check_in(server, player, &id, 2, false).await;
    }
    assert!(seed(server, &id, 2).await["errors"].is_null());
    let response = enter(server, &outsider.token, &id, None).await;
    table.check("enterTournament", "the last round is already seeded", &response);
    let response = server.gql(Some(&p1.token), ROLL_CALL, json!({ "t": id, "r": 3 })).await;
    table.check("answerRollCall", "every round is already seeded", &response);
    let response = server.gql(Some(ADMIN), SEED, json!({ "t": id, "r": 3 })).await;
    table.check("seedRound", "every round is already seeded", &response);

    // The last round's results complete the tournament: nobody withdraws any more.
    report_round(server, &players, &id, 2).await;
    let response = server.gql(Some(&players[0].token), WITHDRAW, json!({ "t": id })).await;
    table.check("withdrawFromTournament", "the tournament has completed", &response);

    // Co-organisers.
    let add = |token: &str, competition: &str, player: &str| {
        let variables = json!({ "c": competition, "p": player });
        let token = token.to_owned();
        async move { server.gql(Some(&token), CO_ORGANISER, variables).await }
    };
    let response = add(ADMIN, &nobody, &p1.id).await;
    table.check("addCoOrganiser", "no league or tournament has that id", &response);
    let response = add(&p1.token, &id, &p2.id).await;
    table.check("addCoOrganiser", "the caller does not organise the tournament", &response);
    let response = add(ADMIN, &id, &nobody).await;
    table.check("addCoOrganiser", "the player is not registered", &response);
    assert!(add(ADMIN, &id, &p1.id).await["errors"].is_null());
    let before = head().await;
    let response = add(ADMIN, &id, &p1.id).await;
    table.check("addCoOrganiser", "the player already organises it", &response);
    assert_eq!(head().await, before, "a refusal appends nothing");

    registration_refusals(server, &mut table, &players).await;
    confirmation_refusals(server, &mut table).await;
    awards_refusals(server, &mut table).await;
    // Teams on a gateway of their own: the admin's mutations so far would meet its rate limit.
    teams_refusals(&spawn_app(&db.url).await, &mut table).await;
    // A server of its own, so its requests do not meet the first one's rate limit.
    pools_refusals(&spawn_app(&db.url).await, &mut table).await;
    rulings_refusals(server, &mut table).await;

    let untested: Vec<_> = table.rows.keys().filter(|key| !table.seen.contains(*key)).collect();
    assert!(untested.is_empty(), "rows no refusal triggered: {untested:?}");
}

/// The registration controls' refusals, on a tournament of their own: closed, capped at 1,
/// with approval (`docs/tournaments.md#registration`).
async fn registration_refusals(
    server: &TestApp,
    table: &mut Table,
    players: &[crate::support::Player],
) {
    let (p1, p2, p3) = (&players[0], &players[1], &players[2]);
    let mut input = diplomacy_input(2);
    input["registration"] = json!({ "closed": true, "maxEntrants": 1, "approval": true });
    let created = server.data(Some(ADMIN), CREATE, json!({ "input": input })).await;
    let id = created["createTournament"]["id"].as_str().unwrap().to_owned();
    let when = "a player enters themself while registration is closed or outside its window";
    table.check("enterTournament", when, &enter(server, &p1.token, &id, None).await);
    let change = |token: &str, registration: Value| {
        let variables = json!({ "t": id, "r": registration });
        let token = token.to_owned();
        async move { server.gql(Some(&token), REGISTRATION, variables).await }
    };
    let response = change(&p1.token, json!({ "closed": false })).await;
    table.check(
        "changeTournamentRegistration",
        "the caller does not organise the tournament",
        &response,
    );
    let response = change(ADMIN, json!({ "closed": true })).await;
    table.check("changeTournamentRegistration", "the controls would stay as they are", &response);
    let when = "the window closes before it opens, or the cap is below 1";
    table.check(
        "changeTournamentRegistration",
        when,
        &change(ADMIN, json!({ "maxEntrants": 0 })).await,
    );
    let backwards =
        json!({ "opensAt": "2030-01-02T00:00:00Z", "closesAt": "2030-01-01T00:00:00Z" });
    table.check("changeTournamentRegistration", when, &change(ADMIN, backwards).await);
    assert!(change(ADMIN, json!({ "closed": false })).await["errors"].is_null());

    // p1 asks to enter; p3 never asked.
    assert!(enter(server, &p1.token, &id, None).await["errors"].is_null());
    let when = "the player is on the waitlist, has asked to enter, or was declined";
    table.check("enterTournament", when, &enter(server, &p1.token, &id, None).await);
    for command in ["approveTournamentEntry", "declineTournamentEntry"] {
        let mutation = decision(command);
        let response = server.gql(Some(&p2.token), &mutation, json!({ "t": id, "p": p1.id })).await;
        table.check(command, "the caller does not organise the tournament", &response);
        let response = server.gql(Some(ADMIN), &mutation, json!({ "t": id, "p": p3.id })).await;
        table.check(command, "the player has no entry request waiting", &response);
    }
}

on_both_databases!(every_tournament_refusal_has_its_documented_code);

/// The refusals of result confirmation (`docs/tournaments.md#result-confirmation`), on a
/// tournament of their own that asks for it.
async fn confirmation_refusals(server: &TestApp, table: &mut Table) {
    let players = server.register_many(8, "Confirming").await;
    let (outsider, entrants) = players.split_last().unwrap();
    let mut input = diplomacy_input(1);
    input["confirmPlayerResults"] = json!(true);
    let id =
        create(server, input).await["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in entrants {
        assert!(enter(server, &player.token, &id, None).await["errors"].is_null());
        check_in(server, player, &id, 1, false).await;
    }
    let seeded = seed(server, &id, 1).await;
    let board = seeded["data"]["seedRound"]["boards"][0]["id"].as_str().unwrap().to_owned();
    let seats = seats_of(server, &id, &board).await;
    let token = |seat: usize| entrants.iter().find(|p| p.id == seats[seat]).unwrap().token.clone();
    let both = "confirmBoardResult`, `disputeBoardResult";
    let nobody = Uuid::now_v7().to_string();
    let response = confirm(server, ADMIN, &id, &nobody).await;
    table.check(both, "no board of the tournament has that id", &response);
    let response = confirm(server, ADMIN, &id, &board).await;
    table.check(both, "the board has no result awaiting confirmation", &response);
    let reported = report(server, &token(0), &id, &board, result_for(&seats)).await;
    assert!(reported["errors"].is_null(), "{reported}");
    let when = "(confirmation asked) a player's report already awaits confirmation";
    table.check(
        "reportBoardResult",
        when,
        &report(server, &token(1), &id, &board, result_for(&seats)).await,
    );
    let when = "the caller is neither seated on the board nor organising the tournament";
    table.check(both, when, &confirm(server, &outsider.token, &id, &board).await);
    let when = "the caller reported it (and does not direct the tournament)";
    table.check(both, when, &confirm(server, &token(0), &id, &board).await);
    let when = "the reason is empty or too long";
    table.check("disputeBoardResult", when, &dispute(server, &token(1), &id, &board, " ").await);
    let disputed = dispute(server, &token(1), &id, &board, "Austria had 4").await;
    assert!(disputed["errors"].is_null(), "{disputed}");
    let when = "the result is already disputed";
    table.check(
        "disputeBoardResult",
        when,
        &dispute(server, &token(2), &id, &board, "again").await,
    );
    let when = "a player confirms a disputed result";
    table.check("confirmBoardResult", when, &confirm(server, &token(2), &id, &board).await);
}

/// The refusals of Best Country and awards (`docs/tournaments.md#best-country-and-awards`),
/// on a tournament of their own.
async fn awards_refusals(server: &TestApp, table: &mut Table) {
    use super::awards::{GIVE, REVOKE, RULE, two_boards};
    let (id, boards) = two_boards(server, "Awarded").await;
    let player = boards[0][0].clone();
    let entrant = server.register_many(1, "Not entered").await.remove(0);
    let all = "changeBestCountryRule`, `giveAward`, `revokeAward";
    let when = "the caller does not organise the tournament";
    let rule = json!({ "t": id, "c": "CENTRES" });
    table.check(all, when, &server.gql(Some(&entrant.token), RULE, rule).await);
    let give = |name: &str, player: &str, power: Option<&str>| json!({ "t": id, "n": name, "p": player, "w": power });
    let vars = give("Best Diplomat", &player, None);
    table.check(all, when, &server.gql(Some(&entrant.token), GIVE, vars).await);
    let revoke = json!({ "t": id, "n": 1 });
    table.check(all, when, &server.gql(Some(&entrant.token), REVOKE, revoke.clone()).await);
    let same = json!({ "t": id, "c": "SCORE" });
    let response = server.gql(Some(ADMIN), RULE, same).await;
    table.check("changeBestCountryRule", "the rule would stay as it is", &response);
    let vars = give(" ", &player, None);
    let response = server.gql(Some(ADMIN), GIVE, vars).await;
    table.check("giveAward", "the name is empty or too long", &response);
    let nobody = Uuid::now_v7().to_string();
    let response = server.gql(Some(ADMIN), GIVE, give("Best Diplomat", &nobody, None)).await;
    table.check("giveAward", "the player is not registered", &response);
    let vars = give("Best Diplomat", &entrant.id, None);
    let response = server.gql(Some(ADMIN), GIVE, vars).await;
    table.check("giveAward", "the player has not entered the tournament", &response);
    let vars = give("Best Diplomat", &player, Some("Atlantis"));
    let response = server.gql(Some(ADMIN), GIVE, vars).await;
    table.check("giveAward", "the power is none of the board's seats", &response);
    let response = server.gql(Some(ADMIN), REVOKE, revoke.clone()).await;
    table.check("revokeAward", "no award of the tournament has that number", &response);
    let given = server.gql(Some(ADMIN), GIVE, give("Best Diplomat", &player, None)).await;
    assert!(given["errors"].is_null(), "{given}");
    assert!(server.gql(Some(ADMIN), REVOKE, revoke.clone()).await["errors"].is_null());
    let response = server.gql(Some(ADMIN), REVOKE, revoke).await;
    table.check("revokeAward", "the award is already revoked", &response);
}

/// The refusals of teams (`docs/tournaments.md#teams`), on a one-round tournament of 14
/// checked in, whose team of three cannot be kept apart on two boards.
async fn teams_refusals(server: &TestApp, table: &mut Table) {
    use super::teams::{ADD_MEMBER, CREATE_TEAM, TEAM_RULES, checked_in};
    let (id, players) = checked_in(server, "Team refused", 1).await;
    let outsider = server.register_many(1, "Not entered").await.remove(0);
    let all = "changeTeamRules`, `createTeam`, `renameTeam`, `dissolveTeam`, `addTeamMember`, `removeTeamMember";
    let when = "the caller does not organise the tournament";
    let name = |n: &str| json!({ "t": id, "n": n });
    table.check(all, when, &server.gql(Some(&outsider.token), CREATE_TEAM, name("North")).await);
    let rules = |r: Value| json!({ "t": id, "r": r });
    let response = server.gql(Some(&outsider.token), TEAM_RULES, rules(json!({}))).await;
    table.check(all, when, &response);
    let when = "`maxSize` below 2, `best` 0, or a team round that is not a planned round";
    let response = server.gql(Some(ADMIN), TEAM_RULES, rules(json!({ "maxSize": 1 }))).await;
    table.check("changeTeamRules", when, &response);
    let response = server.gql(Some(ADMIN), TEAM_RULES, rules(json!({ "teamRounds": [2] }))).await;
    table.check("changeTeamRules", when, &response);
    let when = "a team already has more members than `maxSize`, a seeded round would change whether it is a team round, or the rules would stay as they are";
    let response = server.gql(Some(ADMIN), TEAM_RULES, rules(json!({}))).await;
    table.check("changeTeamRules", when, &response);
    let both = "createTeam`, `renameTeam";
    let response = server.gql(Some(ADMIN), CREATE_TEAM, name(" ")).await;
    table.check(both, "the name is empty or too long", &response);
    assert!(server.gql(Some(ADMIN), CREATE_TEAM, name("North")).await["errors"].is_null());
    let response = server.gql(Some(ADMIN), CREATE_TEAM, name("NORTH")).await;
    table.check(both, "another team has that name, or the team has it already", &response);
    let member = |team: u32, player: &str| json!({ "t": id, "n": team, "p": player });
    let when = "no standing team of the tournament has that number";
    let four = "renameTeam`, `dissolveTeam`, `addTeamMember`, `removeTeamMember";
    let response = server.gql(Some(ADMIN), ADD_MEMBER, member(7, &players[0].id)).await;
    table.check(four, when, &response);
    let nobody = Uuid::now_v7().to_string();
    let response = server.gql(Some(ADMIN), ADD_MEMBER, member(1, &nobody)).await;
    table.check("addTeamMember", "the player is not registered", &response);
    let response = server.gql(Some(ADMIN), ADD_MEMBER, member(1, &outsider.id)).await;
    table.check("addTeamMember", "the player has not entered the tournament", &response);
    for player in &players[..3] {
        let added = server.gql(Some(ADMIN), ADD_MEMBER, member(1, &player.id)).await;
        assert!(added["errors"].is_null(), "{added}");
    }
    let response = server.gql(Some(ADMIN), ADD_MEMBER, member(1, &players[0].id)).await;
    table.check("addTeamMember", "the player is in a team already, or the team is full", &response);
    let remove = "mutation($t: ID!, $n: Int!, $p: ID!) {
      removeTeamMember(tournamentId: $t, number: $n, playerId: $p) { id } }";
    let response = server.gql(Some(ADMIN), remove, member(1, &players[5].id)).await;
    table.check("removeTeamMember", "the player is not in that team", &response);
    let response = server.gql(Some(ADMIN), SEED, json!({ "t": id, "r": 1 })).await;
    let when = "(a team round) a team cannot be kept apart: more seats to fill than boards, two team-mates on the top board";
    table.check("seedRound", when, &response);
}

/// The refusals of pools and per-round scoring
/// (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`), on a three-round
/// tournament of seven entrants whose round 1 is seeded.
async fn pools_refusals(server: &TestApp, table: &mut Table) {
    use super::pools::{ROUND_SCORING, SET_POOL};
    const REMOVE: &str =
        "mutation($t: ID!, $r: Int!) { removeRoundPool(tournamentId: $t, round: $r) { id } }";
    let players = server.register_many(8, "Pooled").await;
    let (entrants, outsider) = (&players[..7], &players[7]);
    let id = create(server, diplomacy_input(3)).await["data"]["createTournament"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for player in entrants {
        assert!(enter(server, &player.token, &id, None).await["errors"].is_null());
        check_in(server, player, &id, 1, false).await;
    }
    let seeded = seed(server, &id, 1).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
    let ids: Vec<&str> = entrants.iter().map(|p| p.id.as_str()).collect();
    let all = "setRoundPool`, `removeRoundPool`, `setRoundScoring";
    let when = "the caller does not organise the tournament";
    let token = Some(outsider.token.as_str());
    table.check(all, when, &server.gql(token, SET_POOL, json!({ "t": id, "r": 2, "b": 7 })).await);
    table.check(all, when, &server.gql(token, REMOVE, json!({ "t": id, "r": 2 })).await);
    let vars = json!({ "t": id, "r": 2, "s": "SOLO_OR_BUST" });
    table.check(all, when, &server.gql(token, ROUND_SCORING, vars).await);
    let when = "the round is not a planned one";
    table.check(
        all,
        when,
        &server.gql(Some(ADMIN), SET_POOL, json!({ "t": id, "r": 4, "b": 7 })).await,
    );
    let vars = json!({ "t": id, "r": 0, "s": "SOLO_OR_BUST" });
    table.check(all, when, &server.gql(Some(ADMIN), ROUND_SCORING, vars).await);
    let both = "setRoundPool`, `removeRoundPool";
    let when = "the round is already seeded";
    table.check(
        both,
        when,
        &server.gql(Some(ADMIN), SET_POOL, json!({ "t": id, "r": 1, "b": 7 })).await,
    );
    table.check(both, when, &server.gql(Some(ADMIN), REMOVE, json!({ "t": id, "r": 1 })).await);
    let when = "(checked with the arguments, before the rights) both or neither of `best` and `named`, or a multiplier that is not a decimal above 0 and at most 100 with at most 3 decimals";
    let vars = json!({ "t": id, "r": 2, "b": 7, "n": ids });
    table.check("setRoundPool", when, &server.gql(Some(ADMIN), SET_POOL, vars).await);
    let vars = json!({ "t": id, "r": 2, "b": 7, "m": "1.2345" });
    table.check("setRoundPool", when, &server.gql(Some(ADMIN), SET_POOL, vars).await);
    let twice = [&ids[..6], &ids[..1]].concat();
    let vars = json!({ "t": id, "r": 2, "n": twice });
    let response = server.gql(Some(ADMIN), SET_POOL, vars).await;
    table.check("setRoundPool", "a named player is named twice", &response);
    let named = [&ids[..6], &[outsider.id.as_str()][..]].concat();
    let response = server.gql(Some(ADMIN), SET_POOL, json!({ "t": id, "r": 2, "n": named })).await;
    table.check("setRoundPool", "a named player has not entered, or has withdrawn", &response);
    let response = server.gql(Some(ADMIN), SET_POOL, json!({ "t": id, "r": 2, "b": 6 })).await;
    table.check("setRoundPool", "the pool is not a whole number of boards", &response);
    let vars = json!({ "t": id, "r": 2, "b": 7, "d": true });
    let response = server.gql(Some(ADMIN), SET_POOL, vars).await;
    table.check("setRoundPool", "`decidesPlaces` in a round other than the last", &response);
    let vars = json!({ "t": id, "r": 2, "b": 14 });
    assert!(server.gql(Some(ADMIN), SET_POOL, vars.clone()).await["errors"].is_null());
    let response = server.gql(Some(ADMIN), SET_POOL, vars).await;
    table.check("setRoundPool", "the pool would stay as it is", &response);
    let response = server.gql(Some(ADMIN), REMOVE, json!({ "t": id, "r": 3 })).await;
    table.check("removeRoundPool", "the round has no pool", &response);
    let vars = json!({ "t": id, "r": 2, "s": "PLACEMENT" });
    let response = server.gql(Some(ADMIN), ROUND_SCORING, vars).await;
    table.check(
        "setRoundScoring",
        "a system of another game, or one that does not score boards of k",
        &response,
    );
    let vars = json!({ "t": id, "r": 2, "s": "SQUARES" });
    let response = server.gql(Some(ADMIN), ROUND_SCORING, vars).await;
    table.check("setRoundScoring", "the round is already scored by that system", &response);
    let board = &boards(server, &id, 1).await[0];
    let reported = report(server, ADMIN, &id, &board.0, result_for(&board.1)).await;
    assert!(reported["errors"].is_null(), "{reported}");
    let vars = json!({ "t": id, "r": 1, "s": "SOLO_OR_BUST" });
    let response = server.gql(Some(ADMIN), ROUND_SCORING, vars).await;
    table.check("setRoundScoring", "a board of the round has a result", &response);
    for player in entrants {
        check_in(server, player, &id, 2, false).await;
    }
    let when = "the pool cannot be filled (too few present players playing one board, or a named player absent, sitting out or playing twice)";
    table.check("seedRound", when, &seed(server, &id, 2).await);
}

/// The refusals of rulings (`docs/tournaments.md#rulings`), on a tournament of their own.
async fn rulings_refusals(server: &TestApp, table: &mut Table) {
    use super::awards::two_boards;
    use super::rulings::{
        ADJUST, HANDICAP, KEEP_APART, REVOKE, TIE_BREAK, UNRANKED, board_ids, report_all,
    };
    let (id, boards) = two_boards(server, "Ruling").await;
    let board_ids = board_ids(server, &id).await;
    let vars = json!({ "t": id, "p": boards[0][0], "l": "BOARD", "b": board_ids[0], "x": -1.0, "why": "late" });
    let response = server.gql(Some(ADMIN), ADJUST, vars).await;
    table.check("adjustScore", "the board has no result yet", &response);
    report_all(server, &id, &boards, &board_ids).await;
    let player = boards[0][0].clone();
    let outsider = server.register_many(1, "Not ruling").await.remove(0);
    let adjust = |player: &str,
                  level: &str,
                  board: Option<&str>,
                  round: Option<u32>,
                  points: f64,
                  why: &str| {
        json!({ "t": id, "p": player, "l": level, "b": board, "r": round, "x": points, "why": why })
    };
    let all = "adjustScore`, `revokeScoreAdjustment`, `setHandicap`, `setEntrantUnranked`, `changeKeepApart`, `breakTopBoardTie";
    let when = "the caller does not organise the tournament";
    let by_outsider = [
        (ADJUST, adjust(&player, "TOURNAMENT", None, None, -1.0, "late")),
        (REVOKE, json!({ "t": id, "n": 1 })),
        (HANDICAP, json!({ "t": id, "p": player, "x": 1.0 })),
        (UNRANKED, json!({ "t": id, "p": player, "u": true })),
        (KEEP_APART, json!({ "t": id, "a": player, "b": boards[0][1], "k": true })),
        (TIE_BREAK, json!({ "t": id, "r": 1, "o": [player, boards[0][1]], "why": "agreed" })),
    ];
    for (mutation, vars) in by_outsider {
        table.check(all, when, &server.gql(Some(&outsider.token), mutation, vars).await);
    }
    // A co-organiser rules, so the admin's mutation budget is left to the other refusals.
    let director = server.register_many(1, "Ruling director").await.remove(0);
    let co_organise = |competition: &str| json!({ "c": competition, "p": director.id });
    assert!(server.gql(Some(ADMIN), CO_ORGANISER, co_organise(&id)).await["errors"].is_null());
    let admin =
        |mutation: &'static str, vars: Value| server.gql(Some(&director.token), mutation, vars);
    let vars = adjust(&player, "TOURNAMENT", None, None, 0.0, "nothing");
    let when = "points 0, not a number or beyond 10,000 either way";
    table.check("adjustScore", when, &admin(ADJUST, vars).await);
    let vars = adjust(&player, "TOURNAMENT", None, None, -1.0, " ");
    table.check("adjustScore", "the reason is empty or too long", &admin(ADJUST, vars).await);
    let nobody = Uuid::now_v7().to_string();
    let vars = adjust(&nobody, "TOURNAMENT", None, None, -1.0, "late");
    table.check("adjustScore", "the player is not registered", &admin(ADJUST, vars).await);
    let vars = adjust(&player, "BOARD", Some(&nobody), None, -1.0, "late");
    table.check(
        "adjustScore",
        "no board of the tournament has that id",
        &admin(ADJUST, vars).await,
    );
    let vars = adjust(&player, "BOARD", Some(&board_ids[1]), None, -1.0, "late");
    table.check("adjustScore", "the player is not on the board", &admin(ADJUST, vars).await);
    let vars = adjust(&player, "ROUND", None, Some(2), -1.0, "late");
    table.check("adjustScore", "the round is not seeded", &admin(ADJUST, vars).await);
    let response = admin(REVOKE, json!({ "t": id, "n": 1 })).await;
    table.check("revokeScoreAdjustment", "no adjustment has that number", &response);
    let vars = adjust(&player, "TOURNAMENT", None, None, -1.0, "late");
    assert!(admin(ADJUST, vars).await["errors"].is_null());
    assert!(admin(REVOKE, json!({ "t": id, "n": 1 })).await["errors"].is_null());
    let response = admin(REVOKE, json!({ "t": id, "n": 1 })).await;
    table.check("revokeScoreAdjustment", "the adjustment is already revoked", &response);
    let response = admin(HANDICAP, json!({ "t": id, "p": outsider.id, "x": 1.0 })).await;
    table.check("setHandicap", "the player has not entered the tournament", &response);
    let response = admin(HANDICAP, json!({ "t": id, "p": player, "x": 1.0 })).await;
    table.check("setHandicap", "round 1 is seeded", &response);
    let response = admin(UNRANKED, json!({ "t": id, "p": player, "u": false })).await;
    table.check("setEntrantUnranked", "the player is already so", &response);
    let award = "mutation($t: ID!, $p: ID!) { giveAward(tournamentId: $t, name: \"Best Diplomat\", playerId: $p) { id } }";
    assert!(admin(award, json!({ "t": id, "p": player })).await["errors"].is_null());
    let response = admin(UNRANKED, json!({ "t": id, "p": player, "u": true })).await;
    table.check("setEntrantUnranked", "(to unrank) the player holds an award", &response);
    let response = admin(KEEP_APART, json!({ "t": id, "a": player, "b": player, "k": true })).await;
    table.check("changeKeepApart", "the two players are one", &response);
    let pair = json!({ "t": id, "a": player, "b": boards[0][1], "k": true });
    table.check("changeKeepApart", "every round is seeded", &admin(KEEP_APART, pair).await);
    // A tournament with a round left to seed: a pair added twice, one never added removed.
    let open = server
        .data(
            Some(ADMIN),
            "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }",
            json!({ "input": super::tournament::diplomacy_input(2) }),
        )
        .await["createTournament"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(server.gql(Some(ADMIN), CO_ORGANISER, co_organise(&open)).await["errors"].is_null());
    let pair = |keep: bool| json!({ "t": open, "a": player, "b": boards[0][1], "k": keep });
    let when = "the pair is already kept apart (to add), or is not (to remove)";
    table.check("changeKeepApart", when, &admin(KEEP_APART, pair(false)).await);
    assert!(admin(KEEP_APART, pair(true)).await["errors"].is_null());
    table.check("changeKeepApart", when, &admin(KEEP_APART, pair(true)).await);
    let order = json!({ "t": id, "r": 1, "o": [player, boards[0][1]], "why": "agreed" });
    let when = "the round is not seeded or has no top board; fewer than two players, one named twice, or one not on that board; the reason is empty";
    table.check("breakTopBoardTie", when, &admin(TIE_BREAK, order).await);
}
