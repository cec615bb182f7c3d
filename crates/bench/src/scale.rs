//! `league-bench scale`: what a gateway costs on a long log — start-up, readiness, resident
//! memory, first reads and rebuild rate — each beside a baseline measured in the same run.
//!
//! 1. Generates a realistic log ([`crate::generator`]: 512 players, leagues of 8 with
//!    every game reported, about 50 events per league, so 20k leagues at 1M events) on a
//!    thread of its own and appends it as it comes, one append per stream and `--writers`
//!    appends in flight (the store commits them in groups), to a scratch database beside
//!    `--database` (removed afterwards, unless `--keep`). Generation and appending overlap,
//!    and the log is never held whole in memory; the time of both together is printed with
//!    the rate. `--log URL` measures an existing log instead (a kept one, or a real one).
//! 2. Start-up: `App::open` in this process folding every catalog event (any stored
//!    snapshot set aside; baseline: the same process's `SELECT count(*)` of the events
//!    table); a catalog snapshot taken as `league snapshot take` takes it, and `App::open`
//!    from it; then a real `league serve` child process started twice (first start,
//!    restart), each from that snapshot: time from spawn to `/healthz` answering 200 (goal
//!    ≤ 1 s at 1M events, ≤ 3 s at 10M).
//! 3. Memory: the child's resident set (`/proc/PID/statm`) when ready and after serving the
//!    GraphQL standings of 1,000 random leagues (goal ≤ 300 MB at 1M events, ≤ 400 MB at
//!    10M).
//! 4. First reads: the ratings leaderboard (`ratings(game: PLACEMENT, first: 20)`), whose
//!    first call starts from the ratings snapshot (taken in-process as `league snapshot take`
//!    takes it; baseline: the complete fold of every result in this process, what the first
//!    call did before ratings snapshots), then a second call; beside a standings call of a
//!    league not loaded yet and a second one once it is; then the resident set again (goal
//!    ≤ 250 MB at 1M events, ≤ 500 MB at 10M). Then the top player's `ratingHistory`, which
//!    loads the complete ratings, and the resident set after it.
//!    Second calls use another alias, so the response cache cannot answer them.
//!    The server is the `league` binary next to `league-bench` (`cargo build --release`
//!    builds both into `target/release/`), or the one `--league PATH` names.
//! 5. Rebuild: the whole log read once and folded in this process (`projections::rebuild`,
//!    what `league replay` does: chain, model, ratings) beside a raw scan of the same columns (goal ≥ 100k events/s end to end,
//!    and ≥ 0.5× the scan).
//! 6. `league replay` as the process a user runs (`--replay-runs`, 1 by default): wall time
//!    from spawn to exit and the process's peak resident set, read by `/usr/bin/time` where
//!    the machine has it, else sampled from `/proc/PID/status` (`VmHWM`) while it runs
//!    (goal ≥ 200k events/s for the whole command; ≤ 500 MB at 1M events, ≤ 2 GB at 10M).

use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use league_app::App;
use league_projections::{
    CATALOG_SNAPSHOT, GameKind, Keep, RATINGS_SNAPSHOT, load_ratings, rebuild,
};
use league_store::EventStore;
use league_store::sea_orm::{ConnectionTrait, Statement};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use uuid::Uuid;

