//! `league bench append`: how fast the event store commits durable appends, next to a raw
//! `INSERT` + `COMMIT` of the same rows through the same driver, in the same run.
//!
//! The benchmark never touches real data: it works in a scratch database beside the one
//! named by `--database` (a new SQLite file in the same directory, so the same disk; or a new
//! database on the same PostgreSQL server) and removes it afterwards. Work is split into
//! rounds that alternate store and raw runs, so drift on a shared machine hits both sides.
//!
//! - single: one event per append (the store: serialisation, version check, hash chain, one
//!   multi-row insert, commit) vs one raw `INSERT` of a same-shaped row into the same
//!   `events` table and a commit. `append_ratio` = store rate / raw rate.
//! - batch: 100 events per append vs a raw multi-row `INSERT` of 100 rows and a commit.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use league_store::sea_orm::{
    ConnectionTrait, DbBackend, Statement, TransactionTrait, Value, sea_query::Values,
};
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use serde_json::json;

use super::scratch::Scratch;
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub database: crate::commands::DatabaseArgs,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Single-event appends (and as many raw inserts) in total.
    #[arg(long, default_value_t = 2000)]
    pub single: u64,
    /// Appends of 100 events (and as many raw 100-row inserts) in total.
    #[arg(long, default_value_t = 200)]
    pub batches: u64,
}

const BATCH_SIZE: u64 = 100;
const ROUNDS: u64 = 4;

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    single_appends: u64,
    append_per_s: f64,
    raw_insert_per_s: f64,
    append_ratio: f64,
    batch_size: u64,
    batches: u64,
    batch_events_per_s: f64,
    raw_batch_events_per_s: f64,
    batch_ratio: f64,
}

pub async fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.single < ROUNDS || args.batches < ROUNDS {
        return Err(CliError::BadInput(format!(
            "--single and --batches must be at least {ROUNDS}"
        )));
    }
    let (scratch, url) = Scratch::create_or_memory(&args.database.url, "append").await?;
    let outcome = measure(&url, &args).await;
    scratch.remove().await;
    let figures = outcome?;
    if args.json {
        println!("{}", serde_json::to_string(&figures).context("figures as JSON")?);
    } else {
        println!("database               {}", figures.database);
        println!(
            "single appends         {:>10.0} /s   raw INSERT+COMMIT {:>10.0} /s   append_ratio {:.2}",
            figures.append_per_s, figures.raw_insert_per_s, figures.append_ratio
        );
        println!(
            "batches of {:<3}         {:>10.0} events/s   raw {:>10.0} events/s   batch_ratio {:.2}",
            figures.batch_size,
            figures.batch_events_per_s,
            figures.raw_batch_events_per_s,
            figures.batch_ratio
        );
        println!("batch_events_per_s     {:.0}", figures.batch_events_per_s);
    }
    Ok(ExitCode::SUCCESS)
}

async fn measure(url: &str, args: &Args) -> Result<Figures, CliError> {
    let store = EventStore::connect(url).await.context("cannot open the scratch database")?;
    store.migrate().await.context("cannot migrate the scratch database")?;
    let mut raw = RawWriter::new(&store);

    let (mut store_single, mut raw_single) = (Duration::ZERO, Duration::ZERO);
    let (mut store_batch, mut raw_batch) = (Duration::ZERO, Duration::ZERO);
    let single_per_round = args.single / ROUNDS;
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
            if !side {
                raw.catch_up(&store).await?;
            }
            let started = Instant::now();
            if side {
                for _ in 0..single_per_round {
                    counter += 1;
                    let stream = &streams[(counter % 16) as usize];
                    store
                        .append(stream, ExpectedVersion::Any, vec![sample(counter)], metadata())
                        .await
                        .context("append")?;
                }
                store_single += started.elapsed();
            } else {
                for _ in 0..single_per_round {
                    raw.insert(&store, 1).await?;
                }
                raw_single += started.elapsed();
            }
        }
        for side in [store_first, !store_first] {
            if !side {
                raw.catch_up(&store).await?;
            }
            let started = Instant::now();
            if side {
                for _ in 0..batches_per_round {
                    counter += 1;
                    let stream = &streams[(counter % 16) as usize];
                    let events =
                        (0..BATCH_SIZE).map(|i| sample(counter * BATCH_SIZE + i)).collect();
                    store
                        .append(stream, ExpectedVersion::Any, events, metadata())
                        .await
                        .context("append a batch")?;
                }
                store_batch += started.elapsed();
            } else {
                for _ in 0..batches_per_round {
                    raw.insert(&store, BATCH_SIZE).await?;
                }
                raw_batch += started.elapsed();
            }
        }
    }
    let singles = (single_per_round * ROUNDS) as f64;
    let batch_events = (batches_per_round * ROUNDS * BATCH_SIZE) as f64;
    let append_per_s = singles / store_single.as_secs_f64();
    let raw_insert_per_s = singles / raw_single.as_secs_f64();
    let batch_events_per_s = batch_events / store_batch.as_secs_f64();
    let raw_batch_events_per_s = batch_events / raw_batch.as_secs_f64();
    Ok(Figures {
        database: format!("{:?}", store.backend()).to_lowercase(),
        single_appends: single_per_round * ROUNDS,
        append_per_s,
        raw_insert_per_s,
        append_ratio: append_per_s / raw_insert_per_s,
        batch_size: BATCH_SIZE,
        batches: batches_per_round * ROUNDS,
        batch_events_per_s,
        raw_batch_events_per_s,
        batch_ratio: batch_events_per_s / raw_batch_events_per_s,
    })
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

/// The baseline: same-shaped rows written straight into the same `events` table (same
/// indexes; inserts are not refused by the immutability triggers) with a plain `INSERT` and
/// `COMMIT`, through the store's own connection pool. Positions continue from the head, so
/// the store's later appends simply chain on (the scratch log's hashes are not meant to
/// verify).
struct RawWriter {
    backend: DbBackend,
    next_position: i64,
    next_version: i64,
    payload: String,
    metadata: String,
}

impl RawWriter {
    fn new(store: &EventStore) -> RawWriter {
        RawWriter {
            backend: store.backend(),
            next_position: 1,
            next_version: 1,
            payload: serde_json::to_string(&sample(0).payload).unwrap_or_default(),
            metadata: serde_json::to_string(&metadata()).unwrap_or_default(),
        }
    }

    /// Continues after the store's latest append (outside the timed part).
    async fn catch_up(&mut self, store: &EventStore) -> Result<(), CliError> {
        let head = store.head_position().await.context("head")?;
        self.next_position = i64::try_from(head).context("head position")? + 1;
        Ok(())
    }

    async fn insert(&mut self, store: &EventStore, rows: u64) -> Result<(), CliError> {
        let mut sql = String::from(
            "INSERT INTO events (position, stream_id, stream_version, event_id, \
             event_type, schema_version, payload, metadata, recorded_at, prev_hash, hash) VALUES ",
        );
        let mut values = Vec::with_capacity(rows as usize * 11);
        let now = chrono::Utc::now();
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
            let position = self.next_position;
            let version = self.next_version;
            self.next_position += 1;
            self.next_version += 1;
            values.extend::<[Value; 11]>([
                position.into(),
                "bench:raw".into(),
                version.into(),
                uuid::Uuid::now_v7().into(),
                "GameRecorded".into(),
                1i32.into(),
                self.payload.clone().into(),
                self.metadata.clone().into(),
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
