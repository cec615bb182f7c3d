//! The whole-log scan of a rebuild ([`EventStore::scan_log`](crate::EventStore::scan_log),
//! `league replay`): every row read once, in position order, on a connection of its own —
//! rusqlite on a blocking thread for SQLite (sqlx's row handling capped a scan at ≈ 300k
//! rows/s there), tokio-postgres for PostgreSQL, each engine's reader beside the rest of its
//! SQL (`sqlite.rs`, `postgres.rs`) — with the hash chain walked as the rows arrive
//! ([`Walk`], here), and handed to the fold in batches whose rows lend their event type and
//! payload as the stored text ([`RawEvent`]).
//!
//! The chain walk is [`EventStore::verify`](crate::EventStore::verify)'s (position, then
//! link, then hash; the first break ends the scan after the rows before it), so a rebuild
//! reads the log once instead of once to fold and once more to verify. Each batch owns one
//! text buffer for all its rows, so a row costs no allocation of its own.

use std::future::Future;

use chrono::{DateTime, Utc};
use sea_orm::DbErr;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::hash::{ChainFields, GENESIS_HASH, format_time};
use crate::row::RawEvent;
use crate::{ChainBreak, ChainProblem, StoreError, VerifyReport};

/// Rows per batch: large enough that handing a batch to the fold costs nothing per row,
/// small enough (≈ 300 KB of text) to keep both sides busy.
pub const SCAN_BATCH_ROWS: usize = 1024;
/// Batches the scan may run ahead of the fold.
const BATCHES_AHEAD: usize = 8;

/// The columns a scan reads, in the order the engines' readers take them (a macro, so the
/// engines' SQL can `concat!` it).
macro_rules! scan_columns {
    () => {
        "position, stream_id, stream_version, event_id, event_type, schema_version, payload, \
         metadata, recorded_at, prev_hash, hash"
    };
}
pub(crate) use scan_columns;

/// Consecutive rows of the log, as a scan hands them over.
#[derive(Debug, Default)]
pub struct LogBatch {
    /// Every row's event type then payload, back to back.
    text: String,
    rows: Vec<BatchRow>,
}

#[derive(Debug)]
struct BatchRow {
    position: u64,
    stream_version: u64,
    schema_version: i32,
    recorded_at: DateTime<Utc>,
    /// Where the event type ends and the payload begins in `text`; where the payload ends.
    type_end: usize,
    payload_end: usize,
}

impl LogBatch {
    fn with_capacity(rows: usize) -> LogBatch {
        LogBatch { text: String::with_capacity(rows * 320), rows: Vec::with_capacity(rows) }
    }

    fn push(&mut self, row: &Fields<'_>, recorded_at: DateTime<Utc>) {
        self.text.push_str(row.event_type);
        let type_end = self.text.len();
        self.text.push_str(row.payload);
        self.rows.push(BatchRow {
            position: row.position,
            stream_version: row.stream_version,
            schema_version: row.schema_version,
            recorded_at,
            type_end,
            payload_end: self.text.len(),
        });
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The rows, in position order, each lending its event type and payload.
    pub fn events(&self) -> impl ExactSizeIterator<Item = RawEvent<'_>> {
        let mut start = 0;
        self.rows.iter().map(move |row| {
            let event = RawEvent {
                position: row.position,
                stream_version: row.stream_version,
                event_type: &self.text[start..row.type_end],
                schema_version: row.schema_version,
                payload: &self.text[row.type_end..row.payload_end],
                recorded_at: row.recorded_at,
            };
            start = row.payload_end;
            event
        })
    }
}

/// A scan under way: its batches in log order, then how it ended.
#[derive(Debug)]
pub struct LogScan {
    batches: mpsc::Receiver<LogBatch>,
    reader: ScanReader,
}

/// How a scan ended (after its last batch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanEnd {
    /// Rows read and handed over.
    pub rows: u64,
    /// The chain walk over those rows, when one was asked for: every row intact, or the
    /// first break (the rows before it were handed over, the break's row was not).
    pub chain: Option<VerifyReport>,
}

/// The task reading a scan (an engine's reader), and how it ended.
pub(crate) type ScanReader = tokio::task::JoinHandle<Result<ScanEnd, StoreError>>;

impl LogScan {
    /// Starts a scan: `reader` starts the engine's reader, which fills the [`Walk`] it is
    /// given and sends its batches to the sender, at most [`BATCHES_AHEAD`] ahead of the fold.
    pub(crate) async fn start<R>(
        check_chain: bool,
        reader: impl FnOnce(Walk, mpsc::Sender<LogBatch>) -> R,
    ) -> Result<LogScan, StoreError>
    where
        R: Future<Output = Result<ScanReader, StoreError>>,
    {
        let (sender, batches) = mpsc::channel(BATCHES_AHEAD);
        let reader = reader(Walk::new(check_chain), sender).await?;
        Ok(LogScan { batches, reader })
    }

    /// The next batch, waiting for it on a blocking thread (the fold's); `None` once the
    /// scan has ended (see [`finish`](Self::finish)).
    pub fn blocking_next(&mut self) -> Option<LogBatch> {
        self.batches.blocking_recv()
    }

    /// The next batch; `None` once the scan has ended.
    pub async fn next(&mut self) -> Option<LogBatch> {
        self.batches.recv().await
    }

