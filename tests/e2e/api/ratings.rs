//! Ratings across leagues (`docs/ratings.md`): results reported through the API appear in
//! `Player.rating`, `Player.ratingHistory` and the `ratings` leaderboard, equal to the
//! ratings crate fed the same scored games in report order; a correction re-rates, `asOf`
//! shows the ratings as they stood; team games rate sides together and a draw ties them;
//! `league replay` rebuilds the same ratings; bad arguments get typed errors.

use league_ratings::{GameKind, Ratings, outcome};
use league_scoring::{
    GameResult, PlacementEntry, ScoringSystem, Side, TeamPlayer, TeamResult, score_game,
};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::api::oracle::{close, result_for, running_league, teams_result};
use crate::support::{ADMIN, TestApp, error_of, spawn_app};

const LEADERBOARD: &str = "query($game: GameKind!, $first: Int, $after: String, $asOf: AsOf) {
  ratings(game: $game, first: $first, after: $after, asOf: $asOf) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node { rank player { id } rating { mu sigma display games } } }
  }
}";

const PLAYER: &str = "query($id: ID!, $game: GameKind!, $asOf: AsOf) {
  player(id: $id) {
    rating(game: $game, asOf: $asOf) { mu sigma display games }
    ratingHistory(game: $game, asOf: $asOf) {
      position recordedAt correction delta game { id } rating { mu sigma display games }
    }
  }
}";

/// The whole leaderboard of `game` (pages of 3), as `(player, rank, rating JSON)`.
async fn leaderboard(server: &TestApp, game: &str, as_of: Value) -> Vec<(String, u64, Value)> {
    let mut rows = Vec::new();
    let mut after = Value::Null;
    loop {
        let data = server
            .data(
                None,
                LEADERBOARD,
                json!({ "game": game, "first": 3, "after": after, "asOf": as_of }),
            )
            .await;
        let page = &data["ratings"];
        for edge in page["edges"].as_array().expect("edges") {
            let node = &edge["node"];
            assert_eq!(edge["cursor"], node["player"]["id"]);
            rows.push((
                node["player"]["id"].as_str().unwrap().to_owned(),
                node["rank"].as_u64().unwrap(),
                node["rating"].clone(),
            ));
        }
        if !page["pageInfo"]["hasNextPage"].as_bool().unwrap() {
            assert_eq!(page["totalCount"].as_u64().unwrap(), rows.len() as u64);
            return rows;
        }
        after = page["pageInfo"]["endCursor"].clone();
    }
}

/// The API's leaderboard equals the oracle's: same players in the same order, same ranks,
/// same μ, σ, display and games.
fn assert_leaderboard_matches(actual: &[(String, u64, Value)], oracle: &Ratings, kind: GameKind) {
    let expected = oracle.leaderboard(kind, None);
    assert_eq!(actual.len(), expected.len(), "{actual:#?}");
    for ((player, rank, rating), want) in actual.iter().zip(&expected) {
        assert_eq!(player, &want.player.to_string());
        assert_eq!(*rank, u64::from(want.rank));
        assert_rating(rating, want.rating);
    }
}

fn assert_rating(actual: &Value, want: league_ratings::Rating) {
    assert!(close(actual["mu"].as_f64().unwrap(), want.mu), "{actual} vs {want:?}");
    assert!(close(actual["sigma"].as_f64().unwrap(), want.sigma), "{actual} vs {want:?}");
    assert!(close(actual["display"].as_f64().unwrap(), want.display()), "{actual}");
    assert_eq!(actual["games"], want.games);
}

fn uuid(text: &str) -> Uuid {
    Uuid::parse_str(text).unwrap()
}

/// Rates `result` in the oracle as a first report.
fn oracle_rate(oracle: &mut Ratings, game: &str, position: u64, result: &GameResult) {
    let scored = score_game(ScoringSystem::Placement, result).unwrap();
    let outcome = outcome(&scored, result).unwrap();
    oracle.rate_game(GameKind::Placement, uuid(game), position, outcome).unwrap();
}

