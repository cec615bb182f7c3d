//! The store's error boundary: one typed error for every way an append or a read can fail,
//! and the errors the group commit and both engines raise alike.

use std::sync::Arc;

use sea_orm::{DbErr, RuntimeErr, sqlx};

use crate::types::ExpectedVersion;

/// Everything that can go wrong at the event store's boundary. Input errors
/// ([`InvalidStreamId`](Self::InvalidStreamId), [`InvalidPayload`](Self::InvalidPayload),
/// [`InvalidEvent`](Self::InvalidEvent), [`EmptyAppend`](Self::EmptyAppend)) and
/// [`Conflict`](Self::Conflict) are raised before anything is written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A stream id that is empty, too long, or uses characters outside `[A-Za-z0-9_:.-]`.
    #[error("invalid stream id {stream_id:?}: {reason}")]
    InvalidStreamId { stream_id: String, reason: &'static str },
    /// An event payload that is not JSON.
    #[error("invalid event payload: {reason}")]
    InvalidPayload { reason: String },
    /// An event whose type name is empty or too long.
    #[error("invalid event: {reason}")]
    InvalidEvent { reason: String },
    /// `append` was called with no events.
    #[error("an append needs at least one event")]
    EmptyAppend,
    /// The stream's current version is not the one the caller expected (optimistic
    /// concurrency): nothing was written. `actual` is 0 when the stream has no events.
    #[error("version conflict: expected {expected}, stream is at version {actual}")]
    Conflict { expected: ExpectedVersion, actual: u64 },
    /// The URL names a database the store does not support (only SQLite and PostgreSQL).
    #[error("unsupported database URL {url:?}: use sqlite://… or postgres://…")]
    UnsupportedDatabase { url: String },
    /// A read replica was given for a database that is not PostgreSQL, or is not
    /// PostgreSQL itself (only a PostgreSQL hot standby can serve a PostgreSQL primary's reads).
    #[error(
        "unsupported read replica {url:?}: a read replica needs a postgres:// primary and a postgres:// standby"
    )]
    UnsupportedReplica { url: String },
    /// A stored row could not be decoded (e.g. its payload is no longer JSON): the log has
    /// been altered outside the store; `verify` names the first such position.
    #[error("event at position {position} is unreadable: {reason}")]
    Corrupt { position: u64, reason: String },
    /// The live feed's PostgreSQL listener failed.
    #[error("live feed listener: {0}")]
    Listener(String),
    /// The database refused or failed (connection lost, constraint, trigger…).
    #[error("database: {0}")]
    Database(#[from] sea_orm::DbErr),
}

/// A database driver's error as the store reports database errors.
pub(crate) fn database_error(error: sqlx::Error) -> StoreError {
    StoreError::Database(DbErr::Exec(RuntimeErr::SqlxError(Arc::new(error))))
}

/// The commit task ended without answering (it panicked): whether the append committed is
/// unknown, as after a lost connection.
pub(crate) fn lost() -> StoreError {
    StoreError::Database(DbErr::Custom(
        "the append's commit task ended without an answer; the append may or may not have \
         been committed"
            .into(),
    ))
}
