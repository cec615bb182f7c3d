//! A player's permanent keep-apart list on both databases
//! (`docs/tournaments.md#a-players-permanent-keep-apart-list`): set by the player over GraphQL
//! and by the site admin through the CLI, shown to its owner and the admin only, refused with
//! typed codes; carried to a round's seeding (the pairs never share a board, and the seeding
//! still verifies from the tournament's log); in the access request, and dropped on erasure.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::tournament::{seat_ids, seed, tournament};
use crate::replay::{league, stdout};
use crate::support::{ADMIN, TestApp, spawn_app};

const CHANGE: &str = "mutation($p: ID, $o: ID!, $k: Boolean!, $why: String) {
  changePermanentKeepApart(playerId: $p, otherId: $o, keep: $k, reason: $why) { player { id } reason } }";
const LIST: &str = "query($p: ID!) { player(id: $p) { keepApart { player { id name } reason } } }";
const ME: &str = "{ me { keepApart { player { id } reason } } }";
const PERSONAL_DATA: &str = "query($p: ID) { personalData(playerId: $p) }";
const ERASE: &str =
    "mutation($p: ID, $r: String!) { erasePlayer(playerId: $p, reason: $r) { id } }";

async fn change(
    server: &TestApp,
    token: &str,
    player: Option<&str>,
    other: &str,
    keep: bool,
) -> Value {
    let vars = json!({ "p": player, "o": other, "k": keep, "why": "we share a car" });
    server.gql(Some(token), CHANGE, vars).await
}

fn code(answer: &Value) -> &str {
    answer["errors"][0]["extensions"]["code"].as_str().unwrap_or_else(|| panic!("{answer}"))
}

async fn a_players_list_keeps_them_apart_in_the_next_seeding(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (id, players) = super::teams::checked_in(&server, "Apart", 2).await;
    let (ann, bob, cat, dan) = (&players[0], &players[1], &players[2], &players[3]);

    // Ann lists Bob herself; the answer is her list, the reason as she gave it.
    let added = change(&server, &ann.token, None, &bob.id, true).await;
    assert_eq!(
        added["data"]["changePermanentKeepApart"],
        json!([{ "player": { "id": bob.id }, "reason": "we share a car" }])
    );
    let mine = server.data(Some(&ann.token), ME, json!({})).await;
    assert_eq!(mine["me"]["keepApart"][0]["player"]["id"], bob.id.as_str());

    // Refusals, typed; rights first.
    assert_eq!(code(&change(&server, &cat.token, Some(&ann.id), &dan.id, true).await), "FORBIDDEN");
    assert_eq!(code(&change(&server, &ann.token, None, &ann.id, true).await), "BAD_USER_INPUT");
    assert_eq!(code(&change(&server, &ann.token, None, &bob.id, true).await), "CONFLICT");
    assert_eq!(code(&change(&server, &ann.token, None, &dan.id, false).await), "CONFLICT");
    let nobody = "01934f00-0000-7000-8000-00000000dead";
    assert_eq!(code(&change(&server, &ann.token, None, nobody, true).await), "NOT_FOUND");
    // Nobody else sees her list; the site admin does.
    let seen = server.data(Some(&cat.token), LIST, json!({ "p": ann.id })).await;
    assert_eq!(seen["player"]["keepApart"], Value::Null);
    let seen = server.data(Some(ADMIN), LIST, json!({ "p": ann.id })).await;
    assert_eq!(seen["player"]["keepApart"][0]["reason"], "we share a car");

    // The site admin lists Dan on Cat's list through the CLI.
    let cli = ["player", "keep-apart", "add", &cat.id, "--other", &dan.id];
    let printed = league(&cli, &db);
    assert_eq!(printed.status.code(), Some(0), "{}", stdout(&printed));
    let list: Value = serde_json::from_str(&stdout(&printed)).unwrap();
    assert_eq!(list, json!([{ "other": dan.id, "name": "Apart 4", "reason": null }]));
    let again = league(&cli, &db);
    assert_eq!(again.status.code(), Some(2), "already on the list: {}", stdout(&again));

    // Round 1's seeding carries both pairs: recorded in the tournament, never on one board.
    // The server follows the log the CLI appended to (on SQLite by polling it).
    for _ in 0..200 {
        let seen = server.data(Some(ADMIN), LIST, json!({ "p": cat.id })).await;
        if seen["player"]["keepApart"].as_array().is_some_and(|list| !list.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert!(seed(&server, &id, 1).await["errors"].is_null());
    let state = tournament(&server, &id, None, Value::Null).await;
    let boards: Vec<Vec<&str>> =
        state["rounds"][0]["boards"].as_array().unwrap().iter().map(seat_ids).collect();
    let apart =
        |a: &str, b: &str| boards.iter().all(|seats| !(seats.contains(&a) && seats.contains(&b)));
    assert!(apart(&ann.id, &bob.id) && apart(&cat.id, &dan.id), "{boards:?}");
    assert_eq!(state["seedingChecks"], json!([{ "round": 1, "verified": true }]));
    let verified = league(&["tournament", "verify-seeding", "--tournament", &id], &db);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));
    assert_eq!(league(&["verify"], &db).status.code(), Some(0));

    // The access request lists it (the reason sealed in the stored event); an erasure drops it.
    let data = server.data(Some(ADMIN), PERSONAL_DATA, json!({ "p": ann.id })).await;
    let data = &data["personalData"];
    assert_eq!(data["keepApart"][0]["other"], bob.id.as_str(), "{data:#}");
    assert_eq!(data["keepApart"][0]["reason"], "we share a car");
    let stored = data["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["eventType"] == "PermanentKeepApartAdded");
    let stored = stored.unwrap_or_else(|| panic!("{data:#}"));
    assert!(!stored["payload"].to_string().contains("share a car"), "sealed: {stored}");
    let erased = server.gql(Some(ADMIN), ERASE, json!({ "p": ann.id, "r": "asked" })).await;
    assert!(erased["errors"].is_null(), "{erased}");
    let seen = server.data(Some(ADMIN), LIST, json!({ "p": ann.id })).await;
    assert_eq!(seen["player"]["keepApart"], json!([]));
}

on_both_databases!(a_players_list_keeps_them_apart_in_the_next_seeding);
