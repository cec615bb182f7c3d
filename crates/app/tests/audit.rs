//! The audit use cases of the application, on SQLite and PostgreSQL: every event of a
//! league with each score change explained, the explanation of one change, and what-if
//! standings under another scoring system (built on the domain's `League::standings_under`).

mod common;

use common::*;
use league_app::{App, AppError, AsOf, ErrorCode};
use league_domain::LeagueEvent;
use league_domain::{Actor, DomainEvent, ReportResult, game_id};
use league_projections::{ScoreChange, fold_until};
use league_scoring::{DiplomacyEntry, GameResult, ScoringSystem, score_game};
use league_testkit::TestDatabase;

/// A placement league (k = 2, 4 players, 4 games) with games 1..=3 reported and game 2
/// corrected.
async fn placement_league(db: &TestDatabase) -> App {
    let app = App::open(&db.url).await.unwrap();
    three_reported_one_corrected(&app, &[5.0, 2.0], "swapped").await;
    app
}

/// A Diplomacy result for the seats: seat i on `CENTRES[(i + turn) % 7]` centres.
fn diplomacy(seats: &[league_domain::PlayerId], turn: usize) -> GameResult {
    const CENTRES: [u32; 7] = [12, 8, 6, 4, 2, 1, 1];
    GameResult::Diplomacy(
        seats
            .iter()
            .enumerate()
            .map(|(i, p)| DiplomacyEntry::new(p.to_string(), CENTRES[(i + turn) % 7]))
            .collect(),
    )
}

/// A Baf league (k = 7, 7 players, one game per seat: 7 games) with games 1..=3 reported.
async fn baf_league(db: &TestDatabase) -> App {
    let app = App::open(&db.url).await.unwrap();
    register_players(&app, 7).await;
    let mut create = create(2, 7, 7, 1);
    create.settings.scoring_system = ScoringSystem::Baf;
    create.settings.game = "Diplomacy".into();
    app.execute(create, no_options()).await.unwrap();
    for n in 1..=7 {
        app.execute(subscribe(2, n), no_options()).await.unwrap();
    }
    for number in 1..=3 {
        let seats = seats(&app, 2, number).await;
        let report = ReportResult {
            actor: Actor::Admin,
            league_id: league(2).into(),
            game_id: game_id(league(2).into(), number),
            result: diplomacy(&seats, number as usize),
        };
        app.execute(report, no_options()).await.unwrap();
    }
    app
}

/// The audit lists every event of the league's stream in order; each result and
/// correction carries every seated player's score, previous score, total and the scoring
/// crate's explanation lines.
async fn audit_explains_every_score_change(db: TestDatabase) {
    let app = placement_league(&db).await;
    let entries = app.audit(league(1)).await.unwrap();
    let model = model(&app, 1).await;
    let view = model.league(league(1)).unwrap();
    assert_eq!(entries.len() as u64, view.stream_version);
    assert!(entries.windows(2).all(|w| w[0].event.position < w[1].event.position));
    let results: Vec<_> = entries.iter().filter_map(|entry| entry.result.as_ref()).collect();
    assert_eq!(results.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 2, 3, 2]);
    let correction = results[3];
    assert_eq!(correction.reason.as_deref(), Some("swapped"));
    let seats = seats(&app, 1, 2).await;
    let scored = score_game(ScoringSystem::Placement, &placement(&seats, &[1.0, 2.0])).unwrap();
    for (seat, audit) in seats.iter().zip(&correction.players) {
        assert_eq!(audit.player, seat.uuid());
        let row = scored.players.iter().find(|row| row.player == seat.to_string()).unwrap();
        assert_eq!(audit.score, row.score);
        assert_eq!(audit.explanation, row.explanation);
        assert!(!audit.explanation.is_empty());
        let history: Vec<ScoreChange> = model.score_history(league(1), (*seat).into());
        assert_eq!(audit.total, history.last().unwrap().total);
    }
    // The first seat won game 2 as first reported (2 points for k = 2), then lost it.
    assert_eq!((correction.players[0].before, correction.players[0].score), (Some(2.0), 0.0));
    assert_eq!(results[0].players[0].before, None);
    assert!(matches!(entries[0].decoded, DomainEvent::League(LeagueEvent::LeagueCreated(_))));
}

