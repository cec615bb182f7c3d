//! End-to-end tests of `league score` and `league standings` (the exact command-line
//! shapes) through the real binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

/// Runs `league ARGS` with `stdin` piped in.
pub(crate) fn league(args: &[&str], stdin: &str) -> Output {
    run_league(args, stdin, StdoutReader::Kept)
}

/// Whether the test keeps reading `league`'s stdout or closes it before any output.
#[derive(PartialEq)]
enum StdoutReader {
    Kept,
    ClosedAtOnce,
}

fn run_league(args: &[&str], stdin: &str, reader: StdoutReader) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_league"))
        .args(args)
        .env("RUST_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if reader == StdoutReader::ClosedAtOnce {
        drop(child.stdout.take());
    }
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

pub(crate) fn json_stdout(output: &Output) -> Value {
    assert!(output.status.success(), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Asserts the bad-input contract: exit 2, nothing on stdout, one line on stderr containing
/// `needle`.
pub(crate) fn assert_bad_input(output: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(output.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line expected: {stderr}");
    assert!(stderr.contains(needle), "`{needle}` not in: {stderr}");
}

/// `league score --system SYSTEM --explain` of `game` read from stdin: the JSON answer, which
/// names the system.
fn score_explained(system: &str, game: &Value) -> Value {
    let value =
        json_stdout(&league(&["score", "--system", system, "--explain", "-"], &game.to_string()));
    assert_eq!(value["system"], json!(system));
    value
}

/// Each player's score in `league score`'s JSON answer, in input order.
fn scores_of(value: &Value) -> Vec<f64> {
    value["scores"].as_array().unwrap().iter().map(|s| s["score"].as_f64().unwrap()).collect()
}

fn diplomacy_game(centres: &[(&str, u32)]) -> Value {
    json!({"players": centres.iter().map(|(player, centres)| json!({"player": player, "centres": centres})).collect::<Vec<_>>()})
}

const ISSUE_CHECK: [(&str, u32); 7] =
    [("A", 2), ("E", 3), ("F", 4), ("G", 10), ("I", 4), ("R", 5), ("T", 6)];

/// The Detour 98f check of docs/scoring.md#detour-98f: printed in input order.
#[test]
fn score_detour_issue_check_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    std::fs::write(&path, diplomacy_game(&ISSUE_CHECK).to_string()).unwrap();
    let output = league(&["score", "--system", "detour98f", path.to_str().unwrap()], "");
    assert_eq!(
        json_stdout(&output),
        json!({"system": "detour98f", "scores": [
            {"player": "A", "score": 6.56}, {"player": "E", "score": 8.2},
            {"player": "F", "score": 9.84}, {"player": "G", "score": 32.79},
            {"player": "I", "score": 9.84}, {"player": "R", "score": 14.75},
            {"player": "T", "score": 18.03}
        ]})
    );
}

/// `--explain` adds the lines that make up each score (the Detour example line of docs/scoring.md#detour-98f).
#[test]
fn score_explain_lists_the_parts() {
    let output = league(
        &["score", "--system", "detour98f", "--explain", "-"],
        &diplomacy_game(&ISSUE_CHECK).to_string(),
    );
    let value = json_stdout(&output);
    assert_eq!(
        value["scores"][3]["explanation"],
        json!(["centres 10, survival 1, alive 1, lead 4, position 4 → raw 20 of 61 → 32.79"])
    );
    assert_eq!(value["scores"][3]["score"], json!(32.79));
}

/// The placement example of docs/scoring.md#placement, read from stdin (no FILE means stdin).
#[test]
fn score_placement_from_stdin() {
    let game = json!({"players": [
        {"player": "A", "points": 1000}, {"player": "B", "points": 970}, {"player": "C", "points": 970},
        {"player": "D", "points": 800}, {"player": "E", "points": 770}
    ]});
    let value = json_stdout(&league(&["score", "--system", "placement"], &game.to_string()));
    let scores = scores_of(&value);
    assert_eq!(scores, [20.0, 9.0, 9.0, 2.0, 0.0]);
}

/// Baf shared top (docs/scoring.md#baf, case h): two on 10 score 41.848.
#[test]
fn score_baf_shared_top() {
    let game =
        diplomacy_game(&[("A", 10), ("B", 10), ("C", 5), ("D", 4), ("E", 3), ("F", 2), ("G", 0)]);
    let value = json_stdout(&league(&["score", "--system", "baf", "-"], &game.to_string()));
    assert_eq!(value["scores"][0], json!({"player": "A", "score": 41.848}));
    assert_eq!(value["scores"][6], json!({"player": "G", "score": 0.0}));
}

/// Blue Max example 1 of docs/scoring.md#blue-max, in the team JSON shape.
#[test]
fn score_bluemax_example_1() {
    let game = json!({"draw": false, "sides": [
        {"name": "W", "players": [
            {"player": "W1", "points": 60, "kills": 2}, {"player": "W2", "points": 30, "kills": 1},
            {"player": "W3", "points": 10}]},
        {"name": "D", "players": [
            {"player": "D1", "points": 10, "lost": 1}, {"player": "D2", "points": 10, "lost": 1},
            {"player": "D3", "points": 11, "lost": 1, "shipsLeft": 0}]}
    ]});
    let value = json_stdout(&league(&["score", "--system", "bluemax"], &game.to_string()));
    let scores = scores_of(&value);
    assert_eq!(scores, [7.0, 5.0, 4.0, -1.0, -1.0, -1.0]);
}

/// `league standings`: totals, wins, draws, games, shared ranks (docs/scoring.md#standings-and-tie-breakers).
#[test]
fn standings_ranks_players_over_games() {
    let games = json!({"games": [
        {"players": [{"player": "A", "points": 9}, {"player": "B", "points": 5}, {"player": "C", "points": 5}, {"player": "D", "points": 1}]},
        {"players": [{"player": "B", "points": 9}, {"player": "A", "points": 5}, {"player": "C", "points": 1}]}
    ]});
    let value =
        json_stdout(&league(&["standings", "--system", "placement", "-"], &games.to_string()));
    assert_eq!(
        value,
        json!({"standings": [
            {"rank": 1, "player": "A", "total": 14.0, "wins": 1, "draws": 0, "games": 2},
            {"rank": 2, "player": "B", "total": 10.0, "wins": 1, "draws": 0, "games": 2},
            {"rank": 3, "player": "C", "total": 4.0, "wins": 0, "draws": 0, "games": 2},
            {"rank": 4, "player": "D", "total": 0.0, "wins": 0, "draws": 0, "games": 1}
        ]})
    );
}

/// `league standings --aggregation` (docs/scoring.md#league-aggregation): best N counts each
/// player's N best games, average divides by games played; a bad aggregation exits 2.
#[test]
fn standings_under_an_aggregation() {
    let games = json!({"games": [
        {"players": [{"player": "A", "points": 9}, {"player": "B", "points": 5}, {"player": "C", "points": 5}, {"player": "D", "points": 1}]},
        {"players": [{"player": "B", "points": 9}, {"player": "A", "points": 5}, {"player": "C", "points": 1}]}
    ]});
    let run = |aggregation: &str| {
        json_stdout(&league(
            &["standings", "--system", "placement", "--aggregation", aggregation, "-"],
            &games.to_string(),
        ))
    };
    // Placement points: game 1 A 12, B 4, C 4, D 0; game 2 B 6, A 2, C 0.
    let best = run("best:1");
    assert_eq!(
        best["standings"][0],
        json!({"rank": 1, "player": "A", "total": 12.0, "wins": 1, "draws": 0, "games": 2, "counted": 1})
    );
    let average = run("average");
    assert_eq!(average["standings"][0]["total"], json!(7.0));
    assert_eq!(average["standings"][0]["games"], json!(2));
    for bad in ["best:0", "median"] {
        assert_bad_input(
            &league(
                &["standings", "--system", "placement", "--aggregation", bad, "-"],
                &games.to_string(),
            ),
            "aggregation",
        );
    }
}

/// Bangkok (docs/scoring.md#bangkok-and-olympic) end to end: the reference game R, with the
/// explanation and the eliminated power's years survived.
#[test]
fn score_bangkok_with_explanation() {
    let mut game = reference_game();
    let value = score_explained("bangkok", &game);
    let scores = scores_of(&value);
    assert_eq!(scores, [22.0, 14.0, 9.0, 8.0, 6.0, 5.0, 1.2]);
    assert_eq!(
        value["scores"][0]["explanation"],
        json!(["centres 10, survival 3, domination 9 → 22"])
    );
    assert_eq!(
        value["scores"][6]["explanation"],
        json!(["centres 0, years survived 1.2, domination 0 → 1.2"])
    );
    // Without the elimination year Bangkok cannot pay the fallen power: refused, naming it.
    game["players"][6].as_object_mut().unwrap().remove("eliminatedYear");
    assert_bad_input(
        &league(&["score", "--system", "bangkok", "-"], &game.to_string()),
        "players[6].eliminatedYear",
    );
}

/// The reference game R of docs/scoring.md#the-dipvis-catalogue, P6 eliminated in 1905.
fn reference_game() -> Value {
    let mut game = diplomacy_game(&[
        ("P0", 10),
        ("P1", 8),
        ("P2", 6),
        ("P3", 5),
        ("P4", 3),
        ("P5", 2),
        ("P6", 0),
    ]);
    game["players"][6]["eliminated"] = json!(true);
    game["players"][6]["eliminatedYear"] = json!(1905);
    game
}

/// OMG (docs/scoring.md#omg) end to end with `--explain`: the lone leader collects the gap
/// to second place from every survivor.
#[test]
fn score_omg_with_explanation() {
    let value = score_explained("omg", &reference_game());
    let scores = scores_of(&value);
    assert_eq!(scores, [38.5, 22.0, 17.5, 14.5, 11.5, 10.0, 0.0]);
    assert_eq!(
        value["scores"][0]["explanation"],
        json!(["centres 10, before tribute 28.5, tribute received 10 → 38.5"])
    );
    assert_eq!(
        value["scores"][1]["explanation"],
        json!(["centres 8, before tribute 24, tribute paid 2 → 22"])
    );
}

/// Sydney League (docs/scoring.md#sydney-league) by its CLI name, with the eliminated power's
/// years survived explained; without its elimination year the game is refused, naming it.
#[test]
fn score_sydney_league_with_explanation() {
    let mut game = reference_game();
    let value = json_stdout(&league(
        &["score", "--system", "sydney-league", "--explain", "-"],
        &game.to_string(),
    ));
    let scores = scores_of(&value);
    assert_eq!(scores, [950.0, 800.0, 650.0, 525.0, 375.0, 250.0, 105.0]);
    assert_eq!(
        value["scores"][6]["explanation"],
        json!(["centres 0 × 25, position 7 100, years survived 5 → 105"])
    );
    game["players"][6].as_object_mut().unwrap().remove("eliminatedYear");
    assert_bad_input(
        &league(&["score", "--system", "sydney-league", "-"], &game.to_string()),
        "players[6].eliminatedYear",
    );
}

/// World Classic (docs/scoring.md#world-classic-and-summer-classic) reads the soloist's
/// `soloYear` to pay the other survivors their years; without it the solo is refused, naming it.
#[test]
fn score_world_classic_reads_the_solo_year() {
    let mut game = diplomacy_game(&[
        ("P0", 18),
        ("P1", 6),
        ("P2", 4),
        ("P3", 3),
        ("P4", 2),
        ("P5", 1),
        ("P6", 0),
    ]);
    game["players"][6]["eliminatedYear"] = json!(1908);
    assert_bad_input(
        &league(&["score", "--system", "world-classic", "-"], &game.to_string()),
        "players[0].soloYear",
    );
    game["players"][0]["soloYear"] = json!(1910);
    let value = json_stdout(&league(
        &["score", "--system", "world-classic", "--explain", "-"],
        &game.to_string(),
    ));
    let scores = scores_of(&value);
    assert_eq!(scores, [420.0, 9.0, 9.0, 9.0, 9.0, 9.0, 7.0]);
    assert_eq!(
        value["scores"][1]["explanation"],
        json!(["centres 6, years survived to the solo in 1910 → 9"])
    );
}

/// Draw size reads the voted draw (`inDraw`); a single flagged power is a concession.
#[test]
fn score_draw_size_reads_the_draw_vote() {
    let mut game = diplomacy_game(&ISSUE_CHECK);
    game["players"][3]["inDraw"] = json!(true);
    let value = json_stdout(&league(&["score", "--system", "draw-size", "-"], &game.to_string()));
    let scores = scores_of(&value);
    assert_eq!(scores, [0.0, 0.0, 0.0, 100.0, 0.0, 0.0, 0.0]);
}

#[test]
fn unknown_system_is_bad_input() {
    assert_bad_input(
        &league(&["score", "--system", "diplomacy", "-"], "{}"),
        "unknown scoring system `diplomacy`",
    );
    // The message lists every known system, new ones included.
    assert_bad_input(&league(&["score", "--system", "x", "-"], "{}"), "carnage-2023");
    assert_bad_input(&league(&["standings", "--system", "nope"], "{}"), "system");
}

#[test]
fn invalid_games_name_the_field() {
    let mut too_many = ISSUE_CHECK;
    too_many[3].1 = 35;
    assert_bad_input(
        &league(&["score", "--system", "squares"], &diplomacy_game(&too_many).to_string()),
        "players[3].centres",
    );
    assert_bad_input(
        &league(
            &["score", "--system", "detour98f"],
            "{\"players\": [{\"player\": \"A\", \"centres\": -1}]}",
        ),
        "players[0].centres",
    );
    assert_bad_input(&league(&["score", "--system", "detour98f"], "not json"), "invalid game JSON");
    assert_bad_input(&league(&["score", "--system", "bluemax"], "{\"sides\": []}"), "sides");
    // A blank Baf cell is an impossible result, not a guess (docs/scoring.md#baf).
    let blank =
        diplomacy_game(&[("A", 3), ("B", 2), ("C", 2), ("D", 2), ("E", 2), ("F", 2), ("G", 1)]);
    assert_bad_input(
        &league(&["score", "--system", "baf"], &blank.to_string()),
        "players[0].centres: impossible result",
    );
    assert_bad_input(
        &league(&["score", "--system", "baf", "/no/such/game.json"], ""),
        "cannot read /no/such/game.json",
    );
}

#[test]
fn standings_errors_name_the_game() {
    let games = json!({"games": [
        {"players": [{"player": "A", "points": 9}, {"player": "B", "points": 5}]},
        {"players": [{"player": "A", "points": 9}]}
    ]});
    assert_bad_input(
        &league(&["standings", "--system", "placement"], &games.to_string()),
        "games[1].players",
    );
    assert_bad_input(
        &league(
            &["standings", "--system", "placement"],
            "{\"games\": [{\"players\": [{\"player\": \"A\", \"points\": \"x\"}]}]}",
        ),
        "games[0].players[0].points",
    );
}

/// Wooden Ships (docs/scoring.md#wooden-ships) in the team JSON shape: the only coalition with ships
/// left and more than double the points wins overwhelmingly; a surrendered member scores 0.
#[test]
fn score_woodenships_reads_ships_left_and_surrendered() {
    let game = json!({"draw": false, "sides": [
        {"name": "GB", "players": [
            {"player": "N", "points": 30, "shipsLeft": 2}, {"player": "C", "points": 12, "shipsLeft": 0, "surrendered": true}]},
        {"name": "FR", "players": [{"player": "V", "points": 20, "shipsLeft": 0}]}
    ]});
    let value = json_stdout(&league(&["score", "--system", "woodenships"], &game.to_string()));
    let scores = scores_of(&value);
    assert_eq!(scores, [4.0, 0.0, 0.0]);
}

/// Runs `league ARGS` whose stdout reader has gone away before any output: the command
/// must end quietly with exit 0 (it meets the closed pipe on its first write).
fn league_into_closed_pipe(args: &[&str], stdin: &str) -> Output {
    run_league(args, stdin, StdoutReader::ClosedAtOnce)
}

fn assert_quiet_success(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "exit {:?}, stderr: {stderr}", output.status);
    assert!(stderr.is_empty(), "nothing on stderr expected: {stderr}");
}

/// Eight players, named from `first` on.
fn placement_game(first: usize) -> Value {
    json!({"players": (first..first + 8).map(|i| json!({"player": format!("P{i:05}"), "points": i})).collect::<Vec<_>>()})
}

#[test]
fn score_into_a_closed_pipe_ends_quietly() {
    // Two sides of 2,000 players, explained: a long answer into a pipe nobody reads.
    let side = |name: &str| json!({"name": name, "players": (0..2_000).map(|i| json!({"player": format!("{name}{i}"), "points": i % 7})).collect::<Vec<_>>()});
    let game = json!({"draw": false, "sides": [side("W"), side("D")]});
    let output =
        league_into_closed_pipe(&["score", "--system", "bluemax", "--explain"], &game.to_string());
    assert_quiet_success(&output);
}

#[test]
fn standings_into_a_closed_pipe_ends_quietly() {
    let games: Vec<Value> = (0..1_000).map(|g| placement_game(g * 8)).collect();
    let games = json!({ "games": games });
    let output =
        league_into_closed_pipe(&["standings", "--system", "placement"], &games.to_string());
    assert_quiet_success(&output);
}
