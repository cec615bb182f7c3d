//! The application's error boundary: domain refusals pass through with their own codes;
//! infrastructure failures are logged with a reference and shown only as "internal error".

use league_domain::{DomainError, ErrorCode};
use uuid::Uuid;

/// Why a command or query failed. Nothing is appended when a command fails.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AppError {
    /// The domain refused the command.
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// Input the application checks itself (e.g. an idempotency key).
    #[error("{field}: {message}")]
    InvalidInput { field: String, message: String },
    #[error("{0} not found")]
    NotFound(String),
    /// The caller's idempotency key was first used for another command: a key answers only
    /// a retry of the same command (`docs/api.md#idempotency-keys`).
    #[error(
        "idempotency key {key:?} was used for another command; send a new key with a new \
         command"
    )]
    IdempotencyKeyReused { key: String },
    /// The aggregate kept changing under the command for every attempt.
    #[error("{stream} kept changing while the command ran; try again")]
    Contention { stream: String },
    /// The command is committed at log position `position`, but the read replica this app
    /// reads has not replayed it within the replica lag timeout (it has applied up to
    /// `applied`): answering now would show state without the write. Not a failure of the
    /// write: reading again later, or from the primary, shows it.
    #[error(
        "the write is committed at log position {position}, but the read replica has not \
         caught up yet (applied up to {applied}); read again shortly"
    )]
    ReplicaLag { position: u64, applied: u64 },
    /// The database is out of reach or read-only for a moment (a primary lost, a failover
    /// under way): the command may or may not have been committed; a retry with the same
    /// idempotency key answers its first outcome or runs it once
    /// (`docs/operations.md#automatic-failover-pg_auto_failover`). The cause is in the log
    /// under `reference`.
    #[error(
        "the database is unavailable for a moment (a failover may be under way); retry with \
         the same idempotency key (reference {reference})"
    )]
    Unavailable { reference: Uuid },
    /// A failure of the database or of the platform itself; the cause is in the log under
    /// `reference`.
    #[error("internal error (reference {reference})")]
    Internal { reference: Uuid },
}

impl AppError {
    /// Logs `cause` under a fresh reference and returns the opaque internal error.
    pub fn internal(cause: impl std::fmt::Display) -> AppError {
        let reference = Uuid::now_v7();
        tracing::error!(%reference, %cause, "internal error");
        AppError::Internal { reference }
    }

    /// Logs `cause` (the database out of reach) under a fresh reference and returns the
    /// retryable [`AppError::Unavailable`].
    pub fn unavailable(cause: impl std::fmt::Display) -> AppError {
        let reference = Uuid::now_v7();
        tracing::warn!(%reference, %cause, "database unavailable");
        AppError::Unavailable { reference }
    }

    pub(crate) fn invalid(field: &str, message: impl Into<String>) -> AppError {
        AppError::InvalidInput { field: field.to_owned(), message: message.into() }
    }

    /// The offending field and what is wrong with it, when the error is invalid input (the
    /// domain's or the application's own).
    pub fn invalid_input(&self) -> Option<(&str, &str)> {
        match self {
            AppError::Domain(error) => error.invalid_input(),
            AppError::InvalidInput { field, message } => Some((field, message)),
            _ => None,
        }
    }

    /// The API error class (GraphQL `extensions.code`).
    pub fn code(&self) -> ErrorCode {
        match self {
            AppError::Domain(error) => error.code(),
            AppError::InvalidInput { field, .. } => {
                ErrorCode::BadUserInput { field: field.clone() }
            }
            AppError::NotFound(_) => ErrorCode::NotFound,
            AppError::Contention { .. } | AppError::IdempotencyKeyReused { .. } => {
                ErrorCode::Conflict
            }
            AppError::ReplicaLag { .. } => ErrorCode::ReplicaLag,
            AppError::Unavailable { .. } => ErrorCode::Unavailable,
            AppError::Internal { .. } => ErrorCode::Internal,
        }
    }
}

impl From<league_store::StoreError> for AppError {
    fn from(error: league_store::StoreError) -> Self {
        if error.is_unavailable() {
            return AppError::unavailable(error);
        }
        AppError::internal(error)
    }
}

impl From<league_projections::ProjectionError> for AppError {
    fn from(error: league_projections::ProjectionError) -> Self {
        if let league_projections::ProjectionError::Store(store) = &error
            && store.is_unavailable()
        {
            return AppError::unavailable(error);
        }
        AppError::internal(error)
    }
}
