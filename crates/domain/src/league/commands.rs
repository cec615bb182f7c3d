//! The commands of the [`crate::League`] aggregate.

use league_scoring::GameResult;

use crate::ids::{Actor, GameId, LeagueId, PlayerId, league_stream_id};
use crate::settings::LeagueSettings;

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

/// An organiser of a league, or the site admin, makes another player co-organiser of it.
#[derive(Debug, Clone, PartialEq)]
pub struct AddLeagueCoOrganiser {
    pub actor: Actor,
    pub league_id: LeagueId,
    pub player_id: PlayerId,
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
            LeagueCommand::Create(_)
            | LeagueCommand::Unsubscribe(_)
            | LeagueCommand::ReportResult(_)
            | LeagueCommand::CorrectResult(_)
            | LeagueCommand::AddCoOrganiser(_) => None,
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
            LeagueCommand::Create(_)
            | LeagueCommand::Unsubscribe(_)
            | LeagueCommand::ReportResult(_)
            | LeagueCommand::CorrectResult(_) => Vec::new(),
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
