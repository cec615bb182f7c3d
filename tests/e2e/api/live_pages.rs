//! What a live page reads and is pushed (`docs/api.md#live-updates`): a league's every
//! score history in one request (and only what changed after a position), its newest event,
//! and `standingsChanged` / `tournamentStandingsChanged` updates that carry only the rows
//! that changed since the version they name.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::{result_for, small_placement_league};
use crate::api::tournament::{check_in, create, diplomacy_input, diplomacy_result, enter, seed};
use crate::support::{ADMIN, Socket, TestApp, spawn_app_on_port, ws_next, ws_send};

const HISTORIES: &str = "query($id: ID!, $after: Int) {
  league(id: $id) {
    version
    latestEvent { position version type }
    scoreHistories(afterPosition: $after) { player { id } changes { position delta total game { id } } }
  }
}";

const HISTORY: &str = "query($league: ID!, $player: ID!) {
  scoreHistory(leagueId: $league, playerId: $player) { position delta total game { id } }
}";

/// A socket with one subscription open (a ping round-trip has registered it).
async fn subscribed(server: &TestApp, query: &str, variables: Value) -> Socket {
    let mut socket = server.ws_connect("graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": {} })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "connection_ack");
    ws_send(&mut socket, json!({ "id": "1", "type": "subscribe", "payload": { "query": query, "variables": variables } })).await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "pong");
    socket
}

/// The next update of the socket's subscription.
async fn next_update(socket: &mut Socket, field: &str) -> Value {
    let message = ws_next(socket).await.expect("the subscription stays open");
    assert_eq!(message["type"], "next", "{message}");
    message["payload"]["data"][field].clone()
}

/// The rows of `after` that differ from the same player's row in `before` other than by
/// their rank, and the rank in `after` of each row of `before`.
fn changes(before: &[Value], after: &[Value]) -> (Vec<Value>, Vec<Value>) {
    let row_of =
        |rows: &[Value], id: &Value| rows.iter().find(|r| r["player"]["id"] == *id).cloned();
    let changed = after
        .iter()
        .filter(|row| {
            row_of(before, &row["player"]["id"]).is_none_or(|mut old| {
                old["rank"] = row["rank"].clone();
                old != **row
            })
        })
        .cloned()
        .collect();
    let ranks = before
        .iter()
        .map(|row| row_of(after, &row["player"]["id"]).map_or(json!(0), |now| now["rank"].clone()))
        .collect();
    (changed, ranks)
}

async fn league_version(server: &TestApp, league: &str) -> Value {
    let data = server
        .data(None, "query($id: ID!) { league(id: $id) { version } }", json!({ "id": league }))
        .await;
    data["league"]["version"].clone()
}

/// A league's standings rows as the tests compare them (the tie-break note included: a row
/// whose note changes is a changed row).
const LEAGUE_ROW: &str = "rank player { id } total played wins draws separatedBy { code }";

async fn league_rows(server: &TestApp, league: &str) -> Vec<Value> {
    let query = format!("query($id: ID!) {{ standings(leagueId: $id) {{ {LEAGUE_ROW} }} }}");
    let data = server.data(None, &query, json!({ "id": league })).await;
    data["standings"].as_array().expect("standings").clone()
}

/// A tournament's standings lines as the tests compare them.
const TOURNAMENT_LINE: &str = "rank total games wins draws notes player { id } rounds { round score satOut dropped boards { board score dropped } }";

async fn a_league_reads_every_score_history_in_one_request(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let players = server.register_many(8, "Player").await;
    let league = small_placement_league(&server).await;
    server.fill(&league, &players).await;
    let games = server.game_infos(&league).await;
    for game in &games[..2] {
        let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
    }

    let all = server.data(None, HISTORIES, json!({ "id": league })).await["league"].clone();
    let histories = all["scoreHistories"].as_array().unwrap();
    assert_eq!(histories.len(), 8, "one per subscribed player");
    for (history, player) in histories.iter().zip(&players) {
        assert_eq!(history["player"]["id"], player.id.as_str(), "in the order of `players`");
        let alone =
            server.data(None, HISTORY, json!({ "league": league, "player": player.id })).await;
        assert_eq!(history["changes"], alone["scoreHistory"]);
    }
    let events = server.events(Some(&league)).await;
    let newest = events.last().unwrap();
    assert_eq!(all["latestEvent"]["position"], newest["position"]);
    assert_eq!(all["latestEvent"]["type"], "GameFinished");
    assert_eq!(all["latestEvent"]["version"], all["version"]);

    // After the first result's position: only the second game's four players, one change each.
    let second = newest["position"].as_u64().unwrap();
    let since = server.data(None, HISTORIES, json!({ "id": league, "after": second - 1 })).await;
    let changed = since["league"]["scoreHistories"].as_array().unwrap();
    let mut ids: Vec<&str> = changed.iter().map(|h| h["player"]["id"].as_str().unwrap()).collect();
    let mut seated: Vec<&str> = games[1].seats.iter().map(String::as_str).collect();
    ids.sort_unstable();
    seated.sort_unstable();
    assert_eq!(ids, seated);
    for history in changed {
        assert_eq!(history["changes"].as_array().unwrap().len(), 1);
        assert_eq!(history["changes"][0]["position"], second);
        assert_eq!(history["changes"][0]["game"]["id"], games[1].id.as_str());
    }
}

