//! The seeder's guarantees: refusals of bad requests, whole tournaments seeded round by
//! round (49 players: four rounds and more with no pair meeting twice), figures that match
//! a recount, determinism.

use std::collections::BTreeMap;

use super::*;

const POWERS: [&str; 7] = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

pub(super) fn names(count: usize) -> Vec<String> {
    (1..=count).map(|i| format!("P{i}")).collect()
}

pub(super) fn request(players: usize, seed: u64) -> SeedingRequest {
    SeedingRequest {
        board_size: 7,
        seats: Some(POWERS.iter().map(|p| p.to_string()).collect()),
        players: names(players),
        earlier_boards: Vec::new(),
        keep_apart: Vec::new(),
        sitting_out: Vec::new(),
        playing_twice: Vec::new(),
        top_board: Vec::new(),
        teams: Vec::new(),
        seed,
        power_preferences: None,
        pool: Vec::new(),
    }
}

/// Seeds `rounds` rounds one after the other, each with the boards before as history.
fn tournament(players: usize, rounds: usize, seed: u64) -> Vec<Seeding> {
    let mut request = request(players, seed);
    let mut seeded = Vec::new();
    for round in 0..rounds {
        request.seed = seed + round as u64;
        let seeding = seed_round(&request).unwrap();
        request.earlier_boards.extend(seeding.boards.iter().cloned());
        seeded.push(seeding);
    }
    seeded
}

/// Recounts a seeding's figures from its boards and the request, independently.
fn recount(request: &SeedingRequest, seeding: &Seeding) -> (u64, u32) {
    let mut met: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    let mut had: BTreeMap<(&str, &str), u32> = BTreeMap::new();
    for board in &request.earlier_boards {
        for a in board {
            *had.entry((&a.player, &a.seat)).or_default() += 1;
            for b in board {
                if a.player != b.player {
                    *met.entry((&a.player, &b.player)).or_default() += 1;
                }
            }
        }
    }
    let (mut repeat_score, mut seat_repeats) = (0, 0);
    for board in &seeding.boards {
        for a in board {
            let count = had.entry((&a.player, &a.seat)).or_default();
            seat_repeats += u32::from(*count > 0);
            *count += 1;
            for b in board {
                let shared = met.get(&(a.player.as_str(), b.player.as_str())).copied().unwrap_or(0);
                repeat_score += shared * shared;
            }
        }
    }
    (repeat_score, seat_repeats)
}

fn assert_well_formed(request: &SeedingRequest, seeding: &Seeding) {
    let mut seated: BTreeMap<&str, usize> = BTreeMap::new();
    for board in &seeding.boards {
        let labels: Vec<&str> = board.iter().map(|s| s.seat.as_str()).collect();
        assert_eq!(labels, POWERS, "seats in seat order");
        let mut players: Vec<&str> = board.iter().map(|s| s.player.as_str()).collect();
        players.sort_unstable();
        players.dedup();
        assert_eq!(players.len(), 7, "nobody twice on a board: {board:?}");
        for player in players {
            *seated.entry(player).or_default() += 1;
        }
    }
    for player in &request.players {
        let expected = if request.sitting_out.contains(player) {
            0
        } else if request.playing_twice.contains(player) {
            2
        } else {
            1
        };
        assert_eq!(seated.get(player.as_str()).copied().unwrap_or(0), expected, "{player}");
    }
    assert_eq!(recount(request, seeding), (seeding.repeat_score, seeding.seat_repeats));
}

#[test]
fn forty_nine_players_play_four_rounds_and_more_with_no_pair_meeting_twice() {
    for seed in [0, 1, 2, 3, 4] {
        let rounds = tournament(49, 8, seed);
        for (round, seeding) in rounds.iter().enumerate() {
            assert_eq!(seeding.repeat_score, 0, "seed {seed}, round {}", round + 1);
        }
        // Each player meets each other exactly once over the plane's 8 classes.
        let four: u32 = rounds[..4].iter().map(|s| s.seat_repeats).sum();
        assert_eq!(four, 0, "seed {seed}: no seat repeats in the first four rounds");
    }
}

#[test]
fn twenty_one_players_three_rounds() {
    let mut request = request(21, 7);
    for round in 0..3 {
        let seeding = seed_round(&request).unwrap();
        assert_eq!(seeding.boards.len(), 3);
        assert_well_formed(&request, &seeding);
        // Round 2: a new board of 7 drawn from three earlier boards holds at best 3 + 2 + 2
        // of them, so 3 + 1 + 1 pairs met before: 15 pairs over three boards.
        if round == 1 {
            assert_eq!(seeding.repeat_score, 30, "15 pairs met once, counted both ways");
        }
        assert_eq!(seeding.seat_repeats, 0, "round {}", round + 1);
        request.earlier_boards.extend(seeding.boards.iter().cloned());
        request.seed += 1;
    }
}

