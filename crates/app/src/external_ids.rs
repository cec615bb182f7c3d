//! External ids (`docs/tournaments.md#external-ids`): the ids players have in other systems
//! (`wdr`: the World Diplomacy Reference), recorded on the player's stream, sealed under their
//! key (`docs/personal-data.md`). They are read from each player's stream when asked for (an
//! export, an access request, a walk-in list), opened with the players' keys; an erased player's ids do
//! not open and are never shown.

use std::collections::{BTreeMap, HashMap};

use league_domain::{Actor, RecordExternalId};
use league_projections::{EXTERNAL_ID_FIELD, person_keys};
use uuid::Uuid;

use crate::{App, AppError, CommandOptions};

/// Each player's external ids by system (`wdr` → `1234`), the latest recorded of each.
pub type ExternalIds = HashMap<Uuid, BTreeMap<String, String>>;

impl App {
    /// Records that `player` has the id `id` in `system` (`wdr` …), as `actor`: the player,
    /// the site admin, or an organiser of a competition the player takes part in.
    pub async fn record_external_id(
        &self,
        actor: Actor,
        player: Uuid,
        system: &str,
        id: &str,
    ) -> Result<(), AppError> {
        let command = RecordExternalId {
            actor,
            player_id: player.into(),
            system: system.to_owned(),
            id: id.to_owned(),
        };
        self.execute(command, CommandOptions::default()).await?;
        Ok(())
    }

    /// The external ids of `players` not erased, opened with their keys (ids that do not
    /// open are left out). Each player's own stream answers (as kept in memory, read on
    /// from the log), so the cost is the players asked for, not the log's history.
    pub async fn external_ids(&self, players: &[Uuid]) -> Result<ExternalIds, AppError> {
        let wanted: Vec<Uuid> = {
            let catalog = self.catalog();
            let live = |id: &&Uuid| catalog.player(**id).is_some_and(|view| !view.erased);
            players.iter().filter(live).copied().collect()
        };
        let mut ids = ExternalIds::default();
        let mut sealed = Vec::new();
        for &player in &wanted {
            let state = self.player_state(player.into()).await?;
            if !state.external_ids().is_empty() {
                sealed.push((player, state));
            }
        }
        if sealed.is_empty() {
            return Ok(ids);
        }
        let owners: Vec<Uuid> = sealed.iter().map(|(player, _)| *player).collect();
        let keys = person_keys(self.store(), Some(&owners)).await?;
        for (player, state) in sealed {
            for (system, id) in state.external_ids() {
                match id.open(keys.get(&player), player.into(), EXTERNAL_ID_FIELD) {
                    Ok(Some(id)) => {
                        ids.entry(player).or_default().insert(system.clone(), id);
                    }
                    Ok(None) => {}
                    Err(error) => {
                        tracing::warn!(%player, %error, "a sealed external id does not open");
                    }
                }
            }
        }
        Ok(ids)
    }
}
