//! `league-bench standby`: how far behind the primary a gateway reading a hot standby is.
//! A PostgreSQL primary and a streaming-replication standby are made in a temporary
//! directory (`league_testkit::replication`, as the end-to-end test makes them; `TMPDIR`
//! says where), with `fsync=on` unless `--fsync off`. Two applications follow the log as
//! two gateways would: one reads the primary (the baseline), one reads the standby
//! (`--read-database`). A writer of its own, like a third gateway, appends generated league
//! events one at a time at `--rate` appends per second from `--streams` streams at once; for
//! each append, the time from its acknowledgement to each application's notification of its
//! position, p50, p99 and max, measured in the same run. Both applications must notify
//! every position, in order (the bench fails otherwise). Beside them, the standby's own
//! lag as PostgreSQL reports it (`pg_stat_replication.flush_lag` and `replay_lag` on the
//! primary, sampled every 100 ms): what any reader of the standby waits for.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use hdrhistogram::Histogram;
use league_app::{App, AppSettings};
use league_store::sea_orm::{ConnectionTrait, Statement};
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::replication::ReplicatedPair;
use serde::Serialize;
use tokio::sync::{broadcast, mpsc};

use crate::BenchError;
use crate::figures::{load_average, print_figures};
use crate::generator::{Generator, StreamEvents, WRITERS, append_streams};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Appends per second while measuring.
    #[arg(long, default_value_t = 1000)]
    pub rate: u32,
    /// How long to append at that rate.
    #[arg(long, default_value_t = 20)]
    pub seconds: u32,
    /// League streams appended to at once (one append in flight each).
    #[arg(long, default_value_t = 16)]
    pub streams: usize,
    /// The servers' `fsync` setting: `on` (durable, as in production) or `off`.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub fsync: String,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
struct Figures {
    load_average_before: String,
    load_average_after: String,
    fsync: String,
    appends: usize,
    target_rate: u32,
    achieved_rate: f64,
    streams: usize,
    /// The append itself, from the call to its acknowledgement.
    append: Quantiles,
    /// Baseline: the application reading the primary.
    primary_reader: Quantiles,
    /// The application reading the standby.
    standby_reader: Quantiles,
    /// The standby's WAL flush and replay lag as the primary reports it (samples).
    postgres_flush_lag: Quantiles,
    postgres_replay_lag: Quantiles,
}

