//! The whole-log scan of a rebuild (`EventStore::scan_log`), on embedded SQLite and on a real
//! PostgreSQL: every row once, in position order, exactly as the store reads it back; the
//! hash chain walked as `verify` walks it, stopping at the same first break with the rows
//! before it handed over; a bound ends the scan.

use league_store::{
    ChainProblem, EventStore, ExpectedVersion, LogBatch, Metadata, NewEvent, SCAN_BATCH_ROWS,
    ScanEnd, StreamId, VerifyReport,
};
use league_testkit::{TestDatabase, on_both_databases};
use sea_orm::ConnectionTrait;
use serde_json::json;

async fn store(db: &TestDatabase) -> EventStore {
    let store = EventStore::connect(&db.url).await.expect("connect");
    store.migrate().await.expect("migrate");
    store
}

/// `count` events over two streams, in appends of up to 500 events.
async fn store_with(db: &TestDatabase, count: u64) -> EventStore {
    let store = store(db).await;
    let mut n = 0;
    while n < count {
        let size = (count - n).min(500);
        let events = (n..n + size)
            .map(|n| {
                NewEvent::new("Counted", 1 + (n % 3) as i32, json!({ "n": n, "text": "é\"x" }))
            })
            .collect();
        let stream = StreamId::new(format!("s{}", (n / 500) % 2)).expect("stream id");
        let metadata = Metadata::default().with_actor("tester");
        store.append(&stream, ExpectedVersion::Any, events, metadata).await.expect("append");
        n += size;
    }
    store
}

/// Every row the scan hands over as (position, stream version, type, schema, payload, time),
/// with how it ended.
type Row = (u64, u64, String, i32, String, chrono::DateTime<chrono::Utc>);

async fn scan(store: &EventStore, last: u64, check_chain: bool) -> (Vec<Row>, ScanEnd) {
    let mut scan = store.scan_log(last, check_chain).await.expect("scan");
    let mut rows = Vec::new();
    let mut batches: Vec<LogBatch> = Vec::new();
    while let Some(batch) = scan.next().await {
        assert!(!batch.is_empty() && batch.len() <= SCAN_BATCH_ROWS);
        batches.push(batch);
    }
    for batch in &batches {
        rows.extend(batch.events().map(|raw| {
            let payload = raw.payload.to_owned();
            (
                raw.position,
                raw.stream_version,
                raw.event_type.to_owned(),
                raw.schema_version,
                payload,
                raw.recorded_at,
            )
        }));
    }
    (rows, scan.finish().await.expect("scan ends"))
}

/// The rows as `read_all` gives them back.
async fn expected_rows(store: &EventStore, last: u64) -> Vec<Row> {
    let events = store.read_all(1, last).await.expect("read");
    events
        .into_iter()
        .map(|e| {
            let payload = serde_json::to_string(&e.payload).expect("json");
            (e.position, e.stream_version, e.event_type, e.schema_version, payload, e.recorded_at)
        })
        .collect()
}

async fn the_scan_reads_every_row_once_in_order(db: TestDatabase) {
    // More than two batches, the last one partial.
    let count = 2 * SCAN_BATCH_ROWS as u64 + 37;
    let store = store_with(&db, count).await;
    let (rows, end) = scan(&store, u64::MAX, true).await;
    // The payload is the stored canonical text (keys sorted, no whitespace): serde_json
    // writes the same for these payloads.
    assert_eq!(rows, expected_rows(&store, count).await);
    assert_eq!(end.rows, count);
    assert_eq!(end.chain, Some(VerifyReport { events_verified: count, first_bad: None }));
    assert_eq!(end.chain, Some(store.verify().await.expect("verify")));

    let (rows, end) = scan(&store, 1500, false).await;
    assert_eq!(rows, expected_rows(&store, 1500).await);
    assert_eq!((end.rows, end.chain), (1500, None));

    let sibling = db_sibling(&db).await;
    let empty = store_with(&sibling, 0).await;
    let (rows, end) = scan(&empty, u64::MAX, true).await;
    assert!(rows.is_empty());
    assert_eq!(end.chain, Some(VerifyReport { events_verified: 0, first_bad: None }));
}

/// A second, empty database of the same kind.
async fn db_sibling(db: &TestDatabase) -> TestDatabase {
    match db.backend {
        league_testkit::Backend::Sqlite => league_testkit::sqlite(),
        league_testkit::Backend::Postgres => {
            league_testkit::postgres().await.expect("the first database was PostgreSQL")
        }
    }
}

/// Drops an immutability trigger by hand, as an attacker with database access could.
async fn drop_trigger(store: &EventStore, name: &str) {
    let sql = match store.backend() {
        sea_orm::DbBackend::Postgres => format!("DROP TRIGGER {name} ON events"),
        _ => format!("DROP TRIGGER {name}"),
    };
    store.connection().execute_unprepared(&sql).await.expect("drop a trigger by hand");
}

/// After each tampering the scan's walk names the break `verify` names, and hands over
/// exactly the rows before it.
async fn the_scan_stops_at_the_first_break_as_verify_does(db: TestDatabase) {
    let store = store_with(&db, 1300).await;
    drop_trigger(&store, "events_no_update").await;
    drop_trigger(&store, "events_no_delete").await;
    let sql = store.connection();
    let tamperings = [
        // A payload byte: the hash no longer matches (past the first batch).
        (
            "UPDATE events SET payload = replace(payload, '1100', '1101') WHERE position = 1101",
            1101,
        ),
        // The stored hash forged too: the next link breaks.
        ("UPDATE events SET hash = 'ffff' WHERE position = 1101", 1101),
        // A row removed: a gap (an earlier position now).
        ("DELETE FROM events WHERE position = 700", 700),
        // A link rewritten.
        ("UPDATE events SET prev_hash = 'abc' WHERE position = 2", 2),
    ];
    for (statement, position) in tamperings {
        sql.execute_unprepared(statement).await.expect(statement);
        let verified = store.verify().await.expect("verify");
        assert_eq!(verified.first_bad.as_ref().map(|bad| bad.position), Some(position));
        let (rows, end) = scan(&store, u64::MAX, true).await;
        assert_eq!(end.chain, Some(verified), "{statement}");
        assert_eq!(rows.len() as u64, position - 1, "{statement}");
        assert_eq!(rows, expected_rows(&store, position - 1).await);
    }
    let (_, end) = scan(&store, u64::MAX, true).await;
    let problem = end.chain.and_then(|chain| chain.first_bad).map(|bad| bad.problem);
    assert!(matches!(problem, Some(ChainProblem::BrokenLink { .. })), "{problem:?}");
    // Without the walk the scan reads on past every break.
    let (rows, end) = scan(&store, u64::MAX, false).await;
    assert_eq!((rows.len(), end.rows), (1299, 1299));
}

on_both_databases!(
    the_scan_reads_every_row_once_in_order,
    the_scan_stops_at_the_first_break_as_verify_does,
);
