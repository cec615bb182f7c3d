//! [`EventStore`]: connecting, appending, reading, the live feed and verification. The
//! guarantees and the reasons behind each mechanism are described in the crate docs.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use chrono::SubsecRound;
use futures::{Stream, StreamExt};
use league_migration::{Migrator, MigratorTrait};
use sea_orm::sea_query::IntoCondition;
use sea_orm::{
    ColumnTrait, ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, DbErr,
    EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};
use tokio::sync::{OnceCell, watch};
use uuid::Uuid;

use crate::convert::{from_db, to_db};
use crate::decide::{Decided, KeyOutcome, Request, RowInput};
use crate::entity::{event, idempotency_key};
use crate::failover::{self, HostList};
use crate::group::{self, Committer, GroupCommit};
use crate::hash::canonical_json;
use crate::postgres::{self, PostgresReads, PostgresStorage};
use crate::row::EventRow;
use crate::scan::LogScan;
use crate::sqlite::{self, SqliteStorage};
use crate::storage::{Reads, RowsQuery, Storage};
use crate::types::MAX_EVENT_TYPE_LEN;
use crate::{
    AppendOutcome, Bound, ExpectedVersion, KeyChange, Metadata, NewEvent, PERSON_KEY_BYTES,
    RecordedEvent, StoreError, StreamId, VerifyReport,
};

const IDLE_BEFORE_PING: Duration = Duration::from_secs(30);
/// Events per page when the store pages through the log itself.
const PAGE_SIZE: u64 = 500;
/// A subscriber re-reads the log at least this often, even without a wake-up (a lost
/// notification, or another process writing to the same SQLite file).
const POLL_INTERVAL: Duration = Duration::from_secs(1);
/// A subscriber woken for positions its reads do not return yet (a replica still replaying
/// them) reads again at the next wake-up or after this pause, doubled while the replica
/// shows nothing new up to [`LAG_RETRY_MAX`]: replay usually takes a millisecond or two, so
/// waiting for the poll would add up to a second.
const LAG_RETRY_FIRST: Duration = Duration::from_millis(1);
const LAG_RETRY_MAX: Duration = Duration::from_millis(50);

/// The event store: cheap to clone (all clones share one pool and one live feed).
///
/// A store connected with a read replica ([`connect_with_replica`](Self::connect_with_replica))
/// hands out a second view of itself, [`for_reads`](Self::for_reads), whose reads of the log
/// (and of the catalog snapshot) go to the replica; every handle writes to the primary.
#[derive(Clone)]
pub struct EventStore {
    pub(crate) inner: Arc<Inner>,
    /// Whether this handle reads the log from the replica (when the store has one).
    reads_replica: bool,
}

pub(crate) struct Inner {
    db: DatabaseConnection,
    backend: DbBackend,
    /// The database engine: its writes, streaming reads and live-feed relay.
    pub(crate) storage: Box<dyn Storage>,
    /// A hot standby of the primary that [`EventStore::for_reads`] reads the log from.
    replica: Option<Replica>,
    /// Queues this process's appends and commits them in groups.
    pub(crate) group: GroupCommit,
    /// The highest position known to be committed; subscribers wait on it.
    head: watch::Sender<u64>,
    /// The task relaying other processes' commits into `head` (PostgreSQL), started by the
    /// first subscriber.
    listener: OnceCell<Option<tokio::task::JoinHandle<()>>>,
}

/// A read replica: its sea-orm connection and its streaming reads.
struct Replica {
    db: DatabaseConnection,
    reads: PostgresReads,
    /// Keeps the pool on the host its multi-host URL wants (stopped when dropped).
    _following: Option<failover::Following>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(Some(task)) = self.listener.get() {
            task.abort();
        }
    }
}

impl fmt::Debug for EventStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventStore")
            .field("backend", &self.inner.backend)
            .field("replica", &self.inner.replica.is_some())
            .field("reads_replica", &self.reads_replica)
            .field("known_head", &*self.inner.head.borrow())
            .finish_non_exhaustive()
    }
}

impl EventStore {
    /// Opens a pool on `sqlite://…` or `postgres://…` (the schema is not touched: call
    /// [`migrate`](Self::migrate)).
    pub async fn connect(url: &str) -> Result<EventStore, StoreError> {
        EventStore::open(url, None).await
    }

