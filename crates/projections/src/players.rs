//! [`PlayerRegistry`]: the one fold of the player streams — every player, in registration
//! order, with the token-hash lookup (following rotations and revocations), who is an
//! appointed organiser, the signed-in sessions and unused sign-in links ([`SignIns`]), and
//! each player's name: sealed names are opened with the person keys
//! the loader hands in ([`PlayerRegistry::open_names`]), and an erased player (or one whose
//! key is not at hand) shows as their pseudonym (`docs/personal-data.md`). The catalog holds it for the running platform; the whole-log
//! [`ReadModel`](crate::ReadModel) (replay, audit, as-of) holds its own, since it is folded
//! without a catalog. A league's own model never sees a player event (player streams are not
//! in league streams), so its registry stays empty.

use std::collections::HashMap as KeyMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use league_domain::{
    DomainEvent, PersonKey, PersonalText, PlayerEvent, PlayerRegistered, SealedText, pseudonym,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use uuid::Uuid;

use futures::TryStreamExt;
use league_domain::EventType;
use league_store::EventStore;

use crate::decode::{EventMeta, decode_row};

use crate::error::ProjectionError;
use crate::sign_ins::{SignIns, SignInsImage};

/// Registered players.
#[derive(Debug, Clone, Default)]
pub struct PlayerRegistry {
    players: HashMap<Uuid, PlayerView>,
    /// Player ids in registration order.
    order: Vec<Uuid>,
    /// Valid token hashes only: a rotated or revoked token is removed at once. Token hashes
    /// come from outside: keep SipHash here.
    by_token: std::collections::HashMap<String, Uuid>,
    /// Players appointed organiser and not dismissed since.
    organisers: HashSet<Uuid>,
    /// Every sealed name of a player not erased, opened or not: a snapshot keeps names only
    /// as the log holds them (`crate::snapshot`).
    sealed: HashMap<Uuid, SealedText>,
    /// Sealed names not opened yet (their key was not at hand when folded).
    unopened: HashSet<Uuid>,
    /// Players erased, here or later in the log ([`Self::forget_names`]): their names are
    /// never opened again.
    erased: HashSet<Uuid>,
    /// Signed-in sessions and unused sign-in links.
    sign_ins: SignIns,
}

/// The field a player's name is sealed as.
pub const NAME_FIELD: &str = "name";

/// Person keys by person, as [`PlayerRegistry::open_names`] takes them.
pub type PersonKeys = KeyMap<Uuid, PersonKey>;

/// Every player erased anywhere in the log: an as-of view of an earlier point shows them
/// as their pseudonyms too (an erasure applies to all of history, and a plain name from
/// before sealing has no key to delete).
pub async fn erased_players(store: &EventStore) -> Result<Vec<Uuid>, ProjectionError> {
    let mut rows = store.read_types_until(&[EventType::PlayerErased.as_str()], u64::MAX);
    let mut erased = Vec::new();
    while let Some(row) = rows.try_next().await? {
        if let (_, DomainEvent::Player(PlayerEvent::PlayerErased(e))) = decode_row(&row)? {
            erased.push(e.player_id.into());
        }
    }
    Ok(erased)
}

/// The person keys of `persons` (every key for `None`) from the store's key table.
pub async fn person_keys(
    store: &EventStore,
    persons: Option<&[Uuid]>,
) -> Result<PersonKeys, ProjectionError> {
    let keys = store.person_keys(persons).await?;
    Ok(keys.into_iter().map(|(person, key)| (person, PersonKey::from_bytes(key))).collect())
}

impl PlayerRegistry {
    /// Folds one registration; a player registered twice is an inconsistent log.
    pub fn register(
        &mut self,
        meta: EventMeta,
        e: &PlayerRegistered,
    ) -> Result<(), ProjectionError> {
        if self.players.contains_key(&e.player_id.uuid()) {
            return Err(ProjectionError::inconsistent(
                meta.position,
                format!("player {} registered twice", e.player_id),
            ));
        }
        self.by_token.insert(e.token_hash.clone(), e.player_id.into());
        self.order.push(e.player_id.into());
        let erased = self.erased.contains(&e.player_id.uuid());
        let name = match &e.name {
            PersonalText::Plain(name) if !erased => name.clone(),
            PersonalText::Sealed(sealed) if !erased => {
                self.sealed.insert(e.player_id.into(), sealed.clone());
                self.unopened.insert(e.player_id.into());
                pseudonym(e.player_id)
            }
            _ => pseudonym(e.player_id),
        };
        let view = PlayerView {
            id: e.player_id.into(),
            name,
            erased,
            token_hash: e.token_hash.clone(),
            registered_at: meta.recorded_at,
        };
        self.players.insert(e.player_id.into(), view);
        Ok(())
    }

    /// Folds an event of a player's stream (registration, token, organiser right, erasure).
    pub fn apply(&mut self, meta: EventMeta, event: &PlayerEvent) -> Result<(), ProjectionError> {
        self.sign_ins.apply(meta, event);
        match event {
            PlayerEvent::PlayerRegistered(e) => self.register(meta, e)?,
            PlayerEvent::TokenRotated(e) => {
                let player = self.existing(meta, e.player_id.into())?;
                let old = std::mem::replace(&mut player.token_hash, e.token_hash.clone());
                self.by_token.remove(&old);
                self.by_token.insert(e.token_hash.clone(), e.player_id.into());
            }
            PlayerEvent::TokenRevoked(e) => {
                let player = self.existing(meta, e.player_id.into())?;
                let old = std::mem::take(&mut player.token_hash);
                self.by_token.remove(&old);
            }
            PlayerEvent::OrganiserAppointed(e) => {
                self.existing(meta, e.player_id.into())?;
                self.organisers.insert(e.player_id.into());
            }
            PlayerEvent::OrganiserDismissed(e) => {
                self.organisers.remove(&e.player_id.uuid());
            }
            PlayerEvent::PlayerErased(e) => {
                let player = self.existing(meta, e.player_id.into())?;
                let old = std::mem::take(&mut player.token_hash);
                self.by_token.remove(&old);
                self.organisers.remove(&e.player_id.uuid());
                self.forget_names([e.player_id.uuid()]);
            }
            // Not in the catalog: invites are read from the log when someone signs up with
            // one (`docs/operations.md#sign-up`).
            PlayerEvent::InviteIssued(_) | PlayerEvent::InviteRevoked(_) => {}
            PlayerEvent::SessionStarted(_)
            | PlayerEvent::SessionRenewed(_)
            | PlayerEvent::SessionEnded(_)
            | PlayerEvent::AllSessionsEnded(_)
            | PlayerEvent::SignInLinkIssued(_) => {}
        }
        Ok(())
    }

    /// Opens every sealed name whose key is in `keys` (the loader reads them from the key
    /// table after folding, and the follower before folding new registrations). A name that
    /// does not open with its key stays the pseudonym.
    pub fn open_names(&mut self, keys: &PersonKeys) {
        if self.unopened.is_empty() {
            return;
        }
        let (sealed_names, players) = (&self.sealed, &mut self.players);
        self.unopened.retain(|id| {
            let (Some(key), Some(sealed)) = (keys.get(id), sealed_names.get(id)) else {
                return true;
            };
            match sealed.open(key, (*id).into(), NAME_FIELD) {
                Ok(name) => {
                    if let Some(player) = players.get_mut(id) {
                        player.name = name;
                    }
                }
                Err(error) => tracing::warn!(player = %id, %error, "a sealed name does not open"),
            }
            false
        });
    }

    /// Whether some sealed name is not opened yet.
    pub fn has_unopened(&self) -> bool {
        !self.unopened.is_empty()
    }

    /// Shows `ids` as their pseudonyms from now on, and never opens their names again: the
    /// fold of a player's erasure, and what an as-of view is told of erasures past its end
    /// (an erasure applies to all of history).
    pub fn forget_names(&mut self, ids: impl IntoIterator<Item = Uuid>) {
        for id in ids {
            self.erased.insert(id);
            self.sealed.remove(&id);
            self.unopened.remove(&id);
            if let Some(player) = self.players.get_mut(&id) {
                player.name = pseudonym(id.into());
                player.erased = true;
            }
        }
    }

    fn existing(&mut self, meta: EventMeta, id: Uuid) -> Result<&mut PlayerView, ProjectionError> {
        self.players.get_mut(&id).ok_or_else(|| {
            ProjectionError::inconsistent(meta.position, format!("unknown player {id}"))
        })
    }

    pub fn get(&self, id: Uuid) -> Option<&PlayerView> {
        self.players.get(&id)
    }

    /// Player ids in registration order.
    pub fn ids(&self) -> &[Uuid] {
        &self.order
    }

    /// Every player, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &PlayerView> {
        self.order.iter().filter_map(|id| self.players.get(id))
    }

    /// The player whose valid bearer token hashes to `token_hash` (none for a rotated or
    /// revoked token).
    pub fn by_token_hash(&self, token_hash: &str) -> Option<&PlayerView> {
        self.by_token.get(token_hash).and_then(|id| self.players.get(id))
    }

    /// Whether the player is an appointed organiser now.
    pub fn is_organiser(&self, id: Uuid) -> bool {
        self.organisers.contains(&id)
    }

    /// Signed-in sessions and unused sign-in links.
    pub fn sign_ins(&self) -> &SignIns {
        &self.sign_ins
    }
}

