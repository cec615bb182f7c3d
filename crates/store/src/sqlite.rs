//! SQLite: the pool's settings, the store's write connection and every SQL statement the
//! store runs on SQLite.
//!
//! **Writes** go through one `rusqlite` connection of the store's own, for a file and for an
//! in-memory database alike. sqlx runs each statement on its connection's worker thread, so
//! a group committed through it (`BEGIN IMMEDIATE`, the reads, the inserts, `COMMIT`) is many
//! round trips between the async caller and that thread; here a group is one trip to a
//! blocking thread that runs the whole transaction: it reads the log's head, each stream's
//! version and each key's earlier outcome, [`decide`]s the group, and writes the rows ten to
//! a prepared multi-row `INSERT OR FAIL` (rows sharing a statement share its cursors and
//! seeks; `OR FAIL` spares the statement journal: a failing row leaves the statement's
//! earlier rows in place instead of SQLite keeping a journal to undo them, and the
//! transaction is rolled back on any error anyway). Both drivers link the same bundled
//! libsqlite3 (only one `libsqlite3-sys` can be linked), so an in-memory database is a named
//! shared-cache one that the pool and the writer open by name; a connection that finds a
//! table locked by the other waits for it (`sqlite3_unlock_notify`, which both drivers use).
//!
//! **The scan of a rebuild** ([`scan_reader`]) reads the whole log on a read-only rusqlite
//! connection of its own, on a blocking thread (sqlx's row handling capped a scan at
//! ≈ 300k rows/s); `scan.rs` walks the chain and fills the batches.
//!
//! The stored values are exactly those sqlx would write (the event id as its 16 bytes,
//! `recorded_at` as sqlx formats a `DateTime<Utc>`), so reads through sea-orm see the same.
//!
//! **Settings**: WAL journal (readers never block the writer), `synchronous=FULL`, a 30 s
//! busy timeout, foreign keys, and a pool of several connections for a file (see the crate
//! docs for why `FULL`).

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError, Weak};
use std::time::Duration;

use chrono::{DateTime, NaiveDateTime, SecondsFormat, SubsecRound, Utc};
use futures::future::BoxFuture;
use rusqlite::{OptionalExtension, TransactionBehavior, params};
use sea_orm::sqlx::query::Query;
use sea_orm::sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqliteSynchronous,
};
use sea_orm::sqlx::{self, AssertSqlSafe, Database, Pool};
use sea_orm::{ConnectOptions, DbErr, RuntimeErr};
use tokio::sync::{OnceCell, mpsc, watch};
use uuid::Uuid;

use crate::convert::{from_db, to_db};
use crate::decide::{Decided, Head, KeyOutcome, Request, RowInput, Stamp, Tip, decide};
use crate::entity::{event, idempotency_key};
use crate::error::{database_error, lost};
use crate::row::{EventRow, raw_columns};
use crate::scan::{Fields, LogBatch, Next, ScanReader, Walk, scan_columns};
use crate::storage::{ArgumentsOf, GroupFailed, PersonKeyRow, Restore, SqlReads, Storage};
use crate::{KeyChange, PERSON_KEY_BYTES, StoreError};

/// Connections in a file's pool: one writer at a time, readers in parallel (WAL).
const POOL_SIZE: u32 = 8;
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The log's last event.
const HEAD: &str = "SELECT position, hash, recorded_at FROM events ORDER BY position DESC LIMIT 1";
/// A stream's version (NULL for a stream without events).
const STREAM_VERSION: &str = "SELECT MAX(stream_version) FROM events WHERE stream_id = ?1";
/// The outcome recorded for an idempotency key.
const KEY_OUTCOME: &str = "SELECT first_position, last_position, stream_version \
    FROM idempotency_keys WHERE idempotency_key = ?1";
const INSERT_EVENT: &str = "INSERT OR FAIL INTO events (position, stream_id, stream_version, \
    event_id, event_type, schema_version, payload, metadata, recorded_at, prev_hash, hash) \
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
/// The columns of an event row, in [`INSERT_EVENT`]'s order.
const EVENT_COLUMNS: usize = 11;
/// Rows per multi-row `INSERT` of a group's events. Each statement opens a cursor on the
/// table and on each of its four indexes and seeks from their roots, so rows that share a
/// statement share that work: 10 rows to a statement cost ≈ 30 % fewer instructions per row
/// than single-row statements (callgrind, this schema), and more rows per statement are
/// slower again (a longer program).
const ROWS_PER_INSERT: usize = 10;
/// Whether the log holds no event and no idempotency key (a restore's precondition).
const LOG_IS_EMPTY: &str = "SELECT NOT EXISTS (SELECT 1 FROM events) \
    AND NOT EXISTS (SELECT 1 FROM idempotency_keys) AND NOT EXISTS (SELECT 1 FROM person_keys)";