    /// [`connect`](Self::connect) on the PostgreSQL primary `url`, with `replica_url` (a
    /// streaming-replication hot standby of it) for the reads of [`for_reads`](Self::for_reads).
    /// Both must be PostgreSQL ([`StoreError::UnsupportedReplica`] otherwise).
    pub async fn connect_with_replica(
        url: &str,
        replica_url: &str,
    ) -> Result<EventStore, StoreError> {
        EventStore::open(url, Some(replica_url)).await
    }

    async fn open(url: &str, replica_url: Option<&str>) -> Result<EventStore, StoreError> {
        let backend = backend_of(url)?;
        if let Some(replica_url) = replica_url
            && (backend != DbBackend::Postgres || backend_of(replica_url)? != DbBackend::Postgres)
        {
            return Err(StoreError::UnsupportedReplica { url: replica_url.to_owned() });
        }
        // A URL naming several PostgreSQL hosts: the store's own writes go to the primary.
        let hosts = match backend {
            DbBackend::Postgres => HostList::parse(url)?.map(HostList::for_writes),
            _ => None,
        };
        let (url, hosts) = on_one_host(url, hosts).await?;
        let mut options = connect_options(&url);
        let sqlite_location = match backend {
            DbBackend::Sqlite => Some(sqlite::configure(&url, &mut options)?),
            _ => {
                postgres::configure(&mut options);
                None
            }
        };
        let db = Database::connect(options).await?;
        let storage: Box<dyn Storage> = match sqlite_location {
            Some(location) => {
                Box::new(SqliteStorage::new(db.get_sqlite_connection_pool().clone(), location))
            }
            None => Box::new(PostgresStorage::new(
                db.get_postgres_connection_pool().clone(),
                &url,
                hosts,
            )?),
        };
        let replica = match replica_url {
            None => None,
            Some(replica_url) => {
                let hosts = HostList::parse(replica_url)?;
                let (replica_url, hosts) = on_one_host(replica_url, hosts).await?;
                let mut options = connect_options(&replica_url);
                postgres::configure(&mut options);
                let db = Database::connect(options).await?;
                let pool = db.get_postgres_connection_pool().clone();
                let following = hosts
                    .map(|(hosts, current)| failover::follow(hosts, current, pool.clone(), None));
                Some(Replica { db, reads: PostgresReads::new(pool), _following: following })
            }
        };
        let (head, _) = watch::channel(0);
        Ok(EventStore {
            inner: Arc::new(Inner {
                db,
                backend,
                storage,
                replica,
                group: GroupCommit::default(),
                head,
                listener: OnceCell::new(),
            }),
            reads_replica: false,
        })
    }

    /// This store as queries read it: the log (events, heads, versions, as-of bounds, the
    /// catalog snapshot) from the replica when there is one, else from the primary as
    /// [`self`]. Appends, the key tables, webhook tables, snapshot saves and migrations go to
    /// the primary through every handle. A replica lags: a reader that needs a position
    /// waits for it ([`subscribe`](Self::subscribe) does).
    pub fn for_reads(&self) -> EventStore {
        EventStore { inner: self.inner.clone(), reads_replica: true }
    }

    /// Whether the store was connected with a read replica.
    pub fn has_replica(&self) -> bool {
        self.inner.replica.is_some()
    }

