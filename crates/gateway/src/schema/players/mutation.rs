//! Player changes: registering a player (admin), and rights, tokens and personal data:
//! rotating and revoking bearer tokens, appointing and dismissing organisers, adding
//! co-organisers to a league or tournament, erasing a player's personal data. As
//! everywhere, whether the caller may is the domain's call (`docs/api.md#roles`,
//! `docs/personal-data.md`).

use async_graphql::{Context, ID, InputObject, Object};
use league_domain::{
    AddLeagueCoOrganiser, AddTournamentCoOrganiser, AppointOrganiser, DismissOrganiser,
    ErasePlayer, RegisterPlayer, RevokeToken, RotateToken,
};
use uuid::Uuid;

use super::types::{Player, PlayerRegistration};
use crate::auth::{generate_token, hash_token};
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{app, caller, execute, subject};
use crate::schema::inputs::parse_id;

/// `registerPlayer` input.
#[derive(Debug, InputObject)]
pub struct RegisterPlayerInput {
    pub name: String,
}

/// Registering a player (merged into the mutation root, first).
#[derive(Debug, Default)]
pub struct PlayerMutation;

#[Object]
impl PlayerMutation {
    /// Admin: registers a player and returns their bearer token (shown only this once).
    async fn register_player(
        &self,
        ctx: &Context<'_>,
        input: RegisterPlayerInput,
    ) -> GatewayResult<PlayerRegistration> {
        let actor = caller(ctx).actor()?;
        let token = generate_token();
        let command = RegisterPlayer {
            actor,
            player_id: Uuid::now_v7().into(),
            name: input.name,
            token_hash: hash_token(&token),
        };
        let player_id = command.player_id;
        execute(ctx, command, None).await?;
        Ok(PlayerRegistration { player: Player::new(app(ctx).clone(), player_id.into()), token })
    }
}

/// Token and rights changes (merged into the mutation root).
#[derive(Debug, Default)]
pub struct AccessMutation;

#[Object]
impl AccessMutation {
    /// Replaces a bearer token and returns the new one (shown only this once): a player's
    /// own (`playerId` omitted or their own), or anyone's by the site admin (also a revoked
    /// one). The old token stops working at once, and subscriptions opened with it are
    /// closed with code 4403.
    async fn rotate_token(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<PlayerRegistration> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player_id = subject(caller, player_id)?;
        let token = generate_token();
        execute(
            ctx,
            RotateToken { actor, player_id: player_id.into(), token_hash: hash_token(&token) },
            None,
        )
        .await?;
        Ok(PlayerRegistration { player: Player::new(app(ctx).clone(), player_id), token })
    }

    /// Site admin: revokes a player's token. It stops working at once, subscriptions opened
    /// with it are closed with code 4403; the player has no token until the site admin
    /// rotates one for them.
    async fn revoke_token(&self, ctx: &Context<'_>, player_id: ID) -> GatewayResult<Player> {
        let (actor, player_id) = (caller(ctx).actor()?, parse_id(&player_id, "playerId")?);
        execute(ctx, RevokeToken { actor, player_id: player_id.into() }, None).await?;
        Ok(Player::new(app(ctx).clone(), player_id))
    }

    /// Erases a player's personal data (`docs/personal-data.md`): their own (`playerId`
    /// omitted or their own) or anyone's by the site admin, saying why. Their key is deleted,
    /// so their sealed name can never be read again; from then on they show as their
    /// pseudonym everywhere, their results, scores and ratings stay, their token stops
    /// working (subscriptions opened with it are closed with code 4403). Cannot be undone.
    async fn erase_player(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
        reason: String,
    ) -> GatewayResult<Player> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player_id = subject(caller, player_id)?;
        execute(ctx, ErasePlayer { actor, player_id: player_id.into(), reason }, None).await?;
        Ok(Player::new(app(ctx).clone(), player_id))
    }

    /// Site admin: grants a player the right to create leagues and tournaments (which they
    /// then organise).
    async fn appoint_organiser(&self, ctx: &Context<'_>, player_id: ID) -> GatewayResult<Player> {
        let (actor, player_id) = (caller(ctx).actor()?, parse_id(&player_id, "playerId")?);
        execute(ctx, AppointOrganiser { actor, player_id: player_id.into() }, None).await?;
        Ok(Player::new(app(ctx).clone(), player_id))
    }

    /// Site admin: withdraws a player's right to create competitions (those they organise
    /// stay theirs).
    async fn dismiss_organiser(&self, ctx: &Context<'_>, player_id: ID) -> GatewayResult<Player> {
        let (actor, player_id) = (caller(ctx).actor()?, parse_id(&player_id, "playerId")?);
        execute(ctx, DismissOrganiser { actor, player_id: player_id.into() }, None).await?;
        Ok(Player::new(app(ctx).clone(), player_id))
    }

    /// Makes a player co-organiser of a league or tournament (`competitionId`): its
    /// organisers or the site admin. Answers with the competition's id.
    async fn add_co_organiser(
        &self,
        ctx: &Context<'_>,
        competition_id: ID,
        player_id: ID,
    ) -> GatewayResult<ID> {
        let actor = caller(ctx).actor()?;
        let competition = parse_id(&competition_id, "competitionId")?;
        let player_id = parse_id(&player_id, "playerId")?;
        let (is_league, is_tournament) = {
            let catalog = app(ctx).catalog();
            (catalog.league(competition).is_some(), catalog.tournament(competition).is_some())
        };
        if is_league {
            let command = AddLeagueCoOrganiser {
                actor,
                league_id: competition.into(),
                player_id: player_id.into(),
            };
            execute(ctx, command, None).await?;
        } else if is_tournament {
            let command = AddTournamentCoOrganiser {
                actor,
                tournament_id: competition.into(),
                player_id: player_id.into(),
            };
            execute(ctx, command, None).await?;
        } else {
            return Err(GatewayError::NotFound(format!("competition {competition}")));
        }
        Ok(ID(Uuid::to_string(&competition)))
    }
}
