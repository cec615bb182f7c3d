//! Result confirmation over GraphQL (`docs/tournaments.md#result-confirmation`): a board's
//! report awaiting confirmation (`Board.awaitingConfirmation`), and the mutations that
//! confirm or dispute it. Each maps its arguments onto one domain command; the domain decides
//! who may.

use async_graphql::{Context, ID, Object, SimpleObject};
use league_domain::{ConfirmBoardResult, DisputeBoardResult};

use super::rounds::Board;
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::context::{app, caller, execute};
use crate::schema::inputs::parse_id;
use crate::schema::leagues::types::GameResultValue;
use crate::schema::players::types::Player;

/// A result a seated player reported that waits for another player of the board or a
/// director to confirm it; until then it is not the board's result.
#[derive(SimpleObject)]
pub struct PendingResult {
    pub result: GameResultValue,
    /// The player who reported it.
    pub reported_by: Option<Player>,
    /// The player who disputed it (null: not disputed); a director then confirms it or
    /// reports the board's result.
    pub disputed_by: Option<Player>,
    /// Why it was disputed.
    pub dispute_reason: Option<String>,
}

impl PendingResult {
    pub(super) fn of(board: &Board) -> GatewayResult<Option<Self>> {
        let seats = board.seat_views();
        let tournament = &board.tournament;
        let player =
            |actor: league_domain::Actor| actor.player_id().map(|p| tournament.player(p.uuid()));
        board.with(|b| {
            b.pending
                .as_ref()
                .map(|pending| {
                    Ok(PendingResult {
                        result: GameResultValue::new(&tournament.app, &pending.result, &seats)?,
                        reported_by: player(pending.reported_by),
                        disputed_by: pending.dispute.as_ref().and_then(|(by, _)| player(*by)),
                        dispute_reason: pending.dispute.as_ref().map(|(_, reason)| reason.clone()),
                    })
                })
                .transpose()
        })
    }
}

/// Confirming and disputing a reported result (merged into the mutation root).
#[derive(Debug, Default)]
pub struct ConfirmationMutation;

#[Object]
impl ConfirmationMutation {
    /// Another player of the board, its organisers or the site admin: confirms the result
    /// awaiting confirmation, which becomes the board's result.
    async fn confirm_board_result(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: ID,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Board> {
        let actor = caller(ctx).actor()?;
        let (tournament_id, board_id) = ids(&tournament_id, &board_id)?;
        let command = ConfirmBoardResult {
            actor,
            tournament_id: tournament_id.into(),
            board_id: board_id.into(),
        };
        execute(ctx, command, idempotency_key).await?;
        board(ctx, tournament_id, board_id).await
    }

    /// Another player of the board: disputes the result awaiting confirmation, giving the
    /// reason; a director then confirms it or reports the board's result.
    async fn dispute_board_result(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: ID,
        reason: String,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Board> {
        let actor = caller(ctx).actor()?;
        let (tournament_id, board_id) = ids(&tournament_id, &board_id)?;
        let command = DisputeBoardResult {
            actor,
            tournament_id: tournament_id.into(),
            board_id: board_id.into(),
            reason,
        };
        execute(ctx, command, idempotency_key).await?;
        board(ctx, tournament_id, board_id).await
    }
}

fn ids(tournament_id: &ID, board_id: &ID) -> GatewayResult<(uuid::Uuid, uuid::Uuid)> {
    Ok((parse_id(tournament_id, "tournamentId")?, parse_id(board_id, "boardId")?))
}

/// The board after a command (read-your-writes: its stream is read to the end).
async fn board(
    ctx: &Context<'_>,
    tournament_id: uuid::Uuid,
    board_id: uuid::Uuid,
) -> GatewayResult<Board> {
    let app = app(ctx);
    Tournament::new(app.clone(), tournament_id, app.existing_tournament(tournament_id).await?)
        .board_by_id(board_id)
}
