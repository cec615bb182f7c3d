//! Personal data (`docs/personal-data.md`): a registration's name is sealed under the
//! person's new key before the event is stored, the key committing with it; a passkey
//! (credential and name) and a linked identity's subject are sealed under the key the
//! person already has; an erasure
//! deletes the key in the erasure event's transaction (an external id is sealed like a
//! subject); and the access request gathers
//! everything the platform holds about a person.

use chrono::{DateTime, Utc};
use league_domain::PlayerEvent;
use league_domain::{
    Actor, DomainEvent, EventType, KEEP_APART_REASON_FIELD, LeagueStatus, PERSON_KEY_LEN,
    PersonKey, PersonalText, authorise_personal_data, calendar_stream_id, player_stream_id,
};
use league_projections::{
    EXTERNAL_ID_FIELD, GameKind, IDENTITY_SUBJECT_FIELD, NAME_FIELD, PASSKEY_FIELD,
    PASSKEY_NAME_FIELD, PersonKeys, person_keys,
};
use league_store::{KeyChange, RecordedEvent, StreamId};
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use crate::App;
use crate::error::AppError;

/// The schema version from which `PlayerRegistered` names are sealed (earlier ones are plain
/// and have no key to read).
const SEALED_SINCE: i32 = 2;

/// The people whose sealed personal data is among `events` (sealed registrations, passkeys
/// added, identities linked): the read side opens it with their keys.
pub(crate) fn sealed_data_owners<'a>(events: impl Iterator<Item = &'a RecordedEvent>) -> Vec<Uuid> {
    let registered = EventType::PlayerRegistered.as_str();
    let passkey = EventType::PasskeyAdded.as_str();
    let linked = EventType::IdentityLinked.as_str();
    events
        .filter(|event| {
            (event.event_type == registered && event.schema_version >= SEALED_SINCE)
                || event.event_type == passkey
                || event.event_type == linked
        })
        .filter_map(|event| event.payload.get("playerId")?.as_str()?.parse().ok())
        .collect()
}

/// The person among `events` whose data is sealed under the key they already hold (a
/// passkey added, an identity linked), if any.
pub(crate) fn sealed_under_held_key(events: &[DomainEvent]) -> Option<Uuid> {
    events.iter().find_map(|event| match event {
        DomainEvent::Player(PlayerEvent::PasskeyAdded(e)) => Some(e.player_id.into()),
        DomainEvent::Player(PlayerEvent::IdentityLinked(e)) => Some(e.player_id.into()),
        DomainEvent::Player(PlayerEvent::PermanentKeepApartAdded(e)) if e.reason.is_some() => {
            Some(e.player_id.into())
        }
        DomainEvent::Player(PlayerEvent::ExternalIdRecorded(e)) => Some(e.player_id.into()),
        _ => None,
    })
}

