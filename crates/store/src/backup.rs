//! Backup, restore and moving a log between databases: the log as JSON lines.
//!
//! [`EventStore::export`] streams the whole log, every column the hash chain covers, in
//! position order, then the idempotency keys; [`EventStore::import`] writes such a file into
//! an empty database, verifying the chain as it goes, in ONE transaction: a file that breaks
//! anywhere, or a process killed mid-way, leaves the target as empty as it was.
//!
//! # Format (`league-log`, version 1)
//! ```text
//! {"format":"league-log","version":1,"events":N,"head_hash":"…","idempotency_keys":M}
//! {"kind":"event","position":1,"stream_id":"…","stream_version":1,"event_id":"…",
//!  "event_type":"…","schema_version":1,"payload":{…},"metadata":{…},
//!  "recorded_at":"2026-11-21T23:48:45.123456Z","prev_hash":"000…","hash":"…"}   × N
//! {"kind":"idempotency_key","idempotency_key":"…","stream_id":"…","first_position":1,
//!  "last_position":2,"stream_version":2}                                        × M
//! {"kind":"person_key","person_id":"…","key":"<base64 of 32 bytes>"}            × K
//! ```
//! The header's `"person_keys":K` is written only when the file holds person keys (a file
//! without any is exactly what earlier builds wrote). Person keys are what sealed personal
//! data opens with (`docs/personal-data.md`): a file with them is as sensitive as the
//! database; `--without-keys` leaves them out, and a log restored without them shows every
//! person with a sealed name as their pseudonym. Every table is read at one snapshot, so a
//! file holds a key exactly for each person whose registration it holds and who was not
//! erased by its head; an import refuses a key whose person has no registration in the file
//! (such a key could never be erased).
//! One object per line. Payload and metadata are embedded as the exact canonical JSON text
//! the log stores and hashes, `recorded_at` as the chain hashes it, so a file re-imported
//! and re-exported on either database is byte for byte the same. The header's counts and
//! head hash let an import tell a truncated file from a short log. Each line names its
//! `kind`, so later kinds can follow the events without changing these lines.
//!
//! # What an import refuses, naming the first bad line and position
//! A header that is not this format; a line that is not JSON of its kind; a position out of
//! order or missing; a `prev_hash` that is not the previous hash; a hash that is not the
//! event's; a stream id, event type, stream version, payload or metadata the store would
//! never have written (the hash alone cannot tell: a forger can recompute it); an
//! idempotency key that does not match the append whose metadata names it; a person key
//! whose person has no registration in the file; fewer or more lines than the header
//! announces; and a target database that is not empty.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::BufRead;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use chrono::{DateTime, Utc};
use futures::StreamExt;
use futures::stream::BoxStream;
use sea_orm::{
    AccessMode, ColumnTrait, DatabaseTransaction, DbBackend, DbErr, EntityTrait, IsolationLevel,
    PaginatorTrait, QueryFilter, QueryOrder, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use uuid::Uuid;

use crate::convert::{from_db, to_db};
use crate::entity::{event, idempotency_key, person_key};
use crate::hash::{ChainFields, canonical_json, format_time};
use crate::types::{MAX_EVENT_TYPE_LEN, PERSON_KEY_BYTES};
use crate::{ChainBreak, ChainProblem, EventStore, GENESIS_HASH, StoreError, StreamId};

/// The `format` of a log file's header.
pub const LOG_FORMAT: &str = "league-log";
/// The version of the format this build writes and reads.
pub const LOG_FORMAT_VERSION: u32 = 1;
/// Rows per chunk between the file reader and the database: large enough that a chunk is one
/// cheap round trip, small enough to keep memory flat.
const CHUNK_ROWS: usize = 5_000;
/// Chunks read ahead of the database.
const CHUNKS_AHEAD: usize = 4;

/// The first line of a log file: what follows, so a truncated file is told from a short log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogHeader {
    pub format: String,
    pub version: u32,
    /// Event lines that follow (positions 1 to `events`).
    pub events: u64,
    /// The last event's hash (the genesis hash for an empty log).
    pub head_hash: String,
    /// Idempotency-key lines after the events.
    pub idempotency_keys: u64,
    /// Person-key lines after the idempotency keys.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub person_keys: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

/// The person whose key an event (its stream id and event type) is stored with, if any: the
/// domain's rule (`league_domain::key_owner`), handed in because the store knows no domain.
pub type KeyOwner = fn(stream_id: &str, event_type: &str) -> Option<Uuid>;

/// An export: its header (for progress) and every line of the file, the header first, each
/// without its newline.
pub struct Export {
    pub header: LogHeader,
    pub lines: BoxStream<'static, Result<String, StoreError>>,
}

impl fmt::Debug for Export {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Export").field("header", &self.header).finish_non_exhaustive()
    }
}

