//! Identifiers and stream names: who and what the events are about.
//!
//! Player and league ids are UUIDs chosen by the caller (the application layer generates
//! v7); game ids are derived from the league id and the game number, so replaying the
//! schedule always yields the same ids.
//!
//! Each kind of id is its own type over [`Uuid`], so a board id cannot be passed where a game
//! id is expected. They serialise, display, print for debugging and parse exactly as the bare
//! UUID does, so stored payloads, stream names and command fingerprints
//! (`docs/api.md#idempotency-keys`) are the same bytes as before the types existed. Crates
//! above the domain that deal in [`Uuid`] convert at their boundary (`From`, [`PlayerId::uuid`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use uuid::Uuid;

/// Declares an id type: a transparent newtype over [`Uuid`] that reads and writes as the UUID.
macro_rules! typed_id {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(Uuid);

        impl $name {
            /// The id holding `uuid`.
            pub const fn new(uuid: Uuid) -> Self {
                Self(uuid)
            }

            /// The UUID of this id.
            pub const fn uuid(self) -> Uuid {
                self.0
            }
        }

        impl From<Uuid> for $name {
            fn from(uuid: Uuid) -> Self {
                Self(uuid)
            }
        }

        impl From<$name> for Uuid {
            fn from(id: $name) -> Self {
                id.0
            }
        }

        /// The hyphenated UUID, exactly as [`Uuid`] displays it.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        /// The bare UUID, as [`Uuid`] prints it: command fingerprints are the commands' debug
        /// form, so a wrapper's name here would change every recorded fingerprint.
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }

        impl FromStr for $name {
            type Err = uuid::Error;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(text).map(Self)
            }
        }
    )*};
}

typed_id! {
    /// A registered player (stream `player-<uuid>`).
    PlayerId;
    /// A league (stream `league-<uuid>`); the league stream also holds its games' results.
    LeagueId;
    /// A game of a league: UUID v5 of the game number in the league id's namespace.
    GameId;
    /// A tournament (stream `tournament-<uuid>`); the stream also holds its rounds and boards.
    TournamentId;
    /// A board of a tournament round: UUID v5 of `r<round>b<number>` in the tournament id's
    /// namespace.
    BoardId;
    /// A webhook (stream `webhook-<uuid>`), chosen by the caller like league ids.
    WebhookId;
    /// A series of tournaments and leagues (stream `series-<uuid>`), chosen by the caller.
    SeriesId;
}

/// Prefix of tournament streams.
pub const TOURNAMENT_STREAM_PREFIX: &str = "tournament-";

/// Prefix of player streams.
pub const PLAYER_STREAM_PREFIX: &str = "player-";
/// Prefix of league streams.
pub const LEAGUE_STREAM_PREFIX: &str = "league-";

/// The event stream of a player: `player-<uuid>`.
pub fn player_stream_id(player_id: PlayerId) -> String {
    format!("{PLAYER_STREAM_PREFIX}{player_id}")
}

/// The event stream of a league: `league-<uuid>`.
pub fn league_stream_id(league_id: LeagueId) -> String {
    format!("{LEAGUE_STREAM_PREFIX}{league_id}")
}

/// The event stream of a tournament: `tournament-<uuid>`.
pub fn tournament_stream_id(tournament_id: TournamentId) -> String {
    format!("{TOURNAMENT_STREAM_PREFIX}{tournament_id}")
}

/// The tournament id of a `tournament-<uuid>` stream, if it is one.
pub fn tournament_id_of_stream(stream_id: &str) -> Option<TournamentId> {
    stream_id.strip_prefix(TOURNAMENT_STREAM_PREFIX).and_then(|id| id.parse().ok())
}

/// The id of board `number` (1-based) of round `round` of a tournament: deterministic, like
/// [`game_id`], so the same seeding always names the same boards.
pub fn board_id(tournament_id: TournamentId, round: u32, number: u32) -> BoardId {
    BoardId(Uuid::new_v5(&tournament_id.0, format!("r{round}b{number}").as_bytes()))
}

