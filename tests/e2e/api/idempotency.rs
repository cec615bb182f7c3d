//! Idempotency keys: a retried call gets the first call's answer and appends nothing; the
//! same call without its key is a new request.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::json;

use crate::api::oracle::{result_for, running_league};
use crate::support::{ADMIN, error_of, spawn_app};

const REPORT: &str = "mutation($g: ID!, $r: GameResultInput!, $key: String) {
    reportGameResult(gameId: $g, result: $r, idempotencyKey: $key) { id status scores { player { id } score } }
}";

/// A retried report with the same key gets the identical answer and appends nothing.
async fn a_retried_report_gets_the_first_answer(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let game = &games[0];
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    let vars = json!({ "g": game.id, "r": input, "key": "report-game-1" });
    let first = server.gql(Some(ADMIN), REPORT, vars.clone()).await;
    assert!(first.get("errors").is_none(), "{first:#}");
    let count = server.event_count().await;
    let retry = server.gql(Some(ADMIN), REPORT, vars).await;
    assert_eq!(retry, first);
    assert_eq!(server.event_count().await, count, "the retry appended nothing");
}

/// Without the key, reporting a finished game again is a CONFLICT.
async fn reporting_again_without_the_key_conflicts(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let game = &games[0];
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    let vars = json!({ "g": game.id, "r": input, "key": "report-game-1" });
    server.data(Some(ADMIN), REPORT, vars).await;
    let count = server.event_count().await;
    let response = server.gql(Some(ADMIN), REPORT, json!({ "g": game.id, "r": input })).await;
    assert_eq!(error_of(&response), ("CONFLICT", None));
    assert_eq!(server.event_count().await, count, "a conflict appends nothing");
}

/// createLeague retried with its key returns the same league, created once.
async fn a_retried_create_league_creates_one_league(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let create = "mutation { createLeague(input: {name: \"Once\", game: \"Go\", scoringSystem: PLACEMENT, playersPerGame: 2}, idempotencyKey: \"create-once\") { id } }";
    let a = server.data(Some(ADMIN), create, json!({})).await;
    let b = server.data(Some(ADMIN), create, json!({})).await;
    assert_eq!(a, b);
    assert_eq!(server.event_count().await, 1);
}

on_both_databases!(
    a_retried_report_gets_the_first_answer,
    reporting_again_without_the_key_conflicts,
    a_retried_create_league_creates_one_league,
);
