//! `league replay`, `league audit` and `league rescore` against databases built through the
//! application service (`league_app`), on SQLite and PostgreSQL.

use std::process::{Command, Output};

use league_app::{App, CommandOptions};
use league_domain::{
    Actor, CorrectResult, CreateLeague, LeagueSettings, PlayerId, RegisterPlayer, ReportResult,
    Subscribe, game_id,
};
use league_projections::{AsOf, fold_until, load_model};
use league_scoring::{DiplomacyEntry, GameResult, ScoringSystem, score_game};
use league_testkit::TestDatabase;
use league_testkit::fixtures::{placement, player};
use serde_json::Value;
use uuid::Uuid;

const PLACEMENT: Uuid = Uuid::from_u128(0x0193_6000_0000_7000_8000_0000_0000_0001);
const DIPLOMACY: Uuid = Uuid::from_u128(0x0193_6000_0000_7000_8000_0000_0000_0002);

pub(crate) fn league(binary_args: &[&str], db: &TestDatabase) -> Output {
    Command::new(env!("CARGO_BIN_EXE_league"))
        .args(binary_args)
        .args(["--database", &db.url])
        .env("RUST_LOG", "error")
        .output()
        .expect("run the league binary")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Bad input: exit 2, one line on stderr, nothing on stdout.
fn assert_bad_input(output: &Output, mentions: &str) {
    assert_eq!(output.status.code(), Some(2), "stderr: {}", stderr(output));
    assert!(output.stdout.is_empty(), "stdout: {}", stdout(output));
    let message = stderr(output);
    assert_eq!(message.trim_end().lines().count(), 1, "one line: {message}");
    assert!(message.contains(mentions), "{message:?} should mention {mentions:?}");
}

pub(crate) async fn run(app: &App, command: impl Into<league_app::AppCommand>) -> u64 {
    app.execute(command, CommandOptions::default()).await.expect("command accepted").last_position
}

pub(crate) async fn seats(app: &App, league: Uuid, number: u32) -> Vec<PlayerId> {
    let model = app.league(league).await.unwrap().unwrap();
    model
        .game(game_id(league.into(), number).into())
        .unwrap()
        .seats
        .iter()
        .map(|s| s.player.into())
        .collect()
}

/// A placement league (k = 2, 4 players, 4 games: 3 finished, one corrected) and a
/// Diplomacy league scored with Baf (7 players, 7 games, all finished).
pub(crate) async fn build(db: &TestDatabase) -> App {
    let app = App::open(&db.url).await.unwrap();
    for n in 1..=7 {
        let name = format!("Player {n}");
        let register = RegisterPlayer {
            actor: Actor::Admin,
            player_id: player(n),
            name,
            token_hash: format!("hash-{n}"),
        };
        run(&app, register).await;
    }
    let create = |league_id, system, k, size| CreateLeague {
        actor: Actor::Admin,
        league_id,
        settings: LeagueSettings {
            size,
            games_per_seat: 1,
            ..LeagueSettings::new(format!("{system} league"), "Test game", system, k)
        },
    };
    run(&app, create(PLACEMENT.into(), ScoringSystem::Placement, 2, 4)).await;
    run(&app, create(DIPLOMACY.into(), ScoringSystem::Baf, 7, 7)).await;
    for n in 1..=4 {
        let subscribe =
            Subscribe { actor: Actor::Admin, league_id: PLACEMENT.into(), player_id: player(n) };
        run(&app, subscribe).await;
    }
    for n in 1..=7 {
        let subscribe =
            Subscribe { actor: Actor::Admin, league_id: DIPLOMACY.into(), player_id: player(n) };
        run(&app, subscribe).await;
    }
    for number in 1..=3 {
        let result = placement(&seats(&app, PLACEMENT, number).await, &[5.0, 2.0]);
        let report = ReportResult {
            actor: Actor::Admin,
            league_id: PLACEMENT.into(),
            game_id: game_id(PLACEMENT.into(), number),
            result,
        };
        run(&app, report).await;
    }
    let result = placement(&seats(&app, PLACEMENT, 2).await, &[1.0, 2.0]);
    let correction = CorrectResult {
        actor: Actor::Admin,
        league_id: PLACEMENT.into(),
        game_id: game_id(PLACEMENT.into(), 2),
        result,
        reason: "sheet read upside down".into(),
    };
    run(&app, correction).await;
    let centres = [10, 8, 6, 5, 3, 2, 0];
    for number in 1..=7 {
        // Player n always ends with centres[n - 1], whatever the seat.
        let entries = seats(&app, DIPLOMACY, number)
            .await
            .iter()
            .map(|p| (p, centres[(p.uuid().as_u128() - player(1).uuid().as_u128()) as usize]))
            .map(|(p, centres)| DiplomacyEntry {
                eliminated: centres == 0,
                ..DiplomacyEntry::new(p.to_string(), centres)
            })
            .collect();
        let report = ReportResult {
            actor: Actor::Admin,
            league_id: DIPLOMACY.into(),
            game_id: game_id(DIPLOMACY.into(), number),
            result: GameResult::Diplomacy(entries),
        };
        run(&app, report).await;
    }
    let head = app.store().head_position().await.unwrap();
    app.wait_applied(head).await.unwrap();
    app
}

/// `league replay` folds the whole log and verifies its chain, writing nothing, and with
/// a bound prints the standings that a fold of the log cut there gives.
async fn replay_rebuilds_and_travels_in_time(db: TestDatabase) {
    let app = build(&db).await;
    let log = app.store().read_all(1, u64::MAX).await.unwrap();

    let rebuilt = league(&["replay"], &db);
    assert!(rebuilt.status.success(), "stderr: {}", stderr(&rebuilt));
    assert!(
        stderr(&rebuilt).contains(&format!("replayed {} events", log.len())),
        "{}",
        stderr(&rebuilt)
    );
    assert!(stderr(&rebuilt).contains("events/s"));
    assert!(stderr(&rebuilt).contains("hash chain intact"), "{}", stderr(&rebuilt));
    assert_eq!(app.store().read_all(1, u64::MAX).await.unwrap(), log, "the log is untouched");

    // Just before the correction (the correction is the event that names its reason).
    let correction = log.iter().find(|e| e.event_type == "GameResultCorrected").unwrap().position;
    for cut in [correction - 1, correction, log.len() as u64] {
        let output = league(
            &["replay", "--league", &PLACEMENT.to_string(), "--to-position", &cut.to_string()],
            &db,
        );
        assert!(output.status.success(), "stderr: {}", stderr(&output));
        let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(json["position"], cut);
        let expected = fold_until(&log, AsOf::Position(cut)).unwrap().standings(PLACEMENT);
        let printed = json["leagues"][0]["standings"].as_array().unwrap();
        assert_eq!(printed.len(), expected.len());
        for (row, want) in printed.iter().zip(&expected) {
            assert_eq!(row["player"], want.player.to_string());
            assert_eq!(row["total"].as_f64(), Some(want.total));
            assert_eq!(row["rank"], want.rank);
            assert_eq!(row["played"], want.played);
        }
    }
    // --at the commit time of an event: every league as of then.
    let event = &log[log.len() / 2];
    let at = event.recorded_at.to_rfc3339();
    let output = league(&["replay", "--at", &at], &db);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let expected = fold_until(&log, AsOf::Time(event.recorded_at)).unwrap();
    assert_eq!(json["position"], expected.position());
    assert_eq!(json["leagues"].as_array().unwrap().len(), expected.leagues().count());
}

/// Bad input is refused with exit 2 and one line, and changes nothing.
async fn replay_refuses_bad_input(db: TestDatabase) {
    let app = build(&db).await;
    let head = app.store().head_position().await.unwrap();
    assert_bad_input(&league(&["replay", "--league", "not-a-uuid"], &db), "--league");
    assert_bad_input(&league(&["replay", "--to-position", "-3"], &db), "--to-position");
    assert_bad_input(&league(&["replay", "--at", "yesterday"], &db), "--at");
    let unknown = Uuid::from_u128(99).to_string();
    assert_bad_input(
        &league(&["replay", "--league", &unknown, "--to-position", "5"], &db),
        "no league",
    );
    assert_bad_input(&league(&["audit", "--league", &unknown], &db), "no league");
    assert_bad_input(&league(&["audit", "--league", "x"], &db), "--league");
    let placement = PLACEMENT.to_string();
    assert_bad_input(
        &league(&["audit", "--league", &placement, "--player", &player(7).to_string()], &db),
        "--player",
    );
    assert_bad_input(
        &league(&["rescore", "--league", &placement, "--system", "chess"], &db),
        "--system",
    );
    assert_eq!(app.store().head_position().await.unwrap(), head);
}

/// `league audit` shows each result with its system and explanation, and corrections with
/// their reasons; `--player` keeps one player's lines.
async fn audit_explains_every_score(db: TestDatabase) {
    let app = build(&db).await;
    let output = league(&["audit", "--league", &PLACEMENT.to_string()], &db);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.matches("GameFinished").count(), 3, "{text}");
    assert!(text.contains("GameResultCorrected"));
    assert!(text.contains("reason: \"sheet read upside down\""), "{text}");
    assert!(text.contains("scoring system: placement"));
    assert!(text.contains("Player 1"));
    // The scoring crate's own explanation lines are quoted.
    let seats = seats(&app, PLACEMENT, 1).await;
    let scored = score_game(ScoringSystem::Placement, &placement(&seats, &[5.0, 2.0])).unwrap();
    for line in &scored.players[0].explanation {
        assert!(text.contains(line.as_str()), "missing explanation {line:?} in\n{text}");
    }
    // The corrected game's winner lost 2 points (2 → 0 for k = 2).
    let corrected = seats_of(&app, 2).await;
    assert!(text.contains(&format!("{} [", name(corrected[0]))));
    assert!(text.contains("2 -> 0 (-2)"), "{text}");

    let only = corrected[0];
    let output =
        league(&["audit", "--league", &PLACEMENT.to_string(), "--player", &only.to_string()], &db);
    assert!(output.status.success());
    let text = stdout(&output);
    let others: Vec<PlayerId> = (1..=4).map(player).filter(|p| *p != only).collect();
    for other in others {
        assert!(!text.contains(&format!("{} [", name(other))), "{text}");
    }
}

