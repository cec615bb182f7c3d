//! Immutability, seen from the command line (SQLite and PostgreSQL): an attacker with
//! database access drops the immutability triggers, changes one byte of one stored event,
//! and puts the triggers back. `league verify` (the binary) must exit non-zero naming that
//! position, where it exited 0 before.
//!
//! The store's own suite (crates/store/tests/store.rs) already shows that `UPDATE` and
//! `DELETE` are refused while the triggers are in place and that `EventStore::verify` finds
//! tampering; this test adds the binary's verdict and that the triggers, once recreated, refuse
//! again — so tampering leaves no trace but the broken hash chain.

use league_store::sea_orm::{ConnectionTrait, DbBackend, TransactionTrait};
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::json;

/// Position whose payload is tampered with.
const TAMPERED: u64 = 5;
const EVENTS: u64 = 8;

fn verify(url: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_league"))
        .args(["verify", "--database", url])
        .env("RUST_LOG", "error")
        .output()
        .expect("run league verify")
}

/// The migration's trigger definitions, per backend: the statements that drop them and
/// the statements that create them again, one statement per call (multi-statement strings
/// proved unreliable through the SQLite driver).
fn trigger_sql(backend: DbBackend) -> ([&'static str; 2], [&'static str; 2]) {
    match backend {
        DbBackend::Postgres => (
            ["DROP TRIGGER events_no_update ON events", "DROP TRIGGER events_no_delete ON events"],
            [
                "CREATE TRIGGER events_no_update BEFORE UPDATE ON events
                 FOR EACH ROW EXECUTE FUNCTION league_events_immutable()",
                "CREATE TRIGGER events_no_delete BEFORE DELETE ON events
                 FOR EACH ROW EXECUTE FUNCTION league_events_immutable()",
            ],
        ),
        _ => (
            ["DROP TRIGGER events_no_update", "DROP TRIGGER events_no_delete"],
            [
                "CREATE TRIGGER events_no_update BEFORE UPDATE ON events
                 BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE refused'); END",
                "CREATE TRIGGER events_no_delete BEFORE DELETE ON events
                 BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE refused'); END",
            ],
        ),
    }
}

async fn a_byte_changed_behind_the_triggers_back_fails_league_verify(db: TestDatabase) {
    let store = EventStore::connect(&db.url).await.expect("connect");
    store.migrate().await.expect("migrate");
    for n in 1..=EVENTS {
        let stream = StreamId::new(format!("league-{}", n % 3)).expect("stream id");
        store
            .append(
                &stream,
                ExpectedVersion::Any,
                vec![NewEvent::new("Scored", 1, json!({ "game": n, "points": 40 + n }))],
                Metadata::default().with_actor("admin"),
            )
            .await
            .expect("append");
    }
    let intact = verify(&db.url);
    assert!(intact.status.success(), "{}", String::from_utf8_lossy(&intact.stderr));
    assert_eq!(
        String::from_utf8_lossy(&intact.stdout).trim(),
        format!("ok: {EVENTS} events verified")
    );

    let sql = store.connection();
    let (drop, create) = trigger_sql(store.backend());
    // One transaction, so one connection: a pooled SQLite connection that had not yet seen
    // the triggers dropped would refuse to create them again ("already exists").
    let tamper = sql.begin().await.expect("begin");
    for statement in drop {
        tamper.execute_unprepared(statement).await.expect("drop the triggers by hand");
    }
    // One byte: the points of game 5, 45, become 46.
    let changed = tamper
        .execute_unprepared(&format!(
            "UPDATE events SET payload = replace(payload, '45', '46') WHERE position = {TAMPERED}"
        ))
        .await
        .expect("tamper");
    assert_eq!(changed.rows_affected(), 1);
    for statement in create {
        tamper.execute_unprepared(statement).await.expect("recreate the triggers");
    }
    tamper.commit().await.expect("commit the tampering");
    // The triggers are back: the database refuses changes again.
    for statement in [
        "UPDATE events SET event_type = 'X' WHERE position = 1",
        "DELETE FROM events WHERE position = 1",
    ] {
        let refused = sql.execute_unprepared(statement).await.expect_err(statement);
        assert!(refused.to_string().contains("immutable"), "{statement}: {refused}");
    }

    let tampered = verify(&db.url);
    let stderr = String::from_utf8_lossy(&tampered.stderr);
    assert_eq!(tampered.status.code(), Some(1), "verify fails: {stderr}");
    assert!(tampered.stdout.is_empty(), "nothing on stdout");
    assert!(stderr.contains(&format!("position {TAMPERED}: hash mismatch")), "{stderr}");
    assert!(stderr.contains(&format!("{} events before it are intact", TAMPERED - 1)), "{stderr}");
}

on_both_databases!(a_byte_changed_behind_the_triggers_back_fails_league_verify);
