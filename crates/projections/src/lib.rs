//! Read models folded from the event log: leagues, games, standings, score history, player
//! activity, as-of views, and the persisted read-model tables with their replay.
//!
//! ```text
//! ReadModel::apply(&RecordedEvent) -> Applied      pure in-memory fold, one event at a time
//! fold_until(events, AsOf) / load_model(store, …)  the model at a point in history
//! Projector                                        keeps the rm_* tables in step (checkpointed)
//! replay(store, …)                                 rebuilds the rm_* tables from the log
//! ```
//!
//! The fold is written to be cheap, because replaying a long log is the audit path: events
//! are decoded straight from their stored JSON text into typed payloads (no intermediate
//! `serde_json::Value` on the database path), games are scored without explanation lines,
//! and standings are ranked lazily, once per league when asked for, never per event.

mod asof;
mod decode;
mod error;
mod model;
mod tables;

pub use asof::{AsOf, fold_until, load_model};
pub use decode::{PayloadSource, decode_event};
pub use error::ProjectionError;
pub use league_domain::{GameStatus, LeagueStatus};
pub use model::{
    Applied, EventMeta, GameView, LeagueView, PlayerView, ReadModel, ScoreChange, SeatView,
    StandingRow,
};
pub use tables::{
    FlushOutcome, Projector, ReplayReport, RowBatch, TableSnapshot, read_checkpoint, read_tables,
    replay,
};
