//! PostgreSQL: every SQL statement the store runs on PostgreSQL — the group commit, the
//! streaming reads, the whole-log scan's reader ([`scan_reader`]) and the `LISTEN`ing relay
//! of the live feed. Appends and the scan go through the
//! [`postgres_writer`](crate::postgres_writer)'s connections (no Nagle stalls over TCP;
//! binary rows for the scan); everything else through sqlx.
//!
//! **Reads on a hot standby**: the streaming reads are [`PostgresReads`], one pool's worth of
//! SELECTs, so a store given a replica reads the log there with the very same statements
//! (`EventStore::connect_with_replica`). Everything else stays on the primary: a standby
//! refuses writes and `LISTEN`, and `NOTIFY` is not replicated, so the relay listens on the
//! primary and the reader then fetches the rows from the standby.
//!
//! **Writes**: one statement in autocommit, one round trip per group when this process's
//! picture of the log holds. The store remembers the head it last saw (position, hash,
//! commit time) and stream versions, [`decide`]s the group against that prediction and
//! hashes the rows itself; `league_append_hashed` (migration
//! `m20261124_000001_client_hashed_append`) checks the prediction under the append lock and
//! inserts the rows, or writes nothing and answers the real state, on which the group is
//! decided again. A lone append of one event without a key (a single caller's usual group)
//! is one plain `INSERT … SELECT … WHERE` instead ([`APPEND_LONE`]), which costs the server
//! about half as much; it answers only whether it wrote. After a second miss of the function,
//! or a miss of that statement, `league_append` (`m20261123_000003`) decides and hashes the
//! group in the server, under the lock. That fallback stays: a third Rust decision
//! could miss again whenever another process appends between the answer and the next call,
//! so only a decision taken under the lock bounds an append's round trips under contention.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use chrono::{DateTime, SubsecRound, Utc};
use deadpool_postgres::GenericClient;
use futures::TryStreamExt;
use futures::future::BoxFuture;
use futures::stream::BoxStream;
use sea_orm::sqlx::postgres::{PgListener, PgPool, Postgres};
use sea_orm::sqlx::query::Query;
use sea_orm::sqlx::{self, Database, Pool};
use sea_orm::{ConnectOptions, DbErr};
use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use crate::convert::{from_db, to_db};
use crate::decide::{Decided, Head, KeyOutcome, Plan, Request, RowInput, Stamp, Tip, decide};
use crate::entity::{event, idempotency_key};
use crate::error::database_error;
use crate::failover::{self, Following, HostList};
use crate::hash::GENESIS_HASH;
use crate::postgres_writer::{PostgresWriter, failed, query, query_unless_taken};
use crate::row::{EventRow, raw_columns};
use crate::scan::{Fields, LogBatch, Next, ScanReader, Walk, scan_columns};
use crate::storage::{
    ArgumentsOf, GroupFailed, PersonKeyRow, Reads, Restore, RowsQuery, SqlReads, Storage,
};
use crate::{ExpectedVersion, KeyChange, PERSON_KEY_BYTES, StoreError};

/// The PostgreSQL `LISTEN`/`NOTIFY` channel; the payload is the new head position.
pub const NOTIFY_CHANNEL: &str = "league_events";

const POOL_SIZE: u32 = 10;
/// The relay re-listens after an error this long later.
const RETRY_AFTER: Duration = Duration::from_secs(1);
/// Streams whose versions a store remembers at most; past it the memory starts over (a
/// forgotten stream costs one missed prediction, not a wrong answer).
const KNOWN_STREAMS: usize = 10_000;

const STREAM_ROWS: &str =
    concat!("SELECT ", raw_columns!(), " FROM events WHERE stream_id = $1 ORDER BY stream_version");
const TYPES_ROWS: &str = concat!(
    "SELECT ",
    raw_columns!(),
    " FROM events WHERE event_type = ANY($2) AND position > $3 AND position <= $1 ORDER BY position"
);
const LOG_ROWS: &str = concat!(
    "SELECT ",
    raw_columns!(),
    " FROM events WHERE position BETWEEN $1 AND $2 ORDER BY position"
);
/// The next event type after a given one, by the `events(event_type, position)` index.
const NEXT_TYPE: &str = "SELECT min(event_type) FROM events WHERE event_type > $1";
/// The first position of an event type up to a bound (same index).
const FIRST_OF_TYPE: &str =
    "SELECT min(position) FROM events WHERE event_type = $1 AND position <= $2";
/// The whole log up to position `$1`, for the scan of a rebuild ([`scan_reader`]).
const SCAN: &str =
    concat!("SELECT ", scan_columns!(), " FROM events WHERE position <= $1 ORDER BY position");
