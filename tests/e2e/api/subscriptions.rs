//! Subscriptions over WebSocket: `leagueEvents` and `standingsChanged` on
//! graphql-transport-ws, the legacy graphql-ws protocol, and a refused bad token; and
//! under 48 concurrent results, every `standingsChanged` update (on the writing gateway and
//! on a second one over the same database) equals `standings(asOf: {position})` of the
//! position it names, none skipped or reordered; likewise each `tournamentStandingsChanged`
//! update under a round's boards reported at once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use tokio::sync::Barrier;

use crate::api::oracle::{result_for, small_placement_league};
use crate::api::tournament::{check_in, create, diplomacy_input, enter, seed};
use crate::support::{
    ADMIN, Socket, TestApp, error_code, gql, placement_result, spawn_app_on_port, ws_next, ws_send,
};

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

/// Results reported at once in [`every_update_is_the_standings_as_of_its_position`].
const CONCURRENT_RESULTS: usize = 48;
/// The standings lines a test selects, in the subscription and in the `asOf` query alike.
const STANDING_LINE: &str = "rank player { id } total played wins draws";

/// A `standingsChanged` subscription on a new socket to `server`, registered (a ping round
/// trip after the subscribe message means the server has set it up).
async fn standings_subscription(server: &TestApp, league: &str) -> Socket {
    let mut socket = server.ws_connect("graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": {} })).await;
    assert_eq!(ws_next(&mut socket).await.expect("open")["type"], "connection_ack");
    ws_send(&mut socket, json!({ "id": "s", "type": "subscribe", "payload": {
        "query": format!("subscription($id: ID!) {{ standingsChanged(leagueId: $id) {{ position standings {{ {STANDING_LINE} }} }} }}"),
        "variables": { "id": league },
    }}))
    .await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.expect("open")["type"], "pong");
    socket
}

/// The updates `socket` receives until one names `last` (every update after `after`).
pub(crate) async fn updates_until(socket: &mut Socket, after: u64, last: u64) -> Vec<Value> {
    let mut updates = Vec::new();
    loop {
        let message = ws_next(socket).await.expect("the subscription stays open");
        assert_eq!(message["type"], "next", "{message}");
        let update = message["payload"]["data"]["standingsChanged"].clone();
        let position = update["position"].as_u64().expect("position");
        if position > after {
            updates.push(update);
        }
        if position >= last {
            return updates;
        }
    }
}

