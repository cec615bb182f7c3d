//! The commands: what a caller asks for. Each carries the [`Actor`] issuing it; ids are
//! chosen by the caller. Idempotency keys are the application layer's business.

use league_scoring::GameResult;

use crate::ids::{
    Actor, BoardId, GameId, LeagueId, PlayerId, TournamentId, league_stream_id, player_stream_id,
    tournament_stream_id,
};
use crate::settings::LeagueSettings;
use crate::tournament::{Attendance, Replacement, Tournament, TournamentSettings};

/// Admin registers a player. The token itself never reaches the domain, only its hash.
#[derive(Debug, Clone, PartialEq)]
pub struct RegisterPlayer {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub name: String,
    pub token_hash: String,
}

/// The site admin or an organiser creates a league with `settings`, built with
/// [`LeagueSettings::new`] (which applies the documented defaults) and the caller's overrides; the
/// handler validates them.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateLeague {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub settings: LeagueSettings,
}

/// A player joins an open league (themself; the league's organisers and the site admin anyone).
#[derive(Debug, Clone, PartialEq)]
pub struct Subscribe {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// A player leaves an open league (themself; the league's organisers and the site admin anyone).
#[derive(Debug, Clone, PartialEq)]
pub struct Unsubscribe {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// One of the league's organisers (or the site admin) or a player seated in the game reports its
/// result.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportResult {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
}

/// One of the league's organisers (or the site admin) replaces the result of a finished game,
/// giving a reason.
#[derive(Debug, Clone, PartialEq)]
pub struct CorrectResult {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
    pub reason: String,
}

/// A player replaces their own bearer token, or the site admin replaces anyone's (also one
/// that was revoked). Only the new token's hash reaches the domain.
#[derive(Debug, Clone, PartialEq)]
pub struct RotateToken {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub token_hash: String,
}

/// The site admin revokes a player's token.
#[derive(Debug, Clone, PartialEq)]
pub struct RevokeToken {
    pub actor: Actor,
    pub player_id: PlayerId,
}

/// The site admin appoints a player organiser (may create leagues and tournaments).
#[derive(Debug, Clone, PartialEq)]
pub struct AppointOrganiser {
    pub actor: Actor,
    pub player_id: PlayerId,
}

/// The site admin dismisses an organiser (they may no longer create competitions).
#[derive(Debug, Clone, PartialEq)]
pub struct DismissOrganiser {
    pub actor: Actor,
    pub player_id: PlayerId,
}

/// An organiser of a league, or the site admin, makes another player co-organiser of it.
#[derive(Debug, Clone, PartialEq)]
pub struct AddLeagueCoOrganiser {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// An organiser of a tournament, or the site admin, makes another player co-organiser of it.
#[derive(Debug, Clone, PartialEq)]
pub struct AddTournamentCoOrganiser {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// The site admin, or the player themself, erases the player's personal data
/// (`docs/personal-data.md`), saying why.
#[derive(Debug, Clone, PartialEq)]
pub struct ErasePlayer {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub reason: String,
}

/// Commands handled by the [`crate::Player`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerCommand {
    Register(RegisterPlayer),
    RotateToken(RotateToken),
    RevokeToken(RevokeToken),
    AppointOrganiser(AppointOrganiser),
    DismissOrganiser(DismissOrganiser),
    Erase(ErasePlayer),
}

/// Commands handled by the [`crate::League`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum LeagueCommand {
    Create(CreateLeague),
    Subscribe(Subscribe),
    Unsubscribe(Unsubscribe),
    ReportResult(ReportResult),
    CorrectResult(CorrectResult),
    AddCoOrganiser(AddLeagueCoOrganiser),
}

macro_rules! player_commands {
    ($($ty:ident => $variant:ident),*) => {
        impl PlayerCommand {
            pub fn actor(&self) -> Actor {
                match self {
                    $(PlayerCommand::$variant(c) => c.actor,)*
                }
            }

            pub fn player_id(&self) -> PlayerId {
                match self {
                    $(PlayerCommand::$variant(c) => c.player_id,)*
                }
            }
        }

        $(
            impl From<$ty> for PlayerCommand {
                fn from(c: $ty) -> Self {
                    PlayerCommand::$variant(c)
                }
            }
        )*
    };
}
player_commands!(
    RegisterPlayer => Register,
    RotateToken => RotateToken,
    RevokeToken => RevokeToken,
    AppointOrganiser => AppointOrganiser,
    DismissOrganiser => DismissOrganiser,
    ErasePlayer => Erase
);

impl PlayerCommand {
    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        player_stream_id(self.player_id())
    }
}

