//! `league-bench graphql`: the real GraphQL server under many concurrent keep-alive
//! clients, asking a league's standings, next to the same server's trivial `{__typename}`
//! query in the same run.
//!
//! 1. Seeds a scratch database (beside `--database`, default a temporary SQLite file;
//!    removed afterwards) through the application, as the API would: 100 players; one
//!    placement league of 64 players (k = 4, 16 games per seat = 1,024 games) with 1,000
//!    results reported; the other 36 players in a second league. The domain caps a league at
//!    64 players (`league_domain::rules::MAX_LEAGUE_SIZE`), so "a league of 100 players"
//!    becomes the largest league the rules allow, carrying all 1,000 results, plus a
//!    second league for the other 36 players.
//! 2. Serves it in-process with [`league_gateway::run`] on a loopback port chosen by the OS.
//! 3. `--clients` tasks share one keep-alive connection pool (one connection each) and
//!    send requests back to back for `--seconds` per query, in rounds that alternate the
//!    two queries so drift on a shared machine hits both: the standings of the 64-player
//!    league (rank, player id and name, total, played, wins, draws) vs `{__typename}`.
//!    Every answer is checked (HTTP 200, no `errors`). Client and server share the machine.
//! 4. Reports req/s, p50/p99 latency per query and `graphql_ratio` = standings req/s /
//!    `{__typename}` req/s (goals: ≥ 0.5, standings p99 < 20 ms). The gateway keeps
//!    error-free query answers per log position (its response cache), so between appends
//!    the standings are served from it; the same standings from a second gateway over the
//!    same application with that cache off (`uncached_ratio`) show what a read costs when
//!    it must execute, as the first read after every append does.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use league_app::{App, CommandOptions};
use league_domain::{Actor, CreateLeague, LeagueSettings, RegisterPlayer, ReportResult, Subscribe};
use league_gateway::{GatewayConfig, generate_token, hash_token};
use league_scoring::{GameResult, PlacementEntry, ScoringSystem};
use serde_json::json;
use uuid::Uuid;

use crate::BenchError;
use crate::figures::print_figures;
use crate::scratch::{TempScratchArgs, in_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: TempScratchArgs,
    /// Seconds of load per query (split over rounds).
    #[arg(long, default_value_t = 6)]
    pub seconds: u64,
    /// Concurrent keep-alive clients.
    #[arg(long, default_value_t = 64)]
    pub clients: usize,
}

/// Registered players.
const PLAYERS: usize = 100;
/// Players of the league whose standings are asked (the domain's largest league).
pub const LEAGUE_PLAYERS: usize = league_domain::rules::MAX_LEAGUE_SIZE as usize;
const PLAYERS_PER_GAME: u32 = 4;
/// 64 players × 16 games per seat = 1,024 games, enough for the results.
const GAMES_PER_SEAT: u32 = 16;
/// Results reported in the league whose standings are asked.
const RESULTS: usize = 1_000;
/// Measuring rounds; each runs both queries for `seconds / ROUNDS`.
const ROUNDS: u64 = 2;
/// Unmeasured load before the rounds (connections opened, caches warm).
const WARM_UP: Duration = Duration::from_millis(500);

const STANDINGS: &str = "query($league: ID!) { standings(leagueId: $league) { rank player { id name } total played wins draws } }";
const TYPENAME: &str = "{ __typename }";

