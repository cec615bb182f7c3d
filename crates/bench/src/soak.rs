//! `league-bench soak --seconds N`: the real server under a mixed load for a bounded time,
//! to show that nothing piles up (memory, file descriptors, latency).
//!
//! 1. Seeds a scratch database as `league-bench graphql` does (100 players, a 64-player
//!    league with 1,000 results) and serves it in-process with [`league_gateway::run`] on a
//!    loopback port (rate limits off: the soak measures the server, not the limiter).
//! 2. `--clients` clients (default 64) for `--seconds`: three quarters read (the league's
//!    standings and the first page of leagues, alternately, back to back); one eighth
//!    write (the admin corrects a random finished game, one correction per second per
//!    writer: the log grows at a fixed rate, and the score history the league's model keeps
//!    for each correction is the only growth expected); one eighth hold `standingsChanged`
//!    subscriptions over `/graphql/ws`, reconnecting every 2 s so connections churn.
//! 3. Samples the process's resident memory (`VmRSS`) and open file descriptors
//!    (`/proc/self/fd`) once the first fifth of the run is over (start) and at the end,
//!    and the reads' p99 over the first and the last fifth.
//! 4. States and checks the bound: resident memory grows by less than 20 % and open
//!    descriptors by at most 16 between start and end. The server and the clients share
//!    the process, so both are counted; neither grows with time when nothing leaks.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use league_gateway::GatewayConfig;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use uuid::Uuid;

use crate::BenchError;
use crate::figures::{Process, print_figures, resident_bytes};
use crate::scratch::{TempScratchArgs, in_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: TempScratchArgs,
    /// Seconds of load.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Concurrent clients (readers, writers and subscribers).
    #[arg(long, default_value_t = 64)]
    pub clients: usize,
}

/// Largest accepted growth of resident memory between start and end.
const RSS_GROWTH_BOUND: f64 = 0.20;
/// Largest accepted growth of open file descriptors between start and end (connections
/// of reconnecting subscribers may be in flight at either sample).
const FD_GROWTH_BOUND: i64 = 16;
/// Pause between two corrections of one writer (8 writers: 8 corrections a second, far
/// above a league site's results, yet a log growth the run can state).
const WRITE_PAUSE: Duration = Duration::from_secs(1);
/// How long a subscriber holds a connection before reconnecting.
const SUBSCRIBER_HOLD: Duration = Duration::from_secs(2);

const STANDINGS: &str =
    "query($league: ID!) { standings(leagueId: $league) { rank player { id name } total played } }";
const LEAGUES: &str = "{ leagues(first: 20) { totalCount nodes { id name status size } } }";
const CORRECT: &str = "mutation($g: ID!, $r: GameResultInput!) { correctGameResult(gameId: $g, result: $r, reason: \"soak\") { id } }";
const SUBSCRIPTION: &str =
    "subscription($league: ID!) { standingsChanged(leagueId: $league) { position } }";

/// Process figures at one instant.
#[derive(Debug, Clone, Copy, serde::Serialize)]
struct Snapshot {
    rss_mb: f64,
    open_fds: i64,
    read_p99_ms: f64,
}