/// What an import wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportSummary {
    pub events: u64,
    pub idempotency_keys: u64,
    pub person_keys: u64,
}

/// Why an import wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file is not a valid log: the first bad line, and the position it breaks at when
    /// the problem is an event's.
    #[error("{0}")]
    BadFile(BadLine),
    /// The target already holds a log (imports only go into an empty database).
    #[error(
        "the target database is not empty: import only into a new database (its log is untouched)"
    )]
    NotEmpty,
    /// A person key whose person has no registration in the file (no event the import's
    /// `key_owner` names them the owner of): imported, that key could never be erased.
    #[error(
        "line {line}: person {person}'s key has no registration of that person in the file \
         (a key without its person could never be erased)"
    )]
    KeyWithoutPerson { line: u64, person: Uuid },
    /// The file could not be read.
    #[error("cannot read the file: {0}")]
    Read(std::io::Error),
    /// The database failed (nothing was committed).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The first bad line of a log file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// 1-based line number.
    pub line: u64,
    /// The log position the problem is at (for a chain break, the break's position).
    pub position: Option<u64>,
    pub problem: String,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(position) => {
                write!(f, "line {}: position {position}: {}", self.line, self.problem)
            }
            None => write!(f, "line {}: {}", self.line, self.problem),
        }
    }
}

/// The `kind` of a line after the header.
#[derive(Deserialize)]
struct LineKind<'a> {
    #[serde(borrow)]
    kind: &'a str,
}

/// An event line, borrowed from the line's text.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventLine<'a> {
    kind: &'a str,
    position: u64,
    stream_id: String,
    stream_version: u64,
    event_id: Uuid,
    event_type: String,
    schema_version: i32,
    #[serde(borrow)]
    payload: &'a RawValue,
    #[serde(borrow)]
    metadata: &'a RawValue,
    recorded_at: String,
    prev_hash: String,
    hash: String,
}

/// An idempotency-key line: the outcome of an append that carried a key.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyLine<'a> {
    kind: &'a str,
    idempotency_key: String,
    stream_id: String,
    first_position: u64,
    last_position: u64,
    stream_version: u64,
}

/// A person-key line: the key a person's sealed data opens with.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonKeyLine<'a> {
    kind: &'a str,
    person_id: Uuid,
    /// Standard base64 of the key's bytes.
    key: String,
}

const EVENT_KIND: &str = "event";
const KEY_KIND: &str = "idempotency_key";
const PERSON_KEY_KIND: &str = "person_key";

