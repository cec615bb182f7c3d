//! A board's live progress over GraphQL on both databases
//! (`docs/tournaments.md#live-progress`): a seated player and the admin record centre counts
//! after two game years, a correction; `Board.progress`, provisional scores and standings read
//! back; the `boardProgressRecorded` subscription carries the new progress; refusals (a
//! player not on the board, a total over 34, a finished board) append nothing.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::tournament::{check_in, create, diplomacy_input, diplomacy_result, enter, seed};
use crate::support::{ADMIN, TestApp, error_of, spawn_app_on_port, ws_next, ws_send};

const RECORD: &str = "mutation($t: ID!, $b: ID!, $y: Int!, $c: [Int!]!, $r: String) {
  recordBoardProgress(tournamentId: $t, boardId: $b, year: $y, centres: $c, reason: $r) {
    progress { years { year total } }
  }
}";

const PROGRESS: &str = "query($id: ID!) {
  tournament(id: $id) {
    rounds { boards {
      id seats { player { id } }
      progress {
        supplyCentres
        years { year total corrections reason recordedBy { id }
                centres { seat power player { id } centres eliminated } }
        powers { power counts { year centres } eliminatedYear }
        records { year centres correction reason }
      }
      provisionalScores { player { id } score }
    } }
    standings { player { id } total }
    provisionalStandings { rank player { id } total }
  }
}";

async fn record(
    server: &TestApp,
    token: &str,
    ids: (&str, &str),
    year: i32,
    centres: &[i32],
    reason: Option<&str>,
) -> Value {
    let variables = json!({ "t": ids.0, "b": ids.1, "y": year, "c": centres, "r": reason });
    server.gql(Some(token), RECORD, variables).await
}

async fn board_progress_recorded_is_read_back_pushed_live_and_refusals_append_nothing(
    db: TestDatabase,
) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let players = server.register_many(8, "Entrant").await;
    let created = create(&server, diplomacy_input(1)).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players[..7] {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
        check_in(&server, player, &id, 1, false).await;
    }
    assert!(seed(&server, &id, 1).await["errors"].is_null());
    let state = server.data(None, PROGRESS, json!({ "id": id })).await;
    let board = state["tournament"]["rounds"][0]["boards"][0].clone();
    let board_id = board["id"].as_str().unwrap().to_owned();
    let seats: Vec<String> = board["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["id"].as_str().unwrap().to_owned())
        .collect();
    let seated = players.iter().find(|p| p.id == seats[2]).unwrap();
    let ids = (id.as_str(), board_id.as_str());

    let mut socket = server.ws_connect("graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": {} })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "connection_ack");
    ws_send(
        &mut socket,
        json!({ "id": "p", "type": "subscribe", "payload": {
            "query": "subscription($t: ID!) { boardProgressRecorded(tournamentId: $t) {
            position board { id progress { years { year total } } provisionalScores { score } }
            tournament { provisionalStandings { player { id } total } } } }",
            "variables": { "t": id },
        }}),
    )
    .await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "pong");

    let first = record(&server, &seated.token, ids, 1901, &[5, 5, 5, 5, 4, 5, 4], None).await;
    assert_eq!(first["data"]["recordBoardProgress"]["progress"]["years"][0]["total"], 33);
    let update = ws_next(&mut socket).await.unwrap();
    assert_eq!(update["type"], "next", "{update}");
    let pushed = &update["payload"]["data"]["boardProgressRecorded"];
    assert_eq!(pushed["board"]["id"], board_id.as_str());
    assert_eq!(pushed["board"]["progress"]["years"], json!([{ "year": 1901, "total": 33 }]));
    assert_eq!(pushed["board"]["provisionalScores"].as_array().unwrap().len(), 7);
    assert_eq!(pushed["tournament"]["provisionalStandings"].as_array().unwrap().len(), 7);

    let year_two = [10, 8, 6, 5, 3, 2, 0];
    assert!(
        record(&server, ADMIN, ids, 1902, &[9, 8, 6, 5, 3, 2, 1], None).await["errors"].is_null()
    );
    let corrected = record(&server, ADMIN, ids, 1902, &year_two, Some("Sweden was Russian")).await;
    assert!(corrected["errors"].is_null(), "{corrected}");

    // Refusals: a player not on the board, a total over the 34 centres, then a finished board.
    let before = server.event_count().await;
    let stranger =
        record(&server, &players[7].token, ids, 1903, &[10, 8, 6, 5, 3, 2, 0], None).await;
    assert_eq!(error_of(&stranger).0, "FORBIDDEN", "{stranger}");
    let over = record(&server, ADMIN, ids, 1903, &[10, 10, 10, 5, 0, 0, 0], None).await;
    assert_eq!(error_of(&over), ("BAD_USER_INPUT", Some("centres")), "{over}");
    assert!(over["errors"][0]["message"].as_str().unwrap().contains("34"), "{over}");
    assert_eq!(server.event_count().await, before);

    let read = server.data(None, PROGRESS, json!({ "id": id })).await;
    let tournament = &read["tournament"];
    let progress = &tournament["rounds"][0]["boards"][0]["progress"];
    assert_eq!(progress["supplyCentres"], 34);
    let years = progress["years"].as_array().unwrap();
    assert_eq!(years.len(), 2);
    assert_eq!(years[0]["recordedBy"]["id"], seated.id.as_str());
    assert_eq!(years[1]["recordedBy"], Value::Null, "the site admin");
    assert_eq!(
        (years[1]["corrections"].clone(), years[1]["reason"].clone()),
        (json!(1), json!("Sweden was Russian"))
    );
    assert_eq!(years[1]["centres"][0]["power"], "Austria");
    assert_eq!(years[1]["centres"][6]["eliminated"], true);
    assert_eq!(progress["powers"][6]["eliminatedYear"], 1902);
    assert_eq!(
        progress["powers"][0]["counts"],
        json!([{ "year": 1901, "centres": 5 }, { "year": 1902, "centres": 10 }])
    );
    let corrections: Vec<bool> = progress["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["correction"].as_bool().unwrap())
        .collect();
    assert_eq!(corrections, [false, false, true]);
    // Squares: 10, 8, 6, 5, 3, 2, 0 share 100 by squares of 238 (docs/scoring.md#squares).
    let scores = tournament["rounds"][0]["boards"][0]["provisionalScores"].as_array().unwrap();
    let first_score = scores[0]["score"].as_f64().unwrap();
    assert!((first_score - 10_000.0 / 238.0).abs() < 1e-9, "{scores:?}");
    assert!(tournament["standings"].as_array().unwrap().iter().all(|s| s["total"] == 0.0));
    let provisional = tournament["provisionalStandings"].as_array().unwrap();
    assert_eq!(provisional[0]["player"]["id"], seats[0].as_str());
    // The tournament's total of the one round, as the standings round it.
    let total = provisional[0]["total"].as_f64().unwrap();
    assert!((total - first_score).abs() < 0.01, "{total} vs {first_score}");

    let reported = server
        .gql(
            Some(ADMIN),
            "mutation($t: ID!, $b: ID!, $r: GameResultInput!) {
               reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished }
             }",
            json!({ "t": id, "b": board_id, "r": diplomacy_result(&seats) }),
        )
        .await;
    assert!(reported["errors"].is_null(), "{reported}");
    let before = server.event_count().await;
    let finished = record(&server, ADMIN, ids, 1903, &year_two, None).await;
    assert_eq!(error_of(&finished).0, "CONFLICT", "{finished}");
    assert_eq!(server.event_count().await, before);
}

on_both_databases!(board_progress_recorded_is_read_back_pushed_live_and_refusals_append_nothing);
