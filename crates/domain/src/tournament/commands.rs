//! The commands of the [`crate::Tournament`] aggregate.

use league_scoring::GameResult;

use super::Tournament;
use super::awards::{ChangeBestCountryRule, GiveAward, RevokeAward};
use super::confirmation::{ConfirmBoardResult, DisputeBoardResult};
use super::pools::{RemoveRoundPool, SetRoundPool, SetRoundScoring};
use super::powers::{ChangePowerAssignment, ChoosePower, SetBoardPowers, SubmitPowerPreferences};
use super::progress::RecordBoardProgress;
use super::rulings::{
    AdjustScore, BreakTopBoardTie, ChangeKeepApart, RevokeScoreAdjustment, SetHandicap, SetUnranked,
};
use super::schedule::{RoundTimes, Schedule};
use super::settings::{Attendance, RegistrationChange, Replacement, TournamentSettings};
use super::teams::{
    AddTeamMember, ChangeTeamRules, CreateTeam, DissolveTeam, RemoveTeamMember, RenameTeam,
};
use crate::ids::{Actor, BoardId, PlayerId, TournamentId, tournament_stream_id};

/// An organiser of a tournament, or the site admin, makes another player co-organiser of it.
#[derive(Debug, Clone, PartialEq)]
pub struct AddTournamentCoOrganiser {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// The site admin or an organiser creates a tournament with `settings` (built with
/// [`TournamentSettings::new`] and the caller's overrides; the handler validates them).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTournament {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub settings: TournamentSettings,
}

/// A player enters the tournament (themself; the tournament's organisers and the site admin
/// anyone), before its last round is seeded. A player entering themself needs registration
/// open and within its window, and makes a request when entries need approval; an entry
/// beyond the cap joins the waitlist (`docs/tournaments.md#registration`).
#[derive(Debug, Clone, PartialEq)]
pub struct EnterTournament {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// A player withdraws (themself; the tournament's organisers and the site admin anyone) when not
/// seated in a round still being played; a player on the waitlist or with an entry request
/// gives up their place.
#[derive(Debug, Clone, PartialEq)]
pub struct WithdrawFromTournament {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// One of the tournament's organisers (or the site admin) changes its registration controls.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeTournamentRegistration {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub change: RegistrationChange,
}

/// One of the tournament's organisers (or the site admin) approves a player's entry request.
#[derive(Debug, Clone, PartialEq)]
pub struct ApproveTournamentEntry {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// One of the tournament's organisers (or the site admin) declines a player's entry request.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclineTournamentEntry {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// One of the tournament's organisers (or the site admin) undoes a player's withdrawal
/// before another round is seeded.
#[derive(Debug, Clone, PartialEq)]
pub struct UndoTournamentWithdrawal {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// A roll-call answer for the next round (the player themself; the tournament's organisers and the
/// site admin for anyone).
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerRollCall {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
    pub player_id: PlayerId,
    pub attendance: Attendance,
}

/// One of the tournament's organisers (or the site admin) seeds round `round` from its roll call.
/// `seed` drives the seeder's random choices (the application picks one);
/// `sitting_out`/`playing_twice` override the proposal.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedRound {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
    pub seed: u64,
    pub sitting_out: Option<Vec<PlayerId>>,
    pub playing_twice: Option<Vec<PlayerId>>,
}

/// One of the tournament's organisers (or the site admin) swaps two players of a seeded round
/// before any of its boards has a result.
#[derive(Debug, Clone, PartialEq)]
pub struct SwapRoundPlayers {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
    pub first: PlayerId,
    pub second: PlayerId,
    pub reason: String,
}

/// One of the tournament's organisers (or the site admin) or a player seated on the board
/// reports its result.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportBoardResult {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub result: GameResult,
    pub replacements: Vec<Replacement>,
}

/// One of the tournament's organisers (or the site admin) replaces a finished board's result,
/// giving a reason.
#[derive(Debug, Clone, PartialEq)]
pub struct CorrectBoardResult {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub result: GameResult,
    pub replacements: Vec<Replacement>,
    pub reason: String,
}

/// One of the tournament's organisers (or the site admin) replaces its dates, venue, time
/// zone and check-in window with `schedule` (`docs/tournaments.md#times`).
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeTournamentSchedule {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub schedule: Schedule,
}

/// One of the tournament's organisers (or the site admin) sets when round `round` is played,
/// before or after it is seeded.
#[derive(Debug, Clone, PartialEq)]
pub struct SetRoundTimes {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
    pub times: RoundTimes,
}

/// Commands handled by the [`crate::Tournament`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum TournamentCommand {
    Create(CreateTournament),
    Enter(EnterTournament),
    Withdraw(WithdrawFromTournament),
    AnswerRollCall(AnswerRollCall),
    SeedRound(SeedRound),
    Swap(SwapRoundPlayers),
    ReportResult(ReportBoardResult),
    CorrectResult(CorrectBoardResult),
    AddCoOrganiser(AddTournamentCoOrganiser),
    ChangeRegistration(ChangeTournamentRegistration),
    ApproveEntry(ApproveTournamentEntry),
    DeclineEntry(DeclineTournamentEntry),
    UndoWithdrawal(UndoTournamentWithdrawal),
    RecordProgress(RecordBoardProgress),
    ChangeSchedule(ChangeTournamentSchedule),
    SetRoundTimes(SetRoundTimes),
    ConfirmResult(ConfirmBoardResult),
    DisputeResult(DisputeBoardResult),
    ChangeBestCountryRule(ChangeBestCountryRule),
    GiveAward(GiveAward),
    RevokeAward(RevokeAward),
    ChangeTeamRules(ChangeTeamRules),
    CreateTeam(CreateTeam),
    RenameTeam(RenameTeam),
    DissolveTeam(DissolveTeam),
    AddTeamMember(AddTeamMember),
    RemoveTeamMember(RemoveTeamMember),
    ChangePowerAssignment(ChangePowerAssignment),
    SubmitPowerPreferences(SubmitPowerPreferences),
    SetBoardPowers(SetBoardPowers),
    ChoosePower(ChoosePower),
    SetRoundPool(SetRoundPool),
    RemoveRoundPool(RemoveRoundPool),
    SetRoundScoring(SetRoundScoring),
    AdjustScore(AdjustScore),
    RevokeScoreAdjustment(RevokeScoreAdjustment),
    SetHandicap(SetHandicap),
    SetUnranked(SetUnranked),
    ChangeKeepApart(ChangeKeepApart),
    BreakTopBoardTie(BreakTopBoardTie),
}