async fn standings_updates_carry_only_the_changed_rows(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let players = server.register_many(8, "Player").await;
    let league = small_placement_league(&server).await;
    server.fill(&league, &players).await;
    let games = server.game_infos(&league).await;
    let mut socket = subscribed(
        &server,
        &format!(
            "subscription($id: ID!) {{ standingsChanged(leagueId: $id) {{
           version previousVersion rowCount ranks changed {{ {LEAGUE_ROW} }} }} }}"
        ),
        json!({ "id": league }),
    )
    .await;

    let mut before = league_rows(&server, &league).await;
    let mut previous = league_version(&server, &league).await;
    for game in &games[..3] {
        let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        let update = next_update(&mut socket, "standingsChanged").await;
        let after = league_rows(&server, &league).await;
        assert_eq!(update["previousVersion"], previous);
        assert_eq!(update["version"], league_version(&server, &league).await);
        assert_eq!(update["rowCount"], 8);
        let (changed, ranks) = changes(&before, &after);
        assert_eq!(update["changed"], json!(changed));
        assert_eq!(update["ranks"], json!(ranks));
        // The game's four players, and any other whose tie-break note changed with them.
        let seated: Vec<&Value> = changed
            .iter()
            .filter(|row| game.seats.iter().any(|s| row["player"]["id"] == **s))
            .collect();
        assert_eq!(seated.len(), 4, "the game's four players: {changed:?}");
        for row in changed.iter().filter(|row| !seated.contains(row)) {
            let old = before.iter().find(|r| r["player"]["id"] == row["player"]["id"]).unwrap();
            assert_ne!(old["separatedBy"], row["separatedBy"], "{row}");
        }
        (before, previous) = (after, update["version"].clone());
    }
}

async fn tournament_updates_carry_only_the_changed_lines(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let players = server.register_many(14, "Entrant").await;
    let created = create(&server, diplomacy_input(1)).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players {
        enter(&server, &player.token, &id, None).await;
        check_in(&server, player, &id, 1, false).await;
    }
    seed(&server, &id, 1).await;
    let standings = format!(
        "query($id: ID!) {{ tournament(id: $id) {{ version rounds {{ boards {{ id seats {{ player {{ id }} }} }} }} standings {{ {TOURNAMENT_LINE} }} }} }}"
    );
    let state = server.data(None, &standings, json!({ "id": id })).await["tournament"].clone();
    let subscription = format!(
        "subscription($id: ID!) {{ tournamentStandingsChanged(tournamentId: $id) {{
           version previousVersion rowCount ranks changed {{ {TOURNAMENT_LINE} }} }} }}"
    );
    let mut socket = subscribed(&server, &subscription, json!({ "id": id })).await;
    let board = &state["rounds"][0]["boards"][0];
    let seats: Vec<&str> = board["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["id"].as_str().unwrap())
        .collect();
    let reported = server.gql(Some(ADMIN),
        "mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }",
        json!({ "t": id, "b": board["id"], "r": diplomacy_result(&seats) })).await;
    assert!(reported["errors"].is_null(), "{reported}");

    let update = next_update(&mut socket, "tournamentStandingsChanged").await;
    let after = server.data(None, &standings, json!({ "id": id })).await["tournament"].clone();
    assert_eq!(update["previousVersion"], state["version"]);
    assert_eq!(update["version"], after["version"]);
    assert_eq!(update["rowCount"], 14);
    let (changed, ranks) =
        changes(state["standings"].as_array().unwrap(), after["standings"].as_array().unwrap());
    assert_eq!(update["changed"], json!(changed));
    assert_eq!(update["ranks"], json!(ranks));
    // The board's seven players; the other seven only moved down.
    assert_eq!(changed.len(), 7, "{changed:?}");
}

on_both_databases!(
    a_league_reads_every_score_history_in_one_request,
    standings_updates_carry_only_the_changed_rows,
    tournament_updates_carry_only_the_changed_lines,
);