impl EventStore {
    /// The whole log as a `league-log` file (see the module docs): the log as it is when
    /// this is called (events appended meanwhile are not included), streamed in position
    /// order, then the idempotency keys of those events, then (if `person_keys`) every
    /// person's key. Every table is read in ONE read transaction (PostgreSQL: `REPEATABLE
    /// READ`, one snapshot; SQLite: one transaction, whose first read fixes its snapshot), so
    /// the file holds exactly the keys of the persons whose registration it holds, whatever
    /// commits meanwhile.
    pub async fn export(&self, person_keys: bool) -> Result<Export, StoreError> {
        let txn = match self.backend() {
            DbBackend::Postgres => {
                let repeatable = Some(IsolationLevel::RepeatableRead);
                self.connection().begin_with_config(repeatable, Some(AccessMode::ReadOnly)).await?
            }
            _ => self.connection().begin().await?,
        };
        let head = event::Entity::find().order_by_desc(event::Column::Position).one(&txn).await?;
        let (last, head_hash) =
            head.map_or((0, GENESIS_HASH.to_owned()), |row| (from_db(row.position), row.hash));
        let keys_within = idempotency_key::Column::LastPosition.lte(to_db(last));
        let key_count = idempotency_key::Entity::find().filter(keys_within.clone()).count(&txn);
        let key_count = key_count.await?;
        let persons = if person_keys { snapshot_person_keys(&txn).await? } else { Vec::new() };
        let header = LogHeader {
            format: LOG_FORMAT.to_owned(),
            version: LOG_FORMAT_VERSION,
            events: last,
            head_hash,
            idempotency_keys: key_count,
            person_keys: persons.len() as u64,
        };
        let header_line = to_line(&header)?;
        let lines = async_stream::try_stream! {
            yield header_line;
            let mut events = event::Entity::find()
                .filter(event::Column::Position.lte(to_db(last)))
                .order_by_asc(event::Column::Position)
                .stream(&txn)
                .await?;
            while let Some(row) = events.next().await {
                yield event_line(&row?)?;
            }
            drop(events);
            let mut keys = idempotency_key::Entity::find()
                .filter(keys_within)
                .order_by_asc(idempotency_key::Column::FirstPosition)
                .order_by_asc(idempotency_key::Column::IdempotencyKey)
                .stream(&txn)
                .await?;
            while let Some(key) = keys.next().await {
                let key = key?;
                yield to_line(&KeyLine {
                    kind: KEY_KIND,
                    idempotency_key: key.idempotency_key,
                    stream_id: key.stream_id,
                    first_position: from_db(key.first_position),
                    last_position: from_db(key.last_position),
                    stream_version: from_db(key.stream_version),
                })?;
            }
            drop(keys);
            for (person_id, key) in persons {
                yield to_line(&PersonKeyLine {
                    kind: PERSON_KEY_KIND,
                    person_id,
                    key: BASE64.encode(key),
                })?;
            }
            // Read only: ending the transaction releases its snapshot.
            txn.commit().await?;
        };
        Ok(Export { header, lines: Box::pin(lines) })
    }

    /// Writes a `league-log` file read from `file` into this store's database, which must
    /// hold no log yet, verifying the whole file as it goes (see the module docs). Everything
    /// goes into one transaction: on any error, or if the process dies, nothing is written.
    /// `progress` is told the header, then the events written so far after each chunk.
    /// A person key is accepted only after an event `key_owner` names its person the owner
    /// of (their registration).
    pub async fn import(
        &self,
        file: impl BufRead + Send + 'static,
        key_owner: KeyOwner,
        mut progress: impl FnMut(&LogHeader, u64),
    ) -> Result<ImportSummary, ImportError> {
        let Some(mut restore) = self.inner.storage.begin_restore().await? else {
            return Err(ImportError::NotEmpty);
        };
        let (chunks, mut received) = tokio::sync::mpsc::channel(CHUNKS_AHEAD);
        // Reading, parsing and hashing run on a blocking thread, ahead of the database.
        let reader = tokio::task::spawn_blocking(move || read_file(file, key_owner, &chunks));
        let mut summary = ImportSummary { events: 0, idempotency_keys: 0, person_keys: 0 };
        while let Some(chunk) = received.recv().await {
            let Chunk { header, events, keys, person_keys } = chunk?;
            summary.events += events.len() as u64;
            summary.idempotency_keys += keys.len() as u64;
            summary.person_keys += person_keys.len() as u64;
            restore.insert(events, keys, person_keys).await?;
            progress(&header, summary.events);
        }
        // The reader ended: with an error (sent above) or after checking the whole file.
        reader
            .await
            .map_err(|error| StoreError::Database(sea_orm::DbErr::Custom(error.to_string())))?;
        restore.commit().await?;
        self.announce(summary.events);
        Ok(summary)
    }
}

/// Every person's key as `txn` sees it, by person id.
async fn snapshot_person_keys(
    txn: &DatabaseTransaction,
) -> Result<Vec<(Uuid, [u8; PERSON_KEY_BYTES])>, StoreError> {
    let rows =
        person_key::Entity::find().order_by_asc(person_key::Column::PersonId).all(txn).await?;
    let mut keys = Vec::with_capacity(rows.len());
    for row in rows {
        let person = Uuid::parse_str(&row.person_id).map_err(|error| {
            StoreError::Database(DbErr::Custom(format!("person key {:?}: {error}", row.person_id)))
        })?;
        let key = <[u8; PERSON_KEY_BYTES]>::try_from(row.key).map_err(|_| {
            StoreError::Database(DbErr::Custom(format!("person key {person}: not 32 bytes")))
        })?;
        keys.push((person, key));
    }
    keys.sort_unstable_by_key(|(person, _)| *person);
    Ok(keys)
}

