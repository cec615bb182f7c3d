//! What-if standings of a league under another scoring system (`league rescore`), beside
//! each player's rank under the league's own system. Reads the log; appends nothing.

use league_scoring::ScoringSystem;
use serde::Serialize;
use uuid::Uuid;

use crate::app::App;
use crate::error::AppError;
use crate::replay::NamedStanding;

/// A league's standings rescored under another system.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RescoreReport {
    pub league: Uuid,
    pub name: String,
    pub league_system: ScoringSystem,
    pub system: ScoringSystem,
    /// The log position the report reflects.
    pub position: u64,
    /// Players who have played, ranked under `system`.
    pub standings: Vec<RescoredStanding>,
}

/// A rescored row and the player's rank under the league's own system.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RescoredStanding {
    #[serde(flatten)]
    pub standing: NamedStanding,
    pub rank_under_league_system: Option<u32>,
}

impl App {
    /// The league's standings if its results were scored under `system` (see
    /// [`App::standings_under`]), listing the players who have played (the league's table
    /// also lists the others, last). `NOT_FOUND` for an unknown league; invalid input on
    /// `system` when it cannot score the league.
    pub async fn rescore(
        &self,
        league: Uuid,
        system: ScoringSystem,
    ) -> Result<RescoreReport, AppError> {
        let what_if = self.standings_under(league, system, None).await?;
        let model = self.existing_league(league).await?;
        let view =
            model.league(league).ok_or_else(|| AppError::NotFound(format!("league {league}")))?;
        let actual = model.standings(league);
        let catalog = self.catalog();
        let standings = what_if
            .into_iter()
            .filter(|row| row.played > 0)
            .map(|row| RescoredStanding {
                rank_under_league_system: actual
                    .iter()
                    .find(|a| a.player == row.player)
                    .map(|a| a.rank),
                standing: NamedStanding::of(
                    &row,
                    catalog.player(row.player).map(|p| p.name.clone()),
                ),
            })
            .collect();
        Ok(RescoreReport {
            league,
            name: view.settings.name.clone(),
            league_system: view.settings.scoring_system,
            system,
            position: self.applied_position(),
            standings,
        })
    }
}
