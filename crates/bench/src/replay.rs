//! `league-bench replay`: how fast the read side rebuilds from a long log, each figure beside
//! a baseline measured in the same run.
//!
//! 1. Generates a realistic log ([`crate::generator`]: players; placement leagues of 8
//!    with k = 2..6 and the default games per seat; every game reported, about 1 in 20
//!    corrected) and appends it in big batches (one append per league stream) to a
//!    scratch database beside `--database` (removed afterwards); or, with `--log`, measures
//!    an existing log as it is (read only).
//! 2. Measures, each as the best of a few runs:
//!    - from the database: the rebuild `league replay` runs ([`rebuild`]: the log read once
//!      by the store's scan, hash chain walked, every event decoded and folded into the read
//!      model and the ratings; `rebuild_events_per_s`), beside the store's scan alone
//!      (`scan_events_per_s`: rows read and handed over, nothing checked or decoded), the
//!      scan walking the chain (`scan_chain_events_per_s`: what verifying costs) and
//!      [`raw_scan`] (sqlx, the baseline of `league-bench scale` too);
//!    - with `--before`, the replay this one replaced, once: the whole model folded beside a
//!      paged chain walk, then the ratings from a third read (`before_events_per_s`);
//!    - in memory, the log held as typed domain events (decoded once, untimed): the read
//!      model's fold of every event then every league's standings ranked
//!      (`replay_events_per_s`, goal ≥ 1.5M/s), beside its floor — the same events taken
//!      apart and dropped without folding (`drop_events_per_s`); the rebuild's model fold
//!      (every completed league ranked, then dropped: `rebuild_fold_events_per_s`); and the
//!      rebuild's ratings fold (`ratings_results_per_s`, results per second: Weng–Lin's
//!      share, which runs on a thread of its own).
//!
//!    Freeing what a run built is not timed.

use league_domain::LeagueEvent;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures::TryStreamExt;
use league_domain::DomainEvent;
use league_projections::{
    EventMeta, Keep, RatingsFold, ReadModel, RebuildFold, decode_event, load_model, load_ratings,
    rebuild,
};
use league_store::EventStore;
use league_store::sea_orm::DbBackend;
use league_store::sea_orm::sqlx::{self, Row};

use crate::BenchError;
use crate::figures::{load_average, print_figures, process_cpu_time, thread_cpu_time};
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
    /// Also time the replay this one replaced, once (it holds every league's model: ≈ 1.9 GB
    /// at 1M events).
    #[arg(long)]
    pub before: bool,
    /// Only the in-memory folds (the log is read once, untimed): what a profiler of the read
    /// model wants to see alone. The database figures print as 0.
    #[arg(long, conflicts_with = "before")]
    pub in_memory_only: bool,
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
    scan_events_per_s: f64,
    scan_chain_events_per_s: f64,
    rebuild_events_per_s: f64,
    /// CPU time of the fastest rebuild, every thread's (two idle cores need at least half).
    rebuild_cpu_s: f64,
    /// The rebuild's rate over the chain-walking scan's.
    rebuild_ratio: f64,
    before_events_per_s: Option<f64>,
    /// In memory, per CPU-second of the folding thread (an idle machine's wall rate).
    drop_events_per_cpu_s: f64,
    replay_events_per_s: f64,
    replay_events_per_cpu_s: f64,
    rank_all_leagues_cpu_s: f64,
    rebuild_fold_events_per_cpu_s: f64,
    ratings_results_per_cpu_s: f64,
    results: u64,
    load_average_before: String,
    load_average_after: String,
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
/// freeing what it built is not counted).
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

/// Wall and CPU time of one in-memory run (one thread: on a busy machine its CPU time is
/// what an idle machine's wall time would be).
#[derive(Debug, Clone, Copy)]
struct Timed {
    wall: Duration,
    cpu: Duration,
}

/// A clock of both kinds started now.
struct Stopwatch {
    wall: Instant,
    cpu: Duration,
}

impl Stopwatch {
    fn start() -> Result<Stopwatch, BenchError> {
        Ok(Stopwatch { wall: Instant::now(), cpu: thread_cpu_time()? })
    }

    fn read(&self) -> Result<Timed, BenchError> {
        Ok(Timed { wall: self.wall.elapsed(), cpu: thread_cpu_time()? - self.cpu })
    }
}