const INSERT_KEY: &str = "INSERT INTO idempotency_keys \
    (idempotency_key, stream_id, first_position, last_position, stream_version) \
    VALUES (?1, ?2, ?3, ?4, ?5)";

const INSERT_PERSON_KEY: &str = "INSERT INTO person_keys (person_id, key) VALUES (?1, ?2)";
const DELETE_PERSON_KEY: &str = "DELETE FROM person_keys WHERE person_id = ?1";
const PERSON_KEYS: &str = "SELECT person_id, key FROM person_keys";
/// The keys of the persons in parameter 1, a JSON array of ids: one statement for any number.
const SOME_PERSON_KEYS: &str = "SELECT person_id, key FROM person_keys \
    WHERE person_id IN (SELECT value FROM json_each(?1))";
/// After an erasure: copies the WAL into the database file and empties the WAL, so the
/// deleted key's bytes (zeroed in the page by `secure_delete`) are left in neither file.
const CHECKPOINT_TRUNCATE: &str = "PRAGMA wal_checkpoint(TRUNCATE)";
/// How long the checkpoint after an erasure waits for readers before giving up (it is then
/// retried, see [`CHECKPOINT_RETRY_EVERY`]).
const CHECKPOINT_PATIENCE: Duration = Duration::from_secs(2);
/// While an erasure's checkpoint has not completed (a reader kept a snapshot from before it,
/// or kept reading the WAL), it is tried again this often, each try waiting at most
/// [`CHECKPOINT_RETRY_PATIENCE`] for readers: the page that held the deleted key stays in
/// the database file, and older copies of it in the WAL, until a checkpoint completes
/// (`docs/personal-data.md#what-remains-on-disk-and-when-it-goes`).
/// A retry holds the write connection while it waits, so it waits briefly and seldom: at
/// most 1 % of the writer's time while a long reader (a backup, an export) blocks it.
const CHECKPOINT_RETRY_EVERY: Duration = Duration::from_secs(1);
const CHECKPOINT_RETRY_PATIENCE: Duration = Duration::from_millis(10);

const STREAM_ROWS: &str =
    concat!("SELECT ", raw_columns!(), " FROM events WHERE stream_id = ?1 ORDER BY stream_version");
const LOG_ROWS: &str = concat!(
    "SELECT ",
    raw_columns!(),
    " FROM events WHERE position BETWEEN ?1 AND ?2 ORDER BY position"
);
/// The next event type after a given one, by the `events(event_type, position)` index: one
/// seek per distinct type, so listing every type costs a handful of seeks, not a scan.
const NEXT_TYPE: &str = "SELECT min(event_type) FROM events WHERE event_type > ?1";
/// The first position of an event type up to a bound (same index).
const FIRST_OF_TYPE: &str =
    "SELECT min(position) FROM events WHERE event_type = ?1 AND position <= ?2";
/// The whole log up to position `?1`, for the scan of a rebuild ([`scan_reader`]).
const SCAN: &str =
    concat!("SELECT ", scan_columns!(), " FROM events WHERE position <= ?1 ORDER BY position");

/// The events of `count` types (bound as `?2…`) up to the position `?1`, in position order.
/// The positions are picked from the `events(event_type, position)` index first, so the
/// table is then read in rowid order with no sort: ordering the matching rows instead reads
/// the table once per row at random and sorts the payloads in a temporary B-tree that spills
/// to disk (≈ 4× slower at 300k events).
fn types_rows_sql(count: usize) -> String {
    let placeholders: Vec<String> = (3..count + 3).map(|index| format!("?{index}")).collect();
    format!(
        concat!(
            "SELECT ",
            raw_columns!(),
            " FROM events WHERE position IN (SELECT position FROM events \
             WHERE event_type IN ({}) AND position > ?2 AND position <= ?1) ORDER BY position"
        ),
        placeholders.join(", ")
    )
}

