//! The domain events: what happened, as stored in the event log.
//!
//! Each event has a stable `event_type()` name and a `schema_version()`; the store persists
//! `(event_type, schema_version, payload)` with a camelCase JSON payload, and
//! [`DomainEvent::decode`] — the platform's one decoder, driven by the exhaustive
//! [`EventType`] — turns such a triple back into a typed event, upcasting older schema
//! versions ([`upcast`]) and refusing unknown types and versions with a typed error.
//!
//! Every event type is one line of the `domain_events!` list, which generates the
//! [`DomainEvent`] enum, [`EventType`] with its stored names, and every per-type match
//! (kind, stream, payload, decoding): adding an event is its payload struct, one line there,
//! and the fold arms the compiler then asks for.

use league_scoring::{ConcessionRule, GameResult};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::calendar::calendar_stream_id;
pub use crate::calendar::{CalendarFeedIssued, CalendarFeedRotated};
use crate::ids::{
    Actor, BoardId, GameId, LeagueId, PlayerId, TournamentId, league_stream_id, player_stream_id,
    tournament_stream_id,
};
use crate::personal::PersonalText;
use crate::settings::LeagueSettings;
use crate::tournament::{Attendance, Replacement, SeededBoard, TournamentSettings};
use crate::webhook::{WebhookId, url_host, webhook_stream_id};
use crate::webhook::{WebhookPaused, WebhookRegistered, WebhookRemoved, WebhookResumed};

/// A player joined the platform. The gateway stores only a hash of the player's bearer token.
/// Since version 2 the name is sealed under the player's own key ([`PersonalText`]); version
/// 1 names are plain text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerRegistered {
    pub player_id: PlayerId,
    pub name: PersonalText,
    pub token_hash: String,
}

/// A player's personal data was erased on request: their key was deleted in the same
/// transaction, so their sealed name can never be read again, and they show as their
/// pseudonym from then on. Their results, scores and ratings stay (under their id), so no
/// one else's standing changes. The event's commit time is when; `reason` is why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerErased {
    pub player_id: PlayerId,
    pub erased_by: Actor,
    pub reason: String,
}

/// A player's bearer token was replaced (by the player or the site admin): only the new
/// token's hash is stored, and the old token stops working.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenRotated {
    pub player_id: PlayerId,
    pub token_hash: String,
    pub rotated_by: Actor,
}

/// The site admin revoked a player's token: the player has no valid token until the admin
/// rotates one for them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenRevoked {
    pub player_id: PlayerId,
    pub revoked_by: Actor,
}

/// The site admin granted a player the right to create leagues and tournaments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrganiserAppointed {
    pub player_id: PlayerId,
    pub appointed_by: Actor,
}

/// The site admin withdrew a player's right to create leagues and tournaments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrganiserDismissed {
    pub player_id: PlayerId,
    pub dismissed_by: Actor,
}

/// A player was made co-organiser of a league: they manage it as its creator does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueCoOrganiserAdded {
    pub league_id: LeagueId,
    pub player_id: PlayerId,
    pub added_by: Actor,
}

/// A player was made co-organiser of a tournament, like [`LeagueCoOrganiserAdded`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentCoOrganiserAdded {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub added_by: Actor,
}

/// A league was created with its fixed settings (`docs/scheduling.md#league-life-cycle`).
/// The settings are flattened: the stored JSON is `leagueId` beside the settings' fields,
/// exactly as when they were fields of this event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueCreated {
    pub league_id: LeagueId,
    #[serde(flatten)]
    pub settings: LeagueSettings,
    /// The organiser who created it; absent when the site admin did (so events from before
    /// organisers existed keep their bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<Actor>,
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

/// A tournament was created with its fixed settings (`docs/tournaments.md`), flattened beside
/// its id like [`LeagueCreated`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentCreated {
    pub tournament_id: TournamentId,
    #[serde(flatten)]
    pub settings: TournamentSettings,
    /// The organiser who created it; absent when the site admin did, as in [`LeagueCreated`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<Actor>,
}

/// A player entered the tournament (before the last round is seeded: a late entry plays from
/// the next round seeded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentPlayerEntered {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub entered_by: Actor,
}

