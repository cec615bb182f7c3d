//! Automatic failover with pg_auto_failover (`docs/operations.md`, "Automatic failover
//! (pg_auto_failover)"): a monitor and two nodes with synchronous replication
//! (`league_testkit::auto_failover`), two `league serve` processes on the formation's
//! multi-host URL (one of them a reading gateway whose `--read-database` prefers the
//! standby), 64 writers creating leagues with idempotency keys and retrying a key on
//! `UNAVAILABLE` (or a dropped request) until it is acknowledged. The primary's postmaster
//! is SIGKILLed with its node's `pg_autoctl` (the node is lost); the monitor promotes the
//! secondary. Checked: every acknowledged league is in the new primary's log exactly once
//! and no key wrote twice, `league verify` passes there, both gateways write again within
//! 30 s without a restart (the figure is printed), and the reading gateway serves what the
//! other one writes after the failover.
//!
//! Run by `scripts/failover-test` (it installs pg_auto_failover's packages); ignored in the
//! workspace run, which has no formation.

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use league_testkit::auto_failover::AutoFailoverCluster;
use serde_json::{Value, json};
use support::{ADMIN, TestApp, start_league_serve_with, start_reading_league_serve};

/// Concurrent writers, half on each gateway.
const WRITERS: usize = 64;
/// How long the writers run before the primary is killed.
const BEFORE_KILL: Duration = Duration::from_secs(3);
/// How long they keep writing once both gateways wrote again.
const AFTER_RECOVERY: Duration = Duration::from_secs(2);
/// The goal: both gateways write again within this of the kill.
const WRITE_AGAIN_WITHIN: Duration = Duration::from_secs(30);
/// A writer gives up on a key after this long (the test then fails).
const GIVE_UP: Duration = Duration::from_secs(60);

const CREATE: &str = "mutation($input: CreateLeagueInput!, $key: String) {
    createLeague(input: $input, idempotencyKey: $key) { id }
}";

/// One acknowledged command: its key, the league it created, which gateway answered, when
/// it was sent and when answered (since the test's start).
struct Acknowledged {
    key: String,
    league: String,
    gateway: usize,
    sent: Duration,
    answered: Duration,
}

/// What a writer saw besides acknowledgements.
#[derive(Default)]
struct Retries {
    unavailable: AtomicU64,
    dropped: AtomicU64,
}

