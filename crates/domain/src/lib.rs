//! Pure league domain: commands to events, invariants. No IO, no async.
//!
//! The aggregates, each one event stream and one room (a module holding its commands, its
//! events with the list of their stored types, `handle` and `apply`):
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
//! - [`Series`] (`series-<uuid>`): a series of tournaments and leagues, its best-N rule and
//!   members (`docs/series.md`).
//!
//! [`Aggregate::handle`] decides (`Result<Vec<Self::Event>, DomainError>`, pure) and
//! [`Aggregate::apply`] only folds, both over the aggregate's own event enum
//! ([`PlayerEvent`], [`LeagueEvent`], [`TournamentEvent`], [`CalendarEvent`],
//! [`WebhookEvent`]); the log stores them in the [`DomainEvent`] envelope. Facts from other aggregates come in a [`Context`]
//! filled by the application layer. [`DomainError::code`] maps each refusal to an API code.

mod aggregate;
mod calendar;
mod context;
mod error;
mod event_enum;
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
mod series;
mod settings;
mod tournament;
mod webhook;

pub use aggregate::{Aggregate, Decision};
pub use calendar::{
    Calendar, CalendarCommand, CalendarEvent, CalendarFeedIssued, CalendarFeedRotated,
    RotateCalendarFeed,
};
pub use context::{Context, InviteFacts, SubscriberFacts};
pub use error::{DomainError, ErrorCode};
pub use events::{
    AggregateEvent, DomainEvent, EventDecodeError, EventType, PayloadSource, StreamKind, StreamRef,
    upcast,
};
pub use ids::{
    Actor, BoardId, CALENDAR_STREAM_PREFIX, GameId, LEAGUE_STREAM_PREFIX, LeagueId,
    PLAYER_STREAM_PREFIX, ParseActorError, PlayerId, SERIES_STREAM_PREFIX, SeriesId,
    TOURNAMENT_STREAM_PREFIX, TournamentId, WEBHOOK_STREAM_PREFIX, WebhookId, board_id,
    calendar_stream_id, game_id, league_id_of_stream, league_stream_id,
    player_id_of_calendar_stream, player_id_of_stream, player_key, player_stream_id,
    series_id_of_stream, series_stream_id, tournament_id_of_stream, tournament_stream_id,
    webhook_id_of_stream, webhook_stream_id,
};
pub use league::{
    AddLeagueCoOrganiser, CorrectResult, CreateLeague, GameFinished, GameResultCorrected,
    GamesScheduled, LeagueCoOrganiserAdded, LeagueCommand, LeagueCompleted, LeagueCreated,
    LeagueEvent, PlayerSubscribed, PlayerUnsubscribed, ReportResult, ScheduledGame, Subscribe,
    Unsubscribe,
};
pub use league::{Game, GameStatus, League, LeagueStatus, check_aggregation};
pub use league_scoring::SeriesBasis;
pub use personal::{
    OpenError, PERSON_KEY_LEN, PersonKey, PersonalText, SEAL_NONCE_LEN, SealedText, pseudonym,
};
pub use player::Player;
pub use player::{AddPasskey, MAX_PASSKEYS, PasskeyAdded, PasskeyRemoved, RemovePasskey};
pub use player::{
    AllSessionsEnded, AppointOrganiser, DismissOrganiser, EndAllSessions, EndSession, ErasePlayer,
    IdentityLinked, IdentityUnlinked, IssueSignInLink, LinkIdentity, MAX_DEVICE_LABEL_LEN,
    MAX_SIGN_IN_LINK_DAYS, OrganiserAppointed, OrganiserDismissed, PlayerCommand, PlayerErased,
    PlayerEvent, PlayerRegistered, RegisterPlayer, RenewSession, RevokeToken, RotateToken,
    SessionEnded, SessionRenewed, SessionStarted, SignInLinkIssued, SignInMethod, StartSession,
    TokenRevoked, TokenRotated, UnlinkIdentity, key_owner,
};
pub use player::{
    ChangePermanentKeepApart, ExternalIdRecorded, KEEP_APART_REASON_FIELD, MAX_EXTERNAL_ID_CHARS,
    MAX_PERMANENT_KEEP_APART, PermanentKeepApart, PermanentKeepApartAdded,
    PermanentKeepApartRemoved, RecordExternalId, WDR, check_external_id, check_external_system,
};
pub use player::{
    InviteIssued, InviteRevoked, IssueInvite, MAX_INVITE_DAYS, RevokeInvite, SignUpPlayer,
    SignUpPolicy,
};
pub use rights::{Organisers, authorise_organisers_only, authorise_personal_data};
pub use scores::{Effects, RecordedResult, ScoreError, ScoredGames, ScoredResult, StandingRow};
pub use seats::{DIPLOMACY_POWERS, seat_label, seat_labels};
pub use series::{
    AddSeriesEvent, ChangeSeriesSettings, CreateSeries, MAX_SERIES_BEST, MAX_SERIES_EVENTS,
    MAX_SERIES_NAME_CHARS, RemoveSeriesEvent, Series, SeriesCommand, SeriesCreated, SeriesEvent,
    SeriesEventAdded, SeriesEventRemoved, SeriesSettings, SeriesSettingsChanged,
};
pub use settings::LeagueSettings;
pub use tournament::{
    AddTeamMember, ChangeTeamRules, CreateTeam, DissolveTeam, RemoveTeamMember, RenameTeam, Team,
    TeamCreated, TeamDissolved, TeamMemberAdded, TeamMemberRemoved, TeamRenamed, TeamRules,
    TeamRulesChanged, TeamScore, TeamScoreBasis, TeamStanding, rank_teams,
};
pub use tournament::{
    AddTournamentCoOrganiser, AnswerRollCall, ApproveTournamentEntry, Attendance, Board,
    BoardFinished, BoardResultAwaitingConfirmation, BoardResultCorrected, BoardResultDisputed,
    ChangeTournamentRegistration, ConfirmBoardResult, CorrectBoardResult, CreateTournament,
    DeclineTournamentEntry, DisputeBoardResult, EnterTournament, Entrant, MAX_ROUNDS,
    PendingResult, Registration, RegistrationChange, Replacement, ReplacementScores,
    ReportBoardResult, RollCallAnswered, Round, RoundCompleted, RoundPlayersSwapped, RoundSeeded,
    SeedRound, SeededBoard, SeedingCheck, SwapRoundPlayers, Tournament, TournamentCoOrganiserAdded,
    TournamentCommand, TournamentCompleted, TournamentCreated, TournamentEntryApproved,
    TournamentEntryCancelled, TournamentEntryDeclined, TournamentEntryRequested, TournamentEvent,
    TournamentPlayerEntered, TournamentPlayerPromoted, TournamentPlayerWaitlisted,
    TournamentPlayerWithdrawn, TournamentRegistrationChanged, TournamentSettings, TournamentStatus,
    TournamentWithdrawalUndone, UndoTournamentWithdrawal, WithdrawFromTournament,
};
pub use tournament::{
    AdjustScore, Adjustment, AdjustmentTarget, BreakTopBoardTie, ChangeKeepApart,
    EntrantRankingChanged, Handicap, HandicapSet, KeepApartAdded, KeepApartRemoved,
    MAX_RULING_POINTS, RevokeScoreAdjustment, RulingKind, RulingLine, ScoreAdjusted,
    ScoreAdjustmentRevoked, SetHandicap, SetUnranked, TopBoardTieBroken,
};
pub use tournament::{
    Award, AwardGiven, AwardRevoked, BestCountryRule, BestCountryRuleChanged,
    ChangeBestCountryRule, CountryLeader, GiveAward, PowerBest, RevokeAward,
};
pub use tournament::{
    BoardPowerChoiceOpened, BoardPowersSet, ChangePowerAssignment, ChoosePower, PowerAssignment,
    PowerAssignmentChanged, PowerAssignmentRule, PowerChoice, PowerChosen,
    PowerPreferencesSubmitted, SetBoardPowers, SubmitPowerPreferences,
};
pub use tournament::{
    BoardProgress, BoardProgressRecorded, ProgressYear, RecordBoardProgress, RollCallProposal,
};
pub use tournament::{
    ChangeTournamentSchedule, RoundTimes, RoundTimesSet, Schedule, SetRoundTimes,
    TournamentScheduleChanged, Venue,
};
pub use tournament::{
    PoolPlayers, RemoveRoundPool, RoundPool, RoundPoolRemoved, RoundPoolSet, RoundScoringSet,
    ScoreMultiplier, SeatedPool, SetRoundPool, SetRoundScoring, is_pool_note,
};
pub use webhook::{
    MAX_WEBHOOK_COMPETITIONS, MAX_WEBHOOK_URL_CHARS, PauseWebhook, RegisterWebhook, RemoveWebhook,
    ResumeWebhook, Webhook, WebhookCommand, WebhookEvent, WebhookFormat, WebhookKind,
    WebhookPaused, WebhookRegistered, WebhookRemoved, WebhookResumed, WebhookStatus,
    check_url as check_webhook_url, redact_urls, redacted_payload, url_host,
};

#[cfg(test)]
mod tests;
