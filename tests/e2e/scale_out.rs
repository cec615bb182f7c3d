//! Scale out: two `league serve` processes on one PostgreSQL database. A result reported
//! through one reaches the other's standings query and its `standingsChanged`
//! subscription within 200 ms of the writer's answer (the store wakes every process's
//! follower with LISTEN/NOTIFY, so propagation does not wait for a poll). PostgreSQL only:
//! SQLite serves one machine, and other processes poll it.
//!
//! Only other processes' appends make a PostgreSQL store's predicted log state miss: a
//! gateway appending alone, right after it starts on a log another one wrote and after
//! registrations and `rotateCalendarFeed`, decides every append once
//! (`league_append_prediction_misses_total` stays 0).

use crate::support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::{ADMIN, TestApp, placement_result, spawn_app, start_league_serve, ws_next, ws_send};

/// How late the other gateway may be (`docs/architecture.md`, "Running N gateways").
const PROPAGATION: Duration = Duration::from_millis(200);
/// How long the reader may take at most before the test gives up.
const GIVE_UP: Duration = Duration::from_secs(10);

/// The total of `player` in a league's standings as served by `server`.
async fn total_of(server: &TestApp, league: &str, player: &str) -> f64 {
    let data = server
        .data(
            None,
            "query($id: ID!) { standings(leagueId: $id) { total player { id } } }",
            json!({ "id": league }),
        )
        .await;
    data["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .find(|row| row["player"]["id"] == player)
        .and_then(|row| row["total"].as_f64())
        .expect("the player has a line")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_result_through_one_gateway_reaches_the_other() {
    let Some(db) = league_testkit::postgres().await else {
        return;
    };
    let writer = start_league_serve(&db.url).await;
    let reader = start_league_serve(&db.url).await;
    let players = writer.register_many(4, "scale").await;
    let league = writer.create_league("PLACEMENT", 2, Some(4)).await;
    writer.fill(&league, &players).await;
    let (game, seats, _) = writer.games(&league).await.remove(0);

    // The reader follows the writer's log: a subscription to a league it has not folded yet
    // would be refused (NOT_FOUND), so wait until it knows the league.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let known = reader
            .gql(None, "query($id: ID!) { league(id: $id) { id } }", json!({ "id": league }))
            .await;
        if !known["data"]["league"].is_null() {
            break;
        }
        assert!(Instant::now() < deadline, "the reader never saw the league: {known}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The reader's subscription, registered before the result (a ping round trip after the
    // subscribe message means the server has set it up). The reader may still be applying
    // the league's fill when the subscription starts: those changes come as `next` first.
    let mut socket = reader.ws_connect("graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": {} })).await;
    assert_eq!(ws_next(&mut socket).await.expect("open")["type"], "connection_ack");
    ws_send(&mut socket, json!({ "id": "s", "type": "subscribe", "payload": {
        "query": "subscription($id: ID!) { standingsChanged(leagueId: $id) { position standings { total player { id } } } }",
        "variables": { "id": league },
    }}))
    .await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    loop {
        let message = ws_next(&mut socket).await.expect("open");
        if message["type"] == "pong" {
            break;
        }
        assert_eq!(message["type"], "next", "{message}");
    }
    // The reader has loaded the league (before the result, every total is 0).
    assert_eq!(total_of(&reader, &league, &seats[0]).await, 0.0);

    let reported = Instant::now();
    writer
        .data(
            Some(ADMIN),
            "mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }",
            json!({ "g": game, "r": placement_result(&seats) }),
        )
        .await;
    let acknowledged = reported.elapsed();

    // The other gateway's subscription pushes standings with the winner's points.
    let update = loop {
        let message = ws_next(&mut socket).await.expect("the subscription stays open");
        assert_eq!(message["type"], "next", "{message}");
        let rows = message["payload"]["data"]["standingsChanged"]["standings"].clone();
        let winner =
            rows.as_array().expect("rows").iter().find(|row| row["player"]["id"] == seats[0]);
        if winner.and_then(|row| row["total"].as_f64()).is_some_and(|total| total > 0.0) {
            break reported.elapsed();
        }
    };
    // And its standings query answers with them.
    let queried = loop {
        if total_of(&reader, &league, &seats[0]).await > 0.0 {
            break reported.elapsed();
        }
        assert!(reported.elapsed() < GIVE_UP, "the reader never saw the result");
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    eprintln!(
        "result acknowledged by the writer after {acknowledged:?}; the other gateway's \
         subscription after {update:?}, its standings query after {queried:?}"
    );
    // Measured from the request, so the writer's own commit is included.
    assert!(update <= acknowledged + PROPAGATION, "subscription after {update:?}");
    assert!(queried <= acknowledged + PROPAGATION, "standings query after {queried:?}");
    writer.kill().await;
    reader.kill().await;
}

/// `league_append_prediction_misses_total` as `server`'s `GET /metrics` reports it.
async fn prediction_misses(server: &TestApp) -> u64 {
    let response = server.send(server.http.get(server.url("/metrics"))).await.expect("GET");
    let text = response.text().await.expect("metrics text");
    text.lines()
        .find_map(|line| line.strip_prefix("league_append_prediction_misses_total "))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no prediction misses counter in {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lone_gateway_predicts_every_append() {
    let Some(db) = league_testkit::postgres().await else {
        return;
    };
    let (league, players) = {
        let earlier = spawn_app(&db.url).await;
        let players = earlier.register_many(8, "lone").await;
        (earlier.create_league("PLACEMENT", 4, Some(8)).await, players)
    };
    // A gateway started on a log another one wrote: its first append is predicted right.
    let server = spawn_app(&db.url).await;
    let rotate = "mutation($p: ID) { rotateCalendarFeed(playerId: $p) { path } }";
    server.data(Some(&players[0].token), rotate, json!({ "p": null })).await;
    // A registration (its append commits with a person key), then the rest.
    let late = server.register("late").await;
    server.data(Some(&late.token), rotate, json!({ "p": null })).await;
    server.data(Some(ADMIN), rotate, json!({ "p": players[1].id })).await;
    server.fill(&league, &players).await;
    for (game, seats, _) in server.games(&league).await.into_iter().take(4) {
        server.report(ADMIN, &game, &placement_result(&seats)).await;
    }
    assert_eq!(prediction_misses(&server).await, 0, "one writer's appends never miss");
    assert_eq!(server.app().store().prediction_misses(), 0);
}
