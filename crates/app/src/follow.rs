//! The background task that follows the live feed: fold into the shared read model,
//! publish the applied position and notifications, then persist the touched rows.

use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use futures::StreamExt;
use league_projections::{Projector, ReadModel};
use league_store::EventStore;
use tokio::sync::{broadcast, watch};

use crate::app::Notification;

/// Events folded under one write lock and persisted in one transaction, at most.
const CHUNK: usize = 1024;
/// Pause before re-subscribing after the feed failed (database unreachable…).
const RETRY_AFTER: Duration = Duration::from_millis(500);

/// Everything the task shares with [`crate::App`].
pub(crate) struct Follower {
    pub(crate) store: EventStore,
    pub(crate) model: Arc<RwLock<ReadModel>>,
    pub(crate) projector: Projector,
    /// Highest position folded (or skipped as unreadable): `execute` waits on it.
    pub(crate) applied: watch::Sender<u64>,
    /// Highest position the `rm_*` tables reflect.
    pub(crate) persisted: watch::Sender<u64>,
    pub(crate) notifications: broadcast::Sender<Arc<Notification>>,
}

impl Follower {
    /// Runs until aborted (when the last `App` clone is dropped).
    pub(crate) async fn run(mut self) {
        // The tables may lag the model when the process starts (another process stopped
        // half-way): write whatever the catch-up noted, then follow.
        self.persist().await;
        loop {
            let from = *self.applied.borrow() + 1;
            let feed = self.store.subscribe(from).ready_chunks(CHUNK);
            futures::pin_mut!(feed);
            while let Some(chunk) = feed.next().await {
                let failed = self.fold(chunk);
                self.persist().await;
                if failed {
                    break;
                }
            }
            tokio::time::sleep(RETRY_AFTER).await;
        }
    }

    /// Folds a chunk of the feed; true when the feed failed (re-subscribe).
    fn fold(
        &mut self,
        chunk: Vec<Result<league_store::RecordedEvent, league_store::StoreError>>,
    ) -> bool {
        let mut notes = Vec::with_capacity(chunk.len());
        let mut failed = false;
        let mut seen = *self.applied.borrow();
        {
            let mut model = self.model.write().unwrap_or_else(PoisonError::into_inner);
            for item in chunk {
                let event = match item {
                    Ok(event) => event,
                    Err(error) => {
                        tracing::error!(%error, "live feed failed; re-subscribing");
                        failed = true;
                        break;
                    }
                };
                if event.position <= seen {
                    continue;
                }
                seen = event.position;
                match model.apply(&event) {
                    Ok(applied) => {
                        self.projector.note(&applied);
                        notes.push(Notification {
                            league: applied.league,
                            standings_changed: applied.standings_changed,
                            applied,
                            event,
                        });
                    }
                    // An event this code cannot fold is skipped (and reported) rather than
                    // stopping every later one; `league verify`/`replay` name it too.
                    Err(error) => tracing::error!(%error, "event skipped by the read model"),
                }
            }
        }
        self.applied.send_replace(seen);
        for note in notes {
            // No receivers is fine: notifications are only for live subscriptions.
            let _ = self.notifications.send(Arc::new(note));
        }
        failed
    }

    /// Writes the rows touched since the last write; on failure, rebuilds all of them at
    /// the next opportunity (the noted set is gone, the model is not).
    pub(crate) async fn persist(&mut self) {
        let batch = {
            let model = self.model.read().unwrap_or_else(PoisonError::into_inner);
            self.projector.take_batch(&model)
        };
        let Some(batch) = batch else { return };
        match self.projector.write(self.store.connection(), batch).await {
            Ok(_) => {
                self.persisted.send_replace(self.projector.checkpoint());
            }
            Err(error) => {
                tracing::error!(%error, "writing read-model rows failed; will rebuild them");
                let model = self.model.read().unwrap_or_else(PoisonError::into_inner);
                self.projector.mark_all(&model);
            }
        }
    }
}
