//! League aggregation (docs/scoring.md#league-aggregation): a league created with best N or
//! average shows it and ranks by it; the what-if `standings(aggregation:)` ranks the same
//! results another way and appends nothing; a best N that does not fit is refused, naming
//! `aggregation.n`, and appends nothing.

use league_scoring::{Aggregation, ScoredGame, ScoringSystem, Standing, rank_standings_with};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::result_for;
use crate::support::{ADMIN, TestApp, spawn_app};

/// A placement league of 8 players, k = 4, one game per seat (each player plays 4 of the 8
/// games), created with `aggregation`; returns the created league's
/// `id aggregation { kind n }`.
async fn create(server: &TestApp, aggregation: Value) -> Value {
    let data = server
        .data(
            Some(ADMIN),
            "mutation($input: CreateLeagueInput!) {
               createLeague(input: $input) { id aggregation { kind n } }
             }",
            json!({ "input": {
                "name": "Best of", "game": "Carcassonne", "scoringSystem": "PLACEMENT",
                "playersPerGame": 4, "gamesPerSeat": 1, "aggregation": aggregation,
            }}),
        )
        .await;
    data["createLeague"].clone()
}

/// Fills the league and reports every game (varied placement results); returns the games
/// as the scoring crate scores them, in report order.
async fn play(server: &TestApp, league: &str) -> Vec<ScoredGame> {
    let players = server.register_many(8, "Player").await;
    server.fill(league, &players).await;
    let mut scored = Vec::new();
    for game in server.game_infos(league).await {
        let (input, result) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        scored.push(league_scoring::score_game(ScoringSystem::Placement, &result).unwrap());
    }
    scored
}

/// Standings with `counted`, now, under the league's own aggregation or `aggregation`.
async fn standings(server: &TestApp, league: &str, aggregation: Value) -> Vec<Value> {
    let data = server
        .data(
            None,
            "query($league: ID!, $aggregation: AggregationInput) {
               standings(leagueId: $league, aggregation: $aggregation) {
                 rank player { id } total played wins draws counted
               }
             }",
            json!({ "league": league, "aggregation": aggregation }),
        )
        .await;
    data["standings"].as_array().expect("standings").clone()
}

/// TestApp lines against the scoring crate's ranking of the same games.
fn assert_lines(actual: &[Value], expected: &[Standing]) {
    assert_eq!(actual.len(), expected.len(), "{actual:#?}");
    for (line, want) in actual.iter().zip(expected) {
        assert_eq!(line["player"]["id"], want.player.as_str(), "{actual:#?}");
        assert_eq!(line["rank"], want.rank, "{actual:#?}");
        assert_eq!(line["total"].as_f64().unwrap(), want.total, "{actual:#?}");
        assert_eq!(line["played"], want.games);
        assert_eq!(line["wins"], want.wins);
        assert_eq!(line["draws"], want.draws);
        assert_eq!(line["counted"], json!(want.counted));
    }
}

/// Each player's game scores, for checking totals by hand.
fn scores_of(scored: &[ScoredGame], player: &str) -> Vec<f64> {
    scored
        .iter()
        .flat_map(|game| game.players.iter())
        .filter(|row| row.player == player)
        .map(|row| row.score)
        .collect()
}

/// A best-2 league shows its setting and its standings count each player's two best games
/// (wins, draws and games as played); the same league under SUM is the sum of all four.
async fn a_best_two_league_counts_each_players_two_best_games(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let league = create(&server, json!({ "kind": "BEST_N", "n": 2 })).await;
    assert_eq!(league["aggregation"], json!({ "kind": "BEST_N", "n": 2 }));
    let id = league["id"].as_str().unwrap().to_owned();
    let scored = play(&server, &id).await;
    let lines = standings(&server, &id, Value::Null).await;
    assert_lines(&lines, &rank_standings_with(&scored, Aggregation::BestN { n: 2 }));
    for line in &lines {
        let mut scores = scores_of(&scored, line["player"]["id"].as_str().unwrap());
        assert_eq!(scores.len(), 4);
        scores.sort_by(|a, b| b.total_cmp(a));
        assert_eq!(line["total"].as_f64().unwrap(), scores[0] + scores[1], "{line}");
        assert_eq!((line["played"].clone(), line["counted"].clone()), (json!(4), json!(2)));
    }
    // What-if: every game counted; nothing appended by asking.
    let before = server.event_count().await;
    let sum = standings(&server, &id, json!({ "kind": "SUM" })).await;
    assert_lines(&sum, &rank_standings_with(&scored, Aggregation::Sum));
    assert_eq!(server.event_count().await, before);
    let league_page = server
        .data(
            None,
            "query($id: ID!) { league(id: $id) { aggregation { kind n } standings { total } } }",
            json!({ "id": id }),
        )
        .await;
    assert_eq!(league_page["league"]["aggregation"], json!({ "kind": "BEST_N", "n": 2 }));
    assert_eq!(league_page["league"]["standings"][0]["total"], lines[0]["total"]);
}

