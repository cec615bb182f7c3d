//! What the store needs from a database, as one trait with one implementation per engine
//! (`sqlite.rs`, `postgres.rs`, each holding all of its engine's SQL), and the one
//! implementation of the streaming reads both engines share ([`SqlReads`]).
//!
//! The streaming reads serve the read side's folds, which must stay fast: rows are streamed
//! as [`EventRow`]s (`row.rs`), whose payload is lent as the JSON text the database holds.

use std::sync::Arc;

use futures::TryStreamExt;
use futures::future::BoxFuture;
use futures::stream::BoxStream;
use sea_orm::sqlx::query::Query;
use sea_orm::sqlx::{self, Database, Encode, FromRow, IntoArguments, Pool, Type};
use tokio::sync::{mpsc, watch};

use uuid::Uuid;

use crate::convert::{from_db, to_db};
use crate::decide::{Decided, Request};
use crate::entity::{event, idempotency_key};
use crate::error::database_error;
use crate::row::EventRow;
use crate::scan::{LogBatch, ScanReader, Walk};
use crate::{KeyChange, PERSON_KEY_BYTES, StoreError};

/// A group's transaction failed; `rolled_back` when it certainly wrote nothing.
pub(crate) struct GroupFailed {
    pub(crate) error: StoreError,
    pub(crate) rolled_back: bool,
}

/// Which events a streaming read returns, always in log order.
#[derive(Debug, Clone)]
pub(crate) enum RowsQuery {
    /// One stream, in version order (which is also position order).
    Stream { stream: String },
    /// Every event of these types after `after` up to `last`, in position order.
    Types { types: Vec<String>, after: u64, last: u64 },
    /// The log from `from` to `last` (both inclusive).
    Log { from: u64, last: u64 },
}

/// A row of the person-key table as read: the person's id as text, the key's bytes.
pub(crate) type PersonKeyRow = (String, Vec<u8>);

/// One database engine behind the store: its writes here, its reads in [`Reads`].
pub(crate) trait Storage: Reads {
    /// Commits one group in one transaction: reads or predicts the log's state, decides each
    /// append with [`decide`](crate::decide::decide) and writes the rows.
    fn write_group<'a>(
        &'a self,
        requests: &'a [Arc<Request>],
    ) -> BoxFuture<'a, Result<Vec<Decided>, GroupFailed>>;

    /// Starts relaying other processes' commits into `head` as wake-ups, if the engine can
    /// tell (PostgreSQL's `NOTIFY`); the relay is `LISTEN`ing when this returns.
    fn listen(
        &self,
        head: watch::Sender<u64>,
    ) -> BoxFuture<'_, Result<Option<tokio::task::JoinHandle<()>>, StoreError>>;

    /// Commits one append alone and, only if it is written, `change` to the person-key table,
    /// in one transaction.
    fn write_with_key<'a>(
        &'a self,
        request: Request,
        change: &'a KeyChange,
    ) -> BoxFuture<'a, Result<Decided, StoreError>>;

    /// Appends whose predicted state of the log missed since the store opened, so that they
    /// were decided again (PostgreSQL's fast paths; always 0 where appends are decided
    /// under the write lock, as on SQLite).
    fn prediction_misses(&self) -> u64 {
        0
    }

    /// Every `(person, key)` row, or those of `persons`.
    fn person_keys(
        &self,
        persons: Option<Vec<Uuid>>,
    ) -> BoxFuture<'_, Result<Vec<PersonKeyRow>, StoreError>>;

    /// Opens the one transaction a restore writes in, holding the append lock, or `None`
    /// when the log is not empty (nothing is then held or written).
    fn begin_restore(&self) -> BoxFuture<'_, Result<Option<Box<dyn Restore>>, StoreError>>;

    /// Starts the whole-log scan of a rebuild up to `last` on a connection of its own
    /// (`scan.rs`), sending its batches to `batches`.
    fn scan(
        &self,
        last: u64,
        walk: Walk,
        batches: mpsc::Sender<LogBatch>,
    ) -> BoxFuture<'_, Result<ScanReader, StoreError>>;
}

/// A restore in progress: finished rows, exactly as stored, go into one open transaction,
/// chunk by chunk. Dropped without [`commit`](Restore::commit), it writes nothing (and a
/// process killed mid-way leaves the transaction uncommitted, so the database empty).
pub(crate) trait Restore: Send {
    /// Inserts a chunk of rows (events in position order, then idempotency keys, then
    /// person keys) into the transaction.
    fn insert(
        &mut self,
        events: Vec<event::Model>,
        keys: Vec<idempotency_key::Model>,
        person_keys: Vec<(Uuid, [u8; PERSON_KEY_BYTES])>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Commits everything inserted.
    fn commit(self: Box<Self>) -> BoxFuture<'static, Result<(), StoreError>>;
}

/// How the store reads the log from an engine.
pub(crate) trait Reads: Send + Sync {
    /// The rows `query` selects, streamed.
    fn rows(&self, query: RowsQuery) -> BoxStream<'static, Result<EventRow, StoreError>>;