    /// Waits until the replica has replayed everything the primary had committed when this
    /// was called (its WAL position: schema changes too, which the log's positions do not
    /// cover); `false` if `timeout` passed first. At once `true` without a replica.
    pub async fn wait_for_replica(&self, timeout: Duration) -> Result<bool, StoreError> {
        let Some(replica) = &self.inner.replica else { return Ok(true) };
        let target = postgres::current_wal(self.inner.db.get_postgres_connection_pool()).await?;
        let replica = replica.db.get_postgres_connection_pool();
        let deadline = tokio::time::Instant::now() + timeout;
        let mut pause = LAG_RETRY_FIRST;
        loop {
            if postgres::replayed(replica, &target).await? {
                return Ok(true);
            }
            if tokio::time::Instant::now() >= deadline {
                return Ok(false);
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(LAG_RETRY_MAX);
        }
    }

    /// The connection this handle reads the log from.
    pub(crate) fn read_db(&self) -> &DatabaseConnection {
        match &self.inner.replica {
            Some(replica) if self.reads_replica => &replica.db,
            _ => &self.inner.db,
        }
    }

    /// The streaming reads this handle reads the log with.
    fn reads(&self) -> &dyn Reads {
        match &self.inner.replica {
            Some(replica) if self.reads_replica => &replica.reads,
            _ => self.inner.storage.as_ref(),
        }
    }

    /// Creates or upgrades the schema (every pending migration of `league-migration`).
    pub async fn migrate(&self) -> Result<(), StoreError> {
        Migrator::up(&self.inner.db, None).await?;
        Ok(())
    }

    /// The underlying sea-orm connection, for read-model tables kept in the same database.
    pub fn connection(&self) -> &DatabaseConnection {
        &self.inner.db
    }

    /// Appends `events` to `stream` atomically, after checking `expected` (see the crate docs).
    pub async fn append(
        &self,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
        metadata: Metadata,
    ) -> Result<AppendOutcome, StoreError> {
        self.append_changing_key(stream, expected, events, metadata, None).await
    }

    /// Appends like [`append`](Self::append) and applies `change` to the person-key table in
    /// the same transaction, only if the events are written: a conflict or a deduplicated
    /// append changes no key, and a crash leaves both or neither. Not grouped with other
    /// appends (registrations and erasures are rare); on PostgreSQL the server decides the
    /// append under the append lock, inside the transaction that changes the key.
    pub async fn append_with_key(
        &self,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
        metadata: Metadata,
        change: KeyChange,
    ) -> Result<AppendOutcome, StoreError> {
        self.append_changing_key(stream, expected, events, metadata, Some(change)).await
    }

    /// Every person's key (`None`), or the keys of `persons` that exist. Keys are not in the
    /// chain: an erased person's key is simply absent.
    pub async fn person_keys(
        &self,
        persons: Option<&[Uuid]>,
    ) -> Result<HashMap<Uuid, [u8; PERSON_KEY_BYTES]>, StoreError> {
        let rows = self.inner.storage.person_keys(persons.map(<[Uuid]>::to_vec)).await?;
        let mut keys = HashMap::with_capacity(rows.len());
        for (person, key) in rows {
            let person = Uuid::parse_str(&person).map_err(|error| {
                StoreError::Database(DbErr::Custom(format!("person key {person:?}: {error}")))
            })?;
            let key = key.try_into().map_err(|_| {
                StoreError::Database(DbErr::Custom(format!("person key {person}: not 32 bytes")))
            })?;
            keys.insert(person, key);
        }
        Ok(keys)
    }

    async fn append_changing_key(
        &self,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
        metadata: Metadata,
        change: Option<KeyChange>,
    ) -> Result<AppendOutcome, StoreError> {
        if events.is_empty() {
            return Err(StoreError::EmptyAppend);
        }
        let metadata_text =
            canonical_json(&serde_json::to_value(&metadata).map_err(|error| {
                StoreError::InvalidEvent { reason: format!("metadata: {error}") }
            })?)?;
        let mut rows = Vec::with_capacity(events.len());
        for event in &events {
            let length = event.event_type.chars().count();
            if length == 0 || length > MAX_EVENT_TYPE_LEN {
                return Err(StoreError::InvalidEvent {
                    reason: format!("event type must have 1 to {MAX_EVENT_TYPE_LEN} characters"),
                });
            }
            rows.push(RowInput {
                event_id: Uuid::now_v7(),
                event_type: event.event_type.clone(),
                schema_version: event.schema_version,
                payload: canonical_json(&event.payload)?,
            });
        }
        let event_ids: Vec<Uuid> = rows.iter().map(|row| row.event_id).collect();
        let request = Request {
            stream: stream.clone(),
            expected,
            idempotency_key: metadata.idempotency_key.clone(),
            metadata: metadata_text,
            events: rows,
        };

        let decided = match change {
            None => group::submit(self, request).await?,
            Some(change) => {
                let decided = self.inner.storage.write_with_key(request, &change).await?;
                if let Decided::Written(stamps) = &decided
                    && let Some(last) = stamps.last()
                {
                    self.announce(last.position);
                }
                decided
            }
        };
        match decided {
            Decided::Written(stamps) => Ok(AppendOutcome {
                first_position: stamps.first().map_or(0, |stamp| stamp.position),
                last_position: stamps.last().map_or(0, |stamp| stamp.position),
                stream_version: stamps.last().map_or(0, |stamp| stamp.stream_version),
                events: events
                    .into_iter()
                    .zip(event_ids)
                    .zip(stamps)
                    .map(|((event, event_id), stamp)| RecordedEvent {
                        position: stamp.position,
                        stream_id: stream.clone(),
                        stream_version: stamp.stream_version,
                        event_id,
                        event_type: event.event_type,
                        schema_version: event.schema_version,
                        payload: event.payload,
                        metadata: metadata.clone(),
                        recorded_at: stamp.recorded_at,
                        prev_hash: stamp.prev_hash,
                        hash: stamp.hash,
                    })
                    .collect(),
                deduplicated: false,
            }),
            Decided::Deduplicated(KeyOutcome { first_position, last_position, stream_version }) => {
                self.earlier_outcome(
                    self.connection(),
                    &idempotency_key::Model {
                        idempotency_key: metadata.idempotency_key.unwrap_or_default(),
                        stream_id: stream.as_str().to_owned(),
                        first_position: to_db(first_position),
                        last_position: to_db(last_position),
                        stream_version: to_db(stream_version),
                    },
                )
                .await
            }
            Decided::Conflict { actual } => Err(StoreError::Conflict { expected, actual }),
        }
    }

    /// Which database engine this store runs on.
    pub fn backend(&self) -> DbBackend {
        self.inner.backend
    }

    /// The outcome of an earlier append, re-read from the log.
    pub(crate) async fn earlier_outcome<C: ConnectionTrait>(
        &self,
        db: &C,
        earlier: &idempotency_key::Model,
    ) -> Result<AppendOutcome, StoreError> {
        let rows = event::Entity::find()
            .filter(event::Column::Position.between(earlier.first_position, earlier.last_position))
            .order_by_asc(event::Column::Position)
            .all(db)
            .await?;
        Ok(AppendOutcome {
            first_position: from_db(earlier.first_position),
            last_position: from_db(earlier.last_position),
            stream_version: from_db(earlier.stream_version),
            events: rows.into_iter().map(decode).collect::<Result<_, _>>()?,
            deduplicated: true,
        })
    }

    /// The outcome of the append that first used `idempotency_key` (with
    /// `deduplicated: true`), or `None` if the key is unused. Lets a caller answer a retried
    /// command with its original outcome before re-deciding it against today's state.
    pub async fn idempotent_outcome(
        &self,
        idempotency_key: &str,
    ) -> Result<Option<AppendOutcome>, StoreError> {
        let earlier = idempotency_key::Entity::find_by_id(idempotency_key.to_owned())
            .one(&self.inner.db)
            .await?;
        match earlier {
            Some(earlier) => Ok(Some(self.earlier_outcome(&self.inner.db, &earlier).await?)),
            None => Ok(None),
        }
    }

    /// Tells this process's subscribers that the log now reaches `position`.
    pub(crate) fn announce(&self, position: u64) {
        self.inner.head.send_if_modified(|head| {
            let moved = position > *head;
            *head = (*head).max(position);
            moved
        });
    }

    /// The events of `stream` from `from_version` (inclusive) on, in version order.
    pub async fn read_stream(
        &self,
        stream: &StreamId,
        from_version: u64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        self.stream_events(stream, event::Column::StreamVersion.gte(to_db(from_version)), None)
            .await
    }

    /// One page of a stream: at most `limit` of its events after global position
    /// `after_position`, in order.
    pub async fn read_stream_after(
        &self,
        stream: &StreamId,
        after_position: u64,
        limit: u64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let after = event::Column::Position.gt(to_db(after_position));
        self.stream_events(stream, after, Some(limit.min(i64::MAX as u64))).await
    }

    /// The events of `stream` that `which` selects, in version order, at most `limit`.
    async fn stream_events(
        &self,
        stream: &StreamId,
        which: impl IntoCondition,
        limit: Option<u64>,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        event::Entity::find()
            .filter(event::Column::StreamId.eq(stream.as_str()))
            .filter(which)
            // Within a stream, versions and positions grow together.
            .order_by_asc(event::Column::StreamVersion)
            .limit(limit)
            .all(self.read_db())
            .await?
            .into_iter()
            .map(decode)
            .collect()
    }

    /// One page of the global log: at most `limit` events from `from_position` (inclusive).
    pub async fn read_all(
        &self,
        from_position: u64,
        limit: u64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        self.read_range(from_position, u64::MAX, limit).await
    }

    pub(crate) async fn read_range(
        &self,
        from_position: u64,
        to_position: u64,
        limit: u64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        self.read_rows(from_position, to_position, limit).await?.into_iter().map(decode).collect()
    }

    async fn read_rows(
        &self,
        from_position: u64,
        to_position: u64,
        limit: u64,
    ) -> Result<Vec<event::Model>, StoreError> {
        if from_position > to_position || limit == 0 {
            return Ok(Vec::new());
        }
        Ok(event::Entity::find()
            .filter(event::Column::Position.between(to_db(from_position), to_db(to_position)))
            .order_by_asc(event::Column::Position)
            .limit(limit.min(i64::MAX as u64))
            .all(self.read_db())
            .await?)
    }

    /// The global log from `from_position` (inclusive) to the head as it is when each page
    /// is read, as an async stream read page by page.
    pub fn stream_all(
        &self,
        from_position: u64,
    ) -> impl Stream<Item = Result<RecordedEvent, StoreError>> + Send + 'static {
        self.stream_range(from_position, u64::MAX)
    }

