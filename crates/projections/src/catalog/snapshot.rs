//! Catalog snapshots: the catalog as of a log position, encoded so that a start reads one
//! row instead of folding every catalog event of the log (`docs/architecture.md#snapshots`).
//! A snapshot is derived data, never a source: [`load_catalog`](super::load_catalog) uses it
//! only when its body is intact, its format is this code's, and the log holds the chain hash
//! it names at its position; then it folds the catalog events after that position. Anything
//! else (no snapshot, another format, another log) folds the whole log, as before.
//!
//! The image is canonical (every set and map in sorted order, lists in log order), so a
//! snapshot can be checked byte for byte against a fresh fold of the log up to its position
//! ([`verify_catalog_snapshot`]). Names are kept only as the log holds them: a sealed name
//! stays sealed and is opened with the key table on load, so erasing a player (deleting the
//! key) leaves nothing readable in a snapshot either.

use std::borrow::Cow;

use league_store::{EventStore, Snapshot};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{Catalog, LeagueSummary, SeriesSummary, TournamentSummary};
use crate::error::ProjectionError;
use crate::players::{PlayerRegistry, RegistryImage};

/// The snapshot kind of the catalog.
pub const CATALOG_SNAPSHOT: &str = "catalog";
/// The encoding of this code's catalog images: bump it whenever [`CatalogImage`] or what it
/// holds changes shape, so older snapshots are ignored rather than misread.
/// Format 2: game tags instead of game ids, joined leagues by index (a 10M-event log's
/// image was 253 MB in format 1, mostly game ids). Field names are kept (MessagePack maps):
/// settings leave out fields at their defaults, which a positional encoding cannot.
/// Format 3: the players' signed-in sessions and unused sign-in links.
/// Format 4: each player's passkeys (sealed).
/// Format 5: the players' linked identities (sealed).
/// Format 6: the series (`docs/series.md`).
pub const CATALOG_SNAPSHOT_FORMAT: u32 = 6;

/// The catalog's state, canonically ordered.
#[derive(Serialize, Deserialize)]
struct CatalogImage<'a> {
    position: u64,
    players: RegistryImage,
    leagues: Cow<'a, [LeagueSummary]>,
    /// The tag of every game ([`GameIndex`](super::GameIndex)), league by league (in the
    /// order of `leagues`, each league's `games` of them), sorted within a league; four
    /// little-endian bytes each, as one byte string (decoded in one copy, not per number).
    #[serde(with = "serde_bytes")]
    game_tags: Vec<u8>,
    /// Player → the leagues they ever joined (indices in `leagues`), in subscription order;
    /// sorted by player.
    joined: Vec<(Uuid, Cow<'a, [u32]>)>,
    /// (league, player) pairs where the player left, sorted.
    departed: Vec<(Uuid, Uuid)>,
    tournaments: Cow<'a, [TournamentSummary]>,
    /// Every series, in creation order.
    series: Cow<'a, [SeriesSummary]>,
}

/// Why a stored snapshot was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotRejected {
    #[error("its body does not hash to the SHA-256 stored with it")]
    Corrupt,
    #[error("it is in format {found}; this build reads format {CATALOG_SNAPSHOT_FORMAT}")]
    Format { found: u32 },
    #[error(
        "it is in ratings format {found}; this build reads ratings format {}",
        crate::ratings_snapshot::RATINGS_SNAPSHOT_FORMAT
    )]
    RatingsFormat { found: u32 },
    #[error("it was taken at position {position}, past the log's head {head}")]
    PastHead { position: u64, head: u64 },
    #[error("the log's event at position {position} is not the one it was taken at")]
    OtherLog { position: u64 },
    #[error("its body does not decode: {0}")]
    Undecodable(String),
}