use crate::BenchError;
use crate::figures::{Process, print_figures, resident_bytes};
use crate::generator::{LogSize, Rng, WRITERS, write_log};
use crate::replay::raw_scan;
use crate::scratch::{ScratchArgs, in_scratch, kept_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: ScratchArgs,
    #[command(flatten)]
    pub log_size: LogSize,
    /// Random leagues whose standings are served before memory is measured again.
    #[arg(long, default_value_t = 1000)]
    pub serve_leagues: usize,
    /// Rebuilds measured in this process (the best counts); 0 measures only the raw scan.
    #[arg(long, default_value_t = 3)]
    pub rebuild_runs: usize,
    /// `league replay` processes timed (the best counts); 0 skips them.
    #[arg(long, default_value_t = 1)]
    pub replay_runs: usize,
    /// Appends in flight at once while the log is written.
    #[arg(long, default_value_t = WRITERS)]
    pub writers: usize,
    /// Measure this existing log (SQLite or PostgreSQL URL) instead of generating one; the
    /// servers started on it migrate it if its schema is behind, nothing else is written.
    #[arg(long, value_name = "URL", conflicts_with = "keep")]
    pub log: Option<String>,
    /// Keep the generated scratch database (its URL is printed) for later runs with `--log`.
    #[arg(long)]
    pub keep: bool,
    /// The `league` binary to serve with (default: the one next to `league-bench`).
    #[arg(long, value_name = "PATH")]
    pub league: Option<std::path::PathBuf>,
}

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    events: u64,
    leagues: u64,
    writers: usize,
    /// Generating and appending the log, overlapped: wall time, and the generator's own
    /// share of it (absent when an existing log was measured).
    generate_append_s: Option<f64>,
    generate_s: Option<f64>,
    append_events_per_s: Option<f64>,
    count_rows_s: f64,
    /// In-process start folding every catalog event (no snapshot).
    app_open_s: f64,
    /// Taking and storing a catalog snapshot, and its size.
    snapshot_take_s: f64,
    snapshot_mb: f64,
    /// In-process start from that snapshot.
    app_open_snapshot_s: f64,
    first_start_ready_s: f64,
    restart_ready_s: f64,
    rss_ready_mb: f64,
    rss_after_serving_mb: f64,
    served_leagues: usize,
    serve_s: f64,
    standings_cold_ms: f64,
    standings_warm_ms: f64,
    /// Every result folded into the complete ratings in this process (the first ratings
    /// call's work before ratings snapshots), and that process's growth.
    ratings_complete_fold_s: f64,
    ratings_complete_fold_mb: f64,
    /// Taking a ratings snapshot from nothing (a windowed fold of every result), its size.
    ratings_snapshot_take_s: f64,
    ratings_snapshot_mb: f64,
    ratings_first_ms: f64,
    ratings_second_ms: f64,
    rated_players: u64,
    rss_after_ratings_mb: f64,
    /// The top player's whole rating history: loads the complete ratings.
    history_first_ms: f64,
    rss_after_history_mb: f64,
    /// `uptime`'s load average when the ratings were measured.
    ratings_load_average: String,
    raw_scan_events_per_s: f64,
    rebuild_events_per_s: f64,
    rebuild_ratio: f64,
    /// `league replay` as a process: best wall time and the peak resident set of that run.
    replay_process_s: Option<f64>,
    replay_process_peak_mb: Option<f64>,
    /// How the peak was read: `/usr/bin/time`, or `/proc` sampling.
    replay_peak_source: Option<&'static str>,
}

/// Resident set of the server process `pid` in MB.
fn resident_mb(pid: u32) -> Result<f64, BenchError> {
    Ok(resident_bytes(Process::Child(pid))? / 1e6)
}

/// The `league` binary: `--league`, else the one next to this executable (cargo builds
/// every binary of the workspace into the same directory).
fn league_binary(args: &Args) -> Result<std::path::PathBuf, BenchError> {
    if let Some(path) = &args.league {
        return Ok(path.clone());
    }
    let exe = std::env::current_exe().context("the league-bench executable")?;
    let beside = exe.with_file_name(format!("league{}", std::env::consts::EXE_SUFFIX));
    if !beside.is_file() {
        return Err(BenchError::BadInput(format!(
            "no `league` binary at {} (build it with `cargo build --release -p league-cli`, or \
             give --league PATH)",
            beside.display()
        )));
    }
    Ok(beside)
}

/// A `league serve` child process on a free port.
struct Server {
    child: tokio::process::Child,
    base: String,
    pid: u32,
}