/// Seals every plain personal field of `events`: a registration's under a fresh key for its
/// person, a passkey's under the key the person holds (`held`, from [`sealed_under_held_key`];
/// a person registered before names were sealed holds none, and is refused), and answers
/// the key change that must commit with them: the new key to store, or for an erasure the
/// key to delete. An append changes at most one person's key.
pub(crate) fn seal_personal_data(
    events: &mut [DomainEvent],
    held: &PersonKeys,
) -> Result<Option<KeyChange>, AppError> {
    let mut change = None;
    for event in events.iter_mut() {
        // Only a player's events carry personal data; a player event is a decision here.
        let DomainEvent::Player(event) = event else { continue };
        let next = match event {
            PlayerEvent::PlayerRegistered(e) => {
                let PersonalText::Plain(name) = &e.name else { continue };
                let key = PersonKey::from_bytes(random()?);
                e.name = PersonalText::seal(&key, random()?, e.player_id, NAME_FIELD, name);
                KeyChange::Insert { person: e.player_id.into(), key: *key.as_bytes() }
            }
            PlayerEvent::PlayerErased(e) => KeyChange::Delete { person: e.player_id.into() },
            PlayerEvent::PasskeyAdded(e) => {
                let key = held.get(&e.player_id.uuid()).ok_or_else(|| {
                    AppError::invalid(
                        "playerId",
                        "this player's record predates sealed personal data and holds no key; \
                         a passkey cannot be added to it",
                    )
                })?;
                for (text, field) in
                    [(&mut e.credential, PASSKEY_FIELD), (&mut e.name, PASSKEY_NAME_FIELD)]
                {
                    if let PersonalText::Plain(plain) = text {
                        *text = PersonalText::seal(key, random()?, e.player_id, field, plain);
                    }
                }
                continue;
            }
            PlayerEvent::IdentityLinked(e) => {
                let PersonalText::Plain(subject) = &e.subject else { continue };
                let key = held.get(&e.player_id.uuid()).ok_or_else(|| {
                    AppError::Domain(league_domain::DomainError::Conflict(format!(
                        "player {} was registered before personal data was sealed: their \
                         identity cannot be linked (docs/personal-data.md)",
                        e.player_id
                    )))
                })?;
                let (player, field) = (e.player_id, IDENTITY_SUBJECT_FIELD);
                e.subject = PersonalText::seal(key, random()?, player, field, subject);
                continue;
            }
            PlayerEvent::PermanentKeepApartAdded(e) => {
                let Some(PersonalText::Plain(reason)) = &e.reason else { continue };
                let key = held.get(&e.player_id.uuid()).ok_or_else(|| {
                    AppError::Domain(league_domain::DomainError::Conflict(format!(
                        "player {} was registered before personal data was sealed: a reason \
                         cannot be kept for their keep-apart list; add the player without one \
                         (docs/personal-data.md)",
                        e.player_id
                    )))
                })?;
                let (player, field) = (e.player_id, KEEP_APART_REASON_FIELD);
                e.reason = Some(PersonalText::seal(key, random()?, player, field, reason));
                continue;
            }
            PlayerEvent::ExternalIdRecorded(e) => {
                let PersonalText::Plain(id) = &e.id else { continue };
                let key = held.get(&e.player_id.uuid()).ok_or_else(|| {
                    AppError::Domain(league_domain::DomainError::Conflict(format!(
                        "player {} was registered before personal data was sealed: their \
                         external ids cannot be recorded (docs/personal-data.md)",
                        e.player_id
                    )))
                })?;
                let (player, field) = (e.player_id, EXTERNAL_ID_FIELD);
                e.id = PersonalText::seal(key, random()?, player, field, id);
                continue;
            }
            PlayerEvent::IdentityUnlinked(_)
            | PlayerEvent::PermanentKeepApartRemoved(_)
            | PlayerEvent::TokenRotated(_)
            | PlayerEvent::InviteIssued(_)
            | PlayerEvent::InviteRevoked(_)
            | PlayerEvent::TokenRevoked(_)
            | PlayerEvent::OrganiserAppointed(_)
            | PlayerEvent::OrganiserDismissed(_)
            | PlayerEvent::PasskeyRemoved(_)
            | PlayerEvent::SessionStarted(_)
            | PlayerEvent::SessionRenewed(_)
            | PlayerEvent::SessionEnded(_)
            | PlayerEvent::AllSessionsEnded(_)
            | PlayerEvent::SignInLinkIssued(_) => continue,
        };
        if change.replace(next).is_some() {
            return Err(AppError::internal("one append would change two person keys"));
        }
    }
    Ok(change)
}

/// Random bytes from the operating system.
fn random<const N: usize>() -> Result<[u8; N], AppError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|error| AppError::internal(error.to_string()))?;
    Ok(bytes)
}

// The store keeps the keys the domain seals with (it knows nothing of the domain).
const _: () = assert!(PERSON_KEY_LEN == league_store::PERSON_KEY_BYTES);

/// Everything the platform holds about one person, as the access request prints it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonalData {
    pub player_id: Uuid,
    /// The name as the platform shows it (the pseudonym once erased).
    pub name: String,
    pub erased: bool,
    /// Whether the platform holds the key the person's sealed data opens with.
    pub key_held: bool,
    pub registered_at: DateTime<Utc>,
    pub organiser: bool,
    /// `valid` or `revoked`; the token itself is never stored, only its hash.
    pub token: &'static str,
    /// The person's passkeys: name and when added (the credentials themselves are in
    /// `events`, sealed as stored).
    pub passkeys: Vec<PasskeyData>,
    /// The identity-provider identities linked to sign in with (none once erased).
    pub identities: Vec<IdentityData>,
    /// The players the person is never to share a board with, and why
    /// (`docs/tournaments.md#a-players-permanent-keep-apart-list`; none once erased).
    pub keep_apart: Vec<crate::KeepApartEntry>,
    /// The ids the person has in other systems (`wdr` …, `docs/tournaments.md#external-ids`),
    /// opened with their key (none once erased).
    pub external_ids: Vec<ExternalIdData>,
    /// The browsers signed in now (`docs/sign-in.md`): how, when, and a coarse device label.
    pub sessions: Vec<league_projections::SessionView>,
    pub leagues: Vec<LeagueData>,
    pub tournaments: Vec<TournamentData>,
    /// Current ratings, one per kind of game played.
    pub ratings: Vec<RatingData>,
    /// Every event of the person's own streams (player, calendar feed), and every event of a
    /// competition they are in or organise that names them or was theirs: as stored (a sealed name stays sealed here; `name`
    /// above is it opened).
    pub events: Vec<EventData>,
}

