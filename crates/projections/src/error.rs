//! The projections' error boundary.

use league_domain::EventDecodeError;
use league_store::StoreError;

/// Why an event could not be folded, or the log could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    /// A stored event is not a domain event this code understands.
    #[error("event at position {position}: {source}")]
    Decode {
        position: u64,
        #[source]
        source: EventDecodeError,
    },
    /// Events must be folded in increasing position order.
    #[error("event at position {got} arrived after position {after}")]
    OutOfOrder { after: u64, got: u64 },
    /// The event contradicts the events before it (e.g. a result for an unknown game): the
    /// log was not written by this platform's domain, or was altered.
    #[error("event at position {position} does not fit the history: {reason}")]
    Inconsistent { position: u64, reason: String },
    #[error("event store: {0}")]
    Store(#[from] StoreError),
}

impl ProjectionError {
    pub(crate) fn inconsistent(position: u64, reason: impl Into<String>) -> Self {
        ProjectionError::Inconsistent { position, reason: reason.into() }
    }
}
