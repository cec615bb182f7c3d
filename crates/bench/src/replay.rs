//! `league-bench replay`: how fast the read side rebuilds standings from a long log, next
//! to a raw scan of the same table in the same run.
//!
//! 1. Generates a realistic log ([`crate::generator`]: players; placement leagues of 8
//!    with k = 2..6 and the default games per seat; every game reported, about 1 in 20
//!    corrected) and appends it in big batches (one append per league stream) to a
//!    scratch database beside `--database` (removed afterwards); or, with `--log`, measures
//!    an existing log as it is (read only).
//! 2. Measures, each as the best of a few runs:
//!    - raw scan ([`raw_scan`], also the baseline of `league-bench scale`): the query the
//!      rebuild runs, every row fetched and every column it reads taken as the driver's
//!      bytes, text or integers — nothing parsed (no JSON, no timestamp);
//!    - replay from the database: [`load_model`], the fold `league replay` runs (and `league-bench
//!      scale` times as its rebuild): each payload decoded from its JSON text and
//!      folded (`replay_db_events_per_s`); then, apart, every league's standings ranked
//!      (`rank_all_leagues_s`), which a replay does lazily, per league, when asked;
//!    - replay from memory: the log held in memory as typed domain events, folded, then
//!      every league's standings ranked (`replay_events_per_s`, goal ≥ 1M/s); and the same
//!      from the store's `RecordedEvent`s, whose JSON values are decoded on the way
//!      (`replay_recorded_events_per_s`).
//!
//!    Freeing the model after a run is not timed.
//! 3. `replay_ratio` = database replay rate / raw scan rate (goal ≥ 0.5).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures::TryStreamExt;
use league_projections::{EventMeta, ReadModel, decode_event, load_model};
use league_store::EventStore;
use league_store::sea_orm::DbBackend;
use league_store::sea_orm::sqlx::{self, Row};

use crate::BenchError;
use crate::figures::print_figures;
use crate::generator::{LogSize, append_all, generate};
use crate::scratch::{ScratchArgs, in_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: ScratchArgs,
    #[command(flatten)]
    pub log_size: LogSize,
    /// Measure this existing log (SQLite or PostgreSQL URL) as it is, read only, instead of
    /// generating one.
    #[arg(long, value_name = "URL")]
    pub log: Option<String>,
}

/// Measurements per figure; the best one counts (the machine is shared).
const RUNS: usize = 3;

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    events: u64,
    leagues: u64,
    generate_s: f64,
    append_s: f64,
    raw_scan_events_per_s: f64,
    replay_db_events_per_s: f64,
    replay_ratio: f64,
    /// The database replay plus ranking every league's standings.
    replay_db_then_ranked_events_per_s: f64,
    replay_events_per_s: f64,
    replay_recorded_events_per_s: f64,
    rank_all_leagues_s: f64,
}

/// The baseline of the rebuild benches: the rebuild's own query, every row fetched and
/// every column it reads taken as the driver hands it over — integers, the event type and
/// payload as text, the commit time as its stored text (SQLite) or bytes (PostgreSQL) —
/// and touched; nothing parsed.
pub async fn raw_scan(store: &EventStore) -> Result<u64, BenchError> {
    const SQLITE: &str = "SELECT position, stream_version, event_type, schema_version, payload, \
                          recorded_at FROM events WHERE position <= ?1 ORDER BY position";
    const POSTGRES: &str = "SELECT position, stream_version, event_type, schema_version, \
                            payload, recorded_at FROM events WHERE position <= $1 ORDER BY position";
    let mut touched = 0u64;
    macro_rules! scan {
        ($pool:expr, $sql:expr, |$row:ident| $time:expr) => {{
            let mut rows = sqlx::query($sql).bind(i64::MAX).fetch($pool);
            while let Some($row) = rows.try_next().await.context("scan")? {
                let position: i64 = $row.try_get(0).context("scan")?;
                let version: i64 = $row.try_get(1).context("scan")?;
                let event_type: &str = $row.try_get(2).context("scan")?;
                let schema: i32 = $row.try_get(3).context("scan")?;
                let payload: &str = $row.try_get(4).context("scan")?;
                let at: &[u8] = $time;
                touched = touched.wrapping_add(
                    (position + version + i64::from(schema)) as u64
                        + (event_type.len() + payload.len()) as u64
                        + at.last().copied().map_or(0, u64::from),
                );
            }
        }};
    }
    let db = store.connection();
    match store.backend() {
        DbBackend::Sqlite => scan!(db.get_sqlite_connection_pool(), SQLITE, |row| row
            .try_get_unchecked::<&str, _>(5)
            .context("scan")?
            .as_bytes()),
        _ => scan!(db.get_postgres_connection_pool(), POSTGRES, |row| row
            .try_get_raw(5)
            .context("scan")?
            .as_bytes()
            .map_err(|error| anyhow::anyhow!("scan: {error}"))?),
    }
    Ok(touched)
}

/// Ranks every league's standings (the lazy part of a replay), returning a checksum.
fn rank_all(model: &ReadModel) -> usize {
    model.leagues().map(|league| model.standings(league.id).len()).sum()
}

/// The best of [`RUNS`] timings; each run returns the time of its own measured part (so
/// freeing the model afterwards is not counted).
async fn best<F, Fut>(mut run: F) -> Result<Duration, BenchError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Duration, BenchError>>,
{
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        best = best.min(run().await?);
    }
    Ok(best)
}

