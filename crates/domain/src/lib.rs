//! Pure league domain: commands to events, invariants. No IO, no async.
//!
//! Two aggregates, each one event stream:
//! - [`Player`] (`player-<uuid>`): registration.
//! - [`League`] (`league-<uuid>`): settings, subscriptions, the stored schedule, results,
//!   corrections, completion.
//!
//! [`Aggregate::handle`] decides (`Result<Vec<DomainEvent>, DomainError>`, pure);
//! [`Aggregate::apply`] only folds. Facts from other aggregates come in a [`Context`]
//! filled by the application layer. [`DomainError::code`] maps each refusal to an API code.

mod aggregate;
mod commands;
mod context;
mod error;
mod events;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
mod ids;
mod league;
mod player;
pub mod rules;
mod scores;
mod seats;
mod settings;

pub use aggregate::Aggregate;
pub use commands::{
    CorrectResult, CreateLeague, LeagueCommand, PlayerCommand, RegisterPlayer, ReportResult,
    Subscribe, Unsubscribe,
};
pub use context::{Context, SubscriberFacts};
pub use error::{DomainError, ErrorCode};
pub use events::{
    DomainEvent, EventDecodeError, EventType, GameFinished, GameResultCorrected, GamesScheduled,
    LeagueCompleted, LeagueCreated, PayloadSource, PlayerRegistered, PlayerSubscribed,
    PlayerUnsubscribed, ScheduledGame, StreamKind, StreamRef, upcast,
};
pub use ids::{
    Actor, GameId, LEAGUE_STREAM_PREFIX, LeagueId, PLAYER_STREAM_PREFIX, ParseActorError, PlayerId,
    game_id, league_id_of_stream, league_stream_id, player_id_of_stream, player_key,
    player_stream_id,
};
pub use league::{Game, GameStatus, League, LeagueStatus, check_aggregation};
pub use player::Player;
pub use scores::{ScoreError, ScoredGames, ScoredResult, StandingRow};
pub use seats::{DIPLOMACY_POWERS, seat_label, seat_labels};
pub use settings::LeagueSettings;

#[cfg(test)]
mod tests;
