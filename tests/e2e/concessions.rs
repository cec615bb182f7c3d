//! Concessions recorded before they were scored as solos (`docs/scoring.md#draws-and-concessions`),
//! on SQLite and PostgreSQL: a log whose results an older build wrote (schema version 1,
//! appended to the store directly) replays — `league replay`, the application's standings —
//! to the scores of the earlier rule, a draw of one; those a later build wrote (version 2)
//! keep their solos where a system now scores a concession from the centres; `league verify`
//! passes; a concession reported now is scored as its system's rule says; and `league rescore
//! --concessions solo` shows what a solo would make of every concession.

use league_domain::LeagueEvent;
use std::collections::BTreeMap;

use league_app::{App, WhatIf};
use league_domain::{
    Actor, CreateLeague, DomainEvent, GameFinished, LeagueSettings, RegisterPlayer, ReportResult,
    Subscribe, game_id, league_stream_id,
};
use league_scoring::{ConcessionRule, DiplomacyEntry, GameResult, ScoringSystem, score_game};
use league_store::{ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::TestDatabase;
use league_testkit::fixtures::player;
use serde_json::Value;
use uuid::Uuid;

use crate::replay::{league, run, seats, stderr, stdout};

const LEAGUE: Uuid = Uuid::from_u128(0x0193_6000_0000_7000_8000_0000_0000_00c0);

/// The worked example of `docs/scoring.md#draws-and-concessions` over a game's seats: the
/// second seat holds 11 centres and, when `conceded`, is the only power in the draw (a
/// concession to it); the fourth seat was eliminated in 1909.
fn result(seats: &[league_domain::PlayerId], conceded: bool) -> GameResult {
    let centres = [2, 11, 7, 0, 4, 5, 5];
    GameResult::Diplomacy(
        seats
            .iter()
            .zip(centres)
            .enumerate()
            .map(|(seat, (player, centres))| DiplomacyEntry {
                eliminated: centres == 0,
                eliminated_year: (centres == 0).then_some(1909),
                in_draw: conceded && seat == 1,
                ..DiplomacyEntry::new(player.to_string(), centres)
            })
            .collect(),
    )
}

/// A Bangkok league of seven (seven games) with games 1 and 2 conceded and game 3 drawn,
/// all three recorded by an older build (version 1 rows appended to the store as it wrote
/// them), then game 4 conceded and reported now. Returns each stored result with the rule
/// it is scored under.
async fn older_log(db: &TestDatabase) -> Vec<(GameResult, ConcessionRule)> {
    let stored = [(1, true, 1), (2, true, 1), (3, false, 1)];
    log_of(db, LEAGUE, ScoringSystem::Bangkok, &stored, 4).await
}

/// A league of seven scored by `system` whose games `stored` (number, conceded, schema
/// version) an older build wrote (rows appended to the store as it wrote them), then game
/// `reported` conceded and reported now. Returns each result with the rule it is scored under.
async fn log_of(
    db: &TestDatabase,
    league_id: Uuid,
    system: ScoringSystem,
    stored: &[(u32, bool, i32)],
    reported: u32,
) -> Vec<(GameResult, ConcessionRule)> {
    let app = App::open(&db.url).await.unwrap();
    for n in 1..=7 {
        let name = format!("Player {n}");
        let token_hash = format!("hash-{n}");
        run(&app, RegisterPlayer { actor: Actor::Admin, player_id: player(n), name, token_hash })
            .await;
    }
    let settings = LeagueSettings {
        size: 7,
        games_per_seat: 1,
        ..LeagueSettings::new("Conceded", "Diplomacy", system, 7)
    };
    run(&app, CreateLeague { actor: Actor::Admin, league_id: league_id.into(), settings }).await;
    for n in 1..=7 {
        run(
            &app,
            Subscribe { actor: Actor::Admin, league_id: league_id.into(), player_id: player(n) },
        )
        .await;
    }
    let mut results = Vec::new();
    let stream = StreamId::new(league_stream_id(league_id.into())).unwrap();
    for &(number, conceded, version) in stored {
        let result = result(&seats(&app, league_id, number).await, conceded);
        let event = DomainEvent::League(LeagueEvent::GameFinished(GameFinished {
            league_id: league_id.into(),
            game_id: game_id(league_id.into(), number),
            result: result.clone(),
            reported_by: Actor::Admin,
        }));
        let row = NewEvent::new(event.event_type(), version, event.payload());
        let metadata = Metadata::default().with_actor("admin");
        app.store().append(&stream, ExpectedVersion::Any, vec![row], metadata).await.unwrap();
        let rule = if version == 1 { ConcessionRule::DrawOfOne } else { ConcessionRule::Solo };
        results.push((result, rule));
    }
    let head = app.store().head_position().await.unwrap();
    app.wait_applied(head).await.unwrap();
    let mut result = result(&seats(&app, league_id, reported).await, true);
    if let GameResult::Diplomacy(entries) = &mut result {
        // The game ended in 1910, which the systems paying by years need.
        entries[1].solo_year = Some(1910);
    }
    let report = ReportResult {
        actor: Actor::Admin,
        league_id: league_id.into(),
        game_id: game_id(league_id.into(), reported),
        result: result.clone(),
    };
    run(&app, report).await;
    results.push((result, ConcessionRule::PerSystem));
    results
}

/// Each player's Bangkok total over `results`, every concession scored under its own rule,
/// or under `every` when given.
fn totals(
    results: &[(GameResult, ConcessionRule)],
    every: Option<ConcessionRule>,
) -> BTreeMap<String, f64> {
    totals_under(ScoringSystem::Bangkok, results, every)
}

/// Each player's total under `system`, as [`totals`].
fn totals_under(
    system: ScoringSystem,
    results: &[(GameResult, ConcessionRule)],
    every: Option<ConcessionRule>,
) -> BTreeMap<String, f64> {
    let mut totals = BTreeMap::new();
    for (result, rule) in results {
        let mut result = result.clone();
        result.set_concession_rule(every.unwrap_or(*rule));
        for row in score_game(system, &result).unwrap().players {
            *totals.entry(row.player).or_insert(0.0) += row.score;
        }
    }
    totals
}

/// `player → total` of printed standings rows.
fn printed(rows: &Value) -> BTreeMap<String, f64> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|row| (row["player"].as_str().unwrap().to_owned(), row["total"].as_f64().unwrap()))
        .collect()
}

