//! Pure league domain: commands to events, invariants. No IO, no async.
//!
//! The aggregates, each one event stream:
//! - [`Player`] (`player-<uuid>`): registration, token rotations and revocations, the
//!   organiser right, erasure (personal data is sealed: [`PersonalText`]).
//! - [`League`] (`league-<uuid>`): settings, subscriptions, the stored schedule, results,
//!   corrections, completion.
//! - [`Tournament`] (`tournament-<uuid>`): entries, roll calls, seeded rounds, board results
//!   and corrections, completion (`docs/tournaments.md`).
//! - [`Calendar`] (`calendar-<uuid>`, by player): the hash of the player's secret calendar
//!   feed, issued and rotated (`docs/feeds.md`).
//! - [`Webhook`] (`webhook-<uuid>`): an outbound feed's registration, pauses, resumptions and
//!   removal (`docs/webhooks.md`).
//!
//! [`Aggregate::handle`] decides (`Result<Vec<DomainEvent>, DomainError>`, pure);
//! [`Aggregate::apply`] only folds. Facts from other aggregates come in a [`Context`]
//! filled by the application layer. [`DomainError::code`] maps each refusal to an API code.

mod aggregate;
mod calendar;
mod commands;
mod context;
mod error;
mod events;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
mod ids;
mod league;
mod personal;
mod player;
mod rights;
pub mod rules;
mod scores;
mod seats;
mod settings;
mod tournament;
mod webhook;

pub use aggregate::Aggregate;
pub use calendar::{
    CALENDAR_STREAM_PREFIX, Calendar, CalendarCommand, RotateCalendarFeed, calendar_stream_id,
    player_id_of_calendar_stream,
};
pub use commands::{
    AddLeagueCoOrganiser, AddTournamentCoOrganiser, AnswerRollCall, AppointOrganiser,
    CorrectBoardResult, CorrectResult, CreateLeague, CreateTournament, DismissOrganiser,
    EnterTournament, ErasePlayer, LeagueCommand, PlayerCommand, RegisterPlayer, ReportBoardResult,
    ReportResult, RevokeToken, RotateToken, SeedRound, Subscribe, SwapRoundPlayers,
    TournamentCommand, Unsubscribe, WithdrawFromTournament,
};
pub use context::{Context, SubscriberFacts};
pub use error::{DomainError, ErrorCode};
pub use events::{
    BoardFinished, BoardResultCorrected, CalendarFeedIssued, CalendarFeedRotated, DomainEvent,
    EventDecodeError, EventType, GameFinished, GameResultCorrected, GamesScheduled,
    LeagueCoOrganiserAdded, LeagueCompleted, LeagueCreated, OrganiserAppointed, OrganiserDismissed,
    PayloadSource, PlayerErased, PlayerRegistered, PlayerSubscribed, PlayerUnsubscribed,
    RollCallAnswered, RoundCompleted, RoundPlayersSwapped, RoundSeeded, ScheduledGame, StreamKind,
    StreamRef, TokenRevoked, TokenRotated, TournamentCoOrganiserAdded, TournamentCompleted,
    TournamentCreated, TournamentPlayerEntered, TournamentPlayerWithdrawn, upcast,
};
pub use ids::{
    Actor, BoardId, GameId, LEAGUE_STREAM_PREFIX, LeagueId, PLAYER_STREAM_PREFIX, ParseActorError,
    PlayerId, TOURNAMENT_STREAM_PREFIX, TournamentId, board_id, game_id, league_id_of_stream,
    league_stream_id, player_id_of_stream, player_key, player_stream_id, tournament_id_of_stream,
    tournament_stream_id,
};
pub use league::{Game, GameStatus, League, LeagueStatus, check_aggregation};
pub use personal::{
    OpenError, PERSON_KEY_LEN, PersonKey, PersonalText, SEAL_NONCE_LEN, SealedText, key_owner,
    pseudonym,
};
pub use player::Player;
pub use rights::{Organisers, authorise_personal_data};
pub use scores::{ScoreError, ScoredGames, ScoredResult, StandingRow};
pub use seats::{DIPLOMACY_POWERS, seat_label, seat_labels};
pub use settings::LeagueSettings;
pub use tournament::{
    Attendance, Board, Entrant, MAX_ROUNDS, Replacement, ReplacementScores, Round, SeededBoard,
    SeedingCheck, Tournament, TournamentSettings, TournamentStatus,
};
pub use webhook::{
    MAX_WEBHOOK_COMPETITIONS, MAX_WEBHOOK_URL_CHARS, PauseWebhook, RegisterWebhook, RemoveWebhook,
    ResumeWebhook, WEBHOOK_STREAM_PREFIX, Webhook, WebhookCommand, WebhookFormat, WebhookId,
    WebhookKind, WebhookPaused, WebhookRegistered, WebhookRemoved, WebhookResumed, WebhookStatus,
    check_url as check_webhook_url, redact_urls, redacted_payload, url_host, webhook_id_of_stream,
    webhook_stream_id,
};

#[cfg(test)]
mod tests;
