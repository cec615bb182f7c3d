//! Reads on a PostgreSQL hot standby (`EventStore::connect_with_replica`), against a real
//! primary and standby made by `league_testkit::replication`: what the store reads through
//! `for_reads` comes from the standby, appends go to the primary, and a subscriber whose
//! standby has not replayed an append yet delivers it once it has — late, never skipped.
//! A replica beside SQLite is a typed error.

use std::time::Duration;

use futures::StreamExt;
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StoreError, StreamId};
use league_testkit::replication::ReplicatedPair;
use serde_json::json;

/// Longest wait for the standby in these tests (it replays in milliseconds when running).
const PATIENCE: Duration = Duration::from_secs(20);

fn event(n: u64) -> NewEvent {
    NewEvent::new("Counted", 1, json!({ "n": n }))
}

async fn append(store: &EventStore, stream: &str, version: u64) -> u64 {
    let stream = StreamId::new(stream).expect("stream id");
    let expected =
        if version == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(version) };
    let outcome = store
        .append(&stream, expected, vec![event(version + 1)], Metadata::default())
        .await
        .expect("append on the primary");
    outcome.last_position
}

#[tokio::test]
async fn a_replica_beside_sqlite_or_of_sqlite_is_refused() {
    let refused = EventStore::connect_with_replica("sqlite::memory:", "postgres://x@127.0.0.1/y")
        .await
        .expect_err("SQLite has no replicas");
    assert!(matches!(refused, StoreError::UnsupportedReplica { .. }), "{refused}");
    let refused = EventStore::connect_with_replica("postgres://x@127.0.0.1/y", "sqlite::memory:")
        .await
        .expect_err("a SQLite file is no standby");
    assert!(matches!(refused, StoreError::UnsupportedReplica { .. }), "{refused}");
    let refused = EventStore::connect_with_replica("postgres://x@127.0.0.1/y", "mysql://x/y")
        .await
        .expect_err("an unknown engine");
    assert!(matches!(refused, StoreError::UnsupportedDatabase { .. }), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reads_come_from_the_standby_and_lag_delays_events_without_losing_any() {
    let Some(pair) = ReplicatedPair::start() else {
        return;
    };
    let store = EventStore::connect_with_replica(&pair.primary_url(), &pair.standby_url())
        .await
        .expect("connect to both");
    store.migrate().await.expect("migrate the primary");
    assert!(store.has_replica());
    assert!(store.wait_for_replica(PATIENCE).await.expect("compare WAL"), "schema replayed");
    let reads = store.for_reads();

    let first = append(&store, "counter-1", 0).await;
    let mut feed = Box::pin(reads.subscribe(1));
    let delivered = tokio::time::timeout(PATIENCE, feed.next()).await.expect("delivered");
    assert_eq!(delivered.expect("an event").expect("read").position, first);

    // Replay paused: the primary has the next append, the standby (and every read through
    // `for_reads`) does not, and the subscriber waits instead of skipping it.
    pair.pause_replay().expect("pause replay");
    let second = append(&store, "counter-1", 1).await;
    assert_eq!(store.head_position().await.expect("primary head"), second);
    assert_eq!(reads.head_position().await.expect("standby head"), first);
    assert!(reads.read_all(second, 10).await.expect("read the standby").is_empty());
    let waited = tokio::time::timeout(Duration::from_millis(300), feed.next()).await;
    assert!(waited.is_err(), "nothing delivered while the standby lacks it: {waited:?}");
    assert!(
        !store.wait_for_replica(Duration::from_millis(100)).await.expect("compare WAL"),
        "the standby is behind"
    );

    // Replay resumes: the subscriber delivers the held-back event, then the next one.
    pair.resume_replay().expect("resume replay");
    let delivered = tokio::time::timeout(PATIENCE, feed.next()).await.expect("delivered");
    assert_eq!(delivered.expect("an event").expect("read").position, second);
    let third = append(&store, "counter-2", 0).await;
    let delivered = tokio::time::timeout(PATIENCE, feed.next()).await.expect("delivered");
    assert_eq!(delivered.expect("an event").expect("read").position, third);
    assert!(store.wait_for_replica(PATIENCE).await.expect("compare WAL"));
    assert_eq!(reads.head_position().await.expect("standby head"), third);

    // The standby refuses writes: every write of the store goes to the primary, also
    // through the reading handle.
    let fourth = append(&reads, "counter-2", 1).await;
    assert_eq!(store.head_position().await.expect("primary head"), fourth);
    let delivered = tokio::time::timeout(PATIENCE, feed.next()).await.expect("delivered");
    assert_eq!(delivered.expect("an event").expect("read").position, fourth);
}
