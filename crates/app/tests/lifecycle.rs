//! The league life cycle through the application service, on SQLite and PostgreSQL:
//! create → 8 subscribe → games exist → results → correction → completed; concurrent
//! subscribers; idempotent retries; refusals append nothing; as-of equals a replay cut.

mod common;

use std::collections::BTreeSet;

use common::*;
use league_app::{App, AppError, AsOf, CommandOptions, ErrorCode};
use league_domain::{
    Actor, CreateTournament, DomainError, EnterTournament, LeagueStatus, PlayerId, Subscribe,
    TournamentSettings, Unsubscribe, game_id,
};
use league_projections::{GameStatus, fold_until, load_model};
use league_scoring::ScoringSystem;
use league_testkit::TestDatabase;

/// Every event of the log, in order.
async fn whole_log(app: &App) -> Vec<league_store::RecordedEvent> {
    app.store().read_all(1, u64::MAX).await.expect("read the log")
}

async fn head(app: &App) -> u64 {
    app.store().head_position().await.expect("head position")
}

/// docs/scheduling.md#league-life-cycle, "automatic games": the 8th subscription creates
/// every game in the same append; results, a correction and the last result complete it.
async fn full_life_cycle(db: TestDatabase) {
    let app = App::open(&db.url).await.expect("open the app");
    register_players(&app, 8).await;
    app.execute(create(1, 4, 8, 1), no_options()).await.expect("create the league");
    for n in 1..=7 {
        let executed = app.execute(subscribe(1, n), no_options()).await.expect("subscribe");
        assert_eq!(types(&executed), ["PlayerSubscribed"]);
        assert_eq!(app.catalog().league(league(1)).unwrap().status, LeagueStatus::Open);
        assert_eq!(model(&app, 1).await.league(league(1)).unwrap().status, LeagueStatus::Open);
    }
    let filling = app.execute(subscribe(1, 8), no_options()).await.expect("8th subscription");
    assert_eq!(types(&filling), ["PlayerSubscribed", "GamesScheduled"]);
    {
        // Read-your-writes: the model has the games the moment execute returns.
        let model = model(&app, 1).await;
        let view = model.league(league(1)).unwrap();
        assert_eq!(view.status, LeagueStatus::Running);
        assert_eq!(view.games.len(), 8, "N·s = 8 games for k = 4, s = 1");
        assert_eq!(view.players, (1..=8).map(|n| player(n).uuid()).collect::<Vec<_>>());
        for id in &view.games {
            let game = model.game(*id).unwrap();
            assert_eq!(game.seats.len(), 4);
            assert_eq!(game.status, GameStatus::Scheduled);
        }
        // Before any result every subscribed player is in the table, level on rank 1.
        let standings = model.standings(league(1));
        assert_eq!(standings.iter().map(|row| row.player.uuid()).collect::<Vec<_>>(), view.players);
        assert!(standings.iter().all(|row| (row.rank, row.played, row.total) == (1, 0, 0.0)));
    }

    // docs/scoring.md#placement, 4 players: 12, 6, 2, 0.
    for number in 1..=7 {
        let executed = app
            .execute(report(&app, 1, number, &[10.0, 5.0, 3.0, 1.0]).await, no_options())
            .await
            .expect("report a result");
        assert_eq!(types(&executed), ["GameFinished"]);
    }
    {
        // Game 8 is not played yet: players still without a result come last, sharing a rank.
        let model = model(&app, 1).await;
        let standings = model.standings(league(1));
        assert_eq!(standings.len(), 8);
        let unplayed: Vec<_> = standings.iter().filter(|row| row.played == 0).collect();
        let ranked = standings.len() - unplayed.len();
        assert!(unplayed.iter().all(|row| row.rank as usize == ranked + 1 && row.total == 0.0));
        assert!(standings[..ranked].iter().all(|row| row.played > 0));
    }
    let first_seats = seats(&app, 1, 1).await;
    let winner = first_seats[0];
    let before = model(&app, 1).await.score_history(league(1), winner.into());
    assert_eq!(before.first().map(|c| (c.delta, c.reason.clone())), Some((12.0, None)));

    // Correction: seat 1 and seat 4 swap places in game 1.
    let corrected = app
        .execute(
            correct(&app, 1, 1, &[1.0, 5.0, 3.0, 10.0], "scores swapped on the sheet").await,
            no_options(),
        )
        .await
        .expect("correct game 1");
    assert_eq!(types(&corrected), ["GameResultCorrected"]);
    let history = model(&app, 1).await.score_history(league(1), winner.into());
    let last = history.last().unwrap();
    assert_eq!(last.delta, -12.0);
    assert_eq!(last.total, before.last().unwrap().total - 12.0);
    assert_eq!(last.reason.as_deref(), Some("scores swapped on the sheet"));
    assert_eq!(last.position, corrected.last_position);
    let game = app.league_of_game(game_id(league(1).into(), 1).into()).await.unwrap().unwrap();
    let game = game.game(game_id(league(1).into(), 1).into()).cloned().unwrap();
    assert_eq!(game.scores[0], (winner.uuid(), 0.0));
    assert_eq!(game.scores[3], (first_seats[3].uuid(), 12.0));

    let last_result = app
        .execute(report(&app, 1, 8, &[4.0, 3.0, 2.0, 1.0]).await, no_options())
        .await
        .expect("last result");
    assert_eq!(types(&last_result), ["GameFinished", "LeagueCompleted"]);
    {
        let model = model(&app, 1).await;
        assert_eq!(model.league(league(1)).unwrap().status, LeagueStatus::Completed);
        assert_eq!(app.catalog().league(league(1)).unwrap().status, LeagueStatus::Completed);
        let standings = model.standings(league(1));
        assert_eq!(standings.len(), 8);
        // Every game hands out 12 + 6 + 2 + 0 = 20 points; 8 games.
        let sum: f64 = standings.iter().map(|row| row.total).sum();
        assert_eq!(sum, 160.0);
        assert!(standings.iter().all(|row| row.played == 4), "k·s = 4 games per player");
        assert_eq!(
            standings.iter().map(|row| row.wins).sum::<u32>(),
            8,
            "one outright winner per game"
        );
        assert!(standings.windows(2).all(|pair| pair[0].rank <= pair[1].rank));
        for row in &standings {
            let history = model.score_history(league(1), row.player.into());
            assert_eq!(history.last().map(|c| c.total), Some(row.total));
        }
    }

    // The league's model, kept current by the live feed, equals a fold of the whole log.
    let whole = load_model(app.store(), None, |_| {}).await.unwrap();
    let live = model(&app, 1).await;
    assert_eq!(live.league(league(1)), whole.league(league(1)));
    assert_eq!(live.standings(league(1)), whole.standings(league(1)));
    assert_eq!(
        live.games_of(league(1)).collect::<Vec<_>>(),
        whole.games_of(league(1)).collect::<Vec<_>>()
    );
}