async fn every_update_is_the_standings_as_of_its_position(db: TestDatabase) {
    let writer = spawn_app_on_port(&db.url, |_| {}).await;
    let second = spawn_app_on_port(&db.url, |_| {}).await;
    let players = writer.register_many(16, "Player").await;
    // 16 players, 4 a game, each seat taken 3 times: 48 games.
    let league = writer
        .create_league_with(json!({
            "name": "Busy league", "game": "Carcassonne", "scoringSystem": "PLACEMENT",
            "playersPerGame": 4, "size": 16, "gamesPerSeat": 3,
        }))
        .await["id"]
        .as_str()
        .expect("league id")
        .to_owned();
    writer.fill(&league, &players).await;
    let games = writer.game_infos(&league).await;
    assert_eq!(games.len(), CONCURRENT_RESULTS);
    let before = writer.events(Some(&league)).await.last().expect("events")["position"]
        .as_u64()
        .expect("position");

    // The second gateway follows the same database: wait until it has folded the schedule
    // (its league then has every game).
    let deadline = Instant::now() + Duration::from_secs(10);
    while second
        .gql(None, "query($id: ID!) { league(id: $id) { games { id } } }", json!({ "id": league }))
        .await["data"]["league"]["games"]
        .as_array()
        .is_none_or(|games| games.len() < CONCURRENT_RESULTS)
    {
        assert!(Instant::now() < deadline, "the second gateway never saw the schedule");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut sockets = vec![
        standings_subscription(&writer, &league).await,
        standings_subscription(&second, &league).await,
    ];

    // Every result leaves at the same moment.
    let barrier = Arc::new(Barrier::new(CONCURRENT_RESULTS));
    let tasks: Vec<_> = games
        .iter()
        .map(|game| {
            let (http, url, barrier) = (writer.http.clone(), writer.graphql_url(), barrier.clone());
            let (game, result) = (game.id.clone(), placement_result(&game.seats));
            tokio::spawn(async move {
                barrier.wait().await;
                // A result that met too much contention appended nothing: sent again, as a
                // client would.
                loop {
                    let response = gql(
                        &http,
                        &url,
                        Some(ADMIN),
                        "mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }",
                        json!({ "g": game, "r": result }),
                    )
                    .await
                    .expect("every result gets an answer");
                    let contended = error_code(&response) == "CONFLICT"
                        && response["errors"][0]["message"]
                            .as_str()
                            .is_some_and(|message| message.contains("kept changing"));
                    if !contended {
                        break response;
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        let response = task.await.expect("result task");
        assert!(response.get("errors").is_none(), "{response:#}");
    }

    let events = writer.events(Some(&league)).await;
    let finished: Vec<u64> = events
        .iter()
        .filter(|event| event["type"] == "GameFinished")
        .map(|event| event["position"].as_u64().expect("position"))
        .collect();
    assert_eq!(finished.len(), CONCURRENT_RESULTS);
    let last = *finished.last().expect("a result");
    let mut as_of = std::collections::HashMap::new();
    for (gateway, socket) in ["writer", "second"].into_iter().zip(&mut sockets) {
        let updates = updates_until(socket, before, last).await;
        let positions: Vec<u64> =
            updates.iter().map(|u| u["position"].as_u64().expect("position")).collect();
        // One update per result, in log order: none skipped, none reordered.
        assert_eq!(positions, finished, "{gateway}: the positions of the updates");
        let mut differing = Vec::new();
        for (update, position) in updates.iter().zip(&positions) {
            if !as_of.contains_key(position) {
                let standings = writer.standings(&league, json!({ "position": position })).await;
                as_of.insert(*position, Value::Array(standings));
            }
            if update["standings"] != as_of[position] {
                differing.push(*position);
            }
        }
        assert!(
            differing.is_empty(),
            "{gateway}: {} of {CONCURRENT_RESULTS} updates differ from the standings as of \
             their position ({differing:?})",
            differing.len()
        );
    }
}

/// Tournament standings lines, in the subscription and in the `asOf` query alike.
const TOURNAMENT_LINE: &str = "rank total games player { id }";

/// A `tournamentStandingsChanged` subscription on a new socket to `server`, registered.
async fn tournament_subscription(server: &TestApp, tournament: &str) -> Socket {
    let mut socket = server.ws_connect("graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": {} })).await;
    assert_eq!(ws_next(&mut socket).await.expect("open")["type"], "connection_ack");
    ws_send(&mut socket, json!({ "id": "t", "type": "subscribe", "payload": {
        "query": format!("subscription($id: ID!) {{ tournamentStandingsChanged(tournamentId: $id) {{ position tournament {{ standings {{ {TOURNAMENT_LINE} }} }} }} }}"),
        "variables": { "id": tournament },
    }}))
    .await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.expect("open")["type"], "pong");
    socket
}

/// Three boards of a round reported at once: every `tournamentStandingsChanged` update, on
/// the writing gateway and on a second one, equals `standings(asOf: {position})` of the
/// position it names (the follower may have folded later results before the update is
/// served).
async fn every_tournament_update_is_the_standings_as_of_its_position(db: TestDatabase) {
    let writer = spawn_app_on_port(&db.url, |_| {}).await;
    let second = spawn_app_on_port(&db.url, |_| {}).await;
    let players = writer.register_many(21, "Entrant").await;
    let created = create(&writer, diplomacy_input(1)).await;
    let id = created["data"]["createTournament"]["id"].as_str().expect("id").to_owned();
    for player in &players {
        let entered = enter(&writer, &player.token, &id, None).await;
        assert!(entered["errors"].is_null(), "{entered}");
        check_in(&writer, player, &id, 1, false).await;
    }
    let seeded = seed(&writer, &id, 1).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
    let boards_query = "query($id: ID!) { tournament(id: $id) { rounds { boards { id seats { player { id } } } } } }";
    let boards = writer.data(None, boards_query, json!({ "id": id })).await["tournament"]["rounds"]
        [0]["boards"]
        .as_array()
        .expect("boards")
        .clone();
    assert_eq!(boards.len(), 3);
    let deadline = Instant::now() + Duration::from_secs(10);
    while second.data(None, boards_query, json!({ "id": id })).await["tournament"]["rounds"]
        .as_array()
        .is_none_or(|rounds| rounds.is_empty())
    {
        assert!(Instant::now() < deadline, "the second gateway never saw the seeding");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let before = writer.event_count().await;
    let mut sockets = vec![
        tournament_subscription(&writer, &id).await,
        tournament_subscription(&second, &id).await,
    ];

    let barrier = Arc::new(Barrier::new(boards.len()));
    let tasks: Vec<_> = boards
        .iter()
        .map(|board| {
            let (http, url, barrier) = (writer.http.clone(), writer.graphql_url(), barrier.clone());
            let entries: Vec<Value> = board["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .zip([10, 8, 6, 4, 3, 2, 1])
                .map(|(seat, centres)| json!({ "playerId": seat["player"]["id"], "centres": centres }))
                .collect();
            let (tournament, board) = (id.clone(), board["id"].clone());
            tokio::spawn(async move {
                barrier.wait().await;
                gql(
                    &http,
                    &url,
                    Some(ADMIN),
                    "mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }",
                    json!({ "t": tournament, "b": board, "r": { "diplomacy": entries } }),
                )
                .await
                .expect("every result gets an answer")
            })
        })
        .collect();
    for task in tasks {
        let response = task.await.expect("result task");
        assert!(response.get("errors").is_none(), "{response:#}");
    }
    assert!(writer.event_count().await >= before + 3, "three results appended");

    for (gateway, socket) in ["writer", "second"].into_iter().zip(&mut sockets) {
        // One update per result, in log order.
        let mut updates = Vec::new();
        while updates.len() < 3 {
            let message = ws_next(socket).await.expect("the subscription stays open");
            assert_eq!(message["type"], "next", "{message}");
            updates.push(message["payload"]["data"]["tournamentStandingsChanged"].clone());
        }
        let positions: Vec<u64> =
            updates.iter().map(|u| u["position"].as_u64().expect("position")).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{gateway}: {positions:?}");
        assert!(positions[0] > before, "{gateway}: {positions:?} after {before}");
        for update in updates {
            let position = update["position"].as_u64().expect("position");
            let as_of = writer
                .data(
                    None,
                    &format!("query($id: ID!, $p: Int!) {{ tournament(id: $id) {{ standings(asOf: {{ position: $p }}) {{ {TOURNAMENT_LINE} }} }} }}"),
                    json!({ "id": id, "p": position }),
                )
                .await;
            assert_eq!(
                update["tournament"]["standings"], as_of["tournament"]["standings"],
                "{gateway}: the update at {position}"
            );
        }
    }
}

on_both_databases!(
    every_update_is_the_standings_as_of_its_position,
    every_tournament_update_is_the_standings_as_of_its_position,
);
