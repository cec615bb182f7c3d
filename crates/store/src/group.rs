//! The group commit: appends queue up in the store; whichever caller finds the commit slot
//! free takes everything queued (up to [`MAX_GROUP_EVENTS`] events) and commits it as one
//! transaction through the database's [`Storage`], in a task of its own so that a caller
//! giving up cannot abandon the others' commit. Inside the transaction every append keeps
//! its own semantics, in queue order (see [`decide`](crate::decide::decide)). Every caller
//! hears back only after the commit. Under load many appends share one commit (one fsync);
//! alone, an append commits at once.
//!
//! If a group's transaction fails as a whole (a database error), each of its appends is
//! retried alone, so one failing append cannot fail its neighbours.
//!
//! The store reaches the queue through [`Committer`], which the façade implements, so this
//! module sits below it beside the engines.

use std::collections::VecDeque;
use std::sync::Arc;

use sea_orm::{DatabaseConnection, DbErr, EntityTrait, SqlErr};
use tokio::sync::oneshot;

use crate::StoreError;
use crate::convert::from_db;
use crate::decide::{Decided, KeyOutcome, Request};
use crate::entity::idempotency_key;
use crate::error::lost;
use crate::storage::{GroupFailed, Storage};

/// A group stops growing once it holds this many events (an append is never split).
pub(crate) const MAX_GROUP_EVENTS: usize = 2000;

/// A queued append and where its answer goes.
pub(crate) struct Pending {
    request: Request,
    reply: oneshot::Sender<Result<Decided, StoreError>>,
}

/// The queue of appends waiting for a commit, and the slot held while a group commits.
#[derive(Default)]
pub(crate) struct GroupCommit {
    queue: std::sync::Mutex<VecDeque<Pending>>,
    slot: Arc<tokio::sync::Mutex<()>>,
}

/// The store as its group commit uses it (implemented by the façade, `EventStore`): a
/// handle the commit task keeps while it commits.
pub(crate) trait Committer: Clone + Send + Sync + 'static {
    /// The store's queue of appends.
    fn group(&self) -> &GroupCommit;
    /// The database engine that commits a group.
    fn storage(&self) -> &dyn Storage;
    /// The primary's connection, where an idempotency key's winner is read.
    fn primary(&self) -> &DatabaseConnection;
    /// Tells this process's subscribers that the log now reaches `position`.
    fn announce(&self, position: u64);
}

/// Queues `request` and waits for its commit: either another caller's group takes it, or
/// this caller finds the commit slot free and commits everything queued.
pub(crate) async fn submit(
    store: &impl Committer,
    request: Request,
) -> Result<Decided, StoreError> {
    let group = store.group();
    let (reply, mut answer) = oneshot::channel();
    lock_queue(&group.queue).push_back(Pending { request, reply });
    tokio::select! {
        biased;
        decided = &mut answer => return decided.unwrap_or_else(|_| Err(lost())),
        slot = group.slot.clone().lock_owned() => {
            let batch = take_group(&mut lock_queue(&group.queue));
            if !batch.is_empty() {
                // A task of its own: the group commits even if this caller is cancelled.
                let store = store.clone();
                tokio::spawn(async move {
                    commit_group(&store, batch).await;
                    drop(slot);
                });
            }
            // An empty queue means an earlier group took this request; its answer comes.
        }
    }
    answer.await.unwrap_or_else(|_| Err(lost()))
}

/// Commits one group and answers each of its callers.
async fn commit_group(store: &impl Committer, batch: Vec<Pending>) {
    let (requests, replies): (Vec<Arc<Request>>, Vec<_>) =
        batch.into_iter().map(|pending| (Arc::new(pending.request), pending.reply)).unzip();
    let results = match store.storage().write_group(&requests).await {
        Ok(decided) => decided.into_iter().map(Ok).collect(),
        Err(failed) if requests.len() == 1 => vec![Err(failed.error)],
        Err(GroupFailed { rolled_back: true, .. }) => {
            let mut results = Vec::with_capacity(requests.len());
            for request in &requests {
                results.push(write_alone(store, request).await);
            }
            results
        }
        Err(GroupFailed { error, rolled_back: false }) => {
            // The commit itself failed (e.g. the connection dropped): the group may or may
            // not be in the log, so retrying could write it twice. Everyone hears so.
            let text = format!(
                "the append's group commit failed, it may or may not have been committed: {error}"
            );
            let unavailable = error.is_unavailable();
            let mut results = vec![Err(error)];
            results.extend(requests.iter().skip(1).map(|_| {
                Err(match unavailable {
                    // Still a lost server: the caller may retry with its idempotency key.
                    true => StoreError::Unavailable { reason: text.clone() },
                    false => StoreError::Database(DbErr::Custom(text.clone())),
                })
            }));
            results
        }
    };
    let mut last_position = 0;
    for (result, reply) in results.into_iter().zip(replies) {
        if let Ok(Decided::Written(stamps)) = &result {
            last_position = stamps.last().map_or(last_position, |stamp| stamp.position);
        }
        // A caller that stopped waiting no longer needs its answer.
        reply.send(result).ok();
    }
    if last_position > 0 {
        store.announce(last_position);
    }
}

/// One append in a transaction of its own; a unique-key violation on its idempotency key
/// (another writer won the key) is answered with the winner's outcome.
async fn write_alone(
    store: &impl Committer,
    request: &Arc<Request>,
) -> Result<Decided, StoreError> {
    match store.storage().write_group(std::slice::from_ref(request)).await {
        Ok(mut decided) => decided.pop().ok_or_else(lost),
        Err(GroupFailed { error, .. }) => {
            let key_taken = matches!(
                &error,
                StoreError::Database(db) if matches!(db.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
            );
            if key_taken
                && let Some(key) = &request.idempotency_key
                && let Some(earlier) =
                    idempotency_key::Entity::find_by_id(key.clone()).one(store.primary()).await?
            {
                return Ok(Decided::Deduplicated(KeyOutcome {
                    first_position: from_db(earlier.first_position),
                    last_position: from_db(earlier.last_position),
                    stream_version: from_db(earlier.stream_version),
                }));
            }
            Err(error)
        }
    }
}

/// Takes queued appends from the front until the group holds [`MAX_GROUP_EVENTS`] events.
fn take_group(queue: &mut VecDeque<Pending>) -> Vec<Pending> {
    let mut batch = Vec::new();
    let mut events = 0;
    while let Some(next) = queue.front() {
        if !batch.is_empty() && events + next.request.events.len() > MAX_GROUP_EVENTS {
            break;
        }
        events += next.request.events.len();
        batch.extend(queue.pop_front());
    }
    batch
}

fn lock_queue(
    queue: &std::sync::Mutex<VecDeque<Pending>>,
) -> std::sync::MutexGuard<'_, VecDeque<Pending>> {
    // The queue is only pushed to and drained; a panic elsewhere cannot leave it half-changed.
    queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
