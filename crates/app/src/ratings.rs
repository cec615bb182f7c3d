//! Ratings across leagues (`docs/ratings.md`) on the read side: the [`RatingsModel`] is
//! loaded on first use, windowed (the last [`RATINGS_WINDOW`](league_projections::RATINGS_WINDOW) results and every player's
//! rating before them) from the ratings snapshot plus the result events after it (through
//! the event-type index, up to the applied position), then kept current by the follower,
//! which folds every event into it under the same locks as the catalog. Reads take its read
//! lock briefly and return owned answers; as-of reads are binary searches in it (never a
//! fold of the log). A question the window does not hold (a history, an as-of read before
//! it, anything after a correction of a forgotten game) loads the complete model once, and
//! it stays complete. A load runs as a task of its own that every waiting request shares: a
//! request that gives up does not abandon it (on a long log it can outlast a request's
//! timeout).

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{PoisonError, RwLockReadGuard, RwLockWriteGuard};

use futures::FutureExt;

use league_projections::{
    AsOf, GameKind, LeaderboardRow, Rating, RatingChange, RatingsModel, RatingsQuestion,
    load_ratings, load_windowed_ratings,
};
use league_scoring::ScoringSystem;
use uuid::Uuid;

use crate::app::App;
use crate::error::AppError;
use crate::shared::{RatingsLoad, Shared};

/// One change of a player's rating, with the commit time of the event that made it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChangeView {
    pub change: RatingChange,
    /// The rating before the change (the previous change's, or the prior).
    pub previous: Rating,
    pub recorded_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// The question a read asks, now or as of a point in history.
fn question(as_of: Option<AsOf>) -> RatingsQuestion {
    as_of.map_or(RatingsQuestion::Now, RatingsQuestion::AsOf)
}

impl Shared {
    pub(crate) fn write_ratings(&self) -> RwLockWriteGuard<'_, Option<RatingsModel>> {
        self.ratings.write().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn read_ratings(&self) -> RwLockReadGuard<'_, Option<RatingsModel>> {
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
        self.with_ratings(question(as_of), |model| {
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
        self.with_ratings(RatingsQuestion::History, |model| {
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

    /// Sets how many recent results a windowed ratings model keeps at least, from its next
    /// load on ([`RATINGS_WINDOW`](league_projections::RATINGS_WINDOW) unless set): tests and benchmarks make it small to see
    /// what happens past it.
    pub fn set_ratings_window(&self, keep: usize) {
        self.shared().ratings_window.store(keep, Ordering::Relaxed);
    }

    /// Whether the loaded ratings are complete (`None`: not loaded).
    pub fn ratings_complete(&self) -> Option<bool> {
        self.shared().read_ratings().as_ref().map(RatingsModel::is_complete)
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
        self.with_ratings(question(as_of), |model| {
            model.ratings().leaderboard(kind, as_of.map(|as_of| model.position_of(as_of)))
        })
        .await
    }

    /// Runs `read` on a ratings model that holds the answer to `question`: the windowed
    /// model, loaded first if no request has yet, or the complete one, loaded when the
    /// window does not hold the answer. `read` must not take the catalog lock (the follower
    /// holds it while it waits for this one).
    pub(crate) async fn with_ratings<T>(
        &self,
        question: RatingsQuestion,
        read: impl FnOnce(&RatingsModel) -> T,
    ) -> Result<T, AppError> {
        // At most a windowed load and then a complete one (which answers everything).
        for _ in 0..3 {
            let complete = match self.shared().read_ratings().as_ref() {
                Some(model) if model.answers(question) => return Ok(read(model)),
                Some(_) => true,
                None => question == RatingsQuestion::History,
            };
            self.ratings_load(complete).await?;
        }
        Err(AppError::internal("the ratings loaded cannot answer"))
    }

    /// Waits for a load of the ratings (complete, or at least windowed), starting one if
    /// none that fits runs.
    async fn ratings_load(&self, complete: bool) -> Result<(), AppError> {
        let load = {
            let mut running =
                self.shared().ratings_load.lock().unwrap_or_else(PoisonError::into_inner);
            match running.as_ref() {
                Some(load) if load.complete || !complete => load.clone(),
                _ => {
                    let app = self.clone();
                    let task = tokio::spawn(async move {
                        app.load_ratings(complete).await.map_err(|error| error.to_string())
                    });
                    let task = async move { task.await.map_err(|error| error.to_string())? }
                        .boxed()
                        .shared();
                    running.insert(RatingsLoad { complete, task }).clone()
                }
            }
        };
        let loaded = load.task.await;
        // Done either way: a failed load is retried by the next request.
        self.shared()
            .ratings_load
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take_if(|running| running.complete == load.complete);
        loaded.map_err(|error| AppError::internal(format!("ratings load: {error}")))
    }

    /// Loads the ratings up to the applied position A (windowed from the ratings snapshot,
    /// or complete from every result) and installs them if A is still the applied position
    /// under the cache lock (the lock the follower folds under), else catches up on
    /// (A, applied] and tries again: the model never misses or repeats an event (the same
    /// protocol as a league's model, `docs/architecture.md`). A model already installed
    /// stays if it answers at least as much.
    async fn load_ratings(&self, complete: bool) -> Result<(), AppError> {
        let mut target = self.applied_position();
        // The catalog reflects at least every event up to the applied position; a league is
        // created before its games are reported, so these systems cover every result.
        let systems = self.league_systems();
        let system_of = |league: Uuid| systems.get(&league).copied();
        // A windowed load that folded many results saves a snapshot, so the next is quick.
        let mut save_snapshot = false;
        let mut model = if complete {
            load_ratings(self.reads(), target, system_of).await?
        } else {
            let keep = self.shared().ratings_window.load(Ordering::Relaxed);
            let (model, source) =
                load_windowed_ratings(self.reads(), target, keep, system_of).await?;
            tracing::info!(
                snapshot = source.snapshot,
                results_folded = source.results_folded,
                complete = model.is_complete(),
                "ratings loaded"
            );
            save_snapshot = source.results_folded as u64 >= crate::snapshot::SNAPSHOT_GROWTH
                || (source.snapshot.is_none() && source.results_folded > 0);
            if model.stale_since().is_some() {
                // A correction re-rates a game the window forgot: only every result answers.
                load_ratings(self.reads(), target, system_of).await?
            } else {
                model
            }
        };
        loop {
            {
                let _cache = self.shared().lock_cache();
                let mut slot = self.shared().write_ratings();
                let keep = slot.as_ref().is_some_and(|installed| {
                    installed.stale_since().is_none()
                        && (installed.is_complete() || !model.is_complete())
                });
                if keep {
                    return Ok(());
                }
                if self.applied_position() == target {
                    *slot = Some(model);
                    break;
                }
            }
            target = self.applied_position();
            let systems = self.league_systems();
            model
                .catch_up(self.reads(), target, |league| systems.get(&league).copied())
                .await
                .map_err(AppError::from)?;
        }
        if save_snapshot
            && let Err(error) = crate::snapshot::take_ratings(self.store(), self.shared()).await
        {
            tracing::warn!(%error, "cannot save a ratings snapshot; the next load folds more");
        }
        Ok(())
    }

    /// Every league's and tournament's scoring system, from the catalog.
    pub(crate) fn league_systems(&self) -> HashMap<Uuid, ScoringSystem> {
        let catalog = self.catalog();
        catalog
            .leagues()
            .map(|league| (league.id, league.settings.scoring_system))
            .chain(catalog.tournaments().map(|t| (t.id, t.settings.scoring_system)))
            .collect()
    }
}