/// Generates and appends the log into the scratch database at `url`, then measures it.
async fn generate_and_measure(url: &str, args: &Args) -> Result<Figures, BenchError> {
    let started = Instant::now();
    let (streams, leagues) = generate(args.log_size.events)?;
    let generate_s = started.elapsed().as_secs_f64();
    let store = EventStore::connect(url).await.context("scratch database")?;
    store.migrate().await.context("migrate the scratch database")?;
    let started = Instant::now();
    append_all(&store, streams).await?;
    let append_s = started.elapsed().as_secs_f64();
    let mut figures = measure(&store).await?;
    figures.leagues = leagues;
    figures.generate_s = generate_s;
    figures.append_s = append_s;
    Ok(figures)
}

/// Measures the log of `store` (read only).
async fn measure(store: &EventStore) -> Result<Figures, BenchError> {
    let events = store.head_position().await.context("head")?;
    let per_s = |time: Duration| events as f64 / time.as_secs_f64().max(1e-9);

    let scan = best(|| async {
        let started = Instant::now();
        std::hint::black_box(raw_scan(store).await?);
        Ok(started.elapsed())
    })
    .await?;
    let mut leagues = 0u64;
    let (mut db_replay, mut db_rank) = (Duration::MAX, Duration::MAX);
    for _ in 0..RUNS {
        let started = Instant::now();
        let model = load_model(store, None, |_| {}).await.context("replay")?;
        db_replay = db_replay.min(started.elapsed());
        let ranking = Instant::now();
        std::hint::black_box(rank_all(&model));
        db_rank = db_rank.min(ranking.elapsed());
        leagues = model.leagues().count() as u64;
        drop(model);
    }

    let recorded = store.read_all(1, u64::MAX).await.context("load the log")?;
    let recorded_time = best(|| async {
        let started = Instant::now();
        let mut model = ReadModel::new();
        for event in &recorded {
            model.apply(event).context("fold")?;
        }
        std::hint::black_box(rank_all(&model));
        let elapsed = started.elapsed();
        drop(model);
        Ok(elapsed)
    })
    .await?;
    let mut typed_time = Duration::MAX;
    let mut rank_time = Duration::MAX;
    for _ in 0..RUNS {
        let typed = recorded
            .iter()
            .map(|e| {
                let event = decode_event(&e.event_type, e.schema_version.into(), &e.payload)
                    .context("decode")?;
                let meta = EventMeta {
                    position: e.position,
                    stream_version: e.stream_version,
                    recorded_at: e.recorded_at,
                };
                Ok((meta, event))
            })
            .collect::<Result<Vec<_>, BenchError>>()?;
        let started = Instant::now();
        let mut model = ReadModel::new();
        for (meta, event) in typed {
            model.apply_event(meta, event).context("fold")?;
        }
        let folded = started.elapsed();
        std::hint::black_box(rank_all(&model));
        let elapsed = started.elapsed();
        drop(model);
        typed_time = typed_time.min(elapsed);
        rank_time = rank_time.min(elapsed - folded);
    }
    Ok(Figures {
        database: format!("{:?}", store.backend()),
        events,
        leagues,
        generate_s: 0.0,
        append_s: 0.0,
        raw_scan_events_per_s: per_s(scan),
        replay_db_events_per_s: per_s(db_replay),
        replay_ratio: per_s(db_replay) / per_s(scan),
        replay_db_then_ranked_events_per_s: per_s(db_replay + db_rank),
        replay_events_per_s: per_s(typed_time),
        replay_recorded_events_per_s: per_s(recorded_time),
        rank_all_leagues_s: rank_time.as_secs_f64(),
    })
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    args.log_size.check()?;
    let args = &args;
    let figures = match &args.log {
        Some(url) => {
            let store = EventStore::connect(url).await.context("--log")?;
            measure(&store).await?
        }
        None => {
            in_scratch(&args.scratch.database, "replay", false, |url| async move {
                generate_and_measure(&url, args).await
            })
            .await?
        }
    };
    print_figures(&figures, args.scratch.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

fn print_table(f: &Figures) {
    println!("replay bench on {} ({} events, {} leagues)", f.database, f.events, f.leagues);
    println!("  generate through the domain   {:>10.2} s", f.generate_s);
    println!("  append (one append per stream){:>10.2} s", f.append_s);
    println!("  raw SELECT scan               {:>12.0} events/s", f.raw_scan_events_per_s);
    println!(
        "  replay from the database      {:>12.0} events/s (fold, as `league replay`)",
        f.replay_db_events_per_s
    );
    println!("  replay_ratio (db / scan)      {:>12.2}   (goal >= 0.5)", f.replay_ratio);
    println!(
        "    then every league ranked    {:>12.0} events/s",
        f.replay_db_then_ranked_events_per_s
    );
    println!(
        "  replay from memory            {:>12.0} events/s (goal >= 1,000,000)",
        f.replay_events_per_s
    );
    println!("    of which ranking every league {:>8.3} s", f.rank_all_leagues_s);
    println!(
        "  replay of RecordedEvents      {:>12.0} events/s (JSON values decoded too)",
        f.replay_recorded_events_per_s
    );
}
