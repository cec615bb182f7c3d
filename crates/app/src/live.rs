//! What live subscriptions need beyond the notifications themselves: who watches a league's
//! standings (so the follower ranks them right after each event of that league, once for
//! every subscriber) and a league's standings as of a notification's position when the
//! notification could not carry them (`docs/api.md`, "Subscriptions").

use std::sync::Arc;

use league_projections::{AsOf, StandingRow};
use uuid::Uuid;

use crate::app::App;
use crate::error::AppError;
use crate::shared::Shared;

/// A live interest in a league's standings: while it lives, each notification of a change
/// to them carries the standings as of its event ([`crate::Notification::standings`]).
pub struct StandingsWatch {
    shared: Arc<Shared>,
    league: Uuid,
}

impl std::fmt::Debug for StandingsWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StandingsWatch").field("league", &self.league).finish_non_exhaustive()
    }
}

impl Drop for StandingsWatch {
    fn drop(&mut self) {
        let mut watchers = self.shared.standings_watchers.lock();
        if let Some(count) = watchers.get_mut(&self.league) {
            *count -= 1;
            if *count == 0 {
                watchers.remove(&self.league);
            }
        }
    }
}

impl App {
    /// Watches a league's standings for as long as the answer lives (a `standingsChanged`
    /// subscription), and loads its model so the follower can rank them after each event.
    pub async fn watch_standings(&self, league: Uuid) -> Result<StandingsWatch, AppError> {
        let shared = self.shared_arc();
        *shared.standings_watchers.lock().entry(league).or_default() += 1;
        let watch = StandingsWatch { shared, league };
        self.existing_league(league).await?;
        Ok(watch)
    }

    /// A league's standings as of `position` exactly, for a notification that carries none
    /// (it was folded before the league was watched, or while its model was not cached):
    /// the live model when it has folded nothing of the league after `position`, else the
    /// league's stream folded up to it.
    pub async fn standings_at(
        &self,
        league: Uuid,
        position: u64,
    ) -> Result<Vec<StandingRow>, AppError> {
        self.standings_as_of(league, AsOf::Position(position)).await
    }
}
