//! Ratings through the application service, on SQLite and PostgreSQL: the first load
//! (docs/ratings.md) outlives a request that gives up on it; a windowed model loaded from a
//! ratings snapshot answers what the complete fold of the log answers, to the bit, and
//! loads the complete model for what its window does not hold (an as-of read before it, a
//! history, a correction of a game it forgot, before or after the snapshot); `verify` checks
//! a ratings snapshot against the log, and a corrupt one is not used.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::*;
use league_app::App;
use league_projections::{
    AsOf, GameKind, RATINGS_SNAPSHOT, RATINGS_SNAPSHOT_FORMAT, RatingsModel, SnapshotCheck,
    SnapshotRejected, load_ratings,
};
use league_store::Snapshot;
use league_testkit::TestDatabase;
use uuid::Uuid;

const PLACEMENT: GameKind = GameKind::Placement;

/// Eight registered players subscribed to placement league 1 (two a game, each plays
/// twice: eight games).
async fn eight_player_league(app: &App) {
    register_players(app, 8).await;
    app.execute(create(1, 2, 8, 1), no_options()).await.unwrap();
    for n in 1..=8 {
        app.execute(subscribe(1, n), no_options()).await.unwrap();
    }
}

/// Runs a command and waits until the app has folded it.
async fn run(app: &App, command: impl Into<league_app::AppCommand>) {
    let executed = app.execute(command, no_options()).await.unwrap();
    let last = executed.events.last().map_or(0, |event| event.position);
    app.wait_applied(last).await.unwrap();
}

/// The complete ratings folded from every result of the log, without the app.
async fn complete(app: &App) -> RatingsModel {
    let systems: HashMap<Uuid, _> =
        app.catalog().leagues().map(|l| (l.id, l.settings.scoring_system)).collect();
    let head = app.store().head_position().await.unwrap();
    load_ratings(app.store(), head, |id| systems.get(&id).copied()).await.unwrap()
}

/// The app's leaderboard and every player's rating as of `at` (now: `None`) are the
/// complete fold's.
async fn same_as_complete(app: &App, reference: &RatingsModel, at: Option<u64>) {
    let as_of = at.map(AsOf::Position);
    let board = app.leaderboard(PLACEMENT, as_of).await.unwrap();
    assert_eq!(board, reference.ratings().leaderboard(PLACEMENT, at), "as of {at:?}");
    for n in 1..=8 {
        let want = match at {
            None => reference.ratings().rating(PLACEMENT, player(n).into()),
            Some(at) => reference.ratings().rating_at(PLACEMENT, player(n).into(), at),
        };
        let got = app.rating(PLACEMENT, player(n).into(), as_of).await.unwrap();
        assert_eq!(got, want.unwrap_or(reference.ratings().params().initial_rating()));
    }
}

/// A snapshot taken with a window of two results; more results and a correction of a
/// recent game after it: a new app starts from the snapshot, stays windowed for every
/// question its window holds (now, as of the snapshot and after), and answers as the
/// complete fold; an as-of read before the window and a history load the complete model,
/// which answers the same.
async fn a_windowed_load_from_a_snapshot_answers_as_the_complete_fold(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    eight_player_league(&app).await;
    for number in 1..=5 {
        run(&app, report(&app, 1, number, &[2.0, 1.0]).await).await;
    }
    app.set_ratings_window(2);
    let snapshot = app.take_ratings_snapshot().await.unwrap();
    // Five results: the model forgets only once it holds four times its window.
    assert_eq!(app.ratings_complete(), Some(true));
    for number in 6..=8 {
        run(&app, report(&app, 1, number, &[1.0, 2.0]).await).await;
    }
    run(&app, correct(&app, 1, 7, &[2.0, 1.0], "sheet").await).await;
    assert_eq!(app.ratings_complete(), Some(false), "forgot at eight; game 7 in the window");
    let reference = complete(&app).await;
    same_as_complete(&app, &reference, None).await;
    drop(app);

    let app = App::open(&db.url).await.unwrap();
    app.set_ratings_window(2);
    same_as_complete(&app, &reference, None).await;
    assert_eq!(app.ratings_complete(), Some(false), "started from the snapshot");
    let head = app.store().head_position().await.unwrap();
    for at in snapshot.position..=head + 1 {
        same_as_complete(&app, &reference, Some(at)).await;
    }
    assert_eq!(app.ratings_complete(), Some(false), "as-of reads in the window");
    for at in 0..snapshot.position {
        same_as_complete(&app, &reference, Some(at)).await;
    }
    assert_eq!(app.ratings_complete(), Some(true), "as-of reads before the window");
    drop(app);

    let app = App::open(&db.url).await.unwrap();
    app.set_ratings_window(2);
    let winner = player(1);
    let history = app.rating_history(PLACEMENT, winner.into(), None).await.unwrap();
    assert_eq!(app.ratings_complete(), Some(true), "a history needs every result");
    let want = reference.ratings().history(PLACEMENT, winner.into());
    assert_eq!(history.iter().map(|view| view.change).collect::<Vec<_>>(), want);
    assert!(!want.is_empty());
}

