//! Result confirmation over GraphQL on both databases
//! (`docs/tournaments.md#result-confirmation`): a seated player's report waits, is not in
//! the standings, is refused to its reporter and to outsiders, may be disputed, and counts
//! once a director confirms it; refusals change nothing.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::tournament::{check_in, create, diplomacy_input, diplomacy_result, enter, seed};
use crate::support::{ADMIN, TestApp, error_of, spawn_app};

const BOARD: &str = "query($t: ID!, $b: ID!) {
  tournament(id: $t) {
    status version confirmPlayerResults
    standings { total player { id } }
    board(id: $b) {
      finished scores { score }
      awaitingConfirmation { reportedBy { id } disputedBy { id } disputeReason
        result { ... on DiplomacyResult { entries { centres } } } }
    }
  }
}";

async fn board(server: &TestApp, tournament: &str, board: &str) -> Value {
    server.data(None, BOARD, json!({ "t": tournament, "b": board })).await["tournament"].clone()
}

pub(crate) async fn confirm(server: &TestApp, token: &str, tournament: &str, board: &str) -> Value {
    server
        .gql(
            Some(token),
            "mutation($t: ID!, $b: ID!) { confirmBoardResult(tournamentId: $t, boardId: $b) { finished } }",
            json!({ "t": tournament, "b": board }),
        )
        .await
}

pub(crate) async fn dispute(
    server: &TestApp,
    token: &str,
    tournament: &str,
    board: &str,
    reason: &str,
) -> Value {
    server
        .gql(
            Some(token),
            "mutation($t: ID!, $b: ID!, $r: String!) {
               disputeBoardResult(tournamentId: $t, boardId: $b, reason: $r) { finished }
             }",
            json!({ "t": tournament, "b": board, "r": reason }),
        )
        .await
}

/// The players seated on a board, in seat order.
pub(crate) async fn seats_of(server: &TestApp, tournament: &str, board: &str) -> Vec<String> {
    server
        .data(
            None,
            "query($t: ID!, $b: ID!) { tournament(id: $t) { board(id: $b) { seats { player { id } } } } }",
            json!({ "t": tournament, "b": board }),
        )
        .await["tournament"]["board"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["id"].as_str().unwrap().to_owned())
        .collect()
}

/// A seated player's report of `result` on `board`.
pub(crate) async fn report(
    server: &TestApp,
    token: &str,
    tournament: &str,
    board: &str,
    result: Value,
) -> Value {
    server
        .gql(
            Some(token),
            "mutation($t: ID!, $b: ID!, $r: GameResultInput!) {
               reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished }
             }",
            json!({ "t": tournament, "b": board, "r": result }),
        )
        .await
}

async fn a_players_report_waits_for_confirmation_and_a_dispute_for_the_director(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(8, "Entrant").await;
    let (outsider, entrants) = players.split_last().unwrap();
    let mut input = diplomacy_input(1);
    input["confirmPlayerResults"] = json!(true);
    let id =
        create(&server, input).await["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in entrants {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
        check_in(&server, player, &id, 1, false).await;
    }
    let seeded = seed(&server, &id, 1).await;
    let board_id = seeded["data"]["seedRound"]["boards"][0]["id"].as_str().unwrap().to_owned();
    let seats = seats_of(&server, &id, &board_id).await;
    let token = |seat: usize| entrants.iter().find(|p| p.id == seats[seat]).unwrap().token.clone();

    let reported = report(&server, &token(0), &id, &board_id, diplomacy_result(&seats)).await;
    assert_eq!(reported["data"]["reportBoardResult"]["finished"], false, "{reported}");
    let waiting = board(&server, &id, &board_id).await;
    assert_eq!(waiting["confirmPlayerResults"], true);
    assert_eq!(waiting["board"]["awaitingConfirmation"]["reportedBy"]["id"], seats[0].as_str());
    assert_eq!(waiting["board"]["awaitingConfirmation"]["result"]["entries"][0]["centres"], 10);
    assert_eq!(waiting["board"]["scores"], json!([]), "not scored until confirmed");
    assert!(waiting["standings"].as_array().unwrap().iter().all(|s| s["total"] == 0.0));
    assert_eq!(waiting["status"], "RUNNING");

    let refusals = [
        (confirm(&server, &outsider.token, &id, &board_id).await, "FORBIDDEN"),
        (confirm(&server, &token(0), &id, &board_id).await, "CONFLICT"),
        (dispute(&server, &token(1), &id, &board_id, " ").await, "BAD_USER_INPUT"),
    ];
    for (response, code) in refusals {
        assert_eq!(error_of(&response).0, code, "{response}");
    }
    assert_eq!(board(&server, &id, &board_id).await["version"], waiting["version"]);

    let disputed = dispute(&server, &token(1), &id, &board_id, "Austria had 4").await;
    assert_eq!(disputed["data"]["disputeBoardResult"]["finished"], false, "{disputed}");
    let state = board(&server, &id, &board_id).await;
    assert_eq!(state["board"]["awaitingConfirmation"]["disputedBy"]["id"], seats[1].as_str());
    assert_eq!(state["board"]["awaitingConfirmation"]["disputeReason"], "Austria had 4");
    let response = confirm(&server, &token(2), &id, &board_id).await;
    assert_eq!(error_of(&response).0, "CONFLICT", "a player cannot confirm a disputed result");

    let confirmed = confirm(&server, ADMIN, &id, &board_id).await;
    assert_eq!(confirmed["data"]["confirmBoardResult"]["finished"], true, "{confirmed}");
    let done = board(&server, &id, &board_id).await;
    assert!(done["board"]["awaitingConfirmation"].is_null());
    assert_eq!(done["board"]["scores"].as_array().unwrap().len(), 7);
    assert_eq!(done["status"], "COMPLETED");
}

on_both_databases!(a_players_report_waits_for_confirmation_and_a_dispute_for_the_director);
