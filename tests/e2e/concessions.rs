//! Concessions recorded before they were scored as solos (`docs/scoring.md#draws-and-concessions`),
//! on SQLite and PostgreSQL: a log whose results an older build wrote (schema version 1,
//! appended to the store directly) replays — `league replay`, the application's standings —
//! to the scores of the earlier rule, a draw of one; `league verify` passes; a concession
//! reported now is scored as a solo; and `league rescore --concessions solo` shows what the
//! current rule would make of every result.

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
fn result(seats: &[Uuid], conceded: bool) -> GameResult {
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
        ..LeagueSettings::new("Conceded", "Diplomacy", ScoringSystem::Bangkok, 7)
    };
    run(&app, CreateLeague { actor: Actor::Admin, league_id: LEAGUE, settings }).await;
    for n in 1..=7 {
        run(&app, Subscribe { actor: Actor::Admin, league_id: LEAGUE, player_id: player(n) }).await;
    }
    let mut results = Vec::new();
    let stream = StreamId::new(league_stream_id(LEAGUE)).unwrap();
    for (number, conceded) in [(1, true), (2, true), (3, false)] {
        let result = result(&seats(&app, LEAGUE, number).await, conceded);
        let event = DomainEvent::GameFinished(GameFinished {
            league_id: LEAGUE,
            game_id: game_id(LEAGUE, number),
            result: result.clone(),
            reported_by: Actor::Admin,
        });
        let row = NewEvent::new(event.event_type(), 1, event.payload());
        let metadata = Metadata::default().with_actor("admin");
        app.store().append(&stream, ExpectedVersion::Any, vec![row], metadata).await.unwrap();
        results.push((result, ConcessionRule::DrawOfOne));
    }
    let head = app.store().head_position().await.unwrap();
    app.wait_applied(head).await.unwrap();
    let result = result(&seats(&app, LEAGUE, 4).await, true);
    let report = ReportResult {
        actor: Actor::Admin,
        league_id: LEAGUE,
        game_id: game_id(LEAGUE, 4),
        result: result.clone(),
    };
    run(&app, report).await;
    results.push((result, ConcessionRule::Solo));
    results
}

/// Each player's Bangkok total over `results`, every concession scored under its own rule,
/// or under `every` when given.
fn totals(
    results: &[(GameResult, ConcessionRule)],
    every: Option<ConcessionRule>,
) -> BTreeMap<String, f64> {
    let mut totals = BTreeMap::new();
    for (result, rule) in results {
        let mut result = result.clone();
        result.set_concession_rule(every.unwrap_or(*rule));
        for row in score_game(ScoringSystem::Bangkok, &result).unwrap().players {
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
    assert_eq!(finished.iter().map(|e| e.schema_version).collect::<Vec<_>>(), [1, 1, 1, 2]);
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

league_testkit::on_both_databases!(
    results_of_an_older_build_keep_their_scores,
    rescore_shows_what_the_current_rule_changes,
    the_graphql_what_if_scores_concessions_as_solos,
);
