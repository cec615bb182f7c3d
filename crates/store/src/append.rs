//! The write path: validation, group commit, and one transaction per group on each database.
//!
//! Appends queue up in the store; whichever caller finds the commit slot free takes everything
//! queued (up to [`MAX_GROUP_EVENTS`] events) and commits it as one transaction, in a task of
//! its own so that a caller giving up cannot abandon the others' commit. Inside the
//! transaction every append keeps its own semantics, in queue order: a reused idempotency key
//! answers with the first outcome, a stale expected version is a conflict that writes nothing
//! for that append only, and the others go on. Every caller hears back only after the commit.
//! Under load many appends share one commit (one fsync); alone, an append commits at once.
//!
//! If a group's transaction fails as a whole (a database error), each of its appends is
//! retried alone, so one failing append cannot fail its neighbours.
//!
//! - PostgreSQL: one statement in autocommit, one round trip per group when this process's
//!   picture of the log holds. The store remembers the head it last saw (position, hash,
//!   commit time) and stream versions, decides every append of the group against that
//!   prediction and hashes the rows itself; `league_append_hashed` (migration
//!   `m20261124_000001_client_hashed_append`) checks the prediction under the append lock and
//!   inserts the rows, or writes nothing and answers the real state, on which the group is
//!   decided again. After a second miss `league_append` (`m20261123_000003`) decides and hashes
//!   the group in the server.
//! - SQLite file: the store's own write connection (`sqlite_writer`): the whole transaction in
//!   one trip to a blocking thread.
//! - SQLite in memory (no second connection can open it): one `BEGIN IMMEDIATE` transaction on
//!   the pool's sqlx connection; per append one statement reads the stream's version, the
//!   idempotency key's earlier outcome and (first append of the group) the log's head, then
//!   the rows are hashed here and inserted with multi-row `INSERT OR FAIL`s of at most
//!   [`SQLITE_ROWS_PER_INSERT`] rows, the key's row riding in the last one's statement.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use sea_orm::sqlx::{self, Row};
use sea_orm::{DbBackend, DbErr, EntityTrait, RuntimeErr, SqlErr};
use tokio::sync::oneshot;
use uuid::Uuid;

use crate::entity::idempotency_key;
use crate::hash::{ChainFields, GENESIS_HASH, canonical_json, format_time};
use crate::store::{from_db, to_db};
use crate::types::MAX_EVENT_TYPE_LEN;
use crate::{
    AppendOutcome, EventStore, ExpectedVersion, Metadata, NewEvent, RecordedEvent, StoreError,
    StreamId,
};

/// A group stops growing once it holds this many events (an append is never split).
pub(crate) const MAX_GROUP_EVENTS: usize = 2000;
/// Rows per multi-row `INSERT` on SQLite (11 parameters each): a batch of 100 is one
/// statement, and a statement stays far below SQLite's parameter limit. Every size up to this
/// is its own prepared statement in sqlx's per-connection cache.
pub(crate) const SQLITE_ROWS_PER_INSERT: usize = 100;

/// One append as the database sees it.
pub(crate) struct Request {
    pub(crate) stream: StreamId,
    pub(crate) expected: ExpectedVersion,
    pub(crate) idempotency_key: Option<String>,
    pub(crate) metadata: String,
    pub(crate) events: Vec<RowInput>,
}

pub(crate) struct RowInput {
    pub(crate) event_id: Uuid,
    pub(crate) event_type: String,
    pub(crate) schema_version: i32,
    pub(crate) payload: String,
}

/// What the database assigned to one written event.
pub(crate) struct Stamp {
    pub(crate) position: u64,
    pub(crate) stream_version: u64,
    pub(crate) recorded_at: DateTime<Utc>,
    pub(crate) prev_hash: String,
    pub(crate) hash: String,
}

/// How one append of a group ended.
pub(crate) enum Decided {
    Written(Vec<Stamp>),
    Deduplicated { first_position: u64, last_position: u64, stream_version: u64 },
    Conflict { actual: u64 },
}

/// A group's transaction failed; `rolled_back` when it certainly wrote nothing.
pub(crate) struct GroupFailed {
    pub(crate) error: StoreError,
    pub(crate) rolled_back: bool,
}

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
    /// PostgreSQL: what this process last saw of the log, to predict the next group's state.
    known: std::sync::Mutex<Known>,
}

