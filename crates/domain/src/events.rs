//! The domain events: what happened, as stored in the event log.
//!
//! Each event has a stable `event_type()` name and a `schema_version()`; the store persists
//! `(event_type, schema_version, payload)` with a camelCase JSON payload, and
//! [`DomainEvent::decode`] — the platform's one decoder, driven by the exhaustive
//! [`EventType`] — turns such a triple back into a typed event, upcasting older schema
//! versions ([`upcast`]) and refusing unknown types and versions with a typed error.
//!
//! Each aggregate owns its events in its room (`player/`, `league/`, `tournament/`,
//! `calendar/`, `webhook/`): the payload structs and one line per type in the room's list,
//! from which its enum ([`LeagueEvent`], …) is declared there and, here, the [`DomainEvent`]
//! envelope over the five enums, [`EventType`] with its stored names and every per-type match
//! (kind, stream, payload, decoding). Adding an event is its payload struct, one line of its
//! room's list, and the arms of its own aggregate's folds that the compiler then asks for.

use serde::de::DeserializeOwned;

use crate::calendar::events::*;
use crate::ids::{
    LeagueId, PlayerId, SeriesId, TournamentId, WebhookId, calendar_stream_id, league_stream_id,
    player_stream_id, series_stream_id, tournament_stream_id, webhook_stream_id,
};
use crate::league::events::*;
use crate::player::events::*;
use crate::series::events::*;
use crate::tournament::events::*;
use crate::webhook::events::*;

/// Generates, from every aggregate's list of event types (each room's `*_events!` macro
/// passes its list on to the next, the last to this one): the kind, stream and payload of
/// each aggregate's event enum ([`PlayerEvent`], [`LeagueEvent`], [`TournamentEvent`],
/// [`CalendarEvent`], [`WebhookEvent`], each declared in its room from the same list by
/// `aggregate_enum!`), the [`DomainEvent`] envelope over them, [`EventType`] with its stored
/// names and versions, and every per-type match (kind, stream, payload, decoding). A list's
/// line is `Variant = "StoredName" version N`: the payload struct is named like the variant,
/// `N` is the schema version this code writes (older ones are upcast on decoding,
/// [`upcast`]); the group's `Aggregate(Enum, id_field)` names the field holding the stream's
/// id. The stored names never change.
macro_rules! domain_events {
    ([] $($aggregate:ident($enum:ident, $id:ident) {
        $($variant:ident = $name:literal version $version:literal $(in $tag:ident)*
            $(notify [$($kind:ident),*])?),* $(,)?
    })*) => {
        $(
            impl $enum {
                /// The kind of this event.
                pub fn kind(&self) -> EventType {
                    match self {
                        $($enum::$variant(_) => EventType::$variant,)*
                    }
                }

                /// The stream the event belongs to.
                pub fn stream(&self) -> StreamRef {
                    match self {
                        $($enum::$variant(e) => StreamRef::$aggregate(e.$id),)*
                    }
                }

                fn payload_value(&self) -> Result<serde_json::Value, serde_json::Error> {
                    match self {
                        $($enum::$variant(e) => serde_json::to_value(e),)*
                    }
                }
            }

            impl AggregateEvent for $enum {
                fn of(event: &DomainEvent) -> Option<&Self> {
                    match event {
                        DomainEvent::$aggregate(e) => Some(e),
                        _ => None,
                    }
                }
            }

            impl From<$enum> for DomainEvent {
                fn from(event: $enum) -> Self {
                    DomainEvent::$aggregate(event)
                }
            }

            $(
                impl From<$variant> for DomainEvent {
                    fn from(event: $variant) -> Self {
                        DomainEvent::$aggregate($enum::$variant(event))
                    }
                }
            )*
        )*

        /// Every event of the platform: one aggregate's event, by aggregate.
        #[derive(Debug, Clone, PartialEq)]
        pub enum DomainEvent {
            $($aggregate($enum),)*
        }

        /// Every kind of event: the stored `event_type` column. Matching on it is exhaustive,
        /// so a new event type is a compile error wherever it must be handled, never a
        /// forgotten string arm; [`Self::ALL`] is derived from the declarations, so no list of
        /// types is kept by hand.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, strum::VariantArray)]
        pub enum EventType {
            $($($variant,)*)*
        }

        impl EventType {
            /// The stored name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($(EventType::$variant => $name,)*)*
                }
            }

            /// The payload schema version this code writes for the type; every older version
            /// is upcast ([`upcast`]) when decoded.
            pub const fn schema_version(self) -> u32 {
                match self {
                    $($(EventType::$variant => $version,)*)*
                }
            }

            /// The webhook kinds events of this type are sent to (`docs/webhooks.md`), as the
            /// type's line in its room's list says.
            pub const fn webhook_kinds(self) -> &'static [WebhookKind] {
                match self {
                    $($(EventType::$variant => &[$($(WebhookKind::$kind),*)?],)*)*
                }
            }

            /// Whether the catalog (the directory of players, leagues and tournaments, with
            /// their organisers, entrants and status) folds events of this type: the type's
            /// line says `, catalog`.
            pub const fn in_catalog(self) -> bool {
                match self {
                    $($(EventType::$variant => false $(|| event_tag!($tag))*,)*)*
                }
            }

            /// Whether events of this type record a game's or board's result (reported or
            /// corrected: the webhook kinds it is sent to say so), as [`DomainEvent::result`]
            /// finds it.
            pub const fn records_result(self) -> bool {
                let mut kinds = self.webhook_kinds();
                while let [kind, rest @ ..] = kinds {
                    if matches!(kind, WebhookKind::ResultReported | WebhookKind::ResultCorrected) {
                        return true;
                    }
                    kinds = rest;
                }
                false
            }

            /// The kind of stream events of this type belong to.
            pub const fn stream_kind(self) -> StreamKind {
                match self {
                    $($(EventType::$variant => StreamKind::$aggregate,)*)*
                }
            }
        }

        impl DomainEvent {
            /// The kind of this event.
            pub fn kind(&self) -> EventType {
                match self {
                    $(DomainEvent::$aggregate(e) => e.kind(),)*
                }
            }

            /// The stream the event belongs to.
            pub fn stream(&self) -> StreamRef {
                match self {
                    $(DomainEvent::$aggregate(e) => e.stream(),)*
                }
            }

            /// The camelCase JSON payload.
            pub fn payload(&self) -> serde_json::Value {
                let value = match self {
                    $(DomainEvent::$aggregate(e) => e.payload_value(),)*
                };
                // Plain structs of strings, numbers, UUIDs and enums always serialise.
                value.expect("event payloads serialise to JSON")
            }

            /// Decodes a payload into the current version's payload struct (the payload of
            /// every version so far reads as it; [`upcast`] then gives older ones their
            /// current meaning).
            fn decode_current(
                kind: EventType,
                payload: impl PayloadSource,
            ) -> Result<Self, EventDecodeError> {
                let invalid = |source| EventDecodeError::InvalidPayload {
                    event_type: kind.as_str().to_owned(),
                    source,
                };
                Ok(match kind {
                    $($(
                        EventType::$variant => DomainEvent::$aggregate(
                            $enum::$variant(payload.parse().map_err(invalid)?),
                        ),
                    )*)*
                })
            }
        }
    };
}