/// Stale-version race: 12 players subscribe at once to a league of 8. Exactly 8 are
/// accepted, the others are refused (league full / not open), and the games are
/// scheduled exactly once.
async fn concurrent_subscribers_fill_exactly(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    register_players(&app, 12).await;
    app.execute(create(1, 2, 8, 1), no_options()).await.unwrap();
    let attempts = (1..=12).map(|n| {
        let app = app.clone();
        tokio::spawn(async move { app.execute(subscribe(1, n), no_options()).await })
    });
    let outcomes: Vec<_> = futures::future::join_all(attempts)
        .await
        .into_iter()
        .map(|joined| joined.expect("task"))
        .collect();
    let accepted = outcomes.iter().filter(|outcome| outcome.is_ok()).count();
    assert_eq!(accepted, 8);
    for refused in outcomes.iter().filter_map(|outcome| outcome.as_ref().err()) {
        assert!(
            matches!(
                refused,
                AppError::Domain(DomainError::LeagueFull | DomainError::LeagueNotOpen(_))
            ),
            "unexpected refusal {refused:?}"
        );
        assert_eq!(refused.code(), ErrorCode::Conflict);
    }
    let log = whole_log(&app).await;
    assert_eq!(log.iter().filter(|e| e.event_type == "GamesScheduled").count(), 1);
    assert_eq!(log.iter().filter(|e| e.event_type == "PlayerSubscribed").count(), 8);
    let model = model(&app, 1).await;
    let view = model.league(league(1)).unwrap();
    assert_eq!(view.players.len(), 8);
    assert_eq!(view.players.iter().collect::<BTreeSet<_>>().len(), 8);
    assert_eq!(view.status, LeagueStatus::Running);
}

