//! Tournaments over GraphQL on both databases (`docs/tournaments.md`): entries, a roll call
//! with a standby, seeding, results from a seated player and the admin, standings per round
//! and as of a position, a sit-out rotated to someone else, ratings counting boards, seeding
//! checks, refusals that change nothing, and `league tournament` on the same log.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::replay::{league, stdout};
use crate::support::{ADMIN, Player, TestApp, error_of, spawn_app};

const TOURNAMENT: &str = "query($id: ID!, $after: Int, $asOf: AsOf) {
  tournament(id: $id) {
    id status nextRound seatLabels
    entrants { player { id } enteredAfterRound withdrawnAfterRound }
    proposal { round present sittingOut { id } playingTwice { id } problem }
    rounds {
      number completed sittingOut { id } playingTwice { id }
      seeding { algorithm seed inputsDigest repeatScore seatRepeats keepApartMet }
      boards { id number finished seats { seat label player { id } } }
    }
    standings(afterRound: $after, asOf: $asOf) {
      rank total games player { id } rounds { round score satOut dropped }
    }
    seedingChecks { round verified }
  }
}";

pub(crate) async fn tournament(
    server: &TestApp,
    id: &str,
    after: Option<u32>,
    as_of: Value,
) -> Value {
    let data =
        server.data(None, TOURNAMENT, json!({ "id": id, "after": after, "asOf": as_of })).await;
    data["tournament"].clone()
}

pub(crate) async fn create(server: &TestApp, input: Value) -> Value {
    server
        .gql(
            Some(ADMIN),
            "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }",
            json!({ "input": input }),
        )
        .await
}

pub(crate) fn diplomacy_input(rounds: u32) -> Value {
    json!({
        "name": "Autumn Cup", "game": "Diplomacy", "scoringSystem": "SQUARES",
        "playersPerBoard": 7, "rounds": rounds, "tournamentScoring": "sum-all-rounds",
    })
}

pub(crate) async fn enter(server: &TestApp, token: &str, id: &str, player: Option<&str>) -> Value {
    server
        .gql(
            Some(token),
            "mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }",
            json!({ "t": id, "p": player }),
        )
        .await
}

pub(crate) async fn check_in(
    server: &TestApp,
    player: &Player,
    id: &str,
    round: u32,
    standby: bool,
) {
    let response = server
        .gql(
            Some(&player.token),
            "mutation($t: ID!, $r: Int!, $s: Boolean!) {
               answerRollCall(tournamentId: $t, round: $r, present: true, standby: $s) { id }
             }",
            json!({ "t": id, "r": round, "s": standby }),
        )
        .await;
    assert!(response["errors"].is_null(), "{response}");
}

pub(crate) async fn seed(server: &TestApp, id: &str, round: u32) -> Value {
    server
        .gql(
            Some(ADMIN),
            "mutation($t: ID!, $r: Int!) {
               seedRound(tournamentId: $t, round: $r, seed: \"42\") { number boards { id } }
             }",
            json!({ "t": id, "r": round }),
        )
        .await
}

/// A Diplomacy result for `seats`: 10, 8, 6, 4, 3, 2, 1 centres.
pub(crate) fn diplomacy_result(seats: &[impl AsRef<str>]) -> Value {
    let centres = [10, 8, 6, 4, 3, 2, 1];
    let entries: Vec<Value> = seats
        .iter()
        .zip(centres)
        .map(|(player, centres)| json!({ "playerId": player.as_ref(), "centres": centres }))
        .collect();
    json!({ "diplomacy": entries })
}

/// The player ids of a board's seats (as `tournament` reads it), in seat order.
pub(crate) fn seat_ids(board: &Value) -> Vec<&str> {
    board["seats"].as_array().unwrap().iter().map(|s| s["player"]["id"].as_str().unwrap()).collect()
}

/// Reports every board of `round`: seat i gets 10 − i-ish centres; board 1 by one of its
/// seated players (their own token), the others by the admin.
pub(crate) async fn report_round(server: &TestApp, players: &[Player], id: &str, round: u32) {
    let state = tournament(server, id, None, Value::Null).await;
    let boards = state["rounds"][round as usize - 1]["boards"].as_array().unwrap().clone();
    for (index, board) in boards.iter().enumerate() {
        let seats = seat_ids(board);
        let token = if index == 0 {
            players.iter().find(|p| p.id == seats[3]).map(|p| p.token.clone()).unwrap()
        } else {
            ADMIN.to_owned()
        };
        let response = server
            .gql(
                Some(&token),
                "mutation($t: ID!, $b: ID!, $r: GameResultInput!) {
                   reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished }
                 }",
                json!({ "t": id, "b": board["id"], "r": diplomacy_result(&seats) }),
            )
            .await;
        assert_eq!(response["data"]["reportBoardResult"]["finished"], true, "{response}");
    }
}