/// The tags a line of a room's list may carry after its version (`in catalog`): `catalog` (the catalog folds
/// the type, [`EventType::in_catalog`]). Any other tag is a compile error.
macro_rules! event_tag {
    (catalog) => {
        true
    };
}

/// One aggregate's event enum, found in the envelope: how a fold over the log takes the
/// events of its own aggregate (every other kind is `None`).
pub trait AggregateEvent: Sized {
    fn of(event: &DomainEvent) -> Option<&Self>;
}

player_events! { [league_events, tournament_events, calendar_events, webhook_events, series_events, domain_events] }

/// The kinds of event stream: a player's (`player-<uuid>`), a league's (`league-<uuid>`), a
/// tournament's (`tournament-<uuid>`), a player's calendar feed (`calendar-<uuid>`) or a
/// webhook's (`webhook-<uuid>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamKind {
    Player,
    League,
    Tournament,
    Calendar,
    Webhook,
    Series,
}

/// The stream an event belongs to, by its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamRef {
    Player(PlayerId),
    League(LeagueId),
    Tournament(TournamentId),
    /// A player's calendar feed, by the player's id.
    Calendar(PlayerId),
    Webhook(WebhookId),
    /// A series of tournaments and leagues (`docs/series.md`).
    Series(SeriesId),
}

impl StreamRef {
    /// The stream's name: `player-<uuid>`, `league-<uuid>`, `tournament-<uuid>` or
    /// `calendar-<uuid>`.
    pub fn stream_id(self) -> String {
        match self {
            StreamRef::Player(id) => player_stream_id(id),
            StreamRef::League(id) => league_stream_id(id),
            StreamRef::Tournament(id) => tournament_stream_id(id),
            StreamRef::Calendar(id) => calendar_stream_id(id),
            StreamRef::Webhook(id) => webhook_stream_id(id),
            StreamRef::Series(id) => series_stream_id(id),
        }
    }
}

impl EventType {
    /// Every event type, in declaration order.
    pub const ALL: &'static [EventType] = <EventType as strum::VariantArray>::VARIANTS;

    /// The type named `name`, refusing names this code does not know.
    pub fn parse(name: &str) -> Result<EventType, EventDecodeError> {
        EventType::ALL
            .iter()
            .copied()
            .find(|kind| kind.as_str() == name)
            .ok_or_else(|| EventDecodeError::UnknownType(name.to_owned()))
    }

    /// Whether `schema_version` is a version of this type older than the one this code writes
    /// (versions start at 1), which [`upcast`] brings up to date.
    fn is_older_version(self, schema_version: i64) -> bool {
        (1..i64::from(self.schema_version())).contains(&schema_version)
    }