/// An average league ranks by points per game played, in thousandths; the default league
/// (no aggregation given) is SUM and its what-if average matches.
async fn an_average_league_ranks_by_points_per_game(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let league = create(&server, json!({ "kind": "AVERAGE" })).await;
    assert_eq!(league["aggregation"], json!({ "kind": "AVERAGE", "n": null }));
    let id = league["id"].as_str().unwrap().to_owned();
    let scored = play(&server, &id).await;
    let lines = standings(&server, &id, Value::Null).await;
    assert_lines(&lines, &rank_standings_with(&scored, Aggregation::Average));
    for line in &lines {
        let scores = scores_of(&scored, line["player"]["id"].as_str().unwrap());
        let average = scores.iter().sum::<f64>() / scores.len() as f64;
        assert_eq!(line["total"].as_f64().unwrap(), (average * 1000.0).round() / 1000.0);
        assert_eq!(line["counted"], Value::Null);
    }
    let default = server
        .create_league_with(json!({
            "name": "Plain", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 2,
        }))
        .await;
    let default_id = default["id"].as_str().unwrap();
    let data = server
        .data(
            None,
            "query($id: ID!) { league(id: $id) { aggregation { kind n } } }",
            json!({ "id": default_id }),
        )
        .await;
    assert_eq!(data["league"]["aggregation"], json!({ "kind": "SUM", "n": null }));
    let sum_league_events = server.events(Some(default_id)).await;
    let payload = &sum_league_events[0]["payload"];
    assert!(payload.get("aggregation").is_none(), "sum is left out of the event: {payload}");
}

/// Best N outside 1..=k·s, a BEST_N without n and an n for another kind are refused as
/// BAD_USER_INPUT naming `aggregation.n`, and append nothing; so is such a what-if.
async fn a_best_n_that_does_not_fit_is_refused_with_its_field(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let before = server.event_count().await;
    for aggregation in [
        json!({ "kind": "BEST_N", "n": 0 }),
        json!({ "kind": "BEST_N", "n": 5 }),
        json!({ "kind": "BEST_N", "n": -1 }),
        json!({ "kind": "BEST_N" }),
        json!({ "kind": "AVERAGE", "n": 3 }),
    ] {
        let response = server
            .gql(
                Some(ADMIN),
                "mutation($input: CreateLeagueInput!) { createLeague(input: $input) { id } }",
                json!({ "input": {
                    "name": "Too many", "game": "Carcassonne", "scoringSystem": "PLACEMENT",
                    "playersPerGame": 4, "gamesPerSeat": 1, "aggregation": aggregation,
                }}),
            )
            .await;
        let error = &response["errors"][0];
        assert_eq!(error["extensions"]["code"], "BAD_USER_INPUT", "{aggregation}: {response}");
        assert_eq!(error["extensions"]["field"], "aggregation.n", "{aggregation}: {response}");
    }
    assert_eq!(server.event_count().await, before, "a refusal appends nothing");
    let league = create(&server, json!({ "kind": "BEST_N", "n": 4 })).await;
    assert_eq!(league["aggregation"], json!({ "kind": "BEST_N", "n": 4 }), "N = k·s fits");
    let after_create = server.event_count().await;
    let response = server
        .gql(
            None,
            "query($league: ID!) {
               standings(leagueId: $league, aggregation: {kind: BEST_N, n: 9}) { rank }
             }",
            json!({ "league": league["id"] }),
        )
        .await;
    assert_eq!(response["errors"][0]["extensions"]["field"], "aggregation.n", "{response}");
    assert_eq!(server.event_count().await, after_create);
}

on_both_databases!(
    a_best_two_league_counts_each_players_two_best_games,
    an_average_league_ranks_by_points_per_game,
    a_best_n_that_does_not_fit_is_refused_with_its_field
);
