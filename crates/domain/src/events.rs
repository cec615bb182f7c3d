//! The domain events: what happened, as stored in the event log.
//!
//! Each event has a stable `event_type()` name and a `schema_version()`; the store persists
//! `(event_type, schema_version, payload)` with a camelCase JSON payload, and
//! [`DomainEvent::from_stored`] turns such a triple back into a typed event (refusing
//! unknown types and versions with a typed error).

use league_scoring::{GameResult, ScoringSystem};
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

/// A league was created with its fixed settings (seed 002: players per game, game, version).
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
    /// N: players in the league (seed 002: 8).
    pub size: u32,
    /// s: times each player takes each seat (games per player = k·s, total games = N·s).
    pub games_per_seat: u32,
    /// Seed 002's "active player" eligibility (≥ 5 games finished in the last 90 days).
    pub require_active_players: bool,
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

/// The same enum under the name the issue uses.
pub type LeagueEvent = DomainEvent;

/// Current schema version of every event payload.
pub const SCHEMA_VERSION: u32 = 1;

/// Every event type name, in declaration order.
pub const EVENT_TYPES: [&str; 8] = [
    "PlayerRegistered",
    "LeagueCreated",
    "PlayerSubscribed",
    "PlayerUnsubscribed",
    "GamesScheduled",
    "GameFinished",
    "GameResultCorrected",
    "LeagueCompleted",
];

/// An event as the store keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventData {
    pub event_type: String,
    pub schema_version: u32,
    pub payload: serde_json::Value,
}

/// Why a stored triple cannot become a [`DomainEvent`].
#[derive(Debug, thiserror::Error)]
pub enum EventDecodeError {
    #[error("unknown event type {0:?}")]
    UnknownType(String),
    #[error("unsupported schema version {schema_version} of event type {event_type}")]
    UnsupportedVersion { event_type: String, schema_version: u32 },
    #[error("invalid {event_type} payload: {source}")]
    InvalidPayload {
        event_type: String,
        #[source]
        source: serde_json::Error,
    },
}

impl DomainEvent {
    /// The stored type name, e.g. `"LeagueCreated"`.
    pub fn event_type(&self) -> &'static str {
        match self {
            DomainEvent::PlayerRegistered(_) => "PlayerRegistered",
            DomainEvent::LeagueCreated(_) => "LeagueCreated",
            DomainEvent::PlayerSubscribed(_) => "PlayerSubscribed",
            DomainEvent::PlayerUnsubscribed(_) => "PlayerUnsubscribed",
            DomainEvent::GamesScheduled(_) => "GamesScheduled",
            DomainEvent::GameFinished(_) => "GameFinished",
            DomainEvent::GameResultCorrected(_) => "GameResultCorrected",
            DomainEvent::LeagueCompleted(_) => "LeagueCompleted",
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

    /// `(event_type, schema_version, payload)` as the store persists it.
    pub fn to_data(&self) -> EventData {
        EventData {
            event_type: self.event_type().to_owned(),
            schema_version: self.schema_version(),
            payload: self.payload(),
        }
    }

    /// Rebuilds a typed event from what the store persisted.
    pub fn from_stored(
        event_type: &str,
        schema_version: u32,
        payload: serde_json::Value,
    ) -> Result<Self, EventDecodeError> {
        fn decode<T: serde::de::DeserializeOwned>(
            event_type: &str,
            payload: serde_json::Value,
        ) -> Result<T, EventDecodeError> {
            serde_json::from_value(payload).map_err(|source| EventDecodeError::InvalidPayload {
                event_type: event_type.to_owned(),
                source,
            })
        }
        if !EVENT_TYPES.contains(&event_type) {
            return Err(EventDecodeError::UnknownType(event_type.to_owned()));
        }
        if schema_version != SCHEMA_VERSION {
            return Err(EventDecodeError::UnsupportedVersion {
                event_type: event_type.to_owned(),
                schema_version,
            });
        }
        Ok(match event_type {
            "PlayerRegistered" => DomainEvent::PlayerRegistered(decode(event_type, payload)?),
            "LeagueCreated" => DomainEvent::LeagueCreated(decode(event_type, payload)?),
            "PlayerSubscribed" => DomainEvent::PlayerSubscribed(decode(event_type, payload)?),
            "PlayerUnsubscribed" => DomainEvent::PlayerUnsubscribed(decode(event_type, payload)?),
            "GamesScheduled" => DomainEvent::GamesScheduled(decode(event_type, payload)?),
            "GameFinished" => DomainEvent::GameFinished(decode(event_type, payload)?),
            "GameResultCorrected" => DomainEvent::GameResultCorrected(decode(event_type, payload)?),
            "LeagueCompleted" => DomainEvent::LeagueCompleted(decode(event_type, payload)?),
            other => return Err(EventDecodeError::UnknownType(other.to_owned())),
        })
    }

    /// [`DomainEvent::from_stored`] on an [`EventData`].
    pub fn from_data(data: EventData) -> Result<Self, EventDecodeError> {
        Self::from_stored(&data.event_type, data.schema_version, data.payload)
    }
}
