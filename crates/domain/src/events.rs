//! The domain events: what happened, as stored in the event log.
//!
//! Each event has a stable `event_type()` name and a `schema_version()`; the store persists
//! `(event_type, schema_version, payload)` with a camelCase JSON payload, and
//! [`DomainEvent::decode`] — the platform's one decoder, driven by the exhaustive
//! [`EventType`] — turns such a triple back into a typed event, upcasting older schema
//! versions ([`upcast`]) and refusing unknown types and versions with a typed error.

use league_scoring::{Aggregation, GameResult, ScoringSystem};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::ids::{Actor, GameId, LeagueId, PlayerId, league_stream_id, player_stream_id};

/// A player joined the platform. The gateway stores only a hash of the player's bearer token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerRegistered {
    pub player_id: PlayerId,
    pub name: String,
    pub token_hash: String,
}

/// A league was created with its fixed settings (`docs/scheduling.md#league-life-cycle`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueCreated {
    pub league_id: LeagueId,
    pub name: String,
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_version: Option<String>,
    pub scoring_system: ScoringSystem,
    /// k: seats per game.
    pub players_per_game: u32,
    /// N: players in the league (8 by default).
    pub size: u32,
    /// s: times each player takes each seat (games per player = k·s, total games = N·s).
    pub games_per_seat: u32,
    /// The "active player" eligibility (`docs/scheduling.md#league-life-cycle`) (≥ 5 games finished
    /// in the last 90 days).
    pub require_active_players: bool,
    /// How game scores make the standings total (`docs/scoring.md#league-aggregation`). Left
    /// out of the JSON when it is the default (sum), so leagues created before the setting
    /// existed read and hash exactly as they did.
    #[serde(default, skip_serializing_if = "Aggregation::is_sum")]
    pub aggregation: Aggregation,
}

/// A player joined a league that is still open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerSubscribed {
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// A player left a league that is still open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerUnsubscribed {
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// One game of the schedule: its number (1-based), derived id, and the player in each seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledGame {
    pub game_id: GameId,
    pub number: u32,
    /// `seats[i]` is the player in seat i (see [`crate::seat_labels`]).
    pub seats: Vec<PlayerId>,
}

/// Every game of the league, appended together with the subscription that filled it.
/// The schedule is stored, never recomputed on replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GamesScheduled {
    pub league_id: LeagueId,
    pub games: Vec<ScheduledGame>,
}

/// A game's result as reported (player strings are the players' UUID strings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFinished {
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
    pub reported_by: Actor,
}

/// A finished game's result was replaced, with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameResultCorrected {
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
    pub reason: String,
    pub corrected_by: Actor,
}

/// The last game of the league finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueCompleted {
    pub league_id: LeagueId,
}

/// Every event of the platform.
#[derive(Debug, Clone, PartialEq)]
pub enum DomainEvent {
    PlayerRegistered(PlayerRegistered),
    LeagueCreated(LeagueCreated),
    PlayerSubscribed(PlayerSubscribed),
    PlayerUnsubscribed(PlayerUnsubscribed),
    GamesScheduled(GamesScheduled),
    GameFinished(GameFinished),
    GameResultCorrected(GameResultCorrected),
    LeagueCompleted(LeagueCompleted),
}

/// Current schema version of every event payload. An older version is upcast to this one by
/// [`upcast`] before it is decoded.
pub const SCHEMA_VERSION: u32 = 1;

/// Every kind of event, one per [`DomainEvent`] variant: the stored `event_type` column.
/// Matching on it is exhaustive, so a new event type is a compile error wherever it must be
/// handled (decoding, folding, notifications), never a forgotten string arm; [`Self::ALL`] is
/// derived from the declaration, so no list of types is kept by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, strum::VariantArray)]
pub enum EventType {
    PlayerRegistered,
    LeagueCreated,
    PlayerSubscribed,
    PlayerUnsubscribed,
    GamesScheduled,
    GameFinished,
    GameResultCorrected,
    LeagueCompleted,
}

