//! Pure scheduling: every game of a league with each seat ("starting situation": colour,
//! power, piece set) assigned, balanced per seed 002 ("equal distribution of games and
//! starting situation"). No IO, no async, deterministic for a given seed.
//!
//! Public contract (other crates build on these names; keep them stable):
//! - [`ScheduleSpec`] → [`schedule`] → [`Schedule`] (games as player indices in seat order).
//! - [`default_games_per_seat`]: seed 002's table, as games per seat `s` for `k` per game.

use serde::{Deserialize, Serialize};

/// What to schedule: `players` (N) players, `per_game` (k) seats per game, each player
/// taking each seat `games_per_seat` (s) times (default: seed 002's table for k).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleSpec {
    pub players: usize,
    pub per_game: usize,
    pub games_per_seat: Option<usize>,
    pub seed: u64,
}

/// Every game of a league: `games[g][seat]` is the index (0-based) of the player in that seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    pub players: usize,
    pub per_game: usize,
    pub games_per_seat: usize,
    pub games: Vec<Vec<usize>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("invalid schedule shape: {0}")]
    InvalidShape(String),
}

/// Games per seat `s` for `per_game` = k, from seed 002's table (games per player = k·s).
pub fn default_games_per_seat(per_game: usize) -> Option<usize> {
    let _ = per_game;
    todo!("issue 4")
}

/// Builds every game of the league.
pub fn schedule(spec: &ScheduleSpec) -> Result<Schedule, ScheduleError> {
    let _ = spec;
    todo!("issue 4")
}
