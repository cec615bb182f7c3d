//! A tournament's registration controls over GraphQL on both databases
//! (`docs/tournaments.md#registration`): requests approved and declined, a cap with its
//! waitlist promoted in order when an entrant withdraws, a withdrawal undone, registration
//! closed and a window, each refusal typed and appending nothing, every step in the log.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::tournament::{create, diplomacy_input, enter};
use crate::support::{ADMIN, TestApp, error_of, spawn_app};

const STATE: &str = "query($id: ID!) { tournament(id: $id) {
  registration { closed opensAt closesAt maxEntrants approval entrants openNow refusal }
  entrants { player { name } withdrawnAfterRound }
  waitlist { name } entryRequests { name }
} }";

const EVENTS: &str = "query($id: ID!) { events(tournamentId: $id, first: 100) {
  edges { node { type description } } } }";

async fn state(server: &TestApp, id: &str) -> Value {
    server.data(None, STATE, json!({ "id": id })).await["tournament"].clone()
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect()
}

/// Runs an organiser's decision `field` (`approveTournamentEntry`, …) about `player`.
async fn decide(server: &TestApp, token: &str, field: &str, id: &str, player: &str) -> Value {
    let mutation = format!(
        "mutation($t: ID!, $p: ID!) {{ {field}(tournamentId: $t, playerId: $p) {{ id }} }}"
    );
    server.gql(Some(token), &mutation, json!({ "t": id, "p": player })).await
}

async fn change(server: &TestApp, token: &str, id: &str, registration: Value) -> Value {
    let mutation = "mutation($t: ID!, $r: TournamentRegistrationInput!) {
      changeTournamentRegistration(tournamentId: $t, registration: $r) { id } }";
    server.gql(Some(token), mutation, json!({ "t": id, "r": registration })).await
}

/// Asserts `response` is refused with `code` and appended nothing since `start` events.
async fn refused(server: &TestApp, response: &Value, code: &str, words: &str, start: u64) {
    assert_eq!(error_of(response).0, code, "{response}");
    let message = response["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains(words), "{message:?} should say {words:?}");
    assert_eq!(server.event_count().await, start, "a refusal appends nothing");
}

async fn requests_a_cap_its_waitlist_and_an_undone_withdrawal(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(5, "Hopeful").await;
    let mut input = diplomacy_input(3);
    input["registration"] = json!({ "maxEntrants": 2, "approval": true });
    let created = create(&server, input).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players[..4] {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
    }
    let now = state(&server, &id).await;
    assert_eq!(now["registration"]["maxEntrants"], 2);
    assert_eq!(now["registration"]["approval"], true);
    assert_eq!(names(&now["entryRequests"]), ["Hopeful 1", "Hopeful 2", "Hopeful 3", "Hopeful 4"]);
    assert!(now["entrants"].as_array().unwrap().is_empty());

    // Only organisers answer; the answers enter, then wait once the cap is reached.
    let start = server.event_count().await;
    let by_player =
        decide(&server, &players[1].token, "approveTournamentEntry", &id, &players[0].id).await;
    refused(&server, &by_player, "FORBIDDEN", "organise", start).await;
    for player in &players[..3] {
        let response = decide(&server, ADMIN, "approveTournamentEntry", &id, &player.id).await;
        assert!(response["errors"].is_null(), "{response}");
    }
    assert!(
        decide(&server, ADMIN, "declineTournamentEntry", &id, &players[3].id).await["errors"]
            .is_null()
    );
    let start = server.event_count().await;
    let again = enter(&server, &players[3].token, &id, None).await;
    refused(&server, &again, "CONFLICT", "declined", start).await;
    let now = state(&server, &id).await;
    assert_eq!(names(&now["waitlist"]), ["Hopeful 3"]);
    assert_eq!(now["registration"]["entrants"], 2);
    assert!(now["entryRequests"].as_array().unwrap().is_empty());

    // A withdrawal promotes the first on the waitlist; the organiser undoes it.
    let withdraw = "mutation($t: ID!) { withdrawFromTournament(tournamentId: $t) { id } }";
    let response = server.gql(Some(&players[0].token), withdraw, json!({ "t": id })).await;
    assert!(response["errors"].is_null(), "{response}");
    let now = state(&server, &id).await;
    assert!(names(&now["waitlist"]).is_empty());
    assert_eq!(now["registration"]["entrants"], 2);
    let start = server.event_count().await;
    let by_player =
        decide(&server, &players[0].token, "undoTournamentWithdrawal", &id, &players[0].id).await;
    refused(&server, &by_player, "FORBIDDEN", "organise", start).await;
    let undone = decide(&server, ADMIN, "undoTournamentWithdrawal", &id, &players[0].id).await;
    assert!(undone["errors"].is_null(), "{undone}");
    let now = state(&server, &id).await;
    assert_eq!(now["registration"]["entrants"], 3, "the undone withdrawal keeps its place");

    let log = server.data(None, EVENTS, json!({ "id": id })).await;
    let lines: Vec<String> = log["events"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}: {}",
                e["node"]["type"].as_str().unwrap(),
                e["node"]["description"].as_str().unwrap()
            )
        })
        .collect();
    for expected in [
        "TournamentEntryRequested: Hopeful 1 asked to enter",
        "TournamentEntryApproved: Hopeful 1's entry was approved",
        "TournamentPlayerWaitlisted: Hopeful 3 joined the waitlist: the tournament is full",
        "TournamentEntryDeclined: Hopeful 4's entry was declined",
        "TournamentPlayerPromoted: Hopeful 3 entered from the waitlist",
        "TournamentWithdrawalUndone: Hopeful 1's withdrawal was undone",
    ] {
        assert!(lines.iter().any(|line| line == expected), "{expected:?} not in {lines:#?}");
    }
}