/// Sends one keyed `createLeague`; `Ok(league id)`, `Err(true)` for an answer to retry
/// (`UNAVAILABLE` or no answer), `Err(false)` for any other error.
async fn create_league(gateway: &TestApp, key: &str, retries: &Retries) -> Result<String, bool> {
    let input = json!({
        "name": format!("failover {key}"), "game": support::game_name("PLACEMENT"),
        "scoringSystem": "PLACEMENT", "playersPerGame": 2, "size": 4,
    });
    let response =
        gateway.graphql_response(Some(ADMIN), CREATE, json!({ "input": input, "key": key }));
    let body: Option<Value> = match response.await {
        Ok(response) => response.json().await.ok(),
        Err(_) => None,
    };
    let Some(body) = body else {
        retries.dropped.fetch_add(1, Ordering::Relaxed);
        return Err(true);
    };
    if let Some(id) = body["data"]["createLeague"]["id"].as_str() {
        return Ok(id.to_owned());
    }
    let extensions = &body["errors"][0]["extensions"];
    if extensions["code"] == "UNAVAILABLE" {
        assert_eq!(extensions["retryable"], true, "{body}");
        retries.unavailable.fetch_add(1, Ordering::Relaxed);
        return Err(true);
    }
    eprintln!("writer {key}: {body}");
    Err(false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs pg_auto_failover: scripts/failover-test runs it"]
async fn gateways_follow_an_automatic_failover_and_lose_no_acknowledged_write() {
    let Some(mut cluster) = AutoFailoverCluster::start() else {
        return;
    };
    let synchronous = cluster.synchronous_standby_names().expect("the primary's settings");
    assert!(!synchronous.is_empty(), "synchronous replication is on: {synchronous:?}");
    let writes_url = cluster.formation_url("read-write");
    let reads_url = cluster.formation_url("prefer-standby");
    // 64 writers as one admin: no rate limit in the way.
    let unlimited = [
        ("LEAGUE_RATE_MUTATIONS_PER_MIN", "0"),
        ("LEAGUE_RATE_REQUESTS_PER_SEC", "0"),
        ("RUST_LOG", "error,league_store::failover=warn"),
    ];
    let mut writing = vec![("LEAGUE_ADMIN_TOKEN", ADMIN)];
    writing.extend(unlimited);
    let mut reading = vec![("LEAGUE_REPLICA_LAG_TIMEOUT", "10s")];
    reading.extend(unlimited);
    let gateways = Arc::new([
        start_league_serve_with(&writes_url, &writing).await,
        start_reading_league_serve(&writes_url, &reads_url, &reading).await,
    ]);
    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let retries = Arc::new(Retries::default());
    let mut writers = Vec::new();
    for writer in 0..WRITERS {
        let (gateways, stop, retries) = (gateways.clone(), stop.clone(), retries.clone());
        writers.push(tokio::spawn(async move {
            let gateway = writer % 2;
            let mut acknowledged = Vec::new();
            let mut failed = Vec::new();
            for command in 0.. {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let key = format!("failover-{writer}-{command}");
                let sent = start.elapsed();
                loop {
                    match create_league(&gateways[gateway], &key, &retries).await {
                        Ok(league) => {
                            let answered = start.elapsed();
                            acknowledged.push(Acknowledged {
                                key,
                                league,
                                gateway,
                                sent,
                                answered,
                            });
                            break;
                        }
                        Err(true) if start.elapsed() - sent < GIVE_UP => {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        Err(_) => {
                            failed.push(key);
                            break;
                        }
                    }
                }
            }
            (acknowledged, failed)
        }));
    }

    tokio::time::sleep(BEFORE_KILL).await;
    let old_primary = cluster.primary_name().expect("a primary");
    let lost = cluster.kill_primary().expect("kill the primary");
    let killed = start.elapsed();
    eprintln!("SIGKILLed {lost}'s postmaster and pg_autoctl at {killed:?}");
    let new_primary = cluster.wait_for_new_primary(WRITE_AGAIN_WITHIN).expect("a new primary");
    let promoted = start.elapsed() - killed;
    assert_ne!(new_primary, old_primary, "the secondary was promoted");

    // The gateways write again: a command sent after the kill is acknowledged by each.
    let deadline = Instant::now() + WRITE_AGAIN_WITHIN + Duration::from_secs(5);
    let mut written_again = [None, None];
    for (gateway, written) in written_again.iter_mut().enumerate() {
        // One key per gateway, retried as the writers do.
        let key = format!("failover-probe-{gateway}");
        loop {
            if create_league(&gateways[gateway], &key, &retries).await.is_ok() {
                *written = Some(start.elapsed() - killed);
                break;
            }
            assert!(Instant::now() < deadline, "gateway {gateway} never wrote again");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    tokio::time::sleep(AFTER_RECOVERY).await;
    stop.store(true, Ordering::Relaxed);
    let mut acknowledged = Vec::new();
    for writer in writers {
        let (done, failed) = writer.await.expect("a writer");
        assert!(failed.is_empty(), "commands that failed for good: {failed:?}");
        acknowledged.extend(done);
    }

    // The first acknowledgement of a command sent after the kill, per gateway.
    let mut first_after = [None::<Duration>, None];
    for ack in acknowledged.iter().filter(|ack| ack.sent > killed) {
        let first = &mut first_after[ack.gateway];
        let took = ack.answered - killed;
        *first = Some(first.map_or(took, |first| first.min(took)));
    }
    let retried = acknowledged.iter().filter(|ack| ack.answered > killed && ack.sent < killed);
    eprintln!(
        "failover: {old_primary} lost, {new_primary} promoted {:.1} s after the kill; \
         writes again {:.1} s (gateway 1) and {:.1} s (gateway 2, reading gateway) after it \
         (writers: {:.1} s, {:.1} s); {} commands acknowledged, {} of them in flight at the \
         kill; {} UNAVAILABLE answers and {} dropped requests retried",
        promoted.as_secs_f64(),
        written_again[0].expect("gateway 1").as_secs_f64(),
        written_again[1].expect("gateway 2").as_secs_f64(),
        first_after[0].map_or(f64::NAN, |took| took.as_secs_f64()),
        first_after[1].map_or(f64::NAN, |took| took.as_secs_f64()),
        acknowledged.len(),
        retried.count(),
        retries.unavailable.load(Ordering::Relaxed),
        retries.dropped.load(Ordering::Relaxed),
    );
    for written in written_again.iter().flatten() {
        assert!(*written <= WRITE_AGAIN_WITHIN, "wrote again after {written:?}");
    }

    // Every acknowledged command is in the new primary's log exactly once, and each key
    // wrote one league.
    let logged = cluster
        .primary_sql(
            "SELECT payload::json->>'leagueId' FROM events WHERE event_type = 'LeagueCreated'",
        )
        .expect("read the new primary's log");
    let mut times: HashMap<&str, u32> = HashMap::new();
    for league in logged.lines() {
        *times.entry(league).or_default() += 1;
    }
    let mut keys: HashMap<&str, &str> = HashMap::new();
    for ack in &acknowledged {
        assert_eq!(
            times.get(ack.league.as_str()),
            Some(&1),
            "acknowledged league {} (key {}) is in the log once",
            ack.league,
            ack.key
        );
        assert!(keys.insert(&ack.key, &ack.league).is_none(), "key {} acknowledged twice", ack.key);
    }
    let probes = written_again.len();
    assert!(
        times.len() >= acknowledged.len() + probes,
        "the log holds every acknowledged league: {} < {}",
        times.len(),
        acknowledged.len() + probes
    );
    // Leagues in the log that no writer heard of are commands whose answer was lost and
    // whose key was retried: the retry answered the same league, so there are none.
    assert_eq!(times.len(), acknowledged.len() + probes, "no league was created twice for a key");

    // The reading gateway serves what the other one wrote after the failover.
    let (last, _) = acknowledged
        .iter()
        .filter(|ack| ack.gateway == 0)
        .map(|ack| (&ack.league, ack.answered))
        .max_by_key(|(_, answered)| *answered)
        .expect("gateway 1 wrote");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let seen = gateways[1]
            .gql(None, "query($id: ID!) { league(id: $id) { id } }", json!({ "id": last }))
            .await;
        if seen["data"]["league"]["id"] == json!(last) {
            break;
        }
        assert!(Instant::now() < deadline, "the reading gateway never showed {last}: {seen}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(gateways[0].health().await, gateways[1].health().await, "both at the same head");

    let primary = cluster.primary_url().expect("the new primary");
    let verify = std::process::Command::new(env!("CARGO_BIN_EXE_league"))
        .args(["verify", "--database", &primary])
        .env("RUST_LOG", "error")
        .output()
        .expect("run league verify");
    let said = String::from_utf8_lossy(&verify.stdout);
    assert!(
        verify.status.success() && said.starts_with("ok: "),
        "league verify: {said} {}",
        String::from_utf8_lossy(&verify.stderr)
    );
    eprintln!("league verify on {new_primary}: {}", said.trim());
}
