//! Pools and per-round scoring on both databases
//! (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`): the World Diplomacy
//! Championship 2025 format played end to end — 28 players, three preliminary rounds, round 4's
//! championship pool of the best 21 on boards 1–3 — with generated results; the final totals
//! follow the format's rule, and GraphQL, the JSON export and the CLI show the same numbers.
//! Then a round scored by its own system, and a pool's multiplier on a second tournament.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::confirmation::{report, seats_of};
use super::tournament::{check_in, create, diplomacy_result, enter, seed};
use crate::replay::{league, stdout};
use crate::support::{ADMIN, TestApp, spawn_app};

pub(crate) const SET_POOL: &str = "mutation($t: ID!, $r: Int!, $b: Int, $n: [ID!], $m: String, $d: Boolean, $k: String) {
  setRoundPool(tournamentId: $t, round: $r, best: $b, named: $n, multiplier: $m,
               decidesPlaces: $d, idempotencyKey: $k) {
    roundStages { round pool { best multiplier decidesPlaces poolBoards } scoringSystem ownScoringSystem }
  } }";
pub(crate) const ROUND_SCORING: &str = "mutation($t: ID!, $r: Int!, $s: ScoringSystem!) {
  setRoundScoring(tournamentId: $t, round: $r, scoringSystem: $s) { id } }";

const STANDINGS: &str = "query($t: ID!, $a: Int) {
  tournament(id: $t) {
    standings(afterRound: $a) { rank player { id } total notes rounds { round score } }
    rounds { number boards { id number } }
    export(format: JSON)
  } }";

async fn standings(server: &TestApp, id: &str, after_round: Option<u32>) -> Value {
    server.data(None, STANDINGS, json!({ "t": id, "a": after_round })).await["tournament"].clone()
}

/// Seeds round `round` and reports every board 10, 8, 6, 4, 3, 2, 1 centres in seat order;
/// returns each board's seats.
async fn play_round(server: &TestApp, id: &str, round: u32) -> Vec<Vec<String>> {
    let seeded = seed(server, id, round).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
    let mut boards = Vec::new();
    for board in seeded["data"]["seedRound"]["boards"].as_array().unwrap() {
        let board_id = board["id"].as_str().unwrap();
        let seats = seats_of(server, id, board_id).await;
        let reported = report(server, ADMIN, id, board_id, diplomacy_result(&seats)).await;
        assert!(reported["errors"].is_null(), "{reported}");
        boards.push(seats);
    }
    boards
}

fn thousandths(value: &Value) -> i64 {
    (value.as_f64().unwrap() * 1000.0).round() as i64
}

async fn the_wdc_2025_format_runs_end_to_end(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(28, "Wdc").await;
    let input = json!({
        "name": "WDC 2025", "game": "Diplomacy", "scoringSystem": "SQUARES",
        "playersPerBoard": 7, "rounds": 4, "tournamentScoring": "wdc-2025",
    });
    let id =
        create(&server, input).await["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
    }
    // The championship pool is set before anything is played (a retry with its key is one
    // event), and refused for a round already seeded.
    let vars = json!({ "t": id, "r": 4, "b": 21, "m": "1", "k": "pool-4" });
    let set = server.gql(Some(ADMIN), SET_POOL, vars.clone()).await;
    assert!(set["errors"].is_null(), "{set}");
    assert_eq!(
        set["data"]["setRoundPool"]["roundStages"][3],
        json!({ "round": 4, "pool": { "best": 21, "multiplier": "1", "decidesPlaces": false,
                 "poolBoards": null }, "scoringSystem": "SQUARES", "ownScoringSystem": false })
    );
    assert!(server.gql(Some(ADMIN), SET_POOL, vars).await["errors"].is_null(), "same key");
    for round in 1..=3 {
        for player in &players {
            check_in(&server, player, &id, round, false).await;
        }
        play_round(&server, &id, round).await;
    }
    let early = standings(&server, &id, Some(3)).await;
    let mut best_21: Vec<String> = early["standings"].as_array().unwrap()[..21]
        .iter()
        .map(|s| s["player"]["id"].as_str().unwrap().to_owned())
        .collect();
    for player in &players {
        check_in(&server, player, &id, 4, false).await;
    }
    let boards = play_round(&server, &id, 4).await;
    let mut pool: Vec<String> = boards[..3].concat();
    pool.sort();
    best_21.sort();
    assert_eq!(pool, best_21, "boards 1–3 of round 4 seat the best 21 after round 3");
    let late = server.gql(Some(ADMIN), SET_POOL, json!({ "t": id, "r": 4, "b": 14 })).await;
    assert_eq!(late["errors"][0]["extensions"]["code"], "CONFLICT", "{late}");

    // Each total is the best 2 of rounds 1–3 plus round 4, ×1.5 for the top 21.
    let state = standings(&server, &id, None).await;
    let lines = state["standings"].as_array().unwrap();
    assert_eq!(lines.len(), 28);
    for line in lines {
        let rounds = line["rounds"].as_array().unwrap();
        let mut early: Vec<i64> = rounds[..3].iter().map(|r| thousandths(&r["score"])).collect();
        early.sort_unstable_by(|a, b| b.cmp(a));
        let notes: Vec<&str> =
            line["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        let top = notes.iter().any(|n| n.starts_with("in the top 21 after round 3"));
        let fourth = thousandths(&rounds[3]["score"]);
        let expected = early[0] + early[1] + if top { fourth * 3 / 2 } else { fourth };
        assert!((thousandths(&line["total"]) - expected).abs() <= 1, "{line}");
        let player = line["player"]["id"].as_str().unwrap().to_owned();
        assert_eq!(notes.contains(&"pool: round 4 ×1"), pool.contains(&player), "{line}");
    }

    // The JSON export and the CLI show the same ranks and totals, and the export the pool.
    let export: Value = serde_json::from_str(state["export"].as_str().unwrap()).unwrap();
    let cli = league(&["tournament", "standings", "--tournament", &id], &db);
    assert_eq!(cli.status.code(), Some(0), "{}", stdout(&cli));
    let cli: Value = serde_json::from_str(&stdout(&cli)).unwrap();
    for (index, line) in lines.iter().enumerate() {
        let exported = &export["standings"][index];
        assert_eq!(exported["playerId"], line["player"]["id"]);
        assert_eq!(exported["rank"], line["rank"]);
        assert_eq!(thousandths(&exported["total"]), thousandths(&line["total"]));
        assert_eq!(cli[index]["player"], line["player"]["id"]);
        assert_eq!(thousandths(&cli[index]["total"]), thousandths(&line["total"]));
        let in_pool = pool.iter().any(|p| line["player"]["id"] == p.as_str());
        assert_eq!(exported["pools"] == json!(["pool: round 4 ×1"]), in_pool, "{exported}");
    }
    assert_eq!(
        export["roundStages"],
        json!([{ "round": 4, "scoringSystem": "squares", "poolBest": 21, "multiplier": "1",
                 "poolBoards": 3 }])
    );
    let listed = league(&["tournament", "pool", "list", "--tournament", &id], &db);
    assert_eq!(listed.status.code(), Some(0), "{}", stdout(&listed));
    let listed: Value = serde_json::from_str(&stdout(&listed)).unwrap();
    assert_eq!(listed, export["roundStages"], "the CLI and the export agree");
    let verified = league(&["tournament", "verify-seeding", "--tournament", &id], &db);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));
}