/// Configures the pool for `url` (a file, or `:memory:` / `mode=memory`) and answers where
/// the store's write connection opens the same database.
pub(crate) fn configure(url: &str, options: &mut ConnectOptions) -> Result<String, StoreError> {
    let in_memory = url.contains(":memory:") || url.contains("mode=memory");
    // A name of its own, so this store's pool and writer share one database and no other.
    let memory_name = in_memory.then(|| format!("file:league-memory-{}", Uuid::now_v7().simple()));
    let location = match &memory_name {
        Some(name) => {
            // The database lives while a connection to it is open: keep the pool's one.
            options.max_connections(1).min_connections(1);
            options.idle_timeout(None::<Duration>).max_lifetime(None::<Duration>);
            format!("{name}?mode=memory&cache=shared")
        }
        None => {
            let sqlite = SqliteConnectOptions::from_str(url)
                .map_err(|error| StoreError::Database(DbErr::Custom(error.to_string())))?;
            options.max_connections(POOL_SIZE);
            sqlite.get_filename().to_string_lossy().into_owned()
        }
    };
    options.map_sqlx_sqlite_opts(move |sqlite| {
        let sqlite = match &memory_name {
            Some(name) => sqlite.filename(name).in_memory(true).shared_cache(true),
            None => sqlite,
        };
        sqlite
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true)
    });
    Ok(location)
}

/// The store on SQLite: the pool for reads, and the write connection.
pub(crate) struct SqliteStorage {
    pool: SqlitePool,
    /// Where the write connection opens the database (a path, or a shared-cache URI).
    location: String,
    /// Opened by the first append.
    writer: OnceCell<Arc<SqliteWriter>>,
}

impl SqliteStorage {
    pub(crate) fn new(pool: SqlitePool, location: String) -> SqliteStorage {
        SqliteStorage { pool, location, writer: OnceCell::new() }
    }

    async fn writer(&self) -> Result<Arc<SqliteWriter>, StoreError> {
        let writer = self
            .writer
            .get_or_try_init(|| async {
                let location = self.location.clone();
                blocking(move || SqliteWriter::open(&location)).await
            })
            .await?;
        Ok(writer.clone())
    }
}

impl SqlReads for SqliteStorage {
    type Db = Sqlite;
    const STREAM_ROWS: &'static str = self::STREAM_ROWS;
    const LOG_ROWS: &'static str = self::LOG_ROWS;
    const NEXT_TYPE: &'static str = self::NEXT_TYPE;
    const FIRST_OF_TYPE: &'static str = self::FIRST_OF_TYPE;

    fn pool(&self) -> &Pool<Sqlite> {
        &self.pool
    }

    fn types_rows(
        types: &[String],
        after: u64,
        last: u64,
    ) -> Query<'_, Sqlite, ArgumentsOf<Sqlite>> {
        types.iter().fold(
            sqlx::query(AssertSqlSafe(types_rows_sql(types.len())))
                .bind(to_db(last))
                .bind(to_db(after)),
            |statement, event_type| statement.bind(event_type.as_str()),
        )
    }

    fn event_row(row: <Sqlite as Database>::Row) -> EventRow {
        EventRow::sqlite(row)
    }
}