impl Server {
    /// Starts the server and waits until `/healthz` answers 200; returns it with the time
    /// from spawn to ready.
    async fn start(
        exe: &std::path::Path,
        url: &str,
        http: &reqwest::Client,
    ) -> Result<(Server, Duration), BenchError> {
        let started = Instant::now();
        let mut child = tokio::process::Command::new(exe)
            .args(["serve", "--database", url, "--listen", "127.0.0.1:0"])
            .env("LEAGUE_ADMIN_TOKEN", "bench-scale-admin")
            // The bench is one client reading 1,000 leagues as fast as it can: the
            // per-address rate limit would measure the limiter, not the read side.
            .env("LEAGUE_RATE_REQUESTS_PER_SEC", "1000000")
            .env("LEAGUE_RATE_REQUESTS_BURST", "1000000")
            // The first ratings call folds every result of the log: on 10M events it takes
            // longer than the default request timeout (30 s), and a request cut off there
            // answers 408 with the fold abandoned. The bench measures the fold, not the limit.
            .env("LEAGUE_REQUEST_TIMEOUT_SECS", "3600")
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .context("start `league serve`")?;
        let pid = child.id().context("server pid")?;
        let stdout = child.stdout.take().context("server stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let base = loop {
            let line = lines
                .next_line()
                .await
                .context("server output")?
                .ok_or_else(|| anyhow::anyhow!("`league serve` exited before listening"))?;
            if let Some(address) = line.strip_prefix("listening on ") {
                break address.trim().to_owned();
            }
        };
        // Keep draining stdout so the child never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        loop {
            let ready = http.get(format!("{base}/healthz")).send().await;
            if ready.is_ok_and(|response| response.status().is_success()) {
                break;
            }
            if started.elapsed() > Duration::from_secs(600) {
                return Err(anyhow::anyhow!("`league serve` not ready after 10 minutes").into());
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Ok((Server { child, base, pid }, started.elapsed()))
    }

    async fn stop(mut self) {
        self.child.kill().await.ok();
    }
}

/// Random leagues from the list, the same ones in every run.
fn pick(leagues: &[Uuid], count: usize) -> Vec<Uuid> {
    let mut rng = Rng(0x5CA1_E000);
    (0..count.min(leagues.len()))
        .map(|_| leagues[rng.below(leagues.len() as u64) as usize])
        .collect()
}

/// One GraphQL request to the server and the time to its whole answer; an answer with
/// errors is a failure.
async fn graphql(
    http: &reqwest::Client,
    base: &str,
    query: &str,
    variables: serde_json::Value,
) -> Result<(serde_json::Value, Duration), BenchError> {
    let started = Instant::now();
    let response: serde_json::Value = http
        .post(format!("{base}/graphql"))
        .json(&json!({ "query": query, "variables": variables }))
        .send()
        .await
        .context("GraphQL request")?
        .json()
        .await
        .context("GraphQL response")?;
    let elapsed = started.elapsed();
    if response.get("errors").is_some() {
        return Err(anyhow::anyhow!("GraphQL errors: {response}").into());
    }
    Ok((response, elapsed))
}

const STANDINGS: &str =
    "query($id: ID!) { standings(leagueId: $id) { rank total played player { name } } }";
/// The same read under another alias: the response cache keys on the request, so it
/// cannot answer, and the model already loaded serves it.
const STANDINGS_AGAIN: &str =
    "query($id: ID!) { again: standings(leagueId: $id) { rank total played player { name } } }";
const RATINGS: &str = "{ ratings(game: PLACEMENT, first: 20) { totalCount \
                       nodes { rank player { id name } rating { mu sigma display games } } } }";
const RATINGS_AGAIN: &str = "{ again: ratings(game: PLACEMENT, first: 20) { totalCount \
                             nodes { rank player { id name } rating { mu sigma display games } } } }";
const HISTORY: &str = "query($id: ID!) { player(id: $id) { ratingHistory(game: PLACEMENT) \
                       { position rating { display } } } }";

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

async fn measure(
    url: &str,
    args: &Args,
    league: &std::path::Path,
    generate: bool,
) -> Result<Figures, BenchError> {
    let store = EventStore::connect(url).await.context("open the log's database")?;
    store.migrate().await.context("migrate")?;
    let written = if generate {
        Some(write_log(&store, args.log_size.events, args.writers).await?)
    } else {
        None
    };
    let events = store.head_position().await.context("head")?;
    if let Some(written) = &written
        && events != written.events
    {
        return Err(anyhow::anyhow!("{} events appended, head at {events}", written.events).into());
    }

    // In-process start-up beside the cheapest full look at the log: counting its rows.
    let started = Instant::now();
    let count = Statement::from_string(store.backend(), "SELECT count(*) FROM events");
    store.connection().query_one_raw(count).await.context("count rows")?;
    let count_rows_s = started.elapsed().as_secs_f64();
    // The whole fold first (any stored snapshot set aside), then a catalog snapshot taken as
    // `league snapshot take` takes it, then the start from it.
    store.delete_snapshot(CATALOG_SNAPSHOT).await.context("drop the snapshot")?;
    let started = Instant::now();
    let app = App::from_store(store.clone()).await.context("open the app")?;
    let app_open_s = started.elapsed().as_secs_f64();
    // Each phase's figures on stderr as they come: a long run that fails later keeps them.
    eprintln!("  App::open {app_open_s:.3} s; SELECT count(*) {count_rows_s:.3} s");
    // Leagues in creation order (the last one is read cold below).
    let leagues = app.catalog().league_ids().to_vec();
    let started = Instant::now();
    let snapshot = app.take_catalog_snapshot().await.context("take a snapshot")?;
    let snapshot_take_s = started.elapsed().as_secs_f64();
    let snapshot_mb = snapshot.body.len() as f64 / 1e6;
    drop(app);
    let started = Instant::now();
    let app = App::from_store(store.clone()).await.context("open the app")?;
    let app_open_snapshot_s = started.elapsed().as_secs_f64();
    if app.catalog_source().snapshot != Some(snapshot.position) {
        return Err(anyhow::anyhow!(
            "the start did not use the snapshot: {:?}",
            app.catalog_source()
        )
        .into());
    }
    drop(app);
    eprintln!(
        "  snapshot taken in {snapshot_take_s:.3} s ({snapshot_mb:.1} MB); App::open from it {app_open_snapshot_s:.3} s"
    );

    // Ratings: the complete fold of every result (the baseline: what the first ratings call
    // did before ratings snapshots), then a ratings snapshot taken from nothing as `league
    // snapshot take` takes it (any stored one set aside); the server starts from it.
    store.delete_snapshot(RATINGS_SNAPSHOT).await.context("drop the ratings snapshot")?;
    let app = App::from_store(store.clone()).await.context("open the app")?;
    let rss_before = resident_bytes(Process::This)?;
    let started = Instant::now();
    let systems: std::collections::HashMap<Uuid, _> = {
        let catalog = app.catalog();
        let leagues = catalog.leagues().map(|l| (l.id, l.settings.scoring_system));
        leagues.chain(catalog.tournaments().map(|t| (t.id, t.settings.scoring_system))).collect()
    };
    let complete = load_ratings(&store, events, |id| systems.get(&id).copied())
        .await
        .context("complete ratings fold")?;
    let ratings_complete_fold_s = started.elapsed().as_secs_f64();
    let ratings_complete_fold_mb = (resident_bytes(Process::This)? - rss_before) / 1e6;
    let complete_top = complete.ratings().leaderboard(GameKind::Placement, None);
    drop(complete);
    let started = Instant::now();
    let ratings_snapshot = app.take_ratings_snapshot().await.context("take a ratings snapshot")?;
    let ratings_snapshot_take_s = started.elapsed().as_secs_f64();
    let ratings_snapshot_mb = ratings_snapshot.body.len() as f64 / 1e6;
    if app.leaderboard(GameKind::Placement, None).await.context("leaderboard")? != complete_top {
        return Err(anyhow::anyhow!("the windowed ratings rank otherwise than the complete").into());
    }
    drop(app);
    eprintln!(
        "  ratings: complete fold {ratings_complete_fold_s:.3} s (+{ratings_complete_fold_mb:.1} MB); \
         snapshot from nothing {ratings_snapshot_take_s:.3} s ({ratings_snapshot_mb:.2} MB)"
    );

    // A real server process: first start, then a restart, each to `/healthz` ready.
    let http = reqwest::Client::builder().build().context("HTTP client")?;
    let (server, first_start) = Server::start(league, url, &http).await?;
    server.stop().await;
    let (server, restart) = Server::start(league, url, &http).await?;
    let rss_ready_mb = resident_mb(server.pid)?;
    eprintln!(
        "  league serve ready: first start {:.3} s, restart {:.3} s; {rss_ready_mb:.1} MB",
        first_start.as_secs_f64(),
        restart.as_secs_f64()
    );
    let chosen = pick(&leagues, args.serve_leagues);
    let started = Instant::now();
    for id in &chosen {
        let (response, _) =
            graphql(&http, &server.base, STANDINGS, json!({ "id": id.to_string() })).await?;
        let rows = response["data"]["standings"].as_array().map_or(0, Vec::len);
        if rows == 0 {
            return Err(anyhow::anyhow!("no standings for league {id}: {response}").into());
        }
    }
    let serve_s = started.elapsed().as_secs_f64();
    let rss_after_serving_mb = resident_mb(server.pid)?;
    eprintln!("  {} leagues served in {serve_s:.2} s; {rss_after_serving_mb:.1} MB", chosen.len());

    // First reads: a league no request has loaded yet (the last one written), then the
    // ratings, whose first call folds every result of the log.
    let cold = leagues.last().context("no league generated")?;
    let cold = json!({ "id": cold.to_string() });
    let (_, standings_cold) = graphql(&http, &server.base, STANDINGS, cold.clone()).await?;
    let (_, standings_warm) = graphql(&http, &server.base, STANDINGS_AGAIN, cold).await?;
    let (response, ratings_first) = graphql(&http, &server.base, RATINGS, json!({})).await?;
    let (_, ratings_second) = graphql(&http, &server.base, RATINGS_AGAIN, json!({})).await?;
    let rated_players = response["data"]["ratings"]["totalCount"].as_u64().unwrap_or(0);
    if rated_players == 0 {
        return Err(anyhow::anyhow!("no player rated: {response}").into());
    }
    let rss_after_ratings_mb = resident_mb(server.pid)?;
    let ratings_load_average = crate::figures::load_average();
    eprintln!(
        "  standings {:.1} / {:.1} ms; ratings {:.1} / {:.1} ms; {rss_after_ratings_mb:.1} MB (load {ratings_load_average})",
        ms(standings_cold),
        ms(standings_warm),
        ms(ratings_first),
        ms(ratings_second)
    );
    let top = response["data"]["ratings"]["nodes"][0]["player"]["id"].clone();
    let (history, history_first) =
        graphql(&http, &server.base, HISTORY, json!({ "id": top })).await?;
    if history["data"]["player"]["ratingHistory"].as_array().is_none_or(Vec::is_empty) {
        return Err(anyhow::anyhow!("no rating history: {history}").into());
    }
    let rss_after_history_mb = resident_mb(server.pid)?;
    eprintln!("  rating history {:.1} ms; {rss_after_history_mb:.1} MB", ms(history_first));
    server.stop().await;

    // Rebuild: the whole log folded from the database, beside a raw scan (best of each).
    let mut scan = Duration::MAX;
    let mut rebuilt_in = Duration::MAX;
    for run in 0..args.rebuild_runs.max(1) {
        let started = Instant::now();
        std::hint::black_box(raw_scan(&store).await?);
        scan = scan.min(started.elapsed());
        if run >= args.rebuild_runs {
            break;
        }
        let started = Instant::now();
        let rebuilt = rebuild(&store, None, Keep::Nothing, |_| {}).await.context("rebuild")?;
        rebuilt_in = rebuilt_in.min(started.elapsed());
        drop(rebuilt);
    }
    let raw_scan_events_per_s = events as f64 / scan.as_secs_f64().max(1e-9);

    // `league replay` as a user runs it, timed from outside.
    let mut replay_best: Option<ReplayProcess> = None;
    for _ in 0..args.replay_runs {
        let run = ReplayProcess::run(league, url).await?;
        eprintln!(
            "  league replay: {:.2} s, peak {:.1} MB ({})",
            run.wall.as_secs_f64(),
            run.peak_mb,
            run.peak_source
        );
        if replay_best.as_ref().is_none_or(|best| run.wall < best.wall) {
            replay_best = Some(run);
        }
    }
    // No rebuild measured (`--rebuild-runs 0`): reported as 0.
    let rebuild_events_per_s = if args.rebuild_runs == 0 {
        0.0
    } else {
        events as f64 / rebuilt_in.as_secs_f64().max(1e-9)
    };
    Ok(Figures {
        database: format!("{:?}", store.backend()),
        events,
        leagues: leagues.len() as u64,
        writers: args.writers,
        generate_append_s: written.as_ref().map(|written| written.wall.as_secs_f64()),
        generate_s: written.as_ref().map(|written| written.generating.as_secs_f64()),
        append_events_per_s: written
            .as_ref()
            .map(|written| events as f64 / written.wall.as_secs_f64().max(1e-9)),
        count_rows_s,
        app_open_s,
        snapshot_take_s,
        snapshot_mb,
        app_open_snapshot_s,
        first_start_ready_s: first_start.as_secs_f64(),
        restart_ready_s: restart.as_secs_f64(),
        rss_ready_mb,
        rss_after_serving_mb,
        served_leagues: chosen.len(),
        serve_s,
        standings_cold_ms: ms(standings_cold),
        standings_warm_ms: ms(standings_warm),
        ratings_complete_fold_s,
        ratings_complete_fold_mb,
        ratings_snapshot_take_s,
        ratings_snapshot_mb,
        ratings_first_ms: ms(ratings_first),
        ratings_second_ms: ms(ratings_second),
        rated_players,
        rss_after_ratings_mb,
        history_first_ms: ms(history_first),
        rss_after_history_mb,
        ratings_load_average,
        raw_scan_events_per_s,
        rebuild_events_per_s,
        rebuild_ratio: rebuild_events_per_s / raw_scan_events_per_s.max(1e-9),
        replay_process_s: replay_best.as_ref().map(|run| run.wall.as_secs_f64()),
        replay_process_peak_mb: replay_best.as_ref().map(|run| run.peak_mb),
        replay_peak_source: replay_best.as_ref().map(|run| run.peak_source),
    })
}

/// One `league replay --database URL` child process: its wall time and peak resident set.
struct ReplayProcess {
    wall: Duration,
    peak_mb: f64,
    peak_source: &'static str,
}

impl ReplayProcess {
    const TIME: &'static str = "/usr/bin/time";

