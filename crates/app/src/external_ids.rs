//! External ids (`docs/tournaments.md#external-ids`): the ids players have in other systems
//! (`wdr`: the World Diplomacy Reference), recorded on the player's stream, sealed under their
//! key (`docs/personal-data.md`). They are read from the log when asked for (an export, an
//! access request, a walk-in list), opened with the players' keys; an erased player's ids do
//! not open and are never shown.

use std::collections::{BTreeMap, HashMap};

use futures::TryStreamExt;
use league_domain::{Actor, DomainEvent, EventType, PlayerEvent, RecordExternalId};
use league_projections::{EXTERNAL_ID_FIELD, decode_event, person_keys};
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
    /// open are left out).
    pub async fn external_ids(&self, players: &[Uuid]) -> Result<ExternalIds, AppError> {
        let wanted: Vec<Uuid> = {
            let catalog = self.catalog();
            let live = |id: &&Uuid| catalog.player(**id).is_some_and(|view| !view.erased);
            players.iter().filter(live).copied().collect()
        };
        let mut ids = ExternalIds::default();
        if wanted.is_empty() {
            return Ok(ids);
        }
        let keys = person_keys(self.store(), Some(&wanted)).await?;
        let mut rows =
            self.reads().read_types_until(&[EventType::ExternalIdRecorded.as_str()], u64::MAX);
        while let Some(row) = rows.try_next().await.map_err(AppError::internal)? {
            let raw = row.event().map_err(AppError::internal)?;
            let event = decode_event(raw.event_type, raw.schema_version.into(), raw.payload)
                .map_err(AppError::internal)?;
            let DomainEvent::Player(PlayerEvent::ExternalIdRecorded(e)) = event else { continue };
            let player = e.player_id.uuid();
            if !wanted.contains(&player) {
                continue;
            }
            match e.id.open(keys.get(&player), e.player_id, EXTERNAL_ID_FIELD) {
                Ok(Some(id)) => {
                    ids.entry(player).or_default().insert(e.system, id);
                }
                Ok(None) => {}
                Err(error) => tracing::warn!(%player, %error, "a sealed external id does not open"),
            }
        }
        Ok(ids)
    }
}
