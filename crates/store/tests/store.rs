//! The event store's contract, run on embedded SQLite and on a real PostgreSQL:
//! appends and reads, optimistic concurrency, idempotency, races, the live feed, immutability
//! and tamper detection, and typed errors for bad input.

use std::collections::HashSet;
use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use league_store::{
    AppendOutcome, Bound, ChainProblem, EventStore, ExpectedVersion, KeyChange, Metadata, NewEvent,
    PERSON_KEY_BYTES, RecordedEvent, StoreError, StreamId,
};
use league_testkit::{TestDatabase, on_both_databases};
use sea_orm::ConnectionTrait;
use serde_json::json;

async fn store(db: &TestDatabase) -> EventStore {
    let store = EventStore::connect(&db.url).await.expect("connect");
    store.migrate().await.expect("migrate");
    store
}

/// Drops an immutability trigger by hand, as an attacker with database access could.
async fn drop_trigger(store: &EventStore, name: &str) {
    let sql = match store.backend() {
        sea_orm::DbBackend::Postgres => format!("DROP TRIGGER {name} ON events"),
        _ => format!("DROP TRIGGER {name}"),
    };
    store.connection().execute_unprepared(&sql).await.expect("drop a trigger by hand");
}

fn stream(id: &str) -> StreamId {
    StreamId::new(id).expect("valid stream id")
}

/// The versions of `stream`'s events from version `from` on, as read back.
async fn stream_versions(store: &EventStore, stream: &StreamId, from: u64) -> Vec<u64> {
    let events = store.read_stream(stream, from).await.expect("read");
    events.iter().map(|e| e.stream_version).collect()
}

/// The whole hash chain verifies, `events` events long.
async fn assert_chain_verifies(store: &EventStore, events: u64) {
    let report = store.verify().await.expect("verify");
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.events_verified, events);
}

fn event(n: u64) -> NewEvent {
    NewEvent::new("Counted", 1, json!({ "n": n }))
}

async fn append_one(store: &EventStore, id: &str, n: u64) -> AppendOutcome {
    store
        .append(&stream(id), ExpectedVersion::Any, vec![event(n)], Metadata::default())
        .await
        .expect("append")
}

/// Collects `count` events from a subscription, failing after 30 s without progress.
async fn take_events(
    feed: impl futures::Stream<Item = Result<RecordedEvent, StoreError>>,
    count: usize,
) -> Vec<RecordedEvent> {
    tokio::time::timeout(Duration::from_secs(30), feed.take(count).try_collect::<Vec<_>>())
        .await
        .expect("the live feed delivers in time")
        .expect("the live feed does not fail")
}

