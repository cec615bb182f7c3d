//! [`PlayerRegistry`]: the one fold of the player streams — every player, in registration
//! order, with the token-hash lookup (following rotations and revocations), who is an
//! appointed organiser, the signed-in sessions and unused sign-in links ([`SignIns`]), the
//! identity-provider lookup (issuer and subject to player, `docs/sign-in.md#identity-providers`;
//! subjects are sealed like names and opened with the same keys), and
//! each player's name: sealed names are opened with the person keys
//! the loader hands in ([`PlayerRegistry::open_names`]), and an erased player (or one whose
//! key is not at hand) shows as their pseudonym (`docs/personal-data.md`); and each player's
//! passkeys, their sealed credentials opened with the same keys, so every gateway signs a
//! passkey in and an erasure leaves none that does (`docs/sign-in.md#passkeys`). The catalog holds it for the running platform; the whole-log
//! [`ReadModel`](crate::ReadModel) (replay, audit, as-of) holds its own, since it is folded
//! without a catalog. A league's own model never sees a player event (player streams are not
//! in league streams), so its registry stays empty.

use std::collections::HashMap as KeyMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use league_domain::{
    DomainEvent, PasskeyAdded, PersonKey, PersonalText, PlayerEvent, PlayerRegistered, SealedText,
    pseudonym,
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
    /// Each player's passkeys (added, not removed, player not erased), in the order added.
    passkeys: HashMap<Uuid, Vec<Passkey>>,
    /// Signed-in sessions and unused sign-in links.
    sign_ins: SignIns,
    /// Each player's linked identities, in link order (erased players have none).
    identities: HashMap<Uuid, Vec<LinkedIdentity>>,
    /// The player each opened identity signs in (issuer, subject); the first link of an
    /// identity wins, should two players have linked the same one.
    by_identity: std::collections::HashMap<(String, String), Uuid>,
    /// Players with a sealed subject not opened yet.
    unopened_identities: HashSet<Uuid>,
}

/// An identity of an identity provider linked to a player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkedIdentity {
    /// The provider's issuer address.
    pub issuer: String,
    /// The provider's id of the person, as the log holds it (sealed).
    subject: PersonalText,
    /// The subject opened with the person's key (`None` until then).
    #[serde(skip)]
    opened: Option<String>,
}

impl LinkedIdentity {
    /// The subject, once opened with the person's key.
    pub fn subject(&self) -> Option<&str> {
        self.opened.as_deref()
    }
}

/// One passkey of a player as the log holds it, and opened once its key is at hand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Passkey {
    pub id: Uuid,
    pub added_at: DateTime<Utc>,
    /// The credential as stored (sealed), and the name the player gave it.
    stored_credential: PersonalText,
    stored_name: PersonalText,
    /// Opened: the credential as the gateway encoded it, and the name; `None` until the
    /// player's key is at hand.
    #[serde(skip)]
    opened: Option<(String, String)>,
}

impl Passkey {
    /// The credential as the gateway encoded it, once opened.
    pub fn credential(&self) -> Option<&str> {
        self.opened.as_ref().map(|(credential, _)| credential.as_str())
    }

    /// The name its player gave it, once opened.
    pub fn name(&self) -> Option<&str> {
        self.opened.as_ref().map(|(_, name)| name.as_str())
    }

    /// Opens the stored fields with `key` (a plain field reads as written).
    fn open(&mut self, key: Option<&PersonKey>, player: Uuid) {
        let open = |text: &PersonalText, field| text.open(key, player.into(), field);
        match (
            open(&self.stored_credential, PASSKEY_FIELD),
            open(&self.stored_name, PASSKEY_NAME_FIELD),
        ) {
            (Ok(Some(credential)), Ok(Some(name))) => self.opened = Some((credential, name)),
            (Ok(_), Ok(_)) => {}
            (Err(error), _) | (_, Err(error)) => {
                tracing::warn!(%player, passkey = %self.id, %error, "a sealed passkey does not open")
            }
        }
    }
}