impl Storage for SqliteStorage {
    fn write_with_key<'a>(
        &'a self,
        request: Request,
        change: &'a KeyChange,
    ) -> BoxFuture<'a, Result<Decided, StoreError>> {
        Box::pin(async move {
            let writer = self.writer().await?;
            let change = change.clone();
            tokio::task::spawn_blocking(move || writer.write_with_key(&Arc::new(request), &change))
                .await
                .unwrap_or_else(|_| Err(lost()))
        })
    }

    fn person_keys(
        &self,
        persons: Option<Vec<Uuid>>,
    ) -> BoxFuture<'_, Result<Vec<PersonKeyRow>, StoreError>> {
        Box::pin(async move {
            let query = match persons {
                None => sqlx::query_as(PERSON_KEYS),
                Some(persons) => sqlx::query_as(SOME_PERSON_KEYS)
                    .bind(serde_json::to_string(&persons).unwrap_or_else(|_| "[]".to_owned())),
            };
            query.fetch_all(&self.pool).await.map_err(database_error)
        })
    }

    fn write_group<'a>(
        &'a self,
        requests: &'a [Arc<Request>],
    ) -> BoxFuture<'a, Result<Vec<Decided>, GroupFailed>> {
        Box::pin(async move {
            let writer =
                self.writer().await.map_err(|error| GroupFailed { error, rolled_back: true })?;
            let requests = requests.to_vec();
            tokio::task::spawn_blocking(move || writer.write_group(&requests))
                .await
                .unwrap_or_else(|_| Err(GroupFailed { error: lost(), rolled_back: false }))
        })
    }

    fn listen(
        &self,
        _head: watch::Sender<u64>,
    ) -> BoxFuture<'_, Result<Option<tokio::task::JoinHandle<()>>, StoreError>> {
        // Another process's commits to the same file are seen by the subscribers' polling.
        Box::pin(async { Ok(None) })
    }

    fn begin_restore(&self) -> BoxFuture<'_, Result<Option<Box<dyn Restore>>, StoreError>> {
        let location = self.location.clone();
        Box::pin(async move {
            let restore = blocking(move || SqliteRestore::begin(&location)).await?;
            Ok(restore.map(|restore| Box::new(restore) as Box<dyn Restore>))
        })
    }

    fn scan(
        &self,
        last: u64,
        walk: Walk,
        batches: mpsc::Sender<LogBatch>,
    ) -> BoxFuture<'_, Result<ScanReader, StoreError>> {
        let location = self.location.clone();
        Box::pin(async move { Ok(scan_reader(location, last, walk, batches)) })
    }
}

/// The whole-log scan's reader (`scan.rs`): [`SCAN`] on a read-only rusqlite connection of its
/// own, on a blocking thread.
fn scan_reader(
    location: String,
    last: u64,
    mut walk: Walk,
    sender: mpsc::Sender<LogBatch>,
) -> ScanReader {
    use rusqlite::OpenFlags;
    use rusqlite::types::ValueRef;

    tokio::task::spawn_blocking(move || {
        let sqlite = |error: rusqlite::Error| {
            StoreError::Database(DbErr::Custom(format!("sqlite (log scan): {error}")))
        };
        let connection = rusqlite::Connection::open_with_flags(
            &location,
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sqlite)?;
        connection.busy_timeout(std::time::Duration::from_secs(30)).map_err(sqlite)?;
        let mut statement = connection.prepare(SCAN).map_err(sqlite)?;
        let mut rows = statement.query([to_db(last)]).map_err(sqlite)?;
        let send = |batch| sender.blocking_send(batch).is_ok();
        while let Some(row) = rows.next().map_err(sqlite)? {
            let position = from_db(row.get(0).map_err(sqlite)?);
            let corrupt = |what: &str| StoreError::Corrupt { position, reason: what.to_owned() };
            let text = |index: usize, what: &str| match row.get_ref(index) {
                Ok(ValueRef::Text(bytes)) => std::str::from_utf8(bytes).map_err(|_| corrupt(what)),
                _ => Err(corrupt(what)),
            };
            let event_id = match row.get_ref(3) {
                Ok(ValueRef::Blob(bytes)) => {
                    Uuid::from_slice(bytes).map_err(|_| corrupt("event_id is not a UUID"))?
                }
                _ => return Err(corrupt("event_id is not a UUID")),
            };
            let fields = Fields {
                position,
                stream_id: text(1, "stream_id is not text")?,
                stream_version: from_db(row.get(2).map_err(sqlite)?),
                event_id,
                event_type: text(4, "event_type is not text")?,
                schema_version: row.get(5).map_err(sqlite)?,
                payload: text(6, "payload is not text")?,
                metadata: text(7, "metadata is not text")?,
                prev_hash: text(9, "prev_hash is not text")?,
                hash: text(10, "hash is not text")?,
            };
            let recorded_at = walk.time_from_text(
                position,
                text(8, "recorded_at is not text")?,
                parse_stored_time,
            )?;
            if walk.row(&fields, recorded_at, send) == Next::Stop {
                break;
            }
        }
        Ok(walk.end(send))
    })
}

/// A restore on SQLite: a connection of its own in an open `BEGIN IMMEDIATE` transaction
/// (which holds the write lock, so no append interleaves). Closing the connection without
/// `COMMIT` rolls the transaction back; a killed process leaves only uncommitted WAL frames,
/// which SQLite ignores.
struct SqliteRestore {
    connection: Arc<Mutex<rusqlite::Connection>>,
}