    /// The refusal of a version this code does not know for the type.
    fn unsupported(self, schema_version: i64) -> EventDecodeError {
        EventDecodeError::UnsupportedVersion {
            event_type: self.as_str().to_owned(),
            schema_version,
        }
    }

    /// Whether events of this type belong to a league's stream.
    pub const fn is_league_event(self) -> bool {
        matches!(self.stream_kind(), StreamKind::League)
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

impl PayloadSource for serde_json::Value {
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        serde_json::from_value(self)
    }
}

/// The upcasting hook: gives an event decoded from an older `schema_version` of its type the
/// meaning of the current version. Every version so far has the current payload's shape, so
/// the event is decoded first and upcast typed (no JSON is rebuilt on a replay of the log).
/// Versions from 1 to the type's current one are known; any other is refused. When a payload
/// changes, bump the type's version in its room's list and add the step from the old version
/// to the room's `upcast` (old events stay in the log as they were written: their bytes and
/// hashes never see the upcast). The steps so far: [`LeagueEvent::upcast`],
/// [`TournamentEvent::upcast`], [`WebhookEvent::upcast`].
pub fn upcast(
    mut event: DomainEvent,
    schema_version: i64,
) -> Result<DomainEvent, EventDecodeError> {
    let kind = event.kind();
    if !kind.is_older_version(schema_version) {
        return Err(kind.unsupported(schema_version));
    }
    match &mut event {
        DomainEvent::Player(event) => event.upcast(schema_version),
        DomainEvent::League(event) => event.upcast(schema_version),
        DomainEvent::Tournament(event) => event.upcast(schema_version),
        DomainEvent::Calendar(event) => event.upcast(schema_version),
        DomainEvent::Webhook(event) => event.upcast(schema_version),
        DomainEvent::Series(event) => event.upcast(schema_version),
    }
    Ok(event)
}

impl DomainEvent {
    /// The stored type name, e.g. `"LeagueCreated"`.
    pub fn event_type(&self) -> &'static str {
        self.kind().as_str()
    }

    /// The payload schema version this code writes for the event's type.
    pub fn schema_version(&self) -> u32 {
        self.kind().schema_version()
    }

    /// The stream the event belongs to: `player-<uuid>` or `league-<uuid>`.
    pub fn stream_id(&self) -> String {
        self.stream().stream_id()
    }

    /// The league an event is about (`None` for player, tournament and calendar and webhook events).
    pub fn league_id(&self) -> Option<LeagueId> {
        match self.stream() {
            StreamRef::League(id) => Some(id),
            StreamRef::Player(_)
            | StreamRef::Tournament(_)
            | StreamRef::Calendar(_)
            | StreamRef::Webhook(_)
            | StreamRef::Series(_) => None,
        }
    }

    /// The tournament an event is about (`None` for player, league and calendar and webhook events).
    pub fn tournament_id(&self) -> Option<TournamentId> {
        match self.stream() {
            StreamRef::Tournament(id) => Some(id),
            StreamRef::Player(_)
            | StreamRef::League(_)
            | StreamRef::Calendar(_)
            | StreamRef::Webhook(_)
            | StreamRef::Series(_) => None,
        }
    }

    /// What the event changes beyond its own stream's state, as its aggregate says. Players,
    /// calendar feeds and webhooks have no standings and record no results.
    pub fn effects(&self) -> crate::scores::Effects<'_> {
        match self {
            DomainEvent::League(event) => event.effects(),
            DomainEvent::Tournament(event) => event.effects(),
            DomainEvent::Player(_)
            | DomainEvent::Calendar(_)
            | DomainEvent::Webhook(_)
            | DomainEvent::Series(_) => crate::scores::Effects::NONE,
        }
    }

    /// The game or board result the event records, if it records one (the ratings, the
    /// result webhooks).
    pub fn result(&self) -> Option<crate::scores::RecordedResult<'_>> {
        self.effects().result
    }

    /// Whether the event can change its competition's standings (live notifications, the
    /// web app's "the standings changed"), as its own aggregate says. Players, calendar feeds
    /// and webhooks have no standings.
    pub fn moves_standings(&self) -> bool {
        self.effects().moves_standings
    }

    /// The competition (league or tournament) an event is about: the id its standings and
    /// live notifications go by (`None` for player and calendar and webhook events).
    pub fn competition_id(&self) -> Option<uuid::Uuid> {
        match self.stream() {
            StreamRef::League(id) => Some(id.uuid()),
            StreamRef::Tournament(id) => Some(id.uuid()),
            StreamRef::Player(_)
            | StreamRef::Calendar(_)
            | StreamRef::Webhook(_)
            | StreamRef::Series(_) => None,
        }
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
        if schema_version == i64::from(kind.schema_version()) {
            return Self::decode_current(kind, payload);
        }
        if !kind.is_older_version(schema_version) {
            return Err(kind.unsupported(schema_version));
        }
        upcast(Self::decode_current(kind, payload)?, schema_version)
    }
}