#[derive(Debug, Serialize)]
struct Quantiles {
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

impl Quantiles {
    fn of(histogram: &Histogram<u64>) -> Quantiles {
        let ms = |micros: u64| micros as f64 / 1000.0;
        Quantiles {
            p50_ms: ms(histogram.value_at_quantile(0.5)),
            p99_ms: ms(histogram.value_at_quantile(0.99)),
            max_ms: ms(histogram.max()),
        }
    }
}

/// One measured append: its log position, when it was called and acknowledged.
struct Appended {
    position: u64,
    called: Instant,
    acknowledged: Instant,
}

/// How long the readers may take to notify the last append before the bench gives up.
const DRAIN: Duration = Duration::from_secs(60);

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.rate == 0 || args.seconds == 0 || args.streams == 0 {
        return Err(BenchError::BadInput(
            "--rate, --seconds and --streams must be at least 1".into(),
        ));
    }
    let fsync = args.fsync.clone();
    eprintln!("standby: making a primary and a hot standby (fsync={fsync})");
    let pair = tokio::task::spawn_blocking(move || ReplicatedPair::try_start(&[("fsync", &fsync)]))
        .await
        .context("start the servers")?
        .map_err(|error| anyhow::anyhow!(error))?;
    let figures = measure(&pair, &args).await;
    drop(pair);
    let figures = figures?;
    print_figures(&figures, args.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

async fn measure(pair: &ReplicatedPair, args: &Args) -> Result<Figures, BenchError> {
    let (primary, standby) = (pair.primary_url(), pair.standby_url());
    let writer = EventStore::connect(&primary).await.context("connect to the primary")?;
    writer.migrate().await.context("migrate")?;
    let settings = AppSettings::default();
    let on_primary = App::connect(&primary, None, settings).await.context("reader on primary")?;
    let on_standby =
        App::connect(&primary, Some(&standby), settings).await.context("reader on standby")?;

    // Every player first (the leagues name them), not measured.
    let appends = (u64::from(args.rate) * u64::from(args.seconds)) as usize;
    let mut generator = Generator::new(appends as u64 + 10_000);
    let mut registrations = Vec::new();
    let mut leagues = Vec::new();
    for stream in generator.by_ref() {
        let stream = stream?;
        if league_domain::league_id_of_stream(&stream.stream).is_some() {
            leagues.push(stream);
        } else {
            registrations.push(stream);
        }
    }
    let registered = futures::stream::iter(registrations.into_iter().map(Ok));
    append_streams(&writer, registered, WRITERS, |_, _| {}).await?;
    let head = writer.head_position().await.context("head")?;
    for app in [&on_primary, &on_standby] {
        app.wait_applied(head).await.context("the readers catch up")?;
    }

    let primary_seen = record_notifications(on_primary.subscribe());
    let standby_seen = record_notifications(on_standby.subscribe());
    let load_average_before = load_average();
    eprintln!(
        "standby: {appends} appends at {}/s from {} streams (load average {load_average_before})",
        args.rate, args.streams
    );
    let sampling = tokio::sync::watch::channel(false);
    let sampler = tokio::spawn(sample_replication_lag(writer.clone(), sampling.1));
    let started = Instant::now();
    let appended = append_paced(&writer, leagues, appends, args.rate, args.streams).await?;
    let elapsed = started.elapsed();
    let _ = sampling.0.send(true);
    let (flush_lag, replay_lag) = sampler.await.context("the replication sampler")??;
    let last = appended.iter().map(|a| a.position).max().context("nothing appended")?;
    let load_average_after = load_average();

    let primary_seen = collect(primary_seen, &on_primary, last).await?;
    let standby_seen = collect(standby_seen, &on_standby, last).await?;
    let mut append = histogram()?;
    let mut primary_lag = histogram()?;
    let mut standby_lag = histogram()?;
    for one in &appended {
        record(&mut append, one.acknowledged.duration_since(one.called))?;
        for (seen, lag) in [(&primary_seen, &mut primary_lag), (&standby_seen, &mut standby_lag)] {
            let at = seen
                .get(&one.position)
                .with_context(|| format!("position {} was never notified", one.position))?;
            // A notification can beat the writer's own acknowledgement: no lag then.
            record(lag, at.saturating_duration_since(one.acknowledged))?;
        }
    }
    Ok(Figures {
        load_average_before,
        load_average_after,
        fsync: args.fsync.clone(),
        appends: appended.len(),
        target_rate: args.rate,
        achieved_rate: appended.len() as f64 / elapsed.as_secs_f64(),
        streams: args.streams,
        append: Quantiles::of(&append),
        primary_reader: Quantiles::of(&primary_lag),
        standby_reader: Quantiles::of(&standby_lag),
        postgres_flush_lag: Quantiles::of(&flush_lag),
        postgres_replay_lag: Quantiles::of(&replay_lag),
    })
}

/// The standby's flush and replay lag as `pg_stat_replication` on the primary shows them,
/// every 100 ms until `stop` turns true. A lag is null while the standby is idle: skipped.
async fn sample_replication_lag(
    primary: EventStore,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Result<(Histogram<u64>, Histogram<u64>), BenchError> {
    const LAGS: &str = "SELECT (EXTRACT(EPOCH FROM flush_lag) * 1e6)::bigint, \
        (EXTRACT(EPOCH FROM replay_lag) * 1e6)::bigint FROM pg_stat_replication";
    let (mut flush, mut replay) = (histogram()?, histogram()?);
    while !*stop.borrow() {
        let statement = Statement::from_string(primary.backend(), LAGS);
        let rows = primary.connection().query_all_raw(statement).await.context("sample")?;
        for row in rows {
            for (index, histogram) in [(0, &mut flush), (1, &mut replay)] {
                let micros: Option<i64> = row.try_get_by_index(index).context("a lag")?;
                if let Some(micros) = micros.and_then(|m| u64::try_from(m).ok()) {
                    histogram.record(micros).context("record")?;
                }
            }
        }
        let _ = tokio::time::timeout(Duration::from_millis(100), stop.changed()).await;
    }
    Ok((flush, replay))
}

/// Appends `count` events one at a time, each from the next of `leagues`' streams, at most
/// `rate` a second (a ticker hands out one permit per append) with `streams` in flight.
async fn append_paced(
    writer: &EventStore,
    leagues: Vec<StreamEvents>,
    count: usize,
    rate: u32,
    streams: usize,
) -> Result<Vec<Appended>, BenchError> {
    let (permits, receiver) = mpsc::channel::<()>(streams);
    let receiver = Arc::new(tokio::sync::Mutex::new(receiver));
    let ticker = tokio::spawn(async move {
        // The n-th permit is due n / rate after the start: a late tick is made up at once,
        // so the average rate holds (a backlog is at most one permit per stream, the
        // channel's capacity).
        let start = tokio::time::Instant::now();
        for n in 0..count {
            tokio::time::sleep_until(start + Duration::from_secs_f64(n as f64 / f64::from(rate)))
                .await;
            if permits.send(()).await.is_err() {
                return;
            }
        }
    });
    let queue = Arc::new(Mutex::new(leagues.into_iter()));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..streams {
        let (writer, queue, receiver) = (writer.clone(), queue.clone(), receiver.clone());
        tasks.spawn(async move {
            let mut appended = Vec::new();
            loop {
                let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
                let Some(StreamEvents { stream, events }) = next else { break };
                let stream = StreamId::new(stream).context("stream id")?;
                for (version, event) in events.iter().enumerate() {
                    if receiver.lock().await.recv().await.is_none() {
                        return Ok::<_, BenchError>(appended);
                    }
                    let new = NewEvent::new(
                        event.event_type(),
                        event.schema_version() as i32,
                        event.payload(),
                    );
                    let expected = match version {
                        0 => ExpectedVersion::NoStream,
                        v => ExpectedVersion::Exact(v as u64),
                    };
                    let metadata = Metadata::default().with_actor("admin");
                    let called = Instant::now();
                    let outcome = writer
                        .append(&stream, expected, vec![new], metadata)
                        .await
                        .context("append")?;
                    appended.push(Appended {
                        position: outcome.last_position,
                        called,
                        acknowledged: Instant::now(),
                    });
                }
            }
            Ok(appended)
        });
    }
    let mut appended = Vec::with_capacity(count);
    while let Some(joined) = tasks.join_next().await {
        appended.extend(joined.context("append task")??);
    }
    ticker.abort();
    Ok(appended)
}

/// When each position was notified to one application, and what went wrong, if anything.
#[derive(Default)]
struct Seen {
    at: HashMap<u64, Instant>,
    problem: Option<String>,
}

type SharedSeen = Arc<Mutex<Seen>>;

/// Records when each position is notified, in a map the caller reads once the application
/// has applied the last append; out of order or missed notifications are recorded as a
/// problem.
fn record_notifications(
    mut notifications: broadcast::Receiver<Arc<league_app::Notification>>,
) -> SharedSeen {
    let seen = SharedSeen::default();
    let recorder = seen.clone();
    tokio::spawn(async move {
        let mut previous = 0;
        loop {
            let received = notifications.recv().await;
            let now = Instant::now();
            let mut seen = recorder.lock().unwrap_or_else(PoisonError::into_inner);
            match received {
                Ok(note) => {
                    let position = note.event.position;
                    if position <= previous {
                        seen.problem =
                            Some(format!("position {position} notified after {previous}"));
                        return;
                    }
                    previous = position;
                    seen.at.insert(position, now);
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    seen.problem = Some(format!("the recorder missed {missed} notifications"));
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    });
    seen
}

/// Waits until `app`'s recorder has seen `last`; what it recorded.
async fn collect(
    seen: SharedSeen,
    app: &App,
    last: u64,
) -> Result<HashMap<u64, Instant>, BenchError> {
    let deadline = Instant::now() + DRAIN;
    loop {
        {
            let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(problem) = seen.problem.take() {
                return Err(anyhow::anyhow!(problem).into());
            }
            if seen.at.contains_key(&last) {
                return Ok(std::mem::take(&mut seen.at));
            }
        }
        if Instant::now() > deadline {
            let applied = app.applied_position();
            return Err(anyhow::anyhow!(
                "position {last} not notified within {DRAIN:?} (applied: {applied})"
            )
            .into());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn histogram() -> Result<Histogram<u64>, BenchError> {
    Ok(Histogram::<u64>::new(3).context("histogram")?)
}

fn record(histogram: &mut Histogram<u64>, duration: Duration) -> Result<(), BenchError> {
    let micros = u64::try_from(duration.as_micros()).unwrap_or(u64::MAX);
    histogram.record(micros).context("record")?;
    Ok(())
}

fn print_table(f: &Figures) {
    println!(
        "standby lag: PostgreSQL primary + streaming hot standby (fsync={}), load average {} \
         before, {} after",
        f.fsync, f.load_average_before, f.load_average_after
    );
    println!(
        "{} single-event appends from {} streams, target {}/s, achieved {:.0}/s",
        f.appends, f.streams, f.target_rate, f.achieved_rate
    );
    println!("{:<48} {:>9} {:>9} {:>9}", "", "p50 ms", "p99 ms", "max ms");
    for (name, q) in [
        ("append (call to acknowledgement)", &f.append),
        ("reader on the primary: ack → notification", &f.primary_reader),
        ("reader on the standby: ack → notification", &f.standby_reader),
        ("standby WAL flush lag (pg_stat_replication)", &f.postgres_flush_lag),
        ("standby replay lag (pg_stat_replication)", &f.postgres_replay_lag),
    ] {
        println!("{name:<48} {:>9.2} {:>9.2} {:>9.2}", q.p50_ms, q.p99_ms, q.max_ms);
    }
}
