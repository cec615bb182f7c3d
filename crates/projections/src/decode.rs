//! Stored `(event_type, schema_version, payload)` to a typed [`DomainEvent`]: the domain's one
//! decoder ([`DomainEvent::decode`], with its upcasting hook), re-exported under the name the
//! read side uses, and applied to recorded events and to the store's raw rows.

use chrono::{DateTime, Utc};
pub use league_domain::PayloadSource;
use league_domain::{DomainEvent, EventDecodeError};
use league_store::{EventRow, RawEvent, RecordedEvent};

use crate::error::ProjectionError;

/// Decodes one stored event; refuses unknown types, schema versions without an upcast and
/// malformed payloads with a typed error.
pub fn decode_event(
    event_type: &str,
    schema_version: i64,
    payload: impl PayloadSource,
) -> Result<DomainEvent, EventDecodeError> {
    DomainEvent::decode(event_type, schema_version, payload)
}

/// Decodes one recorded event into its place in the log and its typed payload.
pub fn decode(recorded: &RecordedEvent) -> Result<(EventMeta, DomainEvent), ProjectionError> {
    decode_event(&recorded.event_type, recorded.schema_version.into(), &recorded.payload)
        .map(|event| (meta_of(recorded), event))
        .map_err(|source| ProjectionError::Decode { position: recorded.position, source })
}

/// A recorded event's place in the log.
pub(crate) fn meta_of(recorded: &RecordedEvent) -> EventMeta {
    EventMeta {
        position: recorded.position,
        stream_version: recorded.stream_version,
        recorded_at: recorded.recorded_at,
    }
}

/// Decodes one raw row of the store's streaming reads, straight from its payload's JSON
/// text: the database paths' one row decoder (whole-log fold, league, catalog, ratings).
pub(crate) fn decode_row(row: &EventRow) -> Result<(EventMeta, DomainEvent), ProjectionError> {
    decode_raw(row.event()?)
}

/// One row as the store lends it (a streaming read's row or a rebuild's scan) decoded into
/// its place in the log and its typed payload.
pub(crate) fn decode_raw(raw: RawEvent<'_>) -> Result<(EventMeta, DomainEvent), ProjectionError> {
    let meta = EventMeta {
        position: raw.position,
        stream_version: raw.stream_version,
        recorded_at: raw.recorded_at,
    };
    decode_event(raw.event_type, raw.schema_version.into(), raw.payload)
        .map(|event| (meta, event))
        .map_err(|source| ProjectionError::Decode { position: raw.position, source })
}

/// Position, stream version and commit time of an event being folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventMeta {
    pub position: u64,
    pub stream_version: u64,
    pub recorded_at: DateTime<Utc>,
}