impl SqliteRestore {
    fn begin(location: &str) -> Result<Option<SqliteRestore>, StoreError> {
        let connection = open_write_connection(location)?;
        connection.execute_batch("BEGIN IMMEDIATE").map_err(sqlite_error)?;
        let empty: bool =
            connection.query_row(LOG_IS_EMPTY, [], |row| row.get(0)).map_err(sqlite_error)?;
        if !empty {
            connection.execute_batch("ROLLBACK").map_err(sqlite_error)?;
            return Ok(None);
        }
        Ok(Some(SqliteRestore { connection: Arc::new(Mutex::new(connection)) }))
    }

    fn connection(&self) -> Arc<Mutex<rusqlite::Connection>> {
        self.connection.clone()
    }
}

impl Restore for SqliteRestore {
    fn insert(
        &mut self,
        events: Vec<event::Model>,
        keys: Vec<idempotency_key::Model>,
        person_keys: Vec<(Uuid, [u8; PERSON_KEY_BYTES])>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let connection = self.connection();
        Box::pin(blocking(move || {
            let connection = connection.lock().unwrap_or_else(PoisonError::into_inner);
            let mut insert = connection.prepare_cached(INSERT_PERSON_KEY).map_err(sqlite_error)?;
            for (person, key) in &person_keys {
                insert
                    .execute(params![person.to_string(), key.as_slice()])
                    .map_err(sqlite_error)?;
            }
            let mut insert = connection.prepare_cached(INSERT_EVENT).map_err(sqlite_error)?;
            for row in &events {
                insert
                    .execute(params![
                        row.position,
                        row.stream_id,
                        row.stream_version,
                        row.event_id.as_bytes().as_slice(),
                        row.event_type,
                        row.schema_version,
                        row.payload,
                        row.metadata,
                        stored_time(row.recorded_at),
                        row.prev_hash,
                        row.hash,
                    ])
                    .map_err(sqlite_error)?;
            }
            let mut insert = connection.prepare_cached(INSERT_KEY).map_err(sqlite_error)?;
            for key in &keys {
                insert
                    .execute(params![
                        key.idempotency_key,
                        key.stream_id,
                        key.first_position,
                        key.last_position,
                        key.stream_version,
                    ])
                    .map_err(sqlite_error)?;
            }
            Ok(())
        }))
    }

    fn commit(self: Box<Self>) -> BoxFuture<'static, Result<(), StoreError>> {
        let connection = self.connection();
        Box::pin(blocking(move || {
            let connection = connection.lock().unwrap_or_else(PoisonError::into_inner);
            connection.execute_batch("COMMIT").map_err(sqlite_error)
        }))
    }
}

/// Runs blocking SQLite work off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| StoreError::Database(DbErr::Custom(error.to_string())))?
}

/// The store's own write connection.
struct SqliteWriter {
    connection: Mutex<rusqlite::Connection>,
    /// An erasure committed but its checkpoint has not completed yet: the deleted key's bytes
    /// may still be in the database file or the WAL. Cleared by the checkpoint that completes.
    erased_key_on_disk: AtomicBool,
    /// Whether a thread is retrying that checkpoint.
    retrying: AtomicBool,
    /// This writer, for the retrying thread (which ends when the writer is dropped).
    me: Weak<SqliteWriter>,
}

impl SqliteWriter {
    /// Opens the write connection with the pool's settings.
    fn open(location: &str) -> Result<Arc<SqliteWriter>, StoreError> {
        let connection = Mutex::new(open_write_connection(location)?);
        Ok(Arc::new_cyclic(|me| SqliteWriter {
            connection,
            erased_key_on_disk: AtomicBool::new(false),
            retrying: AtomicBool::new(false),
            me: me.clone(),
        }))
    }

