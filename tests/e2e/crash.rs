//! Crash test (SQLite and PostgreSQL): the real server binary is killed with SIGKILL at
//! random moments, five times, while several clients keep sending mutations, and restarted
//! on the same database each time. Afterwards:
//! - every mutation that got a success answer is in the log;
//! - each player is erased (each cycle ends erasing one) exactly when their key is gone:
//!   an erasure and its key deletion commit together or not at all;
//! - `league verify` (the binary) finds the hash chain intact;
//! - what the restarted server serves (leagues, games, scores, standings) equals a read
//!   model folded from scratch out of the log;
//! - the read-model tables the servers kept up to date across the crashes equal the tables
//!   `league replay` rebuilds from scratch.
//!
//! The kill moments come from a seed printed at the start (`CRASH_SEED` replays one).

use crate::support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use league_projections::{GameStatus, ReadModel, load_model};
use league_store::EventStore;
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use support::{ADMIN, TestApp, placement_result, start_league_serve};
use tokio::sync::watch;
use uuid::Uuid;

const CLIENTS: usize = 4;
const KILLS: usize = 5;
/// Players per league (and per client cycle); games are 2-player, each seat once.
const LEAGUE_SIZE: usize = 4;

/// A mutation that got a success answer, and what the log must therefore hold.
#[derive(Debug, Clone)]
enum Acknowledged {
    Registered(Uuid),
    Created(Uuid),
    Subscribed { league: Uuid, player: Uuid },
    Finished(Uuid),
    Erased(Uuid),
}

/// Why a client gave up its current cycle.
#[derive(Debug)]
enum Interrupted {
    /// The server died under the request (or was down): expected, start over.
    Transport,
    /// The server answered with an error: never expected here.
    Refused(Value),
}

/// A small deterministic generator for the kill moments (xorshift64*).
struct Moments(u64);

impl Moments {
    fn next_millis(&mut self, low: u64, high: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        low + self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % (high - low)
    }
}

/// One client: register players, create a league, subscribe them, report every game, and
/// again; a cycle interrupted by a crash is abandoned (its outcome is unknown) and a new one
/// starts on the restarted server.
async fn client(
    id: usize,
    base: watch::Receiver<Option<String>>,
    stop: Arc<AtomicBool>,
    acknowledged: Arc<Mutex<Vec<Acknowledged>>>,
) -> Vec<Value> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("an HTTP client");
    let mut refusals = Vec::new();
    let mut cycle = 0;
    while !stop.load(Ordering::Relaxed) {
        let Some(url) = base.borrow().clone().map(|b| format!("{b}/graphql")) else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        cycle += 1;
        let ack = |a: Acknowledged| acknowledged.lock().expect("acks").push(a);
        match one_cycle(&http, &url, &format!("c{id}-{cycle}"), ack).await {
            Ok(()) | Err(Interrupted::Transport) => {}
            Err(Interrupted::Refused(response)) => refusals.push(response),
        }
    }
    refusals
}

async fn call(
    http: &reqwest::Client,
    url: &str,
    token: &str,
    query: &str,
    variables: Value,
) -> Result<Value, Interrupted> {
    let response = support::gql(http, url, Some(token), query, variables)
        .await
        .map_err(|_| Interrupted::Transport)?;
    if response.get("errors").is_some() {
        return Err(Interrupted::Refused(response));
    }
    Ok(response["data"].clone())
}

fn uuid(value: &Value) -> Uuid {
    Uuid::parse_str(value.as_str().expect("an id")).expect("a UUID")
}

