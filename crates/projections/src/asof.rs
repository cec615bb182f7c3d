//! Time travel: the read model as of a global position or an instant, by folding the log
//! up to that point — in memory ([`fold_until`]) or straight from the events table
//! ([`load_model`], the fast path used by replay, as-of queries and the benchmark).

use chrono::{DateTime, SubsecRound, Utc};
use futures::TryStreamExt;
use league_domain::{DomainEvent, league_stream_id};
use league_store::{Bound, EventStore, RecordedEvent, StreamId};
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::decode::EventMeta;
use crate::decode::decode_row;
use crate::error::ProjectionError;
use crate::model::ReadModel;
use crate::players::{erased_players, person_keys};

/// A point in history: everything up to and including a global position, or everything
/// recorded at or before an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsOf {
    Position(u64),
    Time(DateTime<Utc>),
}

impl AsOf {
    /// Whether an event at `position`, committed at `recorded_at`, is part of the history
    /// up to this point. Times compare at microsecond precision, like the store's.
    pub fn includes(&self, position: u64, recorded_at: DateTime<Utc>) -> bool {
        match *self {
            AsOf::Position(last) => position <= last,
            AsOf::Time(time) => recorded_at <= time.trunc_subsecs(6),
        }
    }
}

impl From<AsOf> for Bound {
    fn from(as_of: AsOf) -> Bound {
        match as_of {
            AsOf::Position(position) => Bound::Position(position),
            AsOf::Time(time) => Bound::Time(time),
        }
    }
}

/// Folds `events` (in position order) up to `as_of`; events past the bound are ignored.
pub fn fold_until<'a>(
    events: impl IntoIterator<Item = &'a RecordedEvent>,
    as_of: AsOf,
) -> Result<ReadModel, ProjectionError> {
    let mut model = ReadModel::new();
    for event in events {
        // Commit times never decrease along positions, so the first event past the bound
        // ends the history for either kind of bound.
        if !as_of.includes(event.position, event.recorded_at) {
            break;
        }
        model.apply(event)?;
    }
    Ok(model)
}

/// How often (in events) [`load_model`] reports progress.
pub const PROGRESS_EVERY: u64 = 16_384;
/// Decoded events handed from [`load_model`]'s reader to its folder at a time: large enough
/// that the hand-over costs nothing per event, small enough to keep both sides busy.
const FOLD_BATCH: usize = 512;
/// Batches the reader may run ahead of the folder.
const BATCHES_AHEAD: usize = 4;

/// Folds the log from the database up to `until` (the whole log for `None`), reading rows
/// with one streaming query and decoding each payload straight from its JSON text.
/// `progress` is called with the last read position every [`PROGRESS_EVERY`] events.
///
/// Reading and decoding run on the calling task while a blocking thread folds the decoded
/// events in order, so a rebuild keeps two cores busy (the driver's own reading, then
/// decoding, then folding would otherwise queue behind one another on one). The first
/// error in log order wins: a fold error stops the reader, a read or decode error ends
/// the fold after the events before it.
pub async fn load_model(
    store: &EventStore,
    until: Option<AsOf>,
    mut progress: impl FnMut(u64),
) -> Result<ReadModel, ProjectionError> {
    let last = match until {
        None => u64::MAX,
        Some(as_of) => store.position_at(as_of.into()).await?,
    };
    let (to_folder, mut inbox) = mpsc::channel::<Vec<(EventMeta, DomainEvent)>>(BATCHES_AHEAD);
    let folder = tokio::task::spawn_blocking(move || {
        let mut model = ReadModel::new();
        while let Some(batch) = inbox.blocking_recv() {
            for (meta, event) in batch {
                model.apply_event(meta, event)?;
            }
        }
        Ok::<_, ProjectionError>(model)
    });
    let read = async {
        let mut rows = store.read_all_from(1, last);
        let mut count = 0u64;
        let mut batch = Vec::with_capacity(FOLD_BATCH);
        while let Some(row) = rows.try_next().await? {
            let (meta, event) = decode_row(&row)?;
            let position = meta.position;
            batch.push((meta, event));
            if batch.len() == FOLD_BATCH {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(FOLD_BATCH));
                if to_folder.send(full).await.is_err() {
                    // The folder stopped on an error, reported below.
                    break;
                }
            }
            count += 1;
            if count.is_multiple_of(PROGRESS_EVERY) {
                progress(position);
            }
        }
        if !batch.is_empty() {
            // A closed folder has an error of its own, reported below.
            let _ = to_folder.send(batch).await;
        }
        Ok::<_, ProjectionError>(())
    }
    .await;
    drop(to_folder);
    let folded = match folder.await {
        Ok(folded) => folded,
        Err(error) => match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(error) => panic!("the replay's folding thread was cancelled: {error}"),
        },
    };
    // The folder only saw events before any read error, so its own error comes first.
    let mut model = folded?;
    read?;
    // Names: keys read after the fold (see `load_catalog`); a view of an earlier point also
    // hides those erased after it.
    model.open_names(&person_keys(store, None).await?);
    if until.is_some() {
        model.forget_names(erased_players(store).await?);
    }
    progress(model.position());
    Ok(model)
}

/// One league's model: its stream folded up to `until` (the whole stream for `None`). The
/// model knows the league, its games, results, standings and score history; players are
/// the [`Catalog`](crate::Catalog)'s. Rows are read and decoded like [`load_model`]'s (from
/// the payload's JSON text, by the `events(stream_id, stream_version)` index).
pub async fn load_league(
    store: &EventStore,
    league: Uuid,
    until: Option<AsOf>,
) -> Result<ReadModel, ProjectionError> {
    let stream = StreamId::new(league_stream_id(league.into()))?;
    let bound = until.map_or(Bound::Position(u64::MAX), Bound::from);
    let mut rows = store.read_stream_until(&stream, bound);
    let mut model = ReadModel::new();
    while let Some(row) = rows.try_next().await? {
        let (meta, event) = decode_row(&row)?;
        model.apply_event(meta, event)?;
    }
    Ok(model)
}