/// One chunk of checked rows on their way to the database.
struct Chunk {
    header: LogHeader,
    events: Vec<event::Model>,
    keys: Vec<idempotency_key::Model>,
    person_keys: Vec<(Uuid, [u8; PERSON_KEY_BYTES])>,
}

/// Reads and checks the whole file, sending chunks of rows; the last message is an error,
/// or a chunk sent only after the file was found complete, so a file that breaks at its end
/// commits nothing.
fn read_file(
    mut file: impl BufRead,
    key_owner: KeyOwner,
    chunks: &tokio::sync::mpsc::Sender<Result<Chunk, ImportError>>,
) {
    let mut check = match read_header(&mut file) {
        Ok(header) => LogCheck::new(header, key_owner),
        Err(error) => {
            chunks.blocking_send(Err(error)).ok();
            return;
        }
    };
    let mut text = String::new();
    let mut pending: Option<Chunk> = None;
    loop {
        text.clear();
        let outcome = match file.read_line(&mut text) {
            Ok(0) => check.finish().map(|()| None),
            Ok(_) => check.line(text.strip_suffix('\n').unwrap_or(&text)).map(Some),
            Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
                Err(check.bad(None, "not UTF-8 text".to_owned()))
            }
            Err(error) => Err(ImportError::Read(error)),
        };
        match outcome {
            Ok(Some(())) => {
                if check.buffered() >= CHUNK_ROWS {
                    // The previous chunk goes now: the newest is held back, so the last one is
                    // sent only after the end of the file was checked.
                    if let Some(ready) = pending.replace(check.take())
                        && chunks.blocking_send(Ok(ready)).is_err()
                    {
                        return;
                    }
                }
            }
            Ok(None) => {
                for ready in pending.take().into_iter().chain([check.take()]) {
                    if chunks.blocking_send(Ok(ready)).is_err() {
                        return;
                    }
                }
                return;
            }
            Err(error) => {
                chunks.blocking_send(Err(error)).ok();
                return;
            }
        }
    }
}

/// The first line, which must be a `league-log` header this build reads.
fn read_header(file: &mut impl BufRead) -> Result<LogHeader, ImportError> {
    let bad = |problem: String| ImportError::BadFile(BadLine { line: 1, position: None, problem });
    let mut text = String::new();
    match file.read_line(&mut text) {
        Ok(0) => return Err(bad("the file is empty: no league-log header".to_owned())),
        Ok(_) => {}
        Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
            return Err(bad("not UTF-8 text".to_owned()));
        }
        Err(error) => return Err(ImportError::Read(error)),
    }
    let header: LogHeader = serde_json::from_str(text.trim_end_matches('\n'))
        .map_err(|error| bad(format!("not a league-log header: {error}")))?;
    if header.format != LOG_FORMAT {
        return Err(bad(format!("format {:?} is not {LOG_FORMAT:?}", header.format)));
    }
    if header.version != LOG_FORMAT_VERSION {
        return Err(bad(format!(
            "league-log version {} is not supported (this build reads version {LOG_FORMAT_VERSION})",
            header.version
        )));
    }
    Ok(header)
}

