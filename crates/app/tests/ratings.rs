//! Ratings through the application service: the first load (docs/ratings.md) outlives a
//! request that gives up on it, on SQLite and PostgreSQL.

mod common;

use std::time::Duration;

use common::*;
use league_app::App;
use league_projections::GameKind;
use league_testkit::TestDatabase;

/// A leaderboard request dropped at its first wait (a timeout, a client gone) leaves the
/// load running: the ratings become loaded without another request, and then rank the
/// reported game's winner first.
async fn a_dropped_request_does_not_abandon_the_first_load(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    four_player_league(&app).await;
    app.execute(report(&app, 1, 1, &[2.0, 1.0]).await, no_options()).await.unwrap();
    let winner = seats(&app, 1, 1).await[0];

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
