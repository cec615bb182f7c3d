//! Typed errors: each refusal carries its `extensions.code` (and `field` where one input is
//! to blame) and appends nothing.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::{result_for, running_league};
use crate::support::{ADMIN, error_of, spawn_app};

const REPORT: &str = "mutation($g: ID!, $r: GameResultInput!) {
    reportGameResult(gameId: $g, result: $r) { id status }
}";
/// A well-formed id of nothing.
const NOBODY: &str = "00000000-0000-7000-8000-000000000000";

/// BAD_USER_INPUT names the field: wrong shape, negative centres, a bad id, a page size.
async fn bad_user_input_names_the_field(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let game = &games[0];
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    let count = server.event_count().await;

    let negative = json!({ "diplomacy": game.seats.iter().map(|p| json!({"playerId": p, "centres": -1})).collect::<Vec<_>>() });
    let response = server.gql(Some(ADMIN), REPORT, json!({ "g": game.id, "r": negative })).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("result.diplomacy[0].centres")));
    let wrong_shape = json!({ "diplomacy": game.seats.iter().map(|p| json!({"playerId": p, "centres": 3})).collect::<Vec<_>>() });
    let response = server.gql(Some(ADMIN), REPORT, json!({ "g": game.id, "r": wrong_shape })).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("result")));
    let response = server.gql(Some(ADMIN), REPORT, json!({ "g": "no-such-id", "r": input })).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("gameId")));
    let response = server.gql(None, "{ leagues(first: 101) { totalCount } }", json!({})).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("first")));
    assert_eq!(server.event_count().await, count, "refusals append nothing");
}

/// A value that does not fit its declared input type (both oneOf fields, a value of no
/// enum) is refused by document validation, before any resolver runs.
async fn values_outside_their_types_fail_validation(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let game = &games[0];
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    let count = server.event_count().await;

    let both = json!({ "placement": input["placement"], "diplomacy": [] });
    let response = server.gql(Some(ADMIN), REPORT, json!({ "g": game.id, "r": both })).await;
    assert_eq!(error_of(&response), ("GRAPHQL_VALIDATION_FAILED", None));
    let create = "mutation($s: ScoringSystem!) {
        createLeague(input: {name: \"X\", game: \"Go\", scoringSystem: $s, playersPerGame: 2}) { id }
    }";
    let response = server.gql(Some(ADMIN), create, json!({ "s": "CHESS_ELO" })).await;
    assert_eq!(error_of(&response), ("GRAPHQL_VALIDATION_FAILED", None));
    assert_eq!(server.event_count().await, count, "refusals append nothing");
}

/// NOT_FOUND: a well-formed id of no game or league, for a mutation and for reads.
async fn unknown_ids_are_not_found(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let (input, _) = result_for("PLACEMENT", games[0].number, &games[0].seats);
    let count = server.event_count().await;

    let response = server.gql(Some(ADMIN), REPORT, json!({ "g": NOBODY, "r": input })).await;
    assert_eq!(error_of(&response), ("NOT_FOUND", None));
    let standings = "query($l: ID!) { standings(leagueId: $l) { rank } }";
    let response = server.gql(None, standings, json!({ "l": NOBODY })).await;
    assert_eq!(error_of(&response), ("NOT_FOUND", None));
    let events = "query($l: ID!) { events(leagueId: $l, first: 0) { totalCount } }";
    let response = server.gql(None, events, json!({ "l": NOBODY })).await;
    assert_eq!(error_of(&response), ("NOT_FOUND", None));
    assert_eq!(server.event_count().await, count, "refusals append nothing");
}

/// Reads need no token, but an invalid one is refused; `me` is the caller or null.
async fn reads_refuse_an_invalid_token_and_me_names_the_caller(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, players, _games) = running_league(&server).await;
    let response = server.gql(Some("forged"), "{ leagues { totalCount } }", json!({})).await;
    assert_eq!(error_of(&response), ("UNAUTHENTICATED", None));
    let me = "{ me { id name } }";
    assert_eq!(server.data(None, me, json!({})).await["me"], Value::Null);
    assert_eq!(
        server.data(Some(&players[2].token), me, json!({})).await["me"]["id"],
        players[2].id.as_str()
    );
}

on_both_databases!(
    bad_user_input_names_the_field,
    values_outside_their_types_fail_validation,
    unknown_ids_are_not_found,
    reads_refuse_an_invalid_token_and_me_names_the_caller,
);
