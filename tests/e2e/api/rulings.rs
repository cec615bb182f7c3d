//! Rulings on both databases (`docs/tournaments.md#rulings`): a board penalty given over
//! GraphQL, a tournament bonus given by the CLI, an unranked entrant; GraphQL, the JSON export
//! and the CLI show the same numbers, and the audit names each ruling.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::awards::two_boards;
use super::confirmation::report;
use super::tournament::diplomacy_result;
use crate::replay::{league, stdout};
use crate::support::{ADMIN, TestApp, spawn_app};

const STANDINGS: &str = "query($t: ID!) {
  tournament(id: $t) {
    rounds { boards { id } }
    standings { rank total unranked player { id } rulings { kind number round board points reason } }
    export(format: JSON)
  }
}";

pub(crate) const ADJUST: &str = "mutation($t: ID!, $p: ID!, $l: AdjustmentLevel!, $b: ID, $r: Int, $x: Float!, $why: String!) {
  adjustScore(tournamentId: $t, playerId: $p, level: $l, boardId: $b, round: $r, points: $x, reason: $why) { id } }";
pub(crate) const REVOKE: &str = "mutation($t: ID!, $n: Int!) {
  revokeScoreAdjustment(tournamentId: $t, number: $n) { id } }";
pub(crate) const UNRANKED: &str = "mutation($t: ID!, $p: ID!, $u: Boolean!, $why: String) {
  setEntrantUnranked(tournamentId: $t, playerId: $p, unranked: $u, reason: $why) { id } }";
pub(crate) const HANDICAP: &str = "mutation($t: ID!, $p: ID!, $x: Float!) {
  setHandicap(tournamentId: $t, playerId: $p, points: $x) { id } }";
pub(crate) const KEEP_APART: &str = "mutation($t: ID!, $a: ID!, $b: ID!, $k: Boolean!) {
  changeKeepApart(tournamentId: $t, firstId: $a, secondId: $b, keep: $k) { id } }";
pub(crate) const TIE_BREAK: &str = "mutation($t: ID!, $r: Int!, $o: [ID!]!, $why: String!) {
  breakTopBoardTie(tournamentId: $t, round: $r, order: $o, reason: $why) { id } }";

/// The ids of a one-round tournament's boards, in board order.
pub(crate) async fn board_ids(server: &TestApp, id: &str) -> Vec<String> {
    let state = server.data(None, STANDINGS, json!({ "t": id })).await;
    state["tournament"]["rounds"][0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .collect()
}

/// Every board reported alike (10, 8, 6, 4, 3, 2, 1).
pub(crate) async fn report_all(server: &TestApp, id: &str, boards: &[Vec<String>], ids: &[String]) {
    for (seats, board) in boards.iter().zip(ids) {
        let reported = report(server, ADMIN, id, board, diplomacy_result(seats)).await;
        assert!(reported["errors"].is_null(), "{reported}");
    }
}

/// A one-round tournament of 14 entrants, both boards reported alike: its id, each board's
/// seats and each board's id.
async fn reported_boards(
    server: &TestApp,
    prefix: &str,
) -> (String, Vec<Vec<String>>, Vec<String>) {
    let (id, boards) = two_boards(server, prefix).await;
    let ids = board_ids(server, &id).await;
    report_all(server, &id, &boards, &ids).await;
    (id, boards, ids)
}

async fn state(server: &TestApp, id: &str) -> (Vec<Value>, Value) {
    let state = server.data(None, STANDINGS, json!({ "t": id })).await["tournament"].clone();
    let export = serde_json::from_str(state["export"].as_str().unwrap()).unwrap();
    (state["standings"].as_array().unwrap().clone(), export)
}

fn line<'a>(standings: &'a [Value], player: &str) -> &'a Value {
    standings.iter().find(|s| s["player"]["id"] == player).unwrap()
}

