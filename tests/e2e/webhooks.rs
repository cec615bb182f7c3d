//! Webhooks through the real `league serve` (SQLite and PostgreSQL), delivering to a receiver
//! on loopback (the operator setting `LEAGUE_WEBHOOKS_ALLOW_PRIVATE=1`):
//! - the server is killed with SIGKILL while a delivery is in flight and restarted on the
//!   same database: no event is lost, and only the delivery in flight is made twice;
//! - a receiver failing 30 % of requests still gets every event exactly once after
//!   de-duplication, signed, in log order, and the `webhooks` query shows the checkpoint;
//! - bad registrations get typed errors and append nothing;
//! - the `webhooks` query shows failed attempts as they happen, though nothing is appended
//!   (it is never served from the response cache, which is keyed by the log position).

use crate::support;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use league_testkit::{TestDatabase, on_both_databases};
use league_webhooks::receiver::{Received, Receiver, distinct_accepted};
use serde_json::{Value, json};
use support::{ADMIN, Player, TestApp, error_of, placement_result, start_league_serve_with};

const WAIT: Duration = Duration::from_secs(90);

const REGISTER: &str = "mutation($input: RegisterWebhookInput!) {
    registerWebhook(input: $input) { secret webhook { id status } }
}";

async fn serve(db: &TestDatabase) -> TestApp {
    start_league_serve_with(
        &db.url,
        &[
            ("LEAGUE_ADMIN_TOKEN", ADMIN),
            ("LEAGUE_WEBHOOKS_ALLOW_PRIVATE", "1"),
            ("LEAGUE_WEBHOOK_RETRY_BASE_MS", "20"),
        ],
    )
    .await
}

/// Eight players in a placement league of two-player games; returns the league id, the
/// players and the league's games as `(id, seats)`.
async fn league(server: &TestApp) -> (String, Vec<Player>, Vec<(String, Vec<String>)>) {
    let players = server.register_many(8, "Player").await;
    let league = server.create_league("PLACEMENT", 2, Some(8)).await;
    server.fill(&league, &players).await;
    let games = server.games(&league).await.into_iter().map(|(id, seats, _)| (id, seats)).collect();
    (league, players, games)
}

/// Registers a webhook for the league's reported results; returns its id and secret.
async fn register(server: &TestApp, url: &str, league: &str, format: &str) -> (String, String) {
    let input = json!({
        "url": url, "kinds": ["RESULT_REPORTED"], "competitionIds": [league], "format": format,
    });
    let data = server.data(Some(ADMIN), REGISTER, json!({ "input": input })).await;
    let registered = &data["registerWebhook"];
    assert_eq!(registered["webhook"]["status"], "ACTIVE");
    (
        registered["webhook"]["id"].as_str().unwrap().to_owned(),
        registered["secret"].as_str().unwrap().to_owned(),
    )
}

async fn report(server: &TestApp, game: &(String, Vec<String>)) {
    server.report(ADMIN, &game.0, &placement_result(&game.1)).await;
}

/// The log position in a delivery id.
fn position(received: &Received) -> u64 {
    received.delivery_id.rsplit(':').next().unwrap().parse().unwrap()
}

/// Requests per delivery id.
fn requests_per_delivery(received: &[Received]) -> HashMap<&str, usize> {
    let mut counts = HashMap::new();
    for request in received {
        *counts.entry(request.delivery_id.as_str()).or_default() += 1;
    }
    counts
}

