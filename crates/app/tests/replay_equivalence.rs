//! The read side served league by league (the catalog plus each league's model, kept current
//! by the live feed or loaded from its stream) equals a fold of the whole log, for randomly
//! generated command sequences (accepted and refused alike), on SQLite and on PostgreSQL.

mod common;

use common::*;
use league_app::App;
use league_domain::{Actor, Unsubscribe};
use league_projections::load_model;
use league_testkit::TestDatabase;
use proptest::prelude::*;

/// One step of a generated history. Indices are small so that commands collide often
/// (double subscriptions, full leagues, reports of finished games…).
#[derive(Debug, Clone)]
enum Op {
    Register(u8),
    Create { league: u8, four_player_games: bool },
    Subscribe { player: u8, league: u8 },
    Unsubscribe { player: u8, league: u8 },
    Report { league: u8, game: u8, points: u8 },
    Correct { league: u8, game: u8, points: u8 },
}

/// League 0 exists from the start; league 1 only if a step creates it.
fn league_index() -> impl Strategy<Value = u8> {
    prop_oneof![3 => Just(0u8), 1 => Just(1u8)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => (6..8u8).prop_map(Op::Register),
        1 => (0..2u8, any::<bool>())
            .prop_map(|(league, four_player_games)| Op::Create { league, four_player_games }),
        6 => (0..8u8, league_index()).prop_map(|(player, league)| Op::Subscribe { player, league }),
        1 => (0..8u8, 0..2u8).prop_map(|(player, league)| Op::Unsubscribe { player, league }),
        8 => (league_index(), 1..=4u8, any::<u8>())
            .prop_map(|(league, game, points)| Op::Report { league, game, points }),
        3 => (league_index(), 1..=4u8, any::<u8>())
            .prop_map(|(league, game, points)| Op::Correct { league, game, points }),
    ]
}

/// Points per seat from a byte: two bits per seat, so ties (shared places) happen.
fn points(byte: u8, seats: usize) -> Vec<f64> {
    (0..seats).map(|seat| f64::from((byte >> (2 * (seat % 4))) & 3)).collect()
}

async fn run(app: &App, op: &Op) {
    let outcome = match *op {
        Op::Register(n) => app.execute(register(n.into()), no_options()).await,
        Op::Create { league, four_player_games } => {
            let k = if four_player_games { 4 } else { 2 };
            app.execute(create(league.into(), k, 4, 1), no_options()).await
        }
        Op::Subscribe { player, league } => {
            app.execute(subscribe(league.into(), player.into()), no_options()).await
        }
        Op::Unsubscribe { player, league } => {
            let command = Unsubscribe {
                actor: Actor::Admin,
                league_id: common::league(league.into()).into(),
                player_id: common::player(player.into()),
            };
            app.execute(command, no_options()).await
        }
        Op::Report { league, game, points: byte } => {
            let seated = seats(app, league.into(), game.into()).await.len();
            if seated == 0 {
                return;
            }
            let command = report(app, league.into(), game.into(), &points(byte, seated)).await;
            app.execute(command, no_options()).await
        }
        Op::Correct { league, game, points: byte } => {
            let seated = seats(app, league.into(), game.into()).await.len();
            if seated == 0 {
                return;
            }
            let command =
                correct(app, league.into(), game.into(), &points(byte, seated), "re-counted").await;
            app.execute(command, no_options()).await
        }
    };
    // Refusals are part of the history being tested: they must leave no trace.
    let _ = outcome;
}

async fn incremental_equals_replay(db: TestDatabase, four_player_games: bool, ops: Vec<Op>) {
    let app = App::open(&db.url).await.expect("open");
    // A common start so that most histories reach running leagues and results; players 6
    // and 7 and league 1 are left to the generated steps.
    for n in 0..6u8 {
        run(&app, &Op::Register(n)).await;
    }
    run(&app, &Op::Create { league: 0, four_player_games }).await;
    for op in &ops {
        run(&app, op).await;
    }
    let head = app.store().head_position().await.unwrap();
    app.wait_applied(head).await.unwrap();
    let whole = load_model(app.store(), None, |_| {}).await.unwrap();
    assert_eq!(whole.position(), head);
    // Leagues loaded after the history (league 1) and one kept current event by event
    // (league 0, loaded by the seats look-ups) both equal the whole-log fold; so does a
    // fresh instance that folds only the catalog and loads each league from its stream.
    let fresh = App::open(&db.url).await.expect("reopen");
    for app in [&app, &fresh] {
        let catalog_ids: Vec<_> = app.catalog().league_ids().to_vec();
        let whole_ids: Vec<_> = whole.leagues().map(|view| view.id).collect();
        assert_eq!(catalog_ids, whole_ids, "{db}: leagues after {ops:?}");
        for view in whole.leagues() {
            let summary = app.catalog().league(view.id).cloned().unwrap();
            assert_eq!((summary.status, &summary.players), (view.status, &view.players));
            let live = app.league(view.id).await.unwrap().unwrap();
            assert_eq!(live.league(view.id), Some(view), "{db}: league after {ops:?}");
            assert_eq!(live.standings(view.id), whole.standings(view.id));
            assert_eq!(
                live.games_of(view.id).collect::<Vec<_>>(),
                whole.games_of(view.id).collect::<Vec<_>>()
            );
            for player in &view.players {
                assert_eq!(
                    live.score_history(view.id, *player),
                    whole.score_history(view.id, *player)
                );
                assert_eq!(
                    app.catalog().leagues_of(*player).contains(&view.id),
                    view.players.contains(player)
                );
            }
        }
        let players: Vec<_> = whole.players().map(|p| p.id).collect();
        assert_eq!(app.catalog().player_ids(), players.as_slice());
        // Leaving and joining a league again lists it once among the leagues joined.
        let catalog = app.catalog();
        for player in &players {
            let joined = catalog.leagues_joined(*player);
            let mut distinct = joined.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), joined.len(), "{db}: {joined:?} after {ops:?}");
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_replay_on_sqlite(k4 in any::<bool>(), ops in prop::collection::vec(op(), 30..80)) {
        runtime().block_on(incremental_equals_replay(league_testkit::sqlite(), k4, ops));
    }

    #[test]
    fn incremental_equals_replay_on_postgres(k4 in any::<bool>(), ops in prop::collection::vec(op(), 30..80)) {
        runtime().block_on(async move {
            if let Some(db) = league_testkit::postgres().await {
                incremental_equals_replay(db, k4, ops).await;
            }
        });
    }
}