async fn rulings_show_the_same_numbers_everywhere(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (id, boards, board_ids) = reported_boards(&server, "Ruled").await;
    let (austria, other_austria, director) = (&boards[0][0], &boards[1][0], &boards[1][6]);
    let (before, _) = state(&server, &id).await;
    let level = line(&before, austria)["total"].as_f64().unwrap();
    assert_eq!(line(&before, austria)["rank"], 1);
    assert_eq!(line(&before, other_austria)["rank"], 1);

    let vars = json!({ "t": id, "p": austria, "l": "BOARD", "b": board_ids[0], "x": -5.0, "why": "late to the board" });
    let adjusted = server.gql(Some(ADMIN), ADJUST, vars).await;
    assert!(adjusted["errors"].is_null(), "{adjusted}");
    let vars = json!({ "t": id, "p": director, "u": true, "why": "the director plays" });
    let unranked = server.gql(Some(ADMIN), UNRANKED, vars).await;
    assert!(unranked["errors"].is_null(), "{unranked}");

    let (standings, export) = state(&server, &id).await;
    let penalised = line(&standings, austria);
    assert!((penalised["total"].as_f64().unwrap() - (level - 5.0)).abs() < 1e-9, "{penalised}");
    assert_eq!(penalised["rank"], 2, "behind the other Austria now");
    assert_eq!(line(&standings, other_austria)["rank"], 1);
    assert_eq!(
        penalised["rulings"],
        json!([{ "kind": "BOARD_ADJUSTMENT", "number": 1, "round": 1, "board": 1, "points": -5.0,
                 "reason": "late to the board" }])
    );
    let last = standings.last().unwrap();
    assert_eq!(last["player"]["id"], director.as_str(), "listed after every ranked line");
    assert_eq!((last["rank"].clone(), last["unranked"].clone()), (json!(0), json!(true)));
    assert_eq!(last["rulings"][0]["kind"], "UNRANKED");
    // The JSON export: the same ranks and totals, the rulings in words.
    let exported = export["standings"].as_array().unwrap();
    assert_eq!(exported.len(), standings.len());
    for (shown, exported) in standings.iter().zip(exported) {
        assert_eq!(shown["player"]["id"], exported["playerId"]);
        assert_eq!(shown["rank"], exported["rank"]);
        assert_eq!(shown["total"], exported["total"]);
    }
    let exported_austria = exported.iter().find(|s| s["playerId"] == austria.as_str()).unwrap();
    assert_eq!(
        exported_austria["rulings"],
        json!(["penalty -5 (round 1, board 1): late to the board"])
    );
    assert_eq!(exported.last().unwrap()["unranked"], true);

    // The CLI gives a tournament bonus and prints the standings the export now shows.
    let cli = league(
        &[
            "tournament",
            "ruling",
            "adjust",
            "--tournament",
            &id,
            "--player",
            austria,
            "--points",
            "2.5",
            "--reason",
            "fair play",
        ],
        &db,
    );
    assert_eq!(cli.status.code(), Some(0), "{}", stdout(&cli));
    let printed: Value = serde_json::from_str(&stdout(&cli)).unwrap();
    // The server follows the log the CLI appended to (on SQLite by polling it).
    let mut shown = state(&server, &id).await;
    for _ in 0..100 {
        if shown.1["standings"] == printed {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        shown = state(&server, &id).await;
    }
    let (standings, export) = shown;
    assert_eq!(printed, export["standings"], "the CLI and the export agree");
    let bonused = line(&standings, austria)["total"].as_f64().unwrap();
    assert!((bonused - (level - 2.5)).abs() < 1e-9, "{bonused}");
    // Revoking the penalty puts the Austrias level again, plus the bonus.
    assert!(server.gql(Some(ADMIN), REVOKE, json!({ "t": id, "n": 1 })).await["errors"].is_null());
    let (standings, _) = state(&server, &id).await;
    assert_eq!(line(&standings, austria)["rank"], 1);
    // Every round is seeded: the CLI refuses a keep-apart pair no seeding would use.
    let pair = league(
        &[
            "tournament",
            "keep-apart",
            "add",
            "--tournament",
            &id,
            "--first",
            austria,
            "--second",
            other_austria,
        ],
        &db,
    );
    assert_ne!(pair.status.code(), Some(0));
    // The audit names each ruling.
    let audit = league(&["tournament", "audit", "--tournament", &id], &db);
    let audit = stdout(&audit);
    assert!(audit.contains("Adjustment 1: Penalty -5 to"), "{audit}");
    assert!(audit.contains("is unranked: the director plays"), "{audit}");
    assert!(audit.contains("Adjustment 1 revoked"), "{audit}");
}

on_both_databases!(rulings_show_the_same_numbers_everywhere);
