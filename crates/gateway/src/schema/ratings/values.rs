//! The rating values other objects carry: the `GameKind` a rating is kept for
//! (`Player.rating`'s argument, a scoring system's `ratingKind`) and a `Rating`.

use async_graphql::{Enum, SimpleObject};
use league_projections::GameKind;

/// The games a rating is kept for; ratings never mix kinds.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(name = "GameKind")]
pub enum GameKindValue {
    /// Every league scored by placement (all-vs-all games).
    Placement,
    /// Every league scored by a Diplomacy system.
    Diplomacy,
    /// Blue Max leagues.
    BlueMax,
    /// Wooden Ships & Iron Men leagues (current and legacy rules).
    WoodenShips,
}

impl From<GameKindValue> for GameKind {
    fn from(kind: GameKindValue) -> GameKind {
        match kind {
            GameKindValue::Placement => GameKind::Placement,
            GameKindValue::Diplomacy => GameKind::Diplomacy,
            GameKindValue::BlueMax => GameKind::BlueMax,
            GameKindValue::WoodenShips => GameKind::WoodenShips,
        }
    }
}

impl From<GameKind> for GameKindValue {
    fn from(kind: GameKind) -> GameKindValue {
        match kind {
            GameKind::Placement => GameKindValue::Placement,
            GameKind::Diplomacy => GameKindValue::Diplomacy,
            GameKind::BlueMax => GameKindValue::BlueMax,
            GameKind::WoodenShips => GameKindValue::WoodenShips,
        }
    }
}

/// A player's Weng–Lin rating at one kind of game (`docs/ratings.md`).
#[derive(SimpleObject, Debug, Clone, Copy)]
pub struct Rating {
    /// Estimated skill (μ); a newcomer starts at 25.
    pub mu: f64,
    /// Uncertainty of the estimate (σ); starts at 25/3 and shrinks with every game.
    pub sigma: f64,
    /// The conservative estimate shown and ranked on: μ − 3σ (a newcomer shows 0).
    pub display: f64,
    /// Games rated.
    pub games: u32,
}

impl From<league_projections::Rating> for Rating {
    fn from(rating: league_projections::Rating) -> Self {
        Rating {
            mu: rating.mu,
            sigma: rating.sigma,
            display: rating.display(),
            games: rating.games,
        }
    }
}
