//! The events of a tournament's stream (`tournament-<uuid>`): entries, roll calls, seeded rounds, board results and corrections, completion, co-organisers.

use league_scoring::{ConcessionRule, GameResult};
use serde::{Deserialize, Serialize};

use super::settings::{Attendance, Replacement, SeededBoard, TournamentSettings};
use crate::event_enum::aggregate_enum;
use crate::ids::{Actor, BoardId, PlayerId, TournamentId};
use crate::scores::Effects;

/// A player was made co-organiser of a tournament, like [`LeagueCoOrganiserAdded`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentCoOrganiserAdded {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub added_by: Actor,
}

/// A tournament was created with its fixed settings (`docs/tournaments.md`), flattened beside
/// its id like [`LeagueCreated`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentCreated {
    pub tournament_id: TournamentId,
    #[serde(flatten)]
    pub settings: TournamentSettings,
    /// The organiser who created it; absent when the site admin did, as in [`LeagueCreated`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<Actor>,
}

/// A player entered the tournament (before the last round is seeded: a late entry plays from
/// the next round seeded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentPlayerEntered {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub entered_by: Actor,
}

/// A player withdrew after `after_round` rounds: their scores stay, they are never seated
/// again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentPlayerWithdrawn {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub after_round: u32,
    pub withdrawn_by: Actor,
}

/// A player's answer to round `round`'s roll call (the latest answer counts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RollCallAnswered {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub player_id: PlayerId,
    #[serde(flatten)]
    pub attendance: Attendance,
    pub answered_by: Actor,
}

/// Round `round`'s boards, with what anyone needs to re-run the seeding from the log and get
/// the same boards (`docs/tournaments.md#seeding`): the seeder's version, its random seed
/// and the digest of its inputs, which the tournament's history before this event determines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundSeeded {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub boards: Vec<SeededBoard>,
    pub sitting_out: Vec<PlayerId>,
    pub playing_twice: Vec<PlayerId>,
    /// Board 1 is the top board (the best by standings play together).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub top_board: bool,
    pub algorithm: String,
    pub seed: u64,
    pub inputs_digest: String,
    pub repeat_score: u64,
    pub seat_repeats: u32,
    pub keep_apart_met: u32,
    pub seeded_by: Actor,
}

/// Before round `round` starts, two of its players exchanged places (seats, or a seat and
/// sitting out), with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundPlayersSwapped {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub first: PlayerId,
    pub second: PlayerId,
    pub reason: String,
    pub swapped_by: Actor,
}

/// A board's result as reported, like a league game's, with any replacement players who
/// finished a seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardFinished {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub result: GameResult,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<Replacement>,
    pub reported_by: Actor,
}

/// A finished board's result was replaced, with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardResultCorrected {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub result: GameResult,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<Replacement>,
    pub reason: String,
    pub corrected_by: Actor,
}

/// Every board of round `round` has a result (appended with the last one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundCompleted {
    pub tournament_id: TournamentId,
    pub round: u32,
}

/// The last round completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentCompleted {
    pub tournament_id: TournamentId,
}

/// The tournament's event types, one line each, like `player_events!`. Board results are at
/// version 2 since each system scores a concession as its own rule says ([`crate::upcast`]).
macro_rules! tournament_events {
    ([$next:ident $(, $rest:ident)*] $($groups:tt)*) => {
        $next! { [$($rest),*] $($groups)*
            Tournament(TournamentEvent, tournament_id) {
                TournamentCreated = "TournamentCreated" version 1 in catalog,
                TournamentPlayerEntered = "TournamentPlayerEntered" version 1 in catalog,
                TournamentPlayerWithdrawn = "TournamentPlayerWithdrawn" version 1,
                RollCallAnswered = "RollCallAnswered" version 1,
                RoundSeeded = "RoundSeeded" version 1 in catalog notify [RoundSeeded],
                RoundPlayersSwapped = "RoundPlayersSwapped" version 1,
                BoardFinished = "BoardFinished" version 2 notify [ResultReported, StandingsChanged],
                BoardResultCorrected = "BoardResultCorrected" version 2
                    notify [ResultCorrected, StandingsChanged],
                RoundCompleted = "RoundCompleted" version 1,
                TournamentCompleted = "TournamentCompleted" version 1 in catalog notify [LeagueCompleted],
                TournamentCoOrganiserAdded = "TournamentCoOrganiserAdded" version 1 in catalog,
            }
        }
    };
}
pub(crate) use tournament_events;
tournament_events! { [aggregate_enum] }

impl TournamentEvent {
    /// The steps of [`crate::upcast`] for a tournament's events: a version 1 `BoardFinished`
    /// or `BoardResultCorrected` was recorded when a concession was a solo in every system but
    /// Baf and Detour 98f, so it is marked [`ConcessionRule::Solo`]
    /// (`docs/scoring.md#draws-and-concessions`).
    pub(crate) fn upcast(&mut self, schema_version: i64) {
        match self {
            TournamentEvent::BoardFinished(BoardFinished { result, .. })
            | TournamentEvent::BoardResultCorrected(BoardResultCorrected { result, .. }) => {
                if schema_version == 1 {
                    result.set_concession_rule(ConcessionRule::Solo);
                }
            }
            TournamentEvent::TournamentCreated(_)
            | TournamentEvent::TournamentPlayerEntered(_)
            | TournamentEvent::TournamentPlayerWithdrawn(_)
            | TournamentEvent::RollCallAnswered(_)
            | TournamentEvent::RoundSeeded(_)
            | TournamentEvent::RoundPlayersSwapped(_)
            | TournamentEvent::RoundCompleted(_)
            | TournamentEvent::TournamentCompleted(_)
            | TournamentEvent::TournamentCoOrganiserAdded(_) => {}
        }
    }
}

impl TournamentEvent {
    /// What the event changes beyond the tournament's own state: its standings list every
    /// entrant, count sitting out and every board's result, so entries, seatings, swaps and
    /// results (with the result they record) move them.
    pub fn effects(&self) -> Effects<'_> {
        match self {
            TournamentEvent::BoardFinished(e) => {
                Effects::result(e.tournament_id.uuid(), e.board_id.uuid(), &e.result, false)
            }
            TournamentEvent::BoardResultCorrected(e) => {
                Effects::result(e.tournament_id.uuid(), e.board_id.uuid(), &e.result, true)
            }
            TournamentEvent::TournamentPlayerEntered(_)
            | TournamentEvent::RoundSeeded(_)
            | TournamentEvent::RoundPlayersSwapped(_) => Effects::MOVES_STANDINGS,
            TournamentEvent::TournamentCreated(_)
            | TournamentEvent::TournamentPlayerWithdrawn(_)
            | TournamentEvent::RollCallAnswered(_)
            | TournamentEvent::RoundCompleted(_)
            | TournamentEvent::TournamentCompleted(_)
            | TournamentEvent::TournamentCoOrganiserAdded(_) => Effects::NONE,
        }
    }
}