    /// Every distinct event type in the log, in byte order (one index seek per type).
    fn event_types(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;

    /// The first position of an event of `event_type` at or before `last`.
    fn first_position_of_type<'a>(
        &'a self,
        event_type: &'a str,
        last: u64,
    ) -> BoxFuture<'a, Result<Option<u64>, StoreError>>;
}

/// What an sqlx engine's reads differ in: its pool, its statements (in the engine's own
/// parameter syntax) and its rows. Both engines read through the one [`Reads`] below.
pub(crate) trait SqlReads: Send + Sync + 'static {
    type Db: Database;
    /// One stream's rows in version order; parameter 1 the stream.
    const STREAM_ROWS: &'static str;
    /// The log's rows from parameter 1 to parameter 2 (both inclusive).
    const LOG_ROWS: &'static str;
    /// The smallest event type after parameter 1 (see [`distinct_types`]).
    const NEXT_TYPE: &'static str;
    /// The first position of type parameter 1 up to parameter 2 (see [`first_of_type`]).
    const FIRST_OF_TYPE: &'static str;

    fn pool(&self) -> &Pool<Self::Db>;

    /// The rows of any of `types` after `after` up to `last` (each engine binds a list its
    /// own way).
    fn types_rows(
        types: &[String],
        after: u64,
        last: u64,
    ) -> Query<'_, Self::Db, ArgumentsOf<Self::Db>>;

    fn event_row(row: <Self::Db as Database>::Row) -> EventRow;
}

/// An engine's bound parameters.
pub(crate) type ArgumentsOf<DB> = <DB as Database>::Arguments;

impl<E: SqlReads> Reads for E
where
    for<'c> &'c mut <E::Db as Database>::Connection: sqlx::Executor<'c, Database = E::Db>,
    ArgumentsOf<E::Db>: IntoArguments<E::Db>,
    for<'q> &'q str: Encode<'q, E::Db> + Type<E::Db>,
    for<'q> String: Encode<'q, E::Db> + Type<E::Db>,
    for<'q> i64: Encode<'q, E::Db> + Type<E::Db>,
    for<'r> (Option<String>,): FromRow<'r, <E::Db as Database>::Row>,
    for<'r> (Option<i64>,): FromRow<'r, <E::Db as Database>::Row>,
{
    fn rows(&self, query: RowsQuery) -> BoxStream<'static, Result<EventRow, StoreError>> {
        let pool = self.pool().clone();
        Box::pin(async_stream::try_stream! {
            let statement = match &query {
                RowsQuery::Stream { stream } => sqlx::query(E::STREAM_ROWS).bind(stream.as_str()),
                RowsQuery::Types { types, after, last } => E::types_rows(types, *after, *last),
                RowsQuery::Log { from, last } => {
                    sqlx::query(E::LOG_ROWS).bind(to_db(*from)).bind(to_db(*last))
                }
            };
            let mut rows = statement.fetch(&pool);
            while let Some(row) = rows.try_next().await.map_err(database_error)? {
                yield E::event_row(row);
            }
        })
    }

    fn event_types(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(distinct_types(self.pool(), E::NEXT_TYPE))
    }

    fn first_position_of_type<'a>(
        &'a self,
        event_type: &'a str,
        last: u64,
    ) -> BoxFuture<'a, Result<Option<u64>, StoreError>> {
        Box::pin(first_of_type(self.pool(), E::FIRST_OF_TYPE, event_type, last))
    }
}

/// Every distinct event type, walked with `next_type` (the engine's "smallest type after
/// `$1`" query): one index seek per type. Both engines' `event_types`.
pub(crate) async fn distinct_types<DB: Database>(
    pool: &Pool<DB>,
    next_type: &'static str,
) -> Result<Vec<String>, StoreError>
where
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> (Option<String>,): FromRow<'r, DB::Row>,
{
    let mut types = Vec::new();
    let mut after = String::new();
    loop {
        let (next,): (Option<String>,) = sqlx::query_as(next_type)
            .bind(after.clone())
            .fetch_one(pool)
            .await
            .map_err(database_error)?;
        let Some(event_type) = next else { return Ok(types) };
        after.clone_from(&event_type);
        types.push(event_type);
    }
}

/// The first position of `event_type` up to `last`, by the engine's `first_of_type` query
/// (`$1` the type, `$2` the bound). Both engines' `first_position_of_type`.
pub(crate) async fn first_of_type<DB: Database>(
    pool: &Pool<DB>,
    first_of_type: &'static str,
    event_type: &str,
    last: u64,
) -> Result<Option<u64>, StoreError>
where
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'r> (Option<i64>,): FromRow<'r, DB::Row>,
{
    let (first,): (Option<i64>,) = sqlx::query_as(first_of_type)
        .bind(event_type.to_owned())
        .bind(to_db(last))
        .fetch_one(pool)
        .await
        .map_err(database_error)?;
    Ok(first.map(from_db))
}