#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    seconds: u64,
    readers: usize,
    writers: usize,
    subscribers: usize,
    reads: u64,
    writes: u64,
    /// Corrections refused with CONFLICT: eight writers correcting one league's games race
    /// for its stream, and a refused write is a client's cue to retry, not a failure.
    conflicts: u64,
    subscription_messages: u64,
    ws_connections: u64,
    start: Snapshot,
    end: Snapshot,
    rss_growth: f64,
    fd_growth: i64,
    bound: String,
    within_bound: bool,
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.clients < 8 || args.seconds < 5 {
        return Err(BenchError::BadInput(
            "--clients must be at least 8 and --seconds at least 5".to_owned(),
        ));
    }
    let beside = args.scratch.beside();
    let args = &args;
    let figures =
        in_scratch(&beside, "soak", false, |url| async move { measure(&url, args).await }).await?;
    print_figures(&figures, args.scratch.json, print_table)?;
    Ok(if figures.within_bound { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn print_table(f: &Figures) {
    println!("database        {} (scratch, removed afterwards)", f.database);
    println!(
        "load            {} s: {} readers, {} writers, {} subscribers (reconnecting every {} s)",
        f.seconds,
        f.readers,
        f.writers,
        f.subscribers,
        SUBSCRIBER_HOLD.as_secs()
    );
    println!(
        "done            {} reads, {} writes ({} refused with CONFLICT), {} subscription messages over {} connections",
        f.reads, f.writes, f.conflicts, f.subscription_messages, f.ws_connections
    );
    println!("                {:>10} {:>10} {:>12}", "RSS MB", "open fds", "read p99 ms");
    for (name, s) in [("start", &f.start), ("end", &f.end)] {
        println!("{name:<15} {:>10.1} {:>10} {:>12.2}", s.rss_mb, s.open_fds, s.read_p99_ms);
    }
    println!(
        "growth          RSS {:+.1} %, fds {:+}; bound: {} → {}",
        f.rss_growth * 100.0,
        f.fd_growth,
        f.bound,
        if f.within_bound { "met" } else { "NOT met" }
    );
}

/// Resident memory of this process, in MiB (as the kernel's `VmRSS`, in kB / 1024).
fn rss_mb() -> Result<f64, BenchError> {
    Ok(resident_bytes(Process::This)? / (1024.0 * 1024.0))
}

/// Open file descriptors of this process.
fn open_fds() -> i64 {
    std::fs::read_dir("/proc/self/fd").map_or(0, |dir| dir.count() as i64)
}

/// Read latencies in µs (1 µs to 60 s, 3 significant digits): a fixed-size histogram, so
/// recording a read allocates nothing (the clients share the measured process).
fn latency_histogram() -> anyhow::Result<Histogram<u64>> {
    Ok(Histogram::new_with_bounds(1, 60_000_000, 3)?)
}

fn p99_ms(latencies: &Histogram<u64>) -> f64 {
    if latencies.is_empty() {
        return 0.0;
    }
    latencies.value_at_quantile(0.99) as f64 / 1000.0
}

/// What the clients share.
struct Shared {
    endpoint: String,
    ws_url: String,
    admin: String,
    league: Uuid,
    /// Each seeded game and its seated players.
    games: Vec<(Uuid, Vec<Uuid>)>,
    started: Instant,
    deadline: Instant,
    reads: AtomicU64,
    writes: AtomicU64,
    conflicts: AtomicU64,
    messages: AtomicU64,
    connections: AtomicU64,
}

async fn measure(url: &str, args: &Args) -> Result<Figures, BenchError> {
    let (app, database, league, games) = crate::graphql::seeded_games(url, true).await?;
    if games.is_empty() {
        return Err(anyhow::anyhow!("the seeded league has no finished game").into());
    }

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .context("cannot listen on a loopback port")?;
    let address = listener.local_addr().context("bound address")?;
    let admin = league_gateway::generate_token();
    let mut config = GatewayConfig::new(admin.clone());
    config.rate = league_gateway::config::RateLimits::OFF;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(league_gateway::run(listener, app.clone(), config, async {
        stopped.await.ok();
    }));

    let started = Instant::now();
    let shared = Arc::new(Shared {
        endpoint: format!("http://{address}/graphql"),
        ws_url: format!("ws://{address}/graphql/ws"),
        admin,
        league,
        games,
        started,
        deadline: started + Duration::from_secs(args.seconds),
        reads: AtomicU64::new(0),
        writes: AtomicU64::new(0),
        conflicts: AtomicU64::new(0),
        messages: AtomicU64::new(0),
        connections: AtomicU64::new(0),
    });
    let outcome = load(&shared, args).await;
    stop.send(()).ok();
    match tokio::time::timeout(Duration::from_secs(15), server).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(error))) => {
            return Err(anyhow::Error::new(error).context("the server failed").into());
        }
        Ok(Err(error)) => return Err(anyhow::Error::new(error).context("the server task").into()),
        Err(_) => return Err(anyhow::anyhow!("the server did not stop within 15 s").into()),
    }
    let (reads, readers, writers, subscribers, start, end) = outcome?;
    let rss_growth = end.rss_mb / start.rss_mb.max(1e-9) - 1.0;
    let fd_growth = end.open_fds - start.open_fds;
    Ok(Figures {
        database,
        seconds: args.seconds,
        readers,
        writers,
        subscribers,
        reads,
        writes: shared.writes.load(Ordering::Relaxed),
        conflicts: shared.conflicts.load(Ordering::Relaxed),
        subscription_messages: shared.messages.load(Ordering::Relaxed),
        ws_connections: shared.connections.load(Ordering::Relaxed),
        start,
        end,
        rss_growth,
        fd_growth,
        bound: format!(
            "RSS growth < {:.0} %, open fds growth ≤ {FD_GROWTH_BOUND}",
            RSS_GROWTH_BOUND * 100.0
        ),
        within_bound: rss_growth < RSS_GROWTH_BOUND && fd_growth <= FD_GROWTH_BOUND,
    })
}

type Loaded = (u64, usize, usize, usize, Snapshot, Snapshot);

async fn load(shared: &Arc<Shared>, args: &Args) -> Result<Loaded, BenchError> {
    let http = crate::graphql::load_client(args.clients)?;
    let writers = args.clients / 8;
    let subscribers = args.clients / 8;
    let readers = args.clients - writers - subscribers;
    let mut tasks = Vec::new();
    for n in 0..readers {
        let (http, shared) = (http.clone(), shared.clone());
        tasks.push(tokio::spawn(async move { reader(&http, &shared, n).await }));
    }
    for n in 0..writers {
        let (http, shared) = (http.clone(), shared.clone());
        tasks.push(tokio::spawn(async move { writer(&http, &shared, n).await }));
    }
    for _ in 0..subscribers {
        let shared = shared.clone();
        tasks.push(tokio::spawn(async move { subscriber(&shared).await }));
    }
    let fifth = Duration::from_secs_f64(args.seconds as f64 / 5.0);
    tokio::time::sleep_until((shared.started + fifth).into()).await;
    let (start_rss, start_fds) = (rss_mb()?, open_fds());
    tokio::time::sleep_until((shared.deadline - Duration::from_millis(200)).into()).await;
    let (end_rss, end_fds) = (rss_mb()?, open_fds());
    let mut first = latency_histogram()?;
    let mut last = latency_histogram()?;
    for task in tasks {
        let fifths = task.await.context("a client task")?.context("a client under load")?;
        if let Some(fifths) = fifths {
            first.add(&fifths.first).context("merge latencies")?;
            last.add(&fifths.last).context("merge latencies")?;
        }
    }
    let start = Snapshot { rss_mb: start_rss, open_fds: start_fds, read_p99_ms: p99_ms(&first) };
    let end = Snapshot { rss_mb: end_rss, open_fds: end_fds, read_p99_ms: p99_ms(&last) };
    let reads = shared.reads.load(Ordering::Relaxed);
    Ok((reads, readers, writers, subscribers, start, end))
}

