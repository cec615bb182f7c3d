//! SQLite: the connection a store appends with, driven straight through the C library.
//!
//! sqlx runs each SQLite statement on its connection's worker thread, so a group committed
//! through it (`BEGIN IMMEDIATE`, a read per append, the inserts, `COMMIT`) is four or more
//! round trips between the async caller and that thread. This writer is one `rusqlite`
//! connection to the same file (the same bundled libsqlite3 as sqlx's, since only one
//! `libsqlite3-sys` can be linked), opened on the first append with the pool's settings
//! (WAL, `synchronous=FULL`, the busy timeout), and a group is one trip to a blocking thread
//! that runs the whole transaction there: per append one prepared read of the stream's
//! version, the key's earlier outcome and (first append only) the log's head; the rows
//! hashed in-process and written by a prepared single-row `INSERT OR FAIL` each (what SQLite
//! itself runs fastest; `OR FAIL` spares the statement journal), the key's row, `COMMIT`.
//!
//! The stored values are exactly those the sqlx path writes (the event id as its 16 bytes,
//! `recorded_at` as sqlx formats a `DateTime<Utc>`), so reads through sea-orm are unchanged.
//! An in-memory database cannot be opened twice, so it keeps the sqlx path.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, NaiveDateTime, SecondsFormat, SubsecRound, Utc};
use rusqlite::{TransactionBehavior, params};
use sea_orm::{DbErr, RuntimeErr};

use crate::StoreError;
use crate::append::{Decided, GroupFailed, Request, SQLITE_KEY, SQLITE_TIP, chain, insert_sql};
use crate::hash::{GENESIS_HASH, format_time};
use crate::store::{from_db, to_db};

/// The store's own write connection to a SQLite file.
pub(crate) struct SqliteWriter {
    connection: Mutex<rusqlite::Connection>,
}

/// One append's starting point as [`SQLITE_TIP`] reads it.
struct Tip {
    version: Option<i64>,
    key: Option<(i64, i64, i64)>,
    head: Option<(i64, String, String)>,
}

impl SqliteWriter {
    /// Opens the write connection to the database file at `path` with the pool's settings.
    pub(crate) fn open(
        path: PathBuf,
        busy_timeout: std::time::Duration,
    ) -> Result<SqliteWriter, StoreError> {
        let connection = rusqlite::Connection::open(path).map_err(sqlite_error)?;
        connection.busy_timeout(busy_timeout).map_err(sqlite_error)?;
        // Durability as the crate docs explain: WAL, and FULL so every commit syncs the WAL.
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
            )
            .map_err(sqlite_error)?;
        Ok(SqliteWriter { connection: Mutex::new(connection) })
    }

    /// Commits one group in a `BEGIN IMMEDIATE` transaction; blocking (run it off the
    /// async threads).
    pub(crate) fn write_group(
        &self,
        requests: &[Arc<Request>],
    ) -> Result<Vec<Decided>, GroupFailed> {
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

fn write(
    txn: &rusqlite::Transaction<'_>,
    requests: &[Arc<Request>],
) -> Result<Vec<Decided>, StoreError> {
    let mut tip_query = txn.prepare_cached(SQLITE_TIP).map_err(sqlite_error)?;
    let mut insert = txn.prepare_cached(&insert_sql(1, false)).map_err(sqlite_error)?;
    // The log's head: position, hash and time of the last event, once the first tip is read.
    let mut head: Option<(u64, String, DateTime<Utc>)> = None;
    let mut decided = Vec::with_capacity(requests.len());
    for request in requests {
        let tip = tip_query
            .query_row(
                params![request.stream.as_str(), request.idempotency_key.as_deref()],
                |row| {
                    let key = row.get::<_, Option<i64>>(1)?;
                    let head = row.get::<_, Option<i64>>(4)?;
                    Ok(Tip {
                        version: row.get(0)?,
                        key: match key {
                            Some(first) => Some((first, row.get(2)?, row.get(3)?)),
                            None => None,
                        },
                        head: match head {
                            Some(position) => Some((position, row.get(5)?, row.get(6)?)),
                            None => None,
                        },
                    })
                },
            )
            .map_err(sqlite_error)?;
        if head.is_none() {
            let now = Utc::now().trunc_subsecs(6);
            head = Some(match tip.head {
                // Commit times never decrease along positions, so "everything up to time T"
                // is a prefix of the log even if the clock steps back.
                Some((position, hash, time)) => {
                    (from_db(position), hash, parse_time(&time)?.max(now))
                }
                None => (0, GENESIS_HASH.to_owned(), now),
            });
        }
        let Some((head_position, head_hash, recorded_at)) = head.as_mut() else {
            return Err(StoreError::Database(DbErr::Custom("the log's head was not read".into())));
        };
        if let Some((first, last, version)) = tip.key {
            decided.push(Decided::Deduplicated {
                first_position: from_db(first),
                last_position: from_db(last),
                stream_version: from_db(version),
            });
            continue;
        }
        let version = tip.version.map_or(0, from_db);
        if !request.expected.admits(version) {
            decided.push(Decided::Conflict { actual: version });
            continue;
        }

        let hashed_time = format_time(*recorded_at);
        // The time as sqlx writes a `DateTime<Utc>`, as every other row of the log has it.
        let stored_time = recorded_at.to_rfc3339_opts(SecondsFormat::AutoSi, false);
        let stamps = chain(request, *head_position, version, *recorded_at, &hashed_time, head_hash);
        for (event, stamp) in request.events.iter().zip(&stamps) {
            insert
                .execute(params![
                    to_db(stamp.position),
                    request.stream.as_str(),
                    to_db(stamp.stream_version),
                    event.event_id.as_bytes().as_slice(),
                    event.event_type,
                    event.schema_version,
                    event.payload,
                    request.metadata,
                    stored_time,
                    stamp.prev_hash.as_str(),
                    stamp.hash.as_str(),
                ])
                .map_err(sqlite_error)?;
        }
        let count = request.events.len() as u64;
        if let Some(key) = &request.idempotency_key {
            txn.prepare_cached(SQLITE_KEY)
                .and_then(|mut statement| {
                    statement.execute(params![
                        key,
                        request.stream.as_str(),
                        to_db(*head_position + 1),
                        to_db(*head_position + count),
                        to_db(version + count),
                    ])
                })
                .map_err(sqlite_error)?;
        }
        *head_position += count;
        decided.push(Decided::Written(stamps));
    }
    Ok(decided)
}

/// A stored `recorded_at`: RFC 3339 as the store writes it, or SQLite's own
/// `YYYY-MM-DD HH:MM:SS.SSS` (UTC), as sqlx would also read it.
fn parse_time(text: &str) -> Result<DateTime<Utc>, StoreError> {
    DateTime::parse_from_rfc3339(text)
        .map(|time| time.with_timezone(&Utc))
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%F %T%.f").map(|time| time.and_utc()))
        .map_err(|error| {
            StoreError::Database(DbErr::Custom(format!(
                "the log's last event has an unreadable recorded_at {text:?}: {error}"
            )))
        })
}

/// A SQLite error as the store reports database errors.
fn sqlite_error(error: rusqlite::Error) -> StoreError {
    StoreError::Database(DbErr::Exec(RuntimeErr::Internal(format!("sqlite: {error}"))))
}