/// One passkey of a person, as the access request and the player's own page list it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyData {
    pub passkey_id: Uuid,
    /// What the person called it (`None` while their key is not at hand).
    pub name: Option<String>,
    pub added_at: DateTime<Utc>,
}

impl From<&league_projections::Passkey> for PasskeyData {
    fn from(passkey: &league_projections::Passkey) -> PasskeyData {
        PasskeyData {
            passkey_id: passkey.id,
            name: passkey.name().map(str::to_owned),
            added_at: passkey.added_at,
        }
    }
}

/// An identity of an identity provider linked to the person.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IdentityData {
    pub issuer: String,
    /// The provider's id of the person, opened with their key (`None` if it does not open).
    pub subject: Option<String>,
}

/// An id of the person in another system.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExternalIdData {
    pub system: String,
    pub id: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueData {
    pub league_id: Uuid,
    pub name: String,
    pub status: LeagueStatus,
    pub subscribed: bool,
    pub organiser: bool,
    /// Rank and total in the standings (while subscribed).
    pub rank: Option<u32>,
    pub total: Option<f64>,
    /// Every game the person sits in: number and their score once finished.
    pub games: Vec<GameData>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameData {
    pub game_id: Uuid,
    pub number: u32,
    pub score: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentData {
    pub tournament_id: Uuid,
    pub name: String,
    pub entrant: bool,
    pub organiser: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RatingData {
    pub kind: String,
    pub mu: f64,
    pub sigma: f64,
    pub games: u32,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventData {
    pub position: u64,
    pub stream_id: String,
    pub event_type: String,
    pub recorded_at: DateTime<Utc>,
    pub actor: Option<String>,
    pub payload: Value,
}

impl From<RecordedEvent> for EventData {
    fn from(event: RecordedEvent) -> EventData {
        EventData {
            position: event.position,
            stream_id: event.stream_id.to_string(),
            event_type: event.event_type,
            recorded_at: event.recorded_at,
            actor: event.metadata.actor,
            payload: event.payload,
        }
    }
}

impl App {
    /// Everything the platform holds about `player` (the access request), for the player
    /// themself or the site admin (else `FORBIDDEN`), or `NOT_FOUND`.
    pub async fn personal_data(
        &self,
        actor: Actor,
        player: Uuid,
    ) -> Result<PersonalData, AppError> {
        authorise_personal_data(actor, player.into())?;
        let (view, organiser, leagues, tournaments, passkeys, identities) = {
            let catalog = self.catalog();
            let view = catalog
                .player(player)
                .cloned()
                .ok_or_else(|| AppError::NotFound(format!("player {player}")))?;
            // Joined leagues come from the player's index; organised ones from a scan.
            let joined: std::collections::HashSet<Uuid> =
                catalog.leagues_joined(player).into_iter().collect();
            let leagues: Vec<_> = catalog
                .leagues()
                .filter(|league| {
                    league.organisers.includes(player.into()) || joined.contains(&league.id)
                })
                .map(|league| (league.id, league.organisers.includes(player.into())))
                .collect();
            let tournaments: Vec<_> = catalog
                .tournaments()
                .filter(|t| t.entrants.contains(&player) || t.organisers.includes(player.into()))
                .map(|t| TournamentData {
                    tournament_id: t.id,
                    name: t.settings.name.clone(),
                    entrant: t.entrants.contains(&player),
                    organiser: t.organisers.includes(player.into()),
                })
                .collect();
            let passkeys = catalog.passkeys(player).iter().map(PasskeyData::from).collect();
            let identities = catalog
                .identities(player)
                .iter()
                .map(|identity| IdentityData {
                    issuer: identity.issuer.clone(),
                    subject: identity.subject().map(str::to_owned),
                })
                .collect();
            (view, catalog.is_organiser(player), leagues, tournaments, passkeys, identities)
        };
        let needle = player.to_string();
        let as_actor = Actor::Player(player.into()).to_string();
        let names_them = |event: &RecordedEvent| {
            event.metadata.actor.as_deref() == Some(as_actor.as_str())
                || event.payload.to_string().contains(&needle)
        };
        // The person's own streams: registration and rights, and their calendar feed.
        let mut events: Vec<RecordedEvent> = Vec::new();
        for stream in [player_stream_id(player.into()), calendar_stream_id(player.into())] {
            let stream = StreamId::new(stream).map_err(AppError::internal)?;
            events.extend(self.reads().read_stream(&stream, 1).await?);
        }
        let mut league_data = Vec::with_capacity(leagues.len());
        for (league, organises) in leagues {
            let model = self.existing_league(league).await?;
            let Some(summary) = model.league(league) else { continue };
            let standing =
                model.standings(league).into_iter().find(|row| row.player == player.into());
            let games = model
                .games_of(league)
                .filter(|game| game.seats.iter().any(|seat| seat.player == player))
                .map(|game| GameData {
                    game_id: game.id,
                    number: game.number,
                    score: game.scores.iter().find(|(p, _)| *p == player).map(|(_, s)| *s),
                })
                .collect();
            league_data.push(LeagueData {
                league_id: league,
                name: summary.settings.name.clone(),
                status: summary.status,
                subscribed: summary.players.contains(&player),
                organiser: organises,
                rank: standing.as_ref().map(|row| row.rank),
                total: standing.as_ref().map(|row| row.total),
                games,
            });
            let stream = StreamId::new(league_domain::league_stream_id(league.into()))
                .map_err(AppError::internal)?;
            events
                .extend(self.reads().read_stream(&stream, 1).await?.into_iter().filter(names_them));
        }
        for tournament in &tournaments {
            let stream = self.tournament_events(tournament.tournament_id).await?;
            events.extend(stream.into_iter().filter(names_them));
        }
        events.sort_by_key(|event| event.position);
        let mut ratings = Vec::new();
        for kind in GameKind::ALL {
            let rating = self.rating(kind, player, None).await?;
            if rating.games > 0 {
                ratings.push(RatingData {
                    kind: format!("{kind:?}"),
                    mu: rating.mu,
                    sigma: rating.sigma,
                    games: rating.games,
                });
            }
        }
        let key_held = person_keys(self.store(), Some(&[player])).await?.contains_key(&player);
        let keep_apart = self.permanent_keep_apart(actor, player).await?;
        let external_ids = self.external_ids(&[player]).await?.remove(&player).unwrap_or_default();
        let external_ids =
            external_ids.into_iter().map(|(system, id)| ExternalIdData { system, id }).collect();
        Ok(PersonalData {
            player_id: player,
            name: view.name,
            erased: view.erased,
            key_held,
            registered_at: view.registered_at,
            organiser,
            token: if view.token_hash.is_empty() { "revoked" } else { "valid" },
            passkeys,
            identities,
            external_ids,
            sessions: self.catalog().sign_ins().sessions_of(player).into_iter().cloned().collect(),
            keep_apart,
            leagues: league_data,
            tournaments,
            ratings,
            events: events.into_iter().map(EventData::from).collect(),
        })
    }
}

impl App {
    /// The passkeys of `player` (`docs/sign-in.md#passkeys`), for the player themself or
    /// the site admin (else `FORBIDDEN`).
    pub fn passkeys(&self, actor: Actor, player: Uuid) -> Result<Vec<PasskeyData>, AppError> {
        authorise_personal_data(actor, player.into())?;
        Ok(self.catalog().passkeys(player).iter().map(PasskeyData::from).collect())
    }

    /// The opened credentials of `player`'s passkeys, `(passkey id, credential as the gateway
    /// encoded it)`: what a passkey sign-in is checked against. None for an unknown or erased
    /// player.
    pub fn passkey_credentials(&self, player: Uuid) -> Vec<(Uuid, String)> {
        let catalog = self.catalog();
        catalog
            .passkeys(player)
            .iter()
            .filter_map(|passkey| Some((passkey.id, passkey.credential()?.to_owned())))
            .collect()
    }
}
