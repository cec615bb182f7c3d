//! End-to-end tests of `league seed`: a seeding request on stdin, one JSON line of boards
//! on stdout (the seven powers, repeat figures that match a recount), and refusal of bad
//! requests (exit 2, one line on stderr, nothing on stdout). The seeding guarantees
//! themselves are tested in the scheduling crate.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const POWERS: [&str; 7] = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

fn league_seed(input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_league"))
        .arg("seed")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn players(count: usize) -> Vec<String> {
    (1..=count).map(|i| format!("P{i}")).collect()
}

/// Round 1 of 21 players seated by hand: P1..P7 on board 1, and so on, powers in order.
fn earlier_boards() -> Value {
    let boards: Vec<Value> = players(21)
        .chunks(7)
        .map(|board| {
            board
                .iter()
                .zip(POWERS)
                .map(|(player, seat)| json!({ "player": player, "seat": seat }))
                .collect()
        })
        .collect();
    Value::Array(boards)
}

#[test]
fn seats_twenty_one_players_in_three_boards_of_the_seven_powers() {
    let request = json!({
        "boardSize": 7,
        "seats": POWERS,
        "players": players(21),
        "earlierBoards": earlier_boards(),
        "seed": 3,
    });
    let output = league_seed(&request.to_string());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one JSON line");
    let seeding: Value = serde_json::from_str(&text).unwrap();
    let boards = seeding["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 3);

    // Recount: earlier shared boards of every ordered pair on a new board, squared.
    let earlier_board_of = |player: &str| player[1..].parse::<usize>().unwrap().div_ceil(7);
    let mut seated = BTreeMap::new();
    let mut repeat_score = 0;
    let mut seat_repeats = 0;
    for board in boards {
        let board = board.as_array().unwrap();
        let seats: Vec<&str> = board.iter().map(|s| s["seat"].as_str().unwrap()).collect();
        assert_eq!(seats, POWERS, "the seven powers in seat order");
        let names: Vec<&str> = board.iter().map(|s| s["player"].as_str().unwrap()).collect();
        for (seat, &a) in names.iter().enumerate() {
            *seated.entry(a).or_insert(0) += 1;
            // Round 1 gave P(7b + i) the i-th power.
            seat_repeats += u64::from((a[1..].parse::<usize>().unwrap() - 1) % 7 == seat);
            for &b in &names {
                repeat_score += u64::from(a != b && earlier_board_of(a) == earlier_board_of(b));
            }
        }
    }
    assert_eq!(seated.len(), 21);
    assert!(seated.values().all(|&times| times == 1));
    assert_eq!(seeding["repeatScore"], repeat_score);
    assert_eq!(seeding["seatRepeats"], seat_repeats);
    assert_eq!(seeding["keepApartMet"], 0);
    // Three boards from three earlier boards: at best 3 + 2 + 2 per board, 15 pairs.
    assert_eq!(repeat_score, 30);
    assert_eq!(seat_repeats, 0);

    let again = league_seed(&request.to_string());
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text, "same request, same seeding");
}

#[test]
fn bad_requests_exit_2_with_one_line_and_no_output() {
    let base = json!({ "boardSize": 7, "players": players(21), "seed": 0 });
    let with = |field: &str, value: Value| {
        let mut request = base.clone();
        request[field] = value;
        request.to_string()
    };
    let cases = [
        ("not json".to_owned(), "invalid seeding request"),
        (r#"{"boardSize":7}"#.to_owned(), "invalid seeding request"),
        (with("colour", json!("red")), "unknown field `colour`"),
        (with("sittingOut", json!(["Nobody"])), "unknown player \"Nobody\" in sittingOut"),
        (
            with("players", json!(players(20))),
            "20 players to seat (20 present) is not a multiple of 7",
        ),
        (with("playingTwice", json!(["P1"])), "22 players to seat"),
        (with("boardSize", json!(1)), "board size 1"),
        (with("seats", json!(["Austria"])), "1 seat labels for boards of 7"),
        (with("topBoard", json!(["P1", "P2"])), "the top board has 2 players"),
        (with("keepApart", json!([["P1", "P1"]])), "keep-apart pair names \"P1\" twice"),
        (with("players", json!([players(21), vec!["P2".to_owned()]].concat())), "listed twice"),
    ];
    for (input, expected) in cases {
        let output = league_seed(&input);
        assert_eq!(output.status.code(), Some(2), "{input}");
        assert!(output.stdout.is_empty(), "{input}");
        let message = String::from_utf8(output.stderr).unwrap();
        assert_eq!(message.trim_end().lines().count(), 1, "{input}: {message}");
        assert!(message.contains(expected), "{input}: {message}");
    }
    let both = json!({
        "boardSize": 7, "players": players(21), "seed": 0,
        "sittingOut": ["P1"], "playingTwice": ["P1"],
    });
    let output = league_seed(&both.to_string());
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8(output.stderr).unwrap().contains("both sitting out and playing twice")
    );
}
