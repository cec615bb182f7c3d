//! Series over GraphQL and the CLI on both databases (`docs/series.md`): a series over two
//! tournaments ranks each player's best results with the attendance grid, moves when a member's
//! result is recorded, and GraphQL and `league series standings` give the same numbers; every
//! refusal of the docs' table is triggered and appends nothing.

use league_scoring::{EventPlacing, SeriesBasis, series_standings};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::tournament::{check_in, create, diplomacy_input, enter, report_round, seed};
use crate::replay::{league, stdout};
use crate::support::{ADMIN, Player, TestApp, error_of, spawn_app};

const SERIES: &str = "query($id: ID!) {
  series(id: $id) {
    id name best basis events { id kind name }
    standings { rank total attended player { id } }
    attendance { player { id } results { eventId rank points counted } }
    exportJson
  }
}";

const STANDINGS: &str = "query($id: ID!) {
  tournament(id: $id) { standings { rank total games player { id } } }
}";

/// A one-round, one-board tournament of `players`, seeded and (when `play`) reported.
async fn tournament(server: &TestApp, name: &str, players: &[Player], play: bool) -> String {
    let mut input = diplomacy_input(1);
    input["name"] = json!(name);
    let created = create(server, input).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in players {
        let response = enter(server, ADMIN, &id, Some(&player.id)).await;
        assert!(response["errors"].is_null(), "{response}");
        check_in(server, player, &id, 1, false).await;
    }
    let seeded = seed(server, &id, 1).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
    if play {
        report_round(server, players, &id, 1).await;
    }
    id
}

async fn series(server: &TestApp, id: &str) -> Value {
    server.data(None, SERIES, json!({ "id": id })).await["series"].clone()
}

async fn mutate(server: &TestApp, token: &str, query: &str, variables: Value) -> Value {
    server.gql(Some(token), query, variables).await
}

const CREATE: &str = "mutation($input: CreateSeriesInput!, $key: String) {
  createSeries(input: $input, idempotencyKey: $key) { id }
}";
const ADD: &str = "mutation($s: ID!, $c: ID!) {
  addSeriesEvent(seriesId: $s, competitionId: $c) { id events { id } }
}";
const REMOVE: &str = "mutation($s: ID!, $c: ID!) {
  removeSeriesEvent(seriesId: $s, competitionId: $c) { id }
}";
const CHANGE: &str = "mutation($s: ID!, $input: SeriesSettingsInput!) {
  changeSeriesSettings(seriesId: $s, input: $input) { best basis }
}";

/// The series standings the rule gives for the tournaments' own standings (the oracle).
async fn expected(server: &TestApp, tournaments: &[&str], best: u32) -> Vec<(u32, String, f64)> {
    let mut events = Vec::new();
    for id in tournaments {
        let data = server.data(None, STANDINGS, json!({ "id": id })).await;
        let lines =
            data["tournament"]["standings"].as_array().unwrap().iter().map(|row| EventPlacing {
                player: row["player"]["id"].as_str().unwrap().to_owned(),
                rank: row["rank"].as_u64().unwrap() as u32,
                total: row["total"].as_f64().unwrap(),
                played: row["games"].as_u64().unwrap() > 0,
            });
        events.push(lines.collect::<Vec<_>>());
    }
    let rows = series_standings(&events, SeriesBasis::RankPoints, best);
    rows.into_iter().map(|row| (row.rank, row.player, row.total)).collect()
}