/// The check of one file, line by line: the chain, the rows' validity, the keys, the counts.
struct LogCheck {
    header: LogHeader,
    /// The line number of the line being checked.
    line: u64,
    /// The last position and hash checked.
    position: u64,
    prev_hash: String,
    recorded_at: Option<DateTime<Utc>>,
    /// Each stream's last version so far.
    versions: HashMap<String, u64>,
    /// The appends whose metadata named an idempotency key: key → (stream, first, last,
    /// version), for the key lines to match.
    keyed: HashMap<String, KeyOutcome>,
    keys_seen: u64,
    /// Every person whose key was seen (a person has one key).
    persons_seen: HashSet<Uuid>,
    /// Names the person whose key an event is stored with.
    key_owner: KeyOwner,
    /// Every person whose registration was seen: the only keys accepted.
    key_owners: HashSet<Uuid>,
    events: Vec<event::Model>,
    keys: Vec<idempotency_key::Model>,
    person_keys: Vec<(Uuid, [u8; PERSON_KEY_BYTES])>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct KeyOutcome {
    stream_id: String,
    first_position: u64,
    last_position: u64,
    stream_version: u64,
}

impl LogCheck {
    fn new(header: LogHeader, key_owner: KeyOwner) -> LogCheck {
        LogCheck {
            header,
            line: 1,
            position: 0,
            prev_hash: GENESIS_HASH.to_owned(),
            recorded_at: None,
            versions: HashMap::new(),
            keyed: HashMap::new(),
            keys_seen: 0,
            persons_seen: HashSet::new(),
            key_owner,
            key_owners: HashSet::new(),
            events: Vec::new(),
            keys: Vec::new(),
            person_keys: Vec::new(),
        }
    }

    fn bad(&self, position: Option<u64>, problem: String) -> ImportError {
        ImportError::BadFile(BadLine { line: self.line, position, problem })
    }

    fn buffered(&self) -> usize {
        self.events.len() + self.keys.len() + self.person_keys.len()
    }

    fn take(&mut self) -> Chunk {
        Chunk {
            header: self.header.clone(),
            events: std::mem::take(&mut self.events),
            keys: std::mem::take(&mut self.keys),
            person_keys: std::mem::take(&mut self.person_keys),
        }
    }

    /// Checks one line after the header and buffers its row.
    fn line(&mut self, text: &str) -> Result<(), ImportError> {
        self.line += 1;
        let next = self.position + 1;
        let in_events = self.position < self.header.events
            && self.keys_seen == 0
            && self.persons_seen.is_empty();
        let at = in_events.then_some(next);
        let kind = serde_json::from_str::<LineKind<'_>>(text)
            .map_err(|error| self.bad(at, format!("not a league-log line: {error}")))?
            .kind;
        match kind {
            EVENT_KIND if in_events => self.event(text),
            EVENT_KIND => Err(self.bad(
                None,
                format!(
                    "an event after the {} events the header announces (position {} at most)",
                    self.header.events, self.header.events
                ),
            )),
            KEY_KIND if in_events => Err(self.bad(
                at,
                format!(
                    "missing: the events end at position {} but the header announces {}",
                    self.position, self.header.events
                ),
            )),
            KEY_KIND if self.persons_seen.is_empty() => self.key(text),
            KEY_KIND => Err(self.bad(None, "an idempotency key after the person keys".to_owned())),
            PERSON_KEY_KIND if in_events => Err(self.bad(
                at,
                format!(
                    "missing: the events end at position {} but the header announces {}",
                    self.position, self.header.events
                ),
            )),
            PERSON_KEY_KIND => self.person_key(text),
            other => Err(self.bad(at, format!("unknown line kind {other:?}"))),
        }
    }