/// A correction of a game the window forgot, after the snapshot: a start from the snapshot
/// meets it while folding the results after it, and a running windowed model meets it
/// live; either way the complete model is loaded and answers as the complete fold.
async fn a_correction_of_a_forgotten_game_loads_the_complete_ratings(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    eight_player_league(&app).await;
    for number in 1..=6 {
        run(&app, report(&app, 1, number, &[2.0, 1.0]).await).await;
    }
    app.set_ratings_window(2);
    app.take_ratings_snapshot().await.unwrap();
    // The eighth result makes the running model forget all but the last two.
    run(&app, report(&app, 1, 7, &[1.0, 2.0]).await).await;
    run(&app, report(&app, 1, 8, &[1.0, 2.0]).await).await;
    assert_eq!(app.ratings_complete(), Some(false));
    // Game 1 is forgotten by the running model: the live correction stops it.
    run(&app, correct(&app, 1, 1, &[1.0, 2.0], "sheet").await).await;
    let reference = complete(&app).await;
    same_as_complete(&app, &reference, None).await;
    assert_eq!(app.ratings_complete(), Some(true));
    drop(app);

    // A start from the snapshot (taken before the correction) meets it in the fold.
    let app = App::open(&db.url).await.unwrap();
    app.set_ratings_window(2);
    same_as_complete(&app, &reference, None).await;
    assert_eq!(app.ratings_complete(), Some(true));
    let head = app.store().head_position().await.unwrap();
    for at in 0..=head {
        same_as_complete(&app, &reference, Some(at)).await;
    }
}

/// `verify` finds a ratings snapshot equal to a fold of the log; one whose body is another
/// position's (a valid body, rehashed) differs; a corrupt one is not used: the load says why
/// and folds every result, and answers as the complete fold.
async fn a_ratings_snapshot_is_verified_against_the_log(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    eight_player_league(&app).await;
    for number in 1..=4 {
        run(&app, report(&app, 1, number, &[2.0, 1.0]).await).await;
    }
    app.set_ratings_window(1);
    let earlier = app.take_ratings_snapshot().await.unwrap();
    for number in 5..=6 {
        run(&app, report(&app, 1, number, &[1.0, 2.0]).await).await;
    }
    let later = app.take_ratings_snapshot().await.unwrap();
    assert!(later.position > earlier.position);
    let verified = app.verify_ratings_snapshot().await.unwrap();
    let body_bytes = later.body.len();
    assert_eq!(verified, SnapshotCheck::Verified { position: later.position, body_bytes });

    let store = app.store();
    let moved = Snapshot::new(
        RATINGS_SNAPSHOT,
        RATINGS_SNAPSHOT_FORMAT,
        later.position,
        later.chain_hash.clone(),
        earlier.body.clone(),
    );
    store.save_snapshot(&moved).await.unwrap();
    let verified = app.verify_ratings_snapshot().await.unwrap();
    assert_eq!(verified, SnapshotCheck::Differs { position: later.position });

    let corrupt = Snapshot { body_sha256: "not the hash".into(), ..later.clone() };
    store.save_snapshot(&corrupt).await.unwrap();
    let verified = app.verify_ratings_snapshot().await.unwrap();
    assert_eq!(verified, SnapshotCheck::Rejected(SnapshotRejected::Corrupt));
    let reference = complete(&app).await;
    drop(app);
    let app = App::open(&db.url).await.unwrap();
    same_as_complete(&app, &reference, None).await;
    // The load folded every result and saved a snapshot in place of the corrupt one.
    let saved = app.ratings_snapshot().await.unwrap().expect("a snapshot saved");
    assert!(saved.is_intact());
    let verified = app.verify_ratings_snapshot().await.unwrap();
    assert!(matches!(verified, SnapshotCheck::Verified { .. }), "{verified:?}");
}

league_testkit::on_both_databases!(
    a_windowed_load_from_a_snapshot_answers_as_the_complete_fold,
    a_correction_of_a_forgotten_game_loads_the_complete_ratings,
    a_ratings_snapshot_is_verified_against_the_log,
);

/// A leaderboard request dropped at its first wait (a timeout, a client gone) leaves the
/// load running: the ratings become loaded without another request, and then rank the
/// reported game's winner first.
async fn a_dropped_request_does_not_abandon_the_first_load(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    four_player_league(&app).await;
    app.execute(report(&app, 1, 1, &[2.0, 1.0]).await, no_options()).await.unwrap();
    let winner = seats(&app, 1, 1).await[0].uuid();

    {
        // Polled once, then dropped: the request gives up at its first wait.
        let mut request = std::pin::pin!(app.leaderboard(GameKind::Placement, None));
        assert!(futures::poll!(request.as_mut()).is_pending(), "the load waits on the database");
    }
    tokio::time::timeout(Duration::from_secs(30), async {
        while !app.ratings_loaded() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the load finished on its own");
    let board = app.leaderboard(GameKind::Placement, None).await.unwrap();
    assert_eq!(board.first().map(|row| row.player), Some(winner));
}

// One thread, so nothing but the test runs while the request is polled once.
mod a_dropped_request_does_not_abandon_the_first_load {
    #[tokio::test(flavor = "current_thread")]
    async fn sqlite() {
        super::a_dropped_request_does_not_abandon_the_first_load(league_testkit::sqlite()).await;
    }
    #[tokio::test(flavor = "current_thread")]
    async fn postgres() {
        if let Some(db) = league_testkit::postgres().await {
            super::a_dropped_request_does_not_abandon_the_first_load(db).await;
        }
    }
}