/// Ratings appear as results come in (loaded on first use, then kept current by the live
/// feed), order the leaderboard, page through it, and leave other kinds empty.
async fn results_rate_players_and_order_the_leaderboard(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, players, games) = running_league(&server).await;
    assert!(leaderboard(&server, "PLACEMENT", Value::Null).await.is_empty());
    let data = server
        .data(None, PLAYER, json!({ "id": players[0].id, "game": "PLACEMENT", "asOf": null }))
        .await;
    let prior = &data["player"]["rating"];
    assert_eq!((prior["mu"].as_f64(), prior["games"].as_u64()), (Some(25.0), Some(0)));
    assert!(close(prior["display"].as_f64().unwrap(), 0.0));
    assert!(data["player"]["ratingHistory"].as_array().unwrap().is_empty());

    let mut oracle = Ratings::default();
    for (n, game) in games.iter().enumerate() {
        let (input, result) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        oracle_rate(&mut oracle, &game.id, n as u64 + 1, &result);
        if n == 1 || n == games.len() - 1 {
            // After two games the ratings load; the rest arrive through the live feed.
            let board = leaderboard(&server, "PLACEMENT", Value::Null).await;
            assert_leaderboard_matches(&board, &oracle, GameKind::Placement);
        }
    }
    let board = leaderboard(&server, "PLACEMENT", Value::Null).await;
    assert_eq!(board.len(), 8);
    let displays: Vec<f64> = board.iter().map(|(_, _, r)| r["display"].as_f64().unwrap()).collect();
    assert!(displays.windows(2).all(|w| w[0] >= w[1]), "best first: {displays:?}");
    assert!(leaderboard(&server, "DIPLOMACY", Value::Null).await.is_empty(), "kinds never mix");

    // Each player's rating and history agree with the oracle, each change at the position
    // of the game's report.
    let reported: Vec<(Value, Value)> = server
        .events(Some(&league))
        .await
        .into_iter()
        .filter(|event| event["type"] == "GameFinished")
        .map(|event| (event["payload"]["gameId"].clone(), event["position"].clone()))
        .collect();
    assert_eq!(reported.len(), games.len());
    for player in &players {
        let data = server
            .data(None, PLAYER, json!({ "id": player.id, "game": "PLACEMENT", "asOf": null }))
            .await;
        let want = oracle.rating(GameKind::Placement, uuid(&player.id)).unwrap();
        assert_rating(&data["player"]["rating"], want);
        let history = data["player"]["ratingHistory"].as_array().unwrap();
        let expected = oracle.history(GameKind::Placement, uuid(&player.id));
        assert_eq!(history.len(), expected.len());
        assert_eq!(history.len() as u32, want.games, "one change per game played");
        let mut mu = 25.0;
        for (change, want) in history.iter().zip(expected) {
            assert_eq!(change["game"]["id"], want.game.to_string());
            let position = reported.iter().find(|(game, _)| game == &change["game"]["id"]);
            assert_eq!(Some(&change["position"]), position.map(|(_, position)| position));
            assert_eq!(change["correction"], false);
            assert!(change["recordedAt"].is_string());
            assert_rating(&change["rating"], want.rating);
            assert!(close(change["delta"].as_f64().unwrap(), want.rating.mu - mu));
            mu = want.rating.mu;
        }
    }
}

