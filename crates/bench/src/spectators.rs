//! `league-bench spectators`: many people watching a live page while results come in
//! (`docs/performance.md#spectators`).
//!
//! 1. Seeds a scratch database as `league-bench graphql` does (a 64-player league with 1,000
//!    results and games left to report) and a 140-player Diplomacy tournament with round 1
//!    seeded (20 boards), and serves it in-process with [`league_gateway::run`] on a loopback
//!    port (rate limits and connection caps off: the bench measures the pages, not the
//!    limiter).
//! 2. For each page (the league's, the tournament's), twice: clients that each do what the
//!    page does, over their own WebSocket subscriptions and HTTP requests (`--spectators`,
//!    default 1,000; `--baseline-spectators`, default 100, see [`Args`]):
//!    - *baseline* (the pages before live updates): every pushed event reads the whole page
//!      again, uncompressed (the league: the league, its log, its standings as of the newest
//!      position and one score history per player; the tournament: the tournament and its
//!      standings);
//!    - *live* (the pages now): the league page applies the pushed standings rows and reads
//!      only what a result changed (`LeagueChange`), the tournament page applies the pushed
//!      standings lines and reads only the reported board, both asking for gzip or brotli.
//! 3. Reports `--results` results (default 3; `--baseline-results`, default 1) one after the
//!    other; for each: the bytes the
//!    server sent per spectator (WebSocket messages and answer bodies as sent, headers and
//!    framing not counted), requests per spectator, and the time from the report to the
//!    last spectator's page being up to date (p50, p99, max over spectators and results).
//! 4. Samples this process's resident memory before the spectators connect and once every
//!    one has subscribed: the difference over the open subscriptions is the memory per open
//!    subscription (clients and server share the process, so both sides are counted).
//! 5. States the goal: ≤ 5 kB and ≤ 1 request per spectator per result, p99 ≤ 1 s (live).

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures::{SinkExt, StreamExt};
use league_gateway::GatewayConfig;
use serde_json::{Value, json};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use uuid::Uuid;

use crate::BenchError;
use crate::figures::{Process, load_average, print_figures, resident_bytes};
use crate::scratch::{TempScratchArgs, in_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: TempScratchArgs,
    /// Spectators of each page.
    #[arg(long, default_value_t = 1_000)]
    pub spectators: usize,
    /// Results reported while they watch (each page, live).
    #[arg(long, default_value_t = 3)]
    pub results: usize,
    /// Spectators of each page in the baseline: each reads a whole page per result (a
    /// 64-player league with 1,000 results is over a megabyte), so a thousand would take
    /// many minutes per result; bytes and requests per spectator do not depend on how many.
    #[arg(long, default_value_t = 100)]
    pub baseline_spectators: usize,
    /// Results reported in the baseline (each page).
    #[arg(long, default_value_t = 1)]
    pub baseline_results: usize,
}

/// Entrants of the tournament (20 boards of 7).
const ENTRANTS: usize = 140;
/// Longest wait for every spectator to catch up with one result.
const PATIENCE: Duration = Duration::from_secs(300);
/// Goals per spectator per result.
const GOAL_BYTES: f64 = 5_000.0;
const GOAL_REQUESTS: f64 = 1.0;
const GOAL_P99_MS: f64 = 1_000.0;