const APPEND_HASHED: &str = "SELECT r_kind, r_name, r_position, r_last_position, r_version, \
    r_hash, r_time FROM league_append_hashed($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
    $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)";
/// A lone append of one event without an idempotency key (the commonest group when callers
/// do not overlap), as one plain statement rather than a function call: the server starts a
/// handful of plan nodes instead of a plpgsql function's seven statements (≈ half the server
/// time per append). It takes the append lock, then inserts the row only if the predicted
/// head (position `$1`, hash `$2`, a commit time not after `$3`) is in the log and the stream
/// `$4` is at the predicted version `$5`; it answers one row if it wrote, none if the
/// prediction missed. Its snapshot is taken before the lock, so a prediction made stale by an
/// append that committed in between can pass those checks, but then the row's position (and
/// stream version) is already taken: the unique indexes turn it away (`ON CONFLICT DO
/// NOTHING`, so a miss is no error in the server's log either) and nothing is written. A
/// written row's head therefore was committed before it, as under the lock alone.
const APPEND_LONE: &str = "INSERT INTO events (position, stream_id, stream_version, event_id, \
    event_type, schema_version, payload, metadata, recorded_at, prev_hash, hash) \
    SELECT $1::bigint + 1, $4::text, $5::bigint + 1, $7::uuid, $8::text, $9::int, $10::text, \
    $6::text, $3::timestamptz, $2::text, $11::text \
    WHERE pg_advisory_xact_lock($12::bigint)::text = '' \
    AND ($1 = 0 OR EXISTS (SELECT 1 FROM events h \
        WHERE h.position = $1 AND h.hash = $2 AND h.recorded_at <= $3)) \
    AND coalesce((SELECT max(s.stream_version) FROM events s WHERE s.stream_id = $4), 0) = $5 \
    ON CONFLICT DO NOTHING \
    RETURNING pg_notify($13::text, position::text)::text";
/// The log's head row, which a store's first append predicts from (none for an empty log).
const HEAD_ROW: &str =
    "SELECT position, hash, recorded_at FROM events ORDER BY position DESC LIMIT 1";
const INSERT_PERSON_KEY: &str = "INSERT INTO person_keys (person_id, key) VALUES ($1, $2)";
const DELETE_PERSON_KEY: &str = "DELETE FROM person_keys WHERE person_id = $1";
const PERSON_KEYS: &str = "SELECT person_id, key FROM person_keys";
const SOME_PERSON_KEYS: &str = "SELECT person_id, key FROM person_keys WHERE person_id = ANY($1)";
const APPEND_IN_SERVER: &str = "SELECT r_append, r_outcome, r_position, r_last_position, \
    r_version, r_recorded_at, r_prev_hash, r_hash \
    FROM league_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/// The append lock's key, "league" in ASCII: the one `league_append` and
/// `league_append_hashed` take, so a restore and appends exclude each other.
const APPEND_LOCK_KEY: i64 = 119_182_681_666_917;
const TAKE_APPEND_LOCK: &str = "SELECT pg_advisory_xact_lock($1)";
/// Whether the log holds no event and no idempotency key (a restore's precondition).
const LOG_IS_EMPTY: &str = "SELECT NOT EXISTS (SELECT 1 FROM events) \
    AND NOT EXISTS (SELECT 1 FROM idempotency_keys) AND NOT EXISTS (SELECT 1 FROM person_keys)";
const RESTORE_PERSON_KEYS: &str = "INSERT INTO person_keys (person_id, key) \
    SELECT * FROM UNNEST($1::text[], $2::bytea[])";
/// A chunk of finished rows, one array per column: one statement, one round trip.
const RESTORE_EVENTS: &str = "INSERT INTO events (position, stream_id, stream_version, \
    event_id, event_type, schema_version, payload, metadata, recorded_at, prev_hash, hash) \
    SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], \
    $6::int[], $7::text[], $8::text[], $9::timestamptz[], $10::text[], $11::text[])";
const RESTORE_KEYS: &str = "INSERT INTO idempotency_keys (idempotency_key, stream_id, \
    first_position, last_position, stream_version) \
    SELECT * FROM UNNEST($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])";
/// Wakes other processes' subscribers once a restore commits (the payload is the head).
const NOTIFY_HEAD: &str =
    "SELECT pg_notify($1, (SELECT COALESCE(MAX(position), 0) FROM events)::text)";

/// The primary's WAL position now: everything committed so far lies before it.
const CURRENT_WAL: &str = "SELECT pg_current_wal_lsn()::text";
/// Whether a standby has replayed the WAL up to parameter 1 (a server that is not replaying
/// any WAL, e.g. a promoted one, has nothing to wait for: after a promotion
/// `pg_last_wal_replay_lsn()` stays where recovery ended).
const REPLAYED: &str = "SELECT NOT pg_is_in_recovery() \
    OR COALESCE(pg_last_wal_replay_lsn() >= $1::text::pg_lsn, true)";