async fn one_cycle(
    http: &reqwest::Client,
    url: &str,
    tag: &str,
    ack: impl Fn(Acknowledged),
) -> Result<(), Interrupted> {
    let mut players = Vec::new();
    for i in 0..LEAGUE_SIZE {
        let data = call(
            http,
            url,
            ADMIN,
            "mutation($n: String!) { registerPlayer(input: {name: $n}) { player { id } token } }",
            json!({ "n": format!("{tag}-{i}") }),
        )
        .await?;
        let id = uuid(&data["registerPlayer"]["player"]["id"]);
        ack(Acknowledged::Registered(id));
        players.push((id, data["registerPlayer"]["token"].as_str().unwrap_or_default().to_owned()));
    }
    let data = call(
        http,
        url,
        ADMIN,
        "mutation($input: CreateLeagueInput!) { createLeague(input: $input) { id } }",
        json!({ "input": { "name": tag, "game": "Go", "scoringSystem": "PLACEMENT",
                           "playersPerGame": 2, "size": LEAGUE_SIZE, "gamesPerSeat": 1 } }),
    )
    .await?;
    let league = uuid(&data["createLeague"]["id"]);
    ack(Acknowledged::Created(league));
    for (player, token) in &players {
        call(
            http,
            url,
            token,
            "mutation($l: ID!) { subscribeToLeague(leagueId: $l) { id } }",
            json!({ "l": league }),
        )
        .await?;
        ack(Acknowledged::Subscribed { league, player: *player });
    }
    let data = call(
        http,
        url,
        ADMIN,
        "query($l: ID!) { league(id: $l) { games { id seats { player { id } } } } }",
        json!({ "l": league }),
    )
    .await?;
    for game in data["league"]["games"].as_array().cloned().unwrap_or_default() {
        let seats: Vec<String> = game["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["player"]["id"].as_str().expect("player").to_owned())
            .collect();
        // The winner (seat 1) reports, as a player would.
        let token = &players.iter().find(|(p, _)| p.to_string() == seats[0]).expect("seated").1;
        call(
            http,
            url,
            token,
            "mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }",
            json!({ "g": game["id"], "r": placement_result(&seats) }),
        )
        .await?;
        ack(Acknowledged::Finished(uuid(&game["id"])));
    }
    // The cycle's last player asks to be erased: the erasure and its key deletion commit
    // in one transaction, which a kill must not split.
    let (erased, _) = players.last().expect("players");
    call(
        http,
        url,
        ADMIN,
        "mutation($p: ID, $r: String!) { erasePlayer(playerId: $p, reason: $r) { id } }",
        json!({ "p": erased, "r": "crash test" }),
    )
    .await?;
    ack(Acknowledged::Erased(*erased));
    Ok(())
}

fn league_binary(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_league"))
        .args(args)
        .env("RUST_LOG", "error")
        .output()
        .expect("run league")
}

async fn sigkill_at_random_moments_loses_nothing_acknowledged(db: TestDatabase) {
    let started = Instant::now();
    let seed = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| Uuid::now_v7().as_u128() as u64 | 1);
    eprintln!("crash test on {db}: CRASH_SEED={seed}");
    let mut moments = Moments(seed);

    let (base_tx, base_rx) = watch::channel(None);
    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|id| tokio::spawn(client(id, base_rx.clone(), stop.clone(), acknowledged.clone())))
        .collect();

    for _ in 0..KILLS {
        let server = start_league_serve(&db.url).await;
        base_tx.send_replace(Some(server.base.clone()));
        tokio::time::sleep(Duration::from_millis(moments.next_millis(300, 1500))).await;
        base_tx.send_replace(None);
        server.kill().await;
    }
    // The last restart: clients work a little more, then stop.
    let server = start_league_serve(&db.url).await;
    base_tx.send_replace(Some(server.base.clone()));
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        let refusals = client.await.expect("client task");
        assert!(refusals.is_empty(), "no mutation is refused: {refusals:#?}");
    }
    let acknowledged = acknowledged.lock().expect("acks").clone();
    eprintln!("{} acknowledged mutations over {KILLS} kills", acknowledged.len());
    assert!(acknowledged.len() >= 20, "the clients got work done: {}", acknowledged.len());

    // The log as it is, folded from scratch.
    let store = EventStore::connect(&db.url).await.expect("open the store");
    let head = store.head_position().await.expect("head");
    let model = load_model(&store, None, |_| {}).await.expect("fold the log");
    assert_eq!(model.position(), head);
    for ack in &acknowledged {
        let in_log = match ack {
            Acknowledged::Registered(player) => model.player(*player).is_some(),
            Acknowledged::Created(league) => model.league(*league).is_some(),
            Acknowledged::Subscribed { league, player } => {
                model.league(*league).is_some_and(|l| l.players.contains(player))
            }
            Acknowledged::Finished(game) => {
                model.game(*game).is_some_and(|g| g.status == GameStatus::Finished)
            }
            Acknowledged::Erased(player) => model.player(*player).is_some_and(|p| p.erased),
        };
        assert!(in_log, "an acknowledged mutation is missing from the log: {ack:?}");
    }
    let keys = store.person_keys(None).await.expect("the person keys");
    for player in model.players() {
        assert_eq!(
            player.erased,
            !keys.contains_key(&player.id),
            "player {} is erased in the log exactly when their key is gone",
            player.id
        );
    }
    assert!(acknowledged.iter().any(|ack| matches!(ack, Acknowledged::Erased(_))));

    let verify = league_binary(&["verify", "--database", &db.url]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(
        verify.status.success(),
        "league verify: {stdout} {}",
        String::from_utf8_lossy(&verify.stderr)
    );
    assert_eq!(stdout.trim(), format!("ok: {head} events verified"));

    assert_served_equals_fold(&server, &model).await;

    // `league replay` folds the same log and finds its hash chain intact.
    server.kill().await;
    let replay = league_binary(&["replay", "--database", &db.url]);
    assert!(replay.status.success(), "league replay: {}", String::from_utf8_lossy(&replay.stderr));
    let replay_err = String::from_utf8_lossy(&replay.stderr);
    assert!(replay_err.contains(&format!("replayed {head} events")), "{replay_err}");
    assert!(replay_err.contains("hash chain intact"), "{replay_err}");
    eprintln!("crash test on {db} took {:?}", started.elapsed());
}

