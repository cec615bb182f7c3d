//! Read models folded from the event log: the catalog (every league's settings and roster,
//! every player), per-league models (games, standings, score history, player activity) and
//! as-of views. Every model is a fold of the log (`docs/architecture.md`); the things kept
//! beside it are snapshots, verifiable caches of the catalog's fold and of the ratings'.
//!
//! ```text
//! Catalog::apply / load_catalog(store, head)       leagues list, players, tokens, game → league
//! ReadModel::apply(&RecordedEvent) -> Applied      pure in-memory fold, one event at a time
//! load_league(store, id, until)                    one league's model from its own stream
//! fold_until(events, AsOf) / load_model(store, …)  the whole log at a point (replay, audit)
//! RatingsModel / load_ratings(store, last, …)      ratings across leagues, from the results
//! load_windowed_ratings(store, last, keep, …)      recent results only, from a ratings snapshot
//! rebuild(store, until, Keep, …) -> Rebuilt        the log read once: chain, model, ratings (replay)
//! ```
//!
//! The fold is written to be cheap, because replaying a long log is the audit path: events
//! are decoded straight from their stored JSON text into typed payloads (no intermediate
//! `serde_json::Value` on the database path), games are scored without explanation lines,
//! and standings are ranked lazily, once per league when asked for, never per event.

mod asof;
mod catalog;
mod decode;
mod error;
mod model;
mod players;
mod ratings;
mod ratings_snapshot;
mod rebuild;
mod sign_ins;

pub use asof::{AsOf, fold_until, load_league, load_model};
pub use catalog::{
    CATALOG_EVENT_TYPES, CATALOG_SNAPSHOT, CATALOG_SNAPSHOT_FORMAT, Catalog, CatalogSource,
    LeagueSummary, SeriesSummary, SnapshotCheck, SnapshotRejected, TournamentSummary,
    is_catalog_event, load_catalog, snapshot_of, verify_catalog_snapshot,
};
pub use decode::{EventMeta, PayloadSource, decode, decode_event};
pub use error::ProjectionError;
pub use league_domain::{GameStatus, LeagueStatus};
pub use league_ratings::{GameKind, LeaderboardRow, Rating, RatingChange};
pub use model::{Applied, GameView, LeagueView, ReadModel, ScoreChange, SeatView, StandingRow};
pub use players::{
    EXTERNAL_ID_FIELD, IDENTITY_SUBJECT_FIELD, LinkedIdentity, NAME_FIELD, PASSKEY_FIELD,
    PASSKEY_NAME_FIELD, Passkey, PersonKeys, PlayerView, erased_players, person_keys,
};
pub use ratings::{
    RATING_EVENT_TYPES, RATINGS_WINDOW, RatingsModel, RatingsQuestion, load_ratings,
};
pub use ratings_snapshot::{
    RATINGS_SNAPSHOT, RATINGS_SNAPSHOT_FORMAT, RatingsSource, fold_ratings, load_windowed_ratings,
    ratings_snapshot_of, verify_ratings_snapshot,
};
pub use rebuild::{
    Keep, RETIRE_AFTER, RatingsFold, RebuildError, RebuildFold, Rebuilt, RebuiltLeague, rebuild,
};
pub use sign_ins::{LinkView, SessionView, SignIns};
