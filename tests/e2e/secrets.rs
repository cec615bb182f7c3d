//! No secret leaves where it belongs (`docs/webhooks.md#older-logs`, `docs/operations.md`),
//! on SQLite and PostgreSQL:
//! - a real `league serve`, logging JSON at debug level, is given every kind of secret the
//!   platform knows (player tokens from `registerPlayer`, `rotateToken` and a sign-up, an
//!   invite code and its link's page, a calendar feed
//!   address, fetched once, a webhook's URL and signing secret, a delivery that fails so its
//!   error is logged); none of them is in the anonymous `events` payloads, in the server's
//!   log or in a league's or tournament's CSV and JSON exports;
//! - a `WebhookRegistered` written by an older build (schema version 1, holding the URL) and a
//!   pause reason quoting it are served by the public `events` query with the host alone,
//!   while `league verify` still verifies the stored bytes and the `webhooks` query still
//!   shows its admins the URL.

use std::time::{Duration, Instant};

use league_domain::{Actor, webhook_stream_id};
use league_store::{ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::{TestDatabase, on_both_databases};
use league_webhooks::receiver::Receiver;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::api::tournament::{check_in, create, diplomacy_input, enter, report_round, seed};
use crate::replay::{league as league_binary, stderr};
use crate::support::{ADMIN, TestApp, placement_result, spawn_app, start_league_serve_logged};

const WAIT: Duration = Duration::from_secs(60);

const REGISTER: &str = "mutation($input: RegisterWebhookInput!) {
    registerWebhook(input: $input) { secret webhook { id url } }
}";
const WEBHOOKS: &str = "{ webhooks { id url attempts lastError lag } }";

/// A random hex string (a secret the log must never show).
fn random_hex() -> String {
    Uuid::new_v4().simple().to_string()
}

/// A loopback port nothing listens on (a delivery to it is refused at once).
async fn closed_port() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap().port()
}

async fn text(server: &TestApp, path: &str) -> String {
    let response = server.send(server.http.get(server.url(path))).await.expect("GET");
    assert!(response.status().is_success(), "{path}: {}", response.status());
    response.text().await.unwrap()
}

/// Registers a webhook to `url` for the league's results, answering its secret.
async fn register_webhook(server: &TestApp, url: &str, league: &str) -> String {
    let input = json!({ "url": url, "kinds": ["RESULT_REPORTED"], "competitionIds": [league] });
    let data = server.data(Some(ADMIN), REGISTER, json!({ "input": input })).await;
    assert_eq!(data["registerWebhook"]["webhook"]["url"], url, "its admins see the URL");
    data["registerWebhook"]["secret"].as_str().unwrap().to_owned()
}

/// Every secret in `haystacks`, by where it was found.
fn leaks(secrets: &[(String, String)], haystacks: &[(&str, &str)]) -> Vec<String> {
    let mut found = Vec::new();
    for (what, secret) in secrets {
        for (place, text) in haystacks {
            if text.contains(secret.as_str()) {
                found.push(format!("{what} in {place}"));
            }
        }
    }
    found
}

