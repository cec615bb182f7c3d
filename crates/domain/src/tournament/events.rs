//! The events of a tournament's stream (`tournament-<uuid>`): registration controls, entries,
//! requests and the waitlist, withdrawals, roll calls, seeded rounds, board results and
//! corrections, completion, co-organisers.

use league_scoring::{ConcessionRule, GameResult};
use serde::{Deserialize, Serialize};

pub use super::awards::{AwardGiven, AwardRevoked, BestCountryRuleChanged};
pub use super::confirmation::{BoardResultAwaitingConfirmation, BoardResultDisputed};
pub use super::pools::{RoundPoolRemoved, RoundPoolSet, RoundScoringSet};
pub use super::powers::{
    BoardPowerChoiceOpened, BoardPowersSet, PowerAssignmentChanged, PowerChosen,
    PowerPreferencesSubmitted,
};
pub use super::progress::BoardProgressRecorded;
pub use super::rulings::{
    EntrantRankingChanged, HandicapSet, KeepApartAdded, KeepApartRemoved, ScoreAdjusted,
    ScoreAdjustmentRevoked, TopBoardTieBroken,
};
use super::schedule::{RoundTimes, Schedule};
use super::settings::{Attendance, Registration, Replacement, SeededBoard, TournamentSettings};
pub use super::teams::{
    TeamCreated, TeamDissolved, TeamMemberAdded, TeamMemberRemoved, TeamRenamed, TeamRulesChanged,
};
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
    /// Boards 1..=`pool_boards` seat the round's pool
    /// (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`); absent (0) without one.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pool_boards: u32,
}

fn is_zero(count: &u32) -> bool {
    *count == 0
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
    /// Who confirmed a player's report, in a tournament that asks for confirmation
    /// (`docs/tournaments.md#result-confirmation`); absent otherwise, as in earlier logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmed_by: Option<Actor>,
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

/// An organiser changed the registration controls (`docs/tournaments.md#registration`):
/// `registration` is the whole set as it now stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentRegistrationChanged {
    pub tournament_id: TournamentId,
    pub registration: Registration,
    pub changed_by: Actor,
}

/// A player asked to enter a tournament whose entries the organisers approve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentEntryRequested {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub requested_by: Actor,
}

/// An organiser approved a player's request to enter (the entry or the waitlist place
/// follows it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentEntryApproved {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub approved_by: Actor,
}

/// An organiser declined a player's request to enter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentEntryDeclined {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub declined_by: Actor,
}

/// The tournament was full: the player joined the end of its waitlist.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentPlayerWaitlisted {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub waitlisted_by: Actor,
}

/// A place came free (a withdrawal, a higher cap): the first player on the waitlist entered,
/// appended with what freed the place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentPlayerPromoted {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// A player on the waitlist, or waiting for the organisers' answer, gave up their place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentEntryCancelled {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub cancelled_by: Actor,
}

/// An organiser undid a player's withdrawal before another round was seeded: the player is
/// an active entrant again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentWithdrawalUndone {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub undone_by: Actor,
}

/// An organiser changed the tournament's dates, venue, time zone or check-in window
/// (`docs/tournaments.md#times`): `schedule` is the whole of it as it now stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentScheduleChanged {
    pub tournament_id: TournamentId,
    pub schedule: Schedule,
    pub changed_by: Actor,
}

