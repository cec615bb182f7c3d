//! Stored `(event_type, schema_version, payload)` to a typed [`DomainEvent`]: the domain's one
//! decoder ([`DomainEvent::decode`], with its upcasting hook), re-exported under the name the
//! read side uses.

pub use league_domain::PayloadSource;
use league_domain::{DomainEvent, EventDecodeError};

/// Decodes one stored event; refuses unknown types, schema versions without an upcast and
/// malformed payloads with a typed error.
pub fn decode_event(
    event_type: &str,
    schema_version: i64,
    payload: impl PayloadSource,
) -> Result<DomainEvent, EventDecodeError> {
    DomainEvent::decode(event_type, schema_version, payload)
}