/// Every league the fold knows, as served by the restarted server, equals the fold.
async fn assert_served_equals_fold(server: &TestApp, model: &ReadModel) {
    let totals = server
        .data(None, "{ players(first: 0) { totalCount } leagues(first: 0) { totalCount } events(first: 0) { totalCount } }", json!({}))
        .await;
    assert_eq!(totals["players"]["totalCount"].as_u64(), Some(model.players().count() as u64));
    assert_eq!(totals["leagues"]["totalCount"].as_u64(), Some(model.leagues().count() as u64));
    assert_eq!(totals["events"]["totalCount"].as_u64(), Some(model.position()));
    for league in model.leagues() {
        let data = server
            .data(
                None,
                "query($l: ID!) { league(id: $l) {
                   status version players { id }
                   games { id status seats { player { id } } scores { player { id } score } }
                   standings { rank player { id } total played wins draws }
                 } }",
                json!({ "l": league.id }),
            )
            .await;
        let served = &data["league"];
        let status = format!("{:?}", league.status).to_uppercase();
        assert_eq!(served["status"], status.as_str(), "league {}", league.id);
        assert_eq!(served["version"].as_u64(), Some(league.stream_version));
        let players: Vec<String> = league.players.iter().map(Uuid::to_string).collect();
        let served_players: Vec<&str> = served["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap())
            .collect();
        assert_eq!(served_players, players);
        let games: Vec<Value> = model
            .games_of(league.id)
            .map(|game| {
                json!({
                    "id": game.id.to_string(),
                    "status": if game.status == GameStatus::Finished { "FINISHED" } else { "SCHEDULED" },
                    "seats": game.seats.iter().map(|s| json!({ "player": { "id": s.player.to_string() } })).collect::<Vec<_>>(),
                    "scores": game.scores.iter().map(|(p, score)| json!({ "player": { "id": p.to_string() }, "score": score })).collect::<Vec<_>>(),
                })
            })
            .collect();
        assert_eq!(served["games"], json!(games), "games of league {}", league.id);
        let standings: Vec<Value> = model
            .standings(league.id)
            .iter()
            .map(|row| {
                json!({ "rank": row.rank, "player": { "id": row.player.to_string() },
                        "total": row.total, "played": row.played, "wins": row.wins, "draws": row.draws })
            })
            .collect();
        assert_eq!(served["standings"], json!(standings), "standings of league {}", league.id);
    }
}

on_both_databases!(sigkill_at_random_moments_loses_nothing_acknowledged);