/// What a page did before live updates, per pushed event: read everything again.
mod baseline {
    pub const LEAGUE: &str = "query League($id: ID!) { league(id: $id) {
      id name game gameVersion scoringSystem playersPerGame size gamesPerSeat
      requireActivePlayers status createdAt version aggregation { kind n } organisers { id }
      players { id name } standings { rank total played wins draws player { id name } }
      games { id number status finishedAt seats { seat label player { id name } }
        scores { score player { id name } }
        result { __typename ... on PlacementResult { entries { points player { id } } } } } } }";
    pub const EVENTS: &str = "query Events($id: ID, $after: String) { events(leagueId: $id, first: 100, after: $after) {
      totalCount pageInfo { hasNextPage endCursor }
      nodes { position type description actor recordedAt hash prevHash streamId version payload } } }";
    pub const STANDINGS_AS_OF: &str = "query StandingsAsOf($id: ID!, $position: Int!) {
      standings(leagueId: $id, asOf: { position: $position }) { rank total played wins draws player { id name } } }";
    pub const SCORE_HISTORY: &str = "query ScoreHistory($id: ID!, $player: ID!) {
      scoreHistory(leagueId: $id, playerId: $player) { position recordedAt delta total reason game { id number } } }";
    pub const LEAGUE_PUSHES: [&str; 2] = [
        "subscription($id: ID!) { standingsChanged(leagueId: $id) { position standings { rank total played wins draws player { id name } } } }",
        "subscription($id: ID!) { leagueEvents(leagueId: $id) { position type } }",
    ];
    pub const TOURNAMENT: &str = "query Tournament($id: ID!) { tournament(id: $id) {
      id name game scoringSystem playersPerBoard roundCount status createdAt version nextRound
      organisers { id name } entrants { enteredAfterRound withdrawnAfterRound player { id name } }
      rollCall { answered present standby twoBoards player { id name } }
      rounds { number started completed topBoard sittingOut { id name } playingTwice { id name }
        boards { id number finished corrections seats { seat label player { id name } } scores { score player { id } } } } } }";
    pub const TOURNAMENT_STANDINGS: &str = "query TournamentStandings($id: ID!) { tournament(id: $id) { id standings {
      rank total games wins draws notes player { id name } rounds { round score satOut dropped boards { board score dropped } } } } }";
    pub const TOURNAMENT_PUSHES: [&str; 2] = [
        "subscription($id: ID!) { tournamentEvents(tournamentId: $id) { position } }",
        "subscription($id: ID!) { tournamentStandingsChanged(tournamentId: $id) { position } }",
    ];
}

