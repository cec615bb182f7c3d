//! A tournament export's pools (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`):
//! each round with a pool or its own scoring system, and each standing's pool marks.

use league_domain::{PoolPlayers, Tournament};
use serde::Serialize;
use uuid::Uuid;

/// A round with a pool or its own scoring system.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundStageExport {
    pub round: u32,
    /// The scoring system's name scoring the round's boards.
    pub scoring_system: String,
    /// The best this many by standings (absent when the pool is named).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_best: Option<u32>,
    /// The named pool's players.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pool_players: Vec<Uuid>,
    /// The pool's multiplier as an exact decimal ("1.5"); absent without a pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub decides_places: bool,
    /// Boards 1..poolBoards seat the pool, once seeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_boards: Option<u32>,
}

/// Each planned round with a pool or its own scoring system, round 1 first.
pub(crate) fn round_stages(tournament: &Tournament) -> Vec<RoundStageExport> {
    let Some(settings) = tournament.settings() else { return Vec::new() };
    (1..=settings.rounds)
        .filter_map(|round| {
            let system = tournament.round_scoring_system(round)?;
            let pool = tournament.round_pool(round);
            if pool.is_none() && system == settings.scoring_system {
                return None;
            }
            let (pool_best, pool_players) = match pool.map(|p| &p.players) {
                Some(PoolPlayers::Best(size)) => (Some(*size), Vec::new()),
                Some(PoolPlayers::Named(players)) => {
                    (None, players.iter().map(|p| p.uuid()).collect())
                }
                None => (None, Vec::new()),
            };
            Some(RoundStageExport {
                round,
                scoring_system: system.name().to_owned(),
                pool_best,
                pool_players,
                multiplier: pool.map(|p| p.multiplier.to_string()),
                decides_places: pool.is_some_and(|p| p.decides_places),
                pool_boards: pool
                    .and_then(|_| tournament.round(round))
                    .map(|r| r.seeded.pool_boards),
            })
        })
        .collect()
}

/// A standing's notes that name a pool, as the standings show them.
pub(crate) fn pool_marks(notes: &[String]) -> Vec<String> {
    notes.iter().filter(|note| league_domain::is_pool_note(note)).cloned().collect()
}
