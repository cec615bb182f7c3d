//! Best Country and awards on both databases (`docs/tournaments.md#best-country-and-awards`):
//! the leaders of each power over the finished boards by score, then by centres once the
//! director changes the rule; awards given and revoked; GraphQL, the JSON export and the CLI
//! show the same numbers.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::confirmation::{report, seats_of};
use super::tournament::{diplomacy_result, seed};
use crate::replay::{league, stdout};
use crate::support::{ADMIN, TestApp, spawn_app};

const BEST: &str = "query($t: ID!) {
  tournament(id: $t) {
    bestCountryRule { criterion excludeTopBoards }
    bestCountries { power leaders { player { id } round boardNumber score centres tied } }
    awards { number name player { id } power reason }
    export(format: JSON)
  }
}";

pub(crate) const RULE: &str = "mutation($t: ID!, $c: BestCountryCriterion!, $x: Boolean) {
  changeBestCountryRule(tournamentId: $t, criterion: $c, excludeTopBoards: $x) { id } }";
pub(crate) const GIVE: &str = "mutation($t: ID!, $n: String!, $p: ID!, $w: String, $r: String) {
  giveAward(tournamentId: $t, name: $n, playerId: $p, power: $w, reason: $r) { id } }";
pub(crate) const REVOKE: &str = "mutation($t: ID!, $n: Int!) {
  revokeAward(tournamentId: $t, number: $n) { id } }";

/// A one-round tournament of 14 entrants and its two boards' seats, not yet reported.
pub(crate) async fn two_boards(server: &TestApp, prefix: &str) -> (String, Vec<Vec<String>>) {
    let (id, _) = super::teams::checked_in(server, prefix, 1).await;
    let seeded = seed(server, &id, 1).await;
    let mut boards = Vec::new();
    for board in seeded["data"]["seedRound"]["boards"].as_array().unwrap() {
        boards.push(seats_of(server, &id, board["id"].as_str().unwrap()).await);
    }
    (id, boards)
}

fn centres(seats: &[String], centres: [u32; 7]) -> Value {
    let entries: Vec<Value> = seats
        .iter()
        .zip(centres)
        .map(|(player, centres)| json!({ "playerId": player, "centres": centres }))
        .collect();
    json!({ "diplomacy": entries })
}

async fn best(server: &TestApp, id: &str) -> Value {
    server.data(None, BEST, json!({ "t": id })).await["tournament"].clone()
}

/// `(player, centres, tied)` of each leader of power `power` (0 = Austria).
fn leaders(state: &Value, power: usize) -> Vec<(String, u64, bool)> {
    state["bestCountries"][power]["leaders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let player = l["player"]["id"].as_str().unwrap().to_owned();
            (player, l["centres"].as_u64().unwrap(), l["tied"].as_bool().unwrap())
        })
        .collect()
}