/// The league id of a `league-<uuid>` stream, if it is one.
pub fn league_id_of_stream(stream_id: &str) -> Option<LeagueId> {
    stream_id.strip_prefix(LEAGUE_STREAM_PREFIX).and_then(|id| id.parse().ok())
}

/// The player id of a `player-<uuid>` stream, if it is one.
pub fn player_id_of_stream(stream_id: &str) -> Option<PlayerId> {
    stream_id.strip_prefix(PLAYER_STREAM_PREFIX).and_then(|id| id.parse().ok())
}

/// The id of game `number` (1-based) of a league: UUID v5, namespace = league id,
/// name = the decimal game number. Deterministic, so every replay finds the same ids.
pub fn game_id(league_id: LeagueId, number: u32) -> GameId {
    GameId(Uuid::new_v5(&league_id.0, number.to_string().as_bytes()))
}

/// The player string used inside scoring results: the canonical hyphenated lowercase UUID.
pub fn player_key(player_id: PlayerId) -> String {
    player_id.0.hyphenated().to_string()
}

/// Who issues a command. Lands in event metadata (and in `reportedBy`/`correctedBy`).
///
/// Serialised as a string: `"admin"` or `"player:<uuid>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    Admin,
    Player(PlayerId),
}

impl Actor {
    /// The player behind this actor, if it is a player.
    pub fn player_id(&self) -> Option<PlayerId> {
        match self {
            Actor::Admin => None,
            Actor::Player(id) => Some(*id),
        }
    }

    pub fn is_admin(&self) -> bool {
        matches!(self, Actor::Admin)
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Admin => f.write_str("admin"),
            Actor::Player(id) => write!(f, "player:{id}"),
        }
    }
}

/// An actor string that is neither `admin` nor `player:<uuid>`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid actor {0:?}: expected \"admin\" or \"player:<uuid>\"")]
pub struct ParseActorError(pub String);

impl FromStr for Actor {
    type Err = ParseActorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "admin" {
            return Ok(Actor::Admin);
        }
        s.strip_prefix("player:")
            .and_then(|id| id.parse().ok())
            .map(Actor::Player)
            .ok_or_else(|| ParseActorError(s.to_owned()))
    }
}

impl Serialize for Actor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Actor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Parsed from the borrowed text: every stored result names its actor, and a replay
        // should not allocate a string per event for it.
        struct ActorVisitor;
        impl serde::de::Visitor<'_> for ActorVisitor {
            type Value = Actor;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"admin\" or \"player:<uuid>\"")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Actor, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(ActorVisitor)
    }
}

/// Prefix of webhook streams.
pub const WEBHOOK_STREAM_PREFIX: &str = "webhook-";

/// The event stream of a webhook: `webhook-<uuid>`.
pub fn webhook_stream_id(webhook_id: WebhookId) -> String {
    format!("{WEBHOOK_STREAM_PREFIX}{webhook_id}")
}

/// The webhook id of a `webhook-<uuid>` stream, if it is one.
pub fn webhook_id_of_stream(stream_id: &str) -> Option<WebhookId> {
    stream_id.strip_prefix(WEBHOOK_STREAM_PREFIX).and_then(|id| id.parse().ok())
}

/// Prefix of series streams.
pub const SERIES_STREAM_PREFIX: &str = "series-";

/// The event stream of a series: `series-<uuid>`.
pub fn series_stream_id(series_id: SeriesId) -> String {
    format!("{SERIES_STREAM_PREFIX}{series_id}")
}

/// The series id of a `series-<uuid>` stream, if it is one.
pub fn series_id_of_stream(stream_id: &str) -> Option<SeriesId> {
    stream_id.strip_prefix(SERIES_STREAM_PREFIX).and_then(|id| id.parse().ok())
}

/// Prefix of calendar streams.
pub const CALENDAR_STREAM_PREFIX: &str = "calendar-";

/// The event stream of a player's calendar feed: `calendar-<uuid>`.
pub fn calendar_stream_id(player_id: PlayerId) -> String {
    format!("{CALENDAR_STREAM_PREFIX}{player_id}")
}