/// A 15-player, 2-round tournament: a standby sits out round 1, someone else round 2.
async fn a_tournament_runs_in_rounds(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(15, "Entrant").await;
    let created = create(&server, diplomacy_input(2)).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for (n, player) in players.iter().enumerate() {
        // Players enter themselves; the admin enters the last five.
        let response = if n < 10 {
            enter(&server, &player.token, &id, None).await
        } else {
            enter(&server, ADMIN, &id, Some(&player.id)).await
        };
        assert!(response["errors"].is_null(), "{response}");
    }
    for (n, player) in players.iter().enumerate() {
        check_in(&server, player, &id, 1, n == 14).await;
    }
    let state = tournament(&server, &id, None, Value::Null).await;
    assert_eq!(state["proposal"]["present"], 15);
    assert_eq!(state["proposal"]["sittingOut"], json!([{ "id": players[14].id }]));
    // Round 2 cannot be seeded before round 1: refused, nothing appended.
    let before = server.event_count().await;
    let refused = seed(&server, &id, 2).await;
    assert_eq!(error_of(&refused), ("BAD_USER_INPUT", Some("round")));
    assert_eq!(server.event_count().await, before);

    let seeded = seed(&server, &id, 1).await;
    assert_eq!(seeded["data"]["seedRound"]["boards"].as_array().unwrap().len(), 2, "{seeded}");
    let state = tournament(&server, &id, None, Value::Null).await;
    let round = &state["rounds"][0];
    assert_eq!(round["sittingOut"], json!([{ "id": players[14].id }]));
    assert_eq!(round["seeding"]["algorithm"], league_scheduling::SEEDING_ALGORITHM);
    assert_eq!(round["seeding"]["seed"], "42");
    let labels: Vec<&str> = round["boards"][0]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, league_domain::DIPLOMACY_POWERS);

    report_round(&server, &players, &id, 1).await;
    let after_one = tournament(&server, &id, None, Value::Null).await;
    let position_after_one = server.event_count().await;
    assert_eq!(after_one["rounds"][0]["completed"], true);
    let standings = after_one["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 15);
    let ranks: Vec<u64> = standings.iter().map(|s| s["rank"].as_u64().unwrap()).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]));
    let standby = standings.iter().find(|s| s["player"]["id"] == players[14].id.as_str()).unwrap();
    assert_eq!(
        (standby["games"].clone(), standby["rounds"][0]["satOut"].clone()),
        (json!(0), json!(true))
    );

    for player in &players {
        check_in(&server, player, &id, 2, false).await;
    }
    seed(&server, &id, 2).await;
    let state = tournament(&server, &id, None, Value::Null).await;
    let out: Vec<&str> = state["rounds"][1]["sittingOut"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(out.len(), 1);
    assert_ne!(out[0], players[14].id, "the round-1 standby has sat out already");
    report_round(&server, &players, &id, 2).await;

    let done = tournament(&server, &id, None, Value::Null).await;
    assert_eq!(done["status"], "COMPLETED");
    assert_eq!(done["nextRound"], Value::Null);
    assert_eq!(
        done["seedingChecks"],
        json!([{ "round": 1, "verified": true }, { "round": 2, "verified": true }])
    );
    // As of the position after round 1: the standings after round 1.
    let then = tournament(&server, &id, None, json!({ "position": position_after_one })).await;
    let after_round_one = tournament(&server, &id, Some(1), Value::Null).await;
    assert_eq!(then["standings"], after_one["standings"]);
    assert_eq!(after_round_one["standings"], after_one["standings"]);
    assert_ne!(done["standings"], after_one["standings"]);

    // Ratings count tournament boards: a player on two boards has two rated games.
    let two_boards =
        done["standings"].as_array().unwrap().iter().find(|s| s["games"] == 2).unwrap();
    let rating = server
        .data(
            None,
            "query($id: ID!) { player(id: $id) { rating(game: DIPLOMACY) { games } } }",
            json!({ "id": two_boards["player"]["id"] }),
        )
        .await;
    assert_eq!(rating["player"]["rating"]["games"], 2);

    // The tournament's audit log: its stream, every step an event.
    let audit = server
        .data(
            None,
            "query($t: ID) { events(tournamentId: $t, first: 100) {
               totalCount edges { node { type } } } }",
            json!({ "t": id }),
        )
        .await;
    let types: Vec<&str> = audit["events"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["type"].as_str().unwrap())
        .collect();
    assert_eq!(audit["events"]["totalCount"].as_u64().unwrap() as usize, types.len());
    assert_eq!(types.first(), Some(&"TournamentCreated"));
    assert_eq!(types.iter().filter(|t| **t == "RoundSeeded").count(), 2);
    assert_eq!(types.iter().filter(|t| **t == "BoardFinished").count(), 4);
    assert_eq!(types.last(), Some(&"TournamentCompleted"));

    // The CLI reads the same log.
    let verified = league(&["tournament", "verify-seeding", "--tournament", &id], &db);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));
    assert_eq!(stdout(&verified).matches(": verified").count(), 2);
    let boards = league(&["tournament", "boards", "--tournament", &id, "--round", "1"], &db);
    assert_eq!(stdout(&boards).matches("Austria").count(), 2, "{}", stdout(&boards));
    assert!(stdout(&boards).contains("Sitting out: Entrant 15"));
    let json_standings =
        league(&["tournament", "standings", "--tournament", &id, "--after-round", "1"], &db);
    let rows: Vec<Value> = serde_json::from_str(&stdout(&json_standings)).unwrap();
    assert_eq!(rows.len(), 15);
    let audit = league(&["tournament", "audit", "--tournament", &id], &db);
    let audit = stdout(&audit);
    assert_eq!(audit.matches("RoundSeeded by admin: round").count(), 2, "{audit}");
    assert!(audit.contains("round 1, board 1") && audit.contains("round 2, board 2"), "{audit}");
    assert!(
        audit
            .lines()
            .any(|l| l.contains("round 1: Entrant 15 (") && l.ends_with("present, standby")),
        "{audit}"
    );
    let standings_lines = audit.split("Standings now:").nth(1).unwrap().trim().lines().count();
    assert_eq!(standings_lines, 15);
    let unknown = league(&["tournament", "standings", "--tournament", &players[0].id], &db);
    assert_eq!(unknown.status.code(), Some(2));
}

