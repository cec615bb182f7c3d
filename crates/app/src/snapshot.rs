//! Keeping the catalog snapshot fresh (`docs/architecture.md#snapshots`): a start folds only
//! the catalog events after the stored snapshot, so the platform takes a new one whenever
//! the log has grown by [`SNAPSHOT_GROWTH`] events and by a tenth since the last one. A
//! snapshot is a cache of the catalog's fold: failing to save one (a read-only standby, a
//! full disk) costs the next start time, never an answer, so it is logged and retried later.

use std::sync::Arc;
use std::time::Duration;

use league_projections::snapshot_of;
use league_store::{EventStore, Snapshot};
use tokio::sync::watch;

use crate::app::{App, Shared};
use crate::error::AppError;

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