/// A reader's latencies over the first and the last fifth of the run (writers and
/// subscribers report none).
struct Fifths {
    first: Histogram<u64>,
    last: Histogram<u64>,
}

type Samples = Option<Fifths>;

async fn post(
    http: &reqwest::Client,
    shared: &Shared,
    body: &serde_json::Value,
    admin: bool,
) -> anyhow::Result<()> {
    let mut request = http.post(&shared.endpoint).json(body);
    if admin {
        request = request.bearer_auth(&shared.admin);
    }
    let response = request.send().await?;
    let status = response.status();
    let bytes = response.bytes().await?;
    if !status.is_success() || bytes.windows(8).any(|w| w == b"\"errors\"") {
        anyhow::bail!("HTTP {status}: {}", String::from_utf8_lossy(&bytes[..bytes.len().min(300)]));
    }
    Ok(())
}

async fn reader(http: &reqwest::Client, shared: &Shared, n: usize) -> anyhow::Result<Samples> {
    let standings = json!({ "query": STANDINGS, "variables": { "league": shared.league } });
    let leagues = json!({ "query": LEAGUES });
    let mut fifths = Fifths { first: latency_histogram()?, last: latency_histogram()? };
    let mut turn = n;
    let fifth = (shared.deadline - shared.started) / 5;
    while Instant::now() < shared.deadline {
        let body = if turn.is_multiple_of(2) { &standings } else { &leagues };
        turn += 1;
        let sent = Instant::now();
        post(http, shared, body, false).await?;
        let micros = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
        shared.reads.fetch_add(1, Ordering::Relaxed);
        let at = sent - shared.started;
        if at < fifth {
            fifths.first.saturating_record(micros);
        } else if at >= (shared.deadline - shared.started) - fifth {
            fifths.last.saturating_record(micros);
        }
    }
    Ok(Some(fifths))
}

async fn writer(http: &reqwest::Client, shared: &Shared, n: usize) -> anyhow::Result<Samples> {
    let mut turn = n;
    while Instant::now() < shared.deadline {
        let (game, seats) = &shared.games[turn % shared.games.len()];
        turn += 7;
        let placement: Vec<_> = seats
            .iter()
            .enumerate()
            .map(|(seat, player)| {
                json!({ "playerId": player, "points": ((seat + turn) % seats.len()) * 10 + 5 })
            })
            .collect();
        let body = json!({ "query": CORRECT, "variables": { "g": game, "r": { "placement": placement } } });
        match post(http, shared, &body, true).await {
            Ok(()) => shared.writes.fetch_add(1, Ordering::Relaxed),
            Err(error) if error.to_string().contains(r#""code":"CONFLICT""#) => {
                shared.conflicts.fetch_add(1, Ordering::Relaxed)
            }
            Err(error) => return Err(error),
        };
        tokio::time::sleep(WRITE_PAUSE).await;
    }
    Ok(None)
}

async fn subscriber(shared: &Shared) -> anyhow::Result<Samples> {
    while Instant::now() + Duration::from_millis(100) < shared.deadline {
        let mut request = shared.ws_url.as_str().into_client_request()?;
        request.headers_mut().insert("sec-websocket-protocol", "graphql-transport-ws".parse()?);
        let (mut ws, _) = tokio_tungstenite::connect_async(request).await?;
        shared.connections.fetch_add(1, Ordering::Relaxed);
        ws.send(Message::text(json!({ "type": "connection_init" }).to_string())).await?;
        let subscribe = json!({ "type": "subscribe", "id": "1", "payload": {
            "query": SUBSCRIPTION, "variables": { "league": shared.league } } });
        ws.send(Message::text(subscribe.to_string())).await?;
        let until = (Instant::now() + SUBSCRIBER_HOLD).min(shared.deadline);
        while let Ok(Some(message)) = tokio::time::timeout_at(until.into(), ws.next()).await {
            let message = message?;
            if let Message::Text(text) = &message {
                if text.contains("\"errors\"") || text.contains("\"type\":\"error\"") {
                    anyhow::bail!("subscription error: {text}");
                }
                if text.starts_with("{\"type\":\"next\"") {
                    shared.messages.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        ws.close(None).await.ok();
    }
    Ok(None)
}