/// A correction re-rates the corrected game and every later one; `asOf` before it shows
/// the old ratings, `asOf` before any result shows none; replay rebuilds the same ratings.
async fn a_correction_rerates_and_as_of_shows_the_past(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, players, games) = running_league(&server).await;
    let before_results = server.event_count().await;
    let mut oracle = Ratings::default();
    let mut results = Vec::new();
    for game in &games {
        let (input, result) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        oracle_rate(&mut oracle, &game.id, server.event_count().await, &result);
        results.push(result);
    }
    let before_correction = server.event_count().await;
    let old_board = leaderboard(&server, "PLACEMENT", Value::Null).await;

    // The admin corrects game 1: the last seat now wins outright.
    let game = &games[0];
    let points: Vec<(String, f64)> = game
        .seats
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), if i + 1 == game.seats.len() { 100.0 } else { i as f64 }))
        .collect();
    let input = json!({ "placement": points.iter().map(|(p, points)| json!({"playerId": p, "points": points})).collect::<Vec<_>>() });
    server
        .data(
            Some(ADMIN),
            "mutation($game: ID!, $result: GameResultInput!) {
               correctGameResult(gameId: $game, result: $result, reason: \"wrong sheet\") { status }
             }",
            json!({ "game": game.id, "result": input }),
        )
        .await;
    let correction = server.event_count().await;
    let corrected = GameResult::Placement(
        points
            .iter()
            .map(|(player, points)| PlacementEntry { player: player.clone(), points: *points })
            .collect(),
    );
    let scored = score_game(ScoringSystem::Placement, &corrected).unwrap();
    oracle
        .correct_game(
            GameKind::Placement,
            uuid(&game.id),
            correction,
            outcome(&scored, &corrected).unwrap(),
        )
        .unwrap();
    let mut fresh = Ratings::default();
    for (n, (game, result)) in games.iter().zip(&results).enumerate() {
        let result = if n == 0 { &corrected } else { result };
        oracle_rate(&mut fresh, &game.id, n as u64 + 1, result);
    }

    let new_board = leaderboard(&server, "PLACEMENT", Value::Null).await;
    assert_leaderboard_matches(&new_board, &oracle, GameKind::Placement);
    assert_leaderboard_matches(&new_board, &fresh, GameKind::Placement);
    assert_ne!(new_board, old_board, "the correction moved the ratings");
    let winner = &game.seats[game.seats.len() - 1];
    let data =
        server.data(None, PLAYER, json!({ "id": winner, "game": "PLACEMENT", "asOf": null })).await;
    let last = data["player"]["ratingHistory"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((&last["position"], &last["correction"]), (&json!(correction), &json!(true)));
    assert_eq!(last["game"]["id"], game.id.as_str());
    assert!(last["delta"].as_f64().unwrap() > 0.0, "the new winner of game 1 gains");

    // As of before the correction: the old leaderboard and the old rating, by position and
    // by instant; as of before any result: nobody rated, everybody at the prior.
    let as_of = json!({ "position": before_correction });
    assert_eq!(leaderboard(&server, "PLACEMENT", as_of.clone()).await, old_board);
    let events = server.events(None).await;
    let time = events[before_correction as usize - 1]["recordedAt"].clone();
    assert_eq!(leaderboard(&server, "PLACEMENT", json!({ "time": time })).await, old_board);
    let data = server
        .data(None, PLAYER, json!({ "id": winner, "game": "PLACEMENT", "asOf": as_of }))
        .await;
    let old = old_board.iter().find(|(p, _, _)| p == winner).unwrap();
    assert_eq!(data["player"]["rating"], old.2);
    assert!(
        data["player"]["ratingHistory"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["correction"] == false)
    );
    let nothing = json!({ "position": before_results });
    assert!(leaderboard(&server, "PLACEMENT", nothing.clone()).await.is_empty());
    let data = server
        .data(None, PLAYER, json!({ "id": players[0].id, "game": "PLACEMENT", "asOf": nothing }))
        .await;
    assert_eq!(data["player"]["rating"]["games"], 0);

    // `league replay` rebuilds the same ratings from the log, now and as of a position.
    let now = replay_ratings(&db.url, None).await;
    assert_replay_matches(&now, &new_board);
    let then = replay_ratings(&db.url, Some(before_correction)).await;
    assert_replay_matches(&then, &old_board);
}

/// The `placement` leaderboard printed by `league replay --to-position`.
async fn replay_ratings(url: &str, position: Option<u64>) -> Vec<Value> {
    let position = position.map_or_else(|| i64::MAX.to_string(), |p| p.to_string());
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_league"))
        .args(["replay", "--database", url, "--to-position", &position])
        .output()
        .await
        .expect("run league replay");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    json["ratings"]["placement"].as_array().expect("placement ratings").clone()
}

fn assert_replay_matches(replayed: &[Value], board: &[(String, u64, Value)]) {
    assert_eq!(replayed.len(), board.len());
    for (row, (player, rank, rating)) in replayed.iter().zip(board) {
        assert_eq!(row["player"], player.as_str());
        assert_eq!(row["rank"], *rank);
        for field in ["mu", "sigma", "display"] {
            assert!(close(row[field].as_f64().unwrap(), rating[field].as_f64().unwrap()));
        }
        assert_eq!(row["games"], rating["games"]);
    }
}

