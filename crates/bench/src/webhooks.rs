//! `league-bench webhooks`: webhook deliveries from the log to receivers on loopback
//! (`docs/webhooks.md`), beside the raw POST rate of the same HTTP client to the same receiver
//! without the log, measured in the same run.
//!
//! 1. Baseline: `--events` signed POSTs of a result-sized body, one after the other.
//! 2. Catch-up: `--events` results are appended while the worker is stopped, then the worker
//!    delivers them: deliveries per second.
//! 3. Lag: with the worker running, `--lag-events` results are reported one after the other;
//!    the time from each append's commit to its arrival at the receiver, p50 and p99.
//! 4. A second webhook, registered from the start, goes to a receiver that fails
//!    `--failure-rate` of requests: after de-duplication by `X-League-Delivery` it must hold
//!    every event exactly once, in log order (the bench fails otherwise).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use hdrhistogram::Histogram;
use league_app::{App, CommandOptions};
use league_domain::{
    Actor, CreateLeague, LeagueSettings, RegisterPlayer, RegisterWebhook, ReportResult, Subscribe,
    WebhookFormat, WebhookKind,
};
use league_scoring::{GameResult, PlacementEntry, ScoringSystem};
use league_webhooks::receiver::{Received, Receiver, distinct_accepted};
use league_webhooks::{WebhookSettings, generate_secret, http_client, sign};
use serde::Serialize;
use tokio::sync::oneshot;
use uuid::Uuid;

use crate::BenchError;
use crate::figures::{load_average, print_figures};
use crate::scratch::{ScratchArgs, in_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: ScratchArgs,
    /// Results delivered in the catch-up phase (and POSTs of the baseline).
    #[arg(long, default_value_t = 1000)]
    pub events: u32,
    /// Results reported one by one with the worker running (the lag phase).
    #[arg(long, default_value_t = 200)]
    pub lag_events: u32,
    /// Share of requests the second receiver answers with 500.
    #[arg(long, default_value_t = 0.3)]
    pub failure_rate: f64,
}

#[derive(Debug, Serialize)]
struct Figures {
    database: &'static str,
    load_average: String,
    events: u32,
    baseline_posts_per_s: f64,
    deliveries_per_s: f64,
    lag_events: u32,
    lag_p50_ms: f64,
    lag_p99_ms: f64,
    failing_receiver_rate: f64,
    failing_receiver_requests: usize,
    failing_receiver_distinct: usize,
    failing_receiver_expected: usize,
}