/// A player withdrew after `after_round` rounds: their scores stay, they are never seated
/// again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentPlayerWithdrawn {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub after_round: u32,
    pub withdrawn_by: Actor,
}

/// A player's answer to round `round`'s roll call (the latest answer counts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RollCallAnswered {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub player_id: PlayerId,
    #[serde(flatten)]
    pub attendance: Attendance,
    pub answered_by: Actor,
}

/// Round `round`'s boards, with what anyone needs to re-run the seeding from the log and get
/// the same boards (`docs/tournaments.md#seeding`): the seeder's version, its random seed
/// and the digest of its inputs, which the tournament's history before this event determines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundSeeded {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub boards: Vec<SeededBoard>,
    pub sitting_out: Vec<PlayerId>,
    pub playing_twice: Vec<PlayerId>,
    /// Board 1 is the top board (the best by standings play together).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub top_board: bool,
    pub algorithm: String,
    pub seed: u64,
    pub inputs_digest: String,
    pub repeat_score: u64,
    pub seat_repeats: u32,
    pub keep_apart_met: u32,
    pub seeded_by: Actor,
}

/// Before round `round` starts, two of its players exchanged places (seats, or a seat and
/// sitting out), with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundPlayersSwapped {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub first: PlayerId,
    pub second: PlayerId,
    pub reason: String,
    pub swapped_by: Actor,
}

/// A board's result as reported, like a league game's, with any replacement players who
/// finished a seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardFinished {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub result: GameResult,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<Replacement>,
    pub reported_by: Actor,
}

/// A finished board's result was replaced, with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardResultCorrected {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub result: GameResult,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<Replacement>,
    pub reason: String,
    pub corrected_by: Actor,
}

/// Every board of round `round` has a result (appended with the last one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundCompleted {
    pub tournament_id: TournamentId,
    pub round: u32,
}

/// The last round completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentCompleted {
    pub tournament_id: TournamentId,
}

/// The event types, one line each: `Variant = "StoredName" version N in Stream(id_field)`,
/// where the payload struct is named like the variant, `N` is the schema version this code
/// writes for it (older versions are upcast on decoding, [`upcast`]) and `id_field` is its
/// field naming the stream the event belongs to (`Player` or `League`). The stored names never
/// change.
macro_rules! domain_events {
    ($($variant:ident = $name:literal version $version:literal in $stream:ident($id:ident)),* $(,)?) => {
        /// Every event of the platform.
        #[derive(Debug, Clone, PartialEq)]
        pub enum DomainEvent {
            $($variant($variant),)*
        }

        /// Every kind of event, one per [`DomainEvent`] variant: the stored `event_type`
        /// column. Matching on it is exhaustive, so a new event type is a compile error
        /// wherever it must be handled (decoding, folding, notifications), never a forgotten
        /// string arm; [`Self::ALL`] is derived from the declaration, so no list of types is
        /// kept by hand.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, strum::VariantArray)]
        pub enum EventType {
            $($variant,)*
        }

        impl EventType {
            /// The stored name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(EventType::$variant => $name,)*
                }
            }

            /// The payload schema version this code writes for the type; every older version
            /// is upcast ([`upcast`]) when decoded.
            pub const fn schema_version(self) -> u32 {
                match self {
                    $(EventType::$variant => $version,)*
                }
            }

            /// The kind of stream events of this type belong to.
            pub const fn stream_kind(self) -> StreamKind {
                match self {
                    $(EventType::$variant => StreamKind::$stream,)*
                }
            }
        }

        impl DomainEvent {
            /// The kind of this event.
            pub fn kind(&self) -> EventType {
                match self {
                    $(DomainEvent::$variant(_) => EventType::$variant,)*
                }
            }

            /// The stream the event belongs to.
            pub fn stream(&self) -> StreamRef {
                match self {
                    $(DomainEvent::$variant(e) => StreamRef::$stream(e.$id),)*
                }
            }

            /// The camelCase JSON payload.
            pub fn payload(&self) -> serde_json::Value {
                let value = match self {
                    $(DomainEvent::$variant(e) => serde_json::to_value(e),)*
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
                    $(
                        EventType::$variant => {
                            DomainEvent::$variant(payload.parse().map_err(invalid)?)
                        }
                    )*
                })
            }
        }

        $(
            impl From<$variant> for DomainEvent {
                fn from(event: $variant) -> Self {
                    DomainEvent::$variant(event)
                }
            }
        )*
    };
}

