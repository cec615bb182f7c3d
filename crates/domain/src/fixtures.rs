//! Fixtures shared by the tests of the domain and of every crate above it: numbered
//! player ids, the created league and placement results. Compiled for the domain's own
//! unit tests and, behind the `fixtures` feature, for other crates' tests (through
//! `league_testkit::fixtures`), so each fixture is written once.

use league_scoring::{GameResult, PlacementEntry, ScoringSystem};
use uuid::Uuid;

use crate::{DomainEvent, LeagueCreated, LeagueEvent, LeagueId, LeagueSettings, PlayerId};

/// The league the fixtures create.
pub const LEAGUE: LeagueId =
    LeagueId::new(Uuid::from_u128(0x0193_4f00_0000_7000_8000_0000_0000_00aa));

/// Player number `n`: distinct, stable ids that sort by `n`.
pub fn player(n: u128) -> PlayerId {
    PlayerId::new(Uuid::from_u128(0x0193_4f00_0000_7000_8000_0000_0001_0000 + n))
}

/// [`LEAGUE`] as created: `system`, `k` players per game, `size` places, `s` games per seat.
pub fn created(system: ScoringSystem, k: u32, size: u32, s: u32) -> DomainEvent {
    DomainEvent::League(LeagueEvent::LeagueCreated(LeagueCreated {
        league_id: LEAGUE,
        settings: LeagueSettings {
            size,
            games_per_seat: s,
            ..LeagueSettings::new("Autumn", "Cartagena", system, k)
        },
        created_by: None,
    }))
}

/// A placement result for seated players: `points[i]` for `seats[i]`.
pub fn placement(seats: &[PlayerId], points: &[f64]) -> GameResult {
    GameResult::Placement(
        seats
            .iter()
            .zip(points)
            .map(|(player, points)| PlacementEntry { player: player.to_string(), points: *points })
            .collect(),
    )
}

/// A placement result for numbered players: `(n, points)` gives [`player`]`(n)` its points.
pub fn numbered_placement(entries: &[(u128, f64)]) -> GameResult {
    let (seats, points): (Vec<PlayerId>, Vec<f64>) =
        entries.iter().map(|&(n, points)| (player(n), points)).unzip();
    placement(&seats, &points)
}