/// What a PostgreSQL store last saw of the log: the head and the versions of the streams it
/// appended to. Only a prediction (another process may have appended since), which
/// `league_append_hashed` checks under the append lock before writing anything.
#[derive(Default)]
struct Known {
    head: Option<Head>,
    versions: HashMap<String, u64>,
}

/// The log's last event as far as the chain is concerned.
#[derive(Clone)]
struct Head {
    position: u64,
    hash: String,
    recorded_at: Option<DateTime<Utc>>,
}

/// Streams whose versions a store remembers at most; past it the memory starts over (a
/// forgotten stream costs one missed prediction, not a wrong answer).
const KNOWN_STREAMS: usize = 10_000;

/// A group's state as `league_append_hashed` found it when the prediction missed.
#[derive(Default)]
struct Found {
    used_keys: HashMap<String, (u64, u64, u64)>,
    versions: HashMap<String, u64>,
}

impl EventStore {
    /// Appends `events` to `stream` atomically, after checking `expected` (see the crate docs).
    pub async fn append(
        &self,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
        metadata: Metadata,
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

        match self.submit(request).await? {
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
            Decided::Deduplicated { first_position, last_position, stream_version } => {
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

    /// Queues `request` and waits for its commit: either another caller's group takes it, or
    /// this caller finds the commit slot free and commits everything queued.
    async fn submit(&self, request: Request) -> Result<Decided, StoreError> {
        let group = &self.inner.group;
        let (reply, mut answer) = oneshot::channel();
        lock_queue(&group.queue).push_back(Pending { request, reply });
        tokio::select! {
            biased;
            decided = &mut answer => return decided.unwrap_or_else(|_| Err(lost())),
            slot = group.slot.clone().lock_owned() => {
                let batch = take_group(&mut lock_queue(&group.queue));
                if !batch.is_empty() {
                    // A task of its own: the group commits even if this caller is cancelled.
                    let store = self.clone();
                    tokio::spawn(async move {
                        store.commit_group(batch).await;
                        drop(slot);
                    });
                }
                // An empty queue means an earlier group took this request; its answer comes.
            }
        }
        answer.await.unwrap_or_else(|_| Err(lost()))
    }

    /// Commits one group and answers each of its callers.
    async fn commit_group(&self, batch: Vec<Pending>) {
        let (requests, replies): (Vec<Arc<Request>>, Vec<_>) =
            batch.into_iter().map(|pending| (Arc::new(pending.request), pending.reply)).unzip();
        let results = match self.write_group(&requests).await {
            Ok(decided) => decided.into_iter().map(Ok).collect(),
            Err(failed) if requests.len() == 1 => vec![Err(failed.error)],
            Err(GroupFailed { rolled_back: true, .. }) => {
                let mut results = Vec::with_capacity(requests.len());
                for request in &requests {
                    results.push(self.write_alone(request).await);
                }
                results
            }
            Err(GroupFailed { error, rolled_back: false }) => {
                // The commit itself failed (e.g. the connection dropped): the group may or may
                // not be in the log, so retrying could write it twice. Everyone hears so.
                let text = error.to_string();
                let mut results = vec![Err(error)];
                results.extend(requests.iter().skip(1).map(|_| {
                    Err(StoreError::Database(DbErr::Custom(format!(
                        "the append's group commit failed, it may or may not have been committed: {text}"
                    ))))
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
            self.announce(last_position);
        }
    }

    /// One append in a transaction of its own; a unique-key violation on its idempotency key
    /// (another writer won the key) is answered with the winner's outcome.
    async fn write_alone(&self, request: &Arc<Request>) -> Result<Decided, StoreError> {
        match self.write_group(std::slice::from_ref(request)).await {
            Ok(mut decided) => decided.pop().ok_or_else(lost),
            Err(GroupFailed { error, .. }) => {
                let key_taken = matches!(
                    &error,
                    StoreError::Database(db) if matches!(db.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
                );
                if key_taken
                    && let Some(key) = &request.idempotency_key
                    && let Some(earlier) = idempotency_key::Entity::find_by_id(key.clone())
                        .one(self.connection())
                        .await?
                {
                    return Ok(Decided::Deduplicated {
                        first_position: from_db(earlier.first_position),
                        last_position: from_db(earlier.last_position),
                        stream_version: from_db(earlier.stream_version),
                    });
                }
                Err(error)
            }
        }
    }

    async fn write_group(&self, requests: &[Arc<Request>]) -> Result<Vec<Decided>, GroupFailed> {
        match self.backend() {
            DbBackend::Postgres => self.write_group_postgres(requests).await.map_err(|error| {
                // An error the server reported ends the statement's transaction: nothing was
                // written. Any other (I/O) error leaves the outcome unknown.
                let rolled_back = matches!(
                    &error,
                    StoreError::Database(DbErr::Exec(RuntimeErr::SqlxError(sqlx_error)))
                        if matches!(**sqlx_error, sqlx::Error::Database(_))
                );
                GroupFailed { error, rolled_back }
            }),
            _ => self.write_group_sqlite(requests).await,
        }
    }

    /// PostgreSQL: the group decided and hashed here against the state this process predicts,
    /// and written by one call of `league_append_hashed`, which checks the prediction under
    /// the append lock: one round trip when it holds. When it misses (another process
    /// appended, a stream or key this process has not seen), the function answers the real
    /// state and the group is decided again on it; after a second miss (yet another writer in
    /// between), `league_append` decides and hashes the group in the server.
    async fn write_group_postgres(
        &self,
        requests: &[Arc<Request>],
    ) -> Result<Vec<Decided>, StoreError> {
        let mut found = Found::default();
        let mut head = lock_known(&self.inner.group.known).head.clone();
        for _ in 0..2 {
            let now = Utc::now().trunc_subsecs(6);
            let plan = {
                let known = lock_known(&self.inner.group.known);
                let start = head.clone().unwrap_or_else(|| Head {
                    position: 0,
                    hash: GENESIS_HASH.to_owned(),
                    recorded_at: None,
                });
                plan_group(requests, &found, &known, start, now)
            };
            if plan.checks.is_empty() && plan.check_keys.is_empty() {
                // Every append answers a key found used: nothing to check or write.
                return Ok(plan.decided);
            }
            match self.call_hashed(requests, &plan).await? {
                None => {
                    let mut known = lock_known(&self.inner.group.known);
                    known.head = Some(plan.end);
                    known.remember(plan.versions.into_iter().map(|(s, v)| (s.to_owned(), v)));
                    return Ok(plan.decided);
                }
                Some((real_head, real)) => {
                    lock_known(&self.inner.group.known)
                        .remember(real.versions.iter().map(|(s, v)| (s.clone(), *v)));
                    head = Some(real_head);
                    found = real;
                }
            }
        }
        let decided = self.write_group_postgres_server(requests).await?;
        let mut known = lock_known(&self.inner.group.known);
        for (request, decided) in requests.iter().zip(&decided) {
            match decided {
                Decided::Written(stamps) => {
                    if let Some(last) = stamps.last() {
                        known.head = Some(Head {
                            position: last.position,
                            hash: last.hash.clone(),
                            recorded_at: Some(last.recorded_at),
                        });
                        known.remember([(request.stream.as_str().to_owned(), last.stream_version)]);
                    }
                }
                Decided::Conflict { actual } => {
                    known.remember([(request.stream.as_str().to_owned(), *actual)]);
                }
                Decided::Deduplicated { .. } => {}
            }
        }
        Ok(decided)
    }

    /// One call of `league_append_hashed` with the group as `plan` decided it: `None` when it
    /// was written, or the head and state the function found when the prediction missed.
    async fn call_hashed(
        &self,
        requests: &[Arc<Request>],
        plan: &Plan<'_>,
    ) -> Result<Option<(Head, Found)>, StoreError> {
        let mut streams = Vec::new();
        let mut metadata = Vec::new();
        let mut ev_append = Vec::new();
        let mut ev_versions = Vec::new();
        let mut event_ids = Vec::new();
        let mut types = Vec::new();
        let mut schemas = Vec::new();
        let mut payloads = Vec::new();
        let mut prev_hashes = Vec::new();
        let mut hashes = Vec::new();
        let mut key_keys = Vec::new();
        let mut key_streams = Vec::new();
        let mut key_first = Vec::new();
        let mut key_last = Vec::new();
        let mut key_versions = Vec::new();
        for (request, decided) in requests.iter().zip(&plan.decided) {
            let Decided::Written(stamps) = decided else { continue };
            streams.push(request.stream.as_str());
            metadata.push(request.metadata.as_str());
            let index = i32::try_from(streams.len()).unwrap_or(i32::MAX);
            for (event, stamp) in request.events.iter().zip(stamps) {
                ev_append.push(index);
                ev_versions.push(to_db(stamp.stream_version));
                event_ids.push(event.event_id);
                types.push(event.event_type.as_str());
                schemas.push(event.schema_version);
                payloads.push(event.payload.as_str());
                prev_hashes.push(stamp.prev_hash.as_str());
                hashes.push(stamp.hash.as_str());
            }
            if let (Some(key), Some(first), Some(last)) =
                (&request.idempotency_key, stamps.first(), stamps.last())
            {
                key_keys.push(key.as_str());
                key_streams.push(request.stream.as_str());
                key_first.push(to_db(first.position));
                key_last.push(to_db(last.position));
                key_versions.push(to_db(last.stream_version));
            }
        }
        let (check_streams, check_versions): (Vec<&str>, Vec<i64>) =
            plan.checks.iter().map(|(stream, version)| (*stream, to_db(*version))).unzip();
        let rows = sqlx::query(
            "SELECT r_kind, r_name, r_position, r_last_position, r_version, r_hash, r_time \
             FROM league_append_hashed($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
             $14, $15, $16, $17, $18, $19, $20, $21)",
        )
        .bind(to_db(plan.start.position))
        .bind(plan.start.hash.as_str())
        .bind(plan.time)
        .bind(&plan.check_keys)
        .bind(check_streams)
        .bind(check_versions)
        .bind(streams)
        .bind(metadata)
        .bind(ev_append)
        .bind(ev_versions)
        .bind(event_ids)
        .bind(types)
        .bind(schemas)
        .bind(payloads)
        .bind(prev_hashes)
        .bind(hashes)
        .bind(key_keys)
        .bind(key_streams)
        .bind(key_first)
        .bind(key_last)
        .bind(key_versions)
        .fetch_all(self.connection().get_postgres_connection_pool())
        .await
        .map_err(database_error)?;

        let mut head = None;
        let mut found = Found::default();
        for row in rows {
            let kind: String = row.try_get(0).map_err(database_error)?;
            let name: Option<String> = row.try_get(1).map_err(database_error)?;
            let position: Option<i64> = row.try_get(2).map_err(database_error)?;
            let last: Option<i64> = row.try_get(3).map_err(database_error)?;
            let version: Option<i64> = row.try_get(4).map_err(database_error)?;
            match (kind.as_str(), name) {
                ("written", _) => return Ok(None),
                ("head", _) => {
                    head = Some(Head {
                        position: position.map_or(0, from_db),
                        hash: row
                            .try_get::<Option<String>, _>(5)
                            .map_err(database_error)?
                            .unwrap_or_else(|| GENESIS_HASH.to_owned()),
                        recorded_at: row.try_get(6).map_err(database_error)?,
                    });
                }
                ("key", Some(key)) => {
                    let field = |value: Option<i64>| value.map_or(0, from_db);
                    found.used_keys.insert(key, (field(position), field(last), field(version)));
                }
                ("stream", Some(stream)) => {
                    found.versions.insert(stream, version.map_or(0, from_db));
                }
                (other, _) => {
                    return Err(unexpected(&format!("league_append_hashed answered {other:?}")));
                }
            }
        }
        let head = head.ok_or_else(|| unexpected("league_append_hashed: no head"))?;
        Ok(Some((head, found)))
    }

    /// PostgreSQL: the whole group in one call of `league_append`, one round trip; the server
    /// decides every append and chains the hashes itself.
    async fn write_group_postgres_server(
        &self,
        requests: &[Arc<Request>],
    ) -> Result<Vec<Decided>, StoreError> {
        let events = requests.iter().flat_map(|request| &request.events);
        let streams: Vec<&str> = requests.iter().map(|request| request.stream.as_str()).collect();
        let expected: Vec<Option<i64>> = requests
            .iter()
            .map(|request| match request.expected {
                ExpectedVersion::Any => None,
                ExpectedVersion::NoStream => Some(0),
                ExpectedVersion::Exact(version) => Some(to_db(version)),
            })
            .collect();
        let keys: Vec<Option<&str>> =
            requests.iter().map(|request| request.idempotency_key.as_deref()).collect();
        let metadata: Vec<&str> =
            requests.iter().map(|request| request.metadata.as_str()).collect();
        let counts: Vec<i32> = requests
            .iter()
            .map(|request| i32::try_from(request.events.len()).unwrap_or(i32::MAX))
            .collect();
        let event_ids: Vec<Uuid> = events.clone().map(|event| event.event_id).collect();
        let types: Vec<&str> = events.clone().map(|event| event.event_type.as_str()).collect();
        let schemas: Vec<i32> = events.clone().map(|event| event.schema_version).collect();
        let payloads: Vec<&str> = events.map(|event| event.payload.as_str()).collect();

        let rows = sqlx::query(
            "SELECT r_append, r_outcome, r_position, r_last_position, r_version, r_recorded_at, \
             r_prev_hash, r_hash FROM league_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(Utc::now().trunc_subsecs(6))
        .bind(streams)
        .bind(expected)
        .bind(keys)
        .bind(metadata)
        .bind(counts)
        .bind(event_ids)
        .bind(types)
        .bind(schemas)
        .bind(payloads)
        .fetch_all(self.connection().get_postgres_connection_pool())
        .await
        .map_err(database_error)?;

        let mut decided: Vec<Option<Decided>> = requests.iter().map(|_| None).collect();
        for row in rows {
            let append: i32 = row.try_get(0).map_err(database_error)?;
            let outcome: String = row.try_get(1).map_err(database_error)?;
            let position: Option<i64> = row.try_get(2).map_err(database_error)?;
            let last_position: Option<i64> = row.try_get(3).map_err(database_error)?;
            let version: Option<i64> = row.try_get(4).map_err(database_error)?;
            let slot = usize::try_from(append - 1)
                .ok()
                .and_then(|index| decided.get_mut(index))
                .ok_or_else(|| unexpected("league_append answered for an unknown append"))?;
            let position = position.map_or(0, from_db);
            let version = version.map_or(0, from_db);
            match outcome.as_str() {
                "written" => {
                    let stamp = Stamp {
                        position,
                        stream_version: version,
                        recorded_at: row.try_get(5).map_err(database_error)?,
                        prev_hash: row.try_get(6).map_err(database_error)?,
                        hash: row.try_get(7).map_err(database_error)?,
                    };
                    match slot {
                        Some(Decided::Written(stamps)) => stamps.push(stamp),
                        _ => *slot = Some(Decided::Written(vec![stamp])),
                    }
                }
                "deduplicated" => {
                    *slot = Some(Decided::Deduplicated {
                        first_position: position,
                        last_position: last_position.map_or(0, from_db),
                        stream_version: version,
                    });
                }
                "conflict" => *slot = Some(Decided::Conflict { actual: version }),
                other => return Err(unexpected(&format!("league_append outcome {other:?}"))),
            }
        }
        decided
            .into_iter()
            .map(|decided| decided.ok_or_else(|| unexpected("league_append skipped an append")))
            .collect()
    }

    /// SQLite: the whole group in one `BEGIN IMMEDIATE` transaction, on the store's write
    /// connection for a file, else straight on the pool's sqlx connection (the rows are
    /// already typed here; sea-orm's generic values would copy every field twice).
    async fn write_group_sqlite(
        &self,
        requests: &[Arc<Request>],
    ) -> Result<Vec<Decided>, GroupFailed> {
        let writer =
            self.sqlite_writer().await.map_err(|error| GroupFailed { error, rolled_back: true })?;
        if let Some(writer) = writer {
            let requests = requests.to_vec();
            return tokio::task::spawn_blocking(move || writer.write_group(&requests))
                .await
                .unwrap_or_else(|_| Err(GroupFailed { error: lost(), rolled_back: false }));
        }
        let pool = self.connection().get_sqlite_connection_pool();
        let mut txn = pool
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(|error| GroupFailed { error: database_error(error), rolled_back: true })?;
        match write_sqlite(&mut txn, requests).await {
            Ok(decided) => {
                txn.commit().await.map_err(|error| GroupFailed {
                    error: database_error(error),
                    rolled_back: false,
                })?;
                Ok(decided)
            }
            Err(error) => {
                // Dropping an unfinished transaction rolls it back too.
                txn.rollback().await.ok();
                Err(GroupFailed { error, rolled_back: true })
            }
        }
    }
}

/// A group decided against a predicted state, for `league_append_hashed`.
struct Plan<'a> {
    /// The predicted head the group chains on.
    start: Head,
    /// The commit time of every written event: never before the head's.
    time: DateTime<Utc>,
    /// The keys whose absence the decisions rely on.
    check_keys: Vec<&'a str>,
    /// Each stream's predicted version before the group, which the decisions rely on.
    checks: Vec<(&'a str, u64)>,
    /// Each stream's version after the group.
    versions: HashMap<&'a str, u64>,
    /// The head after the group.
    end: Head,
    decided: Vec<Decided>,
}

/// Decides every append of a group as `league_append` would on the predicted state: the head
/// `start`; the keys and stream versions the function found on a missed prediction (`found`),
/// else each stream at the version its first append expects (a caller that read the stream
/// is likelier right than this process's memory), else as last seen here, else new. Keys not
/// found are predicted unused. The events of written appends are hashed here.
fn plan_group<'a>(
    requests: &'a [Arc<Request>],
    found: &Found,
    known: &Known,
    start: Head,
    now: DateTime<Utc>,
) -> Plan<'a> {
    // Commit times never decrease along positions, even if the clock steps back.
    let time = start.recorded_at.map_or(now, |previous| previous.max(now));
    let time_text = format_time(time);
    let mut check_keys = Vec::new();
    let mut checks = Vec::new();
    let mut versions: HashMap<&str, u64> = HashMap::new();
    // Keys written by earlier appends of this group: a later append reusing one is answered
    // with that outcome, as `league_append` does.
    let mut written_keys: HashMap<&str, (u64, u64, u64)> = HashMap::new();
    let mut position = start.position;
    let mut hash = start.hash.clone();
    let mut decided = Vec::with_capacity(requests.len());
    for request in requests {
        if let Some(key) = request.idempotency_key.as_deref() {
            let earlier = found.used_keys.get(key).or_else(|| written_keys.get(key));
            if let Some(&(first_position, last_position, stream_version)) = earlier {
                decided.push(Decided::Deduplicated {
                    first_position,
                    last_position,
                    stream_version,
                });
                continue;
            }
            check_keys.push(key);
        }
        let stream = request.stream.as_str();
        let version = *versions.entry(stream).or_insert_with(|| {
            let predicted = found
                .versions
                .get(stream)
                .copied()
                .or(match request.expected {
                    ExpectedVersion::Exact(version) => Some(version),
                    ExpectedVersion::NoStream => Some(0),
                    ExpectedVersion::Any => None,
                })
                .or_else(|| known.versions.get(stream).copied())
                .unwrap_or(0);
            checks.push((stream, predicted));
            predicted
        });
        if !request.expected.admits(version) {
            decided.push(Decided::Conflict { actual: version });
            continue;
        }
        let stamps = chain(request, position, version, time, &time_text, &mut hash);
        let count = request.events.len() as u64;
        if let Some(key) = request.idempotency_key.as_deref() {
            written_keys.insert(key, (position + 1, position + count, version + count));
        }
        position += count;
        versions.insert(stream, version + count);
        decided.push(Decided::Written(stamps));
    }
    Plan {
        end: Head { position, hash, recorded_at: Some(time) },
        start,
        time,
        check_keys,
        checks,
        versions,
        decided,
    }
}

impl Known {
    /// Remembers stream versions seen in the log, starting over past [`KNOWN_STREAMS`].
    fn remember(&mut self, versions: impl IntoIterator<Item = (String, u64)>) {
        for (stream, version) in versions {
            if self.versions.len() >= KNOWN_STREAMS && !self.versions.contains_key(&stream) {
                self.versions.clear();
            }
            self.versions.insert(stream, version);
        }
    }
}

fn lock_known(known: &std::sync::Mutex<Known>) -> std::sync::MutexGuard<'_, Known> {
    // Every update leaves a consistent prediction, and a wrong one is only a missed guess.
    known.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One append's starting point, read in one statement: the stream's version, the earlier
/// outcome of its idempotency key if any, and the log's head (used for the group's first
/// append only; the group tracks the head itself after that).
pub(crate) const SQLITE_TIP: &str = "SELECT (SELECT MAX(stream_version) FROM events WHERE stream_id = ?1), \
        k.first_position, k.last_position, k.stream_version, h.position, h.hash, h.recorded_at \
     FROM (SELECT 1) \
     LEFT JOIN idempotency_keys k ON k.idempotency_key = ?2 \
     LEFT JOIN (SELECT position, hash, recorded_at FROM events ORDER BY position DESC LIMIT 1) h \
       ON 1";

/// Rows of the event log as one multi-row `INSERT`. `OR FAIL` rather than the default
/// `ABORT`: a failing row then leaves the statement's earlier rows in place instead of making
/// SQLite keep a statement journal to undo them, which costs a copy of every page the
/// statement touches; the whole transaction is rolled back on any error anyway.
const SQLITE_INSERT: &str = "INSERT OR FAIL INTO events (position, stream_id, stream_version, \
    event_id, event_type, schema_version, payload, metadata, recorded_at, prev_hash, hash) VALUES ";
const SQLITE_ROW: &str = "(?,?,?,?,?,?,?,?,?,?,?)";
pub(crate) const SQLITE_KEY: &str = "INSERT INTO idempotency_keys \
    (idempotency_key, stream_id, first_position, last_position, stream_version) \
    VALUES (?, ?, ?, ?, ?)";

async fn write_sqlite(
    txn: &mut sqlx::SqliteConnection,
    requests: &[Arc<Request>],
) -> Result<Vec<Decided>, StoreError> {
    // The log's head: position, hash and time of the last event, once the first tip is read.
    let mut head: Option<(u64, String, DateTime<Utc>)> = None;
    let mut decided = Vec::with_capacity(requests.len());
    for request in requests {
        let tip = sqlx::query(SQLITE_TIP)
            .bind(request.stream.as_str())
            .bind(request.idempotency_key.as_deref())
            .fetch_one(&mut *txn)
            .await
            .map_err(database_error)?;
        if head.is_none() {
            let position: Option<i64> = tip.try_get(4).map_err(database_error)?;
            let hash: Option<String> = tip.try_get(5).map_err(database_error)?;
            let time: Option<DateTime<Utc>> = tip.try_get(6).map_err(database_error)?;
            // Commit times never decrease along positions, so "everything up to time T" is a
            // prefix of the log even if the clock steps back.
            let now = Utc::now().trunc_subsecs(6);
            head = Some((
                position.map_or(0, from_db),
                hash.unwrap_or_else(|| GENESIS_HASH.to_owned()),
                time.map_or(now, |previous| previous.max(now)),
            ));
        }
        let (head_position, head_hash, recorded_at) =
            head.as_mut().ok_or_else(|| unexpected("the log's head"))?;
        if let Some(first_position) = tip.try_get::<Option<i64>, _>(1).map_err(database_error)? {
            decided.push(Decided::Deduplicated {
                first_position: from_db(first_position),
                last_position: from_db(tip.try_get::<i64, _>(2).map_err(database_error)?),
                stream_version: from_db(tip.try_get::<i64, _>(3).map_err(database_error)?),
            });
            continue;
        }
        let version = tip.try_get::<Option<i64>, _>(0).map_err(database_error)?.map_or(0, from_db);
        if !request.expected.admits(version) {
            decided.push(Decided::Conflict { actual: version });
            continue;
        }

        let first = *head_position + 1;
        let hashed_time = format_time(*recorded_at);
        let stamps = chain(request, *head_position, version, *recorded_at, &hashed_time, head_hash);
        let count = request.events.len() as u64;
        *head_position += count;
        // The time as sqlx writes a `DateTime<Utc>`, formatted once for every row.
        let time_text = recorded_at.to_rfc3339_opts(SecondsFormat::AutoSi, false);
        let chunks = request.events.len().div_ceil(SQLITE_ROWS_PER_INSERT);
        for (index, (events, stamps)) in request
            .events
            .chunks(SQLITE_ROWS_PER_INSERT)
            .zip(stamps.chunks(SQLITE_ROWS_PER_INSERT))
            .enumerate()
        {
            // The idempotency key rides with the last chunk: one statement, one round trip.
            let key = request.idempotency_key.as_deref().filter(|_| index + 1 == chunks);
            let sql = insert_sql(events.len(), key.is_some());
            // Built from the constant texts above only: nothing of the caller's is in the SQL.
            let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
            for (event, stamp) in events.iter().zip(stamps) {
                insert = insert
                    .bind(to_db(stamp.position))
                    .bind(request.stream.as_str())
                    .bind(to_db(stamp.stream_version))
                    .bind(event.event_id)
                    .bind(event.event_type.as_str())
                    .bind(event.schema_version)
                    .bind(event.payload.as_str())
                    .bind(request.metadata.as_str())
                    .bind(time_text.as_str())
                    .bind(stamp.prev_hash.as_str())
                    .bind(stamp.hash.as_str());
            }
            if let Some(key) = key {
                insert = insert
                    .bind(key)
                    .bind(request.stream.as_str())
                    .bind(to_db(first))
                    .bind(to_db(first + count - 1))
                    .bind(to_db(version + count));
            }
            insert.execute(&mut *txn).await.map_err(database_error)?;
        }
        decided.push(Decided::Written(stamps));
    }
    Ok(decided)
}

/// The stamps of one append's rows: positions after `head_position`, stream versions after
/// `version`, one commit time, each hash chained to the one before it starting from
/// `head_hash`, which is left at the last row's hash. Every write path stamps rows here, so
/// the hashed bytes cannot differ between them.
pub(crate) fn chain(
    request: &Request,
    head_position: u64,
    version: u64,
    recorded_at: DateTime<Utc>,
    hashed_time: &str,
    head_hash: &mut String,
) -> Vec<Stamp> {
    let mut stamps = Vec::with_capacity(request.events.len());
    for (offset, event) in (1u64..).zip(&request.events) {
        let hash = ChainFields {
            position: head_position + offset,
            stream_id: request.stream.as_str(),
            stream_version: version + offset,
            event_id: event.event_id,
            event_type: &event.event_type,
            schema_version: event.schema_version,
            payload: &event.payload,
            metadata: &request.metadata,
            recorded_at,
            prev_hash: head_hash,
        }
        .hash_at(hashed_time);
        stamps.push(Stamp {
            position: head_position + offset,
            stream_version: version + offset,
            recorded_at,
            prev_hash: std::mem::replace(head_hash, hash.clone()),
            hash,
        });
    }
    stamps
}

/// The SQL of one chunk: a multi-row `INSERT` of `rows` events (at most
/// [`SQLITE_ROWS_PER_INSERT`]), then the idempotency key's row when `with_key`. Chunks of the
/// same size share the text, so sqlx's statement cache prepares each shape once.
pub(crate) fn insert_sql(rows: usize, with_key: bool) -> String {
    let mut sql = String::with_capacity(
        SQLITE_INSERT.len() + rows * (SQLITE_ROW.len() + 1) + SQLITE_KEY.len() + 2,
    );
    sql.push_str(SQLITE_INSERT);
    for index in 0..rows {
        if index > 0 {
            sql.push(',');
        }
        sql.push_str(SQLITE_ROW);
    }
    if with_key {
        sql.push_str("; ");
        sql.push_str(SQLITE_KEY);
    }
    sql
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

fn database_error(error: sqlx::Error) -> StoreError {
    StoreError::Database(DbErr::Exec(RuntimeErr::SqlxError(Arc::new(error))))
}

fn unexpected(what: &str) -> StoreError {
    StoreError::Database(DbErr::Custom(format!("unexpected answer from the database: {what}")))
}

/// The commit task ended without answering (it panicked): whether the append committed is
/// unknown, as after a lost connection.
fn lost() -> StoreError {
    StoreError::Database(DbErr::Custom(
        "the append's commit task ended without an answer; the append may or may not have \
         been committed"
            .into(),
    ))
}
