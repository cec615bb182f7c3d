//! Why a command is refused, and how each refusal maps onto an API error code, so the
//! gateway translates errors without knowing any rule.

use crate::ids::{BoardId, GameId, LeagueId, PlayerId, SeriesId, TournamentId, WebhookId};
use crate::league::status::LeagueStatus;

/// The API-level class of a refusal (GraphQL `extensions.code`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorCode {
    /// `BAD_USER_INPUT`, naming the offending input field (camelCase path, e.g. `result`).
    BadUserInput { field: String },
    /// `NOT_FOUND`.
    NotFound,
    /// `CONFLICT`: the request does not fit the current state.
    Conflict,
    /// `FORBIDDEN`: this actor may not do this.
    Forbidden,
    /// `INTERNAL`: a bug (e.g. the scheduler refusing a shape the domain accepted).
    Internal,
    /// `REPLICA_LAG`: the command is committed, but the read replica the gateway reads has
    /// not replayed it in time (never a refusal by the domain).
    ReplicaLag,
    /// `UNAVAILABLE`: the database is out of reach or read-only for a moment (a failover);
    /// the command may or may not have been committed, and a retry with the same
    /// idempotency key is safe (never a refusal by the domain).
    Unavailable,
}

impl ErrorCode {
    /// The GraphQL `extensions.code` string.
    pub fn as_str(&self) -> &'static str {
        match self {
            ErrorCode::BadUserInput { .. } => "BAD_USER_INPUT",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::ReplicaLag => "REPLICA_LAG",
            ErrorCode::Unavailable => "UNAVAILABLE",
        }
    }
}

/// A refused command. Nothing is appended when a command is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DomainError {
    /// The actor lacks a right; the message names the right (and the competition, where
    /// the right is about one).
    #[error("forbidden: {0}")]
    Forbidden(String),
    #[error("{field}: {message}")]
    InvalidInput { field: String, message: String },
    #[error("player {0} not found")]
    PlayerNotFound(PlayerId),
    #[error("league {0} not found")]
    LeagueNotFound(LeagueId),
    #[error("game {0} not found in this league")]
    GameNotFound(GameId),
    #[error("player {0} is already registered")]
    PlayerAlreadyRegistered(PlayerId),
    #[error("league {0} already exists")]
    LeagueAlreadyExists(LeagueId),
    #[error("player {0} is already subscribed to this league")]
    AlreadySubscribed(PlayerId),
    #[error("player {0} is not subscribed to this league")]
    NotSubscribed(PlayerId),
    #[error("the league is {0}, not open")]
    LeagueNotOpen(LeagueStatus),
    #[error("the league is full")]
    LeagueFull,
    #[error(
        "player {player_id} is not an active player: {finished_games} games finished in the \
         last 90 days, at least {required} needed"
    )]
    PlayerNotActive { player_id: PlayerId, finished_games: u32, required: u32 },
    #[error("game {0} already has a result; use a correction")]
    GameAlreadyFinished(GameId),
    #[error("game {0} has no result yet; report it instead of correcting")]
    GameNotFinished(GameId),
    #[error("tournament {0} not found")]
    TournamentNotFound(TournamentId),
    #[error("board {0} not found in this tournament")]
    BoardNotFound(BoardId),
    #[error("webhook {0} not found")]
    WebhookNotFound(WebhookId),
    #[error("series {0} not found")]
    SeriesNotFound(SeriesId),
    #[error("no league or tournament {0}")]
    CompetitionNotFound(uuid::Uuid),
    #[error("award {0} not found in this tournament")]
    AwardNotFound(u32),
    #[error("team {0} not found in this tournament")]
    TeamNotFound(u32),
    #[error("score adjustment {0} not found in this tournament")]
    AdjustmentNotFound(u32),
    #[error("passkey {0} not found")]
    PasskeyNotFound(uuid::Uuid),
    /// The request does not fit the competition's current state (the message says why).
    #[error("{0}")]
    Conflict(String),
    /// The round's roll call cannot be seated (the message names the shortfall).
    #[error("cannot seed the round: {0}")]
    CannotSeed(String),
    #[error("scheduling failed: {0}")]
    Scheduling(String),
    /// The history contradicts itself (e.g. a stored result that does not fit its game's
    /// seats): a bug or a tampered log, never the caller's fault.
    #[error("inconsistent history: {0}")]
    Inconsistent(String),
}

impl DomainError {
    pub(crate) fn forbidden(message: impl Into<String>) -> Self {
        DomainError::Forbidden(message.into())
    }

    pub(crate) fn conflict(message: impl Into<String>) -> Self {
        DomainError::Conflict(message.into())
    }

    /// A command naming a player whose personal data was erased
    /// (`docs/personal-data.md#erasure`): the same text wherever it is refused.
    pub fn erased(player: PlayerId) -> Self {
        DomainError::Conflict(format!("player {player} was erased"))
    }

    pub(crate) fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        DomainError::InvalidInput { field: field.into(), message: message.into() }
    }

    /// The offending field (a camelCase path, e.g. `result.players[3].centres`) and what is
    /// wrong with it, when the refusal is invalid input.
    pub fn invalid_input(&self) -> Option<(&str, &str)> {
        match self {
            DomainError::InvalidInput { field, message } => Some((field, message)),
            _ => None,
        }
    }

    /// The API error class of this refusal.
    pub fn code(&self) -> ErrorCode {
        match self {
            DomainError::Forbidden(_) => ErrorCode::Forbidden,
            DomainError::InvalidInput { field, .. } => {
                ErrorCode::BadUserInput { field: field.clone() }
            }
            DomainError::PlayerNotFound(_)
            | DomainError::LeagueNotFound(_)
            | DomainError::GameNotFound(_)
            | DomainError::TournamentNotFound(_)
            | DomainError::BoardNotFound(_)
            | DomainError::WebhookNotFound(_)
            | DomainError::PasskeyNotFound(_)
            | DomainError::SeriesNotFound(_)
            | DomainError::CompetitionNotFound(_)
            | DomainError::AwardNotFound(_)
            | DomainError::TeamNotFound(_)
            | DomainError::AdjustmentNotFound(_) => ErrorCode::NotFound,
            DomainError::PlayerAlreadyRegistered(_)
            | DomainError::LeagueAlreadyExists(_)
            | DomainError::AlreadySubscribed(_)
            | DomainError::NotSubscribed(_)
            | DomainError::LeagueNotOpen(_)
            | DomainError::LeagueFull
            | DomainError::PlayerNotActive { .. }
            | DomainError::GameAlreadyFinished(_)
            | DomainError::GameNotFinished(_)
            | DomainError::Conflict(_)
            | DomainError::CannotSeed(_) => ErrorCode::Conflict,
            DomainError::Scheduling(_) | DomainError::Inconsistent(_) => ErrorCode::Internal,
        }
    }
}
