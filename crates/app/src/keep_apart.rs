//! A player's permanent keep-apart list (`docs/tournaments.md#a-players-permanent-keep-apart-list`):
//! read by the player themself or the site admin, its reasons opened with the player's key,
//! and carried to a tournament round's seeding as `[owner, other]` pairs of the round's
//! players.

use league_domain::{Actor, KEEP_APART_REASON_FIELD, PlayerId, authorise_personal_data};
use league_projections::person_keys;
use serde::Serialize;
use uuid::Uuid;

use crate::App;
use crate::error::AppError;

/// One entry of a permanent keep-apart list, as its owner reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeepApartEntry {
    pub other: Uuid,
    /// The other player's name as the platform shows it.
    pub name: String,
    /// The reason, opened with the owner's key (`None` when none was given or it does not
    /// open).
    pub reason: Option<String>,
}

impl App {
    /// `player`'s permanent keep-apart list, for the player themself or the site admin
    /// (else `FORBIDDEN`); `NOT_FOUND` for an unknown player.
    pub async fn permanent_keep_apart(
        &self,
        actor: Actor,
        player: Uuid,
    ) -> Result<Vec<KeepApartEntry>, AppError> {
        authorise_personal_data(actor, player.into())?;
        if self.catalog().player(player).is_none() {
            return Err(AppError::NotFound(format!("player {player}")));
        }
        let state = self.player_state(player.into()).await?;
        let keys = person_keys(self.store(), Some(&[player])).await?;
        let key = keys.get(&player);
        let catalog = self.catalog();
        Ok(state
            .permanent_keep_apart()
            .iter()
            .map(|entry| KeepApartEntry {
                other: entry.other.into(),
                name: catalog
                    .player(entry.other.into())
                    .map_or_else(|| entry.other.to_string(), |view| view.name.clone()),
                reason: entry.reason.as_ref().and_then(|reason| {
                    reason.open(key, player.into(), KEEP_APART_REASON_FIELD).ok().flatten()
                }),
            })
            .collect())
    }

    /// `[owner, other]` for every one of `players` whose permanent list holds another of
    /// them: what a round's seeding carries.
    pub(crate) async fn permanent_pairs_among(
        &self,
        players: &[PlayerId],
    ) -> Result<Vec<[PlayerId; 2]>, AppError> {
        let mut pairs = Vec::new();
        for &owner in players {
            let state = self.player_state(owner).await?;
            pairs.extend(
                state
                    .permanent_keep_apart()
                    .iter()
                    .filter(|entry| players.contains(&entry.other))
                    .map(|entry| [owner, entry.other]),
            );
        }
        Ok(pairs)
    }
}