async fn best_country_and_awards_show_the_same_numbers_everywhere(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (id, boards) = two_boards(&server, "Country").await;
    let board_ids = server
        .data(
            None,
            "query($t: ID!) { tournament(id: $t) { rounds { boards { id } } } }",
            json!({ "t": id }),
        )
        .await["tournament"]["rounds"][0]["boards"]
        .clone();
    let board_id = |n: usize| board_ids[n]["id"].as_str().unwrap().to_owned();
    let before = best(&server, &id).await;
    assert_eq!(
        before["bestCountryRule"],
        json!({ "criterion": "SCORE", "excludeTopBoards": false })
    );
    assert_eq!(before["bestCountries"][2]["power"], "France");
    assert_eq!(before["bestCountries"][2]["leaders"], json!([]), "no board finished yet");

    // Board 1: 10, 8, 6, 4, 3, 2, 1 (squares total 230); board 2: 15, 8, 7, 1, 1, 1, 1 (342).
    let first = report(&server, ADMIN, &id, &board_id(0), diplomacy_result(&boards[0])).await;
    assert!(first["errors"].is_null(), "{first}");
    // Live leaders: with one board finished, its Austria leads.
    assert_eq!(leaders(&best(&server, &id).await, 0), [(boards[0][0].clone(), 10, false)]);
    let second = centres(&boards[1], [15, 8, 7, 1, 1, 1, 1]);
    assert!(report(&server, ADMIN, &id, &board_id(1), second).await["errors"].is_null());
    let state = best(&server, &id).await;
    assert_eq!(leaders(&state, 0), [(boards[1][0].clone(), 15, false)]);
    assert_eq!(leaders(&state, 2), [(boards[0][2].clone(), 6, false)], "France by score");
    let france = &state["bestCountries"][2]["leaders"][0];
    assert!((france["score"].as_f64().unwrap() - 3600.0 / 230.0).abs() < 1e-9, "{france}");

    let vars = json!({ "t": id, "c": "CENTRES" });
    assert!(server.gql(Some(ADMIN), RULE, vars).await["errors"].is_null());
    let state = best(&server, &id).await;
    assert_eq!(state["bestCountryRule"]["criterion"], "CENTRES");
    assert_eq!(leaders(&state, 2), [(boards[1][2].clone(), 7, false)], "France by centres");
    assert_eq!(leaders(&state, 1), [(boards[0][1].clone(), 8, false)], "England: score breaks");

    let give = |player: &str, name: &str, power: Option<&str>| json!({ "t": id, "n": name, "p": player, "w": power, "r": "kept every promise" });
    let given = server.gql(Some(ADMIN), GIVE, give(&boards[0][3], "Best Diplomat", None)).await;
    assert!(given["errors"].is_null(), "{given}");
    let vars = give(&boards[1][4], "Best Stab", Some("Italy"));
    assert!(server.gql(Some(ADMIN), GIVE, vars).await["errors"].is_null());
    let revoked = server.gql(Some(ADMIN), REVOKE, json!({ "t": id, "n": 1 })).await;
    assert!(revoked["errors"].is_null(), "{revoked}");
    let state = best(&server, &id).await;
    assert_eq!(
        state["awards"],
        json!([{ "number": 2, "name": "Best Stab", "player": { "id": boards[1][4] },
                 "power": "Italy", "reason": "kept every promise" }])
    );

    // The JSON export and the CLI carry the same leaders and awards.
    let export: Value = serde_json::from_str(state["export"].as_str().unwrap()).unwrap();
    let exported_france: Vec<&Value> = export["bestCountries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["power"] == "France")
        .collect();
    assert_eq!(exported_france.len(), 1);
    assert_eq!(exported_france[0]["playerId"], boards[1][2].as_str());
    assert_eq!(exported_france[0]["centres"], 7);
    assert_eq!(export["awards"][0]["name"], "Best Stab");
    let cli = league(&["tournament", "best-countries", "--tournament", &id], &db);
    assert_eq!(cli.status.code(), Some(0), "{}", stdout(&cli));
    let cli: Value = serde_json::from_str(&stdout(&cli)).unwrap();
    assert_eq!(cli, export["bestCountries"], "the CLI and the export agree");
    let listed = league(&["tournament", "award", "list", "--tournament", &id], &db);
    let listed: Value = serde_json::from_str(&stdout(&listed)).unwrap();
    assert_eq!(listed, export["awards"]);
    let given = league(
        &[
            "tournament",
            "award",
            "give",
            "--tournament",
            &id,
            "--name",
            "Best Newcomer",
            "--player",
            &boards[0][5],
        ],
        &db,
    );
    assert_eq!(given.status.code(), Some(0), "{}", stdout(&given));
    let given: Value = serde_json::from_str(&stdout(&given)).unwrap();
    assert_eq!(given[1]["number"], 3);
    let again =
        league(&["tournament", "award", "revoke", "--tournament", &id, "--number", "1"], &db);
    assert_ne!(again.status.code(), Some(0), "award 1 is already revoked");
}

on_both_databases!(best_country_and_awards_show_the_same_numbers_everywhere);