#[test]
fn three_hundred_players_seven_rounds() {
    // 300 = 42 boards of 7 + 6: six different players sit out each round.
    let mut request = request(300, 11);
    for round in 0..7 {
        request.sitting_out = names(300)[6 * round..6 * round + 6].to_vec();
        let seeding = seed_round(&request).unwrap();
        assert_eq!(seeding.boards.len(), 42);
        assert_well_formed(&request, &seeding);
        assert!(seeding.repeat_score <= 2 * 42, "round {}: {}", round + 1, seeding.repeat_score);
        assert!(seeding.seat_repeats <= 10, "round {}: {}", round + 1, seeding.seat_repeats);
        request.earlier_boards.extend(seeding.boards.iter().cloned());
        request.seed += 1;
    }
}

#[test]
fn same_request_same_boards_other_seed_other_boards() {
    let mut request = request(21, 5);
    request.earlier_boards = tournament(21, 2, 9).into_iter().flat_map(|s| s.boards).collect();
    let first = seed_round(&request).unwrap();
    assert_eq!(first, seed_round(&request).unwrap());
    let others: Vec<Seeding> = (6..10)
        .map(|seed| seed_round(&SeedingRequest { seed, ..request.clone() }).unwrap())
        .collect();
    assert!(others.iter().any(|other| other.boards != first.boards), "the seed matters");
}

#[test]
fn digest_is_the_sha256_of_the_canonical_json() {
    let request = request(7, 1);
    let digest = request.digest();
    assert_eq!(digest.len(), 64);
    assert_eq!(digest, request.clone().digest());
    assert_ne!(digest, SeedingRequest { seed: 2, ..request }.digest());
}

#[test]
fn keep_apart_pairs_are_kept_apart_and_counted_when_impossible() {
    let mut request = request(14, 3);
    request.keep_apart = vec![["P1".into(), "P2".into()], ["P3".into(), "P4".into()]];
    let seeding = seed_round(&request).unwrap();
    assert_eq!(seeding.keep_apart_met, 0);
    let board_of =
        |name: &str| seeding.boards.iter().position(|b| b.iter().any(|s| s.player == name));
    assert_ne!(board_of("P1"), board_of("P2"));
    // Three players pairwise apart on two boards: one pair must meet.
    request.keep_apart.push(["P1".into(), "P3".into()]);
    request.keep_apart.push(["P2".into(), "P3".into()]);
    assert_eq!(seed_round(&request).unwrap().keep_apart_met, 1);
}

#[test]
fn players_playing_twice_sit_on_two_boards_and_sitting_out_on_none() {
    let mut request = request(20, 4);
    request.playing_twice = vec!["P5".into()];
    let seeding = seed_round(&request).unwrap();
    assert_eq!(seeding.boards.len(), 3);
    assert_well_formed(&request, &seeding);
    let mut request = request.clone();
    request.players = names(22);
    request.playing_twice.clear();
    request.sitting_out = vec!["P3".into()];
    assert_well_formed(&request, &seed_round(&request).unwrap());
}

#[test]
fn the_top_board_is_board_one() {
    let mut request = request(21, 4);
    request.top_board = names(7).into_iter().rev().collect();
    let seeding = seed_round(&request).unwrap();
    let mut first: Vec<&str> = seeding.boards[0].iter().map(|s| s.player.as_str()).collect();
    first.sort_unstable();
    assert_eq!(first, ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]);
    assert_well_formed(&request, &seeding);
}

#[test]
fn seats_default_to_numbers() {
    let mut request = request(7, 0);
    request.seats = None;
    let seeding = seed_round(&request).unwrap();
    let labels: Vec<&str> = seeding.boards[0].iter().map(|s| s.seat.as_str()).collect();
    assert_eq!(labels, ["1", "2", "3", "4", "5", "6", "7"]);
}