/// The primary's current WAL position (`pg_current_wal_lsn()`), as PostgreSQL prints it.
pub(crate) async fn current_wal(primary: &PgPool) -> Result<String, StoreError> {
    let (lsn,): (String,) =
        sqlx::query_as(CURRENT_WAL).fetch_one(primary).await.map_err(database_error)?;
    Ok(lsn)
}

/// Whether the standby behind `replica` has replayed the WAL up to `lsn`.
pub(crate) async fn replayed(replica: &PgPool, lsn: &str) -> Result<bool, StoreError> {
    let (done,): (bool,) =
        sqlx::query_as(REPLAYED).bind(lsn).fetch_one(replica).await.map_err(database_error)?;
    Ok(done)
}

/// Configures the pool.
pub(crate) fn configure(options: &mut ConnectOptions) {
    options.max_connections(POOL_SIZE);
}

/// The log's streaming reads on one PostgreSQL pool: the primary's, or a hot standby's.
pub(crate) struct PostgresReads {
    pool: PgPool,
}

impl PostgresReads {
    pub(crate) fn new(pool: PgPool) -> PostgresReads {
        PostgresReads { pool }
    }
}

/// The store on PostgreSQL.
pub(crate) struct PostgresStorage {
    pool: PgPool,
    /// The log's reads, on the same pool.
    reads: PostgresReads,
    /// The connections appends are written on.
    writer: Arc<PostgresWriter>,
    /// Keeps both on the primary of a multi-host URL (stopped when dropped).
    following: Option<Following>,
    /// What this process last saw of the log, to predict the next group's state.
    known: Mutex<Known>,
    /// Groups whose prediction missed ([`EventStore::prediction_misses`](crate::EventStore)).
    misses: AtomicU64,
}

/// What a PostgreSQL store last saw of the log: the head and the versions of the streams it
/// appended to. Only a prediction (another process may have appended since), which
/// `league_append_hashed` checks under the append lock before writing anything.
#[derive(Default)]
struct Known {
    head: Option<Head>,
    versions: HashMap<String, u64>,
}

/// The state `league_append_hashed` found when a prediction missed.
struct Found {
    head: Head,
    used_keys: HashMap<String, KeyOutcome>,
    versions: HashMap<String, u64>,
}

impl PostgresStorage {
    /// The store on `pool`, writing through connections to `url` (the pool's URL); with
    /// `hosts`, a multi-host URL's hosts and the index of `url` among them, it follows the
    /// primary there ([`failover`](crate::failover)).
    pub(crate) fn new(
        pool: PgPool,
        url: &str,
        hosts: Option<(HostList, usize)>,
    ) -> Result<PostgresStorage, StoreError> {
        let writer = Arc::new(PostgresWriter::new(url)?);
        let following = hosts.map(|(hosts, current)| {
            failover::follow(hosts, current, pool.clone(), Some(writer.clone()))
        });
        Ok(PostgresStorage {
            reads: PostgresReads::new(pool.clone()),
            pool,
            writer,
            following,
            known: Mutex::default(),
            misses: AtomicU64::new(0),
        })
    }

    fn known(&self) -> MutexGuard<'_, Known> {
        // Every update leaves a consistent prediction, and a wrong one is only a missed guess.
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts a missed prediction: another process appended since this one last saw the
    /// log, a normal fallback (not an error).
    fn missed(&self, path: &str) {
        self.misses.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(path, "the predicted state of the log missed; deciding again");
    }

    /// The group decided against the predicted state, then checked and written by
    /// `league_append_hashed` (or [`APPEND_LONE`] for a lone single event); decided again on
    /// the state the function answers after a miss; decided in the server after a second
    /// miss (or after the lone statement's one).
    async fn write(&self, requests: &[Arc<Request>]) -> Result<Vec<Decided>, GroupFailed> {
        if self.known().head.is_none() {
            // A first append predicts from the log as it is, not from an empty log.
            let head = self.read_head().await?;
            self.known().head.get_or_insert(head);
        }
        let mut found: Option<Found> = None;
        for _ in 0..2 {
            let real = {
                let tip = predict(requests, found.as_ref(), &self.known());
                let plan = decide(&tip, requests, Utc::now().trunc_subsecs(6));
                if plan.checks.is_empty() && plan.check_keys.is_empty() {
                    // Every append answers a key found used: nothing to check or write.
                    return Ok(plan.decided);
                }
                let outcome = match lone_event(requests, &plan) {
                    Some(lone) => match self.append_lone(lone, &tip.head, &plan).await? {
                        true => None,
                        // The statement cannot tell what it found: the server decides.
                        false => {
                            self.missed("lone statement");
                            break;
                        }
                    },
                    None => self.call_hashed(requests, &tip.head, &plan).await?,
                };
                match outcome {
                    Some(real) => {
                        self.missed("league_append_hashed");
                        real
                    }
                    None => {
                        let mut known = self.known();
                        known.head = Some(plan.end);
                        known.remember(plan.versions.into_iter().map(|(s, v)| (s.to_owned(), v)));
                        return Ok(plan.decided);
                    }
                }
            };
            self.known().remember(real.versions.iter().map(|(s, v)| (s.clone(), *v)));
            found = Some(real);
        }
        let decided = self.write_in_server(requests).await?;
        self.known().learn(requests.iter().map(|request| request.as_ref()), &decided);
        Ok(decided)
    }