fn assert_same_totals(got: &BTreeMap<String, f64>, want: &BTreeMap<String, f64>) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (player, total) in want {
        assert!((got[player] - total).abs() < 1e-9, "{player}: {} vs {total}", got[player]);
    }
}

/// A log with version-1 concessions replays to the earlier rule's scores, in the binary and
/// in the application; its chain verifies; the stored payloads carry no marker.
async fn results_of_an_older_build_keep_their_scores(db: TestDatabase) {
    let results = older_log(&db).await;
    let recorded = totals(&results, None);
    assert_ne!(recorded, totals(&results, Some(ConcessionRule::Solo)), "the rules differ here");

    let verified = league(&["verify"], &db);
    assert!(verified.status.success(), "stderr: {}", stderr(&verified));

    let replayed = league(&["replay", "--league", &LEAGUE.to_string()], &db);
    assert!(replayed.status.success(), "stderr: {}", stderr(&replayed));
    let json: Value = serde_json::from_str(&stdout(&replayed)).unwrap();
    assert_same_totals(&printed(&json["leagues"][0]["standings"]), &recorded);

    let app = App::open(&db.url).await.unwrap();
    let standings = app.league(LEAGUE).await.unwrap().unwrap().standings(LEAGUE);
    let in_app = standings.iter().map(|row| (row.player.to_string(), row.total)).collect();
    assert_same_totals(&in_app, &recorded);

    // The audit view is the stored payload: version 1 rows as written, without the marker.
    let events = app.events(Some(LEAGUE), None, 100).await.unwrap();
    let finished: Vec<_> = events.iter().filter(|e| e.event_type == "GameFinished").collect();
    assert_eq!(finished.iter().map(|e| e.schema_version).collect::<Vec<_>>(), [1, 1, 1, 3]);
    assert!(finished.iter().all(|e| !e.payload.to_string().contains("concessionAsDraw")));
}

/// `league rescore --concessions solo` scores every concession as a solo, beside the
/// recorded standings; the application use case gives the same; nothing is appended.
async fn rescore_shows_what_the_current_rule_changes(db: TestDatabase) {
    let results = older_log(&db).await;
    let app = App::open(&db.url).await.unwrap();
    let head = app.store().head_position().await.unwrap();

    let output =
        league(&["rescore", "--league", &LEAGUE.to_string(), "--concessions", "solo"], &db);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["system"], "bangkok");
    assert_eq!(json["leagueSystem"], "bangkok");
    assert_eq!(json["concessions"], "solo");
    let solo = totals(&results, Some(ConcessionRule::Solo));
    assert_same_totals(&printed(&json["standings"]), &solo);
    let recorded: BTreeMap<String, f64> = json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let player = row["player"].as_str().unwrap().to_owned();
            (player, row["totalUnderLeagueSystem"].as_f64().unwrap())
        })
        .collect();
    assert_same_totals(&recorded, &totals(&results, None));

    let what_if = WhatIf { concessions: Some(ConcessionRule::Solo), ..WhatIf::default() };
    let rows = app.standings_if(LEAGUE, what_if, None).await.unwrap();
    let in_app = rows.iter().map(|row| (row.player.to_string(), row.total)).collect();
    assert_same_totals(&in_app, &solo);

    // With another system too: Squares scores every concession as a solo as well.
    let output = league(
        &[
            "rescore",
            "--league",
            &LEAGUE.to_string(),
            "--concessions",
            "solo",
            "--system",
            "Sum of Squares",
        ],
        &db,
    );
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        (&json["system"], &json["concessions"]),
        (&Value::from("squares"), &Value::from("solo"))
    );

    let unknown_rule =
        league(&["rescore", "--league", &LEAGUE.to_string(), "--concessions", "maybe"], &db);
    assert_eq!(unknown_rule.status.code(), Some(2), "stderr: {}", stderr(&unknown_rule));
    assert!(unknown_rule.stdout.is_empty());
    assert_eq!(app.store().head_position().await.unwrap(), head, "rescore appends nothing");
}