/// What the pages do now (the documents of `web/js/queries.js`).
mod live {
    pub const LEAGUE_PUSHES: [&str; 2] = [
        "subscription($id: ID!) { standingsChanged(leagueId: $id) { position version previousVersion rowCount ranks changed { rank total played wins draws player { id } } } }",
        "subscription($id: ID!) { leagueEvents(leagueId: $id) { position version type description actor recordedAt } }",
    ];
    pub const LEAGUE_CHANGE: &str = "query LeagueChange($id: ID!, $after: Int!) { league(id: $id) { id status
      scoreHistories(afterPosition: $after) { player { id } changes { position delta total reason
        game { id status finishedAt scores { score player { id name } }
          result { __typename ... on PlacementResult { entries { points player { id } } } } } } } } }";
    pub const TOURNAMENT_PUSHES: [&str; 2] = [
        "subscription($id: ID!) { tournamentEvents(tournamentId: $id) { position version type payload } }",
        "subscription($id: ID!) { tournamentStandingsChanged(tournamentId: $id) { position version previousVersion rowCount ranks
          changed { rank total games wins draws notes player { id name } rounds { round score satOut dropped boards { board score dropped } } } } }",
    ];
    pub const BOARD: &str = "query Board($id: ID!, $board: ID!) { tournament(id: $id) { id
      board(id: $board) { id finished corrections scores { score player { id } } } } }";
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Page {
    League,
    Tournament,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Behaviour {
    Baseline,
    Live,
}

/// One page watched one way.
#[derive(Debug, serde::Serialize)]
struct Run {
    page: Page,
    behaviour: Behaviour,
    spectators: usize,
    results: usize,
    bytes_per_spectator_per_result: f64,
    requests_per_spectator_per_result: f64,
    /// Requests sent again on a new connection, in all (counted in the requests too).
    retried_requests: u64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    subscriptions: usize,
    memory_per_subscription_kib: f64,
    within_goal: bool,
}

#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    load_average: String,
    goal: String,
    runs: Vec<Run>,
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    let counts = [args.spectators, args.results, args.baseline_spectators, args.baseline_results];
    if counts.contains(&0) || args.results + args.baseline_results > 10 {
        return Err(BenchError::BadInput(
            "spectators and results must be at least 1, and at most 10 results in all".to_owned(),
        ));
    }
    let beside = args.scratch.beside();
    let args = &args;
    let figures =
        in_scratch(&beside, "spectators", false, |url| async move { measure(&url, args).await })
            .await?;
    print_figures(&figures, args.scratch.json, print_table)?;
    let met = figures.runs.iter().filter(|r| r.behaviour == Behaviour::Live).all(|r| r.within_goal);
    Ok(if met { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn print_table(f: &Figures) {
    println!(
        "database        {} (scratch, removed afterwards); load average {}",
        f.database, f.load_average
    );
    println!(
        "{:<11} {:<9} {:>6} {:>12} {:>9} {:>8} {:>9} {:>9} {:>9} {:>13}",
        "page",
        "",
        "specs",
        "bytes/result",
        "req/res",
        "retried",
        "p50 ms",
        "p99 ms",
        "max ms",
        "KiB/subscr."
    );
    for r in &f.runs {
        println!(
            "{:<11} {:<9} {:>6} {:>12.0} {:>9.2} {:>8} {:>9.1} {:>9.1} {:>9.1} {:>13.1}",
            format!("{:?}", r.page).to_lowercase(),
            format!("{:?}", r.behaviour).to_lowercase(),
            r.spectators,
            r.bytes_per_spectator_per_result,
            r.requests_per_spectator_per_result,
            r.retried_requests,
            r.p50_ms,
            r.p99_ms,
            r.max_ms,
            r.memory_per_subscription_kib,
        );
    }
    let met = f.runs.iter().filter(|r| r.behaviour == Behaviour::Live).all(|r| r.within_goal);
    println!("goal (live)     {} → {}", f.goal, if met { "met" } else { "NOT met" });
}

/// What the spectators of one run share.
struct Shared {
    endpoint: String,
    ws_url: String,
    page: Page,
    behaviour: Behaviour,
    id: Uuid,
    /// Bytes the server sent to spectators, requests they made.
    bytes: AtomicU64,
    requests: AtomicU64,
    /// Requests sent again after their connection closed under them (among `requests`).
    retries: AtomicU64,
    /// Spectators subscribed, and spectators up to date with each result.
    ready: AtomicUsize,
    caught_up: Vec<AtomicUsize>,
    /// When each spectator caught up with each result, in µs after the run's start.
    started: Instant,
    times: std::sync::Mutex<Vec<Vec<u64>>>,
    changed: Notify,
}

async fn measure(url: &str, args: &Args) -> Result<Figures, BenchError> {
    let (app, database, league, unreported) = crate::graphql::seeded_games(url, false).await?;
    if unreported.len() < args.results + args.baseline_results {
        return Err(anyhow::anyhow!("the seeded league has too few games left to report").into());
    }

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .context("cannot listen on a loopback port")?;
    let address = listener.local_addr().context("bound address")?;
    let admin = league_gateway::generate_token();
    let mut config = GatewayConfig::new(admin.clone());
    config.rate = league_gateway::config::RateLimits::OFF;
    config.ws.max_connections = usize::MAX;
    config.ws.max_connections_per_addr = usize::MAX;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(league_gateway::run(listener, app.clone(), config, async {
        stopped.await.ok();
    }));
    let endpoint = format!("http://{address}/graphql");
    // Idle connections are dropped well before the server's header-read timeout closes
    // them: a reused connection the server has just closed fails the request.
    let http = reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(2))
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(120))
        .build()
        .context("an HTTP client")?;
    let outcome = async {
        let (tournament, boards) = seed_tournament(&http, &endpoint, &admin).await?;
        let mut runs = Vec::new();
        let mut games = unreported.into_iter();
        let mut boards = boards.into_iter();
        for page in [Page::League, Page::Tournament] {
            for behaviour in [Behaviour::Baseline, Behaviour::Live] {
                let (spectators, results) = match behaviour {
                    Behaviour::Baseline => (args.baseline_spectators, args.baseline_results),
                    Behaviour::Live => (args.spectators, args.results),
                };
                let shared = Arc::new(Shared {
                    endpoint: endpoint.clone(),
                    ws_url: format!("ws://{address}/graphql/ws"),
                    page,
                    behaviour,
                    id: if page == Page::League { league } else { tournament },
                    bytes: AtomicU64::new(0),
                    requests: AtomicU64::new(0),
                    retries: AtomicU64::new(0),
                    ready: AtomicUsize::new(0),
                    caught_up: (0..results).map(|_| AtomicUsize::new(0)).collect(),
                    started: Instant::now(),
                    times: std::sync::Mutex::new(vec![Vec::new(); results]),
                    changed: Notify::new(),
                });
                let mut reports = Vec::new();
                for _ in 0..results {
                    let report = match page {
                        Page::League => {
                            let (game, seats) = games.next().context("no game left")?;
                            league_report(game, &seats)
                        }
                        Page::Tournament => {
                            let (board, seats) = boards.next().context("no board left")?;
                            board_report(tournament, board, &seats)
                        }
                    };
                    reports.push(report);
                }
                runs.push(watch(&http, &admin, &shared, spectators, reports).await?);
            }
        }
        Ok::<_, BenchError>(runs)
    }
    .await;
    stop.send(()).ok();
    match tokio::time::timeout(Duration::from_secs(30), server).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(error))) => {
            return Err(anyhow::Error::new(error).context("the server failed").into());
        }
        Ok(Err(error)) => return Err(anyhow::Error::new(error).context("the server task").into()),
        Err(_) => return Err(anyhow::anyhow!("the server did not stop within 30 s").into()),
    }
    Ok(Figures {
        database,
        load_average: load_average(),
        goal: format!(
            "≤ {GOAL_BYTES:.0} bytes and ≤ {GOAL_REQUESTS:.0} request per spectator per result, p99 ≤ {GOAL_P99_MS:.0} ms"
        ),
        runs: outcome?,
    })
}

