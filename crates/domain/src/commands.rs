//! The commands: what a caller asks for. Each carries the [`Actor`] issuing it; ids are
//! chosen by the caller. Idempotency keys are the application layer's business.

use league_scoring::GameResult;

use crate::ids::{Actor, GameId, LeagueId, PlayerId, league_stream_id, player_stream_id};
use crate::settings::LeagueSettings;

/// Admin registers a player. The token itself never reaches the domain, only its hash.
#[derive(Debug, Clone, PartialEq)]
pub struct RegisterPlayer {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub name: String,
    pub token_hash: String,
}

/// Admin creates a league with `settings`, built with [`LeagueSettings::new`] (which applies
/// the documented defaults) and the caller's overrides; the handler validates them.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateLeague {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub settings: LeagueSettings,
}

/// A player joins an open league (themself; admin may subscribe anyone).
#[derive(Debug, Clone, PartialEq)]
pub struct Subscribe {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// A player leaves an open league (themself; admin may unsubscribe anyone).
#[derive(Debug, Clone, PartialEq)]
pub struct Unsubscribe {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// Admin or a player seated in the game reports its result.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportResult {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
}

/// Admin replaces the result of a finished game, giving a reason.
#[derive(Debug, Clone, PartialEq)]
pub struct CorrectResult {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
    pub reason: String,
}

/// Commands handled by the [`crate::Player`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerCommand {
    Register(RegisterPlayer),
}

/// Commands handled by the [`crate::League`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum LeagueCommand {
    Create(CreateLeague),
    Subscribe(Subscribe),
    Unsubscribe(Unsubscribe),
    ReportResult(ReportResult),
    CorrectResult(CorrectResult),
}

impl PlayerCommand {
    pub fn actor(&self) -> Actor {
        match self {
            PlayerCommand::Register(c) => c.actor,
        }
    }

    pub fn player_id(&self) -> PlayerId {
        match self {
            PlayerCommand::Register(c) => c.player_id,
        }
    }

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
        }
    }

    pub fn league_id(&self) -> LeagueId {
        match self {
            LeagueCommand::Create(c) => c.league_id,
            LeagueCommand::Subscribe(c) => c.league_id,
            LeagueCommand::Unsubscribe(c) => c.league_id,
            LeagueCommand::ReportResult(c) => c.league_id,
            LeagueCommand::CorrectResult(c) => c.league_id,
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
}

impl From<RegisterPlayer> for PlayerCommand {
    fn from(c: RegisterPlayer) -> Self {
        PlayerCommand::Register(c)
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
    CorrectResult => CorrectResult
);
