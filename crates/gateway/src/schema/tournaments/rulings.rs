//! Rulings over GraphQL (`docs/tournaments.md#rulings`): `Tournament.scoreAdjustments`,
//! `Tournament.handicaps`, `Tournament.topBoardOrders`, each standing line's `rulings` and
//! `unranked`, and the mutations that adjust a score and revoke an adjustment, set a handicap,
//! mark an entrant unranked, add and remove keep-apart pairs and order a top board, each one
//! domain command; the domain decides who may.

use async_graphql::{Context, Enum, ID, Object, SimpleObject};
use league_domain::{
    AdjustScore, AdjustmentTarget, BreakTopBoardTie, ChangeKeepApart, PlayerId,
    RevokeScoreAdjustment, RulingLine, SetHandicap, SetUnranked,
};

use super::mutation::tournament;
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::context::{caller, execute};
use crate::schema::inputs::{count, parse_id};
use crate::schema::players::types::Player;

/// What a ruling on a standing line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::RulingKind")]
pub enum RulingKind {
    /// Points added to one board's score.
    BoardAdjustment,
    /// Points added to one round's score.
    RoundAdjustment,
    /// Points added to the tournament total.
    TournamentAdjustment,
    /// The starting points set before round 1.
    Handicap,
    /// Listed without a rank, never ranked or awarded.
    Unranked,
}

/// What a score adjustment changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum AdjustmentLevel {
    /// One player's score on a board (`boardId`).
    Board,
    /// One player's score in a round (`round`).
    Round,
    /// One player's tournament total.
    Tournament,
}

/// A ruling as a standing line shows it.
#[derive(SimpleObject)]
pub struct StandingRuling {
    pub kind: RulingKind,
    /// The adjustment's number (adjustments only).
    pub number: Option<u32>,
    /// The round of a board or round adjustment.
    pub round: Option<u32>,
    /// The board number of a board adjustment.
    pub board: Option<u32>,
    /// Points added (negative: a penalty); null when unranked.
    pub points: Option<f64>,
    pub reason: Option<String>,
}

/// A standing score adjustment (revoked ones are not listed; the audit keeps them).
#[derive(SimpleObject)]
pub struct ScoreAdjustment {
    /// 1, 2, … in the order given (never reused).
    pub number: u32,
    pub player: Player,
    pub level: AdjustmentLevel,
    pub round: Option<u32>,
    pub board: Option<u32>,
    pub points: f64,
    pub reason: String,
}

/// A player's handicap.
#[derive(SimpleObject)]
pub struct PlayerHandicap {
    pub player: Player,
    pub points: f64,
    pub reason: Option<String>,
}

/// A director's order of a top board's players level on total, first ahead.
#[derive(SimpleObject)]
pub struct TopBoardOrder {
    pub round: u32,
    pub players: Vec<Player>,
    pub reason: String,
}

impl From<RulingLine> for StandingRuling {
    fn from(line: RulingLine) -> Self {
        StandingRuling {
            kind: line.kind.into(),
            number: line.number,
            round: line.round,
            board: line.board,
            points: line.points,
            reason: line.reason,
        }
    }
}

impl Tournament {
    /// The rulings on `player`'s standing line.
    pub(super) fn standing_rulings(&self, player: PlayerId) -> Vec<StandingRuling> {
        self.state.rulings_on(player).into_iter().map(StandingRuling::from).collect()
    }

    pub(super) fn score_adjustment_list(&self) -> Vec<ScoreAdjustment> {
        self.state
            .adjustments()
            .map(|a| {
                let line = self.state.adjustment_line(a);
                let level = match line.kind {
                    league_domain::RulingKind::BoardAdjustment => AdjustmentLevel::Board,
                    league_domain::RulingKind::RoundAdjustment => AdjustmentLevel::Round,
                    _ => AdjustmentLevel::Tournament,
                };
                ScoreAdjustment {
                    number: a.adjustment,
                    player: self.player(a.player_id.uuid()),
                    level,
                    round: line.round,
                    board: line.board,
                    points: a.points,
                    reason: a.reason.clone(),
                }
            })
            .collect()
    }

