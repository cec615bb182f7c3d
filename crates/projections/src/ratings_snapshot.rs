//! Ratings snapshots (`docs/ratings.md#loading-and-keeping-current`): a windowed
//! [`RatingsModel`] as of a log position, stored on the same mechanism as the catalog's
//! (`docs/architecture.md#snapshots`: position, chain hash, format number, body SHA-256), so
//! the first ratings request reads one row and folds only the results after it instead of
//! every result of the log.
//!
//! The body is the model's window image ([`league_ratings::LedgerImage`]: every player's
//! base rating, the window's results, outcomes and changes) with the window's commit
//! times, in MessagePack. It is derived data, never a source: [`load_windowed_ratings`] uses
//! it only when it is intact, in this code's format and taken from this log, and folds from
//! nothing otherwise. The image is canonical, so [`verify_ratings_snapshot`] checks a
//! snapshot byte for byte against a complete fold of the log up to its position, cut where
//! the snapshot's window starts.

use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use league_ratings::{LedgerImage, RatingError};
use league_scoring::ScoringSystem;
use league_store::{EventStore, Snapshot};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::catalog::snapshot::{check_snapshot, snapshot_at};
use crate::decode::decode_row;
use crate::error::ProjectionError;
use crate::ratings::{ModelImage, RATING_EVENT_TYPES, RatingsModel, load_ratings};
use crate::{SnapshotCheck, SnapshotRejected};

/// The snapshot kind of the ratings.
pub const RATINGS_SNAPSHOT: &str = "ratings";
/// The encoding of this code's ratings images: bump it whenever [`RatingsImage`] or what it
/// holds changes shape, so older snapshots are ignored rather than misread.
pub const RATINGS_SNAPSHOT_FORMAT: u32 = 1;

/// A windowed ratings model, as stored.
#[derive(Serialize, Deserialize)]
struct RatingsImage {
    /// The last log position folded.
    position: u64,
    ledger: LedgerImage,
    /// Commit time of each result of the window (nanoseconds since the epoch).
    times: Vec<i64>,
    /// Commit time of the last forgotten result.
    cut_time: Option<i64>,
}

fn nanos(time: DateTime<Utc>) -> i64 {
    // Commit times are far inside the i64 nanosecond range (1677–2262).
    time.timestamp_nanos_opt().unwrap_or(i64::MAX)
}

fn encode(position: u64, (ledger, times, cut_time): ModelImage) -> Vec<u8> {
    let image = RatingsImage {
        position,
        ledger,
        times: times.into_iter().map(nanos).collect(),
        cut_time: cut_time.map(nanos),
    };
    rmp_serde::to_vec(&image).expect("a ratings image always encodes")
}

impl RatingsModel {
    /// The model's canonical encoding keeping at least the last `keep` results in its
    /// window (what a snapshot stores); `None` when it is stale (a correction of a
    /// forgotten game stopped it).
    pub fn snapshot_body(&self, keep: usize) -> Option<Vec<u8>> {
        Some(encode(self.position(), self.image(keep)?))
    }

    /// The windowed model a [`RatingsModel::snapshot_body`] was taken of, keeping at least
    /// `keep` results from now on.
    pub fn from_snapshot_body(body: &[u8], keep: usize) -> Result<RatingsModel, SnapshotRejected> {
        let undecodable = |error: String| SnapshotRejected::Undecodable(error);
        let image: RatingsImage =
            rmp_serde::from_slice(body).map_err(|error| undecodable(error.to_string()))?;
        let times = image.times.into_iter().map(DateTime::from_timestamp_nanos).collect();
        let cut_time = image.cut_time.map(DateTime::from_timestamp_nanos);
        RatingsModel::from_image(image.position, image.ledger, times, cut_time, keep)
            .map_err(|error| undecodable(error.to_string()))
    }
}

/// Wraps an encoded ratings model taken at `position` as a snapshot of this log.
pub async fn ratings_snapshot_of(
    store: &EventStore,
    position: u64,
    body: Vec<u8>,
) -> Result<Snapshot, ProjectionError> {
    snapshot_at(store, RATINGS_SNAPSHOT, RATINGS_SNAPSHOT_FORMAT, position, body).await
}

async fn check(
    store: &EventStore,
    snapshot: &Snapshot,
    head: u64,
) -> Result<Result<(), SnapshotRejected>, ProjectionError> {
    check_snapshot(store, snapshot, head, RATINGS_SNAPSHOT_FORMAT, |found| {
        SnapshotRejected::RatingsFormat { found }
    })
    .await
}