    /// The log's head row as it is now, on a write connection (the primary).
    async fn read_head(&self) -> Result<Head, GroupFailed> {
        let client = self.writer.connection().await?;
        let rows = query(&client, HEAD_ROW, &[]).await?;
        let Some(row) = rows.first() else { return Ok(Head::genesis()) };
        Ok(Head {
            position: from_db(row.try_get(0).map_err(failed)?),
            hash: row.try_get(1).map_err(failed)?,
            recorded_at: Some(row.try_get(2).map_err(failed)?),
        })
    }

    /// One call of `league_append_hashed` with the group as `plan` decided it on the head
    /// `start`: `None` when it was written, or the state the function found when the
    /// prediction missed.
    async fn call_hashed(
        &self,
        requests: &[Arc<Request>],
        start: &Head,
        plan: &Plan<'_>,
    ) -> Result<Option<Found>, GroupFailed> {
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
        let client = self.writer.connection().await?;
        let rows = query(
            &client,
            APPEND_HASHED,
            &[
                &to_db(start.position),
                &start.hash.as_str(),
                &plan.time,
                &plan.check_keys,
                &check_streams,
                &check_versions,
                &streams,
                &metadata,
                &ev_append,
                &ev_versions,
                &event_ids,
                &types,
                &schemas,
                &payloads,
                &prev_hashes,
                &hashes,
                &key_keys,
                &key_streams,
                &key_first,
                &key_last,
                &key_versions,
            ],
        )
        .await?;
        drop(client);

        let mut head = None;
        let mut used_keys = HashMap::new();
        let mut versions = HashMap::new();
        for row in rows {
            let kind: String = row.try_get(0).map_err(failed)?;
            let name: Option<String> = row.try_get(1).map_err(failed)?;
            let position: Option<i64> = row.try_get(2).map_err(failed)?;
            let last: Option<i64> = row.try_get(3).map_err(failed)?;
            let version: Option<i64> = row.try_get(4).map_err(failed)?;
            let field = |value: Option<i64>| value.map_or(0, from_db);
            match (kind.as_str(), name) {
                ("written", _) => return Ok(None),
                ("head", _) => {
                    head = Some(Head {
                        position: field(position),
                        hash: row
                            .try_get::<_, Option<String>>(5)
                            .map_err(failed)?
                            .unwrap_or_else(|| GENESIS_HASH.to_owned()),
                        recorded_at: row.try_get(6).map_err(failed)?,
                    });
                }
                ("key", Some(key)) => {
                    let outcome = KeyOutcome {
                        first_position: field(position),
                        last_position: field(last),
                        stream_version: field(version),
                    };
                    used_keys.insert(key, outcome);
                }
                ("stream", Some(stream)) => {
                    versions.insert(stream, field(version));
                }
                (other, _) => {
                    return Err(
                        unexpected(&format!("league_append_hashed answered {other:?}")).into()
                    );
                }
            }
        }
        let head =
            head.ok_or_else(|| GroupFailed::from(unexpected("league_append_hashed: no head")))?;
        Ok(Some(Found { head, used_keys, versions }))
    }

    /// [`APPEND_LONE`] for `lone` as `plan` decided it on the head `start`: whether it was
    /// written (`false`: the prediction missed, nothing was written).
    async fn append_lone(
        &self,
        lone: LoneEvent<'_>,
        start: &Head,
        plan: &Plan<'_>,
    ) -> Result<bool, GroupFailed> {
        let LoneEvent { request, event, stamp } = lone;
        let client = self.writer.connection().await?;
        let rows = query_unless_taken(
            &client,
            APPEND_LONE,
            &[
                &to_db(start.position),
                &start.hash.as_str(),
                &plan.time,
                &request.stream.as_str(),
                &to_db(stamp.stream_version - 1),
                &request.metadata.as_str(),
                &event.event_id,
                &event.event_type.as_str(),
                &event.schema_version,
                &event.payload.as_str(),
                &stamp.hash.as_str(),
                &APPEND_LOCK_KEY,
                &NOTIFY_CHANNEL,
            ],
        )
        .await?;
        Ok(rows.is_some_and(|rows| rows.len() == 1))
    }