macro_rules! tournament_commands {
    ($($ty:ident => $variant:ident),*) => {
        impl TournamentCommand {
            pub fn actor(&self) -> Actor {
                match self {
                    $(TournamentCommand::$variant(c) => c.actor,)*
                }
            }

            pub fn tournament_id(&self) -> TournamentId {
                match self {
                    $(TournamentCommand::$variant(c) => c.tournament_id,)*
                }
            }
        }

        $(
            impl From<$ty> for TournamentCommand {
                fn from(c: $ty) -> Self {
                    TournamentCommand::$variant(c)
                }
            }
        )*
    };
}

tournament_commands!(
    CreateTournament => Create,
    EnterTournament => Enter,
    WithdrawFromTournament => Withdraw,
    AnswerRollCall => AnswerRollCall,
    SeedRound => SeedRound,
    SwapRoundPlayers => Swap,
    ReportBoardResult => ReportResult,
    CorrectBoardResult => CorrectResult,
    AddTournamentCoOrganiser => AddCoOrganiser,
    ChangeTournamentRegistration => ChangeRegistration,
    ApproveTournamentEntry => ApproveEntry,
    DeclineTournamentEntry => DeclineEntry,
    UndoTournamentWithdrawal => UndoWithdrawal,
    RecordBoardProgress => RecordProgress,
    ChangeTournamentSchedule => ChangeSchedule,
    SetRoundTimes => SetRoundTimes,
    ConfirmBoardResult => ConfirmResult,
    DisputeBoardResult => DisputeResult,
    ChangeBestCountryRule => ChangeBestCountryRule,
    GiveAward => GiveAward,
    RevokeAward => RevokeAward,
    ChangeTeamRules => ChangeTeamRules,
    CreateTeam => CreateTeam,
    RenameTeam => RenameTeam,
    DissolveTeam => DissolveTeam,
    AddTeamMember => AddTeamMember,
    RemoveTeamMember => RemoveTeamMember,
    ChangePowerAssignment => ChangePowerAssignment,
    SubmitPowerPreferences => SubmitPowerPreferences,
    SetBoardPowers => SetBoardPowers,
    ChoosePower => ChoosePower,
    SetRoundPool => SetRoundPool,
    RemoveRoundPool => RemoveRoundPool,
    SetRoundScoring => SetRoundScoring,
    AdjustScore => AdjustScore,
    RevokeScoreAdjustment => RevokeScoreAdjustment,
    SetHandicap => SetHandicap,
    SetUnranked => SetUnranked,
    ChangeKeepApart => ChangeKeepApart,
    BreakTopBoardTie => BreakTopBoardTie
);