/// The best of [`RUNS`] in-memory runs (each on this thread), by CPU time.
fn best_of(mut run: impl FnMut() -> Result<Timed, BenchError>) -> Result<Timed, BenchError> {
    let mut best: Option<Timed> = None;
    for _ in 0..RUNS {
        let timed = run()?;
        if best.is_none_or(|best| timed.cpu < best.cpu) {
            best = Some(timed);
        }
    }
    Ok(best.expect("at least one run"))
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
    let mut figures = measure(&store, args).await?;
    figures.leagues = leagues;
    figures.generate_s = generate_s;
    figures.append_s = append_s;
    Ok(figures)
}

/// Reads the log with the store's scan, handing each batch to `take`; the rows read.
async fn drain(
    store: &EventStore,
    check_chain: bool,
    mut take: impl FnMut(league_store::LogBatch) -> Result<(), BenchError>,
) -> Result<u64, BenchError> {
    let mut scan = store.scan_log(u64::MAX, check_chain).await.context("scan")?;
    while let Some(batch) = scan.next().await {
        take(batch)?;
    }
    let end = scan.finish().await.context("scan")?;
    if let Some(chain) = end.chain
        && let Some(bad) = chain.first_bad
    {
        return Err(anyhow::anyhow!("the hash chain breaks: {bad}").into());
    }
    Ok(end.rows)
}

/// The log as typed events, decoded once.
async fn typed_log(store: &EventStore) -> Result<Vec<(EventMeta, DomainEvent)>, BenchError> {
    let mut typed = Vec::new();
    drain(store, false, |batch| {
        for raw in batch.events() {
            let event = decode_event(raw.event_type, raw.schema_version.into(), raw.payload)
                .context("decode")?;
            let meta = EventMeta {
                position: raw.position,
                stream_version: raw.stream_version,
                recorded_at: raw.recorded_at,
            };
            typed.push((meta, event));
        }
        Ok(())
    })
    .await?;
    Ok(typed)
}