    fn event(&mut self, text: &str) -> Result<(), ImportError> {
        let expected = self.position + 1;
        let line: EventLine<'_> = serde_json::from_str(text)
            .map_err(|error| self.bad(Some(expected), format!("not an event line: {error}")))?;
        let chain_break = |problem| ChainBreak { position: expected, problem };
        if line.position != expected {
            let problem = if line.position > expected {
                chain_break(ChainProblem::Gap { next_position: line.position }).to_string()
            } else {
                format!("position {expected}: out of order (found position {})", line.position)
            };
            return Err(self.bad_chain(problem));
        }
        if line.prev_hash != self.prev_hash {
            let problem = ChainProblem::BrokenLink {
                prev_hash: line.prev_hash.clone(),
                expected: self.prev_hash.clone(),
            };
            return Err(self.bad_chain(chain_break(problem).to_string()));
        }
        let invalid = |problem: String| self.bad(Some(expected), problem);
        let recorded_at = DateTime::parse_from_rfc3339(&line.recorded_at)
            .map(|time| time.with_timezone(&Utc))
            .ok()
            .filter(|time| format_time(*time) == line.recorded_at)
            .ok_or_else(|| {
                invalid(format!(
                    "recorded_at {:?} is not a UTC time with six fractional digits",
                    line.recorded_at
                ))
            })?;
        let computed = ChainFields {
            position: line.position,
            stream_id: &line.stream_id,
            stream_version: line.stream_version,
            event_id: line.event_id,
            event_type: &line.event_type,
            schema_version: line.schema_version,
            payload: line.payload.get(),
            metadata: line.metadata.get(),
            recorded_at,
            prev_hash: &line.prev_hash,
        }
        .hash_at(&line.recorded_at);
        if computed != line.hash {
            let problem = ChainProblem::HashMismatch { stored: line.hash.clone(), computed };
            return Err(self.bad_chain(chain_break(problem).to_string()));
        }
        // The chain holds; what follows catches rows the store would never have written.
        StreamId::new(line.stream_id.as_str()).map_err(|error| invalid(error.to_string()))?;
        let type_length = line.event_type.chars().count();
        if type_length == 0 || type_length > MAX_EVENT_TYPE_LEN {
            return Err(invalid(format!(
                "event type must have 1 to {MAX_EVENT_TYPE_LEN} characters"
            )));
        }
        if self.recorded_at.is_some_and(|previous| recorded_at < previous) {
            return Err(invalid("recorded_at is earlier than the previous event's".to_owned()));
        }
        let version = self.versions.get(&line.stream_id).copied().unwrap_or(0);
        if line.stream_version != version + 1 {
            return Err(invalid(format!(
                "stream {} goes from version {version} to {}",
                line.stream_id, line.stream_version
            )));
        }
        canonical(line.payload).map_err(|problem| invalid(format!("payload {problem}")))?;
        let metadata =
            canonical(line.metadata).map_err(|problem| invalid(format!("metadata {problem}")))?;
        if let Some(key) = metadata.get("idempotency_key").and_then(serde_json::Value::as_str) {
            self.keyed
                .entry(key.to_owned())
                .and_modify(|outcome| {
                    outcome.last_position = line.position;
                    outcome.stream_version = line.stream_version;
                })
                .or_insert_with(|| KeyOutcome {
                    stream_id: line.stream_id.clone(),
                    first_position: line.position,
                    last_position: line.position,
                    stream_version: line.stream_version,
                });
        }

        if let Some(person) = (self.key_owner)(&line.stream_id, &line.event_type) {
            self.key_owners.insert(person);
        }
        self.versions.insert(line.stream_id.clone(), line.stream_version);
        self.position = line.position;
        self.prev_hash.clone_from(&line.hash);
        self.recorded_at = Some(recorded_at);
        self.events.push(event::Model {
            position: to_db(line.position),
            stream_id: line.stream_id,
            stream_version: to_db(line.stream_version),
            event_id: line.event_id,
            event_type: line.event_type,
            schema_version: line.schema_version,
            payload: line.payload.get().to_owned(),
            metadata: line.metadata.get().to_owned(),
            recorded_at,
            prev_hash: line.prev_hash,
            hash: line.hash,
        });
        Ok(())
    }

    /// A chain break: its text already names the position.
    fn bad_chain(&self, problem: String) -> ImportError {
        ImportError::BadFile(BadLine { line: self.line, position: None, problem })
    }

    fn key(&mut self, text: &str) -> Result<(), ImportError> {
        let line: KeyLine<'_> = serde_json::from_str(text)
            .map_err(|error| self.bad(None, format!("not an idempotency-key line: {error}")))?;
        self.keys_seen += 1;
        if self.keys_seen > self.header.idempotency_keys {
            return Err(self.bad(
                None,
                format!(
                    "more idempotency keys than the {} the header announces",
                    self.header.idempotency_keys
                ),
            ));
        }
        let outcome = KeyOutcome {
            stream_id: line.stream_id,
            first_position: line.first_position,
            last_position: line.last_position,
            stream_version: line.stream_version,
        };
        if self.keyed.get(&line.idempotency_key) != Some(&outcome) {
            return Err(self.bad(
                Some(outcome.first_position),
                format!(
                    "idempotency key {:?} does not match the append whose metadata names it",
                    line.idempotency_key
                ),
            ));
        }
        self.keys.push(idempotency_key::Model {
            idempotency_key: line.idempotency_key,
            stream_id: outcome.stream_id,
            first_position: to_db(outcome.first_position),
            last_position: to_db(outcome.last_position),
            stream_version: to_db(outcome.stream_version),
        });
        Ok(())
    }