/// A retried command with the same idempotency key returns the original outcome even
/// though the domain would now refuse it; another actor's same key is a different key.
async fn idempotent_retry_returns_the_original_answer(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    register_players(&app, 2).await;
    app.execute(create(1, 2, 4, 1), no_options()).await.unwrap();
    let keyed = || CommandOptions { idempotency_key: Some("join-1".into()), correlation_id: None };
    let first = app.execute(subscribe(1, 1), keyed()).await.unwrap();
    assert!(!first.deduplicated);
    let head_after_first = head(&app).await;
    let again = app.execute(subscribe(1, 1), keyed()).await.expect("retry answers, not refuses");
    assert!(again.deduplicated);
    assert_eq!(again.last_position, first.last_position);
    assert_eq!(again.events, first.events);
    assert_eq!(head(&app).await, head_after_first, "a retry appends nothing");
    // Without the key the same command is refused: the domain has already seen it.
    let unkeyed = app.execute(subscribe(1, 1), no_options()).await.unwrap_err();
    assert_eq!(unkeyed, AppError::Domain(DomainError::AlreadySubscribed(player(1))));
    // Player 2 using the same key string is not deduplicated against player 1.
    let other = app.execute(subscribe(1, 2), keyed()).await.unwrap();
    assert!(!other.deduplicated);
    assert_eq!(
        other.events[0].metadata.idempotency_key.as_deref(),
        Some(&*format!("player:{}:join-1", player(2)))
    );
    assert_eq!(other.events[0].metadata.actor.as_deref(), Some(&*format!("player:{}", player(2))));
    let blank = CommandOptions { idempotency_key: Some("  ".into()), correlation_id: None };
    let error = app.execute(register(3), blank).await.unwrap_err();
    assert_eq!(error.code(), ErrorCode::BadUserInput { field: "idempotencyKey".into() });
}

/// Refused commands append nothing and carry their API code.
async fn refused_commands_append_nothing(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    register_players(&app, 2).await;
    app.execute(create(1, 2, 4, 1), no_options()).await.unwrap();
    let before = head(&app).await;
    let unknown_player = app.execute(subscribe(1, 9), no_options()).await.unwrap_err();
    assert_eq!(unknown_player.code(), ErrorCode::NotFound);
    let someone_else = Subscribe {
        actor: Actor::Player(player(2)),
        league_id: league(1).into(),
        player_id: player(1),
    };
    assert_eq!(
        app.execute(someone_else, no_options()).await.unwrap_err().code(),
        ErrorCode::Forbidden
    );
    let not_subscribed =
        Unsubscribe { actor: Actor::Admin, league_id: league(1).into(), player_id: player(1) };
    assert_eq!(
        app.execute(not_subscribed, no_options()).await.unwrap_err().code(),
        ErrorCode::Conflict
    );
    let mut bad = create(2, 9, 8, 1);
    bad.settings.players_per_game = 9;
    assert_eq!(
        app.execute(bad, no_options()).await.unwrap_err().code(),
        ErrorCode::BadUserInput { field: "playersPerGame".into() }
    );
    assert_eq!(
        app.execute(register(1), no_options()).await.unwrap_err().code(),
        ErrorCode::Conflict
    );
    assert_eq!(head(&app).await, before);
    assert!(app.catalog().league(league(2)).is_none());
    assert!(app.league(league(2)).await.unwrap().is_none());
}

/// As-of standings and score history equal a fold of the log cut at the same point, for
/// every position and for the commit time of every event.
async fn as_of_equals_a_replay_cut(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    three_reported_one_corrected(&app, &[2.0, 1.0], "reversed").await;
    let log = whole_log(&app).await;
    let watched = seats(&app, 1, 2).await[0];
    for cut in 0..=log.len() as u64 + 1 {
        let expected = fold_until(&log, AsOf::Position(cut)).unwrap();
        let standings = app.standings_as_of(league(1), AsOf::Position(cut)).await.unwrap();
        assert_eq!(standings, expected.standings(league(1)), "standings as of position {cut}");
        let then = app.league_as_of(league(1), AsOf::Position(cut)).await.unwrap().unwrap();
        assert_eq!(
            then.score_history(league(1), watched.into()),
            expected.score_history(league(1), watched.into()),
            "history as of {cut}"
        );
    }
    for event in &log {
        let as_of = AsOf::Time(event.recorded_at);
        let expected = fold_until(&log, as_of).unwrap();
        assert_eq!(
            app.standings_as_of(league(1), as_of).await.unwrap(),
            expected.standings(league(1))
        );
    }
    let error = app.standings_as_of(league(7), AsOf::Position(1)).await.unwrap_err();
    assert_eq!(error.code(), ErrorCode::NotFound);
}