impl TournamentCommand {
    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        tournament_stream_id(self.tournament_id())
    }

    /// The players the command would record something new about in `tournament` (its
    /// state before the command): the one entering, a new co-organiser, a roll-call
    /// answer's player, both players of a swap, replacement players, and everyone a seeding
    /// would seat or sit out. The application tells the handler which of them are not
    /// registered or were erased ([`crate::Context`]). A withdrawal and a change of the
    /// registration controls may free places: the waitlist, whose erased players are not
    /// promoted. A decline, and the seated players of a board's result, name nobody new.
    pub fn players_to_check(&self, tournament: &Tournament) -> Vec<PlayerId> {
        match self {
            TournamentCommand::Enter(c) => vec![c.player_id],
            TournamentCommand::ApproveEntry(c) => vec![c.player_id],
            TournamentCommand::UndoWithdrawal(c) => vec![c.player_id],
            TournamentCommand::Withdraw(_) | TournamentCommand::ChangeRegistration(_) => {
                tournament.waitlist().to_vec()
            }
            TournamentCommand::AddCoOrganiser(c) => vec![c.player_id],
            TournamentCommand::GiveAward(c) => vec![c.player_id],
            TournamentCommand::AddTeamMember(c) => vec![c.player_id],
            TournamentCommand::SubmitPowerPreferences(c) => {
                c.rankings.iter().map(|(player, _)| *player).collect()
            }
            TournamentCommand::AdjustScore(c) => vec![c.player_id],
            TournamentCommand::SetHandicap(c) => vec![c.player_id],
            TournamentCommand::SetUnranked(c) => vec![c.player_id],
            TournamentCommand::ChangeKeepApart(c) => vec![c.first, c.second],
            TournamentCommand::AnswerRollCall(c) => vec![c.player_id],
            TournamentCommand::Swap(c) => vec![c.first, c.second],
            TournamentCommand::SeedRound(c) => tournament.present(c.round),
            TournamentCommand::ReportResult(ReportBoardResult { replacements, .. })
            | TournamentCommand::CorrectResult(CorrectBoardResult { replacements, .. }) => {
                replacements.iter().map(|r| r.replacement).collect()
            }
            TournamentCommand::Create(_)
            | TournamentCommand::DeclineEntry(_)
            | TournamentCommand::RecordProgress(_)
            | TournamentCommand::ChangeSchedule(_)
            | TournamentCommand::SetRoundTimes(_)
            | TournamentCommand::ConfirmResult(_)
            | TournamentCommand::DisputeResult(_)
            | TournamentCommand::ChangeBestCountryRule(_)
            | TournamentCommand::RevokeAward(_)
            | TournamentCommand::ChangeTeamRules(_)
            | TournamentCommand::CreateTeam(_)
            | TournamentCommand::RenameTeam(_)
            | TournamentCommand::DissolveTeam(_)
            | TournamentCommand::RemoveTeamMember(_)
            | TournamentCommand::ChangePowerAssignment(_)
            | TournamentCommand::SetBoardPowers(_)
            | TournamentCommand::ChoosePower(_)
            | TournamentCommand::SetRoundPool(_)
            | TournamentCommand::RemoveRoundPool(_)
            | TournamentCommand::SetRoundScoring(_)
            | TournamentCommand::RevokeScoreAdjustment(_)
            | TournamentCommand::BreakTopBoardTie(_) => Vec::new(),
        }
    }
}