    /// After an erasure: empties the WAL now if readers let it, else keeps trying on a thread
    /// of its own until a checkpoint completes (or the writer is dropped, which tries once
    /// more).
    fn remove_erased_key(&self, connection: &rusqlite::Connection) {
        if empty_the_wal(connection, CHECKPOINT_PATIENCE) {
            return;
        }
        tracing::warn!(
            "a reader kept the WAL busy after an erasure: retrying the checkpoint every {:?}",
            CHECKPOINT_RETRY_EVERY
        );
        self.erased_key_on_disk.store(true, Ordering::SeqCst);
        if self.retrying.swap(true, Ordering::SeqCst) {
            return;
        }
        let me = self.me.clone();
        let spawned =
            std::thread::Builder::new().name("league-checkpoint".into()).spawn(move || {
                loop {
                    std::thread::sleep(CHECKPOINT_RETRY_EVERY);
                    let Some(writer) = me.upgrade() else { return };
                    if writer.retry_checkpoint(CHECKPOINT_RETRY_PATIENCE) {
                        writer.retrying.store(false, Ordering::SeqCst);
                        // An erasure whose checkpoint failed just now saw this thread still
                        // running and left the retrying to it: go on for that one.
                        if writer.erased_key_on_disk.load(Ordering::SeqCst)
                            && !writer.retrying.swap(true, Ordering::SeqCst)
                        {
                            continue;
                        }
                        tracing::info!("the checkpoint after an erasure completed");
                        return;
                    }
                }
            });
        if let Err(error) = spawned {
            self.retrying.store(false, Ordering::SeqCst);
            tracing::warn!(%error, "cannot start the thread retrying the checkpoint");
        }
    }

    /// One more try at an erasure's pending checkpoint; whether none is pending any more.
    fn retry_checkpoint(&self, patience: Duration) -> bool {
        if !self.erased_key_on_disk.load(Ordering::SeqCst) {
            return true;
        }
        let connection = self.connection.lock().unwrap_or_else(PoisonError::into_inner);
        let done = empty_the_wal(&connection, patience);
        if done {
            self.erased_key_on_disk.store(false, Ordering::SeqCst);
        }
        done
    }

    /// Commits one group in a `BEGIN IMMEDIATE` transaction (which takes the write lock up
    /// front); blocking, so run it off the async threads.
    fn write_group(&self, requests: &[Arc<Request>]) -> Result<Vec<Decided>, GroupFailed> {
        // A panic mid-transaction drops the transaction, which rolls it back.
        let mut connection = self.connection.lock().unwrap_or_else(PoisonError::into_inner);
        let txn = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|error| GroupFailed { error: sqlite_error(error), rolled_back: true })?;
        match write(&txn, requests) {
            Ok(decided) => {
                txn.commit().map_err(|error| GroupFailed {
                    error: sqlite_error(error),
                    rolled_back: false,
                })?;
                Ok(decided)
            }
            Err(error) => {
                // Dropping the transaction rolls it back too.
                txn.rollback().ok();
                Err(GroupFailed { error, rolled_back: true })
            }
        }
    }
}

impl SqliteWriter {
    /// Commits one append and, only if it is written, `change` to the key table, in one
    /// `BEGIN IMMEDIATE` transaction; after an erasure, empties the WAL (see
    /// [`CHECKPOINT_TRUNCATE`]). Blocking.
    fn write_with_key(
        &self,
        request: &Arc<Request>,
        change: &KeyChange,
    ) -> Result<Decided, StoreError> {
        let mut connection = self.connection.lock().unwrap_or_else(PoisonError::into_inner);
        let txn = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sqlite_error)?;
        let decided = write(&txn, std::slice::from_ref(request))?.pop().ok_or_else(lost)?;
        let written = matches!(decided, Decided::Written(_));
        if written {
            match change {
                KeyChange::Insert { person, key } => {
                    txn.execute(INSERT_PERSON_KEY, params![person.to_string(), key.as_slice()])
                }
                KeyChange::Delete { person } => {
                    txn.execute(DELETE_PERSON_KEY, params![person.to_string()])
                }
            }
            .map_err(sqlite_error)?;
        }
        txn.commit().map_err(sqlite_error)?;
        if written && matches!(change, KeyChange::Delete { .. }) {
            self.remove_erased_key(&connection);
        }
        Ok(decided)
    }
}

impl Drop for SqliteWriter {
    /// A last try at an erasure's pending checkpoint (`league erase-player` ends its process
    /// right after the erasure).
    fn drop(&mut self) {
        if self.erased_key_on_disk.load(Ordering::SeqCst)
            && !self.retry_checkpoint(CHECKPOINT_PATIENCE)
        {
            tracing::warn!(
                "the checkpoint after an erasure did not complete before the store closed: the \
                 deleted key stays on disk until the next checkpoint"
            );
        }
    }
}

