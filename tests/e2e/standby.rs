//! Gateways reading a PostgreSQL hot standby (`docs/operations.md`, reading gateways): a
//! primary and a streaming-replication standby made in a temporary directory
//! (`league_testkit::replication`), one `league serve` on the primary and one with
//! `--read-database` on the standby. A result through the writer reaches the reader's query
//! and its `standingsChanged` subscription; a command through the reader is
//! read-your-writes; with the standby's replay paused the reader's command answers
//! `REPLICA_LAG` naming the committed position, which the log holds, and a retry with the same
//! idempotency key answers once the standby caught up, and every `standingsChanged` update
//! of the results that landed during the pause is the standings as of its own position;
//! after the standby is promoted, a gateway on it writes and `league verify` passes there.
//! PostgreSQL only.

use crate::api::subscriptions::updates_until;
use crate::support;

use std::time::{Duration, Instant};

use league_testkit::replication::ReplicatedPair;
use serde_json::{Value, json};
use support::{
    ADMIN, TestApp, error_code, placement_result, start_league_serve, start_reading_league_serve,
    ws_next, ws_send,
};

/// How long the reading gateway waits for the standby before answering `REPLICA_LAG`.
const LAG_TIMEOUT: &str = "2s";
/// How long the standby may take to show a write before the test gives up.
const GIVE_UP: Duration = Duration::from_secs(20);

const REPORT: &str = "mutation($g: ID!, $r: GameResultInput!, $key: String) {
    reportGameResult(gameId: $g, result: $r, idempotencyKey: $key) { id status }
}";

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

/// A game's status as `server` serves it.
async fn status_of(server: &TestApp, league: &str, game: &str) -> String {
    let games = server.games(league).await;
    games.into_iter().find(|(id, ..)| id == game).map(|(.., status)| status).expect("the game")
}

/// The `GameFinished` events of `game` in the log as `server` reads it.
async fn results_of(server: &TestApp, league: &str, game: &str) -> Vec<Value> {
    let events = server.events(Some(league)).await;
    events
        .into_iter()
        .filter(|event| event["type"] == "GameFinished" && event["payload"]["gameId"] == game)
        .collect()
}