    /// The whole group in one call of `league_append`, one round trip; the server decides
    /// every append and chains the hashes itself, under the append lock.
    async fn write_in_server(
        &self,
        requests: &[Arc<Request>],
    ) -> Result<Vec<Decided>, GroupFailed> {
        let client = self.writer.connection().await?;
        append_in_server(&client, requests).await
    }

    /// One append decided by the server (as [`Self::write_in_server`]) and, only if it is
    /// written, `change` to the key table, in one transaction: two round trips, plus the
    /// transaction's own.
    async fn write_with_key(
        &self,
        request: Request,
        change: &KeyChange,
    ) -> Result<Decided, StoreError> {
        let mut client = self.writer.connection().await.map_err(|failed| failed.error)?;
        let txn = client.transaction().await.map_err(|error| failed(error).error)?;
        let request = Arc::new(request);
        let decided = append_in_server(&txn, std::slice::from_ref(&request))
            .await
            .map_err(|failed| failed.error)?
            .pop()
            .ok_or_else(|| unexpected("league_append answered no append"))?;
        if matches!(decided, Decided::Written(_)) {
            let changed = match change {
                KeyChange::Insert { person, key } => {
                    query(&txn, INSERT_PERSON_KEY, &[&person.to_string(), &key.as_slice()]).await
                }
                KeyChange::Delete { person } => {
                    query(&txn, DELETE_PERSON_KEY, &[&person.to_string()]).await
                }
            };
            changed.map_err(|failed| failed.error)?;
        }
        txn.commit().await.map_err(|error| failed(error).error)?;
        // Committed: the next append predicts from after it.
        self.known().learn([request.as_ref()], std::slice::from_ref(&decided));
        Ok(decided)
    }
}

/// The whole group in one call of `league_append` on `client` (a write connection, or a
/// transaction on one).
async fn append_in_server(
    client: &impl GenericClient,
    requests: &[Arc<Request>],
) -> Result<Vec<Decided>, GroupFailed> {
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
    let metadata: Vec<&str> = requests.iter().map(|request| request.metadata.as_str()).collect();
    let counts: Vec<i32> = requests
        .iter()
        .map(|request| i32::try_from(request.events.len()).unwrap_or(i32::MAX))
        .collect();
    let event_ids: Vec<Uuid> = events.clone().map(|event| event.event_id).collect();
    let types: Vec<&str> = events.clone().map(|event| event.event_type.as_str()).collect();
    let schemas: Vec<i32> = events.clone().map(|event| event.schema_version).collect();
    let payloads: Vec<&str> = events.map(|event| event.payload.as_str()).collect();

    let rows = query(
        client,
        APPEND_IN_SERVER,
        &[
            &Utc::now().trunc_subsecs(6),
            &streams,
            &expected,
            &keys,
            &metadata,
            &counts,
            &event_ids,
            &types,
            &schemas,
            &payloads,
        ],
    )
    .await?;

    let mut decided: Vec<Option<Decided>> = requests.iter().map(|_| None).collect();
    for row in rows {
        let append: i32 = row.try_get(0).map_err(failed)?;
        let outcome: String = row.try_get(1).map_err(failed)?;
        let position: Option<i64> = row.try_get(2).map_err(failed)?;
        let last_position: Option<i64> = row.try_get(3).map_err(failed)?;
        let version: Option<i64> = row.try_get(4).map_err(failed)?;
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
                    recorded_at: row.try_get(5).map_err(failed)?,
                    prev_hash: row.try_get(6).map_err(failed)?,
                    hash: row.try_get(7).map_err(failed)?,
                };
                match slot {
                    Some(Decided::Written(stamps)) => stamps.push(stamp),
                    _ => *slot = Some(Decided::Written(vec![stamp])),
                }
            }
            "deduplicated" => {
                *slot = Some(Decided::Deduplicated(KeyOutcome {
                    first_position: position,
                    last_position: last_position.map_or(0, from_db),
                    stream_version: version,
                }));
            }
            "conflict" => *slot = Some(Decided::Conflict { actual: version }),
            other => return Err(unexpected(&format!("league_append outcome {other:?}")).into()),
        }
    }
    decided
        .into_iter()
        .map(|decided| decided.ok_or_else(|| unexpected("league_append skipped an append").into()))
        .collect()
}

