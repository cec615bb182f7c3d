//! The values that cross the store's API: stream ids, expected versions, new and recorded
//! events, append outcomes, history bounds and the verification report.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::StoreError;

/// The longest stream id accepted, in characters.
pub const MAX_STREAM_ID_LEN: usize = 200;
/// The longest event type name accepted, in characters.
pub const MAX_EVENT_TYPE_LEN: usize = 200;

/// The name of one event stream (one aggregate, e.g. `league:2f6c…`): 1 to
/// [`MAX_STREAM_ID_LEN`] characters from `[A-Za-z0-9_:.-]`, so ids are safe in URLs, logs
/// and file names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct StreamId(String);

impl StreamId {
    /// Validates `id`; a bad id is a [`StoreError::InvalidStreamId`].
    pub fn new(id: impl Into<String>) -> Result<Self, StoreError> {
        let id = id.into();
        let reason = if id.is_empty() {
            Some("it is empty")
        } else if id.chars().count() > MAX_STREAM_ID_LEN {
            Some("it is longer than 200 characters")
        } else if !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
        {
            Some("only letters, digits and _ : . - are allowed")
        } else {
            None
        };
        match reason {
            Some(reason) => Err(StoreError::InvalidStreamId { stream_id: id, reason }),
            None => Ok(StreamId(id)),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StreamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for StreamId {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        StreamId::new(s)
    }
}

impl TryFrom<String> for StreamId {
    type Error = StoreError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        StreamId::new(s)
    }
}

impl TryFrom<&str> for StreamId {
    type Error = StoreError;
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        StreamId::new(s)
    }
}

impl AsRef<str> for StreamId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for StreamId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        StreamId::new(raw).map_err(serde::de::Error::custom)
    }
}

/// What the caller believes about the stream's version before appending (optimistic
/// concurrency).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExpectedVersion {
    /// Append whatever the stream's version.
    Any,
    /// The stream must not exist yet (no events).
    NoStream,
    /// The stream's last event must have exactly this version (`Exact(0)` = no stream).
    Exact(u64),
}

impl ExpectedVersion {
    /// Whether a stream currently at `actual` (0 = no events) satisfies this expectation.
    pub fn admits(self, actual: u64) -> bool {
        match self {
            ExpectedVersion::Any => true,
            ExpectedVersion::NoStream => actual == 0,
            ExpectedVersion::Exact(version) => actual == version,
        }
    }
}

impl fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectedVersion::Any => f.write_str("any version"),
            ExpectedVersion::NoStream => f.write_str("no stream"),
            ExpectedVersion::Exact(version) => write!(f, "version {version}"),
        }
    }
}

/// An event to append: its type name, the version of its payload's schema, and the payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewEvent {
    pub event_type: String,
    pub schema_version: i32,
    pub payload: serde_json::Value,
}

impl NewEvent {
    pub fn new(
        event_type: impl Into<String>,
        schema_version: i32,
        payload: serde_json::Value,
    ) -> Self {
        NewEvent { event_type: event_type.into(), schema_version, payload }
    }

    /// An event whose payload is raw JSON text; text that is not JSON is a
    /// [`StoreError::InvalidPayload`].
    pub fn from_json_text(
        event_type: impl Into<String>,
        schema_version: i32,
        payload: &str,
    ) -> Result<Self, StoreError> {
        let payload = serde_json::from_str(payload)
            .map_err(|error| StoreError::InvalidPayload { reason: error.to_string() })?;
        Ok(NewEvent::new(event_type, schema_version, payload))
    }

    /// A typed payload serialised to JSON (fails only for maps with non-string keys).
    pub fn from_serialize<T: Serialize>(
        event_type: impl Into<String>,
        schema_version: i32,
        payload: &T,
    ) -> Result<Self, StoreError> {
        let payload = serde_json::to_value(payload)
            .map_err(|error| StoreError::InvalidPayload { reason: error.to_string() })?;
        Ok(NewEvent::new(event_type, schema_version, payload))
    }
}

/// Who and what caused an append; stored with every event of the append.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// The user or system that asked for the change.
    pub actor: Option<String>,
    /// Ties together every event caused by one request.
    pub correlation_id: Option<String>,
    /// The command or event that directly caused this one.
    pub causation_id: Option<String>,
    /// A caller-chosen key: a second append with the same key returns the first one's outcome
    /// and writes nothing.
    pub idempotency_key: Option<String>,
    /// What the key was first used for (the application's hash of the command), so a reuse
    /// for another command can be told apart. Absent on appends without a key and on events
    /// written before it existed: skipped when absent, so their stored bytes and hashes stay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_fingerprint: Option<String>,
}