/// Waits for the `standingsChanged` message that shows `player` with more than `before`.
async fn wait_for_total_above(socket: &mut support::Socket, player: &str, before: f64) {
    loop {
        let message = ws_next(socket).await.expect("the subscription stays open");
        assert_eq!(message["type"], "next", "{message}");
        let rows = &message["payload"]["data"]["standingsChanged"]["standings"];
        let row = rows.as_array().expect("rows").iter().find(|row| row["player"]["id"] == player);
        if row.and_then(|row| row["total"].as_f64()).is_some_and(|total| total > before) {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_gateway_reading_a_standby_follows_the_primary_and_survives_promotion() {
    let Some(mut pair) = ReplicatedPair::start() else {
        return;
    };
    let (primary, standby) = (pair.primary_url(), pair.standby_url());
    let writer = start_league_serve(&primary).await;
    let reader = start_reading_league_serve(
        &primary,
        &standby,
        &[("LEAGUE_REPLICA_LAG_TIMEOUT", LAG_TIMEOUT)],
    )
    .await;

    let players = writer.register_many(4, "standby").await;
    let league = writer.create_league("PLACEMENT", 2, Some(4)).await;
    writer.fill(&league, &players).await;
    let games = writer.games(&league).await;
    assert!(games.len() >= 4, "a league of 4, two per game, has at least 4 games");

    // The reader learns of the league through the standby.
    let deadline = Instant::now() + GIVE_UP;
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

    // 1. A result through the writer reaches the reader's subscription and query.
    let (game, seats, _) = &games[0];
    let before = total_of(&reader, &league, &seats[0]).await;
    let reported = Instant::now();
    writer.data(Some(ADMIN), REPORT, json!({ "g": game, "r": placement_result(seats) })).await;
    let acknowledged = reported.elapsed();
    wait_for_total_above(&mut socket, &seats[0], before).await;
    let pushed = reported.elapsed();
    assert!(total_of(&reader, &league, &seats[0]).await > before, "the reader's query shows it");
    eprintln!(
        "writer answered after {acknowledged:?}; the reader's subscription (standby) after {pushed:?}"
    );

    // 2. A command through the reader is read-your-writes: its answer, and the next query,
    // already show it.
    let (game, seats, before) = &games[1];
    let total_before = total_of(&reader, &league, &seats[0]).await;
    let answer =
        reader.data(Some(ADMIN), REPORT, json!({ "g": game, "r": placement_result(seats) })).await;
    let after = answer["reportGameResult"]["status"].as_str().expect("status").to_owned();
    assert_ne!(&after, before, "the answer shows the result");
    assert_eq!(status_of(&reader, &league, game).await, after, "so does the next query");
    assert!(total_of(&reader, &league, &seats[0]).await > total_before, "and the standings");
    wait_for_total_above(&mut socket, &seats[0], total_before).await;

    // 3. The standby stops replaying: the reader's command is committed on the primary but
    // answers REPLICA_LAG with its position instead of stale data.
    let (game, seats, before) = &games[2];
    let total_before = total_of(&reader, &league, &seats[0]).await;
    pair.pause_replay().expect("pause the standby's replay");
    let started = Instant::now();
    let variables = json!({ "g": game, "r": placement_result(seats), "key": "lagged-report" });
    let lagged = reader.gql(Some(ADMIN), REPORT, variables.clone()).await;
    let waited = started.elapsed();
    assert_eq!(error_code(&lagged), "REPLICA_LAG", "{lagged}");
    // Two more results while the standby is paused: the reader folds all three at once.
    for (game, seats, _) in &games[4..6] {
        writer.data(Some(ADMIN), REPORT, json!({ "g": game, "r": placement_result(seats) })).await;
    }
    assert!(lagged["data"].is_null() || lagged["data"]["reportGameResult"].is_null(), "{lagged}");
    let position = lagged["errors"][0]["extensions"]["position"].as_u64().expect("position");
    assert!(
        waited >= Duration::from_secs(2) && waited < GIVE_UP,
        "answered after the lag timeout: {waited:?}"
    );
    // Nothing is lost: the primary's log holds the result at that position.
    let logged = results_of(&writer, &league, game).await;
    assert_eq!(logged.len(), 1, "one result in the primary's log: {logged:?}");
    assert_eq!(logged[0]["position"].as_u64(), Some(position));
    // The reader still serves the standby's (older) state, consistently.
    assert_eq!(&status_of(&reader, &league, game).await, before);
    assert_eq!(total_of(&reader, &league, &seats[0]).await, total_before);

    // Replay resumes: the reader catches up, and the retried command answers its first
    // outcome without appending again.
    pair.resume_replay().expect("resume the standby's replay");
    let retried = reader.data(Some(ADMIN), REPORT, variables).await;
    assert_ne!(retried["reportGameResult"]["status"].as_str(), Some(before.as_str()));
    // One update per result, each the standings as of its own position.
    let last = writer.health().await;
    let updates = updates_until(&mut socket, 0, last).await;
    let positions: Vec<u64> =
        updates.iter().map(|update| update["position"].as_u64().expect("position")).collect();
    assert_eq!(positions.len(), 3, "{positions:?}");
    assert_eq!(positions[0], position, "the lagged result first");
    for update in &updates {
        let as_of = writer
            .data(
                None,
                "query($id: ID!, $p: Int!) { standings(leagueId: $id, asOf: {position: $p}) { total player { id } } }",
                json!({ "id": league, "p": update["position"] }),
            )
            .await;
        assert_eq!(update["standings"], as_of["standings"], "the update at {}", update["position"]);
    }
    assert_eq!(results_of(&writer, &league, game).await.len(), 1, "not appended twice");
    assert_eq!(results_of(&reader, &league, game).await.len(), 1, "the standby has it");
    let head = writer.health().await;
    writer.kill().await;
    reader.kill().await;

    // 4. The primary goes away and the standby is promoted: a gateway on it writes.
    pair.stop_primary().expect("stop the primary");
    pair.promote_standby().expect("promote the standby");
    let promoted = start_league_serve(&standby).await;
    assert_eq!(promoted.health().await, head, "the promoted node has the whole log");
    let (game, seats, _) = &games[3];
    let answer = promoted
        .data(Some(ADMIN), REPORT, json!({ "g": game, "r": placement_result(seats) }))
        .await;
    assert!(answer["reportGameResult"]["id"] == json!(game), "{answer}");
    assert!(promoted.health().await > head, "appended on the promoted node");
    promoted.kill().await;
    let verify = std::process::Command::new(env!("CARGO_BIN_EXE_league"))
        .args(["verify", "--database", &standby])
        .env("RUST_LOG", "error")
        .output()
        .expect("run league verify");
    let said = String::from_utf8_lossy(&verify.stdout);
    assert!(
        verify.status.success(),
        "league verify: {said} {}",
        String::from_utf8_lossy(&verify.stderr)
    );
    assert!(said.starts_with("ok: "), "{said}");
}
