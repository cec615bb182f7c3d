//! Reported results come back as they were reported, in the shape of the league's system.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::json;

use crate::support::{ADMIN, spawn_app};

/// A Diplomacy result's draw vote (`inDraw`) is stored with the result and read back.
async fn a_diplomacy_draw_vote_reads_back(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(8, "Power").await;
    let league = server.create_league("BAF", 7, None).await;
    server.fill(&league, &players).await;
    let game = server.game_infos(&league).await.remove(0);
    let centres = [12, 12, 4, 3, 2, 1, 0];
    let entries: Vec<_> = game
        .seats
        .iter()
        .zip(centres)
        .enumerate()
        .map(|(i, (player, centres))| {
            json!({ "playerId": player, "centres": centres, "eliminated": centres == 0,
                    "eliminatedYear": (centres == 0).then_some(1907), "inDraw": i < 2 })
        })
        .collect();
    server.report(ADMIN, &game.id, &json!({ "diplomacy": entries })).await;
    let data = server
        .data(
            None,
            "query($id: ID!) { game(id: $id) { result { ... on DiplomacyResult {
                entries { player { id } centres inDraw } } } } }",
            json!({ "id": game.id }),
        )
        .await;
    let read: Vec<(String, bool)> = data["game"]["result"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| (e["player"]["id"].as_str().unwrap().to_owned(), e["inDraw"].as_bool().unwrap()))
        .collect();
    let expected: Vec<(String, bool)> =
        game.seats.iter().enumerate().map(|(i, p)| (p.clone(), i < 2)).collect();
    assert_eq!(read, expected);
}

on_both_databases!(a_diplomacy_draw_vote_reads_back);