/// The one event of a group that is a lone append of one event without an idempotency key,
/// decided written: what [`APPEND_LONE`] writes.
#[derive(Clone, Copy)]
struct LoneEvent<'a> {
    request: &'a Request,
    event: &'a RowInput,
    stamp: &'a Stamp,
}

/// The group's [`LoneEvent`], if it is one.
fn lone_event<'a>(requests: &'a [Arc<Request>], plan: &'a Plan<'_>) -> Option<LoneEvent<'a>> {
    match (requests, plan.decided.as_slice()) {
        ([request], [Decided::Written(stamps)]) if request.idempotency_key.is_none() => {
            match (request.events.as_slice(), stamps.as_slice()) {
                ([event], [stamp]) => Some(LoneEvent { request, event, stamp }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The state a group is decided on: what `league_append_hashed` found on a missed prediction,
/// else this process's memory. A stream's version is the one found, else the version its
/// first (not deduplicated) append expects (a caller that read the stream is likelier right
/// than this process's memory), else as last seen here, else new. Keys not found are
/// predicted unused.
fn predict<'a>(requests: &'a [Arc<Request>], found: Option<&'a Found>, known: &Known) -> Tip<'a> {
    let mut versions = HashMap::new();
    let mut used_keys = HashMap::new();
    let mut named_keys = std::collections::HashSet::new();
    for request in requests {
        if let Some(key) = request.idempotency_key.as_deref() {
            if let Some(earlier) = found.and_then(|found| found.used_keys.get(key)) {
                used_keys.insert(key, *earlier);
                continue;
            }
            if !named_keys.insert(key) {
                continue;
            }
        }
        let stream = request.stream.as_str();
        versions.entry(stream).or_insert_with(|| {
            found
                .and_then(|found| found.versions.get(stream).copied())
                .or(match request.expected {
                    ExpectedVersion::Exact(version) => Some(version),
                    ExpectedVersion::NoStream => Some(0),
                    ExpectedVersion::Any => None,
                })
                .or_else(|| known.versions.get(stream).copied())
                .unwrap_or(0)
        });
    }
    let head = found
        .map(|found| found.head.clone())
        .or_else(|| known.head.clone())
        .unwrap_or_else(Head::genesis);
    Tip { head, versions, used_keys }
}

impl Known {
    /// Learns from appends the server decided (and committed): the head after the last
    /// written one and each stream's version.
    fn learn<'a>(&mut self, requests: impl IntoIterator<Item = &'a Request>, decided: &[Decided]) {
        for (request, decided) in requests.into_iter().zip(decided) {
            match decided {
                Decided::Written(stamps) => {
                    if let Some(last) = stamps.last() {
                        self.head = Some(Head {
                            position: last.position,
                            hash: last.hash.clone(),
                            recorded_at: Some(last.recorded_at),
                        });
                        self.remember([(request.stream.as_str().to_owned(), last.stream_version)]);
                    }
                }
                Decided::Conflict { actual } => {
                    self.remember([(request.stream.as_str().to_owned(), *actual)]);
                }
                Decided::Deduplicated(_) => {}
            }
        }
    }

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

impl SqlReads for PostgresReads {
    type Db = Postgres;
    const STREAM_ROWS: &'static str = self::STREAM_ROWS;
    const LOG_ROWS: &'static str = self::LOG_ROWS;
    const NEXT_TYPE: &'static str = self::NEXT_TYPE;
    const FIRST_OF_TYPE: &'static str = self::FIRST_OF_TYPE;

    fn pool(&self) -> &Pool<Postgres> {
        &self.pool
    }

    fn types_rows(
        types: &[String],
        after: u64,
        last: u64,
    ) -> Query<'_, Postgres, ArgumentsOf<Postgres>> {
        sqlx::query(TYPES_ROWS).bind(to_db(last)).bind(types).bind(to_db(after))
    }

    fn event_row(row: <Postgres as Database>::Row) -> EventRow {
        EventRow::postgres(row)
    }
}

impl Reads for PostgresStorage {
    fn rows(&self, query: RowsQuery) -> BoxStream<'static, Result<EventRow, StoreError>> {
        self.reads.rows(query)
    }

    fn event_types(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.reads.event_types()
    }

    fn first_position_of_type<'a>(
        &'a self,
        event_type: &'a str,
        last: u64,
    ) -> BoxFuture<'a, Result<Option<u64>, StoreError>> {
        self.reads.first_position_of_type(event_type, last)
    }
}

