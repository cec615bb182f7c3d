//! Stored `(event_type, schema_version, payload)` to a typed [`DomainEvent`], from either a
//! parsed JSON value (events handed out by the store) or the raw JSON text (the fast replay
//! path reads rows itself and never builds a `serde_json::Value`).

use league_domain::{DomainEvent, EVENT_TYPES, EventDecodeError, SCHEMA_VERSION};
use serde::de::DeserializeOwned;

/// Where a payload is decoded from.
pub trait PayloadSource {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error>;
}

impl PayloadSource for &serde_json::Value {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        T::deserialize(self)
    }
}

impl PayloadSource for &str {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self)
    }
}

/// Decodes one stored event; refuses unknown types and schema versions like
/// [`DomainEvent::from_stored`], without taking ownership of the payload.
pub fn decode_event(
    event_type: &str,
    schema_version: i64,
    payload: impl PayloadSource,
) -> Result<DomainEvent, EventDecodeError> {
    if !EVENT_TYPES.contains(&event_type) {
        return Err(EventDecodeError::UnknownType(event_type.to_owned()));
    }
    if schema_version != i64::from(SCHEMA_VERSION) {
        return Err(EventDecodeError::UnsupportedVersion {
            event_type: event_type.to_owned(),
            schema_version: u32::try_from(schema_version).unwrap_or(u32::MAX),
        });
    }
    let invalid =
        |source| EventDecodeError::InvalidPayload { event_type: event_type.to_owned(), source };
    Ok(match event_type {
        "PlayerRegistered" => DomainEvent::PlayerRegistered(payload.parse().map_err(invalid)?),
        "LeagueCreated" => DomainEvent::LeagueCreated(payload.parse().map_err(invalid)?),
        "PlayerSubscribed" => DomainEvent::PlayerSubscribed(payload.parse().map_err(invalid)?),
        "PlayerUnsubscribed" => DomainEvent::PlayerUnsubscribed(payload.parse().map_err(invalid)?),
        "GamesScheduled" => DomainEvent::GamesScheduled(payload.parse().map_err(invalid)?),
        "GameFinished" => DomainEvent::GameFinished(payload.parse().map_err(invalid)?),
        "GameResultCorrected" => {
            DomainEvent::GameResultCorrected(payload.parse().map_err(invalid)?)
        }
        "LeagueCompleted" => DomainEvent::LeagueCompleted(payload.parse().map_err(invalid)?),
        other => return Err(EventDecodeError::UnknownType(other.to_owned())),
    })
}