/// A player as a snapshot keeps them: the name only as the log holds it (sealed names stay
/// sealed, and are opened again with the key table on load).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PlayerImage {
    id: Uuid,
    name: NameImage,
    token_hash: String,
    registered_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum NameImage {
    /// Stored in plain text (registered before names were sealed).
    Plain(String),
    Sealed(SealedText),
    /// Erased: only the pseudonym is ever shown.
    Pseudonym,
}

/// [`PlayerRegistry`] as a snapshot keeps it: players in registration order, organisers and
/// erased players sorted (so equal registries have equal images).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RegistryImage {
    players: Vec<PlayerImage>,
    organisers: Vec<Uuid>,
    erased: Vec<Uuid>,
    sign_ins: SignInsImage,
}

impl PlayerRegistry {
    pub(crate) fn image(&self) -> RegistryImage {
        let players = self
            .iter()
            .map(|view| PlayerImage {
                id: view.id,
                name: match self.sealed.get(&view.id) {
                    Some(sealed) => NameImage::Sealed(sealed.clone()),
                    None if view.erased => NameImage::Pseudonym,
                    None => NameImage::Plain(view.name.clone()),
                },
                token_hash: view.token_hash.clone(),
                registered_at: view.registered_at,
            })
            .collect();
        RegistryImage {
            players,
            organisers: sorted(self.organisers.iter().copied()),
            erased: sorted(self.erased.iter().copied()),
            sign_ins: self.sign_ins.image(),
        }
    }