async fn no_secret_in_public_events_the_server_log_or_exports(db: TestDatabase) {
    let (server, log) = start_league_serve_logged(
        &db.url,
        &[
            ("LEAGUE_ADMIN_TOKEN", ADMIN),
            ("LEAGUE_WEBHOOKS_ALLOW_PRIVATE", "1"),
            ("LEAGUE_WEBHOOK_RETRY_BASE_MS", "20"),
            ("LEAGUE_LOG_FORMAT", "json"),
            ("RUST_LOG", "debug"),
            ("LEAGUE_SIGN_UP", "invite"),
        ],
    )
    .await;
    let mut secrets: Vec<(String, String)> = vec![("the admin token".into(), ADMIN.into())];

    // Tokens: registrations and a rotation.
    let mut players = server.register_many(8, "Player").await;
    for player in &players {
        secrets.push((format!("{}'s first token", player.id), player.token.clone()));
    }
    let rotated = server
        .data(
            Some(ADMIN),
            "mutation($p: ID) { rotateToken(playerId: $p) { token } }",
            json!({ "p": players[7].id }),
        )
        .await;
    let token = rotated["rotateToken"]["token"].as_str().unwrap().to_owned();
    secrets.push(("a rotated token".into(), token.clone()));
    players[7].token = token;

    // An invite: its code, its link's page loaded once, and the token of a person who
    // signed up with it (docs/operations.md#sign-up).
    let appoint = "mutation($p: ID!) { appointOrganiser(playerId: $p) { id } }";
    server.data(Some(ADMIN), appoint, json!({ "p": players[1].id })).await;
    let issue = "mutation { issueInvite { code link } }";
    let invite = server.data(Some(&players[1].token), issue, json!({})).await;
    let code = invite["issueInvite"]["code"].as_str().unwrap().to_owned();
    text(&server, invite["issueInvite"]["link"].as_str().unwrap()).await;
    let body = json!({ "name": "Newt", "invite": code });
    let request = server.http.post(server.url("/auth/sign-up")).json(&body);
    let signed_up: Value = server.send(request).await.unwrap().json().await.unwrap();
    secrets.push(("an invite code".into(), code));
    secrets.push(("a signed-up token".into(), signed_up["token"].as_str().unwrap().to_owned()));

    // A calendar feed, fetched once (its path is the secret).
    let feed = server
        .data(Some(&players[0].token), "mutation { rotateCalendarFeed { url path } }", json!({}))
        .await;
    let path = feed["rotateCalendarFeed"]["path"].as_str().unwrap().to_owned();
    let feed_secret = path.trim_start_matches("/calendar/").trim_end_matches(".ics").to_owned();
    assert_eq!(feed_secret.len(), 96, "{path}");
    assert!(text(&server, &path).await.starts_with("BEGIN:VCALENDAR"));
    secrets.push(("the calendar feed secret".into(), feed_secret));

    // Webhooks: one delivering (its URL carries a secret query), one refused at every attempt.
    let league = server.create_league("PLACEMENT", 2, Some(8)).await;
    server.fill(&league, &players).await;
    let receiver = Receiver::start(0.0).await.unwrap();
    let delivering_token = random_hex();
    let delivering = format!("{}?token={delivering_token}", receiver.url);
    let refused_path = random_hex();
    let refused = format!("http://127.0.0.1:{}/api/webhooks/1/{refused_path}", closed_port().await);
    for (what, url) in [("delivering", &delivering), ("refused", &refused)] {
        let secret = register_webhook(&server, url, &league).await;
        secrets.push((format!("the {what} webhook's signing secret"), secret));
        secrets.push((format!("the {what} webhook's URL"), url.clone()));
    }
    secrets.push(("the delivering URL's token".into(), delivering_token));
    secrets.push(("the refused URL's path".into(), refused_path));
    let (game, seats, _) = server.games(&league).await.remove(0);
    server.report(ADMIN, &game, &placement_result(&seats)).await;
    receiver.wait_for_accepted(1, WAIT).await;
    let deadline = Instant::now() + WAIT;
    loop {
        let data = server.data(Some(ADMIN), WEBHOOKS, json!({})).await;
        let failing = data["webhooks"].as_array().unwrap().iter().find(|w| w["url"] == refused);
        let failing = failing.expect("the refused webhook is listed");
        if failing["attempts"].as_u64().unwrap() >= 2 {
            let error = failing["lastError"].as_str().unwrap();
            assert!(error.starts_with("127.0.0.1: "), "names the host: {error}");
            break;
        }
        assert!(Instant::now() < deadline, "no failed delivery: {data}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A tournament, for its exports.
    let created = create(&server, diplomacy_input(1)).await;
    let tournament = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players[..7] {
        assert!(enter(&server, &player.token, &tournament, None).await["errors"].is_null());
        check_in(&server, player, &tournament, 1, false).await;
    }
    seed(&server, &tournament, 1).await;
    report_round(&server, &players[..7], &tournament, 1).await;

    let events = serde_json::to_string(&server.events(None).await).unwrap();
    assert!(events.contains("WebhookRegistered") && events.contains("\"host\":\"127.0.0.1\""));
    let mut exports = String::new();
    for kind in [format!("leagues/{league}"), format!("tournaments/{tournament}")] {
        for suffix in [".csv", ".csv?table=standings", ".json"] {
            exports.push_str(&text(&server, &format!("/export/{kind}{suffix}")).await);
        }
    }
    assert!(exports.contains(&players[0].id), "the exports name the players");
    // Let the log catch up with the last requests, then stop the server.
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.kill().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let log = log.text();
    assert!(log.contains("\"level\":\"DEBUG\""), "the log is at debug level");
    assert!(log.contains("/calendar/[redacted].ics"), "the feed's request is logged");
    assert!(log.contains("webhooks: delivery failed"), "the failed delivery is logged");
    let found = leaks(
        &secrets,
        &[("the public events", &events), ("the server log", &log), ("the exports", &exports)],
    );
    assert!(found.is_empty(), "secrets leaked: {found:?}");
}

/// The public views of a version 1 registration and of a pause reason quoting its URL.
async fn an_older_logs_webhook_url_is_shown_as_its_host_and_still_verifies(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let app = server.app();
    let webhook = Uuid::now_v7();
    let url = format!("https://discord.com/api/webhooks/123/{}", random_hex());
    let registered = json!({
        "webhookId": webhook, "url": url, "kinds": ["RESULT_REPORTED"], "competitions": [],
        "format": "DISCORD", "registeredBy": "admin",
    });
    let paused = json!({
        "webhookId": webhook, "pausedBy": "admin",
        "reason": format!("deliveries failed for 90000s; last error: error sending request \
                           for url ({url}): connection refused"),
    });
    let stream = StreamId::new(webhook_stream_id(webhook.into())).unwrap();
    let rows = vec![
        NewEvent::new("WebhookRegistered", 1, registered),
        NewEvent::new("WebhookPaused", 1, paused),
    ];
    let metadata = Metadata::default().with_actor(Actor::Admin.to_string());
    app.store().append(&stream, ExpectedVersion::NoStream, rows, metadata).await.unwrap();
    let head = app.store().head_position().await.unwrap();
    app.wait_applied(head).await.unwrap();

    let events = server.events(None).await;
    let shown: Vec<&Value> = events.iter().filter(|e| e["streamId"] == stream.as_str()).collect();
    assert_eq!(shown.len(), 2);
    assert_eq!(shown[0]["payload"]["host"], "discord.com");
    assert_eq!(shown[0]["payload"]["kinds"], json!(["RESULT_REPORTED"]));
    assert!(shown[0]["payload"].get("url").is_none(), "{}", shown[0]);
    assert_eq!(
        shown[1]["payload"]["reason"],
        "deliveries failed for 90000s; last error: error sending request for url \
         (discord.com): connection refused"
    );
    let public = serde_json::to_string(&events).unwrap();
    assert!(!public.contains("/api/webhooks/123/"), "{public}");

    let data = server.data(Some(ADMIN), "{ webhooks { id url status } }", json!({})).await;
    assert_eq!(data["webhooks"][0]["url"], url, "its admins still see the URL");
    assert_eq!(data["webhooks"][0]["status"], "PAUSED");
    let verified = league_binary(&["verify"], &db);
    assert!(verified.status.success(), "the stored bytes verify: {}", stderr(&verified));
}

on_both_databases!(
    no_secret_in_public_events_the_server_log_or_exports,
    an_older_logs_webhook_url_is_shown_as_its_host_and_still_verifies,
);