on_both_databases!(the_wdc_2025_format_runs_end_to_end);

/// A pool ×1.5 deciding places, and a round scored by its own system, set from the CLI and
/// GraphQL: 14 players, two rounds, round 2's pool the best 7.
async fn a_pool_multiplies_and_a_round_has_its_own_system(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(14, "Pool").await;
    let input = json!({
        "name": "Pool Cup", "game": "Diplomacy", "scoringSystem": "SQUARES",
        "playersPerBoard": 7, "rounds": 2, "tournamentScoring": "sum-all-rounds",
    });
    let id =
        create(&server, input).await["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
        check_in(&server, player, &id, 1, false).await;
    }
    let by_player = server
        .gql(Some(&players[0].token), SET_POOL, json!({ "t": id, "r": 2, "b": 7, "m": "1.5" }))
        .await;
    assert_eq!(by_player["errors"][0]["extensions"]["code"], "FORBIDDEN", "{by_player}");
    let set = league(
        &[
            "tournament",
            "pool",
            "set",
            "--tournament",
            &id,
            "--round",
            "2",
            "--best",
            "7",
            "--multiplier",
            "1.5",
            "--decides-places",
        ],
        &db,
    );
    assert_eq!(set.status.code(), Some(0), "{}", stdout(&set));
    let vars = json!({ "t": id, "r": 1, "s": "SOLO_OR_BUST" });
    let scored = server.gql(Some(ADMIN), ROUND_SCORING, vars).await;
    assert!(scored["errors"].is_null(), "{scored}");
    play_round(&server, &id, 1).await;
    for player in &players {
        check_in(&server, player, &id, 2, false).await;
    }
    let boards = play_round(&server, &id, 2).await;
    let state = standings(&server, &id, None).await;
    let lines = state["standings"].as_array().unwrap();
    // Round 1 (solo or bust, no solo) scores 0; round 2's pool board ×1.5: 43.478 → 65.217.
    for line in lines {
        assert_eq!(line["rounds"][0]["score"], 0.0, "{line}");
    }
    let ranked: Vec<&str> = lines.iter().map(|l| l["player"]["id"].as_str().unwrap()).collect();
    assert_eq!(ranked[..7], boards[0].iter().map(String::as_str).collect::<Vec<_>>()[..]);
    assert_eq!(thousandths(&lines[0]["total"]), 65_217);
    assert_eq!(thousandths(&lines[7]["total"]), 43_478, "board 2's winner is 8th");
    let export: Value = serde_json::from_str(state["export"].as_str().unwrap()).unwrap();
    assert_eq!(
        export["standings"][0]["pools"],
        json!(["pool: round 2 ×1.5", "pool: place decided in round 2, 65.217 there"])
    );
}

on_both_databases!(a_pool_multiplies_and_a_round_has_its_own_system);