/// Measures the log of `store` (read only).
async fn measure(store: &EventStore, args: &Args) -> Result<Figures, BenchError> {
    let load_average_before = load_average();
    let events = store.head_position().await.context("head")?;
    let per_s = |time: Duration| events as f64 / time.as_secs_f64().max(1e-9);

    let skip = args.in_memory_only;
    let (mut raw, mut scanned, mut chained) = (Duration::MAX, Duration::MAX, Duration::MAX);
    let mut leagues = 0u64;
    let (mut rebuilt, mut rebuild_cpu) = (Duration::MAX, Duration::MAX);
    if !skip {
        raw = best(|| async {
            let started = Instant::now();
            std::hint::black_box(raw_scan(store).await?);
            Ok(started.elapsed())
        })
        .await?;
        let scan = |check_chain| async move {
            let started = Instant::now();
            let mut bytes = 0usize;
            drain(store, check_chain, |batch| {
                bytes += batch.events().map(|raw| raw.payload.len()).sum::<usize>();
                Ok(())
            })
            .await?;
            std::hint::black_box(bytes);
            Ok(started.elapsed())
        };
        scanned = best(|| scan(false)).await?;
        chained = best(|| scan(true)).await?;
        for _ in 0..RUNS {
            let (started, cpu) = (Instant::now(), process_cpu_time()?);
            let done = rebuild(store, None, Keep::Nothing, |_| {}).await.context("rebuild")?;
            if started.elapsed() < rebuilt {
                rebuilt = started.elapsed();
                rebuild_cpu = process_cpu_time()? - cpu;
            }
            leagues = done.model.leagues().count() as u64 + done.dropped;
        }
    }
    let before = match args.before {
        false => None,
        true => {
            let started = Instant::now();
            let (model, verified) = tokio::join!(load_model(store, None, |_| {}), store.verify());
            let model = model.context("fold")?;
            verified.context("verify")?;
            let ratings = load_ratings(store, model.position(), |competition| {
                model.scoring_system_of(competition)
            })
            .await
            .context("ratings")?;
            let elapsed = started.elapsed();
            drop((model, ratings));
            Some(per_s(elapsed))
        }
    };

    let typed = typed_log(store).await?;
    let results = typed
        .iter()
        .filter(|(_, event)| {
            matches!(
                event,
                DomainEvent::League(LeagueEvent::GameFinished(_))
                    | DomainEvent::League(LeagueEvent::GameResultCorrected(_))
            )
        })
        .count() as u64;
    let dropped = best_of(|| {
        let events = typed.clone();
        let clock = Stopwatch::start()?;
        let mut kinds = 0usize;
        for (meta, event) in events {
            kinds = kinds.wrapping_add(event.kind() as usize ^ meta.position as usize);
        }
        std::hint::black_box(kinds);
        clock.read()
    })?;
    let mut rank_cpu = Duration::MAX;
    let folded = best_of(|| {
        let events = typed.clone();
        let clock = Stopwatch::start()?;
        let mut model = ReadModel::new();
        for (meta, event) in events {
            model.apply_event(meta, event).context("fold")?;
        }
        let ranking = Stopwatch::start()?;
        std::hint::black_box(rank_all(&model));
        let timed = clock.read()?;
        rank_cpu = rank_cpu.min(ranking.read()?.cpu);
        drop(model);
        Ok(timed)
    })?;
    let rebuild_fold = best_of(|| {
        let events = typed.clone();
        let clock = Stopwatch::start()?;
        let mut fold = RebuildFold::new(Keep::Every);
        for (meta, event) in events {
            if fold.dropped_league_of(&event).is_some() {
                return Err(anyhow::anyhow!("a late event for a dropped league").into());
            }
            fold.apply(meta, event).context("fold")?;
        }
        let timed = clock.read()?;
        drop(fold);
        Ok(timed)
    })?;
    let rated = best_of(|| {
        let clock = Stopwatch::start()?;
        let mut ratings = RatingsFold::new();
        for (meta, event) in &typed {
            ratings.apply(*meta, event).context("ratings")?;
        }
        let timed = clock.read()?;
        drop(ratings);
        Ok(timed)
    })?;
    drop(typed);
    Ok(Figures {
        database: format!("{:?}", store.backend()),
        events,
        leagues,
        generate_s: 0.0,
        append_s: 0.0,
        raw_scan_events_per_s: per_s(raw),
        scan_events_per_s: per_s(scanned),
        scan_chain_events_per_s: per_s(chained),
        rebuild_events_per_s: per_s(rebuilt),
        rebuild_cpu_s: if skip { 0.0 } else { rebuild_cpu.as_secs_f64() },
        rebuild_ratio: if skip { 0.0 } else { per_s(rebuilt) / per_s(chained) },
        before_events_per_s: before,
        drop_events_per_cpu_s: per_s(dropped.cpu),
        replay_events_per_s: per_s(folded.wall),
        replay_events_per_cpu_s: per_s(folded.cpu),
        rank_all_leagues_cpu_s: rank_cpu.as_secs_f64(),
        rebuild_fold_events_per_cpu_s: per_s(rebuild_fold.cpu),
        ratings_results_per_cpu_s: results as f64 / rated.cpu.as_secs_f64().max(1e-9),
        results,
        load_average_before,
        load_average_after: load_average(),
    })
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    args.log_size.check()?;
    let args = &args;
    let figures = match &args.log {
        Some(url) => {
            let store = EventStore::connect(url).await.context("--log")?;
            measure(&store, args).await?
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
    println!("  generate through the domain     {:>10.2} s", f.generate_s);
    println!("  append (one append per stream)  {:>10.2} s", f.append_s);
    println!("  from the database:");
    println!(
        "    rebuild (`league replay`)     {:>12.0} events/s (read, chain, decode, model, ratings)",
        f.rebuild_events_per_s
    );
    println!("      CPU time of all its threads {:>12.2} s", f.rebuild_cpu_s);
    println!("    store scan walking the chain  {:>12.0} events/s", f.scan_chain_events_per_s);
    println!("    store scan alone              {:>12.0} events/s", f.scan_events_per_s);
    println!("    raw sqlx SELECT scan          {:>12.0} events/s", f.raw_scan_events_per_s);
    println!("    rebuild / chain scan          {:>12.2}", f.rebuild_ratio);
    if let Some(before) = f.before_events_per_s {
        println!(
            "    the replay before (once)      {before:>12.0} events/s (model + verify, then ratings)"
        );
    }
    println!("  in memory (typed events), per CPU-second of the folding thread:");
    println!(
        "    model fold, every league ranked {:>10.0} events/s (goal >= 1,500,000; wall {:.0}/s)",
        f.replay_events_per_cpu_s, f.replay_events_per_s
    );
    println!("      of which ranking            {:>12.3} s", f.rank_all_leagues_cpu_s);
    println!(
        "    events taken apart and dropped {:>11.0} events/s (floor)",
        f.drop_events_per_cpu_s
    );
    println!(
        "    rebuild's model fold          {:>12.0} events/s (completed leagues ranked, dropped)",
        f.rebuild_fold_events_per_cpu_s
    );
    println!(
        "    ratings alone                 {:>12.0} results/s ({} results)",
        f.ratings_results_per_cpu_s, f.results
    );
    println!(
        "  load average {} (before) / {} (after)",
        f.load_average_before, f.load_average_after
    );
}