/// The audit of a league that does not exist is `NOT_FOUND`.
async fn audit_of_an_unknown_league_is_not_found(db: TestDatabase) {
    let app = placement_league(&db).await;
    assert!(matches!(app.audit(league(9)).await, Err(AppError::NotFound(_))));
}

/// The explanation of a score change is the scoring crate's explanation of the player's
/// score in the result that made the change (the corrected one for a correction).
async fn score_explanation_follows_the_change(db: TestDatabase) {
    let app = placement_league(&db).await;
    let seats = seats(&app, 1, 2).await;
    let history = model(&app, 1).await.score_history(league(1), seats[1].into());
    let correction = history.last().unwrap();
    assert_eq!(correction.reason.as_deref(), Some("swapped"));
    let lines =
        app.score_explanation(league(1), correction.position, seats[1].into()).await.unwrap();
    let scored = score_game(ScoringSystem::Placement, &placement(&seats, &[1.0, 2.0])).unwrap();
    assert_eq!(lines, scored.players[1].explanation);
    let first = history.iter().find(|change| change.game == correction.game).unwrap();
    let lines = app.score_explanation(league(1), first.position, seats[1].into()).await.unwrap();
    let scored = score_game(ScoringSystem::Placement, &placement(&seats, &[5.0, 2.0])).unwrap();
    assert_eq!(lines, scored.players[1].explanation);
    assert_ne!(
        lines,
        app.score_explanation(league(1), correction.position, seats[1].into()).await.unwrap()
    );
}

/// What-if standings under the league's own system are its standings (the domain's
/// ranking and the read model's agree), now and as of every position.
async fn standings_under_the_own_system_are_the_standings(db: TestDatabase) {
    let app = placement_league(&db).await;
    let log = app.store().read_all(1, u64::MAX).await.unwrap();
    for cut in 0..=log.len() as u64 {
        let expected = fold_until(&log, AsOf::Position(cut)).unwrap().standings(league(1));
        let under = app
            .standings_under(league(1), ScoringSystem::Placement, Some(AsOf::Position(cut)))
            .await
            .unwrap();
        assert_eq!(under, expected, "as of {cut}");
    }
}

/// Baf results rescored under Squares: the totals are the Squares scores of the same games,
/// and the league's own standings are unchanged.
async fn standings_under_another_system_rescore_every_result(db: TestDatabase) {
    let app = baf_league(&db).await;
    let before = app.store().head_position().await.unwrap();
    let rows = app.standings_under(league(2), ScoringSystem::Squares, None).await.unwrap();
    assert_eq!(rows.len(), 7);
    let model = model(&app, 2).await;
    for row in &rows {
        let mut total = 0.0;
        for game in model.games_of(league(2)) {
            let Some(result) = &game.result else { continue };
            let scored = score_game(ScoringSystem::Squares, result).unwrap();
            let key = row.player.to_string();
            total += scored.players.iter().find(|p| p.player == key).map_or(0.0, |p| p.score);
        }
        // Totals are kept in exact thousandths of a point (`docs/scoring.md`).
        assert!((row.total - total).abs() < 0.01, "{}: {} vs {total}", row.player, row.total);
    }
    assert_ne!(
        rows.iter().map(|r| r.total).collect::<Vec<_>>(),
        model.standings(league(2)).iter().map(|r| r.total).collect::<Vec<_>>()
    );
    assert_eq!(app.store().head_position().await.unwrap(), before, "a what-if appends nothing");
}

/// A system that cannot score the league is invalid input on `system`.
async fn an_incompatible_system_is_invalid_input_on_system(db: TestDatabase) {
    let app = baf_league(&db).await;
    for system in [ScoringSystem::BlueMax, ScoringSystem::Placement] {
        let error = app.standings_under(league(2), system, None).await.unwrap_err();
        assert_eq!(error.code(), ErrorCode::BadUserInput { field: "system".into() }, "{system}");
    }
    let error = app.standings_under(league(9), ScoringSystem::Baf, None).await.unwrap_err();
    assert_eq!(error.code(), ErrorCode::NotFound);
}

league_testkit::on_both_databases!(
    audit_explains_every_score_change,
    audit_of_an_unknown_league_is_not_found,
    score_explanation_follows_the_change,
    standings_under_the_own_system_are_the_standings,
    standings_under_another_system_rescore_every_result,
    an_incompatible_system_is_invalid_input_on_system,
);
