//! `league score` with several games in one call through the real binary: a JSON array is
//! answered with an array, JSON lines with JSON lines, each game's answer exactly what
//! scoring it alone prints; a bad game gets an error object in its place naming it, stderr
//! says which, and the exit status is 2; `--system` takes every name of a system.

use std::process::Output;

use league_scoring::catalogue;
use serde_json::{Value, json};

use crate::score::{assert_bad_input, json_stdout, league};

fn placement(points: [u32; 3]) -> Value {
    json!({"players": [
        {"player": "A", "points": points[0]},
        {"player": "B", "points": points[1]},
        {"player": "C", "points": points[2]},
    ]})
}

/// A game the placement table refuses (one player).
fn lonely() -> Value {
    json!({"players": [{"player": "A", "points": 3}]})
}

/// What `league score` prints for `game` alone.
fn alone(game: &Value, extra: &[&str]) -> Value {
    json_stdout(&league(&[&["score", "--system", "placement"], extra].concat(), &game.to_string()))
}

fn stdout_text(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr_text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn an_array_of_games_is_answered_with_an_array_in_order() {
    let games = [placement([9, 5, 1]), placement([1, 5, 9]), placement([4, 4, 2])];
    for extra in [&[][..], &["--explain"][..]] {
        let output = league(
            &[&["score", "--system", "placement"], extra].concat(),
            &Value::from(games.to_vec()).to_string(),
        );
        let expected: Vec<Value> = games.iter().map(|game| alone(game, extra)).collect();
        assert_eq!(json_stdout(&output), Value::from(expected));
        assert_eq!(stdout_text(&output).lines().count(), 1);
    }
}

#[test]
fn json_lines_are_answered_with_json_lines_in_order() {
    let games = [placement([9, 5, 1]), placement([1, 5, 9])];
    let input = format!("{}\n\n{}\n", games[0], games[1]);
    let output = league(&["score", "--system", "placement"], &input);
    assert!(output.status.success(), "stderr: {}", stderr_text(&output));
    let answers: Vec<Value> =
        stdout_text(&output).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(answers, games.iter().map(|game| alone(game, &[])).collect::<Vec<_>>());
}

#[test]
fn a_bad_game_among_several_is_named_and_the_others_answered() {
    let good = placement([9, 5, 1]);
    let array = json!([good, lonely(), good]);
    let output = league(&["score", "--system", "placement"], &array.to_string());
    assert_eq!(output.status.code(), Some(2), "stderr: {}", stderr_text(&output));
    let answers: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answers[0], alone(&good, &[]));
    assert_eq!(answers[2], alone(&good, &[]));
    assert_eq!(answers[1]["index"], 1);
    assert!(answers[1]["error"].as_str().unwrap().contains("players"), "{answers}");
    assert!(stderr_text(&output).contains("game [1]: players"), "{}", stderr_text(&output));
    assert_eq!(stderr_text(&output).lines().count(), 1);

    let lines = format!("{good}\nnot json\n{}\n", lonely());
    let output = league(&["score", "--system", "placement"], &lines);
    assert_eq!(output.status.code(), Some(2));
    let answers: Vec<Value> =
        stdout_text(&output).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0], alone(&good, &[]));
    assert_eq!((&answers[1]["line"], &answers[2]["line"]), (&json!(2), &json!(3)));
    assert!(answers[1]["error"].as_str().unwrap().contains("invalid game JSON"));
    let stderr = stderr_text(&output);
    assert!(
        stderr.contains("line 2: invalid game JSON") && stderr.contains("line 3: "),
        "{stderr}"
    );
}

/// One game in, one object out, byte for byte as before batches: compact JSON, `system`
/// first, one line; a pretty-printed or broken single game is still one game.
#[test]
fn one_game_is_answered_as_before() {
    let output = league(&["score", "--system", "placement"], &placement([9, 5, 1]).to_string());
    assert_eq!(
        stdout_text(&output),
        "{\"system\":\"placement\",\"scores\":[{\"player\":\"A\",\"score\":6.0},\
         {\"player\":\"B\",\"score\":2.0},{\"player\":\"C\",\"score\":0.0}]}\n"
    );
    let pretty = serde_json::to_string_pretty(&placement([9, 5, 1])).unwrap();
    assert_eq!(league(&["score", "--system", "placement"], &pretty).stdout, output.stdout);
    assert_bad_input(
        &league(&["score", "--system", "placement"], "{\n  \"players\": ["),
        "players: EOF while parsing",
    );
}

#[test]
fn system_takes_every_name_of_a_system() {
    let centres = [10, 8, 6, 5, 3, 2, 0];
    let players: Vec<Value> = centres
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"player": format!("P{i}"), "centres": c}))
        .collect();
    let game = json!({ "players": players }).to_string();
    for info in catalogue().into_iter().filter(|info| ["squares", "cdiplo100"].contains(&info.name))
    {
        let expected = json_stdout(&league(&["score", "--system", info.name], &game));
        let mut names: Vec<String> = [info.graphql_name, info.display_name]
            .into_iter()
            .chain(info.aliases.iter().copied())
            .map(str::to_owned)
            .collect();
        names.push(format!("  {}  ", info.display_name.to_uppercase()));
        for name in names {
            let output = league(&["score", "--system", &name], &game);
            assert_eq!(json_stdout(&output), expected, "--system {name:?}");
        }
    }
    assert_bad_input(&league(&["score", "--system", "Sum of Cubes"], "{}"), "ranked-classic-v2");
}
