//! A player's permanent keep-apart list
//! (`docs/tournaments.md#a-players-permanent-keep-apart-list`): `Player.keepApart`, shown to
//! the player themself and the site admin only, and `changePermanentKeepApart`.

use async_graphql::{Context, ID, Object, SimpleObject};
use league_app::KeepApartEntry;
use league_domain::ChangePermanentKeepApart;
use uuid::Uuid;

use crate::error::GatewayResult;
use crate::schema::context::{app, caller, execute, subject};
use crate::schema::inputs::parse_id;
use crate::schema::players::types::Player;

/// One player of a permanent keep-apart list, and why (the owner's words).
#[derive(SimpleObject)]
pub struct PermanentKeepApart {
    pub player: Player,
    pub reason: Option<String>,
}

/// `player`'s list for the calling player themself or the site admin, `null` for anyone
/// else (the list may be sensitive).
pub(crate) async fn keep_apart_shown(
    ctx: &Context<'_>,
    player: Uuid,
) -> GatewayResult<Option<Vec<PermanentKeepApart>>> {
    let Ok(actor) = caller(ctx).actor() else { return Ok(None) };
    if actor.player_id() != Some(player.into()) && !actor.is_admin() {
        return Ok(None);
    }
    Ok(Some(entries(ctx, app(ctx).permanent_keep_apart(actor, player).await?)))
}

fn entries(ctx: &Context<'_>, list: Vec<KeepApartEntry>) -> Vec<PermanentKeepApart> {
    let app = app(ctx);
    list.into_iter()
        .map(|entry| PermanentKeepApart {
            player: Player::new(app.clone(), entry.other),
            reason: entry.reason,
        })
        .collect()
}

/// Changes of a permanent keep-apart list (merged into the mutation root).
#[derive(Debug, Default)]
pub struct KeepApartMutation;

#[Object]
impl KeepApartMutation {
    /// Puts a player on a permanent keep-apart list (`keep: true`) or takes them off it:
    /// the calling player's own list (`playerId` omitted or their own), or anyone's for the
    /// site admin. Answers the list as it now stands. No idempotency key: a retry is refused
    /// as already so.
    async fn change_permanent_keep_apart(
        &self,
        ctx: &Context<'_>,
        other_id: ID,
        keep: bool,
        reason: Option<String>,
        player_id: Option<ID>,
    ) -> GatewayResult<Vec<PermanentKeepApart>> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        let other = parse_id(&other_id, "otherId")?.into();
        let command =
            ChangePermanentKeepApart { actor, player_id: player.into(), other, keep, reason };
        execute(ctx, command, None).await?;
        Ok(entries(ctx, app(ctx).permanent_keep_apart(actor, player).await?))
    }
}