/// Bad input is a typed error and appends nothing: an unknown tournament scoring, a WDC 2025
/// tournament of 3 rounds, a player entering twice, a roll call of someone not entered, too
/// few players to seat.
async fn bad_input_is_refused_and_changes_nothing(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(8, "Entrant").await;
    let start = server.event_count().await;
    let mut input = diplomacy_input(3);
    input["tournamentScoring"] = json!("best-of-everything");
    assert_eq!(
        error_of(&create(&server, input).await),
        ("BAD_USER_INPUT", Some("input.tournamentScoring"))
    );
    let mut input = diplomacy_input(3);
    input["tournamentScoring"] = json!("wdc-2025");
    assert_eq!(
        error_of(&create(&server, input).await),
        ("BAD_USER_INPUT", Some("tournamentScoring"))
    );
    let by_player = server
        .gql(
            Some(&players[0].token),
            "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }",
            json!({ "input": diplomacy_input(3) }),
        )
        .await;
    assert_eq!(error_of(&by_player).0, "FORBIDDEN");
    assert_eq!(server.event_count().await, start);

    let created = create(&server, diplomacy_input(3)).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players[..5] {
        enter(&server, &player.token, &id, None).await;
        check_in(&server, player, &id, 1, false).await;
    }
    let start = server.event_count().await;
    assert_eq!(error_of(&enter(&server, &players[0].token, &id, None).await).0, "CONFLICT");
    let not_entered = server
        .gql(
            Some(&players[7].token),
            "mutation($t: ID!) { answerRollCall(tournamentId: $t, round: 1, present: true) { id } }",
            json!({ "t": id }),
        )
        .await;
    assert_eq!(error_of(&not_entered).0, "CONFLICT");
    let state = tournament(&server, &id, None, Value::Null).await;
    let problem = state["proposal"]["problem"].as_str().unwrap().to_owned();
    let too_few = seed(&server, &id, 1).await;
    assert_eq!(error_of(&too_few).0, "CONFLICT");
    let message = too_few["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("5 players present") && problem.contains("5 players present"),
        "{message} / {problem}"
    );
    assert_eq!(server.event_count().await, start);
}

on_both_databases!(a_tournament_runs_in_rounds, bad_input_is_refused_and_changes_nothing);