fn shown(standings: &Value) -> Vec<(u32, String, f64)> {
    (standings.as_array().unwrap().iter())
        .map(|row| {
            let id = row.get("player").and_then(|p| p.get("id")).or(row.get("playerId"));
            (
                row["rank"].as_u64().unwrap() as u32,
                id.unwrap().as_str().unwrap().to_owned(),
                row["total"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Two 7-player tournaments sharing five players; the series counts each player's best one
/// on rank points, live as the second tournament's board is reported; the CLI agrees.
async fn a_series_ranks_best_results_over_two_tournaments(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(9, "Circuit").await;
    let spring = tournament(&server, "Spring Cup", &players[..7], true).await;
    let autumn = tournament(&server, "Autumn Cup", &players[2..], false).await;
    let created = mutate(
        &server,
        ADMIN,
        CREATE,
        json!({ "input": { "name": "Circuit 2026", "best": 1, "basis": "RANK_POINTS" }, "key": "c1" }),
    )
    .await;
    let id = created["data"]["createSeries"]["id"].as_str().unwrap().to_owned();
    for competition in [&spring, &autumn] {
        let added = mutate(&server, ADMIN, ADD, json!({ "s": id, "c": competition })).await;
        assert!(added["errors"].is_null(), "{added}");
    }
    let before = series(&server, &id).await;
    assert_eq!(
        before["events"][1],
        json!({ "id": autumn, "kind": "TOURNAMENT", "name": "Autumn Cup" })
    );
    assert_eq!(shown(&before["standings"]), expected(&server, &[&spring, &autumn], 1).await);
    assert_eq!(before["standings"].as_array().unwrap().len(), 7, "autumn not played yet");
    // The winner of Spring scores 7 rank points (7 ranked − 1 + 1).
    assert_eq!(before["standings"][0]["total"], 7.0);

    // Live: Autumn's board is reported, and the series moves with it.
    report_round(&server, &players[2..], &autumn, 1).await;
    let after = series(&server, &id).await;
    let want = expected(&server, &[&spring, &autumn], 1).await;
    assert_eq!(shown(&after["standings"]), want);
    assert_eq!(after["standings"].as_array().unwrap().len(), 9);
    // The grid: players 1 and 2 missed Autumn, players 8 and 9 missed Spring.
    let row_of = |player: &Player| {
        after["attendance"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["player"]["id"] == player.id.as_str())
            .unwrap()
            .clone()
    };
    assert!(row_of(&players[0])["results"][1].is_null());
    assert!(row_of(&players[8])["results"][0].is_null());
    let both = row_of(&players[3]);
    assert_eq!(
        both["results"].as_array().unwrap().iter().filter(|r| r["counted"] == true).count(),
        1
    );

    // The same numbers through the CLI and the export.
    let cli = league(&["series", "standings", "--series", &id], &db);
    assert_eq!(cli.status.code(), Some(0), "{}", stdout(&cli));
    let printed: Value = serde_json::from_str(&stdout(&cli)).unwrap();
    assert_eq!(shown(&printed["standings"]), want);
    let exported: Value = serde_json::from_str(after["exportJson"].as_str().unwrap()).unwrap();
    assert_eq!(exported, printed);
    let csv = league(&["series", "standings", "--series", &id, "--csv"], &db);
    let text = stdout(&csv);
    assert!(
        text.starts_with("rank,player,playerId,total,attended,Spring Cup,Autumn Cup\n"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 10);

    // Settings: best 2 on scores, then Spring removed; the CLI adds it back.
    let changed = mutate(
        &server,
        ADMIN,
        CHANGE,
        json!({ "s": id, "input": { "best": 2, "basis": "SCORE" } }),
    )
    .await;
    assert_eq!(changed["data"]["changeSeriesSettings"], json!({ "best": 2, "basis": "SCORE" }));
    let removed = mutate(&server, ADMIN, REMOVE, json!({ "s": id, "c": spring })).await;
    assert!(removed["errors"].is_null(), "{removed}");
    assert_eq!(series(&server, &id).await["standings"].as_array().unwrap().len(), 7);
    let added = league(&["series", "add", "--series", &id, "--event", &spring], &db);
    assert_eq!(added.status.code(), Some(0));
    // A retried creation with the same key answers the first series.
    let again = mutate(
        &server,
        ADMIN,
        CREATE,
        json!({ "input": { "name": "Circuit 2026", "best": 1, "basis": "RANK_POINTS" }, "key": "c1" }),
    )
    .await;
    assert_eq!(again["data"]["createSeries"]["id"], json!(id));
    let listed = server.data(None, "{ seriesList { id } }", json!({})).await;
    assert_eq!(listed["seriesList"], json!([{ "id": id }]));
    let of = server
        .data(None, "query($c: ID!) { seriesOf(competitionId: $c) { id } }", json!({ "c": autumn }))
        .await;
    assert_eq!(of["seriesOf"], json!([{ "id": id }]));
}

/// A refused call: token, document, variables and the expected code and field.
type Refusal<'a> = (&'a str, &'a str, Value, (&'a str, Option<&'a str>));

/// Every refusal of `docs/series.md#refusals`, each appending nothing.
async fn series_refusals_append_nothing(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let player = server.register("Not An Organiser").await;
    let spring =
        tournament(&server, "Spring Cup", &server.register_many(7, "Entrant").await, false).await;
    let created = mutate(
        &server,
        ADMIN,
        CREATE,
        json!({ "input": { "name": "Circuit", "best": 2, "basis": "SCORE" } }),
    )
    .await;
    let id = created["data"]["createSeries"]["id"].as_str().unwrap().to_owned();
    mutate(&server, ADMIN, ADD, json!({ "s": id, "c": spring })).await;
    let missing = "0190ffff-0000-7000-8000-000000000001";
    let cases: Vec<Refusal> = vec![
        (
            player.token.as_str(),
            CREATE,
            json!({ "input": { "name": "Mine", "best": 1, "basis": "SCORE" } }),
            ("FORBIDDEN", None),
        ),
        (player.token.as_str(), ADD, json!({ "s": id, "c": spring }), ("FORBIDDEN", None)),
        (
            ADMIN,
            CREATE,
            json!({ "input": { "name": " ", "best": 1, "basis": "SCORE" } }),
            ("BAD_USER_INPUT", Some("name")),
        ),
        (
            ADMIN,
            CHANGE,
            json!({ "s": id, "input": { "best": 0 } }),
            ("BAD_USER_INPUT", Some("best")),
        ),
        (ADMIN, ADD, json!({ "s": missing, "c": spring }), ("NOT_FOUND", None)),
        (ADMIN, ADD, json!({ "s": id, "c": missing }), ("NOT_FOUND", None)),
        (ADMIN, REMOVE, json!({ "s": id, "c": missing }), ("NOT_FOUND", None)),
        (ADMIN, ADD, json!({ "s": id, "c": spring }), ("CONFLICT", None)),
        (ADMIN, CHANGE, json!({ "s": id, "input": { "best": 2 } }), ("CONFLICT", None)),
    ];
    let before = server.event_count().await;
    for (token, query, variables, code) in cases {
        let response = mutate(&server, token, query, variables.clone()).await;
        assert_eq!(error_of(&response), code, "{variables}: {response}");
    }
    assert_eq!(server.event_count().await, before);
    // The CLI refuses the same way, with exit 2.
    let twice = league(&["series", "add", "--series", &id, "--event", &spring], &db);
    assert_eq!(twice.status.code(), Some(2));
    let unknown = league(&["series", "standings", "--series", missing], &db);
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(server.event_count().await, before);
}

on_both_databases!(
    a_series_ranks_best_results_over_two_tournaments,
    series_refusals_append_nothing
);