impl LeagueCommand {
    pub fn actor(&self) -> Actor {
        match self {
            LeagueCommand::Create(c) => c.actor,
            LeagueCommand::Subscribe(c) => c.actor,
            LeagueCommand::Unsubscribe(c) => c.actor,
            LeagueCommand::ReportResult(c) => c.actor,
            LeagueCommand::CorrectResult(c) => c.actor,
            LeagueCommand::AddCoOrganiser(c) => c.actor,
        }
    }

    pub fn league_id(&self) -> LeagueId {
        match self {
            LeagueCommand::Create(c) => c.league_id,
            LeagueCommand::Subscribe(c) => c.league_id,
            LeagueCommand::Unsubscribe(c) => c.league_id,
            LeagueCommand::ReportResult(c) => c.league_id,
            LeagueCommand::CorrectResult(c) => c.league_id,
            LeagueCommand::AddCoOrganiser(c) => c.league_id,
        }
    }

    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        league_stream_id(self.league_id())
    }

    /// The player whose existence and activity the [`crate::Context`] must describe
    /// (the one subscribing), if any.
    pub fn subscriber(&self) -> Option<PlayerId> {
        match self {
            LeagueCommand::Subscribe(c) => Some(c.player_id),
            _ => None,
        }
    }

    /// The players the command would record something new about (the one subscribing, a
    /// new co-organiser): the application tells the handler which of them are not
    /// registered or were erased ([`crate::Context`]). Leaving, and the results of games
    /// already scheduled, name nobody new.
    pub fn players_to_check(&self) -> Vec<PlayerId> {
        match self {
            LeagueCommand::Subscribe(c) => vec![c.player_id],
            LeagueCommand::AddCoOrganiser(c) => vec![c.player_id],
            _ => Vec::new(),
        }
    }
}

macro_rules! league_command_from {
    ($($ty:ident => $variant:ident),*) => {$(
        impl From<$ty> for LeagueCommand {
            fn from(c: $ty) -> Self {
                LeagueCommand::$variant(c)
            }
        }
    )*};
}
league_command_from!(
    CreateLeague => Create,
    Subscribe => Subscribe,
    Unsubscribe => Unsubscribe,
    ReportResult => ReportResult,
    CorrectResult => CorrectResult,
    AddLeagueCoOrganiser => AddCoOrganiser
);

/// The site admin or an organiser creates a tournament with `settings` (built with
/// [`TournamentSettings::new`] and the caller's overrides; the handler validates them).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTournament {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub settings: TournamentSettings,
}

/// A player enters the tournament (themself; the tournament's organisers and the site admin
/// anyone), before its last round is seeded.
#[derive(Debug, Clone, PartialEq)]
pub struct EnterTournament {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
}

/// A player withdraws (themself; the tournament's organisers and the site admin anyone) when not
/// seated in a round still being played.
#[derive(Debug, Clone, PartialEq)]
pub struct WithdrawFromTournament {
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
    AddTournamentCoOrganiser => AddCoOrganiser
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
    /// registered or were erased ([`crate::Context`]). A withdrawal, and the seated players
    /// of a board's result, name nobody new.
    pub fn players_to_check(&self, tournament: &Tournament) -> Vec<PlayerId> {
        match self {
            TournamentCommand::Enter(c) => vec![c.player_id],
            TournamentCommand::AddCoOrganiser(c) => vec![c.player_id],
            TournamentCommand::AnswerRollCall(c) => vec![c.player_id],
            TournamentCommand::Swap(c) => vec![c.first, c.second],
            TournamentCommand::SeedRound(c) => tournament.present(c.round),
            TournamentCommand::ReportResult(ReportBoardResult { replacements, .. })
            | TournamentCommand::CorrectResult(CorrectBoardResult { replacements, .. }) => {
                replacements.iter().map(|r| r.replacement).collect()
            }
            TournamentCommand::Create(_) | TournamentCommand::Withdraw(_) => Vec::new(),
        }
    }
}