/// The fields a passkey's credential and name are sealed as.
pub const PASSKEY_FIELD: &str = "passkey";
pub const PASSKEY_NAME_FIELD: &str = "passkeyName";

/// The field a player's name is sealed as.
pub const NAME_FIELD: &str = "name";
/// The field a linked identity's subject is sealed as.
pub const IDENTITY_SUBJECT_FIELD: &str = "identitySubject";
/// The field an external id (`docs/tournaments.md#external-ids`) is sealed as.
pub const EXTERNAL_ID_FIELD: &str = "externalId";

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
            PlayerEvent::PasskeyAdded(e) => self.add_passkey(meta, e)?,
            PlayerEvent::PasskeyRemoved(e) => {
                if let Some(passkeys) = self.passkeys.get_mut(&e.player_id.uuid()) {
                    passkeys.retain(|passkey| passkey.id != e.passkey_id);
                }
            }
            PlayerEvent::IdentityLinked(e) => {
                self.existing(meta, e.player_id.into())?;
                let identity = LinkedIdentity {
                    issuer: e.issuer.clone(),
                    subject: e.subject.clone(),
                    opened: None,
                };
                self.link(e.player_id.into(), identity);
            }
            PlayerEvent::IdentityUnlinked(e) => {
                let player = e.player_id.uuid();
                let linked = self.identities.entry(player).or_default();
                let (gone, kept) =
                    std::mem::take(linked).into_iter().partition(|i| i.issuer == e.issuer);
                *linked = kept;
                self.drop_lookups(player, gone);
            }
            // Not in the catalog: invites are read from the log when someone signs up with
            // one (`docs/operations.md#sign-up`).
            PlayerEvent::InviteIssued(_) | PlayerEvent::InviteRevoked(_) => {}
            // Not in the catalog: a permanent keep-apart list is read from its player's
            // stream (`docs/tournaments.md#a-players-permanent-keep-apart-list`).
            PlayerEvent::PermanentKeepApartAdded(_) | PlayerEvent::PermanentKeepApartRemoved(_) => {
            }
            PlayerEvent::SessionStarted(_)
            | PlayerEvent::SessionRenewed(_)
            | PlayerEvent::SessionEnded(_)
            | PlayerEvent::AllSessionsEnded(_)
            | PlayerEvent::SignInLinkIssued(_) => {}
            // Not in the catalog: exports and the access request read external ids from
            // the log (`docs/tournaments.md#external-ids`).
            PlayerEvent::ExternalIdRecorded(_) => {}
        }
        Ok(())
    }

    fn add_passkey(&mut self, meta: EventMeta, e: &PasskeyAdded) -> Result<(), ProjectionError> {
        let player = e.player_id.uuid();
        self.existing(meta, player)?;
        if self.erased.contains(&player) {
            return Ok(());
        }
        let mut passkey = Passkey {
            id: e.passkey_id,
            added_at: meta.recorded_at,
            stored_credential: e.credential.clone(),
            stored_name: e.name.clone(),
            opened: None,
        };
        passkey.open(None, player);
        if passkey.opened.is_none() {
            self.unopened.insert(player);
        }
        self.passkeys.entry(player).or_default().push(passkey);
        Ok(())
    }

    /// The passkeys of `player` (added, not removed, not erased), in the order added.
    pub fn passkeys(&self, player: Uuid) -> &[Passkey] {
        self.passkeys.get(&player).map_or(&[], Vec::as_slice)
    }

    /// Records `identity` of `player` (not erased): in the lookup at once when plain, else
    /// once opened ([`Self::open_names`]).
    fn link(&mut self, player: Uuid, mut identity: LinkedIdentity) {
        if self.erased.contains(&player) {
            return;
        }
        match &identity.subject {
            PersonalText::Plain(subject) => {
                identity.opened = Some(subject.clone());
                let key = (identity.issuer.clone(), subject.clone());
                self.by_identity.entry(key).or_insert(player);
            }
            PersonalText::Sealed(_) => {
                identity.opened = None;
                self.unopened_identities.insert(player);
            }
        }
        self.identities.entry(player).or_default().push(identity);
    }

    /// Removes `gone`, identities of `player`, from the lookup.
    fn drop_lookups(&mut self, player: Uuid, gone: Vec<LinkedIdentity>) {
        for identity in gone {
            if let Some(subject) = identity.opened {
                let key = (identity.issuer, subject);
                if self.by_identity.get(&key) == Some(&player) {
                    self.by_identity.remove(&key);
                }
            }
        }
    }

    /// Opens the sealed subjects of the players whose keys are in `keys`.
    fn open_identities(&mut self, keys: &PersonKeys) {
        let players: Vec<Uuid> =
            self.unopened_identities.iter().filter(|id| keys.contains_key(id)).copied().collect();
        for player in players {
            self.unopened_identities.remove(&player);
            let key = &keys[&player];
            let Some(linked) = self.identities.get_mut(&player) else { continue };
            for identity in linked.iter_mut().filter(|i| i.opened.is_none()) {
                let PersonalText::Sealed(sealed) = &identity.subject else { continue };
                match sealed.open(key, player.into(), IDENTITY_SUBJECT_FIELD) {
                    Ok(subject) => {
                        let lookup = (identity.issuer.clone(), subject.clone());
                        self.by_identity.entry(lookup).or_insert(player);
                        identity.opened = Some(subject);
                    }
                    Err(error) => {
                        tracing::warn!(%player, %error, "a sealed identity does not open");
                    }
                }
            }
        }
    }

    /// The player that the identity `subject` of the provider `issuer` signs in, if linked.
    pub fn by_identity(&self, issuer: &str, subject: &str) -> Option<&PlayerView> {
        let player = self.by_identity.get(&(issuer.to_owned(), subject.to_owned()))?;
        self.players.get(player)
    }

    /// The identities `player` linked, in link order.
    pub fn identities(&self, player: Uuid) -> &[LinkedIdentity] {
        self.identities.get(&player).map_or(&[], Vec::as_slice)
    }

    /// Opens every sealed name whose key is in `keys` (the loader reads them from the key
    /// table after folding, and the follower before folding new registrations). A name that
    /// does not open with its key stays the pseudonym.
    pub fn open_names(&mut self, keys: &PersonKeys) {
        self.open_identities(keys);
        if self.unopened.is_empty() {
            return;
        }
        let (sealed_names, players, passkeys) =
            (&self.sealed, &mut self.players, &mut self.passkeys);
        self.unopened.retain(|id| {
            let Some(key) = keys.get(id) else {
                return true;
            };
            if let Some(sealed) = sealed_names.get(id) {
                match sealed.open(key, (*id).into(), NAME_FIELD) {
                    Ok(name) => {
                        if let Some(player) = players.get_mut(id) {
                            player.name = name;
                        }
                    }
                    Err(error) => {
                        tracing::warn!(player = %id, %error, "a sealed name does not open")
                    }
                }
            }
            for passkey in passkeys.get_mut(id).into_iter().flatten() {
                if passkey.opened.is_none() {
                    passkey.open(Some(key), *id);
                }
            }
            false
        });
    }

    /// Whether some sealed name or subject is not opened yet.
    pub fn has_unopened(&self) -> bool {
        !self.unopened.is_empty() || !self.unopened_identities.is_empty()
    }

    /// Shows `ids` as their pseudonyms from now on, and never opens their names again: the
    /// fold of a player's erasure, and what an as-of view is told of erasures past its end
    /// (an erasure applies to all of history).
    pub fn forget_names(&mut self, ids: impl IntoIterator<Item = Uuid>) {
        for id in ids {
            self.erased.insert(id);
            self.sealed.remove(&id);
            self.passkeys.remove(&id);
            self.unopened.remove(&id);
            self.unopened_identities.remove(&id);
            let gone = self.identities.remove(&id).unwrap_or_default();
            self.drop_lookups(id, gone);
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
    /// Sealed, as the log holds them.
    passkeys: Vec<Passkey>,
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
    /// Linked identities (subjects as the log holds them), by player id.
    identities: Vec<(Uuid, Vec<LinkedIdentity>)>,
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
                passkeys: self.passkeys(view.id).to_vec(),
            })
            .collect();
        let identities = sorted(self.identities.keys().copied())
            .into_iter()
            .map(|id| (id, self.identities[&id].clone()))
            .collect();
        RegistryImage {
            players,
            organisers: sorted(self.organisers.iter().copied()),
            erased: sorted(self.erased.iter().copied()),
            identities,
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
            if !player.passkeys.is_empty() {
                registry.unopened.insert(player.id);
                registry.passkeys.insert(player.id, player.passkeys);
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
        for (player, linked) in image.identities {
            for identity in linked {
                registry.link(player, identity);
            }
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

#[cfg(test)]
mod tests {
    use league_domain::{IdentityLinked, IdentityUnlinked, PlayerErased, PlayerId};

    use super::*;

    const ISSUER: &str = "https://id.club.example";

    fn meta(position: u64) -> EventMeta {
        EventMeta { position, stream_version: position, recorded_at: Utc::now() }
    }

    fn registered(registry: &mut PlayerRegistry, id: PlayerId) {
        let e = PlayerRegistered {
            player_id: id,
            name: PersonalText::Plain("Ann".into()),
            token_hash: format!("hash-{id}"),
        };
        registry.apply(meta(1), &PlayerEvent::PlayerRegistered(e)).unwrap();
    }

    fn linked(id: PlayerId, key: &PersonKey, subject: &str) -> PlayerEvent {
        let sealed = PersonalText::seal(key, [7; 24], id, IDENTITY_SUBJECT_FIELD, subject);
        PlayerEvent::IdentityLinked(IdentityLinked {
            player_id: id,
            issuer: ISSUER.into(),
            subject: sealed,
        })
    }

    #[test]
    fn a_sealed_subject_signs_in_once_opened_also_from_a_snapshot_until_unlinked_or_erased() {
        let (ann, bob) = (PlayerId::from(Uuid::now_v7()), PlayerId::from(Uuid::now_v7()));
        let key = PersonKey::from_bytes([5; 32]);
        let keys: PersonKeys = [(ann.uuid(), key.clone())].into_iter().collect();
        let mut registry = PlayerRegistry::default();
        registered(&mut registry, ann);
        registered(&mut registry, bob);
        registry.apply(meta(2), &linked(ann, &key, "sub-ann")).unwrap();
        assert!(registry.by_identity(ISSUER, "sub-ann").is_none(), "sealed until opened");
        assert!(registry.has_unopened());
        registry.open_names(&keys);
        assert_eq!(registry.by_identity(ISSUER, "sub-ann").map(|p| p.id), Some(ann.uuid()));
        assert_eq!(registry.identities(ann.uuid())[0].subject(), Some("sub-ann"));

        let mut restored = PlayerRegistry::from_image(registry.image());
        assert!(restored.by_identity(ISSUER, "sub-ann").is_none());
        restored.open_names(&keys);
        assert_eq!(restored.by_identity(ISSUER, "sub-ann").map(|p| p.id), Some(ann.uuid()));

        let unlinked = IdentityUnlinked {
            player_id: ann,
            issuer: ISSUER.into(),
            unlinked_by: league_domain::Actor::Player(ann),
        };
        registry.apply(meta(3), &PlayerEvent::IdentityUnlinked(unlinked)).unwrap();
        assert!(registry.by_identity(ISSUER, "sub-ann").is_none());

        let erased = PlayerErased {
            player_id: ann,
            erased_by: league_domain::Actor::Admin,
            reason: "asked".into(),
        };
        restored.apply(meta(3), &PlayerEvent::PlayerErased(erased)).unwrap();
        assert!(restored.by_identity(ISSUER, "sub-ann").is_none());
        assert!(restored.identities(ann.uuid()).is_empty());
    }
}
