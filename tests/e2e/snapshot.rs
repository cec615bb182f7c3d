//! Catalog snapshots (`docs/architecture.md#snapshots`) on SQLite and PostgreSQL: a start
//! from a snapshot serves what a fold of the whole log serves (sealed names opened again
//! with the key table, an erased player's pseudonym, leagues and games after the snapshot);
//! `league snapshot verify` checks one against the log; a snapshot that is corrupt, in
//! another format or from another log is not used (the start folds the whole log and says
//! why), and `verify` exits 1 on it.

use league_app::{App, SnapshotRejected};
use league_projections::CATALOG_SNAPSHOT;
use league_store::EventStore;
use league_store::sea_orm::ConnectionTrait;
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::json;
use uuid::Uuid;

use crate::replay::{league as run_league, stderr, stdout};
use crate::support::{ADMIN, Player, TestApp, placement_result, spawn_app};

const NAME: &str = "Ottoline Marchbanks";

/// A league of four with every game reported, one of them named [`NAME`].
async fn played_league(server: &TestApp, prefix: &str) -> (Vec<Player>, String) {
    let mut players = vec![server.register(&format!("{prefix} {NAME}")).await];
    players.extend(server.register_many(3, prefix).await);
    let league = server.create_league("PLACEMENT", 2, Some(4)).await;
    server.fill(&league, &players).await;
    for (game, seats, _) in server.games(&league).await {
        server.report(ADMIN, &game, &placement_result(&seats)).await;
    }
    (players, league)
}

async fn store(db: &TestDatabase) -> EventStore {
    EventStore::connect(&db.url).await.expect("connect")
}

/// The catalog a start gives, encoded, and how the start got it.
async fn started(db: &TestDatabase) -> (Vec<u8>, league_app::CatalogSource, App) {
    let app = App::open(&db.url).await.expect("open");
    let body = app.catalog().snapshot_body();
    (body, app.catalog_source().clone(), app)
}

/// The catalog a fold of the whole log gives (the snapshot set aside and put back).
async fn folded_whole(db: &TestDatabase) -> Vec<u8> {
    let store = store(db).await;
    let kept = store.snapshot(CATALOG_SNAPSHOT).await.expect("read");
    store.delete_snapshot(CATALOG_SNAPSHOT).await.expect("drop");
    let (body, source, app) = started(db).await;
    assert_eq!(source.snapshot, None);
    drop(app);
    if let Some(kept) = kept {
        store.save_snapshot(&kept).await.expect("restore");
    }
    body
}

async fn a_start_from_a_snapshot_serves_what_a_fold_of_the_whole_log_serves(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (first, _) = played_league(&server, "Early").await;
    let erased = &first[1];
    server
        .data(
            Some(ADMIN),
            "mutation($p: ID) { erasePlayer(playerId: $p, reason: \"asked\") { id } }",
            json!({ "p": erased.id }),
        )
        .await;
    let taken = run_league(&["snapshot", "take"], &db);
    assert!(taken.status.success(), "{}", stderr(&taken));
    let position: u64 = stdout(&taken)
        .lines()
        .find_map(|line| line.strip_prefix("position: "))
        .expect("the position is printed")
        .parse()
        .expect("a number");
    // More of everything after the snapshot: a start must fold it on top.
    let (later, later_league) = played_league(&server, "Late").await;
    let head = server.event_count().await;
    assert!(head > position);
    drop(server);

    let (from_snapshot, source, app) = started(&db).await;
    assert_eq!(source.snapshot, Some(position), "{source:?}");
    assert_eq!(source.rejected, None);
    {
        let catalog = app.catalog();
        let shown = |player: &Player| {
            catalog.player(player.id.parse::<Uuid>().unwrap()).map(|p| p.name.clone()).unwrap()
        };
        assert_eq!(shown(&first[0]), format!("Early {NAME}"), "a sealed name opens again");
        assert!(shown(erased).starts_with("Erased player"), "{}", shown(erased));
        assert_eq!(shown(&later[0]), format!("Late {NAME}"));
        let later_league: Uuid = later_league.parse().unwrap();
        assert_eq!(catalog.league(later_league).map(|l| l.players.len()), Some(4));
        assert_eq!(catalog.position(), head);
    }
    drop(app);
    assert!(from_snapshot == folded_whole(&db).await, "the same catalog as a whole fold");

    let verified = run_league(&["snapshot", "verify"], &db);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert!(
        stdout(&verified).contains(&format!("at position {position}")),
        "{}",
        stdout(&verified)
    );
}

/// Changes the stored snapshot's row with `set` (SQL after `SET`).
async fn alter_snapshot(db: &TestDatabase, set: &str) {
    let store = store(db).await;
    let sql = format!("UPDATE snapshots SET {set} WHERE kind = '{CATALOG_SNAPSHOT}'");
    store.connection().execute_unprepared(&sql).await.expect("alter");
}

async fn a_snapshot_that_does_not_fit_is_not_used(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    played_league(&server, "Only").await;
    drop(server);
    let taken = run_league(&["snapshot", "take"], &db);
    assert!(taken.status.success(), "{}", stderr(&taken));
    let whole = folded_whole(&db).await;
    let original = store(&db).await.snapshot(CATALOG_SNAPSHOT).await.unwrap().unwrap();

    let cases: [(&str, SnapshotRejected, &str); 3] = [
        ("body_sha256 = 'not the hash'", SnapshotRejected::Corrupt, "does not hash"),
        ("format = 999", SnapshotRejected::Format { found: 999 }, "format 999"),
        (
            "chain_hash = 'another log'",
            SnapshotRejected::OtherLog { position: original.position },
            "is not the one it was taken at",
        ),
    ];
    for (set, rejected, says) in cases {
        store(&db).await.save_snapshot(&original).await.unwrap();
        alter_snapshot(&db, set).await;
        let (body, source, app) = started(&db).await;
        drop(app);
        assert_eq!(source.snapshot, None, "{set}");
        assert_eq!(source.rejected, Some(rejected), "{set}");
        assert!(body == whole, "{set}: the whole log is folded instead");
        let verified = run_league(&["snapshot", "verify"], &db);
        assert_eq!(verified.status.code(), Some(1), "{set}: {}", stdout(&verified));
        assert!(stderr(&verified).contains(says), "{set}: {}", stderr(&verified));
    }

    let dropped = run_league(&["snapshot", "drop"], &db);
    assert!(stdout(&dropped).contains("dropped"), "{}", stdout(&dropped));
    let shown = run_league(&["snapshot", "show"], &db);
    assert_eq!(stdout(&shown), "no catalog snapshot\nno ratings snapshot\n");
}

on_both_databases!(
    a_start_from_a_snapshot_serves_what_a_fold_of_the_whole_log_serves,
    a_snapshot_that_does_not_fit_is_not_used,
);