impl EventType {
    /// Every event type, in declaration order.
    pub const ALL: &'static [EventType] = <EventType as strum::VariantArray>::VARIANTS;

    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            EventType::PlayerRegistered => "PlayerRegistered",
            EventType::LeagueCreated => "LeagueCreated",
            EventType::PlayerSubscribed => "PlayerSubscribed",
            EventType::PlayerUnsubscribed => "PlayerUnsubscribed",
            EventType::GamesScheduled => "GamesScheduled",
            EventType::GameFinished => "GameFinished",
            EventType::GameResultCorrected => "GameResultCorrected",
            EventType::LeagueCompleted => "LeagueCompleted",
        }
    }

    /// The type named `name`, refusing names this code does not know.
    pub fn parse(name: &str) -> Result<EventType, EventDecodeError> {
        EventType::ALL
            .iter()
            .copied()
            .find(|kind| kind.as_str() == name)
            .ok_or_else(|| EventDecodeError::UnknownType(name.to_owned()))
    }

    /// Whether events of this type belong to a league's stream (all but registrations).
    pub const fn is_league_event(self) -> bool {
        !matches!(self, EventType::PlayerRegistered)
    }
}

impl std::fmt::Display for EventType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a stored event could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum EventDecodeError {
    #[error("unknown event type {0:?}")]
    UnknownType(String),
    #[error("unsupported schema version {schema_version} of event type {event_type}")]
    UnsupportedVersion { event_type: String, schema_version: i64 },
    #[error("invalid {event_type} payload: {source}")]
    InvalidPayload {
        event_type: String,
        #[source]
        source: serde_json::Error,
    },
}

/// Where a stored payload is decoded from: a parsed JSON value (events handed out by the store)
/// or the raw JSON text (bulk reads never build a `serde_json::Value`).
pub trait PayloadSource {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error>;
    fn into_value(self) -> Result<serde_json::Value, serde_json::Error>;
}

impl PayloadSource for &serde_json::Value {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        T::deserialize(self)
    }
    fn into_value(self) -> Result<serde_json::Value, serde_json::Error> {
        Ok(self.clone())
    }
}

impl PayloadSource for &str {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self)
    }
    fn into_value(self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::from_str(self)
    }
}

impl PayloadSource for serde_json::Value {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        serde_json::from_value(self)
    }
    fn into_value(self) -> Result<serde_json::Value, serde_json::Error> {
        Ok(self)
    }
}

/// The upcasting hook: turns a payload stored under an older `schema_version` of `kind` into
/// the current version's payload. Every version so far is 1, so there is nothing to upcast yet
/// and any other version is refused; when a payload changes, bump [`SCHEMA_VERSION`] and add
/// the step from the old version here (old events stay in the log as they were written).
pub fn upcast(
    kind: EventType,
    schema_version: i64,
    _payload: serde_json::Value,
) -> Result<serde_json::Value, EventDecodeError> {
    Err(EventDecodeError::UnsupportedVersion {
        event_type: kind.as_str().to_owned(),
        schema_version,
    })
}

