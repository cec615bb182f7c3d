//! Passkeys (`docs/sign-in.md#passkeys`) on SQLite and PostgreSQL, with the testkit's software
//! authenticator in the browser's place: a player adds one (begin, then the verified
//! registration), lists and removes it; the credential is sealed in storage; every gateway
//! knows it; a replayed registration, the site admin adding one, or another player removing
//! one is refused and appends nothing; the access request lists it; an erasure drops it.

use std::time::{Duration, Instant};

use league_testkit::passkey::SoftPasskey;
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::support::{ADMIN, Player, TestApp, error_code, error_of, spawn_app_on_port};

const BEGIN: &str = "mutation { beginAddingPasskey }";
const ADD: &str =
    "mutation($n: String!, $r: String!) { addPasskey(name: $n, response: $r) { id name addedAt } }";
const LIST: &str = "query($p: ID) { passkeys(playerId: $p) { id name addedAt } }";
const REMOVE: &str = "mutation($k: ID!, $p: ID) { removePasskey(passkeyId: $k, playerId: $p) }";

/// The registration response of `passkey` to fresh creation options for `player`.
async fn registration(server: &TestApp, player: &Player, passkey: &mut SoftPasskey) -> String {
    let data = server.data(Some(&player.token), BEGIN, json!({})).await;
    let options: Value =
        serde_json::from_str(data["beginAddingPasskey"].as_str().expect("options")).expect("JSON");
    passkey.register(&options).to_string()
}

async fn add(server: &TestApp, player: &Player, passkey: &mut SoftPasskey, name: &str) -> Value {
    let response = registration(server, player, passkey).await;
    server.gql(Some(&player.token), ADD, json!({ "n": name, "r": response })).await
}

async fn passkeys(server: &TestApp, token: &str, player: &str) -> Value {
    server.data(Some(token), LIST, json!({ "p": player })).await["passkeys"].clone()
}

async fn a_player_adds_lists_and_removes_a_passkey_every_gateway_knows(db: TestDatabase) {
    let first = spawn_app_on_port(&db.url, |_| {}).await;
    let second = spawn_app_on_port(&db.url, |_| {}).await;
    let ann = first.register("Ann").await;
    let mut phone = SoftPasskey::new(1, &first.url(""));

    let added = add(&first, &ann, &mut phone, "My phone").await;
    let passkey = &added["data"]["addPasskey"];
    assert_eq!(passkey["name"], "My phone", "{added}");
    assert_eq!(passkeys(&first, &ann.token, &ann.id).await, json!([passkey]));

    // Sealed in storage: the stored event holds neither the name nor the credential id.
    let events = first.events(None).await;
    let stored = events.iter().find(|e| e["type"] == "PasskeyAdded").expect("stored");
    let text = stored.to_string();
    assert!(text.contains("xchacha20poly1305"), "{text}");
    assert!(!text.contains("My phone"), "{text}");

    // The other gateway folds it too (a sign-in there finds it).
    let start = Instant::now();
    while passkeys(&second, ADMIN, &ann.id).await.as_array().is_none_or(Vec::is_empty) {
        assert!(start.elapsed() < Duration::from_secs(10), "the second gateway lags");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The access request lists it.
    let personal = first.data(Some(&ann.token), "{ personalData }", json!({})).await;
    assert_eq!(personal["personalData"]["passkeys"][0]["name"], "My phone");

    // Refusals append nothing.
    let count = first.event_count().await;
    let mut laptop = SoftPasskey::new(2, &phone.origin);
    let response = registration(&first, &ann, &mut laptop).await;
    let first_use = first.gql(Some(&ann.token), ADD, json!({ "n": "Laptop", "r": response })).await;
    assert!(first_use["errors"].is_null(), "{first_use}");
    let count = count + 1;
    let replayed = first.gql(Some(&ann.token), ADD, json!({ "n": "Laptop", "r": response })).await;
    assert_eq!(error_of(&replayed), ("BAD_USER_INPUT", Some("response")), "{replayed}");
    assert_eq!(error_code(&first.gql(Some(ADMIN), BEGIN, json!({})).await), "FORBIDDEN");
    assert_eq!(error_code(&first.gql(None, BEGIN, json!({})).await), "UNAUTHENTICATED");
    let bob = first.register("Bob").await;
    let count = count + 1;
    let id = passkey["id"].as_str().expect("id");
    let theirs = first.gql(Some(&bob.token), REMOVE, json!({ "k": id, "p": ann.id })).await;
    assert_eq!(error_code(&theirs), "FORBIDDEN");
    let listed = first.gql(Some(&bob.token), LIST, json!({ "p": ann.id })).await;
    assert_eq!(error_code(&listed), "FORBIDDEN");
    assert_eq!(first.event_count().await, count);

    let removed = first.data(Some(&ann.token), REMOVE, json!({ "k": id })).await;
    assert_eq!(removed["removePasskey"], true);
    let left = passkeys(&first, &ann.token, &ann.id).await;
    assert_eq!(left.as_array().map(Vec::len), Some(1), "{left}");
    assert_eq!(left[0]["name"], "Laptop");
    let again = first.gql(Some(&ann.token), REMOVE, json!({ "k": id })).await;
    assert_eq!(error_code(&again), "NOT_FOUND");
}

async fn an_erasure_drops_the_players_passkeys_from_every_gateway(db: TestDatabase) {
    let first = spawn_app_on_port(&db.url, |_| {}).await;
    let second = spawn_app_on_port(&db.url, |_| {}).await;
    let ann = first.register("Ann").await;
    let mut phone = SoftPasskey::new(3, &first.url(""));
    let added = add(&first, &ann, &mut phone, "My phone").await;
    assert!(added["errors"].is_null(), "{added}");
    let id: uuid::Uuid = ann.id.parse().expect("uuid");
    let start = Instant::now();
    while second.app().passkey_credentials(id).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(10), "the second gateway lags");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    first
        .data(
            Some(ADMIN),
            "mutation($p: ID) { erasePlayer(playerId: $p, reason: \"asked\") { id } }",
            json!({ "p": ann.id }),
        )
        .await;
    // No gateway holds a credential that would sign the erased player in.
    let start = Instant::now();
    while !second.app().passkey_credentials(id).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(10), "the second gateway lags");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(first.app().passkey_credentials(id).is_empty());
    assert_eq!(passkeys(&first, ADMIN, &ann.id).await, json!([]));
}