/// A league game's result: distinct points by seat.
fn league_report(game: Uuid, seats: &[Uuid]) -> Value {
    let placement: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(seat, player)| json!({ "playerId": player, "points": seat * 10 + 5 }))
        .collect();
    json!({ "query": "mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }",
            "variables": { "g": game, "r": { "placement": placement } } })
}

/// A tournament board's result: 10, 8, 6, 4, 3, 2, 1 centres by seat.
fn board_report(tournament: Uuid, board: Uuid, seats: &[String]) -> Value {
    let entries: Vec<Value> = seats
        .iter()
        .zip([10, 8, 6, 4, 3, 2, 1])
        .map(|(player, centres)| json!({ "playerId": player, "centres": centres }))
        .collect();
    json!({ "query": "mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { id } }",
            "variables": { "t": tournament, "b": board, "r": { "diplomacy": entries } } })
}

/// An admin's GraphQL request; its `data`, or the errors as a failure.
async fn admin_gql(
    http: &reqwest::Client,
    endpoint: &str,
    admin: &str,
    body: &Value,
) -> anyhow::Result<Value> {
    let answer: Value =
        http.post(endpoint).bearer_auth(admin).json(body).send().await?.json().await?;
    if !answer["errors"].is_null() {
        anyhow::bail!("{}", answer["errors"]);
    }
    Ok(answer["data"].clone())
}

