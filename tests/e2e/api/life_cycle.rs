//! Whole league life cycles for every scoring system: players register, subscribe (the
//! last subscription schedules every game), report every game; scores, standings and the
//! audit log match the scoring oracle.

use std::collections::HashMap;

use league_scoring::score_game;
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::{assert_scores_match, assert_standings_match, result_for, scoring_system};
use crate::support::{game_name, spawn_app};

/// Register 8 players, create the league, every player subscribes (the 8th schedules the
/// games), a seated player reports every game, and the league completes; scores,
/// standings and the audit log match.
async fn life_cycle(db: TestDatabase, system: &str, k: u32, expected_games_per_seat: u32) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(8, "Player").await;
    let league = server
        .create_league_with(json!({
            "name": format!("{system} league"), "game": game_name(system),
            "scoringSystem": system, "playersPerGame": k,
        }))
        .await;
    assert_eq!(league["status"], "OPEN");
    assert_eq!(league["scoringSystem"], system);
    assert_eq!(league["playersPerGame"], k);
    assert_eq!(league["size"], 8, "a league has 8 players by default");
    assert_eq!(league["gamesPerSeat"], expected_games_per_seat, "the default for k");
    assert_eq!(league["players"], json!([]));
    let league = league["id"].as_str().unwrap().to_owned();

    let running = server.fill(&league, &players).await;
    assert_eq!(running["status"], "RUNNING");
    assert_eq!(running["players"].as_array().unwrap().len(), 8);
    let games = server.game_infos(&league).await;
    assert_eq!(games.len() as u32, 8 * expected_games_per_seat, "N·s games");
    let mut appearances: HashMap<&str, u32> = HashMap::new();
    for game in &games {
        assert_eq!(game.seats.len() as u32, k);
        assert_eq!(game.status, "SCHEDULED");
        for player in &game.seats {
            *appearances.entry(player).or_default() += 1;
        }
    }
    assert!(appearances.values().all(|n| *n == k * expected_games_per_seat));

    let token_of: HashMap<&str, &str> =
        players.iter().map(|p| (p.id.as_str(), p.token.as_str())).collect();
    let system_value = scoring_system(system);
    let mut scored = Vec::new();
    for game in &games {
        let (input, result) = result_for(system, game.number, &game.seats);
        let expected = score_game(system_value, &result).expect("the oracle scores the result");
        // Any seated player may report; rotate who does.
        let reporter = &game.seats[game.number as usize % game.seats.len()];
        let answer = server.report(token_of[reporter.as_str()], &game.id, &input).await;
        assert_eq!(answer["status"], "FINISHED");
        assert_scores_match(&answer, &expected);
        scored.push(expected);
    }

    let data = server
        .data(None, "query($id: ID!) { league(id: $id) { status } }", json!({ "id": league }))
        .await;
    assert_eq!(data["league"]["status"], "COMPLETED");
    assert_standings_match(&server.standings(&league, Value::Null).await, &scored);

    let events = server.events(Some(&league)).await;
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let mut expected_types = vec!["LeagueCreated"];
    expected_types.extend(["PlayerSubscribed"; 8]);
    expected_types.push("GamesScheduled");
    expected_types.extend(std::iter::repeat_n("GameFinished", games.len()));
    expected_types.push("LeagueCompleted");
    assert_eq!(types, expected_types);
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["version"], i as u64 + 1, "league stream versions are gapless");
        assert_eq!(event["streamId"], format!("league-{league}"));
        assert_eq!(event["hash"].as_str().unwrap().len(), 64);
    }
    assert_eq!(events[0]["actor"], "admin");
    assert_eq!(events[1]["actor"], format!("player:{}", players[0].id));
    assert_eq!(server.event_count().await, 8 + events.len() as u64, "8 registrations + the league");
}

async fn placement_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "PLACEMENT", 4, 4).await;
}

async fn baf_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "BAF", 7, 3).await;
}

async fn detour_98f_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "DETOUR_98F", 7, 3).await;
}

async fn squares_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "SQUARES", 7, 3).await;
}

async fn blue_max_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "BLUE_MAX", 4, 4).await;
}

async fn wooden_ships_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "WOODEN_SHIPS", 3, 3).await;
}

on_both_databases!(
    placement_league_life_cycle,
    baf_league_life_cycle,
    detour_98f_league_life_cycle,
    squares_league_life_cycle,
    blue_max_league_life_cycle,
    wooden_ships_league_life_cycle,
);
