//! Concessions (`docs/scoring.md#draws-and-concessions`): a game every other power conceded to
//! one is scored as each system's published rule, else dipvis's code, says — that power's solo,
//! or from the centres — while a result marked to be scored under an earlier rule (a concession
//! is a draw of one; a concession is a solo in every system but Baf and Detour 98f) keeps its
//! old scores; the markers' JSON, their validation, and the standings counting a concession as
//! a win.

use league_scoring::{
    ConcessionRule, ConcessionScoring, DiplomacyEntry, GameResult, Outcome, ScoringSystem,
    rank_standings, score_game,
};

mod common;
use common::{assert_close, scores};

/// The docs' concession game: Austria 2, England 11 (conceded to, the game ending in 1910),
/// France 7, Germany 0 (eliminated 1909), Italy 4, Russia 5, Turkey 5; Russia was ahead of
/// Turkey a year before (for the systems breaking ties by earlier years).
fn conceded_to_england() -> GameResult {
    let entry = |player: &str, centres: u32| DiplomacyEntry::new(player, centres);
    GameResult::Diplomacy(vec![
        entry("Austria", 2),
        DiplomacyEntry { in_draw: true, solo_year: Some(1910), ..entry("England", 11) },
        entry("France", 7),
        DiplomacyEntry { eliminated: true, eliminated_year: Some(1909), ..entry("Germany", 0) },
        entry("Italy", 4),
        DiplomacyEntry { earlier_centres: vec![5], ..entry("Russia", 5) },
        DiplomacyEntry { earlier_centres: vec![4], ..entry("Turkey", 5) },
    ])
}

/// The same game scored under the earlier rule: no `soloYear` (it was refused then) and the
/// power conceded to marked.
fn under_earlier_rule(result: &GameResult) -> GameResult {
    let mut earlier = without_solo_year(result);
    earlier.set_concession_rule(ConcessionRule::DrawOfOne);
    earlier
}

fn without_solo_year(result: &GameResult) -> GameResult {
    let GameResult::Diplomacy(entries) = result else { unreachable!() };
    GameResult::Diplomacy(
        entries.iter().map(|entry| DiplomacyEntry { solo_year: None, ..entry.clone() }).collect(),
    )
}

fn without_vote(result: &GameResult) -> GameResult {
    let GameResult::Diplomacy(entries) = result else { unreachable!() };
    GameResult::Diplomacy(
        entries
            .iter()
            .map(|entry| DiplomacyEntry {
                in_draw: false,
                concession_as_draw: false,
                concession_as_solo: false,
                ..entry.clone()
            })
            .collect(),
    )
}

#[test]
fn bangkok_scores_a_concession_as_a_solo() {
    assert_close(
        &scores(ScoringSystem::Bangkok, &conceded_to_england()),
        &[1.0, 41.0, 3.5, 0.0, 2.0, 2.5, 2.5],
    );
}

