//! [`PlayerRegistry`]: the one fold of `PlayerRegistered` — every player, in registration
//! order, with the token-hash lookup. The catalog holds it for the running platform; the
//! whole-log [`ReadModel`](crate::ReadModel) (replay, audit, as-of) holds its own, since it is
//! folded without a catalog. A league's own model never sees a registration (player streams
//! are not in league streams), so its registry stays empty.

use league_domain::PlayerRegistered;
use rustc_hash::FxHashMap as HashMap;
use uuid::Uuid;

use crate::error::ProjectionError;
use crate::model::{EventMeta, PlayerView};

/// Registered players.
#[derive(Debug, Clone, Default)]
pub struct PlayerRegistry {
    players: HashMap<Uuid, PlayerView>,
    /// Player ids in registration order.
    order: Vec<Uuid>,
    /// Token hashes come from outside: keep SipHash here.
    by_token: std::collections::HashMap<String, Uuid>,
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

    /// The player whose bearer token hashes to `token_hash`.
    pub fn by_token_hash(&self, token_hash: &str) -> Option<&PlayerView> {
        self.by_token.get(token_hash).and_then(|id| self.players.get(id))
    }
}