impl Storage for PostgresStorage {
    fn write_with_key<'a>(
        &'a self,
        request: Request,
        change: &'a KeyChange,
    ) -> BoxFuture<'a, Result<Decided, StoreError>> {
        Box::pin(self.write_with_key(request, change))
    }

    fn prediction_misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    fn person_keys(
        &self,
        persons: Option<Vec<Uuid>>,
    ) -> BoxFuture<'_, Result<Vec<PersonKeyRow>, StoreError>> {
        Box::pin(async move {
            let query = match persons {
                None => sqlx::query_as(PERSON_KEYS),
                Some(persons) => sqlx::query_as(SOME_PERSON_KEYS)
                    .bind(persons.iter().map(Uuid::to_string).collect::<Vec<_>>()),
            };
            query.fetch_all(&self.pool).await.map_err(database_error)
        })
    }

    fn begin_restore(&self) -> BoxFuture<'_, Result<Option<Box<dyn Restore>>, StoreError>> {
        Box::pin(async move {
            let restore = PostgresRestore::begin(&self.pool).await?;
            Ok(restore.map(|restore| Box::new(restore) as Box<dyn Restore>))
        })
    }

    fn write_group<'a>(
        &'a self,
        requests: &'a [Arc<Request>],
    ) -> BoxFuture<'a, Result<Vec<Decided>, GroupFailed>> {
        Box::pin(async move {
            let written = self.write(requests).await;
            if let (Err(failed), Some(following)) = (&written, &self.following)
                && failed.error.is_unavailable()
            {
                // The primary is gone or demoted: look for the new one now.
                following.wake();
            }
            written
        })
    }

    fn scan(
        &self,
        last: u64,
        walk: Walk,
        batches: mpsc::Sender<LogBatch>,
    ) -> BoxFuture<'_, Result<ScanReader, StoreError>> {
        Box::pin(async move {
            // One of the write connections (tokio-postgres, binary rows): a replay appends
            // nothing meanwhile.
            let client = self.writer.connection().await.map_err(|failed| failed.error)?;
            Ok(scan_reader(client, last, walk, batches))
        })
    }

    fn listen(
        &self,
        head: watch::Sender<u64>,
    ) -> BoxFuture<'_, Result<Option<tokio::task::JoinHandle<()>>, StoreError>> {
        Box::pin(async move {
            let listen_error = |error: sqlx::Error| StoreError::Listener(error.to_string());
            let mut listener = PgListener::connect_with(&self.pool).await.map_err(listen_error)?;
            listener.listen(NOTIFY_CHANNEL).await.map_err(listen_error)?;
            Ok(Some(tokio::spawn(async move {
                loop {
                    match listener.try_recv().await {
                        Ok(Some(notification)) => {
                            let position = notification.payload().parse().unwrap_or(0);
                            head.send_if_modified(|known| {
                                *known = (*known).max(position);
                                true
                            });
                        }
                        Ok(None) => {
                            // Connection lost and re-established: notifications may have
                            // been missed, so wake everyone to re-read.
                            head.send_modify(|_| {});
                        }
                        Err(error) => {
                            tracing::warn!(%error, "event store listener; retrying");
                            head.send_modify(|_| {});
                            tokio::time::sleep(RETRY_AFTER).await;
                        }
                    }
                }
            })))
        })
    }
}

/// A restore on PostgreSQL: one transaction holding the append lock. Dropped without a
/// commit, sqlx rolls it back; a killed client's transaction is rolled back by the server.
struct PostgresRestore {
    txn: sqlx::Transaction<'static, Postgres>,
}

impl PostgresRestore {
    async fn begin(pool: &PgPool) -> Result<Option<PostgresRestore>, StoreError> {
        let mut txn = pool.begin().await.map_err(database_error)?;
        sqlx::query(TAKE_APPEND_LOCK)
            .bind(APPEND_LOCK_KEY)
            .execute(&mut *txn)
            .await
            .map_err(database_error)?;
        let (empty,): (bool,) =
            sqlx::query_as(LOG_IS_EMPTY).fetch_one(&mut *txn).await.map_err(database_error)?;
        Ok(empty.then_some(PostgresRestore { txn }))
    }
}