    /// The registry an image was taken of, with every sealed name unopened
    /// ([`Self::open_names`] next).
    pub(crate) fn from_image(image: RegistryImage) -> PlayerRegistry {
        let mut registry = PlayerRegistry {
            organisers: image.organisers.into_iter().collect(),
            erased: image.erased.into_iter().collect(),
            sign_ins: SignIns::from_image(image.sign_ins),
            ..PlayerRegistry::default()
        };
        registry.order.reserve(image.players.len());
        for player in image.players {
            let erased = registry.erased.contains(&player.id);
            let name = match player.name {
                NameImage::Plain(name) => name,
                NameImage::Sealed(sealed) => {
                    registry.sealed.insert(player.id, sealed);
                    registry.unopened.insert(player.id);
                    pseudonym(player.id.into())
                }
                NameImage::Pseudonym => pseudonym(player.id.into()),
            };
            if !player.token_hash.is_empty() {
                registry.by_token.insert(player.token_hash.clone(), player.id);
            }
            registry.order.push(player.id);
            let view = PlayerView {
                id: player.id,
                name,
                erased,
                token_hash: player.token_hash,
                registered_at: player.registered_at,
            };
            registry.players.insert(player.id, view);
        }
        registry
    }
}

/// `ids` in ascending order.
pub(crate) fn sorted(ids: impl Iterator<Item = Uuid>) -> Vec<Uuid> {
    let mut ids: Vec<Uuid> = ids.collect();
    ids.sort_unstable();
    ids
}

/// A registered player.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerView {
    pub id: Uuid,
    /// The name to show: the player's own (opened with their key, or plain as stored before
    /// names were sealed), else their pseudonym (erased, or their key is not at hand).
    pub name: String,
    /// Whether the player's personal data was erased.
    pub erased: bool,
    /// Hash of the player's valid bearer token (the token itself is never stored; empty
    /// while the token is revoked).
    pub token_hash: String,
    pub registered_at: DateTime<Utc>,
}
