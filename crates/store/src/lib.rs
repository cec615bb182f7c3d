//! Append-only, hash-chained event store over sea-orm (SQLite, PostgreSQL). It knows nothing
//! about leagues: streams of JSON events, a global log, a live feed and a tamper check.
//!
//! ```text
//! EventStore::connect(url)            sqlite://file.db?mode=rwc | sqlite::memory: | postgres://… (one host or several)
//! EventStore::connect_with_replica(primary, standby)   PostgreSQL, reads on a hot standby:
//!   .for_reads()                      the same store reading the log from the standby
//!   .migrate()                        create/upgrade the schema (league-migration)
//!   .append(&stream, expected, events, metadata) -> AppendOutcome   atomic, optimistic, idempotent
//!   .append_with_key(…, KeyChange)               the same, with a person-key change in its transaction
//!   .person_keys(None | Some(&ids))              the person-key table (outside the chain)
//!   .read_stream(&stream, from_version)          one stream, in version order
//!   .read_all(from_position, limit)              one page of the global log
//!   .stream_all(from_position)                   the global log as an async stream of events
//!   .read_until(Bound::Position | Bound::Time)   everything up to a point (as-of views)
//!   .subscribe(from_position)                    catch-up, then live: no gaps, no duplicates
//!   .head_position() / .verify() / .connection()
//!   .export(person_keys) / .import(file, key_owner, progress)   the log as JSON lines (backup, restore, move)
//! beside the log (`webhooks.rs`): webhook secrets and delivery checkpoints, webhook locks
//! raw rows for the read side's folds (payload lent as its JSON text, streamed):
//!   .read_stream_until(&stream, bound)           one stream up to a position or time
//!   .read_types_until(&["TypeA", …], last)       events of some types, by the type index
//!   .read_all_from(from, last)                   the whole log
//!   .scan_log(last, check_chain)                 the whole log once, chain walked, in batches (rebuild)
//!   .event_types() / .first_position_of_type(t, last)
//! ```
//!
//! # Layout
//! Each layer names only the layers below it (no import circles):
//! - `store.rs`: [`EventStore`], the whole public API (the façade); sea-orm's entity queries
//!   serve the reads that are the same on both databases (`entity/`). `backup.rs`,
//!   `snapshots.rs` and `webhooks.rs` add to it:
//!   - `backup.rs`: the log as a JSON-lines file, exported and imported (verified, one
//!     transaction) through each engine's `Restore`.
//!   - `snapshots.rs`: snapshots of derived state kept beside the log.
//!   - `webhooks.rs`: webhooks' secrets and checkpoints, and the locks giving each webhook
//!     one delivering gateway.
//! - `group.rs`: the group commit queue, which hands each group to the database's storage;
//!   the façade reaches it through its `Committer` trait.
//! - `storage.rs`: the `Storage` trait a database engine implements (group writes, streaming
//!   raw-row reads, event-type seeks, the live-feed relay, a restore, the scan's reader).
//! - `sqlite.rs` and `postgres.rs` (its write connections in `postgres_writer.rs`): one
//!   implementation each, holding all of that engine's SQL.
//! - `failover.rs`: a PostgreSQL URL naming several hosts (`target_session_attrs`), the host
//!   to use now, and the task that moves the pools when the primary moves.
//! - the leaves the engines and the façade share: `decide.rs` (the one pure decision of a
//!   group's appends against the log's state: conflict, deduplicated, or the rows with
//!   positions, versions and chained hashes), `scan.rs` (the whole-log scan of a rebuild:
//!   its batches and the hash chain walked as the engine's reader reads), `row.rs` (the raw
//!   rows of the streaming reads), `convert.rs` (positions between the API and the
//!   database), `hash.rs` (the chain's canonical bytes), `types.rs` (the API's values),
//!   `error.rs` (the error type and the errors both engines raise).
//!
//! # Guarantees and how they are kept
//! - **Gap-free global order.** Appends are serialised, so positions are assigned and committed
//!   in the same order and a reader can never see position 11 committed while 10 is still in
//!   flight (the sequence-gap problem). On PostgreSQL each append transaction first takes a
//!   transaction-scoped advisory lock (`pg_advisory_xact_lock`, the approach of Message DB)
//!   and then computes `position = head + 1`; the lock also protects the hash chain's
//!   `prev_hash`. PostgreSQL releases the lock only after the commit is visible, so the next
//!   writer, and every reader that sees its event, sees all earlier ones. On SQLite the
//!   database has one writer anyway; appends run in `BEGIN IMMEDIATE` transactions, which take
//!   the write lock up front (a deferred transaction that reads and then writes fails with
//!   `SQLITE_BUSY` at once, ignoring the busy timeout). Within one process appends wait in
//!   the group-commit queue: the appends queued while one group commits go into the next
//!   group's one transaction, each keeping its own outcome.
//! - **Atomic, optimistic appends.** All events of one call go into one transaction; the
//!   stream's version is checked inside it ([`ExpectedVersion`]) and a stale expectation is a
//!   [`StoreError::Conflict`] that writes nothing. `(stream_id, stream_version)` is unique as
//!   a backstop.
//! - **Idempotency.** An append whose [`Metadata::idempotency_key`] was used before returns the
//!   first append's outcome (`deduplicated: true`) and writes nothing. The key and outcome go
//!   into `idempotency_keys` in the append's transaction; the key is checked under the same
//!   serialisation, and a unique-key violation (another process won) is answered by reading
//!   the winner's outcome.
//! - **Immutability.** Triggers installed by the migration make `UPDATE` and `DELETE` on
//!   `events` fail on both databases.
//! - **Hash chain.** See [`hash`](crate::GENESIS_HASH): each event's SHA-256 covers its
//!   canonical bytes and the previous hash; [`EventStore::verify`] walks the chain.
//! - **Live feed.** After each commit the store bumps an in-process `watch` channel holding
//!   the head position; on PostgreSQL the append transaction also runs
//!   `pg_notify('league_events', last_position)` and a `LISTEN`ing task bumps the channel, so
//!   writes by other processes wake subscribers too. A subscriber only uses the channel as a
//!   wake-up: it always reads by position from the database (and re-polls every second in
//!   case a notification was lost), so order and completeness come from the log itself.
//! - **Reads on a replica.** A store connected with a PostgreSQL hot standby reads the log
//!   there through [`EventStore::for_reads`]; appends, the key and webhook tables, snapshot
//!   saves and migrations stay on the primary, and so does `LISTEN` (a standby can neither
//!   listen nor receive a `NOTIFY`). A subscriber woken for a head its replica has not
//!   replayed yet reads again at the next wake-up or after a short pause (1 ms, doubled
//!   while the replica shows nothing new, up to 50 ms) until it has it, so replica lag
//!   delays events but never skips one.
//! - **Failover.** A PostgreSQL URL may name several hosts (as pg_auto_failover prints it):
//!   the store connects to the primary among them and follows it when it moves, within a
//!   second or two of noticing; meanwhile a lost or read-only server is
//!   [`StoreError::Unavailable`], and a retry with the same idempotency key is safe
//!   (`docs/operations.md`, "Automatic failover (pg_auto_failover)").
//!
//! # SQLite settings
//! WAL journal (readers never block the writer), `synchronous=FULL`, a 30 s busy timeout,
//! and a pool of several connections (sea-orm would otherwise use one connection and serialise
//! every read behind every write). `FULL` rather than `NORMAL`: in WAL mode `NORMAL` does not
//! sync the WAL at each commit, so an append acknowledged to a user could vanish on power
//! loss; an event store's one promise is that an acknowledged event is kept. The cost is one
//! WAL fsync per commit, which batching amortises. Appends commit through one more
//! connection of the store's own, with the same settings (see `sqlite.rs`); an in-memory
//! database is a named shared-cache one, which that connection opens too.

