//! What the follower and the readers of one `App` share (the catalog, the league-model cache,
//! the ratings, the watched standings, the follower's failure), and the [`Notification`]
//! the follower sends per event.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use futures::future::{BoxFuture, Shared as SharedFuture};
use league_projections::{Applied, Catalog, ReadModel, StandingRow};
use league_store::RecordedEvent;
use lru::LruCache;
use uuid::Uuid;

/// One event as folded into the read model, for live subscriptions.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub event: RecordedEvent,
    /// The league the event concerns (`None` for player registrations).
    pub league: Option<Uuid>,
    /// Whether the league's standings changed.
    pub standings_changed: bool,
    pub applied: Applied,
    /// The league's standings right after this event, ranked by the follower when they
    /// changed, the league is watched ([`App::watch_standings`]) and its model is cached;
    /// otherwise [`App::standings_at`] the event's position gives them.
    pub standings: Option<Arc<[StandingRow]>>,
}

/// What the follower and the readers share: the catalog, the league-model cache and the
/// follower's failure, if it stopped.
pub(crate) struct Shared {
    pub(crate) catalog: RwLock<Catalog>,
    /// League id → the league's model as of the applied position. Models are shared
    /// snapshots: the follower copies one on write when a reader still holds it.
    pub(crate) cache: Mutex<LruCache<Uuid, Arc<ReadModel>>>,
    pub(crate) failure: RwLock<Option<String>>,
    /// Ratings across leagues, once first asked for (`crate::ratings`).
    pub(crate) ratings: RwLock<Option<league_projections::RatingsModel>>,
    /// The ratings' first load while it runs: one task that every request waits on, so a
    /// request that gives up (timeout, client gone) does not abandon the load.
    pub(crate) ratings_load: Mutex<Option<RatingsLoad>>,
    /// Results a windowed ratings model keeps at least (`App::set_ratings_window`).
    pub(crate) ratings_window: std::sync::atomic::AtomicUsize,
    /// The leagues whose standings live subscriptions watch (`crate::live`).
    pub(crate) standings_watchers: StandingsWatchers,
    /// Each recently seen stream's last applied version: when a kept aggregate is current
    /// (`crate::aggregates::FollowedVersions`).
    pub(crate) followed: crate::aggregates::FollowedVersions,
}

impl Shared {
    pub(crate) fn lock_cache(&self) -> MutexGuard<'_, LruCache<Uuid, Arc<ReadModel>>> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn read_catalog(&self) -> RwLockReadGuard<'_, Catalog> {
        self.catalog.read().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn write_catalog(&self) -> RwLockWriteGuard<'_, Catalog> {
        self.catalog.write().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn fail(&self, reason: String) {
        *self.failure.write().unwrap_or_else(PoisonError::into_inner) = Some(reason);
    }
}

/// A running load of the ratings (shared by every waiter); its error as text.
#[derive(Clone)]
pub(crate) struct RatingsLoad {
    /// It loads the complete model (else a windowed one).
    pub(crate) complete: bool,
    pub(crate) task: SharedFuture<BoxFuture<'static, Result<(), String>>>,
}

/// League id → live `standingsChanged` subscriptions to it in this process.
#[derive(Debug, Default)]
pub(crate) struct StandingsWatchers(Mutex<HashMap<Uuid, usize>>);

impl StandingsWatchers {
    pub(crate) fn lock(&self) -> MutexGuard<'_, HashMap<Uuid, usize>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The leagues watched now, or `None` when none is (the follower's common case: nothing
    /// to rank).
    pub(crate) fn watched(&self) -> Option<Vec<Uuid>> {
        let watchers = self.lock();
        (!watchers.is_empty()).then(|| watchers.keys().copied().collect())
    }
}
