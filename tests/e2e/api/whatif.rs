//! What-if standings (`standings(leagueId, system:)`: a league's results scored under
//! another system) and the explanation of each score change (`scoreHistory {
//! explanation }`).

use league_scoring::{ScoredGame, ScoringSystem, score_game};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::{assert_standings_match, result_for, running_league};
use crate::support::{ADMIN, GameInfo, TestApp, error_of, spawn_app};

/// A running Baf league of 8 players, k = 7, one game per seat (8 games), with the first
/// `finished` games reported; its id, games, and those results scored under Squares.
async fn baf_league(server: &TestApp, finished: usize) -> (String, Vec<GameInfo>, Vec<ScoredGame>) {
    let players = server.register_many(8, "Power").await;
    let league = server
        .create_league_with(json!({
            "name": "Baf league", "game": "Diplomacy", "scoringSystem": "BAF",
            "playersPerGame": 7, "gamesPerSeat": 1,
        }))
        .await;
    let league = league["id"].as_str().expect("league id").to_owned();
    server.fill(&league, &players).await;
    let games = server.game_infos(&league).await;
    let mut squares = Vec::new();
    for game in &games[..finished] {
        let (input, result) = result_for("BAF", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        squares.push(score_game(ScoringSystem::Squares, &result).unwrap());
    }
    (league, games, squares)
}

const WHAT_IF: &str = "query($league: ID!, $system: ScoringSystem, $asOf: AsOf) {
   standings(leagueId: $league, system: $system, asOf: $asOf) {
     rank player { id } total played wins draws
   }
 }";

async fn what_if(server: &TestApp, league: &str, system: Value, as_of: Value) -> Value {
    server.gql(None, WHAT_IF, json!({ "league": league, "system": system, "asOf": as_of })).await
}

fn rows(response: &Value) -> Vec<Value> {
    assert!(response["errors"].is_null(), "{response:#}");
    response["data"]["standings"].as_array().expect("standings").clone()
}

/// Baf results scored under Squares rank as the scoring crate ranks the Squares scores of
/// the same games; the league's own standings stay Baf's.
async fn standings_under_another_system(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _, squares) = baf_league(&server, 3).await;
    let rescored = rows(&what_if(&server, &league, json!("SQUARES"), Value::Null).await);
    assert_standings_match(&rescored, &squares);
    assert_ne!(rescored, server.standings(&league, Value::Null).await);
}

/// Without `system`, or with the league's own, the answer is the league's standings.
async fn the_default_system_is_the_leagues_own(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _, _) = baf_league(&server, 2).await;
    let own = server.standings(&league, Value::Null).await;
    assert_eq!(rows(&what_if(&server, &league, Value::Null, Value::Null).await), own);
    assert_eq!(rows(&what_if(&server, &league, json!("BAF"), Value::Null).await), own);
}

/// A what-if as of a log position uses only the results reported by then.
async fn standings_under_another_system_as_of(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, games, mut squares) = baf_league(&server, 1).await;
    let after_first = server.event_count().await;
    let (input, result) = result_for("BAF", games[1].number, &games[1].seats);
    server.report(ADMIN, &games[1].id, &input).await;
    let as_of = json!({ "position": after_first });
    let then = rows(&what_if(&server, &league, json!("SQUARES"), as_of).await);
    assert_standings_match(&then, &squares);
    squares.push(score_game(ScoringSystem::Squares, &result).unwrap());
    let now = rows(&what_if(&server, &league, json!("SQUARES"), Value::Null).await);
    assert_standings_match(&now, &squares);
}

/// A system whose results have another shape is `BAD_USER_INPUT` on `system`, and nothing is
/// appended.
async fn an_incompatible_system_is_bad_input(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _, _) = baf_league(&server, 1).await;
    let before = server.event_count().await;
    let response = what_if(&server, &league, json!("BLUE_MAX"), Value::Null).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("system")), "{response:#}");
    assert_eq!(server.event_count().await, before);
}

/// A system made for another number of players per game is `BAD_USER_INPUT` on `system`.
async fn a_system_for_other_game_sizes_is_bad_input(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _, _) = running_league(&server).await;
    let response = what_if(&server, &league, json!("SQUARES"), Value::Null).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("system")), "{response:#}");
}

/// A what-if of a league that does not exist is `NOT_FOUND`.
async fn what_if_of_an_unknown_league_is_not_found(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let unknown = uuid::Uuid::now_v7().to_string();
    let response = what_if(&server, &unknown, json!("SQUARES"), Value::Null).await;
    assert_eq!(error_of(&response).0, "NOT_FOUND", "{response:#}");
}

/// Each score change carries the scoring system's explanation lines for the player's score
/// in that game.
async fn score_history_explains_each_change(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, games, _) = baf_league(&server, 2).await;
    let player = &games[0].seats[0];
    let data = server
        .data(
            None,
            "query($league: ID!, $player: ID!) {
               scoreHistory(leagueId: $league, playerId: $player) { game { id } explanation }
             }",
            json!({ "league": league, "player": player }),
        )
        .await;
    let history = data["scoreHistory"].as_array().unwrap();
    let played: Vec<&GameInfo> = games[..2].iter().filter(|g| g.seats.contains(player)).collect();
    assert_eq!(history.len(), played.len());
    for (change, game) in history.iter().zip(played) {
        assert_eq!(change["game"]["id"], game.id.as_str());
        let (_, result) = result_for("BAF", game.number, &game.seats);
        let scored = score_game(ScoringSystem::Baf, &result).unwrap();
        let expected = &scored.players.iter().find(|row| &row.player == player).unwrap();
        assert!(!expected.explanation.is_empty());
        assert_eq!(change["explanation"], json!(expected.explanation));
    }
}

on_both_databases!(
    standings_under_another_system,
    the_default_system_is_the_leagues_own,
    standings_under_another_system_as_of,
    an_incompatible_system_is_bad_input,
    a_system_for_other_game_sizes_is_bad_input,
    what_if_of_an_unknown_league_is_not_found,
    score_history_explains_each_change,
);