    pub(super) fn handicap_list(&self) -> Vec<PlayerHandicap> {
        self.state
            .handicaps()
            .iter()
            .map(|(player, h)| PlayerHandicap {
                player: self.player(player.uuid()),
                points: h.points,
                reason: h.reason.clone(),
            })
            .collect()
    }

    pub(super) fn top_board_order_list(&self) -> Vec<TopBoardOrder> {
        self.state
            .top_board_tie_breaks()
            .map(|t| TopBoardOrder {
                round: t.round,
                players: t.order.iter().map(|p| self.player(p.uuid())).collect(),
                reason: t.reason.clone(),
            })
            .collect()
    }
}

/// The rulings' mutations (merged into the mutation root).
#[derive(Debug, Default)]
pub struct RulingsMutation;

#[Object]
impl RulingsMutation {
    /// The tournament's organisers or the site admin: adds `points` (negative: a penalty) to a
    /// player's score on a board (`boardId`), in a round (`round`) or to their total, with a
    /// reason.
    #[allow(clippy::too_many_arguments)]
    async fn adjust_score(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: ID,
        level: AdjustmentLevel,
        board_id: Option<ID>,
        round: Option<i32>,
        points: f64,
        reason: String,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let player_id = parse_id(&player_id, "playerId")?.into();
        let target = match level {
            AdjustmentLevel::Board => {
                let board = board_id.ok_or_else(|| missing("boardId"))?;
                AdjustmentTarget::Board { board_id: parse_id(&board, "boardId")?.into() }
            }
            AdjustmentLevel::Round => {
                let round = round.ok_or_else(|| missing("round"))?;
                AdjustmentTarget::Round { round: count(round, "round")? }
            }
            AdjustmentLevel::Tournament => AdjustmentTarget::Tournament,
        };
        let command =
            AdjustScore { actor, tournament_id: id.into(), player_id, target, points, reason };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: revokes adjustment `number` (it leaves
    /// the standings; the audit keeps it).
    async fn revoke_score_adjustment(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        number: i32,
        reason: Option<String>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let adjustment = count(number, "number")?;
        let command = RevokeScoreAdjustment { actor, tournament_id: id.into(), adjustment, reason };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin, before round 1 is seeded: sets an
    /// entrant's handicap (0 removes it). Like the settings it takes no idempotency key: a
    /// retry is refused as the handicap it already is.
    async fn set_handicap(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: ID,
        points: f64,
        reason: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let player_id = parse_id(&player_id, "playerId")?.into();
        let command = SetHandicap { actor, tournament_id: id.into(), player_id, points, reason };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: marks an entrant unranked (they play
    /// and are listed, never ranked or awarded) or ranked again.
    #[allow(clippy::too_many_arguments)]
    async fn set_entrant_unranked(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: ID,
        unranked: bool,
        reason: Option<String>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let player_id = parse_id(&player_id, "playerId")?.into();
        let command = SetUnranked { actor, tournament_id: id.into(), player_id, unranked, reason };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin, while a round is left to seed: keeps
    /// two players apart (`keep: true`) or no longer (`keep: false`) from the next seeding on.
    /// No idempotency key: a retry is refused as the pair already so.
    #[allow(clippy::too_many_arguments)]
    async fn change_keep_apart(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        first_id: ID,
        second_id: ID,
        keep: bool,
        reason: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let first = parse_id(&first_id, "firstId")?.into();
        let second = parse_id(&second_id, "secondId")?.into();
        let command =
            ChangeKeepApart { actor, tournament_id: id.into(), first, second, keep, reason };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: orders players of round `round`'s top
    /// board (first ahead) for when their totals are level. No idempotency key: a retry is
    /// refused as the order already given.
    async fn break_top_board_tie(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        order: Vec<ID>,
        reason: String,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let round = count(round, "round")?;
        let order = order
            .iter()
            .enumerate()
            .map(|(i, player)| parse_id(player, &format!("order.{i}")).map(PlayerId::from))
            .collect::<GatewayResult<Vec<_>>>()?;
        let command = BreakTopBoardTie { actor, tournament_id: id.into(), round, order, reason };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }
}

fn missing(field: &str) -> crate::error::GatewayError {
    crate::error::GatewayError::BadUserInput {
        field: field.to_owned(),
        message: "is needed at this level".to_owned(),
    }
}
