//! Sign-up (`docs/operations.md#sign-up`) in each of the site's policies: closed (nobody
//! signs up), invite (an organiser's invite code, until it expires or is revoked), open
//! (anyone); every refusal appends nothing, and sign-ups are rate-limited per address.

use league_gateway::config::SignUpPolicy;
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::support::{ADMIN, TestApp, spawn_app_with};

/// `POST /auth/sign-up`: the status and the JSON answer.
async fn sign_up(server: &TestApp, body: Value) -> (u16, Value) {
    let request = server.http.post(server.url("/auth/sign-up")).json(&body);
    let response = server.send(request).await.expect("an answer");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON answer"))
}

async fn server_with(db: &TestDatabase, policy: SignUpPolicy, per_hour: u32) -> TestApp {
    spawn_app_with(&db.url, |config| {
        config.sign_up = policy;
        config.sign_ups_per_hour = per_hour;
        config.sign_ups_burst = per_hour;
    })
    .await
}

/// A refusal (`200` with `error`, as in GraphQL) of `code` whose message `says`, appending
/// nothing.
async fn refused_appending_nothing(server: &TestApp, body: Value, code: &str, says: &str) {
    let before = server.event_count().await;
    let (status, answer) = sign_up(server, body).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (200, Some(code)), "{answer:#}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "{message}");
    assert_eq!(server.event_count().await, before);
}

async fn a_closed_site_signs_nobody_up(db: TestDatabase) {
    let server = server_with(&db, SignUpPolicy::Closed, 100).await;
    let policy = server.data(None, "{ signUpPolicy }", json!({})).await;
    assert_eq!(policy["signUpPolicy"], "CLOSED");
    let body = json!({ "name": "Newt" });
    refused_appending_nothing(&server, body, "FORBIDDEN", "an organiser registers you").await;
}

on_both_databases!(a_closed_site_signs_nobody_up);

async fn an_open_site_signs_anyone_up_and_limits_each_address(db: TestDatabase) {
    let server = server_with(&db, SignUpPolicy::Open, 2).await;
    let (status, answer) = sign_up(&server, json!({ "name": " Newt " })).await;
    assert_eq!(status, 200, "{answer:#}");
    assert_eq!(answer["player"]["name"], "Newt");
    // The token signs the new player in; they acted for themself.
    let token = answer["token"].as_str().expect("a token");
    let me = server.data(Some(token), "{ me { id name } }", json!({})).await;
    assert_eq!(me["me"]["id"], answer["player"]["id"]);
    let events = server.events(None).await;
    let registered =
        events.iter().rev().find(|e| e["type"] == "PlayerRegistered").expect("registered");
    assert_eq!(registered["actor"], format!("player:{}", answer["player"]["id"].as_str().unwrap()));
    assert!(!registered.to_string().contains(token), "only the token's hash is stored");
    // A bad name is bad input.
    refused_appending_nothing(&server, json!({ "name": "  " }), "BAD_USER_INPUT", "name").await;
    // The third sign-up from the same address within the hour waits.
    let before = server.event_count().await;
    let request = server.http.post(server.url("/auth/sign-up")).json(&json!({ "name": "Third" }));
    let response = server.send(request).await.expect("an answer");
    assert_eq!(response.status().as_u16(), 429);
    assert!(response.headers().get("retry-after").is_some());
    assert_eq!(server.event_count().await, before);
}

on_both_databases!(an_open_site_signs_anyone_up_and_limits_each_address);

async fn an_invite_signs_people_up_until_revoked(db: TestDatabase) {
    let server = server_with(&db, SignUpPolicy::Invite, 100).await;
    let organiser = server.register("Olive").await;
    let appoint = "mutation($p: ID!) { appointOrganiser(playerId: $p) { id } }";
    server.data(Some(ADMIN), appoint, json!({ "p": organiser.id })).await;
    let issue = "mutation($d: Int) { issueInvite(days: $d) { id code link expiresAt } }";
    // A plain player, the site admin and a bad expiry issue none.
    let player = server.register("Pat").await;
    for token in [player.token.as_str(), ADMIN] {
        let response = server.gql(Some(token), issue, json!({})).await;
        assert_eq!(response["errors"][0]["extensions"]["code"], "FORBIDDEN", "{response:#}");
    }
    let response = server.gql(Some(&organiser.token), issue, json!({ "d": 91 })).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "BAD_USER_INPUT", "{response:#}");
    let invite = server.data(Some(&organiser.token), issue, json!({ "d": 14 })).await;
    let invite = &invite["issueInvite"];
    let code = invite["code"].as_str().expect("a code").to_owned();
    assert_eq!(invite["link"], format!("/signup?invite={code}"));
    // The log holds the code's hash only.
    let events = server.events(None).await;
    assert!(events.iter().any(|e| e["type"] == "InviteIssued"));
    assert!(!serde_json::to_string(&events).unwrap().contains(&code));

    refused_appending_nothing(&server, json!({ "name": "Newt" }), "FORBIDDEN", "invite code only")
        .await;
    let wrong = json!({ "name": "Newt", "invite": "not-the-code" });
    refused_appending_nothing(&server, wrong, "FORBIDDEN", "not known").await;
    let (status, answer) = sign_up(&server, json!({ "name": "Newt", "invite": code })).await;
    assert_eq!(status, 200, "{answer:#}");

    // Another player may not revoke it; its organiser does, and the code stops working.
    let revoke = "mutation($i: ID!, $o: ID) { revokeInvite(inviteId: $i, organiserId: $o) }";
    let vars = json!({ "i": invite["id"], "o": organiser.id });
    let response = server.gql(Some(&player.token), revoke, vars.clone()).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "FORBIDDEN", "{response:#}");
    server.data(Some(&organiser.token), revoke, vars).await;
    let body = json!({ "name": "Late", "invite": code });
    refused_appending_nothing(&server, body, "FORBIDDEN", "revoked").await;
}

on_both_databases!(an_invite_signs_people_up_until_revoked);