/// Where a loaded ratings model started from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingsSource {
    /// The position of the snapshot it started from (`None`: it folded every result).
    pub snapshot: Option<u64>,
    /// Why the stored snapshot was not used, if there is one.
    pub rejected: Option<SnapshotRejected>,
    /// Result events folded after the snapshot (every one without it).
    pub results_folded: usize,
}

/// Folds the result events after `model`'s position up to `last` into it (one streaming
/// query through the `events(event_type, position)` index).
pub async fn fold_ratings(
    store: &EventStore,
    mut model: RatingsModel,
    last: u64,
    system_of: impl Fn(Uuid) -> Option<ScoringSystem>,
) -> Result<(RatingsModel, usize), ProjectionError> {
    let mut folded = 0;
    if last > model.position() {
        let types: Vec<&str> = RATING_EVENT_TYPES.iter().map(|t| t.as_str()).collect();
        let mut rows = store.read_types_between(&types, model.position(), last);
        while let Some(row) = rows.try_next().await? {
            let (meta, event) = decode_row(&row)?;
            model.apply_event(meta, &event, &system_of)?;
            folded += 1;
        }
    }
    model.advance_to(last);
    Ok((model, folded))
}

/// A windowed ratings model (keeping at least `keep` results) as of `last`: from the stored
/// ratings snapshot when it is usable, else from nothing, then folding the results up to
/// `last`. The model may come back stale (a correction of a game it forgot): then only a
/// complete fold ([`load_ratings`]) answers.
pub async fn load_windowed_ratings(
    store: &EventStore,
    last: u64,
    keep: usize,
    system_of: impl Fn(Uuid) -> Option<ScoringSystem>,
) -> Result<(RatingsModel, RatingsSource), ProjectionError> {
    let (start, snapshot, rejected) = match store.snapshot(RATINGS_SNAPSHOT).await? {
        None => (RatingsModel::windowed(keep), None, None),
        Some(stored) => {
            let usable = check(store, &stored, last)
                .await?
                .and_then(|()| RatingsModel::from_snapshot_body(&stored.body, keep));
            match usable {
                Ok(model) => (model, Some(stored.position), None),
                Err(rejected) => {
                    tracing::warn!(%rejected, "the ratings snapshot is not used; folding every result");
                    (RatingsModel::windowed(keep), None, Some(rejected))
                }
            }
        }
    };
    let (model, results_folded) = fold_ratings(store, start, last, system_of).await?;
    Ok((model, RatingsSource { snapshot, rejected, results_folded }))
}

/// Checks the stored ratings snapshot: intact, this format, this log, and equal to the
/// model a complete fold of the log up to its position gives, cut where the snapshot's
/// window starts. `system_of` names each league's scoring system.
pub async fn verify_ratings_snapshot(
    store: &EventStore,
    system_of: impl Fn(Uuid) -> Option<ScoringSystem>,
) -> Result<SnapshotCheck, ProjectionError> {
    let Some(snapshot) = store.snapshot(RATINGS_SNAPSHOT).await? else {
        return Ok(SnapshotCheck::Missing);
    };
    let head = store.head_position().await?;
    if let Err(rejected) = check(store, &snapshot, head).await? {
        return Ok(SnapshotCheck::Rejected(rejected));
    }
    let image: RatingsImage = match rmp_serde::from_slice(&snapshot.body) {
        Ok(image) => image,
        Err(error) => {
            return Ok(SnapshotCheck::Rejected(SnapshotRejected::Undecodable(error.to_string())));
        }
    };
    let differs = SnapshotCheck::Differs { position: snapshot.position };
    if image.position != snapshot.position {
        return Ok(differs);
    }
    let folded = load_ratings(store, snapshot.position, system_of).await?;
    let Ok(forgotten) = usize::try_from(image.ledger.forgotten) else {
        return Ok(differs);
    };
    let parts = match folded.image_forgetting(forgotten) {
        Ok(parts) => parts,
        Err(RatingError::CannotForget(_)) => return Ok(differs),
        Err(error) => {
            return Err(ProjectionError::inconsistent(snapshot.position, error.to_string()));
        }
    };
    Ok(if encode(snapshot.position, parts) == snapshot.body {
        SnapshotCheck::Verified { position: snapshot.position, body_bytes: snapshot.body.len() }
    } else {
        differs
    })
}