/// Checkpoints and truncates the WAL, waiting at most `patience` for readers: whether it
/// completed (every frame copied into the database file and the WAL emptied).
fn empty_the_wal(connection: &rusqlite::Connection, patience: Duration) -> bool {
    let outcome = connection
        .busy_timeout(patience)
        .and_then(|()| connection.query_row(CHECKPOINT_TRUNCATE, [], |row| row.get::<_, i64>(0)));
    if let Err(error) = connection.busy_timeout(BUSY_TIMEOUT) {
        tracing::warn!(%error, "restoring the writer's busy timeout");
    }
    match outcome {
        Ok(busy) => busy == 0,
        Err(error) => {
            tracing::warn!(%error, "checkpoint after an erasure");
            false
        }
    }
}

/// A write connection to `location` with the pool's settings.
fn open_write_connection(location: &str) -> Result<rusqlite::Connection, StoreError> {
    let connection = rusqlite::Connection::open(location).map_err(sqlite_error)?;
    // Room for every statement the writer prepares (a group's reads, the key insert and the
    // multi-row inserts of 1 to ROWS_PER_INSERT rows), so none is prepared twice.
    connection.set_prepared_statement_cache_capacity(ROWS_PER_INSERT + 16);
    connection.busy_timeout(BUSY_TIMEOUT).map_err(sqlite_error)?;
    connection
        .execute_batch(
            // secure_delete: a deleted row (an erased person's key) is overwritten with zeros,
            // not left in a free page.
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
             PRAGMA secure_delete = ON;",
        )
        .map_err(sqlite_error)?;
    Ok(connection)
}

/// A time as sqlx writes a `DateTime<Utc>`, as every row of the log stores it.
fn stored_time(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::AutoSi, false)
}

/// `INSERT OR FAIL` of `rows` event rows in one statement (`rows` ≥ 1).
fn insert_events_sql(rows: usize) -> String {
    let values: Vec<String> = (0..rows)
        .map(|row| {
            let marks: Vec<String> = (1..=EVENT_COLUMNS)
                .map(|column| format!("?{}", row * EVENT_COLUMNS + column))
                .collect();
            format!("({})", marks.join(", "))
        })
        .collect();
    let columns = INSERT_EVENT.split(" VALUES ").next().unwrap_or(INSERT_EVENT);
    format!("{columns} VALUES {}", values.join(", "))
}

/// The statements that insert 1 to [`ROWS_PER_INSERT`] rows, by row count less one.
static INSERT_EVENTS: LazyLock<Vec<String>> =
    LazyLock::new(|| (1..=ROWS_PER_INSERT).map(insert_events_sql).collect());

/// One event row of a group, as it is stored.
struct StampedRow<'a> {
    request: &'a Request,
    event: &'a RowInput,
    stamp: &'a Stamp,
}

/// Reads the group's tip, decides the group and writes its rows, inside `txn`.
fn write(
    txn: &rusqlite::Transaction<'_>,
    requests: &[Arc<Request>],
) -> Result<Vec<Decided>, StoreError> {
    let tip = read_tip(txn, requests)?;
    let plan = decide(&tip, requests, Utc::now().trunc_subsecs(6));
    let stored_time = stored_time(plan.time);
    let rows: Vec<StampedRow<'_>> = requests
        .iter()
        .zip(&plan.decided)
        .filter_map(|(request, decided)| match decided {
            Decided::Written(stamps) => Some((request, stamps)),
            _ => None,
        })
        .flat_map(|(request, stamps)| {
            request.events.iter().zip(stamps).map(|(event, stamp)| StampedRow {
                request,
                event,
                stamp,
            })
        })
        .collect();
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut insert =
            txn.prepare_cached(&INSERT_EVENTS[chunk.len() - 1]).map_err(sqlite_error)?;
        for (index, row) in chunk.iter().enumerate() {
            bind_event(&mut insert, index * EVENT_COLUMNS, row, &stored_time)
                .map_err(sqlite_error)?;
        }
        insert.raw_execute().map_err(sqlite_error)?;
    }
    for (request, decided) in requests.iter().zip(&plan.decided) {
        let Decided::Written(stamps) = decided else { continue };
        if let (Some(key), Some(first), Some(last)) =
            (&request.idempotency_key, stamps.first(), stamps.last())
        {
            txn.prepare_cached(INSERT_KEY)
                .and_then(|mut statement| {
                    statement.execute(params![
                        key,
                        request.stream.as_str(),
                        to_db(first.position),
                        to_db(last.position),
                        to_db(last.stream_version),
                    ])
                })
                .map_err(sqlite_error)?;
        }
    }
    Ok(plan.decided)
}

