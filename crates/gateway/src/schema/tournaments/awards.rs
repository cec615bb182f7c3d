//! Best Country and awards over GraphQL (`docs/tournaments.md#best-country-and-awards`):
//! `Tournament.bestCountryRule`, `Tournament.bestCountries` (each power's leaders over the
//! boards finished so far), `Tournament.awards` (those standing), and the mutations that set
//! the rule, give and revoke an award, each one domain command; the domain decides who may.

use async_graphql::{Context, Enum, ID, Object, SimpleObject};
use league_domain::{BestCountryRule, ChangeBestCountryRule, GiveAward, RevokeAward};

use super::mutation::tournament;
use super::rounds::Board;
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::context::{caller, execute};
use crate::schema::inputs::{count, parse_id};
use crate::schema::players::types::Player;

/// What Best Country is decided on first; the other figure breaks a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_scoring::BestCountryCriterion")]
pub enum BestCountryCriterion {
    /// The highest board score, then the most centres (the default).
    Score,
    /// The most supply centres at the end, then the highest board score.
    Centres,
}

/// `Tournament.bestCountryRule`.
#[derive(SimpleObject)]
#[graphql(name = "BestCountryRule")]
pub struct BestCountryRuleValue {
    pub criterion: BestCountryCriterion,
    /// Boards seeded as a round's top board do not count.
    pub exclude_top_boards: bool,
}

/// A result at the top of a power's Best Country list.
#[derive(SimpleObject)]
pub struct CountryLeader {
    pub player: Player,
    pub board: Board,
    pub round: u32,
    pub board_number: u32,
    pub score: f64,
    pub centres: u32,
    /// Another result is level on both figures: they share Best Country.
    pub tied: bool,
}

/// One power's Best Country over the boards finished so far.
#[derive(SimpleObject)]
pub struct PowerBest {
    /// The power (the seat's label).
    pub power: String,
    /// Empty while no counted board with this power has finished.
    pub leaders: Vec<CountryLeader>,
}

/// A named award a director gave (revoked ones are not listed; the audit keeps them).
#[derive(SimpleObject)]
pub struct TournamentAward {
    /// 1, 2, … in the order given (never reused).
    pub number: u32,
    pub name: String,
    pub player: Player,
    pub power: Option<String>,
    pub reason: Option<String>,
}

impl Tournament {
    pub(super) fn best_country_rule_value(&self) -> BestCountryRuleValue {
        let rule = self.state.best_country_rule();
        BestCountryRuleValue {
            criterion: rule.criterion.into(),
            exclude_top_boards: rule.exclude_top_boards,
        }
    }

    pub(super) fn best_country_list(&self) -> GatewayResult<Vec<PowerBest>> {
        let best = self.state.best_countries().map_err(league_app::AppError::from)?;
        Ok(best
            .into_iter()
            .map(|power| PowerBest {
                power: power.power,
                leaders: power
                    .leaders
                    .into_iter()
                    .map(|l| CountryLeader {
                        player: self.player(l.player.uuid()),
                        board: Board { tournament: self.clone(), id: l.board.into() },
                        round: l.round,
                        board_number: l.board_number,
                        score: l.score,
                        centres: l.centres,
                        tied: l.tied,
                    })
                    .collect(),
            })
            .collect())
    }

    pub(super) fn award_list(&self) -> Vec<TournamentAward> {
        self.state
            .awards()
            .map(|a| TournamentAward {
                number: a.award,
                name: a.name.clone(),
                player: self.player(a.player_id.uuid()),
                power: a.power.clone(),
                reason: a.reason.clone(),
            })
            .collect()
    }
}

/// Setting the Best Country rule, giving and revoking awards (merged into the mutation root).
#[derive(Debug, Default)]
pub struct AwardsMutation;

#[Object]
impl AwardsMutation {
    /// The tournament's organisers or the site admin: sets how Best Country is decided
    /// (`CONFLICT` when it is already so). Like the other settings it takes no idempotency
    /// key: a retry is refused as a change to the same rule.
    async fn change_best_country_rule(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        criterion: BestCountryCriterion,
        #[graphql(desc = "Top boards do not count (omitted or null: false).")]
        exclude_top_boards: Option<bool>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let exclude_top_boards = exclude_top_boards.unwrap_or(false);
        let rule = BestCountryRule { criterion: criterion.into(), exclude_top_boards };
        let command = ChangeBestCountryRule { actor, tournament_id: id.into(), rule };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: gives an entrant a named award,
    /// optionally for a power (one of the board's seat labels) and with a reason.
    #[allow(clippy::too_many_arguments)]
    async fn give_award(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        name: String,
        player_id: ID,
        power: Option<String>,
        reason: Option<String>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let player_id = parse_id(&player_id, "playerId")?.into();
        let command = GiveAward { actor, tournament_id: id.into(), name, player_id, power, reason };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: revokes award `number` (it leaves the
    /// list; the audit keeps it).
    async fn revoke_award(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        number: i32,
        reason: Option<String>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let award = count(number, "number")?;
        let command = RevokeAward { actor, tournament_id: id.into(), award, reason };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }
}
