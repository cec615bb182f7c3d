//! End-to-end tests of `league schedule`: the JSON shape on stdout, the balance
//! report on stderr, determinism, and refusal of impossible shapes (exit 2, nothing on
//! stdout). The balance guarantees themselves are property-tested in the scheduling crate.

use std::collections::HashMap;
use std::process::{Command, Output};

use serde_json::Value;

fn league(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_league")).arg("schedule").args(args).output().unwrap()
}

fn printed_schedule(args: &[&str]) -> Value {
    let output = league(args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn prints_every_game_of_a_league_of_eight_with_three_per_game() {
    // docs/scheduling.md#games-per-league: 3 players per game → 24 games, 9 per player.
    let printed = printed_schedule(&["--players", "8", "--per-game", "3"]);
    let players: Vec<&str> =
        printed["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(players, ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]);
    assert_eq!(printed["per_game"], 3);
    let games = printed["games"].as_array().unwrap();
    assert_eq!(games.len(), 24);
    let mut seat_counts: HashMap<(&str, usize), usize> = HashMap::new();
    for game in games {
        let seats = game["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 3);
        for (seat, player) in seats.iter().enumerate() {
            let player = player.as_str().unwrap();
            assert!(players.contains(&player), "unknown player {player}");
            *seat_counts.entry((player, seat)).or_default() += 1;
        }
    }
    // Every player in every seat exactly s = 3 times.
    assert_eq!(seat_counts.len(), 8 * 3);
    assert!(seat_counts.values().all(|&count| count == 3), "{seat_counts:?}");
}

#[test]
fn games_per_seat_and_seed_shape_the_output_deterministically() {
    let args = ["--players", "10", "--per-game", "4", "--games-per-seat", "2", "--seed", "9"];
    let first = printed_schedule(&args);
    assert_eq!(first["games"].as_array().unwrap().len(), 20, "N·s games");
    assert_eq!(first, printed_schedule(&args), "same inputs, same schedule");
    let other_seed = printed_schedule(&[
        "--players",
        "10",
        "--per-game",
        "4",
        "--games-per-seat",
        "2",
        "--seed",
        "10",
    ]);
    assert_eq!(other_seed["games"].as_array().unwrap().len(), 20);
}

#[test]
fn report_goes_to_stderr_and_keeps_stdout_json() {
    let output = league(&["--players", "8", "--per-game", "7", "--report"]);
    assert!(output.status.success());
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["games"].as_array().unwrap().len(), 24);
    let figures = String::from_utf8(output.stderr).unwrap();
    assert!(figures.contains("games per player: min 21, max 21"), "{figures}");
    assert!(figures.contains("seat counts (player x seat): min 3, max 3"), "{figures}");
    // docs/scheduling.md#balance: every player meets all 7 others equally often (18 times for k = 7).
    assert!(figures.contains("pair meetings: min 18, max 18"), "{figures}");
}

#[test]
fn impossible_shapes_exit_2_with_one_line_and_no_output() {
    for args in [
        &["--players", "8", "--per-game", "9"][..],
        &["--players", "8", "--per-game", "1"],
        &["--players", "65", "--per-game", "3"],
        &["--players", "8", "--per-game", "3", "--games-per-seat", "0"],
    ] {
        let output = league(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let message = String::from_utf8(output.stderr).unwrap();
        assert_eq!(message.trim_end().lines().count(), 1, "{args:?}: {message}");
        assert!(message.contains("invalid schedule shape"), "{args:?}: {message}");
    }
}

/// A reader that stops early (`league schedule … | head`) is not a failure: the command
/// exits 0 quietly instead of panicking on the closed pipe (the ~110 KB of output here is
/// more than a pipe buffer holds, so the write really meets the closed pipe).
#[test]
fn a_closed_pipe_is_not_a_failure() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_league"))
        .args(["schedule", "--players", "64", "--per-game", "16", "--games-per-seat", "16"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then the pipe closes
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "exit {status:?}, stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
