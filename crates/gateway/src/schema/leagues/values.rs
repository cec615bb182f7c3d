//! `createLeague`'s input and its mapping onto the domain's league settings, and the
//! league and game statuses.

use async_graphql::{Enum, InputObject};
use league_domain::LeagueSettings;

use crate::error::GatewayResult;
use crate::schema::aggregation::AggregationInput;
use crate::schema::inputs::{ScoringSystemValue, count};

/// `createLeague` input. Omitted settings take their defaults (size 8, games per
/// seat from the league rules' table for the players per game, no activity requirement,
/// aggregation SUM).
#[derive(Debug, InputObject)]
pub struct CreateLeagueInput {
    pub name: String,
    pub game: String,
    pub game_version: Option<String>,
    pub scoring_system: ScoringSystemValue,
    pub players_per_game: i32,
    pub size: Option<i32>,
    pub games_per_seat: Option<i32>,
    pub require_active_players: Option<bool>,
    /// How game scores make the standings total (docs/scoring.md#league-aggregation).
    pub aggregation: Option<AggregationInput>,
}

impl CreateLeagueInput {
    /// The domain's league settings: the defaults of [`LeagueSettings::new`] with what the
    /// input gives. Negative counts are `BAD_USER_INPUT` on their `input.` field; whether the
    /// settings make a league is the domain's rule.
    pub fn into_settings(self) -> GatewayResult<LeagueSettings> {
        let players_per_game = count(self.players_per_game, "input.playersPerGame")?;
        let mut settings =
            LeagueSettings::new(self.name, self.game, self.scoring_system.into(), players_per_game);
        settings.game_version = self.game_version;
        if let Some(size) = self.size {
            settings.size = count(size, "input.size")?;
        }
        if let Some(games_per_seat) = self.games_per_seat {
            settings.games_per_seat = count(games_per_seat, "input.gamesPerSeat")?;
        }
        if let Some(require_active_players) = self.require_active_players {
            settings.require_active_players = require_active_players;
        }
        if let Some(aggregation) = &self.aggregation {
            settings.aggregation = aggregation.to_domain()?;
        }
        Ok(settings)
    }
}

/// `League.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::LeagueStatus")]
pub enum LeagueStatus {
    /// Taking subscriptions.
    Open,
    /// Full; games scheduled, results coming in.
    Running,
    /// Every game has a result.
    Completed,
}

/// `Game.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::GameStatus")]
pub enum GameStatus {
    Scheduled,
    Finished,
}
