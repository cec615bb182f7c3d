//! Pure ratings across leagues (`docs/ratings.md`): a player's strength at a game kind,
//! estimated from every finished game of every league with the Weng–Lin Bayesian model of
//! the `skillratings` crate (a TrueSkill-like model for free-for-all and team games).
//!
//! No IO, no async. The read side folds result events into a [`Ratings`] ledger; this crate
//! only knows games, outcomes and log positions.
//!
//! ```text
//! GameKind::of(system)                 which rating a league's games count towards
//! outcome(&scored, &result)            a scored game → ranked teams (ties share a rank)
//! Ratings::rate_game(kind, game, position, outcome)     a first report, in log order
//! Ratings::correct_game(kind, game, position, outcome)  a correction: that game and every
//!                                                       later one of the kind re-rated
//! Ratings::rating / rating_at / history / leaderboard   now, or as of a log position
//! Ratings::forget(keep) / image(keep) / from_image      a window of recent results only
//! ```

use std::fmt;

use league_scoring::{ResultKind, ScoringSystem};
use skillratings::weng_lin::{WengLinConfig, WengLinRating};

mod image;
mod ledger;
mod outcome;

pub use image::{BoardImage, LedgerImage, RatingImage, ResultImage};
pub use ledger::{LeaderboardRow, RatingChange, Ratings};
pub use outcome::{GameOutcome, Team, outcome};

/// How many standard deviations the displayed rating sits below the mean: the displayed
/// rating is a conservative estimate, μ − 3σ, that a player is very likely above
/// (`docs/ratings.md#display`). A newcomer shows 25 − 3 · 25/3 = 0.
pub const DISPLAY_SIGMAS: f64 = 3.0;

/// The games a rating is kept for. Ratings never mix kinds: a Diplomacy rating says
/// nothing about Blue Max.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Every league scored by placement (all-vs-all games), whatever its game's name.
    Placement,
    /// Every league scored by a Diplomacy system, whichever system.
    Diplomacy,
    /// Blue Max leagues.
    BlueMax,
    /// Wooden Ships & Iron Men leagues, current and legacy rules alike.
    WoodenShips,
}

impl GameKind {
    /// Every kind, in this order (also the index of a kind's board).
    pub const ALL: [GameKind; 4] =
        [GameKind::Placement, GameKind::Diplomacy, GameKind::BlueMax, GameKind::WoodenShips];

    /// The kind a league's games count towards, from its scoring system. The scoring
    /// system fixes the result's shape, so every Diplomacy system rates the same game; the
    /// two Wooden Ships rule sets score one game differently, not two games.
    pub fn of(system: ScoringSystem) -> GameKind {
        match system.result_kind() {
            ResultKind::Placement => GameKind::Placement,
            ResultKind::Diplomacy => GameKind::Diplomacy,
            ResultKind::Teams if system == ScoringSystem::BlueMax => GameKind::BlueMax,
            ResultKind::Teams => GameKind::WoodenShips,
        }
    }

    /// Lower-case name (CLI and JSON output).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Placement => "placement",
            GameKind::Diplomacy => "diplomacy",
            GameKind::BlueMax => "bluemax",
            GameKind::WoodenShips => "woodenships",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The model's parameters, in one place (`docs/ratings.md#parameters`).
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// β (skill-class width) and the σ floor: skillratings' defaults, β = 25/6, floor 1e-6.
    pub config: WengLinConfig,
    /// Every player's rating before their first game of a kind: μ = 25, σ = 25/3.
    pub initial: WengLinRating,
}

impl Params {
    /// skillratings' Weng–Lin defaults. They are the TrueSkill scale (μ₀ = 25, σ₀ = μ₀/3,
    /// β = σ₀/2) that Weng and Lin evaluated; a league's few dozen games per player give
    /// no data to tune them on, and keeping them keeps ratings comparable with other
    /// software on the same scale.
    pub fn standard() -> Params {
        Params { config: WengLinConfig::new(), initial: WengLinRating::new() }
    }

    /// A newcomer's rating (no game yet).
    pub fn initial_rating(&self) -> Rating {
        Rating { mu: self.initial.rating, sigma: self.initial.uncertainty, games: 0 }
    }
}

impl Default for Params {
    fn default() -> Self {
        Params::standard()
    }
}

/// A player's rating at one kind of game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// Estimated skill (the mean).
    pub mu: f64,
    /// Uncertainty of the estimate (the standard deviation); shrinks with every game.
    pub sigma: f64,
    /// Games rated.
    pub games: u32,
}

impl Rating {
    /// The conservative estimate shown and ranked on: μ − 3σ ([`DISPLAY_SIGMAS`]).
    pub fn display(&self) -> f64 {
        self.mu - DISPLAY_SIGMAS * self.sigma
    }

    pub(crate) fn weng_lin(&self) -> WengLinRating {
        WengLinRating { rating: self.mu, uncertainty: self.sigma }
    }
}

/// Why a game cannot be rated. The read side treats each as an event that does not fit
/// the history.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// A game is rated once, on its first report; later results are corrections.
    #[error("game {0} is already rated")]
    AlreadyRated(uuid::Uuid),
    /// A correction of a game that was never reported.
    #[error("game {0} has no rated result to correct")]
    NotRated(uuid::Uuid),
    /// The result cannot be turned into ranked teams.
    #[error("result cannot be rated: {0}")]
    Invalid(String),
    /// A correction of a game the ledger forgot (it keeps a window of recent results): its
    /// re-rating needs the complete ledger.
    #[error("game {0} is before the window of results kept in memory")]
    Forgotten(uuid::Uuid),
    /// The first results of the log cannot be forgotten there: the ledger already forgot
    /// more, or a later correction re-rates one of their games.
    #[error("the first {0} results cannot be forgotten")]
    CannotForget(usize),
    /// A kind holds as many players' games (or ratings) as a `u32` index names.
    #[error("too many rated games of one kind to index")]
    Capacity,
}
