//! Figures for `score_game`: nanoseconds per call for each system, with and without the
//! explanation lines (replaying a 1M-event log calls it once per result). Prints, asserts
//! nothing. Run: `cargo bench -p league-scoring`.

use std::hint::black_box;
use std::time::Instant;

use league_scoring::{
    DiplomacyEntry, GameResult, PlacementEntry, ScoringSystem, Side, TeamPlayer, TeamResult,
    score_game, score_game_unexplained,
};

fn diplomacy() -> GameResult {
    GameResult::Diplomacy(
        [("A", 2), ("E", 3), ("F", 4), ("G", 10), ("I", 4), ("R", 5), ("T", 6)]
            .into_iter()
            .map(|(player, centres)| DiplomacyEntry::new(player, centres))
            .collect(),
    )
}

fn placement() -> GameResult {
    GameResult::Placement(
        [1000.0, 970.0, 970.0, 800.0, 770.0]
            .into_iter()
            .enumerate()
            .map(|(i, points)| PlacementEntry { player: format!("P{i}"), points })
            .collect(),
    )
}

fn teams() -> GameResult {
    let player = |name: &str, points: f64, lost: u32, kills: u32| TeamPlayer {
        player: name.to_owned(),
        points,
        units: 1,
        lost,
        kills,
        ships_left: Some(1 - lost),
        surrendered: false,
    };
    GameResult::Teams(TeamResult {
        draw: false,
        sides: vec![
            Side {
                name: "W".into(),
                players: vec![
                    player("W1", 50.0, 0, 1),
                    player("W2", 30.0, 0, 1),
                    player("W3", 5.0, 1, 0),
                ],
            },
            Side {
                name: "D".into(),
                players: vec![
                    player("D1", 5.0, 1, 0),
                    player("D2", 40.0, 0, 1),
                    player("D3", 5.0, 1, 0),
                ],
            },
        ],
    })
}

fn main() {
    const CALLS: u32 = 200_000;
    println!("{:<20} {:>14} {:>14}", "system", "explained ns", "unexplained ns");
    for &system in ScoringSystem::ALL {
        let result = match system {
            ScoringSystem::Placement => placement(),
            system if system.is_diplomacy() => diplomacy(),
            _ => teams(),
        };
        let time = |score: fn(ScoringSystem, &GameResult) -> Result<_, _>| {
            let start = Instant::now();
            for _ in 0..CALLS {
                black_box(score(black_box(system), black_box(&result)).unwrap());
            }
            start.elapsed().as_nanos() as f64 / f64::from(CALLS)
        };
        let explained = time(score_game);
        let unexplained = time(score_game_unexplained);
        println!("{:<20} {explained:>14.0} {unexplained:>14.0}", system.name());
    }
}