/// GraphQL's what-if: `standings(concessionsAsSolos: true)` scores every concession as a
/// solo; without it the standings are as recorded; nothing is appended.
async fn the_graphql_what_if_scores_concessions_as_solos(db: TestDatabase) {
    let results = older_log(&db).await;
    let server = crate::support::spawn_app(&db.url).await;
    let head = server.app().store().head_position().await.unwrap();
    let query = "query($league: ID!, $solos: Boolean) {
                   standings(leagueId: $league, concessionsAsSolos: $solos) { player { id } total }
                 }";
    let totals_of = |data: Value| -> BTreeMap<String, f64> {
        data["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let player = row["player"]["id"].as_str().unwrap().to_owned();
                (player, row["total"].as_f64().unwrap())
            })
            .collect()
    };
    for (solos, rule) in [(Some(true), Some(ConcessionRule::Solo)), (None, None)] {
        let variables = serde_json::json!({"league": LEAGUE.to_string(), "solos": solos});
        let data = server.data(None, query, variables).await;
        assert_same_totals(&totals_of(data), &totals(&results, rule));
    }
    assert_eq!(server.app().store().head_position().await.unwrap(), head, "appends nothing");
}

/// A C-Diplo 100 league: a concession stored by the build that scored every concession as a
/// solo (version 2) keeps England's 100, one stored before that (version 1) its draw of one,
/// and one reported now is scored from the centres (England 50), in the application, in
/// `league replay` and with `league verify` passing; the what-if scores them all as solos.
async fn each_system_rule_applies_to_new_results_only(db: TestDatabase) {
    const CDIPLO: Uuid = Uuid::from_u128(0x0193_6000_0000_7000_8000_0000_0000_00c1);
    let system = ScoringSystem::CDiplo100;
    let results = log_of(&db, CDIPLO, system, &[(1, true, 2), (2, true, 1)], 3).await;
    // The conceded-to seat of each game: 100 for the version 2 game, 50 for the new one.
    let england = |index: usize| {
        let (result, rule) = &results[index];
        let mut result = result.clone();
        result.set_concession_rule(*rule);
        score_game(system, &result).unwrap().players[1].score
    };
    assert_eq!([england(0), england(1), england(2)], [100.0, 50.0, 50.0]);
    let recorded = totals_under(system, &results, None);

    let app = App::open(&db.url).await.unwrap();
    let standings = app.league(CDIPLO).await.unwrap().unwrap().standings(CDIPLO);
    let in_app = standings.iter().map(|row| (row.player.to_string(), row.total)).collect();
    assert_same_totals(&in_app, &recorded);
    let verified = league(&["verify"], &db);
    assert!(verified.status.success(), "stderr: {}", stderr(&verified));
    let replayed = league(&["replay", "--league", &CDIPLO.to_string()], &db);
    assert!(replayed.status.success(), "stderr: {}", stderr(&replayed));
    let json: Value = serde_json::from_str(&stdout(&replayed)).unwrap();
    assert_same_totals(&printed(&json["leagues"][0]["standings"]), &recorded);

    // The stored rows are as written: versions 2, 1 and the current 3, without a marker.
    let events = app.events(Some(CDIPLO), None, 100).await.unwrap();
    let finished: Vec<_> = events.iter().filter(|e| e.event_type == "GameFinished").collect();
    assert_eq!(finished.iter().map(|e| e.schema_version).collect::<Vec<_>>(), [2, 1, 3]);
    assert!(finished.iter().all(|e| !e.payload.to_string().contains("concessionAs")));

    // Every concession as a solo: the new one too.
    let solo = totals_under(system, &results, Some(ConcessionRule::Solo));
    assert_ne!(solo, recorded, "the rules differ here");
    let what_if = WhatIf { concessions: Some(ConcessionRule::Solo), ..WhatIf::default() };
    let rows = app.standings_if(CDIPLO, what_if, None).await.unwrap();
    let in_app = rows.iter().map(|row| (row.player.to_string(), row.total)).collect();
    assert_same_totals(&in_app, &solo);
}

league_testkit::on_both_databases!(
    each_system_rule_applies_to_new_results_only,
    results_of_an_older_build_keep_their_scores,
    rescore_shows_what_the_current_rule_changes,
    the_graphql_what_if_scores_concessions_as_solos,
);
