//! Player reads: a player, every player, the calling player, and a player's personal data
//! (the access request). Two objects, as the query root lists them apart (the field order of
//! `schema.graphql`).

use async_graphql::connection::Connection;
use async_graphql::{Context, ID, Json, Object};
use league_app::PersonalData;

use super::types::Player;
use crate::auth::Caller;
use crate::error::GatewayResult;
use crate::schema::context::{app, caller, subject};
use crate::schema::inputs::parse_id;
use crate::schema::pagination::{ConnectionTotals, id_page, page_complexity};

pub type PlayerConnection = Connection<String, Player, ConnectionTotals>;

/// Player reads (merged into the query root).
#[derive(Debug, Default)]
pub struct PlayerQuery;

#[Object]
impl PlayerQuery {
    /// A player by id (null if there is none).
    async fn player(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<Player>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.catalog().player(id).is_some().then(|| Player::new(app.clone(), id)))
    }

    /// Every registered player, in registration order (Relay connection; `first` ≤ 100).
    /// With `search`, only those whose name (an erased player's: their pseudonym) holds it,
    /// ignoring case (docs/api.md#finding-players).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn players(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        search: Option<String>,
    ) -> GatewayResult<PlayerConnection> {
        let app = app(ctx);
        let catalog = app.catalog();
        let node = |id| Player::new(app.clone(), id);
        match search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => id_page(catalog.player_ids(), first, after, node),
            Some(search) => id_page(&catalog.players_named(search), first, after, node),
        }
    }

    /// The calling player (null for the admin and anonymous callers).
    async fn me(&self, ctx: &Context<'_>) -> Option<Player> {
        match caller(ctx) {
            Caller::Player(id) => Some(Player::new(app(ctx).clone(), id)),
            Caller::Admin | Caller::Anonymous => None,
        }
    }
}

/// Personal data (merged into the query root).
#[derive(Debug, Default)]
pub struct AccessQuery;

#[Object]
impl AccessQuery {
    /// Everything the platform holds about a player, as JSON (the access request; the same
    /// document as `league export-player`): their own (`playerId` omitted or their own), or
    /// anyone's for the site admin. Fields: `docs/personal-data.md#access-requests`.
    async fn personal_data(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<Json<PersonalData>> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player_id = subject(caller, player_id)?;
        Ok(Json(app(ctx).personal_data(actor, player_id).await?))
    }
}
