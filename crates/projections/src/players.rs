//! [`PlayerRegistry`]: the one fold of the player streams — every player, in registration
//! order, with the token-hash lookup (following rotations and revocations) and who is an
//! appointed organiser. The catalog holds it for the running platform; the whole-log
//! [`ReadModel`](crate::ReadModel) (replay, audit, as-of) holds its own, since it is folded
//! without a catalog. A league's own model never sees a player event (player streams are not
//! in league streams), so its registry stays empty.

use league_domain::{DomainEvent, PlayerRegistered};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use uuid::Uuid;

use crate::error::ProjectionError;
use crate::model::{EventMeta, PlayerView};

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
}

impl PlayerRegistry {
    /// Folds one registration; a player registered twice is an inconsistent log.
    pub fn register(
        &mut self,
        meta: EventMeta,
        e: &PlayerRegistered,
    ) -> Result<(), ProjectionError> {
        if self.players.contains_key(&e.player_id) {
            return Err(ProjectionError::inconsistent(
                meta.position,
                format!("player {} registered twice", e.player_id),
            ));
        }
        self.by_token.insert(e.token_hash.clone(), e.player_id);
        self.order.push(e.player_id);
        let view = PlayerView {
            id: e.player_id,
            name: e.name.clone(),
            token_hash: e.token_hash.clone(),
            registered_at: meta.recorded_at,
        };
        self.players.insert(e.player_id, view);
        Ok(())
    }

    /// Folds an event of a player's stream (registration, token, organiser right); other
    /// events are not the registry's and leave it unchanged.
    pub fn apply(&mut self, meta: EventMeta, event: &DomainEvent) -> Result<(), ProjectionError> {
        match event {
            DomainEvent::PlayerRegistered(e) => self.register(meta, e)?,
            DomainEvent::TokenRotated(e) => {
                let player = self.existing(meta, e.player_id)?;
                let old = std::mem::replace(&mut player.token_hash, e.token_hash.clone());
                self.by_token.remove(&old);
                self.by_token.insert(e.token_hash.clone(), e.player_id);
            }
            DomainEvent::TokenRevoked(e) => {
                let player = self.existing(meta, e.player_id)?;
                let old = std::mem::take(&mut player.token_hash);
                self.by_token.remove(&old);
            }
            DomainEvent::OrganiserAppointed(e) => {
                self.existing(meta, e.player_id)?;
                self.organisers.insert(e.player_id);
            }
            DomainEvent::OrganiserDismissed(e) => {
                self.organisers.remove(&e.player_id);
            }
            _ => {}
        }
        Ok(())
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
}