/// Binds one event row to the parameters after `offset` of a multi-row insert.
fn bind_event(
    insert: &mut rusqlite::CachedStatement<'_>,
    offset: usize,
    row: &StampedRow<'_>,
    stored_time: &str,
) -> rusqlite::Result<()> {
    let StampedRow { request, event, stamp } = row;
    insert.raw_bind_parameter(offset + 1, to_db(stamp.position))?;
    insert.raw_bind_parameter(offset + 2, request.stream.as_str())?;
    insert.raw_bind_parameter(offset + 3, to_db(stamp.stream_version))?;
    insert.raw_bind_parameter(offset + 4, event.event_id.as_bytes().as_slice())?;
    insert.raw_bind_parameter(offset + 5, event.event_type.as_str())?;
    insert.raw_bind_parameter(offset + 6, event.schema_version)?;
    insert.raw_bind_parameter(offset + 7, event.payload.as_str())?;
    insert.raw_bind_parameter(offset + 8, request.metadata.as_str())?;
    insert.raw_bind_parameter(offset + 9, stored_time)?;
    insert.raw_bind_parameter(offset + 10, stamp.prev_hash.as_str())?;
    insert.raw_bind_parameter(offset + 11, stamp.hash.as_str())
}

/// The log's state before the group, read inside its transaction: the head, and the version
/// of each stream and the earlier outcome of each key the group names.
fn read_tip<'a>(
    txn: &rusqlite::Transaction<'_>,
    requests: &'a [Arc<Request>],
) -> Result<Tip<'a>, StoreError> {
    let head = txn
        .prepare_cached(HEAD)
        .and_then(|mut statement| {
            statement
                .query_row([], |row| {
                    Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?))
                })
                .optional()
        })
        .map_err(sqlite_error)?;
    let head = match head {
        Some((position, hash, time)) => {
            Head { position: from_db(position), hash, recorded_at: Some(parse_time(&time)?) }
        }
        None => Head::genesis(),
    };
    let mut version_query = txn.prepare_cached(STREAM_VERSION).map_err(sqlite_error)?;
    let mut key_query = txn.prepare_cached(KEY_OUTCOME).map_err(sqlite_error)?;
    let mut versions = HashMap::new();
    let mut used_keys = HashMap::new();
    for request in requests {
        let stream = request.stream.as_str();
        if !versions.contains_key(stream) {
            let version: Option<i64> =
                version_query.query_row([stream], |row| row.get(0)).map_err(sqlite_error)?;
            versions.insert(stream, version.map_or(0, from_db));
        }
        if let Some(key) = request.idempotency_key.as_deref()
            && !used_keys.contains_key(key)
        {
            let earlier = key_query
                .query_row([key], |row| {
                    Ok(KeyOutcome {
                        first_position: from_db(row.get(0)?),
                        last_position: from_db(row.get(1)?),
                        stream_version: from_db(row.get(2)?),
                    })
                })
                .optional()
                .map_err(sqlite_error)?;
            if let Some(earlier) = earlier {
                used_keys.insert(key, earlier);
            }
        }
    }
    Ok(Tip { head, versions, used_keys })
}

/// A stored `recorded_at`: RFC 3339 as the store writes it, or SQLite's own
/// `YYYY-MM-DD HH:MM:SS.SSS` (UTC), as sqlx would also read it.
fn parse_stored_time(text: &str) -> Result<DateTime<Utc>, chrono::ParseError> {
    DateTime::parse_from_rfc3339(text)
        .map(|time| time.with_timezone(&Utc))
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%F %T%.f").map(|time| time.and_utc()))
}

/// The log's last `recorded_at` ([`parse_stored_time`]).
fn parse_time(text: &str) -> Result<DateTime<Utc>, StoreError> {
    parse_stored_time(text).map_err(|error| {
        StoreError::Database(DbErr::Custom(format!(
            "the log's last event has an unreadable recorded_at {text:?}: {error}"
        )))
    })
}

/// A SQLite error as the store reports database errors.
fn sqlite_error(error: rusqlite::Error) -> StoreError {
    StoreError::Database(DbErr::Exec(RuntimeErr::Internal(format!("sqlite: {error}"))))
}
