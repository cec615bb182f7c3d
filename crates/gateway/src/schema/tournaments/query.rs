//! Tournament reads: a tournament, every tournament, and the tournament and round scorings
//! a tournament may use.

use async_graphql::{Context, ID, Object};
use uuid::Uuid;

use super::inputs::{RoundScoringInfo, TournamentScoringInfo};
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::context::app;
use crate::schema::inputs::parse_id;

/// Tournament reads (merged into the query root).
#[derive(Debug, Default)]
pub struct TournamentQuery;

#[Object]
impl TournamentQuery {
    /// A tournament by id (null if there is none).
    async fn tournament(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<Tournament>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.tournament(id).await?.map(|state| Tournament::new(app.clone(), id, state)))
    }

    /// Every tournament, in creation order.
    async fn tournaments(&self, ctx: &Context<'_>) -> GatewayResult<Vec<Tournament>> {
        let app = app(ctx);
        let ids: Vec<Uuid> = app.catalog().tournaments().map(|t| t.id).collect();
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.push(Tournament::new(app.clone(), id, app.existing_tournament(id).await?));
        }
        Ok(out)
    }

    /// The tournament scorings a tournament may use, in a stable order.
    async fn tournament_scorings(&self) -> Vec<TournamentScoringInfo> {
        league_scoring::tournament_scorings().into_iter().map(Into::into).collect()
    }

    /// The round scorings (a player's round score when they played two boards).
    async fn round_scorings(&self) -> Vec<RoundScoringInfo> {
        league_scoring::RoundScoring::ALL
            .into_iter()
            .map(|scoring| {
                let info = scoring.info();
                RoundScoringInfo {
                    value: scoring.into(),
                    name: info.name,
                    description: info.description,
                }
            })
            .collect()
    }
}