    /// Events from `from_position` to `to_position` (both inclusive), page by page.
    pub fn stream_range(
        &self,
        from_position: u64,
        to_position: u64,
    ) -> impl Stream<Item = Result<RecordedEvent, StoreError>> + Send + 'static {
        let store = self.clone();
        async_stream::try_stream! {
            let mut next = from_position.max(1);
            loop {
                let page = store.read_range(next, to_position, PAGE_SIZE).await?;
                let full = page.len() as u64 == PAGE_SIZE;
                for event in page {
                    next = event.position + 1;
                    yield event;
                }
                if !full {
                    break;
                }
            }
        }
    }

    /// The last position included by `bound` (0 when it includes nothing): the bound's own
    /// position capped at the head, or the last event recorded at or before the bound's time.
    pub async fn position_at(&self, bound: Bound) -> Result<u64, StoreError> {
        match bound {
            Bound::Position(position) => Ok(position.min(self.head_position().await?)),
            Bound::Time(time) => {
                let last: Option<Option<i64>> = event::Entity::find()
                    .select_only()
                    .column_as(event::Column::Position.max(), "last")
                    .filter(event::Column::RecordedAt.lte(time.trunc_subsecs(6)))
                    .into_tuple()
                    .one(self.read_db())
                    .await?;
                Ok(last.flatten().map_or(0, from_db))
            }
        }
    }

    /// Every event up to `bound` (see [`position_at`](Self::position_at)), in position order.
    pub async fn read_until(&self, bound: Bound) -> Result<Vec<RecordedEvent>, StoreError> {
        let last = self.position_at(bound).await?;
        self.read_range(1, last, u64::MAX).await
    }

    /// One stream's events in version order, up to `bound` (the first event past it ends the
    /// read: within a stream versions, positions and commit times grow together), streamed
    /// as raw rows whose payload is lent as its stored JSON text.
    pub fn read_stream_until(
        &self,
        stream: &StreamId,
        bound: Bound,
    ) -> impl Stream<Item = Result<EventRow, StoreError>> + Send + 'static {
        let rows = self.reads().rows(RowsQuery::Stream { stream: stream.as_str().to_owned() });
        let bound = match bound {
            Bound::Time(time) => Bound::Time(time.trunc_subsecs(6)),
            position => position,
        };
        rows.take_while(move |row| {
            let within = match row.as_ref().map(EventRow::event) {
                Ok(Ok(event)) => match bound {
                    Bound::Position(last) => event.position <= last,
                    Bound::Time(time) => event.recorded_at <= time,
                },
                // An error is passed on, to end the read.
                _ => true,
            };
            std::future::ready(within)
        })
    }

    /// Every event of the given types up to position `last`, in position order, streamed as
    /// raw rows (served by the `events(event_type, position)` index).
    pub fn read_types_until(
        &self,
        event_types: &[&str],
        last: u64,
    ) -> impl Stream<Item = Result<EventRow, StoreError>> + Send + 'static {
        self.read_types_between(event_types, 0, last)
    }

    /// [`read_types_until`](Self::read_types_until) past position `after` only: the rest of
    /// the log after a snapshot.
    pub fn read_types_between(
        &self,
        event_types: &[&str],
        after: u64,
        last: u64,
    ) -> impl Stream<Item = Result<EventRow, StoreError>> + Send + 'static {
        let types = event_types.iter().map(|event_type| (*event_type).to_owned()).collect();
        self.reads().rows(RowsQuery::Types { types, after, last })
    }

    /// The log from position `from` to `last` (both inclusive), streamed as raw rows with one
    /// query: the whole-log fold's read.
    pub fn read_all_from(
        &self,
        from: u64,
        last: u64,
    ) -> impl Stream<Item = Result<EventRow, StoreError>> + Send + 'static {
        self.reads().rows(RowsQuery::Log { from, last })
    }

    /// Every distinct event type in the log, in byte order (a few index seeks, no scan).
    pub async fn event_types(&self) -> Result<Vec<String>, StoreError> {
        self.reads().event_types().await
    }

    /// The position of the first event of `event_type` at or before `last`, if any.
    pub async fn first_position_of_type(
        &self,
        event_type: &str,
        last: u64,
    ) -> Result<Option<u64>, StoreError> {
        self.reads().first_position_of_type(event_type, last).await
    }

    /// The version of the last event of `stream` (0 when the stream has no events).
    pub async fn stream_version(&self, stream: &StreamId) -> Result<u64, StoreError> {
        let version: Option<Option<i64>> = event::Entity::find()
            .select_only()
            .column_as(event::Column::StreamVersion.max(), "version")
            .filter(event::Column::StreamId.eq(stream.as_str()))
            .into_tuple()
            .one(self.read_db())
            .await?;
        Ok(version.flatten().map_or(0, from_db))
    }

    /// How many appends of this store were first written on a predicted state of the log
    /// that turned out stale, and so were decided again (PostgreSQL, `docs/architecture.md`):
    /// other processes' appends explain a miss; a lone writer's appends should never miss.
    pub fn prediction_misses(&self) -> u64 {
        self.inner.storage.prediction_misses()
    }

    /// The position of the last committed event (0 for an empty log).
    pub async fn head_position(&self) -> Result<u64, StoreError> {
        let head: Option<Option<i64>> = event::Entity::find()
            .select_only()
            .column_as(event::Column::Position.max(), "head")
            .into_tuple()
            .one(self.read_db())
            .await?;
        Ok(head.flatten().map_or(0, from_db))
    }

    /// Every event from `from_position` (inclusive) on: first those already committed, then
    /// each new one after it commits, in position order, without gaps or duplicates, also
    /// for writes by other processes on PostgreSQL. The stream ends only with an error.
    ///
    /// Through [`for_reads`](Self::for_reads) the rows come from the replica while the
    /// wake-ups still come from the primary (its `NOTIFY`, this process's appends): woken
    /// for a head the replica has not replayed yet, the reader reads again after a short,
    /// growing pause until it has every event up to that head.
    pub fn subscribe(
        &self,
        from_position: u64,
    ) -> impl Stream<Item = Result<RecordedEvent, StoreError>> + Send + 'static {
        let store = self.clone();
        async_stream::try_stream! {
            let mut wake = store.inner.head.subscribe();
            store.start_listener().await?;
            let mut next = from_position.max(1);
            let mut lag_retry = LAG_RETRY_FIRST;
            loop {
                // Mark the wake-up as seen *before* reading, so a commit that lands after the
                // read returns still wakes us.
                let announced = *wake.borrow_and_update();
                let read_from = next;
                // Catch up to the head as it is now, page by page.
                let mut committed = std::pin::pin!(store.stream_all(next));
                while let Some(event) = committed.next().await {
                    let event = event?;
                    next = event.position + 1;
                    yield event;
                }
                // Committed on the primary but not readable here yet (replica lag): read
                // again at the next wake-up or after a short pause, which grows only while
                // the replica shows nothing new (under steady appends it keeps moving).
                let lagging = next <= announced;
                if !lagging || next > read_from {
                    lag_retry = LAG_RETRY_FIRST;
                }
                let pause = if lagging { lag_retry } else { POLL_INTERVAL };
                tokio::select! {
                    changed = wake.changed() => {
                        if changed.is_err() {
                            // Cannot happen while `store` is alive; poll instead of spinning.
                            tokio::time::sleep(pause).await;
                        }
                    }
                    () = tokio::time::sleep(pause) => {}
                }
                if lagging {
                    lag_retry = (lag_retry * 2).min(LAG_RETRY_MAX);
                }
            }
        }
    }

    /// Starts (once) the task that turns other processes' commits into wake-ups, where the
    /// database tells of them; it is listening before this returns, so no later commit is
    /// missed.
    async fn start_listener(&self) -> Result<(), StoreError> {
        self.inner
            .listener
            .get_or_try_init(|| self.inner.storage.listen(self.inner.head.clone()))
            .await?;
        Ok(())
    }

    /// Reads the log from position 1 to `last` once, in position order, handing out its
    /// rows in batches; with `check_chain`, walks the hash chain as it reads (as
    /// [`verify`](Self::verify) does) and stops at the first break. The reader runs on a
    /// connection of its own beside the caller; see `scan.rs`.
    pub async fn scan_log(&self, last: u64, check_chain: bool) -> Result<LogScan, StoreError> {
        LogScan::start(check_chain, |walk, batches| self.inner.storage.scan(last, walk, batches))
            .await
    }

    /// Walks the hash chain from position 1 and reports the first event whose position,
    /// link or hash is wrong, or how many events are intact: the scan of a rebuild
    /// ([`scan_log`](Self::scan_log)), its rows dropped as they come.
    pub async fn verify(&self) -> Result<VerifyReport, StoreError> {
        let mut scan = self.scan_log(u64::MAX, true).await?;
        while scan.next().await.is_some() {}
        let end = scan.finish().await?;
        Ok(end.chain.unwrap_or(VerifyReport { events_verified: 0, first_bad: None }))
    }
}

