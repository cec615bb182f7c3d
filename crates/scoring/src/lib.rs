//! Pure scoring for the league platform: one function per scoring system named by the seeds,
//! plus the DAANZ standings tie-breakers (seed 001 parts 3–4) used to rank every league.
//!
//! No IO, no async. Player identities are opaque strings; scores are `f64` and nothing is
//! rounded except where a seed rule says so.
//!
//! Public contract (other crates build on these names; keep them stable):
//! - [`ScoringSystem`]: the systems, serialised with their CLI names.
//! - [`GameResult`]: one finished game as reported (placement, Diplomacy or team shape).
//! - [`score_game`]: validates and scores one game → [`ScoredGame`] (scores in input order).
//! - [`rank_standings`]: ranks players over many scored games with the tie-breakers.

use serde::{Deserialize, Serialize};

/// Every scoring system the platform knows. The serde names are the CLI names
/// (`placement`, `baf`, `detour98f`, `squares`, `bluemax`, `woodenships`, `woodenships-legacy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScoringSystem {
    #[serde(rename = "placement")]
    Placement,
    #[serde(rename = "baf")]
    Baf,
    #[serde(rename = "detour98f")]
    Detour98f,
    #[serde(rename = "squares")]
    Squares,
    #[serde(rename = "bluemax")]
    BlueMax,
    #[serde(rename = "woodenships")]
    WoodenShips,
    #[serde(rename = "woodenships-legacy")]
    WoodenShipsLegacy,
}

/// One finished game, as reported. Which variant a system accepts: placement → `Placement`;
/// baf, detour98f, squares → `Diplomacy`; bluemax, woodenships, woodenships-legacy → `Teams`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum GameResult {
    Placement(Vec<PlacementEntry>),
    Diplomacy(Vec<DiplomacyEntry>),
    Teams(TeamResult),
}

/// A player's final game points in an all-vs-all game (seed 002 placement scoring).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacementEntry {
    pub player: String,
    pub points: f64,
}

/// A Diplomacy power's end-of-game position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiplomacyEntry {
    pub player: String,
    pub centres: u32,
    /// No units left and only non-home centres (seed 000's "eliminated player").
    #[serde(default)]
    pub eliminated: bool,
    /// Game year in which the power was eliminated, if it was (Detour survival to 1905,
    /// and the "longest survival" game comparison).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eliminated_year: Option<i32>,
}

/// A team game (Blue Max, Wooden Ships & Iron Men).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamResult {
    /// Draw by mutual consent (Wooden Ships).
    #[serde(default)]
    pub draw: bool,
    pub sides: Vec<Side>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub name: String,
    pub players: Vec<TeamPlayer>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamPlayer {
    pub player: String,
    /// Personal score in the game.
    pub points: f64,
    /// Units the player started with (default 1).
    #[serde(default = "one")]
    pub units: u32,
    /// Own units lost.
    #[serde(default)]
    pub lost: u32,
    /// Enemy units destroyed.
    #[serde(default)]
    pub kills: u32,
    /// Wooden Ships: ships still afloat at the end (`None` = not reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ships_left: Option<u32>,
    #[serde(default)]
    pub surrendered: bool,
}

fn one() -> u32 {
    1
}

/// How a game ended for one player, for the standings tie-breakers (seed 001 part 4.1:
/// Win beats Draw beats Elimination beats Loss).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    Loss,
    Elimination,
    Draw,
    Win,
}

/// One player's league score for one game, with what the tie-breakers need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerGameScore {
    pub player: String,
    pub score: f64,
    pub outcome: Outcome,
    /// Human-readable lines that make up the score (`--explain`, audit).
    pub explanation: Vec<String>,
}

/// A validated, scored game: one entry per player, in the input order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoredGame {
    pub system: ScoringSystem,
    pub players: Vec<PlayerGameScore>,
}

/// A player's line in league standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    /// Competition rank: players still level after every tie-breaker share it (1, 2, 2, 4).
    pub rank: u32,
    pub player: String,
    pub total: f64,
    pub wins: u32,
    pub draws: u32,
    pub games: u32,
}

/// Why a result cannot be scored. Every variant names the offending field.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoringError {
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
}

/// Validates `result` for `system` and scores it (scores in input order).
pub fn score_game(system: ScoringSystem, result: &GameResult) -> Result<ScoredGame, ScoringError> {
    let _ = (system, result);
    todo!("issue 3")
}

/// Ranks players over scored games (seed 001 parts 3–4 tie-breakers), best first.
pub fn rank_standings(games: &[ScoredGame]) -> Vec<Standing> {
    let _ = games;
    todo!("issue 3")
}