    /// How the scan ended. Called before the last batch was taken (a fold that stopped on
    /// an error), it stops the reader first.
    pub async fn finish(self) -> Result<ScanEnd, StoreError> {
        let LogScan { batches, reader } = self;
        drop(batches);
        match reader.await {
            Ok(end) => end,
            Err(error) => match error.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(error) => Err(StoreError::Database(DbErr::Custom(format!(
                    "the log scan was cancelled: {error}"
                )))),
            },
        }
    }
}

/// The stored fields of one row, borrowed from the driver's row.
pub(crate) struct Fields<'a> {
    pub(crate) position: u64,
    pub(crate) stream_id: &'a str,
    pub(crate) stream_version: u64,
    pub(crate) event_id: Uuid,
    pub(crate) event_type: &'a str,
    pub(crate) schema_version: i32,
    pub(crate) payload: &'a str,
    pub(crate) metadata: &'a str,
    pub(crate) prev_hash: &'a str,
    pub(crate) hash: &'a str,
}

/// The reader's side of a scan: the chain walk and the batch being filled.
pub(crate) struct Walk {
    check_chain: bool,
    rows: u64,
    /// The previous row's stored hash (the genesis hash before the first).
    previous: String,
    first_bad: Option<ChainBreak>,
    batch: LogBatch,
    /// The last commit time read, parsed and formatted: the rows of one commit share it.
    time: Option<(DateTime<Utc>, String)>,
    /// The stored text of `time` (SQLite stores times as text).
    time_text: String,
    /// The canonical bytes of the row being hashed, one buffer for the whole scan.
    preimage: Vec<u8>,
}

/// What the reader does after a row.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// Read on.
    Continue,
    /// Stop: the chain broke, or the fold stopped taking batches.
    Stop,
}

impl Walk {
    fn new(check_chain: bool) -> Walk {
        Walk {
            check_chain,
            rows: 0,
            previous: GENESIS_HASH.to_owned(),
            first_bad: None,
            batch: LogBatch::with_capacity(SCAN_BATCH_ROWS),
            time: None,
            time_text: String::new(),
            preimage: Vec::new(),
        }
    }

    /// The commit time stored as `text` (SQLite stores times as text, which `parse` reads),
    /// parsed once for the rows of one commit.
    pub(crate) fn time_from_text<E: std::fmt::Display>(
        &mut self,
        position: u64,
        text: &str,
        parse: impl FnOnce(&str) -> Result<DateTime<Utc>, E>,
    ) -> Result<DateTime<Utc>, StoreError> {
        if let Some((time, _)) = &self.time
            && self.time_text == text
        {
            return Ok(*time);
        }
        let time = parse(text).map_err(|error| StoreError::Corrupt {
            position,
            reason: format!("recorded_at {text:?}: {error}"),
        })?;
        self.time_text.clear();
        self.time_text.push_str(text);
        self.time = Some((time, format_time(time)));
        Ok(time)
    }

    /// Takes one row read (its commit time already parsed): checks its place in the chain,
    /// then adds it to the batch, sending full batches with `send` (which answers whether
    /// the fold still takes them).
    pub(crate) fn row(
        &mut self,
        row: &Fields<'_>,
        recorded_at: DateTime<Utc>,
        send: impl FnOnce(LogBatch) -> bool,
    ) -> Next {
        if self.check_chain {
            if let Some(problem) = self.problem(row, recorded_at) {
                self.first_bad = Some(ChainBreak { position: self.rows + 1, problem });
                return Next::Stop;
            }
            self.previous.clear();
            self.previous.push_str(row.hash);
        }
        self.rows += 1;
        self.batch.push(row, recorded_at);
        if self.batch.len() == SCAN_BATCH_ROWS {
            let full = std::mem::replace(&mut self.batch, LogBatch::with_capacity(SCAN_BATCH_ROWS));
            if !send(full) {
                return Next::Stop;
            }
        }
        Next::Continue
    }

    /// How the row fails the chain, if it does (position, link, hash: `verify`'s order).
    fn problem(&mut self, row: &Fields<'_>, recorded_at: DateTime<Utc>) -> Option<ChainProblem> {
        let expected = self.rows + 1;
        if row.position != expected {
            return Some(ChainProblem::Gap { next_position: row.position });
        }
        if row.prev_hash != self.previous {
            return Some(ChainProblem::BrokenLink {
                prev_hash: row.prev_hash.to_owned(),
                expected: self.previous.clone(),
            });
        }
        let formatted = match &self.time {
            Some((time, formatted)) if *time == recorded_at => formatted,
            _ => &self.time.insert((recorded_at, format_time(recorded_at))).1,
        };
        let fields = ChainFields {
            position: row.position,
            stream_id: row.stream_id,
            stream_version: row.stream_version,
            event_id: row.event_id,
            event_type: row.event_type,
            schema_version: row.schema_version,
            payload: row.payload,
            metadata: row.metadata,
            recorded_at,
            prev_hash: row.prev_hash,
        };
        let computed = fields.hex_into(formatted, &mut self.preimage);
        (computed != row.hash.as_bytes()).then(|| ChainProblem::HashMismatch {
            stored: row.hash.to_owned(),
            computed: String::from_utf8_lossy(&computed).into_owned(),
        })
    }

    /// Hands over the last, partial batch and says how the scan ended.
    pub(crate) fn end(mut self, send: impl FnOnce(LogBatch) -> bool) -> ScanEnd {
        if !self.batch.is_empty() {
            // A fold that stopped taking batches has an error of its own to report.
            send(std::mem::take(&mut self.batch));
        }
        ScanEnd {
            rows: self.rows,
            chain: self
                .check_chain
                .then_some(VerifyReport { events_verified: self.rows, first_bad: self.first_bad }),
        }
    }
}
