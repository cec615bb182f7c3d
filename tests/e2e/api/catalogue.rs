//! The Diplomacy scoring catalogue through the API: a league under one of the dipvis systems
//! (`docs/scoring.md#the-dipvis-catalogue`) takes results and scores them by that system.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::support::{ADMIN, error_of, spawn_app};

const REPORT: &str = "mutation($g: ID!, $r: GameResultInput!) {
    reportGameResult(gameId: $g, result: $r) { id status scores { player { id } score } }
}";

/// The worked solo of docs/scoring.md#haight: 18, 6, 4, 3, 2, 1 centres and a power that fell
/// in 1908, in seat order; the soloist's `soloYear` when given.
fn solo_result(seats: &[String], solo_year: Option<i32>) -> Value {
    let centres = [18, 6, 4, 3, 2, 1, 0];
    let entries: Vec<Value> = seats
        .iter()
        .zip(centres)
        .map(|(player, centres)| {
            let mut entry = json!({ "playerId": player, "centres": centres });
            if centres == 0 {
                entry["eliminated"] = json!(true);
                entry["eliminatedYear"] = json!(1908);
            }
            if centres == 18 {
                entry["soloYear"] = json!(solo_year);
            }
            entry
        })
        .collect();
    json!({ "diplomacy": entries })
}

/// A Haight v1.0 league: a solo without its year is refused naming `soloYear` and appends
/// nothing; with the year the game scores 451, 30, 20, 15, 10, 10, 8 and the standings follow.
async fn a_haight_league_scores_a_solo(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(8, "Power").await;
    let league = server
        .create_league_with(json!({
            "name": "Haight cup", "game": "Diplomacy", "scoringSystem": "HAIGHT",
            "playersPerGame": 7,
        }))
        .await;
    assert_eq!(league["scoringSystem"], json!("HAIGHT"));
    let league = league["id"].as_str().expect("league id").to_owned();
    server.fill(&league, &players).await;
    let game = server.game_infos(&league).await.remove(0);

    let before = server.event_count().await;
    let response = server
        .gql(Some(ADMIN), REPORT, json!({ "g": game.id, "r": solo_result(&game.seats, None) }))
        .await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("result.diplomacy[0].soloYear")));
    assert_eq!(server.event_count().await, before, "a refused result appends nothing");

    let scored = server.report(ADMIN, &game.id, &solo_result(&game.seats, Some(1910))).await;
    assert_eq!(scored["status"], json!("FINISHED"));
    let scores: Vec<(String, f64)> = scored["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| (s["player"]["id"].as_str().unwrap().to_owned(), s["score"].as_f64().unwrap()))
        .collect();
    let expected: Vec<(String, f64)> =
        game.seats.iter().cloned().zip([451.0, 30.0, 20.0, 15.0, 10.0, 10.0, 8.0]).collect();
    assert_eq!(scores, expected);

    let standings = server.standings(&league, Value::Null).await;
    assert_eq!(standings[0]["player"]["id"], json!(game.seats[0]));
    assert_eq!(standings[0]["total"].as_f64(), Some(451.0));
    assert_eq!(standings[0]["wins"].as_u64(), Some(1));
}

/// The optional year fields of a Diplomacy result (`soloYear`, `earlierCentres`) are stored
/// with it and read back as reported; absent ones read back empty.
async fn the_solo_year_and_earlier_centres_read_back(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(8, "Power").await;
    let league = server.create_league("HAIGHT", 7, None).await;
    server.fill(&league, &players).await;
    let game = server.game_infos(&league).await.remove(0);
    let mut result = solo_result(&game.seats, Some(1910));
    result["diplomacy"][1]["earlierCentres"] = json!([7, 5]);
    server.report(ADMIN, &game.id, &result).await;
    let data = server
        .data(
            None,
            "query($id: ID!) { game(id: $id) { result { ... on DiplomacyResult {
                entries { player { id } soloYear earlierCentres } } } } }",
            json!({ "id": game.id }),
        )
        .await;
    let entries = data["game"]["result"]["entries"].as_array().expect("entries");
    assert_eq!(entries[0]["player"]["id"], json!(game.seats[0]));
    assert_eq!(entries[0]["soloYear"], json!(1910));
    assert_eq!(entries[0]["earlierCentres"], json!([]));
    assert_eq!(entries[1]["soloYear"], Value::Null);
    assert_eq!(entries[1]["earlierCentres"], json!([7, 5]));
}

on_both_databases!(a_haight_league_scores_a_solo, the_solo_year_and_earlier_centres_read_back);