impl Catalog {
    /// The catalog's canonical encoding (what a snapshot stores).
    pub fn snapshot_body(&self) -> Vec<u8> {
        // (league, tag) pairs sorted: league by league, tags ascending within one.
        let mut games: Vec<u64> = self
            .games
            .entries()
            .map(|(tag, league)| (u64::from(league) << 32) | u64::from(tag))
            .collect();
        games.sort_unstable();
        let game_tags = games.into_iter().flat_map(|pair| (pair as u32).to_le_bytes()).collect();
        let mut joined: Vec<(Uuid, Cow<'_, [u32]>)> = self
            .joined
            .iter()
            .map(|(player, leagues)| (*player, Cow::from(&leagues[..])))
            .collect();
        joined.sort_unstable_by_key(|(player, _)| *player);
        let mut departed: Vec<(Uuid, Uuid)> = self.departed.iter().copied().collect();
        departed.sort_unstable();
        let image = CatalogImage {
            position: self.position,
            players: self.players.image(),
            leagues: Cow::from(&self.leagues[..]),
            game_tags,
            joined,
            departed,
            tournaments: Cow::from(&self.tournaments[..]),
            series: Cow::from(&self.series[..]),
        };
        rmp_serde::to_vec_named(&image).expect("a catalog image always encodes")
    }

    /// The catalog a [`Catalog::snapshot_body`] was taken of; sealed names are unopened.
    pub fn from_snapshot_body(body: &[u8]) -> Result<Catalog, SnapshotRejected> {
        let image: CatalogImage<'static> = rmp_serde::from_slice(body)
            .map_err(|error| SnapshotRejected::Undecodable(error.to_string()))?;
        let leagues = image.leagues.into_owned();
        let games: usize = leagues.iter().map(|league| league.games as usize).sum();
        if image.game_tags.len() != games * 4 {
            return Err(SnapshotRejected::Undecodable(format!(
                "{games} games in its leagues but {} game tags",
                image.game_tags.len() / 4
            )));
        }
        if let Some((player, _)) = image
            .joined
            .iter()
            .find(|(_, joined)| joined.iter().any(|index| *index as usize >= leagues.len()))
        {
            return Err(SnapshotRejected::Undecodable(format!(
                "player {player} joined a league past the {} it holds",
                leagues.len()
            )));
        }
        let mut catalog = Catalog {
            position: image.position,
            players: PlayerRegistry::from_image(image.players),
            ..Catalog::default()
        };
        catalog.games.reserve(games);
        let mut tags = image
            .game_tags
            .chunks_exact(4)
            .map(|bytes| u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        for (index, league) in leagues.iter().enumerate() {
            for tag in tags.by_ref().take(league.games as usize) {
                catalog.games.insert(tag, index as u32);
            }
        }
        catalog.league_index.reserve(leagues.len());
        for (index, league) in leagues.iter().enumerate() {
            catalog.league_index.insert(league.id, index as u32);
            catalog.league_order.push(league.id);
        }
        catalog.leagues = leagues;
        catalog.joined =
            image.joined.into_iter().map(|(player, list)| (player, list.into_owned())).collect();
        catalog.departed = image.departed.into_iter().collect();
        catalog.tournaments = image.tournaments.into_owned();
        let mut entries = Vec::new();
        for (index, tournament) in catalog.tournaments.iter().enumerate() {
            catalog.tournament_index.insert(tournament.id, index as u32);
            entries.extend(tournament.entrants.iter().map(|player| (*player, index as u32)));
        }
        for (player, index) in entries {
            catalog.note_entry(player, index);
        }
        catalog.series = image.series.into_owned();
        for (index, series) in catalog.series.iter().enumerate() {
            catalog.series_index.insert(series.id, index as u32);
        }
        Ok(catalog)
    }

    /// A snapshot of the catalog as it is (ready to save: its chain hash is the log's).
    pub async fn snapshot(&self, store: &EventStore) -> Result<Snapshot, ProjectionError> {
        let body = self.snapshot_body();
        snapshot_of(store, self.position, body).await
    }
}

/// Wraps an encoded catalog taken at `position` as a snapshot of this log.
pub async fn snapshot_of(
    store: &EventStore,
    position: u64,
    body: Vec<u8>,
) -> Result<Snapshot, ProjectionError> {
    snapshot_at(store, CATALOG_SNAPSHOT, CATALOG_SNAPSHOT_FORMAT, position, body).await
}

/// Wraps `body`, a `kind` snapshot in `format` taken at `position`, with the chain hash
/// that ties it to this log.
pub(crate) async fn snapshot_at(
    store: &EventStore,
    kind: &str,
    format: u32,
    position: u64,
    body: Vec<u8>,
) -> Result<Snapshot, ProjectionError> {
    let chain_hash = store.hash_at(position).await?.ok_or_else(|| {
        ProjectionError::inconsistent(
            position,
            format!("no event at the {kind} snapshot's position"),
        )
    })?;
    Ok(Snapshot::new(kind, format, position, chain_hash, body))
}

/// The stored catalog snapshot decoded, if it is usable for a log whose head is `head`
/// (`Ok(None)`: there is none; `Err`: why it is not used).
pub async fn usable_catalog_snapshot(
    store: &EventStore,
    head: u64,
) -> Result<Option<Result<Catalog, SnapshotRejected>>, ProjectionError> {
    let started = std::time::Instant::now();
    let Some(snapshot) = store.snapshot(CATALOG_SNAPSHOT).await? else {
        return Ok(None);
    };
    let read = started.elapsed();
    let checked = check(store, &snapshot, head).await?;
    let check_time = started.elapsed() - read;
    let catalog = checked.and_then(|()| Catalog::from_snapshot_body(&snapshot.body));
    tracing::info!(
        bytes = snapshot.body.len(),
        read_ms = read.as_millis(),
        check_ms = check_time.as_millis(),
        decode_ms = (started.elapsed() - read - check_time).as_millis(),
        "catalog snapshot read"
    );
    Ok(Some(catalog))
}

/// Everything but the body's content: intact, this format, this log.
async fn check(
    store: &EventStore,
    snapshot: &Snapshot,
    head: u64,
) -> Result<Result<(), SnapshotRejected>, ProjectionError> {
    check_snapshot(store, snapshot, head, CATALOG_SNAPSHOT_FORMAT, |found| {
        SnapshotRejected::Format { found }
    })
    .await
}

/// Whether a snapshot of any kind may be used for a log whose head is `head`: intact, in
/// the `format` its reader knows (else `wrong_format` of the one found), and taken from
/// this log.
pub(crate) async fn check_snapshot(
    store: &EventStore,
    snapshot: &Snapshot,
    head: u64,
    format: u32,
    wrong_format: impl FnOnce(u32) -> SnapshotRejected,
) -> Result<Result<(), SnapshotRejected>, ProjectionError> {
    if !snapshot.is_intact() {
        return Ok(Err(SnapshotRejected::Corrupt));
    }
    if snapshot.format != format {
        return Ok(Err(wrong_format(snapshot.format)));
    }
    if snapshot.position > head {
        return Ok(Err(SnapshotRejected::PastHead { position: snapshot.position, head }));
    }
    if store.hash_at(snapshot.position).await?.as_deref() != Some(snapshot.chain_hash.as_str()) {
        return Ok(Err(SnapshotRejected::OtherLog { position: snapshot.position }));
    }
    Ok(Ok(()))
}

/// What checking a stored catalog snapshot against the log found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotCheck {
    /// No catalog snapshot is stored.
    Missing,
    /// It would not be used, and why.
    Rejected(SnapshotRejected),
    /// It is byte for byte the catalog a fresh fold of the log up to its position gives.
    Verified { position: u64, body_bytes: usize },
    /// It names this log, but differs from a fresh fold: a start would serve a wrong catalog
    /// until the snapshot is replaced (`league snapshot take`).
    Differs { position: u64 },
}

/// Checks the stored catalog snapshot: intact, this format, this log, and equal to the
/// catalog folded from the log (without any snapshot) up to its position.
pub async fn verify_catalog_snapshot(store: &EventStore) -> Result<SnapshotCheck, ProjectionError> {
    let Some(snapshot) = store.snapshot(CATALOG_SNAPSHOT).await? else {
        return Ok(SnapshotCheck::Missing);
    };
    let head = store.head_position().await?;
    if let Err(rejected) = check(store, &snapshot, head).await? {
        return Ok(SnapshotCheck::Rejected(rejected));
    }
    let (folded, _) = super::fold_catalog(store, Catalog::new(), snapshot.position).await?;
    Ok(if folded.snapshot_body() == snapshot.body {
        SnapshotCheck::Verified { position: snapshot.position, body_bytes: snapshot.body.len() }
    } else {
        SnapshotCheck::Differs { position: snapshot.position }
    })
}