async fn appends_and_reads_back(db: TestDatabase) {
    let store = store(&db).await;
    let league = stream("league:1");
    let metadata = Metadata::default()
        .with_actor("alice")
        .with_correlation_id("req-1")
        .with_causation_id("cmd-1");
    let outcome = store
        .append(
            &league,
            ExpectedVersion::NoStream,
            vec![
                NewEvent::new("LeagueCreated", 1, json!({"name": "Baf", "players": 8})),
                NewEvent::new("PlayerJoined", 2, json!({"player": "bob"})),
                NewEvent::new("PlayerJoined", 2, json!({"player": "carol"})),
            ],
            metadata.clone(),
        )
        .await
        .expect("append");
    assert_eq!((outcome.first_position, outcome.last_position), (1, 3));
    assert_eq!(outcome.stream_version, 3);
    assert!(!outcome.deduplicated);
    let versions: Vec<u64> = outcome.events.iter().map(|e| e.stream_version).collect();
    assert_eq!(versions, [1, 2, 3]);
    assert_eq!(outcome.events[0].prev_hash, league_store::GENESIS_HASH);
    assert_eq!(outcome.events[1].prev_hash, outcome.events[0].hash);
    assert!(outcome.events[0].event_id < outcome.events[1].event_id, "UUID v7 ids sort by time");
    assert_eq!(outcome.events[0].event_id.get_version_num(), 7);

    append_one(&store, "league:2", 1).await;
    let again = store
        .append(&league, ExpectedVersion::Exact(3), vec![event(4)], Metadata::default())
        .await
        .expect("append at version 3");
    assert_eq!((again.first_position, again.stream_version), (5, 4));

    let read = store.read_stream(&league, 1).await.expect("read stream");
    assert_eq!(read.len(), 4);
    assert_eq!(&read[..3], &outcome.events[..], "what was appended is what is read");
    assert_eq!(read[0].metadata, metadata);
    assert_eq!(read[1].payload, json!({"player": "bob"}));
    assert_eq!(read[1].schema_version, 2);
    assert_eq!(stream_versions(&store, &league, 3).await, [3, 4]);
    assert!(store.read_stream(&stream("nobody"), 1).await.expect("read").is_empty());
    assert_eq!(store.stream_version(&league).await.expect("version"), 4);
    assert_eq!(store.stream_version(&stream("nobody")).await.expect("version"), 0);

    let page: Vec<u64> =
        store.read_all(2, 2).await.expect("page").iter().map(|e| e.position).collect();
    assert_eq!(page, [2, 3]);
    let all: Vec<RecordedEvent> = store.stream_all(1).try_collect().await.expect("stream all");
    assert_eq!(all.iter().map(|e| e.position).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    assert_eq!(all[3].stream_id, stream("league:2"));
    assert_eq!(store.head_position().await.expect("head"), 5);

    assert_chain_verifies(&store, 5).await;
}

async fn payloads_round_trip_to_the_hashed_bytes(db: TestDatabase) {
    let store = store(&db).await;
    let payloads = [
        r#"{"z": 1, "a": {"y": [3, 2, 1], "b": null}, "m": true}"#,
        r#"{"unicode": "Détour 98f — ☃ \u0000 \"quoted\" \\ \n", "emoji": "🎲"}"#,
        r#"{"floats": [0.1, 2.5, -0.0, 1e300, 1.7976931348623157e308, 5e-324], "big": 9007199254740993}"#,
        r#"{"ints": [-9223372036854775808, 18446744073709551615, 0]}"#,
        r#"[1, "two", {"three": 3}]"#,
        r#""just a string""#,
        "42",
    ];
    for (index, text) in payloads.iter().enumerate() {
        let new = NewEvent::from_json_text("Odd", 1, text).expect("valid JSON");
        let expected = new.payload.clone();
        let outcome = store
            .append(&stream("odd"), ExpectedVersion::Any, vec![new], Metadata::default())
            .await
            .expect("append");
        let read = store.read_all(outcome.first_position, 1).await.expect("read");
        assert_eq!(read[0].payload, expected, "payload {index} reads back unchanged");
        assert_eq!(read[0], outcome.events[0]);
    }
    assert_chain_verifies(&store, payloads.len() as u64).await;
}

async fn expected_versions_are_enforced(db: TestDatabase) {
    let store = store(&db).await;
    let game = stream("game:1");
    let append = |expected| store.append(&game, expected, vec![event(0)], Metadata::default());

    assert!(matches!(
        append(ExpectedVersion::Exact(1)).await,
        Err(StoreError::Conflict { expected: ExpectedVersion::Exact(1), actual: 0 })
    ));
    assert_eq!(append(ExpectedVersion::NoStream).await.expect("new stream").stream_version, 1);
    assert!(matches!(
        append(ExpectedVersion::NoStream).await,
        Err(StoreError::Conflict { expected: ExpectedVersion::NoStream, actual: 1 })
    ));
    assert_eq!(append(ExpectedVersion::Exact(1)).await.expect("at 1").stream_version, 2);
    let stale = append(ExpectedVersion::Exact(1)).await;
    assert!(
        matches!(
            stale,
            Err(StoreError::Conflict { expected: ExpectedVersion::Exact(1), actual: 2 })
        ),
        "{stale:?}"
    );
    assert_eq!(append(ExpectedVersion::Any).await.expect("any").stream_version, 3);
    assert_eq!(append(ExpectedVersion::Exact(3)).await.expect("at 3").stream_version, 4);

    // Conflicts wrote nothing: four events, contiguous positions and versions.
    assert_eq!(store.head_position().await.expect("head"), 4);
    assert_eq!(stream_versions(&store, &game, 1).await, [1, 2, 3, 4]);
}

async fn bad_input_is_a_typed_error_and_writes_nothing(db: TestDatabase) {
    let store = store(&db).await;
    for bad in ["", "has space", "semi;colon", "é", "a/b", &"x".repeat(201)] {
        assert!(
            matches!(StreamId::new(bad), Err(StoreError::InvalidStreamId { .. })),
            "{bad:?} is refused"
        );
    }
    assert!(StreamId::new("x".repeat(200)).is_ok());
    assert!(StreamId::new("league:01J-abc_def.2").is_ok());
    assert!(serde_json::from_str::<StreamId>(r#""bad id""#).is_err());

    for text in ["{not json", "", "{\"a\": 1,}", "[1, 2"] {
        assert!(
            matches!(
                NewEvent::from_json_text("X", 1, text),
                Err(StoreError::InvalidPayload { .. })
            ),
            "{text:?} is refused"
        );
    }

    let ok = stream("ok");
    let empty = store.append(&ok, ExpectedVersion::Any, vec![], Metadata::default()).await;
    assert!(matches!(empty, Err(StoreError::EmptyAppend)), "{empty:?}");
    let no_type = store
        .append(
            &ok,
            ExpectedVersion::Any,
            vec![event(1), NewEvent::new("", 1, json!({}))],
            Metadata::default(),
        )
        .await;
    assert!(matches!(no_type, Err(StoreError::InvalidEvent { .. })), "{no_type:?}");
    assert_eq!(store.head_position().await.expect("head"), 0, "nothing was written");

    assert!(matches!(
        EventStore::connect("mysql://localhost/x").await,
        Err(StoreError::UnsupportedDatabase { .. })
    ));
}

async fn concurrent_writers_on_one_stream_get_contiguous_versions(db: TestDatabase) {
    const TASKS: u64 = 16;
    const APPENDS: u64 = 200;
    let store = store(&db).await;
    let tasks: Vec<_> = (0..TASKS)
        .map(|task| {
            let store = store.clone();
            tokio::spawn(async move {
                let shared = stream("shared");
                let mut expected = ExpectedVersion::NoStream;
                let mut conflicts = 0u64;
                for i in 0..APPENDS {
                    let new = NewEvent::new("Counted", 1, json!({"task": task, "i": i}));
                    loop {
                        match store
                            .append(&shared, expected, vec![new.clone()], Metadata::default())
                            .await
                        {
                            Ok(outcome) => {
                                expected = ExpectedVersion::Exact(outcome.stream_version);
                                break;
                            }
                            Err(StoreError::Conflict { actual, .. }) => {
                                conflicts += 1;
                                expected = ExpectedVersion::Exact(actual);
                            }
                            Err(error) => panic!("append failed: {error}"),
                        }
                    }
                }
                conflicts
            })
        })
        .collect();
    let mut conflicts = 0;
    for task in tasks {
        conflicts += task.await.expect("task");
    }
    assert!(conflicts > 0, "the writers really raced");

    let events = store.read_stream(&stream("shared"), 1).await.expect("read");
    let total = TASKS * APPENDS;
    assert_eq!(
        events.iter().map(|e| e.stream_version).collect::<Vec<_>>(),
        (1..=total).collect::<Vec<_>>()
    );
    assert_eq!(
        events.iter().map(|e| e.position).collect::<Vec<_>>(),
        (1..=total).collect::<Vec<_>>()
    );
    let distinct: HashSet<(u64, u64)> = events
        .iter()
        .map(|e| (e.payload["task"].as_u64().expect("task"), e.payload["i"].as_u64().expect("i")))
        .collect();
    assert_eq!(distinct.len() as u64, total, "nothing lost, nothing doubled");
    // Each task's own appends landed in the order it made them.
    for task in 0..TASKS {
        let order: Vec<u64> = events
            .iter()
            .filter(|e| e.payload["task"] == task)
            .map(|e| e.payload["i"].as_u64().expect("i"))
            .collect();
        assert_eq!(order, (0..APPENDS).collect::<Vec<_>>());
    }
    // The paged async stream crosses page boundaries without loss.
    let streamed: Vec<RecordedEvent> = store.stream_all(1).try_collect().await.expect("stream");
    assert_eq!(streamed.len() as u64, total);
    assert!(store.verify().await.expect("verify").is_ok());
}

async fn live_subscriber_sees_every_position_once_in_order(db: TestDatabase) {
    const TASKS: u64 = 16;
    const APPENDS: u64 = 40;
    const BATCH: u64 = 2;
    let store = store(&db).await;
    // The reader uses its own store instance: on PostgreSQL it learns of the writes through
    // LISTEN/NOTIFY, as another process would.
    let reader = EventStore::connect(&db.url).await.expect("connect reader");
    let total = (TASKS * APPENDS * BATCH) as usize;
    let same_instance = tokio::spawn(take_events(store.subscribe(1), total));
    let other_instance = tokio::spawn(take_events(reader.subscribe(1), total));
    tokio::time::sleep(Duration::from_millis(50)).await;

    let writers: Vec<_> = (0..TASKS)
        .map(|task| {
            let store = store.clone();
            tokio::spawn(async move {
                let own = stream(&format!("player:{task}"));
                for i in 0..APPENDS {
                    let outcome = store
                        .append(
                            &own,
                            ExpectedVersion::Exact(i * BATCH),
                            vec![event(i), event(i)],
                            Metadata::default(),
                        )
                        .await
                        .expect("append to an own stream never conflicts");
                    let positions: Vec<u64> = outcome.events.iter().map(|e| e.position).collect();
                    assert_eq!(
                        positions,
                        [outcome.first_position, outcome.first_position + 1],
                        "one append's events are contiguous in the log"
                    );
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.expect("writer");
    }
    let expected: Vec<u64> = (1..=total as u64).collect();
    for feed in [same_instance, other_instance] {
        let seen: Vec<u64> = feed.await.expect("reader").iter().map(|e| e.position).collect();
        assert_eq!(seen, expected, "every position exactly once, in order");
    }
}

async fn late_subscribers_catch_up_then_follow(db: TestDatabase) {
    let store = store(&db).await;
    for n in 1..=10 {
        append_one(&store, "s", n).await;
    }
    let from_start = store.subscribe(1);
    let from_six = store.subscribe(6);
    futures::pin_mut!(from_start);
    futures::pin_mut!(from_six);
    let caught_up: Vec<u64> =
        take_events(&mut from_start, 10).await.iter().map(|e| e.position).collect();
    assert_eq!(caught_up, (1..=10).collect::<Vec<_>>());
    let later = tokio::spawn({
        let store = store.clone();
        async move {
            for n in 11..=15 {
                append_one(&store, "s", n).await;
            }
        }
    });
    let live: Vec<u64> = take_events(&mut from_start, 5).await.iter().map(|e| e.position).collect();
    assert_eq!(live, [11, 12, 13, 14, 15]);
    let tail: Vec<u64> = take_events(&mut from_six, 10).await.iter().map(|e| e.position).collect();
    assert_eq!(tail, (6..=15).collect::<Vec<_>>());
    later.await.expect("writer");
    let from_head = store.subscribe(16);
    futures::pin_mut!(from_head);
    assert!(
        tokio::time::timeout(Duration::from_millis(300), from_head.next()).await.is_err(),
        "nothing beyond the head is delivered"
    );
}

async fn concurrent_retries_with_one_key_append_once(db: TestDatabase) {
    let store = store(&db).await;
    let other = EventStore::connect(&db.url).await.expect("second instance");
    let attempts: Vec<_> = (0..20)
        .map(|attempt| {
            let store = if attempt % 2 == 0 { store.clone() } else { other.clone() };
            tokio::spawn(async move {
                store
                    .append(
                        &stream("orders"),
                        ExpectedVersion::Any,
                        vec![event(1), event(2), event(3)],
                        Metadata::default().with_idempotency_key("submit-42"),
                    )
                    .await
                    .expect("append")
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for attempt in attempts {
        outcomes.push(attempt.await.expect("task"));
    }
    assert_eq!(outcomes.iter().filter(|o| !o.deduplicated).count(), 1, "exactly one append wrote");
    let original = outcomes.iter().find(|o| !o.deduplicated).expect("the writer");
    for outcome in &outcomes {
        assert_eq!((outcome.first_position, outcome.last_position), (1, 3));
        assert_eq!(outcome.stream_version, 3);
        assert_eq!(outcome.events, original.events, "the original outcome is returned");
    }
    assert_eq!(store.head_position().await.expect("head"), 3, "exactly one set of events");

    // A retry later, even with a now-stale expected version, still gets the original.
    let retry = store
        .append(
            &stream("orders"),
            ExpectedVersion::NoStream,
            vec![event(9)],
            Metadata::default().with_idempotency_key("submit-42"),
        )
        .await
        .expect("retry");
    assert!(retry.deduplicated);
    assert_eq!(retry.events, original.events);
    let fresh = store
        .append(
            &stream("orders"),
            ExpectedVersion::Exact(3),
            vec![event(4)],
            Metadata::default().with_idempotency_key("submit-43"),
        )
        .await
        .expect("a new key appends");
    assert_eq!((fresh.first_position, fresh.deduplicated), (4, false));
}

async fn triggers_refuse_update_and_delete(db: TestDatabase) {
    let store = store(&db).await;
    for n in 1..=3 {
        append_one(&store, "s", n).await;
    }
    let sql = store.connection();
    for statement in [
        "UPDATE events SET payload = '{\"n\":99}' WHERE position = 2",
        "UPDATE events SET event_type = 'Other'",
        "DELETE FROM events WHERE position = 3",
        "DELETE FROM events",
    ] {
        let refused = sql.execute_unprepared(statement).await;
        let message = refused.expect_err(statement).to_string();
        assert!(message.contains("immutable"), "{statement}: {message}");
    }
    assert_eq!(store.head_position().await.expect("head"), 3);
    assert_eq!(store.read_all(2, 1).await.expect("read")[0].payload, json!({"n": 2}));
    assert!(store.verify().await.expect("verify").is_ok());
}

async fn verify_names_the_first_tampered_position(db: TestDatabase) {
    let store = store(&db).await;
    for n in 1..=6 {
        append_one(&store, &format!("s{}", n % 2), n).await;
    }
    let sql = store.connection();
    drop_trigger(&store, "events_no_update").await;
    // One byte of one payload: {"n":4} becomes {"n":5}.
    let changed = sql
        .execute_unprepared(
            "UPDATE events SET payload = replace(payload, '4', '5') WHERE position = 4",
        )
        .await
        .expect("tamper");
    assert_eq!(changed.rows_affected(), 1);
    let report = store.verify().await.expect("verify");
    let bad = report.first_bad.expect("tampering is detected");
    assert_eq!(bad.position, 4, "{bad}");
    assert!(matches!(bad.problem, ChainProblem::HashMismatch { .. }), "{bad}");
    assert_eq!(report.events_verified, 3);

    // Re-hashing the tampered event is not enough: the next link breaks.
    let forged = store.read_all(4, 1).await.expect("read")[0].clone();
    let forged_hash = "f".repeat(64);
    sql.execute_unprepared(&format!("UPDATE events SET hash = '{forged_hash}' WHERE position = 4"))
        .await
        .expect("forge");
    let report = store.verify().await.expect("verify");
    assert_eq!(report.first_bad.map(|b| b.position), Some(4), "{forged:?}");
}

async fn verify_names_a_deleted_position(db: TestDatabase) {
    let store = store(&db).await;
    for n in 1..=5 {
        append_one(&store, "s", n).await;
    }
    let sql = store.connection();
    drop_trigger(&store, "events_no_delete").await;
    sql.execute_unprepared("DELETE FROM events WHERE position = 3").await.expect("delete");
    let bad = store.verify().await.expect("verify").first_bad.expect("detected");
    assert_eq!(bad.position, 3);
    assert_eq!(bad.problem, ChainProblem::Gap { next_position: 4 });
}

async fn history_can_be_read_up_to_a_position_or_a_time(db: TestDatabase) {
    let store = store(&db).await;
    let before_anything = chrono::Utc::now();
    tokio::time::sleep(Duration::from_millis(5)).await;
    append_one(&store, "a", 1).await;
    append_one(&store, "b", 2).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let cut = chrono::Utc::now();
    tokio::time::sleep(Duration::from_millis(5)).await;
    append_one(&store, "a", 3).await;

    let positions =
        |events: Vec<RecordedEvent>| events.iter().map(|e| e.position).collect::<Vec<_>>();
    assert_eq!(positions(store.read_until(Bound::Time(cut)).await.expect("by time")), [1, 2]);
    assert_eq!(positions(store.read_until(Bound::Position(1)).await.expect("by position")), [1]);
    assert_eq!(
        positions(store.read_until(Bound::Position(99)).await.expect("past head")),
        [1, 2, 3]
    );
    assert!(store.read_until(Bound::Time(before_anything)).await.expect("before").is_empty());
    assert_eq!(store.position_at(Bound::Time(chrono::Utc::now())).await.expect("now"), 3);
    let third = &store.read_all(3, 1).await.expect("read")[0];
    assert_eq!(store.position_at(Bound::Time(third.recorded_at)).await.expect("exact time"), 3);
    let range: Vec<RecordedEvent> = store.stream_range(2, 3).try_collect().await.expect("range");
    assert_eq!(positions(range), [2, 3]);
}

/// A page of one stream after a global position: only that stream's events, in order, at
/// most `limit` of them.
async fn a_stream_is_read_page_by_page_after_a_position(db: TestDatabase) {
    let store = store(&db).await;
    for n in 1..=6 {
        append_one(&store, if n % 2 == 0 { "a" } else { "b" }, n).await;
    }
    let a = stream("a");
    let positions =
        |events: Vec<RecordedEvent>| -> Vec<u64> { events.iter().map(|e| e.position).collect() };
    assert_eq!(positions(store.read_stream_after(&a, 0, 2).await.unwrap()), [2, 4]);
    assert_eq!(positions(store.read_stream_after(&a, 4, 2).await.unwrap()), [6]);
    assert_eq!(positions(store.read_stream_after(&a, 3, 10).await.unwrap()), [4, 6]);
    assert!(store.read_stream_after(&a, 6, 10).await.unwrap().is_empty());
    assert!(store.read_stream_after(&a, 0, 0).await.unwrap().is_empty());
}

async fn migrating_twice_is_harmless(db: TestDatabase) {
    let store = store(&db).await;
    append_one(&store, "s", 1).await;
    store.migrate().await.expect("second migrate is a no-op");
    assert_eq!(store.head_position().await.expect("head"), 1);
}

/// Concurrent appends share commits; each keeps its own outcome whatever its neighbours in the
/// group do: appends larger than one SQLite statement's rows, keys claimed by several callers
/// at once, stale expectations, and plain appends, all at the same time.
async fn groups_mixing_sizes_keys_and_conflicts_keep_each_outcome(db: TestDatabase) {
    const TASKS: u64 = 12;
    const SIZES: [u64; 5] = [1, 7, 100, 101, 250];
    let store = store(&db).await;
    let tasks: Vec<_> = (0..TASKS)
        .map(|task| {
            let store = store.clone();
            tokio::spawn(async move {
                let own = stream(&format!("mixed:{task}"));
                let batch = |round: usize, size: u64| -> Vec<NewEvent> {
                    (0..size)
                        .map(|n| NewEvent::new("Counted", 1, json!({"task": task, "round": round, "n": n})))
                        .collect()
                };
                let mut keyed = Vec::new();
                for (round, size) in SIZES.into_iter().enumerate() {
                    // Every task claims the same key in a round: one writes, the rest hear its outcome.
                    let claimed = store
                        .append(
                            &own,
                            ExpectedVersion::Any,
                            batch(round, size),
                            Metadata::default().with_idempotency_key(format!("round-{round}")),
                        )
                        .await
                        .expect("keyed append");
                    keyed.push(claimed);
                    let before = store.stream_version(&own).await.expect("version");
                    let stale = store
                        .append(&own, ExpectedVersion::Exact(1_000_000), vec![event(0)], Metadata::default())
                        .await;
                    assert!(
                        matches!(stale, Err(StoreError::Conflict { actual, .. }) if actual >= before),
                        "{stale:?}"
                    );
                    store
                        .append(&own, ExpectedVersion::Any, batch(round, size), Metadata::default())
                        .await
                        .expect("plain append");
                }
                keyed
            })
        })
        .collect();
    let mut keyed = Vec::new();
    for task in tasks {
        keyed.push(task.await.expect("task"));
    }

    for (round, size) in SIZES.into_iter().enumerate() {
        let outcomes: Vec<&AppendOutcome> = keyed.iter().map(|task| &task[round]).collect();
        assert_eq!(outcomes.iter().filter(|o| !o.deduplicated).count(), 1, "round {round}");
        let original = outcomes.iter().find(|o| !o.deduplicated).expect("the writer");
        assert_eq!(original.events.len() as u64, size);
        for outcome in &outcomes {
            assert_eq!(outcome.events, original.events, "round {round}: the first outcome");
        }
        // What the append answered is what the log holds, hashes included.
        let stored = store.read_all(original.first_position, size).await.expect("read");
        assert_eq!(stored, original.events);
    }
    let written: u64 = SIZES.iter().sum::<u64>() * (TASKS + 1);
    assert_eq!(store.head_position().await.expect("head"), written, "nothing lost or doubled");
    for task in 0..TASKS {
        let versions = stream_versions(&store, &stream(&format!("mixed:{task}")), 1).await;
        assert_eq!(versions, (1..=versions.len() as u64).collect::<Vec<_>>());
    }
    assert_chain_verifies(&store, written).await;
}

/// Several store instances (as several gateway processes would) appending to one log: each
/// one's idea of the head, of stream versions and of used keys goes stale whenever another
/// appends, yet every append gets the outcome a fresh reading of the log gives.
async fn stores_sharing_one_log_see_each_others_appends(db: TestDatabase) {
    let first = store(&db).await;
    let second = EventStore::connect(&db.url).await.expect("second instance");
    let shared = stream("shared");

    let a = first.append(&shared, ExpectedVersion::NoStream, vec![event(1)], Metadata::default());
    assert_eq!(a.await.expect("first writes").last_position, 1);
    // The second instance has seen nothing yet: a stale head to find out about.
    let b = second
        .append(&shared, ExpectedVersion::Any, vec![event(2), event(3)], Metadata::default())
        .await
        .expect("second writes");
    assert_eq!((b.first_position, b.stream_version), (2, 3));
    // The first instance believes the stream is at version 1; it is at 3.
    let stale =
        first.append(&shared, ExpectedVersion::Exact(1), vec![event(4)], Metadata::default()).await;
    assert!(matches!(stale, Err(StoreError::Conflict { actual: 3, .. })), "{stale:?}");
    let any = first
        .append(&shared, ExpectedVersion::Any, vec![event(4)], Metadata::default())
        .await
        .expect("any version");
    assert_eq!((any.first_position, any.stream_version), (4, 4));
    // A key the other instance used answers its outcome.
    let keyed = Metadata::default().with_idempotency_key("k-1");
    let original = second
        .append(&stream("own"), ExpectedVersion::NoStream, vec![event(5)], keyed.clone())
        .await
        .expect("keyed");
    let retried = first
        .append(&stream("own"), ExpectedVersion::NoStream, vec![event(6)], keyed)
        .await
        .expect("retried elsewhere");
    assert!(retried.deduplicated);
    assert_eq!(retried.events, original.events);

    // Then all at once: each instance's writers race the other's.
    let writers: Vec<_> = (0..8u64)
        .map(|writer| {
            let store = if writer % 2 == 0 { first.clone() } else { second.clone() };
            tokio::spawn(async move {
                for n in 0..20u64 {
                    let target =
                        if n % 2 == 0 { stream("shared") } else { stream(&format!("w:{writer}")) };
                    let events = (0..=n % 3).map(|i| event(n * 10 + i)).collect();
                    store
                        .append(&target, ExpectedVersion::Any, events, Metadata::default())
                        .await
                        .expect("racing append");
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.expect("writer");
    }
    let raced: u64 = 8 * (0..20u64).map(|n| n % 3 + 1).sum::<u64>();
    let head = first.head_position().await.expect("head");
    assert_eq!(head, 5 + raced, "nothing lost or doubled");
    let versions = stream_versions(&first, &shared, 1).await;
    assert_eq!(versions, (1..=versions.len() as u64).collect::<Vec<_>>());
    assert_chain_verifies(&second, head).await;
}

/// Single events without a key, appended in turn by two instances: at every append the
/// writing instance's picture of the log is stale (the head, and for a shared stream its
/// version), so the row it predicts is refused (its position or version is taken, or the
/// predicted head is not the head) and the append is decided again. Every position is written
/// once, answered as stored, and seen once, in order, by a reader in a third instance.
async fn single_appends_on_a_stale_picture_are_decided_again(db: TestDatabase) {
    const OWN_STREAMS: u64 = 12;
    const SHARED: u64 = 8;
    let first = store(&db).await;
    let second = EventStore::connect(&db.url).await.expect("second instance");
    let reader = EventStore::connect(&db.url).await.expect("reader instance");
    let total = OWN_STREAMS + SHARED;
    let feed = tokio::spawn(take_events(reader.subscribe(1), total as usize));
    tokio::time::sleep(Duration::from_millis(50)).await;

    let mut answered = Vec::new();
    for n in 0..total {
        let writer = if n % 2 == 0 { &first } else { &second };
        let (target, expected) = if n < OWN_STREAMS {
            (stream(&format!("own:{n}")), ExpectedVersion::NoStream)
        } else {
            (stream("shared"), ExpectedVersion::Any)
        };
        let outcome = writer
            .append(&target, expected, vec![event(n)], Metadata::default())
            .await
            .expect("append on a stale picture");
        assert_eq!(outcome.first_position, n + 1, "the log's next position");
        if n >= OWN_STREAMS {
            assert_eq!(outcome.stream_version, n - OWN_STREAMS + 1, "the stream's next version");
        }
        answered.extend(outcome.events);
    }
    assert_eq!(first.read_all(1, total).await.expect("read"), answered, "answered as stored");
    assert_eq!(feed.await.expect("reader"), answered, "seen once each, in order");
    assert_chain_verifies(&second, total).await;
}

/// A process alone appending to a PostgreSQL log predicts every append right: right after
/// it opens on a log another process wrote, after a registration's append with a person key,
/// and for lone and keyed appends alike, so no append is decided twice (and none meets a
/// unique index). SQLite decides under its write lock and predicts nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_writer_never_misses_its_prediction() {
    let Some(db) = league_testkit::postgres().await else {
        return;
    };
    {
        let earlier = store(&db).await;
        for n in 0..3 {
            append_one(&earlier, "earlier", n).await;
        }
    }
    // A new process on a log that is not empty.
    let store = EventStore::connect(&db.url).await.expect("connect");
    append_one(&store, "own", 0).await;
    let keyed = Metadata::default().with_idempotency_key("keyed-after-start");
    store
        .append(&stream("keyed"), ExpectedVersion::NoStream, vec![event(1)], keyed)
        .await
        .expect("keyed append");
    // A registration: its append commits with a person key.
    let person = uuid::Uuid::now_v7();
    store
        .append_with_key(
            &stream(&format!("person-{person}")),
            ExpectedVersion::NoStream,
            vec![event(2)],
            Metadata::default(),
            KeyChange::Insert { person, key: [7; PERSON_KEY_BYTES] },
        )
        .await
        .expect("append with a key");
    for n in 3..13 {
        append_one(&store, if n % 2 == 0 { "own" } else { "other" }, n).await;
    }
    assert_eq!(store.head_position().await.expect("head"), 16);
    assert_eq!(store.prediction_misses(), 0, "a lone writer's appends are predicted right");
    assert_chain_verifies(&store, 16).await;
}

/// An in-memory SQLite database cannot be opened by a second connection, so its appends
/// take the pool's own connection: the same outcomes and a verifying chain.
#[tokio::test]
async fn in_memory_sqlite_appends_through_the_pool() {
    let store = EventStore::connect("sqlite::memory:").await.expect("connect");
    store.migrate().await.expect("migrate");
    let keyed = Metadata::default().with_idempotency_key("once");
    let first = store
        .append(&stream("s"), ExpectedVersion::NoStream, vec![event(1), event(2)], keyed.clone())
        .await
        .expect("append");
    assert_eq!((first.first_position, first.last_position), (1, 2));
    let again = store
        .append(&stream("s"), ExpectedVersion::NoStream, vec![event(3)], keyed)
        .await
        .expect("retry");
    assert!(again.deduplicated);
    let stale = store
        .append(&stream("s"), ExpectedVersion::Exact(1), vec![event(3)], Metadata::default())
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict { actual: 2, .. })), "{stale:?}");
    append_one(&store, "s", 4).await;
    assert_chain_verifies(&store, 3).await;
}

/// A key change commits with its append, and only then: a conflicting or deduplicated
/// append leaves the key table as it was; a deletion removes the key; the keys are outside
/// the chain, which stays intact.
async fn person_keys_change_only_with_their_append(db: TestDatabase) {
    let store = store(&db).await;
    let (ann, bob) = (uuid::Uuid::now_v7(), uuid::Uuid::now_v7());
    let ann_stream = stream(&format!("person-{ann}"));
    let insert = |person, byte| KeyChange::Insert { person, key: [byte; PERSON_KEY_BYTES] };
    let keyed = Metadata { idempotency_key: Some("ann-1".into()), ..Metadata::default() };
    let outcome = store
        .append_with_key(
            &ann_stream,
            ExpectedVersion::NoStream,
            vec![event(1)],
            keyed.clone(),
            insert(ann, 1),
        )
        .await
        .expect("append with a key");
    assert_eq!(outcome.last_position, 1);
    let keys = store.person_keys(None).await.expect("keys");
    assert_eq!(keys.get(&ann), Some(&[1; PERSON_KEY_BYTES]));

    // The same idempotency key: the first outcome, and the key is not replaced.
    let again = store
        .append_with_key(
            &ann_stream,
            ExpectedVersion::NoStream,
            vec![event(1)],
            keyed,
            insert(ann, 2),
        )
        .await
        .expect("deduplicated");
    assert!(again.deduplicated);
    // A stale expectation: a conflict, and no key for Bob.
    let conflict = store
        .append_with_key(
            &ann_stream,
            ExpectedVersion::NoStream,
            vec![event(2)],
            Metadata::default(),
            insert(bob, 3),
        )
        .await;
    assert!(matches!(conflict, Err(StoreError::Conflict { .. })), "{conflict:?}");
    assert_eq!(store.person_keys(None).await.expect("keys").len(), 1);
    assert_eq!(store.person_keys(Some(&[bob])).await.expect("keys").len(), 0);

    // A deletion goes with its event; the chain does not cover keys.
    store
        .append_with_key(
            &ann_stream,
            ExpectedVersion::Exact(1),
            vec![event(3)],
            Metadata::default(),
            KeyChange::Delete { person: ann },
        )
        .await
        .expect("append deleting a key");
    assert!(store.person_keys(None).await.expect("keys").is_empty());
    assert_eq!(store.head_position().await.expect("head"), 2);
    assert_chain_verifies(&store, 2).await;
}

/// A snapshot reads back byte for byte, a large one too (on PostgreSQL it travels on a
/// connection whose buffers are given back afterwards), the next one of its kind replaces
/// it, and a body altered in the table is no longer intact.
async fn snapshots_round_trip_and_replace(db: TestDatabase) {
    let store = store(&db).await;
    assert!(store.snapshot("catalog").await.expect("read").is_none(), "none before one is saved");
    // Four megabytes of every byte value: larger than any default buffer of the driver.
    let body: Vec<u8> =
        (0..4 * 1024 * 1024).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    let first =
        league_store::Snapshot::new("catalog", 2, 0, league_store::GENESIS_HASH.to_owned(), body);
    store.save_snapshot(&first).await.expect("save");
    let read = store.snapshot("catalog").await.expect("read").expect("saved");
    assert_eq!(read.body, first.body);
    assert_eq!((read.format, read.position, &read.chain_hash), (2, 0, &first.chain_hash));
    assert!(read.is_intact());

    let second = league_store::Snapshot::new(
        "catalog",
        3,
        0,
        league_store::GENESIS_HASH.to_owned(),
        vec![7; 10],
    );
    store.save_snapshot(&second).await.expect("replace");
    let read = store.snapshot("catalog").await.expect("read").expect("saved");
    assert_eq!((read.format, read.body.as_slice()), (3, [7u8; 10].as_slice()));

    let tamper = match store.backend() {
        sea_orm::DbBackend::Postgres => {
            "UPDATE snapshots SET body = '\\x0808' WHERE kind = 'catalog'"
        }
        _ => "UPDATE snapshots SET body = x'0808' WHERE kind = 'catalog'",
    };
    store.connection().execute_unprepared(tamper).await.expect("alter the body by hand");
    let read = store.snapshot("catalog").await.expect("read").expect("saved");
    assert!(!read.is_intact(), "an altered body is not intact");
    assert!(store.delete_snapshot("catalog").await.expect("delete"));
    assert!(store.snapshot("catalog").await.expect("read").is_none());
}

on_both_databases!(
    person_keys_change_only_with_their_append,
    appends_and_reads_back,
    payloads_round_trip_to_the_hashed_bytes,
    expected_versions_are_enforced,
    bad_input_is_a_typed_error_and_writes_nothing,
    concurrent_writers_on_one_stream_get_contiguous_versions,
    live_subscriber_sees_every_position_once_in_order,
    late_subscribers_catch_up_then_follow,
    concurrent_retries_with_one_key_append_once,
    triggers_refuse_update_and_delete,
    verify_names_the_first_tampered_position,
    verify_names_a_deleted_position,
    history_can_be_read_up_to_a_position_or_a_time,
    a_stream_is_read_page_by_page_after_a_position,
    migrating_twice_is_harmless,
    groups_mixing_sizes_keys_and_conflicts_keep_each_outcome,
    stores_sharing_one_log_see_each_others_appends,
    single_appends_on_a_stale_picture_are_decided_again,
    snapshots_round_trip_and_replace,
);
