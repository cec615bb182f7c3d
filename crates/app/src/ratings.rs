//! Ratings across leagues (`docs/ratings.md`) on the read side: the [`RatingsModel`] is
//! folded on first use from the result events only (through the event-type index, up to
//! the applied position), then kept current by the follower, which folds every event into
//! it under the same locks as the catalog. Reads take its read lock briefly and return owned
//! answers; as-of reads are binary searches in it (never a fold of the log). The first load
//! runs as a task of its own that every waiting request shares: a request that gives up
//! does not abandon it (on a long log it can outlast a request's timeout).

use std::collections::HashMap;
use std::sync::{PoisonError, RwLockReadGuard, RwLockWriteGuard};

use futures::FutureExt;
use futures::future::{BoxFuture, Shared as SharedFuture};

use league_projections::{
    AsOf, GameKind, LeaderboardRow, Rating, RatingChange, RatingsModel, load_ratings,
};
use league_scoring::ScoringSystem;
use uuid::Uuid;

use crate::app::{App, Shared};
use crate::error::AppError;

/// One change of a player's rating, with the commit time of the event that made it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChangeView {
    pub change: RatingChange,
    /// The rating before the change (the previous change's, or the prior).
    pub previous: Rating,
    pub recorded_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// The running first load of the ratings; its error as text (shared by every waiter).
pub(crate) type RatingsLoad = SharedFuture<BoxFuture<'static, Result<(), String>>>;

impl Shared {
    pub(crate) fn write_ratings(&self) -> RwLockWriteGuard<'_, Option<RatingsModel>> {
        self.ratings.write().unwrap_or_else(PoisonError::into_inner)
    }

    fn read_ratings(&self) -> RwLockReadGuard<'_, Option<RatingsModel>> {
        self.ratings.read().unwrap_or_else(PoisonError::into_inner)
    }
}

impl App {
    /// A player's rating at a game kind, now or as of a point in history: the model's
    /// prior (no game yet) when the player had not played that kind by then.
    pub async fn rating(
        &self,
        kind: GameKind,
        player: Uuid,
        as_of: Option<AsOf>,
    ) -> Result<Rating, AppError> {
        self.with_ratings(|model| {
            let ratings = model.ratings();
            let rating = match as_of {
                None => ratings.rating(kind, player),
                Some(as_of) => ratings.rating_at(kind, player, model.position_of(as_of)),
            };
            rating.unwrap_or_else(|| ratings.params().initial_rating())
        })
        .await
    }

    /// Every change of a player's rating at a game kind, oldest first, up to a point in
    /// history.
    pub async fn rating_history(
        &self,
        kind: GameKind,
        player: Uuid,
        as_of: Option<AsOf>,
    ) -> Result<Vec<RatingChangeView>, AppError> {
        self.with_ratings(|model| {
            let last = as_of.map_or(u64::MAX, |as_of| model.position_of(as_of));
            let mut previous = model.ratings().params().initial_rating();
            let mut views = Vec::new();
            for change in model.ratings().history(kind, player) {
                if change.position > last {
                    break;
                }
                let recorded_at = model.recorded_at(change.position);
                views.push(RatingChangeView { change, previous, recorded_at });
                previous = change.rating;
            }
            views
        })
        .await
    }

    /// Whether the ratings are loaded (the first ratings request loads them).
    pub fn ratings_loaded(&self) -> bool {
        self.shared().read_ratings().is_some()
    }

    /// Every rated player of a game kind, best first, now or as of a point in history.
    pub async fn leaderboard(
        &self,
        kind: GameKind,
        as_of: Option<AsOf>,
    ) -> Result<Vec<LeaderboardRow>, AppError> {
        self.with_ratings(|model| {
            model.ratings().leaderboard(kind, as_of.map(|as_of| model.position_of(as_of)))
        })
        .await
    }

    /// Runs `read` on the ratings model, loading it first if no request has yet. `read`
    /// must not take the catalog lock (the follower holds it while it waits for this one).
    async fn with_ratings<T>(&self, read: impl FnOnce(&RatingsModel) -> T) -> Result<T, AppError> {
        if let Some(model) = self.shared().read_ratings().as_ref() {
            return Ok(read(model));
        }
        let load = {
            let mut running =
                self.shared().ratings_load.lock().unwrap_or_else(PoisonError::into_inner);
            running
                .get_or_insert_with(|| {
                    let app = self.clone();
                    let task = tokio::spawn(async move {
                        app.load_ratings().await.map_err(|error| error.to_string())
                    });
                    async move { task.await.map_err(|error| error.to_string())? }.boxed().shared()
                })
                .clone()
        };
        let loaded = load.await;
        // Done either way: a failed load is retried by the next request.
        self.shared().ratings_load.lock().unwrap_or_else(PoisonError::into_inner).take();
        loaded.map_err(|error| AppError::internal(format!("ratings load: {error}")))?;
        let guard = self.shared().read_ratings();
        let model = guard.as_ref().ok_or_else(|| AppError::internal("ratings not loaded"))?;
        Ok(read(model))
    }

    /// Folds the ratings up to the applied position A and installs them if A is still the
    /// applied position under the cache lock (the lock the follower folds under), else
    /// catches up on (A, applied] and tries again: the model never misses or repeats an
    /// event (the same protocol as a league's model, `docs/architecture.md`).
    async fn load_ratings(&self) -> Result<(), AppError> {
        let mut target = self.applied_position();
        // The catalog reflects at least every event up to the applied position; a league is
        // created before its games are reported, so these systems cover every result.
        let systems = self.league_systems();
        let mut model = load_ratings(self.reads(), target, |league| systems.get(&league).copied())
            .await
            .map_err(AppError::from)?;
        loop {
            {
                let _cache = self.shared().lock_cache();
                let mut slot = self.shared().write_ratings();
                if slot.is_some() {
                    return Ok(());
                }
                if self.applied_position() == target {
                    *slot = Some(model);
                    return Ok(());
                }
            }
            target = self.applied_position();
            let systems = self.league_systems();
            model
                .catch_up(self.reads(), target, |league| systems.get(&league).copied())
                .await
                .map_err(AppError::from)?;
        }
    }

    /// Every league's and tournament's scoring system, from the catalog.
    fn league_systems(&self) -> HashMap<Uuid, ScoringSystem> {
        let catalog = self.catalog();
        catalog
            .leagues()
            .map(|league| (league.id, league.settings.scoring_system))
            .chain(catalog.tournaments().map(|t| (t.id, t.settings.scoring_system)))
            .collect()
    }
}