/// Players per league (two-player games, each seat once: 28 games a league).
const LEAGUE_SIZE: u128 = 8;
const WAIT: Duration = Duration::from_secs(600);

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.events == 0 || !(0.0..1.0).contains(&args.failure_rate) {
        return Err(BenchError::BadInput(
            "--events must be at least 1 and --failure-rate in [0, 1)".into(),
        ));
    }
    let args = &args;
    let figures = in_scratch(&args.scratch.database, "webhooks", false, |url| async move {
        measure(&url, args).await
    })
    .await?;
    print_figures(&figures, args.scratch.json, print_table)?;
    let complete = figures.failing_receiver_distinct == figures.failing_receiver_expected;
    Ok(if complete { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn settings() -> WebhookSettings {
    WebhookSettings {
        allow_private: true,
        retry_base: Duration::from_millis(20),
        retry_max: Duration::from_millis(200),
        poll_interval: Duration::from_millis(200),
        ..WebhookSettings::default()
    }
}

async fn measure(url: &str, args: &Args) -> Result<Figures, BenchError> {
    let app = App::open(url).await.context("open the scratch database")?;
    let healthy = Receiver::start(0.0).await.context("start a receiver")?;
    let failing = Receiver::start(args.failure_rate).await.context("start a receiver")?;
    let baseline = baseline_posts_per_s(&healthy, args.events).await?;
    let seen_by_baseline = healthy.received().len();

    let games = prepare_games(&app, args.events + args.lag_events).await?;
    register(&app, &healthy.url).await?;
    register(&app, &failing.url).await?;

    // Catch-up: the results are in the log before the worker starts.
    let (catch_up, lag_games) = games.split_at(args.events as usize);
    for game in catch_up {
        report(&app, game).await?;
    }
    let started = Instant::now();
    let stop = start_worker(&app);
    let expected = seen_by_baseline + catch_up.len();
    wait_accepted(&healthy, expected).await?;
    let deliveries_per_s = catch_up.len() as f64 / started.elapsed().as_secs_f64();

    // Lag: one result at a time, the worker running.
    let mut committed = Vec::with_capacity(lag_games.len());
    for game in lag_games {
        let position = report(&app, game).await?;
        committed.push((position, Instant::now()));
    }
    let received = wait_accepted(&healthy, expected + lag_games.len()).await?;
    let mut lag = Histogram::<u64>::new(3).context("histogram")?;
    for (position, at) in committed {
        let arrival = received
            .iter()
            .find(|r| r.accepted && position_of(r) == Some(position))
            .context("a lag-phase result was not delivered")?;
        let micros = arrival.at.saturating_duration_since(at).as_micros();
        lag.record(u64::try_from(micros).unwrap_or(u64::MAX)).context("record")?;
    }

    let total = games.len();
    let failing_received = failing.wait_for_accepted(total, WAIT).await;
    drop(stop);
    let accepted: Vec<u64> =
        failing_received.iter().filter(|r| r.accepted).filter_map(position_of).collect();
    let in_order = accepted.is_sorted();
    let distinct = distinct_accepted(&failing_received);
    Ok(Figures {
        database: if url.starts_with("sqlite:") { "SQLite" } else { "PostgreSQL" },
        load_average: load_average(),
        events: args.events,
        baseline_posts_per_s: baseline,
        deliveries_per_s,
        lag_events: args.lag_events,
        lag_p50_ms: lag.value_at_quantile(0.5) as f64 / 1000.0,
        lag_p99_ms: lag.value_at_quantile(0.99) as f64 / 1000.0,
        failing_receiver_rate: args.failure_rate,
        failing_receiver_requests: failing_received.len(),
        // Out of order would be a bug: count it as incomplete.
        failing_receiver_distinct: if in_order && accepted.len() == distinct {
            distinct
        } else {
            0
        },
        failing_receiver_expected: total,
    })
}

/// The raw POST rate: the delivery client, a signed result-sized body, no log.
async fn baseline_posts_per_s(receiver: &Receiver, posts: u32) -> Result<f64, BenchError> {
    let client = http_client(&settings()).context("HTTP client")?;
    let secret = generate_secret();
    let body = serde_json::to_vec(&serde_json::json!({
        "deliveryId": "baseline", "eventType": "GameFinished", "summary": "x".repeat(600),
    }))
    .context("body")?;
    let started = Instant::now();
    for n in 0..posts {
        let timestamp = chrono::Utc::now().timestamp();
        let response = client
            .post(&receiver.url)
            .header("content-type", "application/json")
            .header(league_webhooks::SIGNATURE_HEADER, sign(&secret, timestamp, &body))
            .header(league_webhooks::TIMESTAMP_HEADER, timestamp.to_string())
            .header(league_webhooks::DELIVERY_HEADER, format!("baseline:{n}"))
            .body(body.clone())
            .send()
            .await
            .context("baseline POST")?;
        response.bytes().await.context("baseline answer")?;
    }
    Ok(f64::from(posts) / started.elapsed().as_secs_f64())
}

/// A game to report: its league, id and seats.
struct Game {
    league: Uuid,
    id: Uuid,
    seats: Vec<Uuid>,
}

/// Leagues of eight players, enough for `count` results; returns `count` games to report.
async fn prepare_games(app: &App, count: u32) -> Result<Vec<Game>, BenchError> {
    let none = CommandOptions::default;
    for n in 1..=LEAGUE_SIZE {
        let register = RegisterPlayer {
            actor: Actor::Admin,
            player_id: Uuid::from_u128(n).into(),
            name: format!("Player {n}"),
            token_hash: format!("bench-{n}"),
        };
        app.execute(register, none()).await.context("register")?;
    }
    let mut games = Vec::new();
    while games.len() < count as usize {
        let league = Uuid::now_v7();
        let settings = LeagueSettings {
            size: LEAGUE_SIZE as u32,
            games_per_seat: 1,
            ..LeagueSettings::new("Bench", "Cartagena", ScoringSystem::Placement, 2)
        };
        app.execute(
            CreateLeague { actor: Actor::Admin, league_id: league.into(), settings },
            none(),
        )
        .await
        .context("create a league")?;
        for n in 1..=LEAGUE_SIZE {
            let player_id = Uuid::from_u128(n);
            app.execute(
                Subscribe {
                    actor: Actor::Admin,
                    league_id: league.into(),
                    player_id: player_id.into(),
                },
                none(),
            )
            .await
            .context("subscribe")?;
        }
        let model = app.league(league).await.context("load")?.context("the league")?;
        games.extend(model.games_of(league).map(|game| Game {
            league,
            id: game.id,
            seats: game.seats.iter().map(|seat| seat.player).collect(),
        }));
    }
    games.truncate(count as usize);
    Ok(games)
}

/// Reports `game` (the first seat wins); returns the result's log position.
async fn report(app: &App, game: &Game) -> Result<u64, BenchError> {
    let result = GameResult::Placement(
        game.seats
            .iter()
            .enumerate()
            .map(|(i, player)| PlacementEntry {
                player: player.to_string(),
                points: (2 - i) as f64,
            })
            .collect(),
    );
    let command = ReportResult {
        actor: Actor::Admin,
        league_id: game.league.into(),
        game_id: game.id.into(),
        result,
    };
    let executed = app.execute(command, CommandOptions::default()).await.context("report")?;
    Ok(executed.events[0].position)
}

async fn register(app: &App, url: &str) -> Result<(), BenchError> {
    let id = Uuid::now_v7();
    app.store().save_webhook_secret(id, &generate_secret(), url).await.context("secret")?;
    let command = RegisterWebhook {
        actor: Actor::Admin,
        webhook_id: id.into(),
        url: url.to_owned(),
        kinds: vec![WebhookKind::ResultReported],
        competitions: Vec::new(),
        format: WebhookFormat::Json,
    };
    app.execute(command, CommandOptions::default()).await.context("register a webhook")?;
    Ok(())
}

fn start_worker(app: &App) -> oneshot::Sender<()> {
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(league_webhooks::run(app.clone(), settings(), async {
        let _ = stopped.await;
    }));
    stop
}

async fn wait_accepted(receiver: &Receiver, count: usize) -> Result<Vec<Received>, BenchError> {
    let received = receiver.wait_for_accepted(count, WAIT).await;
    if distinct_accepted(&received) < count {
        return Err(anyhow::anyhow!("only {} of {count} deliveries arrived", received.len()).into());
    }
    Ok(received)
}

fn position_of(received: &Received) -> Option<u64> {
    let (_, position) = received.delivery_id.rsplit_once(':')?;
    if received.delivery_id.starts_with("baseline") {
        return None;
    }
    position.parse().ok()
}

fn print_table(f: &Figures) {
    println!("webhooks bench on {} (load {})", f.database, f.load_average);
    println!(
        "  baseline: raw signed POSTs, same client and receiver   {:>8.0} /s",
        f.baseline_posts_per_s
    );
    println!(
        "  deliveries from the log (catch-up of {} results)      {:>8.0} /s  ({:.0} % of baseline)",
        f.events,
        f.deliveries_per_s,
        100.0 * f.deliveries_per_s / f.baseline_posts_per_s
    );
    println!(
        "  lag append → delivery ({} results, one at a time)     p50 {:.1} ms  p99 {:.1} ms",
        f.lag_events, f.lag_p50_ms, f.lag_p99_ms
    );
    println!(
        "  receiver failing {:.0} %: {} requests, {} of {} events exactly once after de-duplication",
        100.0 * f.failing_receiver_rate,
        f.failing_receiver_requests,
        f.failing_receiver_distinct,
        f.failing_receiver_expected
    );
}
