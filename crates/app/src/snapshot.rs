//! Keeping the snapshots fresh (`docs/architecture.md#snapshots`): a start folds only the
//! catalog events after the stored catalog snapshot, and the first ratings request only the
//! results after the ratings snapshot, so the platform takes new ones whenever the log has
//! grown by [`SNAPSHOT_GROWTH`] events and by a tenth since the last one (the ratings' only
//! once they are loaded: a process nobody asked for ratings does not fold them). A snapshot
//! is a cache of a fold: failing to save one (a read-only standby, a full disk) costs the
//! next start or first request time, never an answer, so it is logged and retried later.

use std::sync::Arc;
use std::time::Duration;

use league_projections::{
    RATINGS_SNAPSHOT, RatingsQuestion, SnapshotCheck, ratings_snapshot_of, snapshot_of,
    verify_ratings_snapshot,
};
use league_store::{EventStore, Snapshot};
use tokio::sync::watch;

use crate::app::App;
use crate::error::AppError;
use crate::shared::Shared;

/// Log growth (in events) since the last snapshot before the next one is taken; the growth
/// must also be a tenth of the log, so a long log is not re-encoded every few minutes.
pub const SNAPSHOT_GROWTH: u64 = 100_000;
/// Pause after a snapshot failed to save before the next try.
const RETRY_AFTER: Duration = Duration::from_secs(300);

impl App {
    /// Takes a snapshot of the catalog as of the applied position and stores it (replacing
    /// the one before): what `league snapshot take` runs.
    pub async fn take_catalog_snapshot(&self) -> Result<Snapshot, AppError> {
        take(self.store(), self.shared()).await
    }

    /// Takes a snapshot of the ratings (loading them first, from the stored ratings snapshot
    /// and the results after it) and stores it, replacing the one before: what `league
    /// snapshot take` runs.
    pub async fn take_ratings_snapshot(&self) -> Result<Snapshot, AppError> {
        self.with_ratings(RatingsQuestion::Now, |_| ()).await?;
        take_ratings(self.store(), self.shared())
            .await?
            .ok_or_else(|| AppError::internal("the ratings are not loaded"))
    }

    /// Checks the stored ratings snapshot against a complete fold of the log up to its
    /// position (`league snapshot verify`).
    pub async fn verify_ratings_snapshot(&self) -> Result<SnapshotCheck, AppError> {
        let systems = self.league_systems();
        Ok(verify_ratings_snapshot(self.store(), |league| systems.get(&league).copied()).await?)
    }

    /// The stored ratings snapshot, if any.
    pub async fn ratings_snapshot(&self) -> Result<Option<Snapshot>, AppError> {
        Ok(self.store().snapshot(RATINGS_SNAPSHOT).await?)
    }
}

/// Takes a snapshot of the ratings as they are loaded (`None`: not loaded, or stale) and
/// stores it.
pub(crate) async fn take_ratings(
    store: &EventStore,
    shared: &Shared,
) -> Result<Option<Snapshot>, AppError> {
    // Encoded under the read lock (the follower waits for it: a window's worth of work),
    // hashed and saved after.
    let encoded = shared.read_ratings().as_ref().and_then(|model| {
        let keep = shared.ratings_window.load(std::sync::atomic::Ordering::Relaxed);
        Some((model.position(), model.snapshot_body(keep)?))
    });
    let Some((position, body)) = encoded else {
        return Ok(None);
    };
    let snapshot = ratings_snapshot_of(store, position, body).await?;
    store.save_snapshot(&snapshot).await?;
    Ok(Some(snapshot))
}

async fn take(store: &EventStore, shared: &Shared) -> Result<Snapshot, AppError> {
    // Encoded under the read lock (the follower waits for it), hashed and saved after.
    let (position, body) = {
        let catalog = shared.read_catalog();
        (catalog.position(), catalog.snapshot_body())
    };
    let snapshot = snapshot_of(store, position, body).await?;
    store.save_snapshot(&snapshot).await?;
    Ok(snapshot)
}

/// Whether a log at `applied` has grown enough past a snapshot at `last` for a new one.
fn due(last: u64, applied: u64) -> bool {
    let grown = applied.saturating_sub(last);
    grown >= SNAPSHOT_GROWTH && grown >= last / 10
}

/// Runs until aborted (with the last `App` clone): takes a snapshot whenever one is due.
/// `last` is the position of the snapshot the start used (0 without one).
pub(crate) async fn keep_snapshots(
    store: EventStore,
    shared: Arc<Shared>,
    mut applied: watch::Receiver<u64>,
    mut last: u64,
) {
    loop {
        if applied.wait_for(|applied| due(last, *applied)).await.is_err() {
            return; // the follower stopped
        }
        match take(&store, &shared).await {
            Ok(snapshot) => {
                tracing::info!(
                    position = snapshot.position,
                    bytes = snapshot.body.len(),
                    "catalog snapshot taken"
                );
                last = snapshot.position;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot save a catalog snapshot; the next start folds more");
                tokio::time::sleep(RETRY_AFTER).await;
                continue;
            }
        }
        match take_ratings(&store, &shared).await {
            Ok(Some(snapshot)) => tracing::info!(
                position = snapshot.position,
                bytes = snapshot.body.len(),
                "ratings snapshot taken"
            ),
            Ok(None) => {}
            Err(error) => {
                tracing::warn!(%error, "cannot save a ratings snapshot; the next load folds more");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_is_due_after_growth_of_both_a_fixed_count_and_a_tenth() {
        assert!(!due(0, SNAPSHOT_GROWTH - 1));
        assert!(due(0, SNAPSHOT_GROWTH));
        assert!(due(500_000, 600_000));
        assert!(!due(2_000_000, 2_150_000), "a tenth of 2M is 200k");
        assert!(due(2_000_000, 2_200_000));
    }
}