    fn person_key(&mut self, text: &str) -> Result<(), ImportError> {
        let line: PersonKeyLine<'_> = serde_json::from_str(text)
            .map_err(|error| self.bad(None, format!("not a person-key line: {error}")))?;
        if self.persons_seen.len() as u64 >= self.header.person_keys {
            return Err(self.bad(
                None,
                format!(
                    "more person keys than the {} the header announces",
                    self.header.person_keys
                ),
            ));
        }
        if !self.persons_seen.insert(line.person_id) {
            return Err(self.bad(None, format!("a second key for person {}", line.person_id)));
        }
        if !self.key_owners.contains(&line.person_id) {
            return Err(ImportError::KeyWithoutPerson { line: self.line, person: line.person_id });
        }
        let key = BASE64
            .decode(&line.key)
            .ok()
            .and_then(|bytes| <[u8; PERSON_KEY_BYTES]>::try_from(bytes).ok())
            .ok_or_else(|| {
                self.bad(
                    None,
                    format!(
                        "person {}'s key is not base64 of {PERSON_KEY_BYTES} bytes",
                        line.person_id
                    ),
                )
            })?;
        self.person_keys.push((line.person_id, key));
        Ok(())
    }

    /// At the end of the file: everything the header announced was there.
    fn finish(&self) -> Result<(), ImportError> {
        if self.position < self.header.events {
            return Err(self.bad(
                Some(self.position + 1),
                format!(
                    "missing: the file ends after position {} but the header announces {} events \
                     (a truncated file)",
                    self.position, self.header.events
                ),
            ));
        }
        if self.prev_hash != self.header.head_hash {
            return Err(self.bad(
                Some(self.position),
                format!(
                    "the last event's hash {} is not the header's head hash {}",
                    self.prev_hash, self.header.head_hash
                ),
            ));
        }
        if self.keys_seen < self.header.idempotency_keys {
            return Err(self.bad(
                None,
                format!(
                    "the file ends after {} idempotency keys but the header announces {} \
                     (a truncated file)",
                    self.keys_seen, self.header.idempotency_keys
                ),
            ));
        }
        if (self.persons_seen.len() as u64) < self.header.person_keys {
            return Err(self.bad(
                None,
                format!(
                    "the file ends after {} person keys but the header announces {} \
                     (a truncated file)",
                    self.persons_seen.len(),
                    self.header.person_keys
                ),
            ));
        }
        Ok(())
    }
}

/// The parsed value of stored JSON text, which must be canonical (as the store writes it),
/// so the log reads back as it hashes.
fn canonical(text: &RawValue) -> Result<serde_json::Value, String> {
    let value: serde_json::Value =
        serde_json::from_str(text.get()).map_err(|error| format!("is not JSON: {error}"))?;
    match canonical_json(&value) {
        Ok(canonical) if canonical == text.get() => Ok(value),
        _ => Err("is not canonical JSON (sorted keys, no whitespace)".to_owned()),
    }
}

/// One event row as its line.
fn event_line(row: &event::Model) -> Result<String, StoreError> {
    let position = from_db(row.position);
    // Borrowed from the row, so the stored text is written as it is.
    let payload = raw_json(&row.payload, position, "payload")?;
    let metadata = raw_json(&row.metadata, position, "metadata")?;
    to_line(&EventLine {
        kind: EVENT_KIND,
        position,
        stream_id: row.stream_id.clone(),
        stream_version: from_db(row.stream_version),
        event_id: row.event_id,
        event_type: row.event_type.clone(),
        schema_version: row.schema_version,
        payload,
        metadata,
        recorded_at: format_time(row.recorded_at),
        prev_hash: row.prev_hash.clone(),
        hash: row.hash.clone(),
    })
}

/// Stored JSON text, lent as itself; text that is not JSON means the log was altered.
fn raw_json<'a>(text: &'a str, position: u64, what: &str) -> Result<&'a RawValue, StoreError> {
    serde_json::from_str(text)
        .map_err(|error| StoreError::Corrupt { position, reason: format!("{what}: {error}") })
}

fn to_line(value: &impl Serialize) -> Result<String, StoreError> {
    serde_json::to_string(value)
        .map_err(|error| StoreError::InvalidEvent { reason: error.to_string() })
}