async fn killed_mid_delivery_loses_nothing_and_repeats_at_most_the_one_in_flight(db: TestDatabase) {
    let server = serve(&db).await;
    let (league, _, games) = league(&server).await;
    let receiver = Receiver::start(0.0).await.unwrap();
    let (hook, secret) = register(&server, &receiver.url, &league, "JSON").await;
    let half = games.len() / 2;
    for game in &games[..half - 1] {
        report(&server, game).await;
    }
    receiver.wait_for_accepted(half - 1, WAIT).await;
    // Hold the next answer back, and kill the server while that delivery is in flight.
    receiver.set_hold(Duration::from_secs(3));
    report(&server, &games[half - 1]).await;
    let deadline = Instant::now() + WAIT;
    while receiver.received().iter().all(|r| r.accepted) {
        assert!(Instant::now() < deadline, "no delivery in flight");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.kill().await;
    receiver.set_hold(Duration::ZERO);

    let server = serve(&db).await;
    for game in &games[half..] {
        report(&server, game).await;
    }
    let received = receiver.wait_for_accepted(games.len(), WAIT).await;
    assert_eq!(distinct_accepted(&received), games.len(), "no event lost");
    let counts = requests_per_delivery(&received);
    let repeated: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(repeated.len() <= 1 && repeated.iter().all(|(_, n)| **n == 2), "{repeated:?}");
    let mut first_seen: Vec<u64> = Vec::new();
    for request in &received {
        assert!(request.verifies(&secret));
        assert!(request.delivery_id.starts_with(&hook));
        if !first_seen.contains(&position(request)) {
            first_seen.push(position(request));
        }
    }
    assert!(first_seen.is_sorted(), "in log order: {first_seen:?}");
    server.kill().await;
}

async fn a_receiver_failing_30_percent_gets_every_event_once_after_dedup(db: TestDatabase) {
    let server = serve(&db).await;
    let (league, _, games) = league(&server).await;
    let receiver = Receiver::start(0.3).await.unwrap();
    let (hook, secret) = register(&server, &receiver.url, &league, "DISCORD").await;
    for game in &games {
        report(&server, game).await;
    }
    let received = receiver.wait_for_accepted(games.len(), WAIT).await;
    assert_eq!(distinct_accepted(&received), games.len());
    let accepted: Vec<u64> = received.iter().filter(|r| r.accepted).map(position).collect();
    assert!(accepted.is_sorted() && accepted.len() == games.len(), "once each, in order");
    assert!(received.iter().all(|r| r.verifies(&secret)));
    let content = received[0].json()["content"].as_str().unwrap().to_owned();
    assert!(content.starts_with("PLACEMENT league — Result of game "), "{content}");
    assert!(content.contains(" reported: Player "), "{content}");

    // The checkpoint commits after the receiver's 2xx: wait for it to pass the last event.
    let deadline = tokio::time::Instant::now() + WAIT;
    let listed = loop {
        let data = server
            .data(
                Some(ADMIN),
                "{ webhooks { id status format kinds checkpointPosition lag lastError } }",
                json!({}),
            )
            .await;
        let listed = data["webhooks"][0].clone();
        let checkpoint = listed["checkpointPosition"].as_u64().unwrap();
        if checkpoint >= *accepted.last().unwrap() || tokio::time::Instant::now() > deadline {
            break listed;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(listed["id"], hook.as_str());
    assert_eq!(listed["format"], "DISCORD");
    assert!(listed["checkpointPosition"].as_u64().unwrap() >= *accepted.last().unwrap());
    server.kill().await;
}

async fn bad_registrations_are_typed_errors_and_append_nothing(db: TestDatabase) {
    let server = serve(&db).await;
    let (league, players, _) = league(&server).await;
    let before = server.event_count().await;
    let attempt = |token: &str, input: Value| {
        let token = token.to_owned();
        let server = &server;
        async move { server.gql(Some(&token), REGISTER, json!({ "input": input })).await }
    };
    let input = |url: &str, competitions: Value| json!({ "url": url, "kinds": ["RESULT_REPORTED"], "competitionIds": competitions });
    let cases = [
        (ADMIN, input("ftp://example.com/x", json!([])), ("BAD_USER_INPUT", Some("url"))),
        (ADMIN, input("https://u:p@example.com/x", json!([])), ("BAD_USER_INPUT", Some("url"))),
        // A player who does not organise the league, and a player asking for every league.
        (
            players[0].token.as_str(),
            input("https://93.184.216.34/x", json!([league])),
            ("FORBIDDEN", None),
        ),
        (
            players[0].token.as_str(),
            input("https://93.184.216.34/x", json!([])),
            ("FORBIDDEN", None),
        ),
        // Rights come first: a caller who may not register learns nothing of the address
        // (no lookup of its host is made, no verdict on its form is given).
        (
            players[0].token.as_str(),
            input("https://no-such-host.invalid/x", json!([league])),
            ("FORBIDDEN", None),
        ),
        (players[0].token.as_str(), input("ftp://example.com/x", json!([])), ("FORBIDDEN", None)),
    ];
    for (token, input, expected) in cases {
        let response = attempt(token, input.clone()).await;
        assert_eq!(error_of(&response), expected, "{input}: {response}");
    }
    let response = attempt(ADMIN, input("https://93.184.216.34/x", json!([players[0].id]))).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("competitions")), "{response}");
    let anonymous = server.gql(None, "{ webhooks { id } }", json!({})).await;
    assert_eq!(error_of(&anonymous).0, "UNAUTHENTICATED");
    assert_eq!(server.event_count().await, before, "refusals append nothing");
    server.kill().await;
}

async fn the_webhooks_query_follows_failed_deliveries_without_an_append(db: TestDatabase) {
    let server = serve(&db).await;
    let (league, _, games) = league(&server).await;
    // Nothing listens on the port: every attempt fails at once, and is retried (from 20 ms).
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", closed.local_addr().unwrap());
    drop(closed);
    register(&server, &url, &league, "JSON").await;
    report(&server, &games[0]).await;
    let query = "{ webhooks { attempts lastError lag checkpointPosition } }";
    let first = server.data(Some(ADMIN), query, json!({})).await;
    let head = server.event_count().await;
    let attempts = |data: &Value| data["webhooks"][0]["attempts"].as_u64().unwrap();
    let deadline = Instant::now() + WAIT;
    let later = loop {
        let later = server.data(Some(ADMIN), query, json!({})).await;
        if attempts(&later) > attempts(&first) && attempts(&later) >= 2 {
            break later;
        }
        assert!(Instant::now() < deadline, "the answer never moved from {first}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(server.event_count().await, head, "nothing was appended meanwhile");
    let webhook = &later["webhooks"][0];
    assert!(webhook["lastError"].as_str().unwrap().starts_with("127.0.0.1: "), "{webhook}");
    assert!(webhook["lag"].as_u64().unwrap() >= 1, "the report waits: {webhook}");
    server.kill().await;
}

on_both_databases!(
    the_webhooks_query_follows_failed_deliveries_without_an_append,
    killed_mid_delivery_loses_nothing_and_repeats_at_most_the_one_in_flight,
    a_receiver_failing_30_percent_gets_every_event_once_after_dedup,
    bad_registrations_are_typed_errors_and_append_nothing,
);