mod backup;
mod convert;
mod decide;
mod entity;
mod error;
mod failover;
mod group;
mod hash;
mod postgres;
mod postgres_writer;
mod row;
mod scan;
mod snapshots;
mod sqlite;
mod storage;
mod store;
mod types;
mod webhooks;

pub use backup::{
    BadLine, Export, ImportError, ImportSummary, KeyOwner, LOG_FORMAT, LOG_FORMAT_VERSION,
    LogHeader,
};
pub use error::StoreError;
pub use hash::{GENESIS_HASH, format_time};
pub use postgres::NOTIFY_CHANNEL;
pub use row::{EventRow, RawEvent};
pub use scan::{LogBatch, LogScan, SCAN_BATCH_ROWS, ScanEnd};
pub use snapshots::Snapshot;
pub use store::EventStore;
pub use types::{
    AppendOutcome, Bound, ChainBreak, ChainProblem, ExpectedVersion, KeyChange, MAX_EVENT_TYPE_LEN,
    MAX_STREAM_ID_LEN, Metadata, NewEvent, PERSON_KEY_BYTES, RecordedEvent, StreamId, VerifyReport,
};
pub use webhooks::{WebhookCheckpoint, WebhookFailure, WebhookLocks};

/// sea-orm itself, so users of [`EventStore::connection`] use the very same version.
pub use sea_orm;
/// The sea-orm connection type handed out by [`EventStore::connection`].
pub use sea_orm::DatabaseConnection;
