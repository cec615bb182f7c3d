//! History: standings as of a log position or instant, corrections with their reason, and
//! each player's score history.

use std::time::Duration;

use league_scoring::{GameResult, PlacementEntry, ScoringSystem, score_game};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::{
    assert_scores_match, assert_standings_match, close, result_for, running_league,
};
use crate::support::{ADMIN, spawn_app};

/// Standings as they stood halfway, from the query root and the League field, unchanged by
/// a later correction; the correction shows in the score history with its reason.
async fn as_of_standings_and_corrections(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _players, games) = running_league(&server).await;
    let mut scored = Vec::new();
    for game in &games[..4] {
        let (input, result) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        scored.push(score_game(ScoringSystem::Placement, &result).unwrap());
    }
    let halfway = server.standings(&league, Value::Null).await;
    assert_standings_match(&halfway, &scored);
    let halfway_position = server.event_count().await;
    let events = server.events(None).await;
    let halfway_time = events.last().unwrap()["recordedAt"].as_str().unwrap().to_owned();

    // Let the clock move past the halfway instant before the next events are recorded.
    tokio::time::sleep(Duration::from_millis(20)).await;
    for game in &games[4..] {
        let (input, result) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        scored.push(score_game(ScoringSystem::Placement, &result).unwrap());
    }
    let final_standings = server.standings(&league, Value::Null).await;
    assert_standings_match(&final_standings, &scored);
    assert_ne!(final_standings, halfway);

    // As of the halfway position or instant: the halfway standings, from the query root
    // and from the League field alike.
    assert_eq!(server.standings(&league, json!({ "position": halfway_position })).await, halfway);
    assert_eq!(server.standings(&league, json!({ "time": halfway_time })).await, halfway);
    let data = server
        .data(
            None,
            "query($id: ID!, $p: Int!) {
               league(id: $id) { standings(asOf: {position: $p}) { rank player { id } total played wins draws } }
             }",
            json!({ "id": league, "p": halfway_position }),
        )
        .await;
    assert_eq!(data["league"]["standings"].as_array().unwrap(), &halfway);

    // The admin corrects game 1: its first seat now scores best.
    let game = &games[0];
    let corrected_points: Vec<(String, f64)> = game
        .seats
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), if i == 0 { 100.0 } else { i as f64 }))
        .collect();
    let input = json!({ "placement": corrected_points.iter().map(|(p, points)| json!({"playerId": p, "points": points})).collect::<Vec<_>>() });
    let corrected = GameResult::Placement(
        corrected_points
            .iter()
            .map(|(player, points)| PlacementEntry { player: player.clone(), points: *points })
            .collect(),
    );
    let data = server
        .data(
            Some(ADMIN),
            "mutation($game: ID!, $result: GameResultInput!) {
               correctGameResult(gameId: $game, result: $result, reason: \"scores were swapped\") {
                 status scores { player { id } score }
                 result { ... on PlacementResult { entries { player { id } points } } }
               }
             }",
            json!({ "game": game.id, "result": input }),
        )
        .await;
    let corrected_scored = score_game(ScoringSystem::Placement, &corrected).unwrap();
    assert_scores_match(&data["correctGameResult"], &corrected_scored);
    assert_eq!(data["correctGameResult"]["result"]["entries"][0]["points"], 100.0);
    let before = scored[0].clone();
    scored[0] = corrected_scored.clone();
    let after_correction = server.standings(&league, Value::Null).await;
    assert_standings_match(&after_correction, &scored);
    // History is immutable: the halfway view is unchanged by the correction.
    assert_eq!(server.standings(&league, json!({ "position": halfway_position })).await, halfway);

    // The correction shows in the first seat's score history with its reason and delta.
    let player = &game.seats[0];
    let data = server
        .data(
            None,
            "query($league: ID!, $player: ID!) {
               scoreHistory(leagueId: $league, playerId: $player) {
                 game { id } position recordedAt delta total reason
               }
             }",
            json!({ "league": league, "player": player }),
        )
        .await;
    let history = data["scoreHistory"].as_array().unwrap();
    let old = before.players.iter().find(|p| &p.player == player).unwrap().score;
    let new = corrected_scored.players.iter().find(|p| &p.player == player).unwrap().score;
    let last = history.last().unwrap();
    assert_eq!(last["game"]["id"], game.id.as_str());
    assert_eq!(last["reason"], "scores were swapped");
    assert!(close(last["delta"].as_f64().unwrap(), new - old));
    let total =
        after_correction.iter().find(|l| l["player"]["id"] == player.as_str()).unwrap()["total"]
            .as_f64()
            .unwrap();
    assert!(close(last["total"].as_f64().unwrap(), total));
    assert!(history[..history.len() - 1].iter().all(|change| change["reason"].is_null()));
    let positions: Vec<u64> = history.iter().map(|c| c["position"].as_u64().unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "oldest first: {positions:?}");
    let sum: f64 = history.iter().map(|c| c["delta"].as_f64().unwrap()).sum();
    assert!(close(sum, total), "the deltas add up to the total");
    let last_event = server.events(Some(&league)).await.pop().unwrap();
    assert_eq!(last_event["type"], "GameResultCorrected");
    assert_eq!(last_event["payload"]["reason"], "scores were swapped");
    assert_eq!(last_event["position"], last["position"]);
}

/// Every event reads as one sentence (`Event.description`), the one the CLI's audits and
/// webhook bodies show: players by name, a result with its game and each player's score.
async fn events_read_as_sentences(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _players, games) = running_league(&server).await;
    let (input, _) = result_for("PLACEMENT", games[0].number, &games[0].seats);
    server.report(ADMIN, &games[0].id, &input).await;
    let events = server.events(Some(&league)).await;
    let sentence = |kind: &str| {
        let event = events.iter().find(|e| e["type"] == kind).unwrap_or_else(|| panic!("{kind}"));
        event["description"].as_str().unwrap().to_owned()
    };
    assert!(
        sentence("LeagueCreated").starts_with("League created: \"Small league\" (Carcassonne)")
    );
    assert_eq!(sentence("PlayerSubscribed"), "Player 1 joined");
    assert_eq!(sentence("GamesScheduled"), "League started: 8 games scheduled");
    let result = sentence("GameFinished");
    assert!(result.starts_with(&format!("Result of game {} reported: Player ", games[0].number)));
    assert_eq!(result.matches(", ").count(), 3, "four players with their scores: {result}");
    let registered = server.events(None).await;
    let first = registered.iter().find(|e| e["type"] == "PlayerRegistered").unwrap();
    assert_eq!(first["description"], "Player 1 registered");
}

on_both_databases!(as_of_standings_and_corrections, events_read_as_sentences);
