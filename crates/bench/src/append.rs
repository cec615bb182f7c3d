//! `league-bench append`: how fast the event store commits durable appends, next to baselines
//! measured in the same run on the same database.
//!
//! The benchmark never touches real data: it works in a scratch database beside the one
//! named by `--database` (a new SQLite file in the same directory, so the same disk; or a new
//! database on the same PostgreSQL server) and removes it afterwards. Work is split into
//! rounds that alternate store and baseline runs, so drift on a shared machine hits both sides.
//! The store's input events are built before its clock starts, as the baselines' rows are
//! (their payload text is made once): the clock times the appends, not the caller making
//! its JSON values.
//!
//! - single: one event per append, one caller at a time, vs a raw `INSERT` of a same-shaped
//!   row into the same `events` table and a commit through the same driver (`append_ratio`).
//! - concurrent: [`WRITERS`] callers appending single events to their own streams at once
//!   (the store shares commits between them) vs [`WRITERS`] raw `INSERT`+`COMMIT` loops.
//! - batch: 100 events per append vs a raw multi-row `INSERT` of 100 rows and a commit.
//! - outside baselines, which share nothing with the store's driver: on PostgreSQL, `pgbench`
//!   (if on `PATH`) on the same server inserting the same rows: 1 client single-row commits,
//!   [`WRITERS`] clients, and 100-row transactions, in every round beside the store's runs,
//!   as many transactions as the store's appends (its rate leaves out connecting); on SQLite, C-level loops (`rusqlite` over
//!   the same bundled libsqlite3 that sqlx uses) with the store's settings (WAL,
//!   `synchronous=FULL`) in a file in the same directory: single-row `INSERT`+commit, and
//!   transactions of 100 single-row `INSERT`s of one prepared statement (the goal's
//!   baseline), and beside it the same transactions written as the store writes a group
//!   (ten rows to a statement), which shows what the store adds to its statement shape.
//! - a peer, with `--message-db DATABASE` on PostgreSQL: Message DB's `write_message`, one
//!   call per transaction, `pgbench` 1 client beside the single appends, on that database of
//!   the same server over the same transport (Message DB installed there beforehand; the
//!   bench installs nothing).
//!
//! The machine's load average is printed at the start and end: figures from a busy machine
//! are only comparable with the baselines of the same run.
//!
//! `--also URL` (repeatable) measures more servers or transports in the same run, one table
//! (or JSON object) each: e.g. the same PostgreSQL cluster over its Unix socket, over TCP
//! (`sslmode=disable`) and over TLS (`sslmode=require`); `pgbench` runs on each URL, so on
//! the same transport. Each table names the transport the server saw.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use league_store::sea_orm::{
    ConnectionTrait, DbBackend, Statement, TransactionTrait, Value, sea_query::Values,
};
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use serde_json::json;

use crate::BenchError;
use crate::figures::{load_average, print_figures};
use crate::scratch::{ScratchArgs, in_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: ScratchArgs,
    /// Single-event appends (and as many raw inserts) in total.
    #[arg(long, default_value_t = 2000)]
    pub single: u64,
    /// Single-event appends by the concurrent writers in total (and as many raw inserts).
    #[arg(long, default_value_t = 8000)]
    pub concurrent: u64,
    /// Appends of 100 events (and as many raw 100-row inserts) in total.
    #[arg(long, default_value_t = 200)]
    pub batches: u64,
    /// Another database to measure in the same run, after `--database` (repeatable): e.g.
    /// the same server over TCP or TLS.
    #[arg(long = "also", value_name = "URL")]
    pub also: Vec<String>,
    /// PostgreSQL: a database on the same server where Message DB (a peer event store) is
    /// installed; its `write_message` is measured with `pgbench`, 1 client, over each URL's
    /// transport, beside the store's single appends. Nothing is installed by the bench.
    #[arg(long, value_name = "DATABASE")]
    pub message_db: Option<String>,
}

