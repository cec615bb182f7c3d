//! What-if standings of a league under another scoring system and/or with every concession
//! scored under one rule (`league rescore`), beside each player's rank and total in the
//! league's own standings. Reads the log; appends nothing.

use league_scoring::{ConcessionRule, ScoringSystem};
use serde::Serialize;
use uuid::Uuid;

use crate::app::App;
use crate::audit::WhatIf;
use crate::error::AppError;
use crate::replay::NamedStanding;

/// A league's standings rescored under another system and/or another concession rule.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RescoreReport {
    pub league: Uuid,
    pub name: String,
    pub league_system: ScoringSystem,
    /// The system the what-if scores with (the league's own unless another was asked for).
    pub system: ScoringSystem,
    /// The rule every concession was rescored under; absent when each result kept the rule
    /// it was recorded under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concessions: Option<ConcessionRule>,
    /// The log position the report reflects.
    pub position: u64,
    /// Players who have played, ranked under `system`.
    pub standings: Vec<RescoredStanding>,
}

/// A rescored row beside the player's rank and total in the league's own standings (its
/// system, each result under the rule it was recorded under).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RescoredStanding {
    #[serde(flatten)]
    pub standing: NamedStanding,
    pub rank_under_league_system: Option<u32>,
    pub total_under_league_system: Option<f64>,
}

impl App {
    /// The league's standings if its results were scored as `what_if` says (see
    /// [`App::standings_if`]), listing the players who have played (the league's table
    /// also lists the others, last). `NOT_FOUND` for an unknown league; invalid input on
    /// `system` when it cannot score the league.
    pub async fn rescore(&self, league: Uuid, what_if: WhatIf) -> Result<RescoreReport, AppError> {
        let rescored = self.standings_if(league, what_if, None).await?;
        let model = self.existing_league(league).await?;
        let view =
            model.league(league).ok_or_else(|| AppError::NotFound(format!("league {league}")))?;
        let actual = model.standings(league);
        let catalog = self.catalog();
        let standings = rescored
            .into_iter()
            .filter(|row| row.played > 0)
            .map(|row| {
                let own = actual.iter().find(|a| a.player == row.player);
                RescoredStanding {
                    rank_under_league_system: own.map(|a| a.rank),
                    total_under_league_system: own.map(|a| a.total),
                    standing: NamedStanding::of(
                        &row,
                        catalog.player(row.player.into()).map(|p| p.name.clone()),
                    ),
                }
            })
            .collect();
        Ok(RescoreReport {
            league,
            name: view.settings.name.clone(),
            league_system: view.settings.scoring_system,
            system: what_if.system.unwrap_or(view.settings.scoring_system),
            concessions: what_if.concessions,
            position: self.applied_position(),
            standings,
        })
    }
}
