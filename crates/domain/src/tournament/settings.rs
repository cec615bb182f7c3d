//! [`TournamentSettings`] and the small values tournament events carry: a roll-call answer,
//! a seeded board, a replacement player (`docs/tournaments.md`).

use league_scoring::{RoundScoring, ScoringSystem, TournamentScoring};
use serde::{Deserialize, Serialize};

use crate::ids::{BoardId, PlayerId};

/// A tournament's fixed settings. The field order is the stored JSON's key order: keep it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentSettings {
    pub name: String,
    /// The board game played (e.g. "Diplomacy").
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_version: Option<String>,
    /// Scores each board (any system of the catalogue).
    pub scoring_system: ScoringSystem,
    /// k: seats per board (Diplomacy: 7, the seven powers).
    pub players_per_board: u32,
    /// Rounds planned.
    pub rounds: u32,
    /// A player's round score when they played two boards.
    pub round_scoring: RoundScoring,
    /// How round or board scores make the tournament total
    /// (`docs/tournaments.md#round-and-tournament-scoring`).
    pub tournament_scoring: TournamentScoring,
    /// Pairs never seated together unless impossible (`docs/tournaments.md#seeding`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keep_apart: Vec<[PlayerId; 2]>,
    /// Points for sitting a round out (0: none).
    #[serde(default)]
    pub sit_out_points: f64,
    /// Only the first round a player sits out scores [`Self::sit_out_points`].
    #[serde(default)]
    pub sit_out_points_once: bool,
    /// The last round's board 1 seats the best k by standings together.
    #[serde(default)]
    pub top_board_last_round: bool,
    /// Who scores a seat a replacement player finished.
    #[serde(default)]
    pub replacement_scores: ReplacementScores,
}

impl TournamentSettings {
    /// Settings with every optional setting at its documented default: sum of all rounds,
    /// best board counts, no keep-apart pairs, no sit-out points, no top board, the seated
    /// player scores a replaced seat.
    pub fn new(
        name: impl Into<String>,
        game: impl Into<String>,
        scoring_system: ScoringSystem,
        players_per_board: u32,
        rounds: u32,
    ) -> Self {
        TournamentSettings {
            name: name.into(),
            game: game.into(),
            game_version: None,
            scoring_system,
            players_per_board,
            rounds,
            round_scoring: RoundScoring::BestBoard,
            tournament_scoring: TournamentScoring::SumAllRounds,
            keep_apart: Vec::new(),
            sit_out_points: 0.0,
            sit_out_points_once: false,
            top_board_last_round: false,
            replacement_scores: ReplacementScores::default(),
        }
    }
}

/// Who scores a seat that a replacement player finished
/// (`docs/tournaments.md#replacements-standings-and-ratings`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReplacementScores {
    /// The player seated by the seeding (the default: the seat's result is theirs).
    #[default]
    SeatedPlayer,
    /// The replacement who finished the seat.
    Replacement,
}

/// A roll-call answer: present or not, and a present player's offers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attendance {
    pub present: bool,
    /// May sit out if the count needs it.
    #[serde(default)]
    pub standby: bool,
    /// Will play two boards if the count needs it.
    #[serde(default)]
    pub two_boards: bool,
}

/// One board of a seeded round: `seats[i]` is the player in seat i.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeededBoard {
    pub board_id: BoardId,
    pub number: u32,
    pub seats: Vec<PlayerId>,
}

/// A replacement player who finished the seat of `seated`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Replacement {
    pub seated: PlayerId,
    pub replacement: PlayerId,
}