async fn closed_registration_and_its_window_stop_players_but_not_organisers(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(3, "Late").await;
    let mut input = diplomacy_input(3);
    input["registration"] = json!({ "closed": true });
    let created = create(&server, input).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    let now = state(&server, &id).await;
    assert_eq!(now["registration"]["openNow"], false);
    assert_eq!(now["registration"]["refusal"], "registration is closed");
    let start = server.event_count().await;
    let response = enter(&server, &players[0].token, &id, None).await;
    refused(&server, &response, "CONFLICT", "registration is closed", start).await;
    // A director enters a walk-in regardless.
    assert!(enter(&server, ADMIN, &id, Some(&players[0].id)).await["errors"].is_null());

    let by_player = change(&server, &players[1].token, &id, json!({ "closed": false })).await;
    let start = server.event_count().await;
    refused(&server, &by_player, "FORBIDDEN", "organise", start).await;
    let window = json!({ "closed": false, "opensAt": "2099-01-01T09:00:00Z" });
    assert!(change(&server, ADMIN, &id, window).await["errors"].is_null());
    let start = server.event_count().await;
    let response = enter(&server, &players[1].token, &id, None).await;
    refused(&server, &response, "CONFLICT", "registration opens at 2099-01-01T09:00:00", start)
        .await;
    let backwards = json!({ "closesAt": "2098-01-01T09:00:00Z" });
    let response = change(&server, ADMIN, &id, backwards).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("registration.closesAt")));
    // `null` removes the window's start: players enter again.
    assert!(change(&server, ADMIN, &id, json!({ "opensAt": null })).await["errors"].is_null());
    let now = state(&server, &id).await;
    assert_eq!(now["registration"]["opensAt"], Value::Null);
    assert_eq!(now["registration"]["openNow"], true);
    assert!(enter(&server, &players[1].token, &id, None).await["errors"].is_null());
}

on_both_databases!(
    requests_a_cap_its_waitlist_and_an_undone_withdrawal,
    closed_registration_and_its_window_stop_players_but_not_organisers
);
