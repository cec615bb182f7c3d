//! Subscriptions over WebSocket: `leagueEvents` and `standingsChanged` on
//! graphql-transport-ws, the legacy graphql-ws protocol, and a refused bad token.

use std::time::Duration;

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::{result_for, small_placement_league};
use crate::support::{ADMIN, spawn_app_on_port, ws_next, ws_send};

async fn subscription_receives_the_events(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let players = server.register_many(8, "Player").await;
    let league = small_placement_league(&server).await;

    let mut socket = server.ws_connect("graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": { "authorization": format!("Bearer {ADMIN}") } })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "connection_ack");
    ws_send(&mut socket, json!({ "id": "events", "type": "subscribe", "payload": {
        "query": "subscription($id: ID!) { leagueEvents(leagueId: $id) { position type actor payload } }",
        "variables": { "id": league },
    }})).await;
    ws_send(&mut socket, json!({ "id": "standings", "type": "subscribe", "payload": {
        "query": "subscription($id: ID!) { standingsChanged(leagueId: $id) { position league { id } standings { rank player { id } total } } }",
        "variables": { "id": league },
    }})).await;
    // The subscriptions are registered once a ping round-trip has gone through.
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "pong");

    server.fill(&league, &players).await;
    let games = server.game_infos(&league).await;
    let (input, _) = result_for("PLACEMENT", games[0].number, &games[0].seats);
    server.report(ADMIN, &games[0].id, &input).await;

    // 8 subscriptions, the schedule, the result: 10 events. Standings change with every
    // subscription (a new line) and with the result; wait for the result's update.
    let mut received: Vec<Value> = Vec::new();
    let mut standings_update: Option<Value> = None;
    let result_reported = |received: &[Value], update: &Option<Value>| {
        received.len() >= 10
            && update.as_ref().is_some_and(|u| u["position"] == received[9]["position"])
    };
    while !result_reported(&received, &standings_update) {
        let message = ws_next(&mut socket).await.expect("the subscription stays open");
        assert_eq!(message["type"], "next", "{message}");
        match message["id"].as_str().unwrap() {
            "events" => received.push(message["payload"]["data"]["leagueEvents"].clone()),
            "standings" => {
                standings_update = Some(message["payload"]["data"]["standingsChanged"].clone())
            }
            other => panic!("unexpected subscription id {other}"),
        }
    }
    let logged = server.events(Some(&league)).await;
    // Everything after LeagueCreated (appended before subscribing), in log order.
    for (got, want) in received.iter().zip(&logged[1..]) {
        assert_eq!(got["position"], want["position"]);
        assert_eq!(got["type"], want["type"]);
        assert_eq!(got["actor"], want["actor"]);
        assert_eq!(got["payload"], want["payload"]);
    }
    assert_eq!(received[0]["actor"], format!("player:{}", players[0].id));
    assert_eq!(received.last().unwrap()["type"], "GameFinished");
    let update = standings_update.unwrap();
    assert_eq!(update["position"], received.last().unwrap()["position"]);
    assert_eq!(update["league"]["id"], league.as_str());
    let now = server.standings(&league, Value::Null).await;
    let totals: Vec<&Value> =
        update["standings"].as_array().unwrap().iter().map(|l| &l["total"]).collect();
    assert_eq!(totals, now.iter().map(|l| &l["total"]).collect::<Vec<_>>());

    ws_send(&mut socket, json!({ "id": "events", "type": "complete" })).await;
    socket.close(None).await.ok();

    // The legacy graphql-ws protocol (subscriptions-transport-ws) works too, anonymously.
    let mut legacy = server.ws_connect("graphql-ws").await;
    ws_send(&mut legacy, json!({ "type": "connection_init", "payload": {} })).await;
    assert_eq!(ws_next(&mut legacy).await.unwrap()["type"], "connection_ack");
    ws_send(
        &mut legacy,
        json!({ "id": "1", "type": "start", "payload": {
            "query": "subscription($id: ID!) { leagueEvents(leagueId: $id) { type } }",
            "variables": { "id": league },
        }}),
    )
    .await;
    // Give the server a moment to register the subscription (the legacy protocol has no ping).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (input, _) = result_for("PLACEMENT", games[1].number, &games[1].seats);
    server.report(ADMIN, &games[1].id, &input).await;
    let message = ws_next(&mut legacy).await.unwrap();
    assert_eq!(message["type"], "data");
    assert_eq!(message["payload"]["data"]["leagueEvents"]["type"], "GameFinished");

    // A bad token in connection_init closes the connection without an ack.
    let mut refused = server.ws_connect("graphql-transport-ws").await;
    ws_send(
        &mut refused,
        json!({ "type": "connection_init", "payload": { "authorization": "Bearer wrong" } }),
    )
    .await;
    assert_eq!(ws_next(&mut refused).await, None, "closed, no connection_ack");
}

on_both_databases!(subscription_receives_the_events);