impl Metadata {
    pub fn with_actor(mut self, actor: impl Into<String>) -> Self {
        self.actor = Some(actor.into());
        self
    }

    pub fn with_correlation_id(mut self, id: impl Into<String>) -> Self {
        self.correlation_id = Some(id.into());
        self
    }

    pub fn with_causation_id(mut self, id: impl Into<String>) -> Self {
        self.causation_id = Some(id.into());
        self
    }

    pub fn with_idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}

/// An event as committed to the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedEvent {
    /// Global position: 1, 2, 3… in commit order, without gaps.
    pub position: u64,
    pub stream_id: StreamId,
    /// Version within the stream: 1, 2, 3… without gaps.
    pub stream_version: u64,
    /// Unique id (UUID v7, so ids sort by creation time).
    pub event_id: Uuid,
    pub event_type: String,
    pub schema_version: i32,
    pub payload: serde_json::Value,
    pub metadata: Metadata,
    /// Commit time (UTC, microseconds); never decreases along positions.
    pub recorded_at: DateTime<Utc>,
    /// The previous event's `hash` (64 zeros for position 1).
    pub prev_hash: String,
    /// SHA-256 (hex) of this event's canonical bytes and `prev_hash`.
    pub hash: String,
}

/// What an append did (or, when `deduplicated`, what the first append with the same
/// idempotency key did).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppendOutcome {
    pub first_position: u64,
    pub last_position: u64,
    /// The stream's version after the append (the last event's version).
    pub stream_version: u64,
    pub events: Vec<RecordedEvent>,
    /// True when nothing was written because the idempotency key had been used before.
    pub deduplicated: bool,
}

/// The end of a slice of history, for as-of views: everything up to and including a
/// position, or everything recorded at or before an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Position(u64),
    Time(DateTime<Utc>),
}

/// The result of walking the hash chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyReport {
    /// Events whose link and hash were found intact (all of them when `first_bad` is None).
    pub events_verified: u64,
    /// The first position where the chain breaks.
    pub first_bad: Option<ChainBreak>,
}

impl VerifyReport {
    pub fn is_ok(&self) -> bool {
        self.first_bad.is_none()
    }
}

/// Where and how the hash chain breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainBreak {
    pub position: u64,
    pub problem: ChainProblem,
}

/// How one event fails verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainProblem {
    /// The stored hash is not the hash of the stored event: a field was changed.
    HashMismatch { stored: String, computed: String },
    /// `prev_hash` is not the previous event's hash: events were removed, inserted or
    /// re-chained.
    BrokenLink { prev_hash: String, expected: String },
    /// Positions are not contiguous: this position is absent, and the log goes on at
    /// `next_position`.
    Gap { next_position: u64 },
}

impl fmt::Display for ChainBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            ChainProblem::HashMismatch { stored, computed } => write!(
                f,
                "position {}: hash mismatch (stored {stored}, computed {computed})",
                self.position
            ),
            ChainProblem::BrokenLink { prev_hash, expected } => write!(
                f,
                "position {}: broken link (prev_hash {prev_hash}, previous event's hash {expected})",
                self.position
            ),
            ChainProblem::Gap { next_position } => write!(
                f,
                "position {}: missing (the log goes on at position {next_position})",
                self.position
            ),
        }
    }
}

/// The bytes of one person's key in the key table (the store keeps keys, it does not use them).
pub const PERSON_KEY_BYTES: usize = 32;

/// A change to the person-key table that commits with an append, or not at all: a key is
/// stored with the event that first seals data under it, and deleted with the event that
/// erases its person (`docs/personal-data.md`). The table lives outside the hash chain.
#[derive(Clone, PartialEq, Eq)]
pub enum KeyChange {
    /// Stores `person`'s key (a person has one key: storing a second is an error).
    Insert { person: Uuid, key: [u8; PERSON_KEY_BYTES] },
    /// Deletes `person`'s key, if any.
    Delete { person: Uuid },
}

impl fmt::Debug for KeyChange {
    /// Never prints a key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyChange::Insert { person, .. } => write!(f, "Insert {{ person: {person}, .. }}"),
            KeyChange::Delete { person } => write!(f, "Delete {{ person: {person} }}"),
        }
    }
}