const BATCH_SIZE: u64 = 100;
const ROUNDS: u64 = 4;
/// Concurrent writers (and `pgbench` clients) in the concurrent measurement.
const WRITERS: u64 = 8;

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    /// PostgreSQL: how the server saw the store's connection (`unix socket`, `tcp`,
    /// `tcp+tls`); SQLite: `file`.
    transport: String,
    /// PostgreSQL `fsync` / SQLite `synchronous` as the scratch database reports it.
    durability: String,
    load_average_before: String,
    load_average_after: String,
    single_appends: u64,
    append_per_s: f64,
    raw_insert_per_s: f64,
    append_ratio: f64,
    writers: u64,
    concurrent_appends: u64,
    concurrent_append_per_s: f64,
    raw_concurrent_insert_per_s: f64,
    concurrent_ratio: f64,
    batch_size: u64,
    batches: u64,
    batch_events_per_s: f64,
    raw_batch_events_per_s: f64,
    batch_ratio: f64,
    /// PostgreSQL: `pgbench` on the same server; `None` when it is not on `PATH`.
    pgbench: Option<Pgbench>,
    /// SQLite: the C-level single-row commit loop.
    c_level_commits_per_s: Option<f64>,
    c_level_ratio: Option<f64>,
    /// SQLite: the C-level loop of 100-row transactions, in rows per second.
    c_level_batch_events_per_s: Option<f64>,
    /// Store batch events / C-level 100-row transaction rows.
    c_level_batch_ratio: Option<f64>,
    /// SQLite: the C-level 100-row transactions written as the store writes a group (ten
    /// rows to a statement, every column bound), in rows per second.
    c_level_multi_row_events_per_s: Option<f64>,
    /// Store batch events / the C-level multi-row transactions' rows.
    c_level_multi_row_ratio: Option<f64>,
    /// PostgreSQL with `--message-db`: Message DB's `write_message`, 1 client.
    message_db: Option<MessageDb>,
}

/// Message DB's single writes beside the store's single appends, same server and transport.
#[derive(Debug, serde::Serialize)]
struct MessageDb {
    database: String,
    /// `write_message` calls per second (each its own transaction), `pgbench` 1 client.
    writes_per_s: f64,
    /// Store single appends / Message DB single writes.
    single_ratio: f64,
}