impl Committer for EventStore {
    fn group(&self) -> &GroupCommit {
        &self.inner.group
    }

    fn storage(&self) -> &dyn Storage {
        self.inner.storage.as_ref()
    }

    fn primary(&self) -> &DatabaseConnection {
        &self.inner.db
    }

    fn announce(&self, position: u64) {
        EventStore::announce(self, position);
    }
}

/// A stored row as a [`RecordedEvent`]; a row altered into something undecodable is
/// [`StoreError::Corrupt`].
fn decode(row: event::Model) -> Result<RecordedEvent, StoreError> {
    let position = from_db(row.position);
    let corrupt = |reason: String| StoreError::Corrupt { position, reason };
    Ok(RecordedEvent {
        position,
        stream_id: StreamId::new(row.stream_id).map_err(|error| corrupt(error.to_string()))?,
        stream_version: from_db(row.stream_version),
        event_id: row.event_id,
        event_type: row.event_type,
        schema_version: row.schema_version,
        payload: serde_json::from_str(&row.payload)
            .map_err(|error| corrupt(format!("payload: {error}")))?,
        metadata: serde_json::from_str(&row.metadata)
            .map_err(|error| corrupt(format!("metadata: {error}")))?,
        recorded_at: row.recorded_at,
        prev_hash: row.prev_hash,
        hash: row.hash,
    })
}

/// The engine a URL names.
fn backend_of(url: &str) -> Result<DbBackend, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(DbBackend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(DbBackend::Postgres)
    } else {
        Err(StoreError::UnsupportedDatabase { url: url.to_owned() })
    }
}

/// The one-host URL to connect to: `url` itself, or for a multi-host URL the host it wants
/// now ([`HostList::find`]), with the list and that host's index to follow it from.
async fn on_one_host(
    url: &str,
    hosts: Option<HostList>,
) -> Result<(String, Option<(HostList, usize)>), StoreError> {
    match hosts {
        None => Ok((url.to_owned(), None)),
        Some(hosts) => {
            let current = hosts.find().await?;
            Ok((hosts.urls[current].clone(), Some((hosts, current))))
        }
    }
}

/// The pool options every connection of the store starts from.
fn connect_options(url: &str) -> ConnectOptions {
    let mut options = ConnectOptions::new(url);
    // sqlx would otherwise ping every connection it hands out: one extra round trip per
    // operation. Only connections idle for a while are checked.
    options.sqlx_logging(false).test_before_acquire_if_idle_for(IDLE_BEFORE_PING);
    options
}