/// Two app instances on one database (two gateway processes): each follows the log, and
/// both serve the same standings as a fold of the whole log.
async fn two_instances_serve_the_same_standings(db: TestDatabase) {
    let first = App::open(&db.url).await.unwrap();
    let second = App::open(&db.url).await.unwrap();
    register_players(&first, 4).await;
    // The second instance sees players registered through the first once it has applied them.
    second.wait_applied(head(&first).await).await.unwrap();
    second.execute(create(1, 2, 4, 1), no_options()).await.unwrap();
    for n in 1..=4 {
        let app = if n % 2 == 0 { &first } else { &second };
        app.wait_applied(head(app).await).await.unwrap();
        app.execute(subscribe(1, n), no_options()).await.unwrap();
    }
    first.wait_applied(head(&first).await).await.unwrap();
    first.execute(report(&first, 1, 1, &[2.0, 1.0]).await, no_options()).await.unwrap();
    let last = head(&first).await;
    first.wait_applied(last).await.unwrap();
    second.wait_applied(last).await.unwrap();
    let whole = load_model(first.store(), None, |_| {}).await.unwrap();
    assert_eq!(whole.standings(league(1)).len(), 4);
    assert_eq!(model(&first, 1).await.standings(league(1)), whole.standings(league(1)));
    assert_eq!(model(&second, 1).await.standings(league(1)), whole.standings(league(1)));
}

/// Commands are decided on each stream's aggregate as last folded plus the events appended
/// since, also by another instance: a stale kept state is caught up, never decided on.
async fn a_kept_aggregate_catches_up_with_another_instance(db: TestDatabase) {
    let first = App::open(&db.url).await.unwrap();
    let second = App::open(&db.url).await.unwrap();
    register_players(&first, 4).await;
    first.execute(create(1, 2, 4, 1), no_options()).await.unwrap();
    for n in 1..=2 {
        first.execute(subscribe(1, n), no_options()).await.unwrap();
    }
    assert!(first.aggregates_kept() >= 1, "the league's aggregate is kept");
    second.wait_applied(head(&first).await).await.unwrap();
    for n in 3..=4 {
        second.execute(subscribe(1, n), no_options()).await.unwrap();
    }
    let filled = head(&second).await;
    // The first instance's kept league still has two players: it must read what the second
    // appended and refuse as the full, running league does (not decide on the old state).
    let refused = first.execute(subscribe(1, 3), no_options()).await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::Conflict, "{refused}");
    assert!(matches!(refused, AppError::Domain(_)), "a domain refusal, not contention: {refused}");
    assert_eq!(head(&first).await, filled, "nothing appended");
    first.wait_applied(filled).await.unwrap();
    let reported = first.execute(report(&first, 1, 1, &[2.0, 1.0]).await, no_options()).await;
    assert_eq!(types(&reported.unwrap()), ["GameFinished"]);
}

/// A query answers from the kept tournament without reading the log only while it holds the
/// stream's last applied event: once another instance's entry is applied here, the read
/// shows it (`crate::aggregates::FollowedVersions`).
async fn a_kept_tournament_read_shows_another_instances_events(db: TestDatabase) {
    let first = App::open(&db.url).await.unwrap();
    let second = App::open(&db.url).await.unwrap();
    register_players(&first, 2).await;
    let tournament = uuid::Uuid::from_u128(77);
    let settings = TournamentSettings::new("Kept Cup", "Diplomacy", ScoringSystem::Squares, 7, 2);
    let create =
        CreateTournament { actor: Actor::Admin, tournament_id: tournament.into(), settings };
    first.execute(create, no_options()).await.unwrap();
    let enter = |n| EnterTournament {
        actor: Actor::Admin,
        tournament_id: tournament.into(),
        player_id: player(n),
    };
    first.execute(enter(1), no_options()).await.unwrap();
    second.wait_applied(head(&first).await).await.unwrap();
    // Read twice: the second read is the kept state's.
    for _ in 0..2 {
        let kept = second.existing_tournament(tournament).await.unwrap();
        assert_eq!(kept.entrants().len(), 1);
    }
    first.execute(enter(2), no_options()).await.unwrap();
    second.wait_applied(head(&first).await).await.unwrap();
    let read = second.existing_tournament(tournament).await.unwrap();
    assert_eq!(read.entrants().len(), 2, "the entry applied here is in the read");
}

/// Reopening an app folds the catalog and loads the league again: the same answers.
async fn reopening_loads_the_same_model(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    four_player_league(&app).await;
    let done = app.execute(report(&app, 1, 1, &[3.0, 1.0]).await, no_options()).await.unwrap();
    let standings = model(&app, 1).await.standings(league(1));
    drop(app);
    let reopened = App::open(&db.url).await.unwrap();
    assert_eq!(reopened.applied_position(), done.last_position);
    assert_eq!(model(&reopened, 1).await.standings(league(1)), standings);
    let by_token = reopened.catalog().player_by_token_hash("hash-3").map(|p| PlayerId::from(p.id));
    assert_eq!(by_token, Some(player(3)));
}