impl Restore for PostgresRestore {
    fn insert(
        &mut self,
        events: Vec<event::Model>,
        keys: Vec<idempotency_key::Model>,
        person_keys: Vec<(Uuid, [u8; PERSON_KEY_BYTES])>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            if !person_keys.is_empty() {
                sqlx::query(RESTORE_PERSON_KEYS)
                    .bind(
                        person_keys
                            .iter()
                            .map(|(person, _)| person.to_string())
                            .collect::<Vec<_>>(),
                    )
                    .bind(person_keys.iter().map(|(_, key)| key.to_vec()).collect::<Vec<_>>())
                    .execute(&mut *self.txn)
                    .await
                    .map_err(database_error)?;
            }
            if !events.is_empty() {
                let column = |field: fn(&event::Model) -> &str| -> Vec<&str> {
                    events.iter().map(field).collect()
                };
                let number = |field: fn(&event::Model) -> i64| -> Vec<i64> {
                    events.iter().map(field).collect()
                };
                sqlx::query(RESTORE_EVENTS)
                    .bind(number(|row| row.position))
                    .bind(column(|row| row.stream_id.as_str()))
                    .bind(number(|row| row.stream_version))
                    .bind(events.iter().map(|row| row.event_id).collect::<Vec<Uuid>>())
                    .bind(column(|row| row.event_type.as_str()))
                    .bind(events.iter().map(|row| row.schema_version).collect::<Vec<i32>>())
                    .bind(column(|row| row.payload.as_str()))
                    .bind(column(|row| row.metadata.as_str()))
                    .bind(events.iter().map(|row| row.recorded_at).collect::<Vec<_>>())
                    .bind(column(|row| row.prev_hash.as_str()))
                    .bind(column(|row| row.hash.as_str()))
                    .execute(&mut *self.txn)
                    .await
                    .map_err(database_error)?;
            }
            if !keys.is_empty() {
                let column = |field: fn(&idempotency_key::Model) -> &str| -> Vec<&str> {
                    keys.iter().map(field).collect()
                };
                let number = |field: fn(&idempotency_key::Model) -> i64| -> Vec<i64> {
                    keys.iter().map(field).collect()
                };
                sqlx::query(RESTORE_KEYS)
                    .bind(column(|key| key.idempotency_key.as_str()))
                    .bind(column(|key| key.stream_id.as_str()))
                    .bind(number(|key| key.first_position))
                    .bind(number(|key| key.last_position))
                    .bind(number(|key| key.stream_version))
                    .execute(&mut *self.txn)
                    .await
                    .map_err(database_error)?;
            }
            Ok(())
        })
    }

    fn commit(mut self: Box<Self>) -> BoxFuture<'static, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query(NOTIFY_HEAD)
                .bind(NOTIFY_CHANNEL)
                .execute(&mut *self.txn)
                .await
                .map_err(database_error)?;
            self.txn.commit().await.map_err(database_error)
        })
    }
}

/// The whole-log scan's reader (`scan.rs`): [`SCAN`] on a tokio-postgres connection (binary
/// rows), as a task of its own.
fn scan_reader(
    client: deadpool_postgres::Object,
    last: u64,
    mut walk: Walk,
    sender: mpsc::Sender<LogBatch>,
) -> ScanReader {
    tokio::spawn(async move {
        let postgres = |error: tokio_postgres::Error| {
            StoreError::Database(DbErr::Custom(format!("postgres (log scan): {error}")))
        };
        let statement = client.prepare(SCAN).await.map_err(postgres)?;
        let rows = client.query_raw(&statement, [to_db(last)]).await.map_err(postgres)?;
        let mut rows = std::pin::pin!(rows);
        let mut ready = Vec::new();
        while let Some(row) = rows.try_next().await.map_err(postgres)? {
            let position = from_db(row.try_get(0).map_err(postgres)?);
            let fields = Fields {
                position,
                stream_id: row.try_get(1).map_err(postgres)?,
                stream_version: from_db(row.try_get(2).map_err(postgres)?),
                event_id: row.try_get(3).map_err(postgres)?,
                event_type: row.try_get(4).map_err(postgres)?,
                schema_version: row.try_get(5).map_err(postgres)?,
                payload: row.try_get(6).map_err(postgres)?,
                metadata: row.try_get(7).map_err(postgres)?,
                prev_hash: row.try_get(9).map_err(postgres)?,
                hash: row.try_get(10).map_err(postgres)?,
            };
            let recorded_at: DateTime<Utc> = row.try_get(8).map_err(postgres)?;
            let next = walk.row(&fields, recorded_at, |batch| {
                ready.push(batch);
                true
            });
            // Sent outside the row's borrow, waiting while the fold is behind.
            for batch in ready.drain(..) {
                if sender.send(batch).await.is_err() {
                    return Ok(walk.end(|_| false));
                }
            }
            if next == Next::Stop {
                break;
            }
        }
        let mut last_batch = None;
        let end = walk.end(|batch| {
            last_batch = Some(batch);
            true
        });
        if let Some(batch) = last_batch {
            // A fold that stopped taking batches has an error of its own to report.
            let _ = sender.send(batch).await;
        }
        Ok(end)
    })
}

fn unexpected(what: &str) -> StoreError {
    StoreError::Database(DbErr::Custom(format!("unexpected answer from the database: {what}")))
}