// League results are at version 3 since each system scores a concession as its own rule says,
// board results at version 2: older results keep the rule they were recorded under
// ([`upcast`]). Registrations are at version 2 since names are sealed; a version 1 name reads
// as plain text, as written. Webhook registrations are at version 2 since the URL is kept
// outside the log (the event names its host).
domain_events! {
    PlayerRegistered = "PlayerRegistered" version 2 in Player(player_id),
    LeagueCreated = "LeagueCreated" version 1 in League(league_id),
    PlayerSubscribed = "PlayerSubscribed" version 1 in League(league_id),
    PlayerUnsubscribed = "PlayerUnsubscribed" version 1 in League(league_id),
    GamesScheduled = "GamesScheduled" version 1 in League(league_id),
    GameFinished = "GameFinished" version 3 in League(league_id),
    GameResultCorrected = "GameResultCorrected" version 3 in League(league_id),
    LeagueCompleted = "LeagueCompleted" version 1 in League(league_id),
    TournamentCreated = "TournamentCreated" version 1 in Tournament(tournament_id),
    TournamentPlayerEntered = "TournamentPlayerEntered" version 1 in Tournament(tournament_id),
    TournamentPlayerWithdrawn = "TournamentPlayerWithdrawn" version 1 in Tournament(tournament_id),
    RollCallAnswered = "RollCallAnswered" version 1 in Tournament(tournament_id),
    RoundSeeded = "RoundSeeded" version 1 in Tournament(tournament_id),
    RoundPlayersSwapped = "RoundPlayersSwapped" version 1 in Tournament(tournament_id),
    BoardFinished = "BoardFinished" version 2 in Tournament(tournament_id),
    BoardResultCorrected = "BoardResultCorrected" version 2 in Tournament(tournament_id),
    RoundCompleted = "RoundCompleted" version 1 in Tournament(tournament_id),
    TournamentCompleted = "TournamentCompleted" version 1 in Tournament(tournament_id),
    TokenRotated = "TokenRotated" version 1 in Player(player_id),
    TokenRevoked = "TokenRevoked" version 1 in Player(player_id),
    OrganiserAppointed = "OrganiserAppointed" version 1 in Player(player_id),
    OrganiserDismissed = "OrganiserDismissed" version 1 in Player(player_id),
    LeagueCoOrganiserAdded = "LeagueCoOrganiserAdded" version 1 in League(league_id),
    TournamentCoOrganiserAdded = "TournamentCoOrganiserAdded" version 1 in Tournament(tournament_id),
    PlayerErased = "PlayerErased" version 1 in Player(player_id),
    CalendarFeedIssued = "CalendarFeedIssued" version 1 in Calendar(player_id),
    CalendarFeedRotated = "CalendarFeedRotated" version 1 in Calendar(player_id),
    WebhookRegistered = "WebhookRegistered" version 2 in Webhook(webhook_id),
    WebhookPaused = "WebhookPaused" version 1 in Webhook(webhook_id),
    WebhookResumed = "WebhookResumed" version 1 in Webhook(webhook_id),
    WebhookRemoved = "WebhookRemoved" version 1 in Webhook(webhook_id),
}

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
/// changes, bump the type's version in the `domain_events!` list and add the step from the old
/// version here (old events stay in the log as they were written: their bytes and hashes never
/// see the upcast).
///
/// Steps so far (`docs/scoring.md#draws-and-concessions`): a version 1 `GameFinished` or
/// `GameResultCorrected` was recorded when a concession was scored as a draw of one, so a
/// concession among them is marked [`ConcessionRule::DrawOfOne`] and keeps its scores; a
/// version 2 one, or a version 1 `BoardFinished` or `BoardResultCorrected`, was recorded when
/// a concession was a solo in every system but Baf and Detour 98f, so it is marked
/// [`ConcessionRule::Solo`]. A version 1 `WebhookRegistered` holds the URL itself: its host is
/// filled in from it, and the URL stays in memory for delivery (`docs/webhooks.md#older-logs`).
pub fn upcast(
    mut event: DomainEvent,
    schema_version: i64,
) -> Result<DomainEvent, EventDecodeError> {
    let kind = event.kind();
    if !kind.is_older_version(schema_version) {
        return Err(kind.unsupported(schema_version));
    }
    match &mut event {
        DomainEvent::GameFinished(GameFinished { result, .. })
        | DomainEvent::GameResultCorrected(GameResultCorrected { result, .. })
            if schema_version == 1 =>
        {
            result.set_concession_rule(ConcessionRule::DrawOfOne);
        }
        DomainEvent::GameFinished(GameFinished { result, .. })
        | DomainEvent::GameResultCorrected(GameResultCorrected { result, .. })
            if schema_version == 2 =>
        {
            result.set_concession_rule(ConcessionRule::Solo);
        }
        DomainEvent::BoardFinished(BoardFinished { result, .. })
        | DomainEvent::BoardResultCorrected(BoardResultCorrected { result, .. })
            if schema_version == 1 =>
        {
            result.set_concession_rule(ConcessionRule::Solo);
        }
        DomainEvent::WebhookRegistered(registered) if schema_version == 1 => {
            registered.host = registered.url.as_deref().map(url_host).unwrap_or_default();
        }
        // Listed by name, so a new event type or version is a decision made here.
        DomainEvent::GameFinished(_)
        | DomainEvent::GameResultCorrected(_)
        | DomainEvent::PlayerRegistered(_)
        | DomainEvent::LeagueCreated(_)
        | DomainEvent::PlayerSubscribed(_)
        | DomainEvent::PlayerUnsubscribed(_)
        | DomainEvent::GamesScheduled(_)
        | DomainEvent::LeagueCompleted(_)
        | DomainEvent::TournamentCreated(_)
        | DomainEvent::TournamentPlayerEntered(_)
        | DomainEvent::TournamentPlayerWithdrawn(_)
        | DomainEvent::RollCallAnswered(_)
        | DomainEvent::RoundSeeded(_)
        | DomainEvent::RoundPlayersSwapped(_)
        | DomainEvent::BoardFinished(_)
        | DomainEvent::BoardResultCorrected(_)
        | DomainEvent::RoundCompleted(_)
        | DomainEvent::TournamentCompleted(_)
        | DomainEvent::TokenRotated(_)
        | DomainEvent::TokenRevoked(_)
        | DomainEvent::OrganiserAppointed(_)
        | DomainEvent::OrganiserDismissed(_)
        | DomainEvent::LeagueCoOrganiserAdded(_)
        | DomainEvent::TournamentCoOrganiserAdded(_)
        | DomainEvent::PlayerErased(_)
        | DomainEvent::CalendarFeedIssued(_)
        | DomainEvent::CalendarFeedRotated(_)
        | DomainEvent::WebhookRegistered(_)
        | DomainEvent::WebhookPaused(_)
        | DomainEvent::WebhookResumed(_)
        | DomainEvent::WebhookRemoved(_) => {}
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
            | StreamRef::Webhook(_) => None,
        }
    }

    /// The tournament an event is about (`None` for player, league and calendar and webhook events).
    pub fn tournament_id(&self) -> Option<TournamentId> {
        match self.stream() {
            StreamRef::Tournament(id) => Some(id),
            StreamRef::Player(_)
            | StreamRef::League(_)
            | StreamRef::Calendar(_)
            | StreamRef::Webhook(_) => None,
        }
    }

    /// The competition (league or tournament) an event is about: the id its standings and
    /// live notifications go by (`None` for player and calendar and webhook events).
    pub fn competition_id(&self) -> Option<uuid::Uuid> {
        match self.stream() {
            StreamRef::League(id) | StreamRef::Tournament(id) => Some(id),
            StreamRef::Player(_) | StreamRef::Calendar(_) | StreamRef::Webhook(_) => None,
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
