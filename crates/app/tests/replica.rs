//! The application reading a PostgreSQL hot standby (`App::connect` with a read database),
//! on a real primary and standby (`league_testkit::replication`): commands are
//! read-your-writes through the standby; with its replay paused a command answers the typed
//! `ReplicaLag` naming the position it is committed at, which the primary's log holds, and
//! the read side applies it once replay resumes. A read database beside SQLite is bad input.

mod common;

use std::time::Duration;

use common::*;
use league_app::{App, AppError, AppSettings, ErrorCode};
use league_testkit::replication::ReplicatedPair;

#[tokio::test]
async fn a_read_database_beside_sqlite_is_bad_input() {
    let refused =
        App::connect("sqlite::memory:", Some("postgres://x@127.0.0.1/y"), AppSettings::default())
            .await
            .expect_err("SQLite has no replicas");
    assert_eq!(refused.code(), ErrorCode::BadUserInput { field: "readDatabase".into() });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn commands_wait_for_the_standby_and_answer_replica_lag_when_it_stalls() {
    let Some(pair) = ReplicatedPair::start() else {
        return;
    };
    let settings =
        AppSettings { replica_lag_timeout: Duration::from_millis(500), ..AppSettings::default() };
    let app = App::connect(&pair.primary_url(), Some(&pair.standby_url()), settings)
        .await
        .expect("open the app on the pair");
    assert!(app.reads_replica());

    // Read-your-writes through the standby: the catalog has each player once execute returns.
    register_players(&app, 2).await;
    for n in 1..=2 {
        assert!(app.catalog().player(player(n).into()).is_some(), "player {n} is in the catalog");
    }

    // The standby stops replaying: the command is committed, its answer says so.
    pair.pause_replay().expect("pause replay");
    let lagged = app.execute(register(3), no_options()).await.expect_err("the standby is paused");
    let AppError::ReplicaLag { position, applied } = lagged else {
        panic!("expected ReplicaLag, got {lagged:?}");
    };
    assert_eq!(lagged.code(), ErrorCode::ReplicaLag);
    assert!(applied < position, "applied {applied}, committed {position}");
    assert_eq!(app.applied_position(), applied);
    let logged = app.store().read_all(position, 1).await.expect("read the primary");
    assert_eq!(logged.len(), 1, "the primary's log holds the command's event");
    assert_eq!(logged[0].event_type, "PlayerRegistered");
    assert!(
        app.catalog().player(player(3).into()).is_none(),
        "nothing read before the standby has it"
    );

    // Replay resumes: the read side applies it, and the retried command is refused as a
    // registration that already happened (it was not lost, nor appended twice).
    pair.resume_replay().expect("resume replay");
    app.wait_applied(position).await.expect("the standby catches up");
    assert!(app.catalog().player(player(3).into()).is_some());
    let again = app.execute(register(3), no_options()).await.expect_err("already registered");
    assert_eq!(again.code(), ErrorCode::Conflict);
    let head = app.store().head_position().await.expect("primary head");
    assert_eq!(head, position, "nothing appended since");
}
