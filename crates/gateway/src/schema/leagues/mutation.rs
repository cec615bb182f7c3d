//! League changes: creating a league, (un)subscribing a player, reporting and correcting a
//! game's result. Each maps its arguments onto one domain command run by the application;
//! whether the caller may is the domain's call.

use async_graphql::{Context, ID, Object};
use league_domain::{
    Actor, CorrectResult, CreateLeague, ReportResult, Subscribe, Unsubscribe, league_id_of_stream,
};
use league_scoring::GameResult;
use uuid::Uuid;

use super::types::{Game, League};
use super::values::CreateLeagueInput;
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{app, caller, execute, in_input_terms, subject};
use crate::schema::inputs::{GameResultInput, parse_id};

/// League changes (merged into the mutation root).
#[derive(Debug, Default)]
pub struct LeagueMutation;

/// Changes: each needs a bearer token; the domain decides whether the caller may.
#[Object]
impl LeagueMutation {
    /// Admin: creates a league. A retried call with the same `idempotencyKey` returns the
    /// league the first call created.
    async fn create_league(
        &self,
        ctx: &Context<'_>,
        input: CreateLeagueInput,
        idempotency_key: Option<String>,
    ) -> GatewayResult<League> {
        let actor = caller(ctx).actor()?;
        let command = CreateLeague {
            actor,
            league_id: Uuid::now_v7().into(),
            settings: input.into_settings()?,
        };
        let fresh_id = command.league_id;
        let executed = execute(ctx, command, idempotency_key).await?;
        // A deduplicated retry created nothing: its league is the one the first call made.
        let league_id = executed
            .events
            .first()
            .and_then(|event| league_id_of_stream(event.stream_id.as_str()))
            .unwrap_or(fresh_id);
        Ok(League::new(app(ctx).clone(), league_id.into()))
    }

    /// Subscribes a player to an open league: a player themself (`playerId` omitted or
    /// their own); the admin anyone.
    async fn subscribe_to_league(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
        player_id: Option<ID>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<League> {
        let (actor, league_id, player_id) = membership(ctx, &league_id, player_id)?;
        execute(
            ctx,
            Subscribe { actor, league_id: league_id.into(), player_id: player_id.into() },
            idempotency_key,
        )
        .await?;
        Ok(League::new(app(ctx).clone(), league_id))
    }

    /// Unsubscribes a player from a league that is still open; same rights as subscribing.
    async fn unsubscribe_from_league(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
        player_id: Option<ID>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<League> {
        let (actor, league_id, player_id) = membership(ctx, &league_id, player_id)?;
        execute(
            ctx,
            Unsubscribe { actor, league_id: league_id.into(), player_id: player_id.into() },
            idempotency_key,
        )
        .await?;
        Ok(League::new(app(ctx).clone(), league_id))
    }

    /// Reports a game's result: the admin or a player seated in that game. A retried call
    /// with the same `idempotencyKey` gets the same answer and appends nothing.
    async fn report_game_result(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        result: GameResultInput,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Game> {
        execute_on_game(
            ctx,
            &game_id,
            &result,
            idempotency_key,
            |actor, league_id, game_id, result| ReportResult {
                actor,
                league_id: league_id.into(),
                game_id: game_id.into(),
                result,
            },
        )
        .await
    }

    /// Admin: replaces a finished game's result, giving the reason (kept in the log and
    /// shown in score histories).
    async fn correct_game_result(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        result: GameResultInput,
        reason: String,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Game> {
        execute_on_game(
            ctx,
            &game_id,
            &result,
            idempotency_key,
            |actor, league_id, game_id, result| CorrectResult {
                actor,
                league_id: league_id.into(),
                game_id: game_id.into(),
                result,
                reason,
            },
        )
        .await
    }
}

/// Runs the result command `command` builds (from the caller, the game's league and id,
/// and the result in domain terms) and answers with the game; errors speak of the input.
async fn execute_on_game<C: Into<league_app::AppCommand>>(
    ctx: &Context<'_>,
    game_id: &ID,
    result: &GameResultInput,
    idempotency_key: Option<String>,
    command: impl FnOnce(Actor, Uuid, Uuid, GameResult) -> C,
) -> GatewayResult<Game> {
    let actor = caller(ctx).actor()?;
    let (league_id, game_id) = game_of(ctx, game_id)?;
    let command = command(actor, league_id, game_id, result.to_domain("result")?);
    execute(ctx, command, idempotency_key).await.map_err(|e| in_input_terms(e, result))?;
    // Read-your-writes: the league's model is at or past the command's events.
    let app = app(ctx);
    let model = app.existing_league(league_id).await?;
    Ok(Game::new(app.clone(), model, game_id))
}

/// Who asks, for which league and which player, in a (un)subscription.
fn membership(
    ctx: &Context<'_>,
    league_id: &ID,
    player_id: Option<ID>,
) -> GatewayResult<(Actor, Uuid, Uuid)> {
    let caller = caller(ctx);
    let actor = caller.actor()?;
    let league_id = parse_id(league_id, "leagueId")?;
    Ok((actor, league_id, subject(caller, player_id)?))
}

/// The league and id of a game named by an argument; `NOT_FOUND` if there is no such game.
fn game_of(ctx: &Context<'_>, game_id: &ID) -> GatewayResult<(Uuid, Uuid)> {
    let id = parse_id(game_id, "gameId")?;
    app(ctx)
        .catalog()
        .league_of_game(id)
        .map(|league| (league, id))
        .ok_or_else(|| GatewayError::NotFound(format!("game {id}")))
}