#[test]
fn the_earlier_rule_keeps_the_earlier_scores() {
    let earlier = under_earlier_rule(&conceded_to_england());
    assert_eq!(earlier.concession_rule(), ConcessionRule::DrawOfOne);
    assert_close(&scores(ScoringSystem::Bangkok, &earlier), &[5.0, 26.0, 10.0, 2.4, 7.0, 8.0, 8.0]);
    // Under the earlier rule only Draw Size read the vote: every other system scores the game
    // as if no draw had been voted, as it did before concessions were scored as solos.
    for &system in ScoringSystem::ALL.iter().filter(|system| system.is_diplomacy()) {
        if system == ScoringSystem::DrawSize {
            assert_eq!(scores(system, &earlier), [0.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        } else {
            assert_eq!(
                scores(system, &earlier),
                scores(system, &without_vote(&earlier)),
                "{system}"
            );
        }
    }
}

/// Every Diplomacy system on the concession game: Austria (a survivor), England (conceded to,
/// in 1910) and Germany (fell in 1909).
#[test]
fn every_system_scores_a_concession_as_its_rule_says() {
    use ScoringSystem as S;
    let table: &[(ScoringSystem, [f64; 3])] = &[
        (S::SoloOrBust, [0.0, 100.0, 0.0]),
        (S::DrawSize, [0.0, 100.0, 0.0]),
        (S::Bangkok, [1.0, 41.0, 0.0]),
        (S::Olympic, [0.0, 46.0, 0.0]),
        (S::CarnageDeadEqual, [0.0, 28_034.0, 0.0]),
        (S::CarnageEliminationOrder, [0.0, 28_034.0, 0.0]),
        (S::CarnageCentreCount, [1000.0, 39_028.0, 1000.0]),
        (S::Carnage2023, [0.0, 28_034.0, 0.0]),
        (S::Tribute, [0.0, 100.0, 0.0]),
        (S::Base3, [0.0, 46.0, 0.0]),
        (S::OpenTribute, [0.0, 340.0, 0.0]),
        (S::Mischief, [0.0, 34.0, 0.0]),
        (S::Omg, [0.0, 100.0, 0.0]),
        (S::Vulcan, [5.0, 130.0, 0.0]),
        (S::YourDrawSizeShort, [0.0, 300.0, 0.0]),
        (S::YourDrawSizeUnlimited, [0.0, 320.0, 0.0]),
        (S::DuctTapeV2, [0.0, 75.0, 0.0]),
        (S::DuctTapeV2EliminationOrder, [0.0, 75.0, 0.0]),
        (S::SouthernSun, [0.0, 500.0, 0.0]),
        // (25 × 11 + 700) × 1.5; Austria 6th (50 + 200) / 2; Germany 7th (100 + 9) / 2.
        (S::SydneyLeague, [125.0, 1462.5, 54.5]),
        (S::WorldClassic, [9.0, 420.0, 8.0]),
        (S::SummerClassic, [9.0, 420.0, 8.0]),
        (S::Detour09, [2.0, 110.0, 2.0]),
        (S::BangkokPike, [1.0, 60.0, 0.9]),
        (S::Haight, [10.0, 451.0, 9.0]),
        (S::ManorCon, [0.9, 75.0, 0.8]),
        (S::ManorConOriginal, [0.9, 100.0, 0.8]),
        (S::ManorConV2, [0.9, 100.0, 0.8]),
        (S::RankedClassic, [9.0, 550.0, 8.0]),
        (S::RankedClassicV2, [9.0, 550.0, 8.0]),
        (S::Squares, [0.0, 100.0, 0.0]),
    ];
    let game = conceded_to_england();
    for &(system, [austria, england, germany]) in table {
        assert_eq!(system.concession(), ConcessionScoring::AsSolo, "{system}");
        let scored = score_game(system, &game).unwrap();
        let got: Vec<f64> = [0, 1, 3].iter().map(|&i| scored.players[i].score).collect();
        assert_close(&got, &[austria, england, germany]);
        assert_eq!(scored.players[1].outcome, Outcome::Win, "{system}");
        assert_eq!(scored.players[0].outcome, Outcome::Loss, "{system}");
    }
    // Baf and Detour 98f know only 18-centre wins, and dipvis's code makes a solo only of 18
    // centres in the six systems whose rules are silent: a concession scores from the centres
    // (the whole rows are `the_six_systems_score_a_concession_from_the_centres`).
    for system in [
        S::Baf,
        S::Detour98f,
        S::CDiplo100,
        S::CDiplo80,
        S::CDiploNamur,
        S::Whipping,
        S::Maxonian,
        S::SevenEleven,
    ] {
        assert_eq!(system.concession(), ConcessionScoring::AsDraw);
        let plain = without_vote(&without_solo_year(&game));
        assert_eq!(scores(system, &game), scores(system, &plain), "{system}");
        assert_eq!(score_game(system, &game).unwrap().players[1].outcome, Outcome::Draw);
    }
    let listed: Vec<ScoringSystem> = table.iter().map(|&(system, _)| system).collect();
    for &system in ScoringSystem::ALL.iter().filter(|system| system.is_diplomacy()) {
        assert!(
            listed.contains(&system) || system.concession() == ConcessionScoring::AsDraw,
            "{system} has no concession example"
        );
    }
}

/// Each of the six systems whose rules say nothing of concessions scores the concession game
/// from the centres, as dipvis's code does (only 18 centres make its solo); under the rule of
/// results recorded before, the power conceded to scored the solo.
#[test]
fn the_six_systems_score_a_concession_from_the_centres() {
    use ScoringSystem as S;
    // Austria, England, France, Germany, Italy, Russia, Turkey: centres 2, 11, 7, 0, 4, 5, 5.
    let table: &[(ScoringSystem, [f64; 7], f64)] = &[
        // 1 for playing + centres + 38/14/7 by rank (Russia and Turkey split 3rd's 7).
        (S::CDiplo100, [3.0, 50.0, 22.0, 1.0, 5.0, 9.5, 9.5], 100.0),
        // centres + 25/14/7 by rank.
        (S::CDiplo80, [2.0, 36.0, 21.0, 0.0, 4.0, 8.5, 8.5], 80.0),
        // 1 for playing + centre points (2 → 9, 4 → 14, 5 → 16, 7 → 19, 11 → 23) + 38/14/7.
        (S::CDiploNamur, [10.0, 62.0, 34.0, 1.0, 15.0, 20.5, 20.5], 85.0),
        // Six survivors share 60; England a lone top, + 2 × 11; Germany fell in 1909: 9.
        (S::Whipping, [30.0, 142.0, 80.0, 9.0, 50.0, 60.0, 60.0], 468.0),
        // 7..1 by centres (Russia ahead of Turkey a year before); 11 centres, no bonus.
        (S::Maxonian, [2.0, 7.0, 6.0, 1.0, 3.0, 5.0, 4.0], 12.0),
        (S::SevenEleven, [2.0, 7.0, 6.0, 1.0, 3.0, 5.0, 4.0], 14.0),
    ];
    let game = conceded_to_england();
    for &(system, row, earlier_solo) in table {
        assert_eq!(system.concession(), ConcessionScoring::AsDraw, "{system}");
        assert_eq!(system.info().concession, ConcessionScoring::AsDraw, "{system}");
        assert_close(&scores(system, &game), &row);
        let scored = score_game(system, &game).unwrap();
        assert_eq!(scored.players[1].outcome, Outcome::Draw, "{system}");
        assert_eq!(scored.players[3].outcome, Outcome::Elimination, "{system}");
        // The same concession recorded under the earlier rule keeps the solo.
        let mut earlier = game.clone();
        earlier.set_concession_rule(ConcessionRule::Solo);
        assert_eq!(earlier.concession_rule(), ConcessionRule::Solo);
        let scored = score_game(system, &earlier).unwrap();
        assert_close(&[scored.players[1].score], &[earlier_solo]);
        assert_eq!(scored.players[1].outcome, Outcome::Win, "{system}");
    }
    let listed: Vec<ScoringSystem> = table.iter().map(|&(system, _, _)| system).collect();
    assert_eq!(listed, league_scoring::CONCESSION_SOLO_ONLY_UNDER_EARLIER_RULE);
}

/// As dipvis's code does, with a concession scored from the centres only the power conceded
/// to may take Maxonian's and 7Eleven's points above the threshold.
#[test]
fn with_a_concession_only_the_power_conceded_to_takes_the_points_above_the_threshold() {
    let entry = |player: &str, centres: u32, earlier: &[u32]| DiplomacyEntry {
        earlier_centres: earlier.to_vec(),
        ..DiplomacyEntry::new(player, centres)
    };
    // England (conceded to) 12, France 14, Austria 3, Germany 0, Italy 2, Russia 2, Turkey 1.
    let game = GameResult::Diplomacy(vec![
        entry("Austria", 3, &[]),
        DiplomacyEntry { in_draw: true, ..entry("England", 12, &[]) },
        entry("France", 14, &[]),
        DiplomacyEntry { eliminated_year: Some(1908), ..entry("Germany", 0, &[]) },
        entry("Italy", 2, &[2]),
        entry("Russia", 2, &[3]),
        entry("Turkey", 1, &[]),
    ]);
    // 7Eleven: France 1st, 7 and nothing above 11; England 2nd, 6 + 1.
    assert_close(&scores(ScoringSystem::SevenEleven, &game), &[5.0, 7.0, 7.0, 1.0, 3.0, 4.0, 2.0]);
    // Without the concession France takes its 3.
    let drawn = without_vote(&game);
    assert_close(
        &scores(ScoringSystem::SevenEleven, &drawn),
        &[5.0, 7.0, 10.0, 1.0, 3.0, 4.0, 2.0],
    );
}

#[test]
fn systems_paying_the_losers_by_years_need_the_concession_year() {
    let game = without_solo_year(&conceded_to_england());
    for system in
        [ScoringSystem::WorldClassic, ScoringSystem::RankedClassicV2, ScoringSystem::Haight]
    {
        let error = score_game(system, &game).unwrap_err();
        assert_eq!(error.field(), "players[1].soloYear", "{system}");
    }
    // Systems that do not pay by years score it without, and so does Whipping, which scores
    // a concession from the centres.
    assert_close(&scores(ScoringSystem::Bangkok, &game), &[1.0, 41.0, 3.5, 0.0, 2.0, 2.5, 2.5]);
    assert_close(&scores(ScoringSystem::Whipping, &game)[1..2], &[142.0]);
}

#[test]
fn the_concession_markers_are_checked() {
    let field = |result: &GameResult| {
        score_game(ScoringSystem::Bangkok, result).unwrap_err().field().to_owned()
    };
    // Under the earlier rule a concession is no solo, so it carries no solo year.
    let mut earlier = conceded_to_england();
    earlier.set_concession_rule(ConcessionRule::DrawOfOne);
    assert_eq!(field(&earlier), "players[1].soloYear");
    // Only the power conceded to carries the marker.
    let GameResult::Diplomacy(mut entries) = conceded_to_england() else { unreachable!() };
    entries[2].concession_as_draw = true;
    assert_eq!(field(&GameResult::Diplomacy(entries.clone())), "players[2].concessionAsDraw");
    entries[2].concession_as_draw = false;
    entries[2].concession_as_solo = true;
    assert_eq!(field(&GameResult::Diplomacy(entries.clone())), "players[2].concessionAsSolo");
    entries[2].concession_as_solo = false;
    // One rule at a time on the power conceded to.
    entries[1].concession_as_draw = true;
    entries[1].concession_as_solo = true;
    entries[1].solo_year = None;
    assert_eq!(field(&GameResult::Diplomacy(entries.clone())), "players[1].concessionAsSolo");
    entries[1] = DiplomacyEntry { solo_year: Some(1910), ..DiplomacyEntry::new("England", 11) };
    entries[1].in_draw = true;
    // A solo year on a power neither soloing nor conceded to is refused as before.
    entries[2].concession_as_draw = false;
    entries[2].solo_year = Some(1910);
    assert_eq!(field(&GameResult::Diplomacy(entries)), "players[2].soloYear");
    // A concession year before a power fell is refused.
    let GameResult::Diplomacy(mut entries) = conceded_to_england() else { unreachable!() };
    entries[1].solo_year = Some(1908);
    assert_eq!(field(&GameResult::Diplomacy(entries)), "players[3].eliminatedYear");
}

#[test]
fn the_marker_leaves_earlier_results_bytes_alone() {
    let stored = r#"{"diplomacy":[{"player":"A","centres":2,"eliminated":false},{"player":"E","centres":11,"eliminated":false,"inDraw":true}]}"#;
    let mut result: GameResult = serde_json::from_str(stored).unwrap();
    assert_eq!(result.concession(), Some(1));
    assert_eq!(result.concession_rule(), ConcessionRule::PerSystem);
    assert_eq!(serde_json::to_string(&result).unwrap(), stored);
    result.set_concession_rule(ConcessionRule::Solo);
    let marked = serde_json::to_string(&result).unwrap();
    assert!(marked.contains(r#""inDraw":true,"concessionAsSolo":true"#), "{marked}");
    let read: GameResult = serde_json::from_str(&marked).unwrap();
    assert_eq!(read.concession_rule(), ConcessionRule::Solo);
    result.set_concession_rule(ConcessionRule::DrawOfOne);
    let marked = serde_json::to_string(&result).unwrap();
    assert!(marked.contains(r#""inDraw":true,"concessionAsDraw":true"#), "{marked}");
    let read: GameResult = serde_json::from_str(&marked).unwrap();
    assert_eq!(read.concession_rule(), ConcessionRule::DrawOfOne);
    assert!(!marked.contains("concessionAsSolo"), "{marked}");
    result.set_concession_rule(ConcessionRule::PerSystem);
    assert_eq!(serde_json::to_string(&result).unwrap(), stored);
    // Without a concession there is nothing to mark.
    let mut drawn: GameResult = serde_json::from_str(r#"{"diplomacy":[]}"#).unwrap();
    drawn.set_concession_rule(ConcessionRule::DrawOfOne);
    assert_eq!(serde_json::to_string(&drawn).unwrap(), r#"{"diplomacy":[]}"#);
}

#[test]
fn standings_count_a_concession_as_a_win_under_the_new_rule_only() {
    let wins_of = |result: &GameResult| {
        let scored = score_game(ScoringSystem::Bangkok, result).unwrap();
        let standings = rank_standings(&[scored]);
        let england = standings.iter().find(|row| row.player == "England").unwrap();
        (england.wins, england.draws, england.rank)
    };
    assert_eq!(wins_of(&conceded_to_england()), (1, 0, 1));
    assert_eq!(wins_of(&under_earlier_rule(&conceded_to_england())), (0, 1, 1));
}

/// `docs/scoring.md`'s concession table lists every Diplomacy system once, with what the
/// catalogue does: "solo" for a solo, "centres" for the centres, "centres (dipvis)" exactly for
/// the systems that scored a solo under the earlier rule.
#[test]
fn the_docs_concession_table_matches_the_catalogue() {
    let docs = include_str!("../../../docs/scoring.md");
    for &system in ScoringSystem::ALL.iter().filter(|system| system.is_diplomacy()) {
        let prefix = format!("| `{}` | ", system.name());
        let rows: Vec<&str> = docs.lines().filter(|line| line.starts_with(&prefix)).collect();
        let [row] = rows[..] else {
            panic!("docs/scoring.md needs one concession row for {system}, has {rows:?}")
        };
        let label = row[prefix.len()..].split(" | ").next().unwrap();
        let expected = match system.concession() {
            ConcessionScoring::AsSolo => ["solo (rule)", "solo (dipvis)"].as_slice(),
            ConcessionScoring::AsDraw
                if league_scoring::CONCESSION_SOLO_ONLY_UNDER_EARLIER_RULE.contains(&system) =>
            {
                ["centres (dipvis)"].as_slice()
            }
            ConcessionScoring::AsDraw => ["centres (rule)"].as_slice(),
            ConcessionScoring::NoConcession => unreachable!("a Diplomacy system"),
        };
        assert!(expected.contains(&label), "{system}: {label:?}, expected one of {expected:?}");
    }
}