    async fn run(league: &std::path::Path, url: &str) -> Result<ReplayProcess, BenchError> {
        let with_time = std::path::Path::new(Self::TIME).is_file();
        let mut command = if with_time {
            // `%M`: the peak resident set in KiB, on a line of its own after the command's.
            let mut command = tokio::process::Command::new(Self::TIME);
            command.args(["-f", "peak-kib %M"]).arg(league);
            command
        } else {
            tokio::process::Command::new(league)
        };
        command
            .args(["replay", "--database", url])
            .env_remove("RUST_LOG")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let started = Instant::now();
        let mut child = command.spawn().context("start `league replay`")?;
        let pid = child.id().context("replay pid")?;
        let mut stderr = child.stderr.take().context("replay stderr")?;
        let collect = tokio::spawn(async move {
            let mut text = String::new();
            tokio::io::AsyncReadExt::read_to_string(&mut stderr, &mut text).await.map(|_| text)
        });
        // Without `/usr/bin/time`, the high-water mark as last seen while the process ran.
        let mut sampled_kib = 0u64;
        let status = loop {
            if let Some(status) = child.try_wait().context("wait for `league replay`")? {
                break status;
            }
            if !with_time {
                sampled_kib = sampled_kib.max(peak_kib(pid).unwrap_or(0));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        let wall = started.elapsed();
        let stderr = collect.await.context("replay stderr")?.context("replay stderr")?;
        if !status.success() {
            return Err(anyhow::anyhow!("`league replay` failed ({status}): {stderr}").into());
        }
        let (peak_kib, peak_source) = if with_time {
            let peak = stderr
                .lines()
                .rev()
                .find_map(|line| line.strip_prefix("peak-kib "))
                .and_then(|kib| kib.trim().parse::<u64>().ok())
                .with_context(|| format!("no peak in /usr/bin/time's output: {stderr}"))?;
            (peak, "/usr/bin/time")
        } else {
            (sampled_kib, "/proc sampled every 10 ms")
        };
        Ok(ReplayProcess { wall, peak_mb: peak_kib as f64 * 1024.0 / 1e6, peak_source })
    }
}

/// `VmHWM` of a process in KiB (Linux `/proc/PID/status`), while it runs.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    args.log_size.check()?;
    // Found first: a missing server binary is bad input, before any log is written.
    let league = &league_binary(&args)?;
    let args = &args;
    let f = if let Some(log) = &args.log {
        measure(log, args, league, false).await?
    } else if args.keep {
        let url = kept_scratch(&args.scratch.database, "scale").await?;
        eprintln!("  scratch log kept at {url}");
        measure(&url, args, league, true).await?
    } else {
        in_scratch(&args.scratch.database, "scale", false, |url| async move {
            measure(&url, args, league, true).await
        })
        .await?
    };
    print_figures(&f, args.scratch.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

fn print_table(f: &Figures) {
    println!("scale bench on {} ({} events, {} leagues)", f.database, f.events, f.leagues);
    match (f.generate_append_s, f.append_events_per_s, f.generate_s) {
        (Some(wall), Some(rate), Some(generating)) => println!(
            "  generate + append             {wall:>8.2} s ({rate:.0} events/s; {} appends in flight; generator busy {generating:.2} s)",
            f.writers
        ),
        _ => println!("  existing log                  (not generated)"),
    }
    // The goals grow with the log: 1M events and 10M events.
    let (start_goal, memory_goal) = if f.events >= 5_000_000 { (3, 400) } else { (1, 300) };
    println!("  App::open (whole catalog fold){:>8.3} s", f.app_open_s);
    println!("    baseline: SELECT count(*)   {:>8.3} s", f.count_rows_s);
    println!(
        "  catalog snapshot taken        {:>8.3} s ({:.1} MB); App::open from it {:.3} s",
        f.snapshot_take_s, f.snapshot_mb, f.app_open_snapshot_s
    );
    println!(
        "  league serve: first start     {:>8.3} s to /healthz 200, from the snapshot (goal <= {start_goal} s)",
        f.first_start_ready_s
    );
    println!("  league serve: restart         {:>8.3} s to /healthz 200", f.restart_ready_s);
    println!("  resident memory when ready    {:>8.1} MB", f.rss_ready_mb);
    println!(
        "  after standings of {:>5} leagues {:>5.1} MB (goal <= {memory_goal} MB; served in {:.2} s)",
        f.served_leagues, f.rss_after_serving_mb, f.serve_s
    );
    println!(
        "  standings, league not loaded  {:>8.1} ms; loaded {:.1} ms",
        f.standings_cold_ms, f.standings_warm_ms
    );
    let (ratings_time_goal, ratings_memory_goal) =
        if f.events >= 5_000_000 { (2000, 500) } else { (1000, 250) };
    println!(
        "  ratings: complete fold        {:>8.3} s in-process (+{:.1} MB): the first call's work before snapshots",
        f.ratings_complete_fold_s, f.ratings_complete_fold_mb
    );
    println!(
        "  ratings snapshot from nothing {:>8.3} s ({:.2} MB)",
        f.ratings_snapshot_take_s, f.ratings_snapshot_mb
    );
    println!(
        "  ratings, first call           {:>8.1} ms from the snapshot (goal <= {ratings_time_goal} ms); second {:.1} ms ({} players; load {})",
        f.ratings_first_ms, f.ratings_second_ms, f.rated_players, f.ratings_load_average
    );
    println!(
        "  resident memory after ratings {:>8.1} MB (goal <= {ratings_memory_goal} MB)",
        f.rss_after_ratings_mb
    );
    println!(
        "  rating history, first call    {:>8.1} ms (loads the complete ratings); {:.1} MB after",
        f.history_first_ms, f.rss_after_history_mb
    );
    println!("  raw SELECT scan               {:>12.0} events/s", f.raw_scan_events_per_s);
    println!(
        "  rebuild (fold from database)  {:>12.0} events/s (goal >= 100,000)",
        f.rebuild_events_per_s
    );
    println!("  rebuild / scan                {:>12.2}   (goal >= 0.5)", f.rebuild_ratio);
    if let (Some(wall), Some(peak), Some(source)) =
        (f.replay_process_s, f.replay_process_peak_mb, f.replay_peak_source)
    {
        let peak_goal = if f.events >= 5_000_000 { "2 GB" } else { "500 MB" };
        println!(
            "  league replay (process)       {wall:>8.2} s = {:.0} events/s for the whole command \
             (goal >= 200,000); peak {peak:.1} MB by {source} (goal <= {peak_goal})",
            f.events as f64 / wall.max(1e-9)
        );
        println!(
            "    baseline: raw SELECT scan   {:>8.2} s for the same events",
            f.events as f64 / f.raw_scan_events_per_s.max(1e-9)
        );
    }
}