/// One query's figures.
#[derive(Debug, serde::Serialize)]
struct Phase {
    requests: u64,
    req_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    players: usize,
    leagues: usize,
    league_players: usize,
    results: usize,
    standings_rows: usize,
    clients: usize,
    seconds_per_query: f64,
    seed_s: f64,
    typename: Phase,
    standings: Phase,
    /// Standings from the gateway without the response cache.
    standings_uncached: Phase,
    graphql_ratio: f64,
    uncached_ratio: f64,
    goal_graphql_ratio: f64,
    goal_p99_ms: f64,
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.clients == 0 || args.seconds < ROUNDS {
        return Err(BenchError::BadInput(format!(
            "--clients must be at least 1 and --seconds at least {ROUNDS}"
        )));
    }
    let beside = args.scratch.beside();
    let args = &args;
    let figures =
        in_scratch(&beside, "graphql", false, |url| async move { measure(&url, args).await })
            .await?;
    print_figures(&figures, args.scratch.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

fn print_table(f: &Figures) {
    println!("database        {} (scratch, removed afterwards)", f.database);
    println!(
        "data            {} players, {} leagues; the asked league: {} players, {} results ({} standings rows)",
        f.players, f.leagues, f.league_players, f.results, f.standings_rows
    );
    println!(
        "load            {} keep-alive clients, {:.1} s per query, seeded in {:.1} s",
        f.clients, f.seconds_per_query, f.seed_s
    );
    println!(
        "query           {:>10} {:>10} {:>9} {:>9} {:>9}",
        "requests", "req/s", "p50 ms", "p99 ms", "max ms"
    );
    for (name, phase) in [
        ("{__typename}", &f.typename),
        ("standings", &f.standings),
        ("  uncached", &f.standings_uncached),
    ] {
        println!(
            "{name:<15} {:>10} {:>10.0} {:>9.2} {:>9.2} {:>9.2}",
            phase.requests, phase.req_per_s, phase.p50_ms, phase.p99_ms, phase.max_ms
        );
    }
    println!(
        "graphql_ratio   {:.2} (goal ≥ {}); standings p99 {:.2} ms (goal < {} ms)",
        f.graphql_ratio, f.goal_graphql_ratio, f.standings.p99_ms, f.goal_p99_ms
    );
    println!(
        "uncached        {:.2} of {{__typename}} (every read executed: no response cache)",
        f.uncached_ratio
    );
}

async fn measure(url: &str, args: &Args) -> Result<Figures, BenchError> {
    let app = App::open(url).await.context("cannot open the scratch database")?;
    let database = format!("{:?}", app.store().backend()).to_lowercase();
    let started = Instant::now();
    let league = seed(&app).await?;
    let seed_s = started.elapsed().as_secs_f64();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .context("cannot listen on a loopback port")?;
    let endpoint = format!("http://{}/graphql", listener.local_addr().context("bound address")?);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let mut config = GatewayConfig::new(generate_token());
    // The benchmark measures the server, not the rate limiter (64 clients, one address).
    config.rate = league_gateway::config::RateLimits::OFF;
    let mut uncached_config = config.clone();
    uncached_config.response_cache = 0;
    let server = tokio::spawn(league_gateway::run(listener, app.clone(), config, async {
        stopped.await.ok();
    }));
    // The same application behind a second gateway without the response cache: what every
    // read costs when it must execute (the first read after each append).
    let uncached_listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .context("cannot listen on a loopback port")?;
    let uncached_endpoint =
        format!("http://{}/graphql", uncached_listener.local_addr().context("bound address")?);
    let (stop_uncached, uncached_stopped) = tokio::sync::oneshot::channel::<()>();
    let uncached_server =
        tokio::spawn(league_gateway::run(uncached_listener, app.clone(), uncached_config, async {
            uncached_stopped.await.ok();
        }));

    let outcome = load(&endpoint, &uncached_endpoint, &league, args).await;
    stop.send(()).ok();
    stop_uncached.send(()).ok();
    for server in [server, uncached_server] {
        match tokio::time::timeout(Duration::from_secs(15), server).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(error))) => {
                return Err(anyhow::Error::new(error).context("the server failed").into());
            }
            Ok(Err(error)) => {
                return Err(anyhow::Error::new(error).context("the server task").into());
            }
            Err(_) => return Err(anyhow::anyhow!("the server did not stop within 15 s").into()),
        }
    }
    let (typename, standings, standings_uncached, rows) = outcome?;
    Ok(Figures {
        database,
        players: PLAYERS,
        leagues: 2,
        league_players: LEAGUE_PLAYERS,
        results: RESULTS,
        standings_rows: rows,
        clients: args.clients,
        seconds_per_query: args.seconds as f64,
        seed_s,
        graphql_ratio: standings.req_per_s / typename.req_per_s,
        uncached_ratio: standings_uncached.req_per_s / typename.req_per_s,
        typename,
        standings,
        standings_uncached,
        goal_graphql_ratio: 0.5,
        goal_p99_ms: 20.0,
    })
}

fn app_error(what: &'static str) -> impl FnOnce(league_app::AppError) -> BenchError {
    move |error| anyhow::Error::new(error).context(what).into()
}

