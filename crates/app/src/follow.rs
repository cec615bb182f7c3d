//! The background task that follows the live feed: fold each new event into the catalog,
//! the ratings (once loaded) and that league's cached model (if cached), publish the
//! applied position and a notification per event (with the league's standings right after
//! it when a subscription watches them). An event it cannot fold stops it loudly
//! (`docs/architecture.md`).

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use league_projections::{Applied, PersonKeys, ProjectionError, decode, person_keys};
use league_store::{EventStore, RecordedEvent, StoreError};
use tokio::sync::{broadcast, watch};

use crate::personal::sealed_data_owners;
use crate::shared::{Notification, Shared};

/// Events folded under one lock, at most.
const CHUNK: usize = 1024;
/// Pause before re-subscribing after the feed failed (database unreachable…).
const RETRY_AFTER: Duration = Duration::from_millis(500);

/// Everything the task shares with [`crate::App`].
pub(crate) struct Follower {
    pub(crate) store: EventStore,
    pub(crate) shared: Arc<Shared>,
    /// Highest position folded: `execute` waits on it, and league loads stop at it.
    pub(crate) applied: watch::Sender<u64>,
    pub(crate) notifications: broadcast::Sender<Arc<Notification>>,
}

/// Why a chunk ended the feed.
enum Outcome {
    /// Keep reading.
    Continue,
    /// The feed failed (database unreachable…): re-subscribe after a pause.
    Resubscribe,
    /// An event cannot be folded: following on would serve answers that silently miss it.
    Fatal(ProjectionError),
}

impl Follower {
    /// Runs until aborted (when the last `App` clone is dropped) or until an event cannot be
    /// folded: then it records the failure (health turns not ready) and stops, dropping the
    /// applied sender so waiting commands fail instead of hanging.
    pub(crate) async fn run(self) {
        loop {
            let from = *self.applied.borrow() + 1;
            let feed = self.store.subscribe(from).ready_chunks(CHUNK);
            futures::pin_mut!(feed);
            while let Some(chunk) = feed.next().await {
                // Keys first: the chunk's new registrations are folded with their names open.
                let keys = match self.keys_for(&chunk).await {
                    Ok(keys) => keys,
                    Err(error) => {
                        tracing::error!(%error, "reading person keys failed; re-subscribing");
                        break;
                    }
                };
                match self.fold(chunk, &keys) {
                    Outcome::Continue => {}
                    Outcome::Resubscribe if self.applied.is_closed() => return,
                    Outcome::Resubscribe => break,
                    Outcome::Fatal(error) => {
                        tracing::error!(%error, "the read side cannot fold an event; stopped");
                        self.shared.fail(error.to_string());
                        return;
                    }
                }
            }
            tokio::time::sleep(RETRY_AFTER).await;
        }
    }

    /// The keys of the people whose sealed data is in `chunk` ([`sealed_data_owners`]).
    async fn keys_for(
        &self,
        chunk: &[Result<RecordedEvent, StoreError>],
    ) -> Result<PersonKeys, ProjectionError> {
        let owners = sealed_data_owners(chunk.iter().filter_map(|item| item.as_ref().ok()));
        if owners.is_empty() {
            return Ok(PersonKeys::default());
        }
        person_keys(&self.store, Some(&owners)).await
    }

    fn fold(&self, chunk: Vec<Result<RecordedEvent, StoreError>>, keys: &PersonKeys) -> Outcome {
        let mut outcome = Outcome::Continue;
        // Decode outside the locks; the events before a bad one are still folded.
        let mut decoded = Vec::with_capacity(chunk.len());
        for item in chunk {
            match item {
                Ok(event) => match decode(&event) {
                    Ok((meta, domain)) => decoded.push((event, meta, domain)),
                    Err(error) => {
                        outcome = Outcome::Fatal(error);
                        break;
                    }
                },
                Err(error) => {
                    // Every `App` is gone (the process is ending: a CLI command returning, the
                    // runtime shutting down and cancelling the database's tasks): nobody reads
                    // what this follower folds, so its feed failing is not worth a word.
                    if !self.applied.is_closed() {
                        tracing::error!(%error, "live feed failed; re-subscribing");
                    }
                    outcome = Outcome::Resubscribe;
                    break;
                }
            }
        }
        let mut notes = Vec::with_capacity(decoded.len());
        // Leagues with a live standings subscription: their standings are ranked right after
        // each event that changes them, so every update is the standings as of its event.
        let watched = self.shared.standings_watchers.watched().unwrap_or_default();
        {
            // The cache lock is what a league load checks the applied position under: while
            // it is held here, no load can insert a model that misses these events.
            let mut cache = self.shared.lock_cache();
            let mut catalog = self.shared.write_catalog();
            let mut ratings = self.shared.write_ratings();
            let mut seen = *self.applied.borrow();
            for (event, meta, domain) in decoded {
                if event.position <= seen {
                    continue;
                }
                let applied = Applied::of(event.position, &domain);
                if let Err(error) = catalog.apply_event(meta, &domain) {
                    outcome = Outcome::Fatal(error);
                    break;
                }
                if let Some(ratings) = ratings.as_mut()
                    && let Err(error) = ratings.apply_event(meta, &domain, |competition| {
                        catalog.scoring_system_of(competition)
                    })
                {
                    outcome = Outcome::Fatal(error);
                    break;
                }
                let mut standings = None;
                if let Some(league) = applied.league
                    && let Some(model) = cache.peek_mut(&league)
                {
                    let model = Arc::make_mut(model);
                    if let Err(error) = model.apply_event(meta, domain) {
                        cache.pop(&league);
                        outcome = Outcome::Fatal(error);
                        break;
                    }
                    if applied.standings_changed && watched.contains(&league) {
                        standings = Some(model.standings(league).into());
                    }
                }
                seen = event.position;
                notes.push(Notification {
                    league: applied.league,
                    standings_changed: applied.standings_changed,
                    applied,
                    event,
                    standings,
                });
            }
            catalog.open_names(keys);
            // Before the position is published: a query that sees it applied also sees
            // these streams' versions (`crate::aggregates::FollowedVersions`).
            (self.shared.followed)
                .note(notes.iter().map(|n| (n.event.stream_id.as_str(), n.event.stream_version)));
            self.applied.send_replace(seen);
        }
        for note in notes {
            // No receivers is fine: notifications are only for live subscriptions.
            let _ = self.notifications.send(Arc::new(note));
        }
        outcome
    }
}
