//! Application service: runs domain commands against the event store and serves the read
//! side: a small catalog of every league and player, and per-league models loaded on demand.
//!
//! ```text
//! App::open(url)          connect, migrate, fold the catalog, follow the live feed
//! App::connect(url, Some(standby_url), settings)   the same, reading the log from a
//!                         PostgreSQL hot standby; commands append to the primary
//! app.execute(cmd, opts)  aggregate (kept state + events since) → fill Context → handle
//!                         (rights first) → a used idempotency key answers its first outcome
//!                         if it was the same command, else is refused → append (expected
//!                         version; bounded retry on conflict)
//!                         → wait until the read side has applied it (read-your-writes)
//! app.catalog()           leagues list, players, token lookup, game → league (no IO)
//! app.league(id)          the league's model: cached, else folded from its stream
//! app.standings_as_of / league_as_of / events / subscribe
//! app.audit(id)           every event of a league with each score change explained
//! app.standings_under(id, system, as_of)   what-if standings under another system
//! app.standings_if(id, what_if, as_of)    the same under a WhatIf (system, aggregation,
//!                                         every concession under one rule)
//! app.rescore(id, what_if)                the same, as `league rescore` reports it
//! app.rating / rating_history / leaderboard   ratings across leagues and tournaments
//!                                         (loaded on first use)
//! app.tournament(id) / tournament_as_of / verify_seeding   a tournament folded from its
//!                                         stream (docs/tournaments.md)
//! app.personal_data(player)               everything held about a person (access request);
//!                                         names are sealed on registration, erasure
//!                                         deletes the key (docs/personal-data.md)
//! app.calendar_feed / calendar_entries     a player's secret feed and their games and
//!                                         boards as iCalendar events (docs/feeds.md)
//! app.walk_ins_preview / walk_ins        an organiser's list of people registered and
//!                                         entered at once (docs/tournaments.md)
//! app.sign_up / issue_invite            a person registers themself where the site
//!                                         allows it (docs/operations.md#sign-up)
//! app.league_export / tournament_export    a competition's standings and results as CSV
//!                                         or JSON (docs/feeds.md)
//! replay::rebuild / replay::fold_as_of    the log read once: chain walked, standings,
//!                                         ratings; .report (what `league replay` prints)
//! ```
//!
//! One background task follows `EventStore::subscribe` in position order: it folds each
//! event into the catalog and into that league's model if it is cached, publishes the
//! applied position on a `watch` channel (what `execute` and league loads wait on) and a
//! [`Notification`] per event on a broadcast channel. An event it cannot fold stops it and
//! [`App::failure`] reports why (the gateway's health turns not ready).
//!
//! With a read replica ([`App::connect`]) the follower, the catalog fold, league loads and
//! queries read the standby ([`App::reads`]); commands are decided and appended on the
//! primary ([`App::store`]) and then wait until the follower has read their last position
//! from the standby. If it has not within [`AppSettings::replica_lag_timeout`], the command
//! answers [`AppError::ReplicaLag`] (its write is committed) instead of stale data.

mod aggregates;
mod app;
mod audit;
mod calendar;
mod command;
mod describe;
mod error;
mod exports;
mod external_ids;
mod follow;
mod idempotency;
mod keep_apart;
mod live;
mod personal;
mod pool_exports;
mod powers;
mod ratings;
mod reads;
pub mod replay;
mod rescore;
mod series;
mod shared;
mod sign_up;
mod snapshot;
mod teams;
mod tournaments;
mod walk_ins;

pub use app::{
    App, AppSettings, CACHE_LEAGUES_ENV, CatalogGuard, CommandOptions, DEFAULT_CACHE_LEAGUES,
    DEFAULT_REPLICA_LAG_TIMEOUT, Executed, MAX_ATTEMPTS, cache_leagues_from_env,
};
pub use audit::{AuditEntry, PlayerAudit, ResultAudit, WhatIf};
pub use calendar::{CalendarEntry, calendar_ics};
pub use command::AppCommand;
pub use describe::{NamePlayer, points};
pub use error::AppError;
pub use exports::{
    CompetitionExport, CompetitionKind, ExportTable, ExportedCompetition, ResultExport,
    StandingExport,
};
pub use external_ids::ExternalIds;
pub use keep_apart::KeepApartEntry;
pub use league_domain::ErrorCode;
pub use league_projections::{
    AsOf, Catalog, CatalogSource, LeagueSummary, ReadModel, SeriesSummary, SnapshotRejected,
    StandingRow,
};
pub use live::StandingsWatch;
pub use personal::{
    EventData, ExternalIdData, GameData, LeagueData, PasskeyData, PersonalData, RatingData,
    TournamentData,
};
pub use powers::{PowerPreferenceRow, power_preferences_csv};
pub use ratings::RatingChangeView;
pub use reads::{AuditPage, AuditScope};
pub use rescore::{RescoreReport, RescoredStanding};
pub use series::{
    ExportedSeries, ExportedSeriesEvent, SeriesExport, SeriesMember, SeriesResultExport,
    SeriesStandingExport, SeriesTable,
};
pub use shared::Notification;
pub use sign_up::{IssuedInvite, SignedUp};
pub use snapshot::SNAPSHOT_GROWTH;
pub use teams::{TeamStandingExport, team_rules_words};
pub use tournaments::BoardOfPlayer;
pub use walk_ins::{
    ExternalId, LineProblem, MAX_WALK_INS, NewToken, PlayerMatch, PreviewLine, UseExisting,
    WalkInLine, WalkInList, WalkInPreview, WalkedIn, comparable_name, parse_walk_ins,
};