/// A game as the load benches replay it: its id and its seats' players.
pub type SeatedGame = (Uuid, Vec<Uuid>);

/// Opens the scratch database at `url`, seeds it ([`seed`]) and reads the asked league's
/// games that are finished (`finished`) or still to report: the app, the backend's name,
/// the league and those games.
pub async fn seeded_games(
    url: &str,
    finished: bool,
) -> Result<(App, String, Uuid, Vec<SeatedGame>), BenchError> {
    let app = App::open(url).await.context("cannot open the scratch database")?;
    let database = format!("{:?}", app.store().backend()).to_lowercase();
    let league = seed(&app).await?;
    let model = app
        .league(league)
        .await
        .context("cannot load the seeded league")?
        .context("the seeded league is missing")?;
    let games = model
        .games_of(league)
        .filter(|game| game.finished_at.is_some() == finished)
        .map(|game| (game.id, game.seats.iter().map(|s| s.player).collect()))
        .collect();
    Ok((app, database, league, games))
}

/// Seeds the players, the two leagues and the results; returns the asked league's id.
pub async fn seed(app: &App) -> Result<Uuid, BenchError> {
    let options = CommandOptions::default;
    let mut players = Vec::with_capacity(PLAYERS);
    for n in 1..=PLAYERS {
        let player_id = Uuid::now_v7();
        let command = RegisterPlayer {
            actor: Actor::Admin,
            player_id: player_id.into(),
            name: format!("Player {n}"),
            token_hash: hash_token(&generate_token()),
        };
        app.execute(command, options()).await.map_err(app_error("register a player"))?;
        players.push(player_id);
    }
    let (asked, others) = players.split_at(LEAGUE_PLAYERS);
    let mut leagues = Vec::new();
    for (name, members, games_per_seat) in
        [("Benchmark league", asked, Some(GAMES_PER_SEAT)), ("Second league", others, None)]
    {
        let league_id = Uuid::now_v7();
        let mut settings =
            LeagueSettings::new(name, "Carcassonne", ScoringSystem::Placement, PLAYERS_PER_GAME);
        settings.size = members.len() as u32;
        settings.games_per_seat = games_per_seat.unwrap_or(settings.games_per_seat);
        let command = CreateLeague { actor: Actor::Admin, league_id: league_id.into(), settings };
        app.execute(command, options()).await.map_err(app_error("create a league"))?;
        for &player_id in members {
            let command = Subscribe {
                actor: Actor::Admin,
                league_id: league_id.into(),
                player_id: player_id.into(),
            };
            app.execute(command, options()).await.map_err(app_error("subscribe"))?;
        }
        leagues.push(league_id);
    }
    let league_id = leagues[0];
    let model = app
        .league(league_id)
        .await
        .map_err(app_error("load the league"))?
        .ok_or_else(|| anyhow::anyhow!("the league just created is missing"))?;
    let games: Vec<(Uuid, u32, Vec<Uuid>)> = model
        .games_of(league_id)
        .map(|game| (game.id, game.number, game.seats.iter().map(|s| s.player).collect()))
        .collect();
    if games.len() < RESULTS {
        return Err(
            anyhow::anyhow!("the league has {} games, fewer than {RESULTS}", games.len()).into()
        );
    }
    for (game_id, number, seats) in games.into_iter().take(RESULTS) {
        // Distinct points that rotate with the game number, so every seat wins sometimes.
        let entries = seats
            .iter()
            .enumerate()
            .map(|(seat, player)| PlacementEntry {
                player: player.to_string(),
                points: ((seat + number as usize) % seats.len()) as f64 * 10.0 + 5.0,
            })
            .collect();
        let command = ReportResult {
            actor: Actor::Admin,
            league_id: league_id.into(),
            game_id: game_id.into(),
            result: GameResult::Placement(entries),
        };
        app.execute(command, options()).await.map_err(app_error("report a result"))?;
    }
    Ok(league_id)
}

/// Latencies of one query under load.
#[derive(Default)]
struct Sample {
    elapsed: Duration,
    latencies_us: Vec<u32>,
}