/// POSTs `body` as JSON to `path` (`content_type` declared).
async fn post(server: &TestApp, path: &str, content_type: &str, body: &Value) -> reqwest::Response {
    let request = server.http.post(server.url(path)).header("content-type", content_type);
    server.send(request.body(body.to_string())).await.expect("POST")
}

async fn a_passkey_signs_its_player_in_once_per_challenge(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let ann = server.register("Ann").await;
    let mut phone = SoftPasskey::new(5, &server.url(""));
    let added = add(&server, &ann, &mut phone, "My phone").await;
    assert!(added["errors"].is_null(), "{added}");

    let json = "application/json";
    let options: Value =
        post(&server, "/auth/passkey/options", json, &json!({})).await.json().await.expect("JSON");
    assert_eq!(options["userVerification"], "required", "{options}");
    let assertion = phone.assert(&options);
    // A cross-site form cannot declare JSON: refused before anything is checked.
    let form = post(&server, "/auth/passkey/sign-in", "text/plain", &assertion).await;
    assert_eq!(form.status(), 400);

    let answer = post(&server, "/auth/passkey/sign-in", json, &assertion).await;
    assert_eq!(answer.status(), 200);
    let cookie = answer.headers()["set-cookie"].to_str().expect("ASCII").to_owned();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let cookie = cookie.split(';').next().expect("name=value").to_owned();
    let request = server.http.get(server.url("/auth/session")).header("cookie", &cookie);
    let session: Value = server.send(request).await.expect("GET").json().await.expect("JSON");
    assert_eq!(session["player"]["id"], ann.id, "{session}");
    let events = server.events(None).await;
    let started = events.iter().filter(|e| e["type"] == "SessionStarted").collect::<Vec<_>>();
    assert_eq!(started.len(), 1);
    assert_eq!(started[0]["payload"]["method"], "passkey");

    // The same assertion again: its challenge is used; no second session.
    let count = server.event_count().await;
    let replayed = post(&server, "/auth/passkey/sign-in", json, &assertion).await;
    assert_eq!(replayed.status(), 400);
    let refusal: Value = replayed.json().await.expect("JSON");
    assert_eq!(refusal["error"]["code"], "BAD_USER_INPUT", "{refusal}");
    assert_eq!(server.event_count().await, count);
}

on_both_databases!(
    a_passkey_signs_its_player_in_once_per_challenge,
    a_player_adds_lists_and_removes_a_passkey_every_gateway_knows,
    an_erasure_drops_the_players_passkeys_from_every_gateway,
);