/// A 140-player Diplomacy tournament with round 1 seeded: its id and each board's id and
/// seated players.
async fn seed_tournament(
    http: &reqwest::Client,
    endpoint: &str,
    admin: &str,
) -> Result<(Uuid, Vec<(Uuid, Vec<String>)>), BenchError> {
    let create = json!({ "query": "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }",
        "variables": { "input": { "name": "Spectated Cup", "game": "Diplomacy", "scoringSystem": "SQUARES",
            "playersPerBoard": 7, "rounds": 3, "tournamentScoring": "sum-all-rounds" } } });
    let data = admin_gql(http, endpoint, admin, &create).await.context("create the tournament")?;
    let id: Uuid = data["createTournament"]["id"]
        .as_str()
        .context("tournament id")?
        .parse()
        .context("tournament id")?;
    for n in 1..=ENTRANTS {
        let register = json!({ "query": "mutation($name: String!) { registerPlayer(input: { name: $name }) { player { id } } }",
            "variables": { "name": format!("Entrant {n}") } });
        let data =
            admin_gql(http, endpoint, admin, &register).await.context("register an entrant")?;
        let player = data["registerPlayer"]["player"]["id"].clone();
        let enter = json!({ "query": "mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }",
            "variables": { "t": id, "p": player } });
        admin_gql(http, endpoint, admin, &enter).await.context("enter an entrant")?;
        let present = json!({ "query": "mutation($t: ID!, $p: ID) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }",
            "variables": { "t": id, "p": player } });
        admin_gql(http, endpoint, admin, &present).await.context("check an entrant in")?;
    }
    let seed = json!({ "query": "mutation($t: ID!) { seedRound(tournamentId: $t, round: 1, seed: \"42\") { boards { id seats { player { id } } } } }",
        "variables": { "t": id } });
    let data = admin_gql(http, endpoint, admin, &seed).await.context("seed round 1")?;
    let boards = data["seedRound"]["boards"]
        .as_array()
        .context("boards")?
        .iter()
        .map(|board| {
            let seats = board["seats"]
                .as_array()
                .map(|seats| {
                    seats
                        .iter()
                        .filter_map(|s| s["player"]["id"].as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            Ok((board["id"].as_str().context("board id")?.parse().context("board id")?, seats))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((id, boards))
}

/// Opens the spectators, reports each result once all are up to date with the one before,
/// and measures.
async fn watch(
    http: &reqwest::Client,
    admin: &str,
    shared: &Arc<Shared>,
    spectators: usize,
    reports: Vec<Value>,
) -> Result<Run, BenchError> {
    let before = resident_bytes(Process::This)?;
    let mut tasks = Vec::with_capacity(spectators);
    for _ in 0..spectators {
        let (http, shared) = (http.clone(), shared.clone());
        tasks.push(tokio::spawn(async move { spectator(&http, &shared).await }));
    }
    let all = spectators;
    wait_until(shared, || shared.ready.load(Ordering::SeqCst) >= all, &mut tasks).await?;
    let subscribed = resident_bytes(Process::This)?;
    let subscriptions = 2 * all;

    let (bytes_before, requests_before) =
        (shared.bytes.load(Ordering::SeqCst), shared.requests.load(Ordering::SeqCst));
    let mut latencies_us = Vec::new();
    for (n, report) in reports.iter().enumerate() {
        let sent = shared.started.elapsed();
        admin_gql(http, &shared.endpoint, admin, report).await.context("report a result")?;
        wait_until(shared, || shared.caught_up[n].load(Ordering::SeqCst) >= all, &mut tasks)
            .await?;
        let times = shared.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        latencies_us.extend(times[n].iter().map(|&t| t.saturating_sub(sent.as_micros() as u64)));
    }
    // Late pushes of the last result (none expected) would count too.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let bytes = (shared.bytes.load(Ordering::SeqCst) - bytes_before) as f64;
    let requests = (shared.requests.load(Ordering::SeqCst) - requests_before) as f64;
    for task in &tasks {
        task.abort();
    }
    for task in tasks {
        let _ = task.await;
    }
    latencies_us.sort_unstable();
    let at = |q: f64| {
        let index = ((q * latencies_us.len() as f64).ceil() as usize)
            .clamp(1, latencies_us.len().max(1))
            - 1;
        latencies_us.get(index).copied().unwrap_or(0) as f64 / 1000.0
    };
    let per = (all * reports.len()) as f64;
    let (bytes, requests) = (bytes / per, requests / per);
    let p99 = at(0.99);
    Ok(Run {
        page: shared.page,
        behaviour: shared.behaviour,
        spectators: all,
        results: reports.len(),
        bytes_per_spectator_per_result: bytes,
        requests_per_spectator_per_result: requests,
        retried_requests: shared.retries.load(Ordering::SeqCst),
        p50_ms: at(0.50),
        p99_ms: p99,
        max_ms: latencies_us.last().copied().unwrap_or(0) as f64 / 1000.0,
        subscriptions,
        memory_per_subscription_kib: (subscribed - before).max(0.0) / subscriptions as f64 / 1024.0,
        within_goal: bytes <= GOAL_BYTES && requests <= GOAL_REQUESTS && p99 <= GOAL_P99_MS,
    })
}

/// Waits for `done`, failing when a spectator fails or `PATIENCE` runs out.
async fn wait_until(
    shared: &Shared,
    done: impl Fn() -> bool,
    tasks: &mut [tokio::task::JoinHandle<anyhow::Result<()>>],
) -> Result<(), BenchError> {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        if let Some(task) = tasks.iter_mut().find(|task| task.is_finished()) {
            return Err(match task.await {
                Ok(Err(error)) => error.context("a spectator").into(),
                _ => anyhow::anyhow!("a spectator stopped").into(),
            });
        }
        if Instant::now() > deadline {
            return Err(
                anyhow::anyhow!("the spectators did not catch up within {PATIENCE:?}").into()
            );
        }
        let _ = tokio::time::timeout(Duration::from_millis(50), shared.changed.notified()).await;
    }
    Ok(())
}

/// A page's GraphQL read, counted: the answer's bytes as sent (compressed when the live page
/// asks for it), decoded by the caller only when it needs the data.
async fn read(
    http: &reqwest::Client,
    shared: &Shared,
    query: &str,
    variables: Value,
) -> anyhow::Result<Vec<u8>> {
    let body = json!({ "query": query, "variables": variables });
    let mut attempts = 0;
    let response = loop {
        let mut request = http.post(&shared.endpoint).json(&body);
        if shared.behaviour == Behaviour::Live {
            request = request.header(reqwest::header::ACCEPT_ENCODING, "br, gzip");
        }
        attempts += 1;
        match request.send().await {
            Ok(response) => break response,
            // A kept-alive connection the server closed as the request went out: a browser
            // sends such a read again on a new connection, and so does a spectator here (the
            // retry is counted as a request of its own).
            Err(error) if attempts < 3 && (error.is_request() || error.is_connect()) => {
                shared.requests.fetch_add(1, Ordering::Relaxed);
                shared.retries.fetch_add(1, Ordering::Relaxed);
            }
            Err(error) => return Err(error.into()),
        }
    };
    let status = response.status();
    let body = response.bytes().await?;
    if !status.is_success() {
        anyhow::bail!("HTTP {status}");
    }
    shared.requests.fetch_add(1, Ordering::Relaxed);
    shared.bytes.fetch_add(body.len() as u64, Ordering::Relaxed);
    Ok(body.to_vec())
}

/// An uncompressed answer's `data`.
fn data(body: &[u8]) -> anyhow::Result<Value> {
    let answer: Value = serde_json::from_slice(body)?;
    if !answer["errors"].is_null() {
        anyhow::bail!("{}", answer["errors"]);
    }
    Ok(answer["data"].clone())
}

/// Today's league page, read again whole (uncompressed), as its reload did.
async fn league_page(http: &reqwest::Client, shared: &Shared) -> anyhow::Result<()> {
    let id = shared.id;
    let league = data(&read(http, shared, baseline::LEAGUE, json!({ "id": id })).await?)?;
    let mut after = Value::Null;
    let mut newest = 0;
    loop {
        let page = data(
            &read(http, shared, baseline::EVENTS, json!({ "id": id, "after": after })).await?,
        )?;
        if let Some(last) = page["events"]["nodes"].as_array().and_then(|n| n.last()) {
            newest = last["position"].as_u64().unwrap_or(newest);
        }
        if page["events"]["pageInfo"]["hasNextPage"] != true {
            break;
        }
        after = page["events"]["pageInfo"]["endCursor"].clone();
    }
    read(http, shared, baseline::STANDINGS_AS_OF, json!({ "id": id, "position": newest })).await?;
    let players: Vec<Value> = league["league"]["players"].as_array().cloned().unwrap_or_default();
    // One after the other: a browser holds a few connections per site, a thousand
    // spectators' parallel reads would hold tens of thousands.
    for player in &players {
        read(http, shared, baseline::SCORE_HISTORY, json!({ "id": id, "player": player["id"] }))
            .await?;
    }
    Ok(())
}

/// One spectator: subscribes as its page does, then handles every push as the page does and
/// says when it is up to date with each result (a result's event handled and its standings
/// pushed).
async fn spectator(http: &reqwest::Client, shared: &Shared) -> anyhow::Result<()> {
    let pushes = match (shared.page, shared.behaviour) {
        (Page::League, Behaviour::Baseline) => baseline::LEAGUE_PUSHES,
        (Page::League, Behaviour::Live) => live::LEAGUE_PUSHES,
        (Page::Tournament, Behaviour::Baseline) => baseline::TOURNAMENT_PUSHES,
        (Page::Tournament, Behaviour::Live) => live::TOURNAMENT_PUSHES,
    };
    let variables = json!({ "id": shared.id });
    let (events_feed, standings_feed) = match shared.page {
        Page::League => (1, 0),
        Page::Tournament => (0, 1),
    };
    let (sender, mut received) = tokio::sync::mpsc::unbounded_channel::<(usize, usize, Value)>();
    let mut sockets = Vec::new();
    for (feed, query) in pushes.iter().enumerate() {
        let mut request = shared.ws_url.as_str().into_client_request()?;
        request.headers_mut().insert("sec-websocket-protocol", "graphql-transport-ws".parse()?);
        let (mut ws, _) = tokio_tungstenite::connect_async(request).await?;
        ws.send(Message::text(json!({ "type": "connection_init" }).to_string())).await?;
        let subscribe = json!({ "type": "subscribe", "id": "1", "payload": { "query": query, "variables": variables } });
        ws.send(Message::text(subscribe.to_string())).await?;
        ws.send(Message::text(json!({ "type": "ping" }).to_string())).await?;
        // Subscribed once the ping's pong is back (messages are handled in order).
        loop {
            match ws.next().await.context("the socket closed")?? {
                Message::Text(text) if text.contains("\"pong\"") => break,
                Message::Text(text) if text.contains("\"error\"") => {
                    anyhow::bail!("subscription refused: {text}")
                }
                _ => {}
            }
        }
        sockets.push((feed, ws, sender.clone()));
    }
    drop(sender);
    let mut readers = Vec::new();
    for (feed, mut ws, sender) in sockets {
        readers.push(async move {
            while let Some(message) = ws.next().await {
                if let Message::Text(text) = message?
                    && text.starts_with("{\"type\":\"next\"")
                {
                    let value: Value = serde_json::from_str(&text)?;
                    if sender.send((feed, text.len(), value)).is_err() {
                        break;
                    }
                }
            }
            anyhow::Ok(())
        });
    }
    shared.ready.fetch_add(1, Ordering::SeqCst);
    shared.changed.notify_waiters();

    let handler = async {
        let (mut results, mut standings, mut marked) = (0usize, 0usize, 0usize);
        while let Some((feed, length, message)) = received.recv().await {
            shared.bytes.fetch_add(length as u64, Ordering::Relaxed);
            let data = &message["payload"]["data"];
            if feed == standings_feed {
                standings += 1;
            } else if feed == events_feed {
                let event = data
                    .get("leagueEvents")
                    .or_else(|| data.get("tournamentEvents"))
                    .cloned()
                    .unwrap_or_default();
                let is_result = match shared.behaviour {
                    // The baseline selects no type for tournaments: every event reloads.
                    Behaviour::Baseline => true,
                    Behaviour::Live => {
                        matches!(event["type"].as_str(), Some("GameFinished" | "BoardFinished"))
                    }
                };
                match (shared.page, shared.behaviour) {
                    (Page::League, Behaviour::Baseline) => league_page(http, shared).await?,
                    (Page::League, Behaviour::Live) => {
                        let position = event["position"].as_u64().unwrap_or(1);
                        read(
                            http,
                            shared,
                            live::LEAGUE_CHANGE,
                            json!({ "id": shared.id, "after": position - 1 }),
                        )
                        .await?;
                    }
                    (Page::Tournament, Behaviour::Baseline) => {
                        let id = json!({ "id": shared.id });
                        futures::future::try_join(
                            read(http, shared, baseline::TOURNAMENT, id.clone()),
                            read(http, shared, baseline::TOURNAMENT_STANDINGS, id),
                        )
                        .await?;
                    }
                    (Page::Tournament, Behaviour::Live) => {
                        let payload = match &event["payload"] {
                            Value::String(text) => serde_json::from_str(text).unwrap_or_default(),
                            other => other.clone(),
                        };
                        read(
                            http,
                            shared,
                            live::BOARD,
                            json!({ "id": shared.id, "board": payload["boardId"] }),
                        )
                        .await?;
                    }
                }
                if is_result {
                    results += 1;
                }
            }
            let up_to_date = results.min(standings).min(shared.caught_up.len());
            if up_to_date > marked {
                let now = shared.started.elapsed().as_micros() as u64;
                let mut times =
                    shared.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                for n in marked..up_to_date {
                    times[n].push(now);
                    shared.caught_up[n].fetch_add(1, Ordering::SeqCst);
                }
                marked = up_to_date;
            }
            shared.changed.notify_waiters();
        }
        anyhow::Ok(())
    };
    let readers = futures::future::try_join_all(readers);
    tokio::try_join!(readers, handler)?;
    Ok(())
}