/// The player id of a `calendar-<uuid>` stream, if it is one.
pub fn player_id_of_calendar_stream(stream_id: &str) -> Option<PlayerId> {
    stream_id.strip_prefix(CALENDAR_STREAM_PREFIX).and_then(|id| id.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_are_deterministic_and_distinct_per_number_and_league() {
        let league = LeagueId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0001));
        let other = LeagueId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0002));
        assert_eq!(game_id(league, 1), game_id(league, 1));
        assert_ne!(game_id(league, 1), game_id(league, 2));
        assert_ne!(game_id(league, 1), game_id(other, 1));
        assert_eq!(game_id(league, 3).uuid().get_version_num(), 5);
    }

    #[test]
    fn stream_ids_round_trip() {
        let id = Uuid::from_u128(42);
        assert_eq!(league_stream_id(id.into()), format!("league-{id}"));
        assert_eq!(league_id_of_stream(&league_stream_id(id.into())), Some(id.into()));
        assert_eq!(player_id_of_stream(&player_stream_id(id.into())), Some(id.into()));
        assert_eq!(league_id_of_stream(&player_stream_id(id.into())), None);
        assert_eq!(tournament_id_of_stream(&tournament_stream_id(id.into())), Some(id.into()));
        assert_eq!(league_id_of_stream(&tournament_stream_id(id.into())), None);
        assert_ne!(board_id(id.into(), 1, 2), board_id(id.into(), 2, 1));
    }

    #[test]
    fn typed_ids_read_and_write_as_the_bare_uuid() {
        let uuid = Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0001);
        let id = GameId::new(uuid);
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, serde_json::to_string(&uuid).unwrap());
        assert_eq!(serde_json::from_str::<GameId>(&json).unwrap(), id);
        assert_eq!(id.to_string(), uuid.to_string());
        assert_eq!(format!("{id:?}"), format!("{uuid:?}"));
        assert_eq!(uuid.to_string().parse::<GameId>().unwrap(), id);
        assert!("not-a-uuid".parse::<GameId>().is_err());
        assert_eq!((id.uuid(), Uuid::from(id), GameId::from(uuid)), (uuid, uuid, id));
        let keyed = std::collections::BTreeMap::from([(PlayerId::new(uuid), 1)]);
        let bare = std::collections::BTreeMap::from([(uuid, 1)]);
        assert_eq!(serde_json::to_string(&keyed).unwrap(), serde_json::to_string(&bare).unwrap());
    }

    #[test]
    fn actor_serialises_as_a_string_and_back() {
        let player = Actor::Player(Uuid::from_u128(7).into());
        for actor in [Actor::Admin, player] {
            let json = serde_json::to_string(&actor).unwrap();
            assert_eq!(serde_json::from_str::<Actor>(&json).unwrap(), actor);
        }
        assert_eq!(serde_json::to_string(&Actor::Admin).unwrap(), "\"admin\"");
        assert!("player:not-a-uuid".parse::<Actor>().is_err());
        assert!("root".parse::<Actor>().is_err());
    }

    #[test]
    fn actor_decodes_from_text_from_json_values_and_from_escaped_text() {
        let player = Actor::Player(Uuid::from_u128(7).into());
        let text = format!("\"player:{}\"", Uuid::from_u128(7));
        assert_eq!(serde_json::from_str::<Actor>(&text).unwrap(), player);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(Actor::deserialize(&value).unwrap(), player);
        assert_eq!(serde_json::from_value::<Actor>(value).unwrap(), player);
        // An escape makes the parser hand over a copied string instead of a borrowed one.
        assert_eq!(serde_json::from_str::<Actor>("\"\\u0061dmin\"").unwrap(), Actor::Admin);
        let error = serde_json::from_str::<Actor>("\"root\"").unwrap_err();
        assert!(error.to_string().contains("invalid actor \"root\""), "{error}");
        assert!(serde_json::from_str::<Actor>("42").is_err());
    }
}
