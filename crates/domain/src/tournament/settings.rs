//! [`TournamentSettings`] and the small values tournament events carry: a roll-call answer,
//! a seeded board, a replacement player (`docs/tournaments.md`).

use chrono::{DateTime, Utc};
use league_scoring::{RoundScoring, ScoringSystem, TournamentScoring};
use serde::{Deserialize, Serialize};

use super::schedule::Schedule;
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
    /// Who may enter and when (`docs/tournaments.md#registration`); absent from a stored
    /// creation when every control is at its default (open, no window, no cap, no approval).
    #[serde(default, skip_serializing_if = "Registration::is_unrestricted")]
    pub registration: Registration,
    /// Dates, venue, time zone and check-in window (`docs/tournaments.md#times`); absent
    /// from a stored creation when nothing is set.
    #[serde(default, skip_serializing_if = "Schedule::is_unset")]
    pub schedule: Schedule,
    /// A result a seated player reports waits for another player of the board or a
    /// director to confirm it (`docs/tournaments.md#result-confirmation`); absent (off) in
    /// earlier logs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub confirm_player_results: bool,
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
            registration: Registration::default(),
            schedule: Schedule::default(),
            confirm_player_results: false,
        }
    }
}

/// A tournament's registration controls (`docs/tournaments.md#registration`): whether it is
/// closed, the window players enter themselves in, the cap beyond which entries join the
/// waitlist, and whether a player's entry is a request the organisers answer. The default is
/// today's tournament: open, no window, no cap, no approval.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    /// Players cannot enter themselves until an organiser opens registration.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub closed: bool,
    /// Players enter themselves from this instant on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opens_at: Option<DateTime<Utc>>,
    /// Players enter themselves until this instant (excluded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closes_at: Option<DateTime<Utc>>,
    /// Most active entrants; later entries join the waitlist in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_entrants: Option<u32>,
    /// A player's own entry is a request the organisers approve or decline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub approval: bool,
}

impl Registration {
    /// Every control at its default: anyone may enter at any time, without limit.
    pub fn is_unrestricted(&self) -> bool {
        *self == Registration::default()
    }

    /// Why a player entering themself at `now` is refused, if they are: registration is
    /// closed, or `now` is outside the window.
    pub fn refusal(&self, now: DateTime<Utc>) -> Option<String> {
        if self.closed {
            return Some("registration is closed".into());
        }
        if let Some(opens_at) = self.opens_at
            && now < opens_at
        {
            return Some(format!("registration opens at {}", opens_at.to_rfc3339()));
        }
        if let Some(closes_at) = self.closes_at
            && now >= closes_at
        {
            return Some(format!("registration closed at {}", closes_at.to_rfc3339()));
        }
        None
    }

    /// Whether `active` entrants fill the cap.
    pub fn is_full(&self, active: usize) -> bool {
        self.max_entrants.is_some_and(|cap| active >= cap as usize)
    }

    /// Places left under the cap with `active` entrants (`usize::MAX` without a cap).
    pub fn places_left(&self, active: usize) -> usize {
        self.max_entrants.map_or(usize::MAX, |cap| (cap as usize).saturating_sub(active))
    }
}

/// An organiser's change to the registration controls: each `Some` replaces its control
/// (`Some(None)` removes a window end or the cap), each `None` keeps it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegistrationChange {
    pub closed: Option<bool>,
    pub opens_at: Option<Option<DateTime<Utc>>>,
    pub closes_at: Option<Option<DateTime<Utc>>>,
    pub max_entrants: Option<Option<u32>>,
    pub approval: Option<bool>,
}

impl RegistrationChange {
    /// `current` with this change's controls replaced.
    pub fn applied_to(&self, current: Registration) -> Registration {
        Registration {
            closed: self.closed.unwrap_or(current.closed),
            opens_at: self.opens_at.unwrap_or(current.opens_at),
            closes_at: self.closes_at.unwrap_or(current.closes_at),
            max_entrants: self.max_entrants.unwrap_or(current.max_entrants),
            approval: self.approval.unwrap_or(current.approval),
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