impl Sample {
    fn phase(mut self) -> Phase {
        self.latencies_us.sort_unstable();
        let n = self.latencies_us.len();
        let at = |q: f64| {
            let index = ((q * n as f64).ceil() as usize).clamp(1, n.max(1)) - 1;
            self.latencies_us.get(index).copied().unwrap_or(0) as f64 / 1000.0
        };
        Phase {
            requests: n as u64,
            req_per_s: n as f64 / self.elapsed.as_secs_f64().max(1e-9),
            p50_ms: at(0.50),
            p99_ms: at(0.99),
            max_ms: self.latencies_us.last().copied().unwrap_or(0) as f64 / 1000.0,
        }
    }
}

/// The HTTP client of a load: one keep-alive connection per client, no Nagle delay.
pub fn load_client(clients: usize) -> Result<reqwest::Client, BenchError> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(clients)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(30))
        .build()
        .context("an HTTP client")?;
    Ok(client)
}

/// Runs the rounds; returns the `{__typename}` and standings figures and the row count.
async fn load(
    endpoint: &str,
    uncached_endpoint: &str,
    league: &Uuid,
    args: &Args,
) -> Result<(Phase, Phase, Phase, usize), BenchError> {
    let http = load_client(args.clients)?;
    let standings =
        serde_json::to_vec(&json!({ "query": STANDINGS, "variables": { "league": league } }))
            .context("request body")?;
    let typename = serde_json::to_vec(&json!({ "query": TYPENAME })).context("request body")?;

    // The answer is right before it is fast.
    let answer: serde_json::Value = http
        .post(endpoint)
        .header("content-type", "application/json")
        .body(standings.clone())
        .send()
        .await
        .context("the first standings request")?
        .json()
        .await
        .context("the first standings answer")?;
    let rows = answer["data"]["standings"].as_array().map_or(0, Vec::len);
    if rows != LEAGUE_PLAYERS || answer.get("errors").is_some() {
        return Err(anyhow::anyhow!("unexpected standings answer: {answer}").into());
    }

    let (standings, typename) = (Arc::new(standings), Arc::new(typename));
    let per_round = Duration::from_secs_f64(args.seconds as f64 / ROUNDS as f64);
    hammer(&http, endpoint, &typename, args.clients, WARM_UP).await?;
    hammer(&http, endpoint, &standings, args.clients, WARM_UP).await?;
    hammer(&http, uncached_endpoint, &standings, args.clients, WARM_UP).await?;
    let (mut trivial, mut asked, mut uncached) =
        (Sample::default(), Sample::default(), Sample::default());
    for round in 0..ROUNDS {
        let order = if round % 2 == 0 { [0, 1, 2] } else { [2, 1, 0] };
        for which in order {
            let (at, body, total) = match which {
                0 => (endpoint, &typename, &mut trivial),
                1 => (endpoint, &standings, &mut asked),
                _ => (uncached_endpoint, &standings, &mut uncached),
            };
            let sample = hammer(&http, at, body, args.clients, per_round).await?;
            total.elapsed += sample.elapsed;
            total.latencies_us.extend(sample.latencies_us);
        }
    }
    Ok((trivial.phase(), asked.phase(), uncached.phase(), rows))
}

/// `clients` tasks send `body` back to back for `duration`; every answer must be HTTP 200
/// without GraphQL errors.
async fn hammer(
    http: &reqwest::Client,
    endpoint: &str,
    body: &Arc<Vec<u8>>,
    clients: usize,
    duration: Duration,
) -> Result<Sample, BenchError> {
    let started = Instant::now();
    let deadline = started + duration;
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let (http, endpoint, body) = (http.clone(), endpoint.to_owned(), body.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while Instant::now() < deadline {
                    let sent = Instant::now();
                    let response = http
                        .post(&endpoint)
                        .header("content-type", "application/json")
                        .body(body.as_ref().clone())
                        .send()
                        .await?;
                    let status = response.status();
                    let bytes = response.bytes().await?;
                    let micros = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
                    if !status.is_success() || bytes.windows(8).any(|w| w == b"\"errors\"") {
                        anyhow::bail!(
                            "HTTP {status}: {}",
                            String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
                        );
                    }
                    latencies.push(micros);
                }
                Ok::<_, anyhow::Error>(latencies)
            })
        })
        .collect();
    let mut sample = Sample::default();
    for task in tasks {
        let latencies = task.await.context("a client task")?.context("a request under load")?;
        sample.latencies_us.extend(latencies);
    }
    sample.elapsed = started.elapsed();
    Ok(sample)
}