impl DomainEvent {
    /// The stored type name, e.g. `"LeagueCreated"`.
    pub fn event_type(&self) -> &'static str {
        self.kind().as_str()
    }

    /// The kind of this event.
    pub fn kind(&self) -> EventType {
        match self {
            DomainEvent::PlayerRegistered(_) => EventType::PlayerRegistered,
            DomainEvent::LeagueCreated(_) => EventType::LeagueCreated,
            DomainEvent::PlayerSubscribed(_) => EventType::PlayerSubscribed,
            DomainEvent::PlayerUnsubscribed(_) => EventType::PlayerUnsubscribed,
            DomainEvent::GamesScheduled(_) => EventType::GamesScheduled,
            DomainEvent::GameFinished(_) => EventType::GameFinished,
            DomainEvent::GameResultCorrected(_) => EventType::GameResultCorrected,
            DomainEvent::LeagueCompleted(_) => EventType::LeagueCompleted,
        }
    }

    /// The payload schema version this code writes.
    pub fn schema_version(&self) -> u32 {
        SCHEMA_VERSION
    }

    /// The stream the event belongs to: `player-<uuid>` or `league-<uuid>`.
    pub fn stream_id(&self) -> String {
        match self {
            DomainEvent::PlayerRegistered(e) => player_stream_id(e.player_id),
            DomainEvent::LeagueCreated(e) => league_stream_id(e.league_id),
            DomainEvent::PlayerSubscribed(e) => league_stream_id(e.league_id),
            DomainEvent::PlayerUnsubscribed(e) => league_stream_id(e.league_id),
            DomainEvent::GamesScheduled(e) => league_stream_id(e.league_id),
            DomainEvent::GameFinished(e) => league_stream_id(e.league_id),
            DomainEvent::GameResultCorrected(e) => league_stream_id(e.league_id),
            DomainEvent::LeagueCompleted(e) => league_stream_id(e.league_id),
        }
    }

    /// The league an event is about (`None` for player events).
    pub fn league_id(&self) -> Option<LeagueId> {
        match self {
            DomainEvent::PlayerRegistered(_) => None,
            DomainEvent::LeagueCreated(e) => Some(e.league_id),
            DomainEvent::PlayerSubscribed(e) => Some(e.league_id),
            DomainEvent::PlayerUnsubscribed(e) => Some(e.league_id),
            DomainEvent::GamesScheduled(e) => Some(e.league_id),
            DomainEvent::GameFinished(e) => Some(e.league_id),
            DomainEvent::GameResultCorrected(e) => Some(e.league_id),
            DomainEvent::LeagueCompleted(e) => Some(e.league_id),
        }
    }

    /// The camelCase JSON payload.
    pub fn payload(&self) -> serde_json::Value {
        let value = match self {
            DomainEvent::PlayerRegistered(e) => serde_json::to_value(e),
            DomainEvent::LeagueCreated(e) => serde_json::to_value(e),
            DomainEvent::PlayerSubscribed(e) => serde_json::to_value(e),
            DomainEvent::PlayerUnsubscribed(e) => serde_json::to_value(e),
            DomainEvent::GamesScheduled(e) => serde_json::to_value(e),
            DomainEvent::GameFinished(e) => serde_json::to_value(e),
            DomainEvent::GameResultCorrected(e) => serde_json::to_value(e),
            DomainEvent::LeagueCompleted(e) => serde_json::to_value(e),
        };
        // Plain structs of strings, numbers, UUIDs and enums always serialise.
        value.expect("event payloads serialise to JSON")
    }

    /// The one decoder of stored events: `(event_type, schema_version, payload)` back to a
    /// typed event. Unknown types, versions without an upcast and malformed payloads are
    /// typed errors, never skipped.
    pub fn decode(
        event_type: &str,
        schema_version: i64,
        payload: impl PayloadSource,
    ) -> Result<Self, EventDecodeError> {
        let kind = EventType::parse(event_type)?;
        if schema_version == i64::from(SCHEMA_VERSION) {
            Self::decode_current(kind, payload)
        } else {
            let invalid = |source| EventDecodeError::InvalidPayload {
                event_type: event_type.to_owned(),
                source,
            };
            let upcast = upcast(kind, schema_version, payload.into_value().map_err(invalid)?)?;
            Self::decode_current(kind, upcast)
        }
    }

    fn decode_current(
        kind: EventType,
        payload: impl PayloadSource,
    ) -> Result<Self, EventDecodeError> {
        let invalid = |source| EventDecodeError::InvalidPayload {
            event_type: kind.as_str().to_owned(),
            source,
        };
        Ok(match kind {
            EventType::PlayerRegistered => {
                DomainEvent::PlayerRegistered(payload.parse().map_err(invalid)?)
            }
            EventType::LeagueCreated => {
                DomainEvent::LeagueCreated(payload.parse().map_err(invalid)?)
            }
            EventType::PlayerSubscribed => {
                DomainEvent::PlayerSubscribed(payload.parse().map_err(invalid)?)
            }
            EventType::PlayerUnsubscribed => {
                DomainEvent::PlayerUnsubscribed(payload.parse().map_err(invalid)?)
            }
            EventType::GamesScheduled => {
                DomainEvent::GamesScheduled(payload.parse().map_err(invalid)?)
            }
            EventType::GameFinished => DomainEvent::GameFinished(payload.parse().map_err(invalid)?),
            EventType::GameResultCorrected => {
                DomainEvent::GameResultCorrected(payload.parse().map_err(invalid)?)
            }
            EventType::LeagueCompleted => {
                DomainEvent::LeagueCompleted(payload.parse().map_err(invalid)?)
            }
        })
    }
}