/// A Wooden Ships result as two coalitions of two (seats 1–2 against 3–4).
fn coalitions(seats: &[String], draw: bool, points: [f64; 2]) -> (Value, GameResult) {
    let sides: Vec<Side> = [&seats[..2], &seats[2..4]]
        .iter()
        .zip(points)
        .enumerate()
        .map(|(s, (members, points))| Side {
            name: format!("Coalition {}", s + 1),
            players: members
                .iter()
                .map(|p| TeamPlayer {
                    player: p.clone(),
                    points,
                    units: 2,
                    lost: 0,
                    kills: 0,
                    ships_left: Some(1),
                    surrendered: false,
                })
                .collect(),
        })
        .collect();
    teams_result(TeamResult { draw, sides })
}

/// Wooden Ships sides are rated as teams: a draw by consent between newcomers moves no μ
/// but makes everyone more certain; a victory lifts every member of the winning side and
/// lowers every member of the losing one, as the ratings crate says.
async fn team_sides_rate_together_and_a_draw_ties_them(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(8, "Captain").await;
    let league = server.create_league("WOODEN_SHIPS", 4, None).await;
    server.fill(&league, &players).await;
    let games = server.game_infos(&league).await;
    let rating_of = |player: &str| {
        let server = &server;
        let player = player.to_owned();
        async move {
            let data = server
                .data(None, PLAYER, json!({ "id": player, "game": "WOODEN_SHIPS", "asOf": null }))
                .await;
            data["player"]["rating"].clone()
        }
    };
    let mut oracle = Ratings::default();
    let (input, result) = coalitions(&games[0].seats, true, [30.0, 10.0]);
    server.report(ADMIN, &games[0].id, &input).await;
    let scored = score_game(ScoringSystem::WoodenShips, &result).unwrap();
    let outcome1 = outcome(&scored, &result).unwrap();
    oracle.rate_game(GameKind::WoodenShips, uuid(&games[0].id), 1, outcome1).unwrap();
    for seat in &games[0].seats {
        let rating = rating_of(seat).await;
        assert!(close(rating["mu"].as_f64().unwrap(), 25.0), "a draw between equals: {rating}");
        assert!(rating["sigma"].as_f64().unwrap() < 25.0 / 3.0);
        assert_eq!(rating["games"], 1);
    }
    assert!(leaderboard(&server, "PLACEMENT", Value::Null).await.is_empty(), "kinds never mix");

    let seats = &games[1].seats;
    let mut before = Vec::new();
    for seat in seats {
        before.push(rating_of(seat).await["mu"].as_f64().unwrap());
    }
    let (input, result) = coalitions(seats, false, [30.0, 10.0]);
    server.report(ADMIN, &games[1].id, &input).await;
    let scored = score_game(ScoringSystem::WoodenShips, &result).unwrap();
    let outcome2 = outcome(&scored, &result).unwrap();
    oracle.rate_game(GameKind::WoodenShips, uuid(&games[1].id), 2, outcome2).unwrap();
    for (i, seat) in seats.iter().enumerate() {
        let mu = rating_of(seat).await["mu"].as_f64().unwrap();
        if i < 2 {
            assert!(mu > before[i], "the winning coalition rises");
        } else {
            assert!(mu < before[i], "the losing coalition falls");
        }
    }
    let board = leaderboard(&server, "WOODEN_SHIPS", Value::Null).await;
    assert_leaderboard_matches(&board, &oracle, GameKind::WoodenShips);
}

/// Bad arguments are typed errors: an unknown game kind, a page too large, a foreign
/// cursor, a negative position.
async fn bad_arguments_are_typed_errors(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let response = server.gql(None, "{ ratings(game: CHESS) { totalCount } }", json!({})).await;
    assert_eq!(error_of(&response).0, "GRAPHQL_VALIDATION_FAILED");
    let response =
        server.gql(None, LEADERBOARD, json!({ "game": "DIPLOMACY", "first": 101 })).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("first")));
    let response = server
        .gql(None, LEADERBOARD, json!({ "game": "DIPLOMACY", "after": Uuid::nil().to_string() }))
        .await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("after")));
    let response = server
        .gql(None, LEADERBOARD, json!({ "game": "BLUE_MAX", "asOf": { "position": -1 } }))
        .await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("asOf.position")));
}

on_both_databases!(
    results_rate_players_and_order_the_leaderboard,
    team_sides_rate_together_and_a_draw_ties_them,
    a_correction_rerates_and_as_of_shows_the_past,
    bad_arguments_are_typed_errors,
);