/// An organiser set when round `round` is played (before or after its seeding); the latest
/// times of a round count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundTimesSet {
    pub tournament_id: TournamentId,
    pub round: u32,
    #[serde(flatten)]
    pub times: RoundTimes,
    pub set_by: Actor,
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
                TournamentRegistrationChanged = "TournamentRegistrationChanged" version 1 in catalog,
                TournamentEntryRequested = "TournamentEntryRequested" version 1,
                TournamentEntryApproved = "TournamentEntryApproved" version 1,
                TournamentEntryDeclined = "TournamentEntryDeclined" version 1,
                TournamentPlayerWaitlisted = "TournamentPlayerWaitlisted" version 1,
                TournamentPlayerPromoted = "TournamentPlayerPromoted" version 1 in catalog,
                TournamentEntryCancelled = "TournamentEntryCancelled" version 1,
                TournamentWithdrawalUndone = "TournamentWithdrawalUndone" version 1,
                BoardProgressRecorded = "BoardProgressRecorded" version 1 notify [BoardProgress],
                TournamentScheduleChanged = "TournamentScheduleChanged" version 1 in catalog,
                RoundTimesSet = "RoundTimesSet" version 1,
                BoardResultAwaitingConfirmation = "BoardResultAwaitingConfirmation" version 1,
                BoardResultDisputed = "BoardResultDisputed" version 1,
                BestCountryRuleChanged = "BestCountryRuleChanged" version 1,
                AwardGiven = "AwardGiven" version 1 notify [AwardsChanged],
                AwardRevoked = "AwardRevoked" version 1 notify [AwardsChanged],
                TeamRulesChanged = "TeamRulesChanged" version 1,
                TeamCreated = "TeamCreated" version 1,
                TeamRenamed = "TeamRenamed" version 1,
                TeamDissolved = "TeamDissolved" version 1,
                TeamMemberAdded = "TeamMemberAdded" version 1,
                TeamMemberRemoved = "TeamMemberRemoved" version 1,
                PowerAssignmentChanged = "PowerAssignmentChanged" version 1,
                PowerPreferencesSubmitted = "PowerPreferencesSubmitted" version 1,
                BoardPowersSet = "BoardPowersSet" version 1,
                BoardPowerChoiceOpened = "BoardPowerChoiceOpened" version 1,
                PowerChosen = "PowerChosen" version 1,
                RoundPoolSet = "RoundPoolSet" version 1,
                RoundPoolRemoved = "RoundPoolRemoved" version 1,
                RoundScoringSet = "RoundScoringSet" version 1,
                ScoreAdjusted = "ScoreAdjusted" version 1 notify [StandingsChanged],
                ScoreAdjustmentRevoked = "ScoreAdjustmentRevoked" version 1 notify [StandingsChanged],
                HandicapSet = "HandicapSet" version 1 notify [StandingsChanged],
                EntrantRankingChanged = "EntrantRankingChanged" version 1 notify [StandingsChanged],
                KeepApartAdded = "KeepApartAdded" version 1,
                KeepApartRemoved = "KeepApartRemoved" version 1,
                TopBoardTieBroken = "TopBoardTieBroken" version 1 notify [StandingsChanged],
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
            | TournamentEvent::TournamentCoOrganiserAdded(_)
            | TournamentEvent::TournamentRegistrationChanged(_)
            | TournamentEvent::TournamentEntryRequested(_)
            | TournamentEvent::TournamentEntryApproved(_)
            | TournamentEvent::TournamentEntryDeclined(_)
            | TournamentEvent::TournamentPlayerWaitlisted(_)
            | TournamentEvent::TournamentPlayerPromoted(_)
            | TournamentEvent::TournamentEntryCancelled(_)
            | TournamentEvent::TournamentWithdrawalUndone(_)
            | TournamentEvent::BoardProgressRecorded(_)
            | TournamentEvent::TournamentScheduleChanged(_)
            | TournamentEvent::RoundTimesSet(_)
            | TournamentEvent::BoardResultAwaitingConfirmation(_)
            | TournamentEvent::BoardResultDisputed(_)
            | TournamentEvent::BestCountryRuleChanged(_)
            | TournamentEvent::AwardGiven(_)
            | TournamentEvent::AwardRevoked(_)
            | TournamentEvent::TeamRulesChanged(_)
            | TournamentEvent::TeamCreated(_)
            | TournamentEvent::TeamRenamed(_)
            | TournamentEvent::TeamDissolved(_)
            | TournamentEvent::TeamMemberAdded(_)
            | TournamentEvent::TeamMemberRemoved(_)
            | TournamentEvent::PowerAssignmentChanged(_)
            | TournamentEvent::PowerPreferencesSubmitted(_)
            | TournamentEvent::BoardPowersSet(_)
            | TournamentEvent::BoardPowerChoiceOpened(_)
            | TournamentEvent::PowerChosen(_)
            | TournamentEvent::RoundPoolSet(_)
            | TournamentEvent::RoundPoolRemoved(_)
            | TournamentEvent::RoundScoringSet(_)
            | TournamentEvent::ScoreAdjusted(_)
            | TournamentEvent::ScoreAdjustmentRevoked(_)
            | TournamentEvent::HandicapSet(_)
            | TournamentEvent::EntrantRankingChanged(_)
            | TournamentEvent::KeepApartAdded(_)
            | TournamentEvent::KeepApartRemoved(_)
            | TournamentEvent::TopBoardTieBroken(_) => {}
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
            | TournamentEvent::TournamentPlayerPromoted(_)
            | TournamentEvent::RoundSeeded(_)
            | TournamentEvent::RoundPlayersSwapped(_)
            | TournamentEvent::ScoreAdjusted(_)
            | TournamentEvent::ScoreAdjustmentRevoked(_)
            | TournamentEvent::HandicapSet(_)
            | TournamentEvent::EntrantRankingChanged(_)
            | TournamentEvent::TopBoardTieBroken(_) => Effects::MOVES_STANDINGS,
            TournamentEvent::TournamentCreated(_)
            | TournamentEvent::TournamentPlayerWithdrawn(_)
            | TournamentEvent::RollCallAnswered(_)
            | TournamentEvent::RoundCompleted(_)
            | TournamentEvent::TournamentCompleted(_)
            | TournamentEvent::TournamentCoOrganiserAdded(_)
            | TournamentEvent::TournamentRegistrationChanged(_)
            | TournamentEvent::TournamentEntryRequested(_)
            | TournamentEvent::TournamentEntryApproved(_)
            | TournamentEvent::TournamentEntryDeclined(_)
            | TournamentEvent::TournamentPlayerWaitlisted(_)
            | TournamentEvent::TournamentEntryCancelled(_)
            | TournamentEvent::TournamentWithdrawalUndone(_)
            | TournamentEvent::BoardProgressRecorded(_)
            | TournamentEvent::TournamentScheduleChanged(_)
            | TournamentEvent::RoundTimesSet(_)
            | TournamentEvent::BoardResultAwaitingConfirmation(_)
            | TournamentEvent::BoardResultDisputed(_)
            | TournamentEvent::BestCountryRuleChanged(_)
            | TournamentEvent::AwardGiven(_)
            | TournamentEvent::AwardRevoked(_)
            | TournamentEvent::TeamRulesChanged(_)
            | TournamentEvent::TeamCreated(_)
            | TournamentEvent::TeamRenamed(_)
            | TournamentEvent::TeamDissolved(_)
            | TournamentEvent::TeamMemberAdded(_)
            | TournamentEvent::TeamMemberRemoved(_)
            | TournamentEvent::PowerAssignmentChanged(_)
            | TournamentEvent::PowerPreferencesSubmitted(_)
            | TournamentEvent::BoardPowersSet(_)
            | TournamentEvent::BoardPowerChoiceOpened(_)
            | TournamentEvent::PowerChosen(_)
            | TournamentEvent::RoundPoolSet(_)
            | TournamentEvent::RoundPoolRemoved(_)
            | TournamentEvent::RoundScoringSet(_)
            | TournamentEvent::KeepApartAdded(_)
            | TournamentEvent::KeepApartRemoved(_) => Effects::NONE,
        }
    }
}
