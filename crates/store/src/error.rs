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
    /// The database refused or failed (constraint, trigger…).
    #[error("database: {0}")]
    Database(#[from] sea_orm::DbErr),
    /// The PostgreSQL server is out of reach or no longer takes writes: a lost connection,
    /// a refused one, a server shutting down, or a read-only answer (SQLSTATE 25006) from a
    /// primary demoted by a failover (`docs/operations.md#automatic-failover-pg_auto_failover`).
    /// A write may or may not have been committed: retrying it with the same idempotency key
    /// is safe, and a store given several hosts is meanwhile looking for the new primary.
    #[error("database unavailable (retry; a failover may be under way): {reason}")]
    Unavailable { reason: String },
}

impl StoreError {
    /// Whether the database was out of reach or read-only ([`StoreError::Unavailable`], or
    /// the same cause in an error of sea-orm's own queries): trying again later may succeed.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Unavailable { .. } => true,
            StoreError::Database(error) => db_unavailable(error),
            _ => false,
        }
    }
}

/// Whether a sea-orm error says the PostgreSQL server is out of reach or read-only.
fn db_unavailable(error: &DbErr) -> bool {
    match error {
        DbErr::ConnectionAcquire(_) => true,
        DbErr::Conn(RuntimeErr::SqlxError(error))
        | DbErr::Exec(RuntimeErr::SqlxError(error))
        | DbErr::Query(RuntimeErr::SqlxError(error)) => sqlx_unavailable(error),
        _ => false,
    }
}

/// Whether a sqlx error says the server is out of reach or cannot take the statement now.
fn sqlx_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(server) => server.code().is_some_and(|code| unavailable_state(&code)),
        _ => false,
    }
}

/// A database driver's error as the store reports database errors:
/// [`StoreError::Unavailable`] when the server is out of reach or read-only.
pub(crate) fn database_error(error: sqlx::Error) -> StoreError {
    if sqlx_unavailable(&error) {
        return StoreError::Unavailable { reason: error.to_string() };
    }
    StoreError::Database(DbErr::Exec(RuntimeErr::SqlxError(Arc::new(error))))
}

/// Whether a PostgreSQL SQLSTATE says the server cannot take the statement now, though
/// another server (or this one later) may: a connection exception (class 08), a server
/// shutting down or starting (57P01-57P03), or a read-only transaction (25006: a standby, or
/// a primary demoted by a failover). SQLite's codes are numbers and never match.
pub(crate) fn unavailable_state(code: &str) -> bool {
    code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03" | "25006")
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
