//! League reads: a league, every league, a game; a league's standings (its own or a
//! what-if) and a player's score history. Two objects, as the query root lists player
//! reads between them (the field order of `schema.graphql`).

use async_graphql::connection::Connection;
use async_graphql::{Context, ID, Object};
use league_app::WhatIf;
use league_scoring::{ConcessionRule, ScoringSystem};

use super::types::{Game, League, ScoreChange, Standing};
use crate::error::GatewayResult;
use crate::schema::aggregation::AggregationInput;
use crate::schema::context::app;
use crate::schema::inputs::{AsOf, ScoringSystemValue, parse_id};
use crate::schema::pagination::{
    ConnectionTotals, id_page, league_list_complexity, page_complexity,
};

pub type LeagueConnection = Connection<String, League, ConnectionTotals>;

/// League and game reads (merged into the query root).
#[derive(Debug, Default)]
pub struct LeagueQuery;

/// Reads: public, served from the in-memory catalog and league models.
#[Object]
impl LeagueQuery {
    /// A league by id (null if there is none).
    async fn league(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<League>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.catalog().league(id).is_some().then(|| League::new(app.clone(), id)))
    }

    /// Every league, in creation order (Relay connection; `first` ≤ 100).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn leagues(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
    ) -> GatewayResult<LeagueConnection> {
        let app = app(ctx);
        let catalog = app.catalog();
        id_page(catalog.league_ids(), first, after, |id| League::new(app.clone(), id))
    }

    /// A game by id (null if there is none).
    async fn game(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<Game>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.model_of_game(id).await?.map(|model| Game::new(app.clone(), model, id)))
    }
}

/// A league's standings and score histories (merged into the query root).
#[derive(Debug, Default)]
pub struct LeagueStandingsQuery;

#[Object]
impl LeagueStandingsQuery {
    /// Standings of a league, now or as of a position or instant of the log. With `system`
    /// and/or `aggregation`, the what-if standings had its results been scored under that
    /// system or aggregated that way (default: the league's own); a system that cannot score
    /// the league's games is `BAD_USER_INPUT` on `system`, a best N out of range on
    /// `aggregation.n`. With `concessionsAsSolos: true`, every concession is scored as the
    /// power conceded to's solo by every system but Baf and Detour 98f, whatever rule its
    /// result was recorded under (`docs/scoring.md#draws-and-concessions`). Nothing is
    /// appended.
    ///
    /// Complexity: the selection counts once per player a league may hold (64).
    #[graphql(complexity = "league_list_complexity(child_complexity)")]
    async fn standings(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
        system: Option<ScoringSystemValue>,
        as_of: Option<AsOf>,
        aggregation: Option<AggregationInput>,
        concessions_as_solos: Option<bool>,
    ) -> GatewayResult<Vec<Standing>> {
        let league = parse_id(&league_id, "leagueId")?;
        let app = app(ctx);
        let aggregation = aggregation.as_ref().map(AggregationInput::to_domain).transpose()?;
        let system = system.map(ScoringSystem::from);
        let concessions = (concessions_as_solos == Some(true)).then_some(ConcessionRule::Solo);
        let as_of = as_of.as_ref().map(AsOf::to_bound).transpose()?;
        let what_if = WhatIf { system, aggregation, concessions };
        let rows = app.standings_asked(league, what_if, as_of).await?;
        Ok(rows.into_iter().map(|row| Standing::new(app.clone(), row)).collect())
    }

    /// How a player's total in a league came to be: one entry per reported or corrected
    /// result, oldest first.
    async fn score_history(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
        player_id: ID,
    ) -> GatewayResult<Vec<ScoreChange>> {
        let league = parse_id(&league_id, "leagueId")?;
        let player = parse_id(&player_id, "playerId")?;
        let app = app(ctx);
        let (model, changes) = app.score_history(league, player).await?;
        Ok(changes
            .into_iter()
            .map(|change| ScoreChange::new(app.clone(), model.clone(), league, player, change))
            .collect())
    }
}