async fn seats_of(app: &App, number: u32) -> Vec<PlayerId> {
    seats(app, PLACEMENT, number).await
}

fn name(player_id: PlayerId) -> String {
    let n = player_id.uuid().as_u128() - player(0).uuid().as_u128();
    format!("Player {n} ({player_id})")
}

/// `league rescore` prints what-if standings under another compatible system (here Baf
/// results rescored with Squares) and appends nothing; an incompatible system is exit 2.
async fn rescore_is_a_what_if(db: TestDatabase) {
    let app = build(&db).await;
    let head = app.store().head_position().await.unwrap();
    let output =
        league(&["rescore", "--league", &DIPLOMACY.to_string(), "--system", "squares"], &db);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["system"], "squares");
    assert_eq!(json["leagueSystem"], "baf");
    let rows = json["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    // Every game is scored again under Squares: the totals are the sum of Squares scores.
    let model = load_model(app.store(), None, |_| {}).await.unwrap();
    let mut expected_sum = 0.0;
    for game in model.games_of(DIPLOMACY) {
        let scored = score_game(ScoringSystem::Squares, game.result.as_ref().unwrap()).unwrap();
        expected_sum += scored.players.iter().map(|p| p.score).sum::<f64>();
    }
    let printed_sum: f64 = rows.iter().map(|row| row["total"].as_f64().unwrap()).sum();
    assert!((printed_sum - expected_sum).abs() < 1e-6, "{printed_sum} vs {expected_sum}");
    let baf = model.standings(DIPLOMACY);
    let differs = rows.iter().any(|row| {
        let player = row["player"].as_str().unwrap();
        let own = baf.iter().find(|b| b.player.to_string() == player).unwrap();
        (own.total - row["total"].as_f64().unwrap()).abs() > 1e-6
    });
    assert!(differs, "a what-if under another system gives other totals");
    assert!(rows.iter().all(|row| row["rankUnderLeagueSystem"].is_u64()));

    assert_bad_input(
        &league(&["rescore", "--league", &DIPLOMACY.to_string(), "--system", "bluemax"], &db),
        "bluemax",
    );
    assert_bad_input(
        &league(&["rescore", "--league", &PLACEMENT.to_string(), "--system", "baf"], &db),
        "baf",
    );
    assert_eq!(app.store().head_position().await.unwrap(), head, "rescore appends nothing");
}

league_testkit::on_both_databases!(
    replay_rebuilds_and_travels_in_time,
    replay_refuses_bad_input,
    audit_explains_every_score,
    rescore_is_a_what_if,
);