#[derive(Debug, serde::Serialize)]
struct Pgbench {
    single_commits_per_s: f64,
    concurrent_commits_per_s: f64,
    batch_rows_per_s: f64,
    /// Store single appends / pgbench 1-client commits.
    single_ratio: f64,
    /// Store concurrent appends / pgbench commits with as many clients.
    concurrent_ratio: f64,
    /// Store batch events / pgbench 100-row transaction rows.
    batch_ratio: f64,
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.single < ROUNDS || args.batches < ROUNDS || args.concurrent < ROUNDS * WRITERS {
        return Err(BenchError::BadInput(format!(
            "--single and --batches must be at least {ROUNDS}, --concurrent at least {}",
            ROUNDS * WRITERS
        )));
    }
    let args = &args;
    for (index, database) in std::iter::once(&args.scratch.database).chain(&args.also).enumerate() {
        let figures =
            in_scratch(database, "append", true, |url| async move { measure(&url, args).await })
                .await?;
        if index > 0 && !args.scratch.json {
            println!();
        }
        print_figures(&figures, args.scratch.json, print_table)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(figures: &Figures) {
    println!(
        "database               {} over {} ({})",
        figures.database, figures.transport, figures.durability
    );
    println!(
        "load average           {} (start)   {} (end)",
        figures.load_average_before, figures.load_average_after
    );
    println!(
        "single appends         {:>10.0} /s   raw INSERT+COMMIT {:>10.0} /s   append_ratio {:.2}",
        figures.append_per_s, figures.raw_insert_per_s, figures.append_ratio
    );
    println!(
        "{} writers at once      {:>10.0} /s   raw INSERT+COMMIT {:>10.0} /s   concurrent_ratio {:.2}",
        figures.writers,
        figures.concurrent_append_per_s,
        figures.raw_concurrent_insert_per_s,
        figures.concurrent_ratio
    );
    println!(
        "batches of {:<3}         {:>10.0} events/s   raw {:>10.0} events/s   batch_ratio {:.2}",
        figures.batch_size,
        figures.batch_events_per_s,
        figures.raw_batch_events_per_s,
        figures.batch_ratio
    );
    match (&figures.pgbench, figures.database.as_str()) {
        (Some(pgbench), _) => {
            println!(
                "pgbench 1 client       {:>10.0} commits/s   store single / pgbench {:.2}",
                pgbench.single_commits_per_s, pgbench.single_ratio
            );
            println!(
                "pgbench {} clients      {:>10.0} commits/s   store concurrent / pgbench {:.2}",
                figures.writers, pgbench.concurrent_commits_per_s, pgbench.concurrent_ratio
            );
            println!(
                "pgbench 100-row txns   {:>10.0} rows/s      store batches / pgbench {:.2}",
                pgbench.batch_rows_per_s, pgbench.batch_ratio
            );
        }
        (None, "postgres") => {
            println!("pgbench                not on PATH: the outside baseline is missing");
        }
        _ => {}
    }
    if let (Some(rate), Some(ratio)) = (figures.c_level_commits_per_s, figures.c_level_ratio) {
        println!(
            "C-level INSERT+COMMIT  {rate:>10.0} /s   (rusqlite, WAL, synchronous=FULL)   store single / C {ratio:.2}"
        );
    }
    if let (Some(rate), Some(ratio)) =
        (figures.c_level_batch_events_per_s, figures.c_level_batch_ratio)
    {
        println!(
            "C-level 100-row txns   {rate:>10.0} rows/s      (rusqlite, same settings)   store batches / C {ratio:.2}"
        );
    }
    if let (Some(rate), Some(ratio)) =
        (figures.c_level_multi_row_events_per_s, figures.c_level_multi_row_ratio)
    {
        println!(
            "  … 10-row statements  {rate:>10.0} rows/s      (the store's statement shape)   store batches / it {ratio:.2}"
        );
    }
    if let Some(peer) = &figures.message_db {
        println!(
            "Message DB 1 client    {:>10.0} writes/s    (write_message, database {})   store single / it {:.2}",
            peer.writes_per_s, peer.database, peer.single_ratio
        );
    }
    println!("batch_events_per_s     {:.0}", figures.batch_events_per_s);
}

/// Accumulated time of each side.
#[derive(Default)]
struct Clocks {
    store_single: Duration,
    raw_single: Duration,
    c_level: Duration,
    c_level_batch: Duration,
    c_level_multi_row: Duration,
    store_concurrent: Duration,
    raw_concurrent: Duration,
    store_batch: Duration,
    raw_batch: Duration,
    pgbench_single: Duration,
    pgbench_concurrent: Duration,
    pgbench_batch: Duration,
    message_db: Duration,
}

async fn measure(url: &str, args: &Args) -> Result<Figures, BenchError> {
    let load_average_before = load_average();
    let store = EventStore::connect(url).await.context("cannot open the scratch database")?;
    store.migrate().await.context("cannot migrate the scratch database")?;
    let backend = store.backend();
    let durability = durability(&store).await?;
    let transport = transport(&store).await?;
    let raw = RawWriter::new(&store);
    let mut c_level = match backend {
        DbBackend::Sqlite => CLevel::open(url)?,
        _ => None,
    };
    let outside = match backend {
        DbBackend::Postgres => {
            PgbenchRuns::prepare(&store, url, args.message_db.as_deref()).await?
        }
        _ => None,
    };

    let mut clocks = Clocks::default();
    let single_per_round = args.single / ROUNDS;
    let concurrent_per_writer = args.concurrent / ROUNDS / WRITERS;
    let batches_per_round = args.batches / ROUNDS;
    let streams: Vec<StreamId> = (0..16)
        .map(|i| StreamId::new(format!("bench:{i}")))
        .collect::<Result<_, _>>()
        .context("stream ids")?;
    let mut counter = 0u64;
    for round in 0..ROUNDS {
        // Alternate which side goes first, so neither always runs on a warmer cache.
        let store_first = round % 2 == 0;
        for side in [store_first, !store_first] {
            if side {
                let appends = inputs(&mut counter, single_per_round, 1);
                let started = Instant::now();
                for (stream, events, metadata) in appends {
                    store
                        .append(&streams[stream], ExpectedVersion::Any, events, metadata)
                        .await
                        .context("append")?;
                }
                clocks.store_single += started.elapsed();
            } else {
                raw.catch_up(&store).await?;
                let started = Instant::now();
                for _ in 0..single_per_round {
                    raw.insert(&store, 1).await?;
                }
                clocks.raw_single += started.elapsed();
                if let Some(mut baseline) = c_level.take() {
                    let (c_level_back, elapsed) = tokio::task::spawn_blocking(move || {
                        let started = Instant::now();
                        let result = baseline.commits(single_per_round);
                        (baseline, result.map(|()| started.elapsed()))
                    })
                    .await
                    .context("C-level baseline")?;
                    clocks.c_level += elapsed?;
                    c_level = Some(c_level_back);
                }
                if let Some(outside) = &outside {
                    clocks.pgbench_single +=
                        outside.run(&outside.single, 1, single_per_round, &[]).await?;
                    if let Some(peer) = &outside.message_db {
                        let environment = [("PGOPTIONS", MESSAGE_DB_SEARCH_PATH)];
                        clocks.message_db +=
                            peer.run(&peer.single, 1, single_per_round, &environment).await?;
                    }
                }
            }
        }
        for side in [store_first, !store_first] {
            if side {
                let appends = (0..WRITERS)
                    .map(|_| (0..concurrent_per_writer).map(|n| (sample(n), metadata())).collect())
                    .collect();
                let started = Instant::now();
                concurrent_appends(&store, round, appends).await?;
                clocks.store_concurrent += started.elapsed();
            } else {
                raw.catch_up(&store).await?;
                let started = Instant::now();
                let writers = (0..WRITERS).map(|_| {
                    let (raw, store) = (raw.clone(), store.clone());
                    tokio::spawn(async move {
                        for _ in 0..concurrent_per_writer {
                            raw.insert(&store, 1).await?;
                        }
                        Ok::<_, BenchError>(())
                    })
                });
                for writer in futures::future::join_all(writers).await {
                    writer.context("raw writer task")??;
                }
                clocks.raw_concurrent += started.elapsed();
                if let Some(outside) = &outside {
                    clocks.pgbench_concurrent +=
                        outside.run(&outside.single, WRITERS, concurrent_per_writer, &[]).await?;
                }
            }
        }
        for side in [store_first, !store_first] {
            if side {
                let appends = inputs(&mut counter, batches_per_round, BATCH_SIZE);
                let started = Instant::now();
                for (stream, events, metadata) in appends {
                    store
                        .append(&streams[stream], ExpectedVersion::Any, events, metadata)
                        .await
                        .context("append a batch")?;
                }
                clocks.store_batch += started.elapsed();
            } else {
                raw.catch_up(&store).await?;
                let started = Instant::now();
                for _ in 0..batches_per_round {
                    raw.insert(&store, BATCH_SIZE).await?;
                }
                clocks.raw_batch += started.elapsed();
                if let Some(mut baseline) = c_level.take() {
                    let (c_level_back, elapsed) = tokio::task::spawn_blocking(move || {
                        let started = Instant::now();
                        let single_rows = baseline.batches(batches_per_round);
                        let single_rows = single_rows.map(|()| started.elapsed());
                        let started = Instant::now();
                        let multi_row = baseline.multi_row_batches(batches_per_round);
                        (
                            baseline,
                            single_rows.and_then(|single| {
                                Ok((single, multi_row.map(|()| started.elapsed())?))
                            }),
                        )
                    })
                    .await
                    .context("C-level baseline")?;
                    let (single_rows, multi_row) = elapsed?;
                    clocks.c_level_batch += single_rows;
                    clocks.c_level_multi_row += multi_row;
                    c_level = Some(c_level_back);
                }
                if let Some(outside) = &outside {
                    clocks.pgbench_batch +=
                        outside.run(&outside.batch, 1, batches_per_round, &[]).await?;
                }
            }
        }
    }
    if let Some(c_level) = c_level {
        c_level.remove();
    }
    let (pgbench_found, message_db_database) = match &outside {
        Some(outside) => {
            outside.remove();
            (true, outside.message_db.as_ref().map(|peer| peer.database.clone()))
        }
        None => (false, None),
    };

    let rate = |count: u64, time: Duration| count as f64 / time.as_secs_f64().max(1e-9);
    let singles = single_per_round * ROUNDS;
    let concurrent = concurrent_per_writer * WRITERS * ROUNDS;
    let batch_events = batches_per_round * ROUNDS * BATCH_SIZE;
    let append_per_s = rate(singles, clocks.store_single);
    let raw_insert_per_s = rate(singles, clocks.raw_single);
    let concurrent_append_per_s = rate(concurrent, clocks.store_concurrent);
    let raw_concurrent_insert_per_s = rate(concurrent, clocks.raw_concurrent);
    let batch_events_per_s = rate(batch_events, clocks.store_batch);
    let raw_batch_events_per_s = rate(batch_events, clocks.raw_batch);
    let c_level_commits_per_s =
        (clocks.c_level > Duration::ZERO).then(|| rate(singles, clocks.c_level));
    let c_level_batch_events_per_s =
        (clocks.c_level_batch > Duration::ZERO).then(|| rate(batch_events, clocks.c_level_batch));
    let c_level_multi_row_events_per_s = (clocks.c_level_multi_row > Duration::ZERO)
        .then(|| rate(batch_events, clocks.c_level_multi_row));

    let pgbench = pgbench_found.then(|| {
        let single = rate(singles, clocks.pgbench_single);
        let concurrent = rate(concurrent, clocks.pgbench_concurrent);
        let batch = rate(batch_events, clocks.pgbench_batch);
        Pgbench {
            single_ratio: append_per_s / single,
            concurrent_ratio: concurrent_append_per_s / concurrent,
            batch_ratio: batch_events_per_s / batch,
            single_commits_per_s: single,
            concurrent_commits_per_s: concurrent,
            batch_rows_per_s: batch,
        }
    });
    let message_db = message_db_database.map(|database| {
        let writes_per_s = rate(singles, clocks.message_db);
        MessageDb { database, writes_per_s, single_ratio: append_per_s / writes_per_s }
    });
    Ok(Figures {
        database: format!("{backend:?}").to_lowercase(),
        transport,
        durability,
        load_average_before,
        load_average_after: load_average(),
        single_appends: singles,
        append_per_s,
        raw_insert_per_s,
        append_ratio: append_per_s / raw_insert_per_s,
        writers: WRITERS,
        concurrent_appends: concurrent,
        concurrent_append_per_s,
        raw_concurrent_insert_per_s,
        concurrent_ratio: concurrent_append_per_s / raw_concurrent_insert_per_s,
        batch_size: BATCH_SIZE,
        batches: batches_per_round * ROUNDS,
        batch_events_per_s,
        raw_batch_events_per_s,
        batch_ratio: batch_events_per_s / raw_batch_events_per_s,
        pgbench,
        c_level_commits_per_s,
        c_level_ratio: c_level_commits_per_s.map(|c_level| append_per_s / c_level),
        c_level_batch_events_per_s,
        c_level_batch_ratio: c_level_batch_events_per_s.map(|c_level| batch_events_per_s / c_level),
        c_level_multi_row_events_per_s,
        c_level_multi_row_ratio: c_level_multi_row_events_per_s
            .map(|c_level| batch_events_per_s / c_level),
        message_db,
    })
}

/// The store's input for `appends` appends of `events` events each, built before the clock
/// starts (as the baselines' rows are): the stream (one of 16, in turn), the events and the
/// metadata of each.
fn inputs(counter: &mut u64, appends: u64, events: u64) -> Vec<(usize, Vec<NewEvent>, Metadata)> {
    (0..appends)
        .map(|_| {
            *counter += 1;
            let batch = (0..events).map(|i| sample(*counter * events + i)).collect();
            ((*counter % 16) as usize, batch, metadata())
        })
        .collect()
}

/// [`WRITERS`] tasks, each appending its own single events (`appends`, built beforehand) to
/// its own stream with an exact expected version (as a command handler would).
async fn concurrent_appends(
    store: &EventStore,
    round: u64,
    appends: Vec<Vec<(NewEvent, Metadata)>>,
) -> Result<(), BenchError> {
    let writers = appends.into_iter().enumerate().map(|(writer, appends)| {
        let store = store.clone();
        tokio::spawn(async move {
            let stream = StreamId::new(format!("bench:writer:{round}:{writer}"))?;
            for (version, (event, metadata)) in (0u64..).zip(appends) {
                store
                    .append(&stream, ExpectedVersion::Exact(version), vec![event], metadata)
                    .await?;
            }
            Ok::<_, league_store::StoreError>(())
        })
    });
    for writer in futures::future::join_all(writers).await {
        writer.context("writer task")?.context("concurrent append")?;
    }
    Ok(())
}

/// A typical small league event.
fn sample(n: u64) -> NewEvent {
    NewEvent::new(
        "GameRecorded",
        1,
        json!({"game": n, "league": "bench", "seats": ["ann", "bob", "cyd", "dee"], "points": [10, 7, 3, 0]}),
    )
}

fn metadata() -> Metadata {
    Metadata::default().with_actor("bench").with_correlation_id("bench-run")
}

/// The durability setting the scratch database runs with.
async fn durability(store: &EventStore) -> Result<String, BenchError> {
    let (sql, label) = match store.backend() {
        DbBackend::Postgres => ("SHOW fsync", "fsync"),
        _ => ("PRAGMA synchronous", "synchronous"),
    };
    let row = store
        .connection()
        .query_one_raw(Statement::from_string(store.backend(), sql))
        .await
        .context("durability setting")?
        .context("durability setting: no row")?;
    let value = match store.backend() {
        DbBackend::Postgres => row.try_get_by_index::<String>(0).context("fsync")?,
        _ => match row.try_get_by_index::<i64>(0).context("synchronous")? {
            0 => "off".into(),
            1 => "normal".into(),
            2 => "full".into(),
            3 => "extra".into(),
            other => other.to_string(),
        },
    };
    Ok(format!("{label}={value}"))
}

/// How the server sees this connection: over its Unix socket (no client address), TCP, or
/// TCP with TLS; a SQLite database is a file.
async fn transport(store: &EventStore) -> Result<String, BenchError> {
    if store.backend() != DbBackend::Postgres {
        return Ok("file".into());
    }
    let sql = "SELECT CASE WHEN inet_client_addr() IS NULL THEN 'unix socket' \
        WHEN (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) THEN 'tcp+tls' \
        ELSE 'tcp' END";
    let row = store
        .connection()
        .query_one_raw(Statement::from_string(DbBackend::Postgres, sql))
        .await
        .context("transport")?
        .context("transport: no row")?;
    let transport = row.try_get_by_index::<String>(0).context("transport")?;
    Ok(transport)
}

/// The same-driver baseline: same-shaped rows written straight into the same `events` table
/// (same indexes; inserts are not refused by the immutability triggers) with a plain `INSERT`
/// and `COMMIT`, through the store's own connection pool. Positions continue from the head
/// (shared by clones, for concurrent writers), so the store's later appends simply chain on
/// (the scratch log's hashes are not meant to verify).
#[derive(Clone)]
struct RawWriter {
    backend: DbBackend,
    next_position: Arc<AtomicI64>,
    payload: Arc<str>,
    metadata: Arc<str>,
}

impl RawWriter {
    fn new(store: &EventStore) -> RawWriter {
        RawWriter {
            backend: store.backend(),
            next_position: Arc::new(AtomicI64::new(1)),
            payload: serde_json::to_string(&sample(0).payload).unwrap_or_default().into(),
            metadata: serde_json::to_string(&metadata()).unwrap_or_default().into(),
        }
    }

    /// Continues after the store's latest append (outside the timed part).
    async fn catch_up(&self, store: &EventStore) -> Result<(), BenchError> {
        let head = store.head_position().await.context("head")?;
        self.next_position
            .store(i64::try_from(head).context("head position")? + 1, Ordering::SeqCst);
        Ok(())
    }

    async fn insert(&self, store: &EventStore, rows: u64) -> Result<(), BenchError> {
        let mut sql = String::from(
            "INSERT INTO events (position, stream_id, stream_version, event_id, \
             event_type, schema_version, payload, metadata, recorded_at, prev_hash, hash) VALUES ",
        );
        let mut values = Vec::with_capacity(rows as usize * 11);
        let now = chrono::Utc::now();
        let first =
            self.next_position.fetch_add(i64::try_from(rows).unwrap_or(1), Ordering::SeqCst);
        for row in 0..rows {
            if row > 0 {
                sql.push(',');
            }
            let base = values.len();
            let marks: Vec<String> = (1..=11)
                .map(|i| match self.backend {
                    DbBackend::Postgres => format!("${}", base + i),
                    _ => "?".to_owned(),
                })
                .collect();
            sql.push_str(&format!("({})", marks.join(",")));
            // The stream version is the position: unique on the raw stream.
            let position = first + i64::try_from(row).unwrap_or(0);
            values.extend::<[Value; 11]>([
                position.into(),
                "bench:raw".into(),
                position.into(),
                uuid::Uuid::now_v7().into(),
                "GameRecorded".into(),
                1i32.into(),
                self.payload.to_string().into(),
                self.metadata.to_string().into(),
                now.into(),
                "0".repeat(64).into(),
                "0".repeat(64).into(),
            ]);
        }
        let txn = store.connection().begin().await.context("begin")?;
        txn.execute_raw(Statement::from_sql_and_values(self.backend, sql, Values(values)))
            .await
            .context("raw insert")?;
        txn.commit().await.context("commit")?;
        Ok(())
    }
}

/// SQLite's floor: single-row `INSERT`s through the C library (rusqlite), each its own
/// transaction or 100 to a transaction, WAL and `synchronous=FULL` like the store,
/// same-shaped rows and the same indexes.
struct CLevel {
    connection: rusqlite::Connection,
    path: PathBuf,
    next: i64,
    payload: String,
    metadata: String,
}

impl CLevel {
    /// A file beside the scratch database (same disk), or `None` for an in-memory database.
    fn open(scratch_url: &str) -> Result<Option<CLevel>, BenchError> {
        let path = scratch_url.trim_start_matches("sqlite:").trim_start_matches("//");
        let path = path.split('?').next().unwrap_or_default();
        if path.is_empty() || path.contains(":memory:") {
            return Ok(None);
        }
        let path = PathBuf::from(format!("{path}-c-level.db"));
        let connection = rusqlite::Connection::open(&path).context("C-level baseline file")?;
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = FULL;
                 CREATE TABLE events (
                     position INTEGER PRIMARY KEY NOT NULL, stream_id TEXT NOT NULL,
                     stream_version INTEGER NOT NULL, event_id BLOB NOT NULL UNIQUE,
                     event_type TEXT NOT NULL, schema_version INTEGER NOT NULL,
                     payload TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL,
                     prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
                     UNIQUE (stream_id, stream_version));
                 CREATE INDEX events_recorded_at ON events (recorded_at);
                 CREATE INDEX events_type_position ON events (event_type, position);",
            )
            .context("C-level baseline schema")?;
        Ok(Some(CLevel {
            connection,
            path,
            next: 1,
            payload: serde_json::to_string(&sample(0).payload).unwrap_or_default(),
            metadata: serde_json::to_string(&metadata()).unwrap_or_default(),
        }))
    }

    /// `count` single-row `INSERT`s, each its own (autocommit) transaction.
    fn commits(&mut self, count: u64) -> Result<(), BenchError> {
        for _ in 0..count {
            self.insert_rows(1)?;
        }
        Ok(())
    }

    /// `count` transactions of [`BATCH_SIZE`] single-row `INSERT`s (one prepared statement).
    fn batches(&mut self, count: u64) -> Result<(), BenchError> {
        for _ in 0..count {
            self.connection.execute_batch("BEGIN IMMEDIATE").context("C-level begin")?;
            self.insert_rows(BATCH_SIZE)?;
            self.connection.execute_batch("COMMIT").context("C-level commit")?;
        }
        Ok(())
    }

    /// `count` transactions of [`BATCH_SIZE`] rows written as the store writes a group: ten
    /// rows to a prepared `INSERT OR FAIL`, every column bound.
    fn multi_row_batches(&mut self, count: u64) -> Result<(), BenchError> {
        const ROWS: u64 = 10;
        let marks: Vec<String> = (0..ROWS)
            .map(|row| {
                let columns: Vec<String> =
                    (1..=11).map(|column| format!("?{}", row * 11 + column)).collect();
                format!("({})", columns.join(", "))
            })
            .collect();
        let sql = format!("INSERT OR FAIL INTO events VALUES {}", marks.join(", "));
        let zeros = "0".repeat(64);
        for _ in 0..count {
            self.connection.execute_batch("BEGIN IMMEDIATE").context("C-level begin")?;
            let now = league_store::format_time(chrono::Utc::now());
            let mut insert = self.connection.prepare_cached(&sql).context("C-level insert")?;
            for _ in 0..BATCH_SIZE / ROWS {
                for row in 0..ROWS as usize {
                    let base = row * 11;
                    let id = uuid::Uuid::now_v7();
                    insert.raw_bind_parameter(base + 1, self.next).context("C-level bind")?;
                    insert.raw_bind_parameter(base + 2, "bench:raw").context("C-level bind")?;
                    insert.raw_bind_parameter(base + 3, self.next).context("C-level bind")?;
                    insert
                        .raw_bind_parameter(base + 4, id.as_bytes().as_slice())
                        .context("C-level bind")?;
                    insert.raw_bind_parameter(base + 5, "GameRecorded").context("C-level bind")?;
                    insert.raw_bind_parameter(base + 6, 1).context("C-level bind")?;
                    insert
                        .raw_bind_parameter(base + 7, self.payload.as_str())
                        .context("C-level bind")?;
                    insert
                        .raw_bind_parameter(base + 8, self.metadata.as_str())
                        .context("C-level bind")?;
                    insert.raw_bind_parameter(base + 9, now.as_str()).context("C-level bind")?;
                    insert.raw_bind_parameter(base + 10, zeros.as_str()).context("C-level bind")?;
                    insert.raw_bind_parameter(base + 11, zeros.as_str()).context("C-level bind")?;
                    self.next += 1;
                }
                insert.raw_execute().context("C-level insert")?;
            }
            drop(insert);
            self.connection.execute_batch("COMMIT").context("C-level commit")?;
        }
        Ok(())
    }

    fn insert_rows(&mut self, rows: u64) -> Result<(), BenchError> {
        let mut insert = self
            .connection
            .prepare_cached(
                "INSERT INTO events VALUES (?1, 'bench:raw', ?1, ?2, 'GameRecorded', 1, ?3, ?4, ?5, ?6, ?6)",
            )
            .context("C-level insert")?;
        let zeros = "0".repeat(64);
        let now = league_store::format_time(chrono::Utc::now());
        for _ in 0..rows {
            insert
                .execute(rusqlite::params![
                    self.next,
                    uuid::Uuid::now_v7().as_bytes().as_slice(),
                    self.payload,
                    self.metadata,
                    now,
                    zeros
                ])
                .context("C-level insert")?;
            self.next += 1;
        }
        Ok(())
    }

    fn remove(self) {
        let path = self.path.clone();
        drop(self);
        for suffix in ["", "-wal", "-shm"] {
            let mut name = path.clone().into_os_string();
            name.push(suffix);
            std::fs::remove_file(name).ok();
        }
    }
}

/// Message DB's functions call each other unqualified, in their own schema.
const MESSAGE_DB_SEARCH_PATH: &str = "-c search_path=message_store,public";

/// The outside baselines on PostgreSQL, run by `pgbench` round by round beside the store
/// (so drift on a shared machine hits both): on the scratch database, a table of its own
/// shaped like `events` (same indexes, no triggers) with single-row commits (1 client and
/// [`WRITERS`] clients) and 1-client 100-row transactions; and, with `--message-db`, Message
/// DB's `write_message` on that database of the same server, 1 client.
struct PgbenchRuns {
    url: String,
    dir: PathBuf,
    single: PathBuf,
    batch: PathBuf,
    message_db: Option<MessageDbScript>,
}

/// Message DB's single write, as a `pgbench` script for its database's URL.
struct MessageDbScript {
    database: String,
    url: String,
    single: PathBuf,
}

impl PgbenchRuns {
    /// The scripts and the table, or `None` when `pgbench` is not on `PATH`.
    async fn prepare(
        store: &EventStore,
        url: &str,
        message_db: Option<&str>,
    ) -> Result<Option<PgbenchRuns>, BenchError> {
        if tokio::process::Command::new("pgbench").arg("--version").output().await.is_err() {
            return Ok(None);
        }
        store
            .connection()
            .execute_unprepared(
                "CREATE TABLE pgbench_events (LIKE events INCLUDING ALL);
                 CREATE SEQUENCE pgbench_seq;",
            )
            .await
            .context("pgbench table")?;
        let payload = serde_json::to_string(&sample(0).payload).unwrap_or_default();
        let metadata = serde_json::to_string(&metadata()).unwrap_or_default();
        let insert = |rows: u64| {
            format!(
                "INSERT INTO pgbench_events (position, stream_id, stream_version, event_id, \
                 event_type, schema_version, payload, metadata, recorded_at, prev_hash, hash) \
                 SELECT n, 'bench:raw', n, gen_random_uuid(), 'GameRecorded', 1, '{payload}', \
                 '{metadata}', now(), repeat('0', 64), repeat('0', 64) \
                 FROM (SELECT nextval('pgbench_seq') AS n FROM generate_series(1, {rows})) AS s;\n"
            )
        };
        let dir =
            std::env::temp_dir().join(format!("league-pgbench-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).context("pgbench script directory")?;
        let script = |name: &str, text: &str| -> Result<PathBuf, BenchError> {
            let file = dir.join(name);
            std::fs::write(&file, text).context("pgbench script")?;
            Ok(file)
        };
        let single = script("single.sql", &insert(1))?;
        let batch = script("batch.sql", &insert(BATCH_SIZE))?;
        let message_db = match message_db {
            Some(database) => {
                // The same server and connection options, another database.
                let (base, query) = match url.split_once('?') {
                    Some((base, query)) => (base, format!("?{query}")),
                    None => (url, String::new()),
                };
                let server = base.rsplit_once('/').map_or(base, |(server, _)| server);
                // One new message per transaction to one of 16 streams of one category.
                let write = format!(
                    "\\set stream random(0, 15)\nSELECT write_message(gen_random_uuid()::varchar, \
                     'bench-' || :stream, 'GameRecorded', '{payload}'::jsonb, '{metadata}'::jsonb);\n"
                );
                Some(MessageDbScript {
                    database: database.to_owned(),
                    url: format!("{server}/{database}{query}"),
                    single: script("message_db.sql", &write)?,
                })
            }
            None => None,
        };
        Ok(Some(PgbenchRuns { url: url.to_owned(), dir, single, batch, message_db }))
    }

    /// `transactions` transactions of `script` by each of `clients` clients; how long the
    /// transactions took (connecting excluded).
    async fn run(
        &self,
        script: &std::path::Path,
        clients: u64,
        transactions: u64,
        environment: &[(&str, &str)],
    ) -> Result<Duration, BenchError> {
        pgbench_time(&self.url, script, clients, transactions, environment).await
    }

    fn remove(&self) {
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

impl MessageDbScript {
    async fn run(
        &self,
        script: &std::path::Path,
        clients: u64,
        transactions: u64,
        environment: &[(&str, &str)],
    ) -> Result<Duration, BenchError> {
        Ok(pgbench_time(&self.url, script, clients, transactions, environment).await.with_context(
            || format!("Message DB in database {:?} (is it installed?)", self.database),
        )?)
    }
}

/// How long `transactions` transactions of `script` by each of `clients` `pgbench` clients
/// took (connecting excluded: the time follows from the rate `pgbench` reports).
async fn pgbench_time(
    url: &str,
    script: &std::path::Path,
    clients: u64,
    transactions: u64,
    environment: &[(&str, &str)],
) -> Result<Duration, BenchError> {
    let tps = run_pgbench(url, script, clients, transactions, environment).await?;
    Ok(Duration::from_secs_f64((clients * transactions) as f64 / tps))
}

/// One `pgbench` run of `transactions` per client; its transactions per second.
async fn run_pgbench(
    url: &str,
    script: &std::path::Path,
    clients: u64,
    transactions: u64,
    environment: &[(&str, &str)],
) -> Result<f64, BenchError> {
    let output = tokio::process::Command::new("pgbench")
        .envs(environment.iter().copied())
        .args(["-n", "-c", &clients.to_string(), "-j", &clients.min(2).to_string()])
        .args(["-t", &transactions.to_string(), "-f"])
        .arg(script)
        .arg(url)
        .output()
        .await
        .context("cannot run pgbench")?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(anyhow::anyhow!(
            "pgbench failed: {}{}",
            stdout,
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|tps| tps.parse().ok())
        .with_context(|| format!("no tps in pgbench's output: {stdout}"))
        .map_err(BenchError::from)
}