#[test]
fn bad_requests_are_refused_with_one_line() {
    let base = request(21, 0);
    let cases: Vec<(SeedingRequest, &str)> = vec![
        (
            SeedingRequest { board_size: 1, ..base.clone() },
            "board size 1: a board needs at least 2 seats",
        ),
        (
            SeedingRequest { seats: Some(vec!["A".into()]), ..base.clone() },
            "1 seat labels for boards of 7: give one label per seat",
        ),
        (
            SeedingRequest { sitting_out: vec!["Nobody".into()], ..base.clone() },
            "unknown player \"Nobody\" in sittingOut: not among the players",
        ),
        (
            SeedingRequest {
                sitting_out: vec!["P1".into()],
                playing_twice: vec!["P1".into()],
                ..base.clone()
            },
            "player \"P1\" is both sitting out and playing twice",
        ),
        (
            SeedingRequest { players: names(20), ..base.clone() },
            "20 players to seat (20 present) is not a multiple of 7",
        ),
        (
            SeedingRequest {
                sitting_out: vec!["P1".into()],
                ..SeedingRequest { players: names(20), ..base.clone() }
            },
            "19 players to seat (20 present, 1 sitting out) is not a multiple of 7",
        ),
        (
            SeedingRequest { players: [names(21), vec!["P3".into()]].concat(), ..base.clone() },
            "player \"P3\" is listed twice in players",
        ),
        (
            SeedingRequest { top_board: names(6), ..base.clone() },
            "the top board has 6 players; it needs exactly 7",
        ),
        (
            SeedingRequest { players: names(0), ..base.clone() },
            "0 players to seat (0 present): a board needs 7",
        ),
        (
            SeedingRequest { keep_apart: vec![["P1".into(), "P1".into()]], ..base.clone() },
            "keep-apart pair names \"P1\" twice",
        ),
        (
            SeedingRequest {
                earlier_boards: vec![vec![SeatedPlayer {
                    player: "P1".into(),
                    seat: "Prussia".into(),
                }]],
                ..base.clone()
            },
            "earlier board 1 has seat \"Prussia\", which is not one of the seats",
        ),
    ];
    for (request, message) in cases {
        let error = seed_round(&request).unwrap_err();
        assert_eq!(error.to_string(), message);
        assert!(!error.to_string().contains('\n'));
    }
}

fn team(members: &[usize]) -> Vec<String> {
    members.iter().map(|i| format!("P{i}")).collect()
}

#[test]
fn team_mates_never_share_a_board_in_a_team_round() {
    // Given 21 players (three boards) in three teams of three, after two rounds seeded
    // without teams (which may have put team-mates together)
    let mut request = request(21, 11);
    request.earlier_boards = tournament(21, 2, 4).into_iter().flat_map(|s| s.boards).collect();
    request.teams = vec![team(&[1, 2, 3]), team(&[4, 5, 6]), team(&[7, 8, 21])];
    // When the team round is seeded
    let seeding = seed_round(&request).unwrap();
    // Then every team has one member on each board
    for members in &request.teams {
        let mut boards: Vec<usize> = members
            .iter()
            .map(|name| seeding.boards.iter().position(|b| b.iter().any(|s| &s.player == name)))
            .map(Option::unwrap)
            .collect();
        boards.sort_unstable();
        assert_eq!(boards, [0, 1, 2], "{members:?} in {:?}", seeding.boards);
    }
}

#[test]
fn a_team_with_more_seats_than_boards_is_refused_and_absent_members_do_not_count() {
    let mut request = request(14, 2);
    request.teams = vec![team(&[1, 2, 3])];
    assert_eq!(
        seed_round(&request),
        Err(SeedingError::TeamLargerThanBoards { team: 1, members: 3, boards: 2 })
    );
    // A member sitting out is not seated: the two others go on different boards.
    request.players.push("P15".into());
    request.sitting_out = vec!["P3".into()];
    let seeding = seed_round(&request).unwrap();
    let board_of =
        |name: &str| seeding.boards.iter().position(|b| b.iter().any(|s| s.player == name));
    assert_ne!(board_of("P1"), board_of("P2"));
    // Team-mates on the fixed top board cannot be kept apart either.
    let mut top = request.clone();
    top.sitting_out = vec!["P15".into()];
    top.teams = vec![team(&[1, 2])];
    top.top_board = team(&[1, 2, 4, 5, 6, 7, 8]);
    assert_eq!(seed_round(&top), Err(SeedingError::TeamMatesOnTopBoard("P1".into(), "P2".into())));
}

#[test]
fn a_request_without_teams_keeps_its_canonical_json() {
    let request = request(7, 1);
    let json = serde_json::to_string(&request).unwrap();
    assert!(!json.contains("teams"), "{json}");
    let mut with_teams = request.clone();
    with_teams.teams = vec![team(&[1, 2])];
    assert_ne!(with_teams.digest(), request.digest());
}
