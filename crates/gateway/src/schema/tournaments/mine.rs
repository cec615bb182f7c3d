//! A player's own competitions for their page (`docs/tournaments.md#times`, "My page"): each
//! tournament and league they entered with their current rank ("3rd of 30"), and in a
//! tournament their next board with its round's start, in one query (`Player.competitions`).

use async_graphql::SimpleObject;
use chrono::{DateTime, Utc};
use league_app::App;
use uuid::Uuid;

use super::rounds::Board;
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::leagues::types::League;

/// One competition of a player: a tournament or a league, with their rank in it.
#[derive(SimpleObject)]
pub struct PlayerCompetition {
    /// The tournament (null for a league).
    pub tournament: Option<Tournament>,
    /// The league (null for a tournament).
    pub league: Option<League>,
    /// The player's rank in the current standings (null before they are in them).
    pub rank: Option<u32>,
    /// How many the standings rank.
    pub of: u32,
    /// In a tournament: the first board of theirs without a result (their next board).
    pub next_board: Option<Board>,
    /// When that board's round starts, if set.
    pub next_board_starts_at: Option<DateTime<Utc>>,
}

/// Every tournament `player` entered (withdrawn ones included), then every league they play
/// in, in creation order.
pub async fn competitions_of(app: &App, player: Uuid) -> GatewayResult<Vec<PlayerCompetition>> {
    let entered: Vec<Uuid> = app.catalog().tournaments_entered(player).map(|t| t.id).collect();
    let mut mine = Vec::new();
    for id in entered {
        let Some(state) = app.tournament(id).await? else { continue };
        let standings = app.tournament_standings(id, &state, None, None).await?;
        let rank = standings.iter().find(|row| row.player.uuid() == player).map(|row| row.rank);
        let next = state.boards().find(|b| b.is_seated(player.into()) && b.result.is_none());
        let starts_at = next.and_then(|b| state.round_times(b.round)).map(|t| t.starts_at);
        let next_id = next.map(|b| b.id.uuid());
        let tournament = Tournament::new(app.clone(), id, state);
        mine.push(PlayerCompetition {
            next_board: next_id.map(|board| Board { tournament: tournament.clone(), id: board }),
            next_board_starts_at: starts_at,
            tournament: Some(tournament),
            league: None,
            rank,
            of: standings.len() as u32,
        });
    }
    let leagues = app.catalog().leagues_of(player);
    for league in leagues {
        let Some(model) = app.league(league).await? else { continue };
        let standings = model.standings(league);
        let rank = standings.iter().find(|row| row.player.uuid() == player).map(|row| row.rank);
        mine.push(PlayerCompetition {
            tournament: None,
            league: Some(League::new(app.clone(), league)),
            rank,
            of: standings.len() as u32,
            next_board: None,
            next_board_starts_at: None,
        });
    }
    Ok(mine)
}