/// The active-player rule counts a subscriber's finished games across the leagues they
/// joined (a league that does not require it never asks); leaving a league and joining it
/// again lists it once among the leagues joined, also after a reopen.
async fn active_players_and_rejoining(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    register_players(&app, 5).await;
    // League 1: k = 2, N = 4, s = 3: every player plays 6 games.
    app.execute(create(1, 2, 4, 3), no_options()).await.unwrap();
    for n in 1..=4 {
        app.execute(subscribe(1, n), no_options()).await.unwrap();
    }
    let games = model(&app, 1).await.games_of(league(1)).count() as u32;
    for number in 1..=games {
        let seats = seats(&app, 1, number).await;
        if seats.contains(&player(1)) {
            app.execute(report(&app, 1, number, &[2.0, 1.0]).await, no_options()).await.unwrap();
        }
    }
    let mut strict = create(2, 2, 4, 1);
    strict.settings.require_active_players = true;
    app.execute(strict, no_options()).await.unwrap();
    // Player 2 finished only the games shared with player 1 (at most 2 of 6); player 5 none.
    let finished_by_2 =
        model(&app, 1).await.finished_games_since(player(2).into(), chrono::DateTime::UNIX_EPOCH);
    assert!(finished_by_2 < 5, "{finished_by_2}");
    let refused = app.execute(subscribe(2, 2), no_options()).await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::Conflict);
    assert!(
        refused.to_string().contains(&format!("{finished_by_2} games finished")),
        "the refusal names the exact count: {refused}"
    );
    let refused = app.execute(subscribe(2, 5), no_options()).await.unwrap_err();
    assert!(refused.to_string().contains("0 games finished"), "{refused}");
    // Player 1 finished all 6 games: active.
    app.execute(subscribe(2, 1), no_options()).await.unwrap();
    // A league without the rule takes player 5.
    app.execute(create(3, 2, 4, 1), no_options()).await.unwrap();
    app.execute(subscribe(3, 5), no_options()).await.unwrap();
    // Leave league 2 and join it again.
    let leave =
        Unsubscribe { actor: Actor::Admin, league_id: league(2).into(), player_id: player(1) };
    app.execute(leave, no_options()).await.unwrap();
    app.execute(subscribe(2, 1), no_options()).await.unwrap();
    let reopened = App::open(&db.url).await.unwrap();
    for app in [&app, &reopened] {
        assert_eq!(app.catalog().leagues_joined(player(1).into()), [league(1), league(2)]);
        assert_eq!(app.catalog().leagues_of(player(1).into()), vec![league(1), league(2)]);
    }
}

/// An event the read side cannot fold stops the follower loudly: the failure is reported
/// (health turns not ready), later commands fail instead of waiting on a skipped event, and
/// a fresh instance refuses to start on that log.
async fn an_undecodable_event_stops_the_follower(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    register_players(&app, 1).await;
    assert_eq!(app.failure(), None);
    let stream = league_store::StreamId::new("league-not-a-domain-stream").unwrap();
    let bogus = league_store::NewEvent::new("NoSuchEvent", 1, serde_json::json!({}));
    let outcome = app
        .store()
        .append(&stream, league_store::ExpectedVersion::Any, vec![bogus], Default::default())
        .await
        .unwrap();
    let failure = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            if let Some(failure) = app.failure() {
                return failure;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the follower reports the failure");
    assert!(failure.contains(&format!("position {}", outcome.last_position)), "{failure}");
    assert!(app.applied_position() < outcome.last_position, "nothing past it is applied");
    let refused = app.execute(register(2), no_options()).await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::Internal);
    assert!(App::open(&db.url).await.is_err(), "a fresh instance does not skip it either");
}

league_testkit::on_both_databases!(
    full_life_cycle,
    concurrent_subscribers_fill_exactly,
    idempotent_retry_returns_the_original_answer,
    refused_commands_append_nothing,
    as_of_equals_a_replay_cut,
    two_instances_serve_the_same_standings,
    a_kept_aggregate_catches_up_with_another_instance,
    a_kept_tournament_read_shows_another_instances_events,
    reopening_loads_the_same_model,
    active_players_and_rejoining,
    an_undecodable_event_stops_the_follower,
);
