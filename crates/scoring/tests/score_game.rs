//! `score_game` through the public contract: dispatch by system, validation (typed
//! errors naming the field) and property tests of what each rule guarantees.

use league_scoring::{
    DiplomacyEntry, GameResult, Outcome, PlacementEntry, ScoringError, ScoringSystem, Side,
    TeamPlayer, TeamResult, score_game, score_game_unexplained,
};
use proptest::prelude::*;

fn diplomacy(centres: &[u32]) -> GameResult {
    GameResult::Diplomacy(
        centres.iter().enumerate().map(|(i, &c)| DiplomacyEntry::new(format!("P{i}"), c)).collect(),
    )
}

fn placement(points: &[f64]) -> GameResult {
    GameResult::Placement(
        points
            .iter()
            .enumerate()
            .map(|(i, &points)| PlacementEntry { player: format!("P{i}"), points })
            .collect(),
    )
}

fn team_player(name: &str, lost: u32, kills: u32) -> TeamPlayer {
    TeamPlayer {
        player: name.to_owned(),
        points: 10.0,
        units: 1,
        lost,
        kills,
        ships_left: Some(1 - lost.min(1)),
        surrendered: false,
    }
}

fn teams(sides: Vec<Vec<TeamPlayer>>) -> GameResult {
    GameResult::Teams(TeamResult {
        draw: false,
        sides: sides
            .into_iter()
            .enumerate()
            .map(|(i, players)| Side { name: format!("S{i}"), players })
            .collect(),
    })
}

fn field_of(system: ScoringSystem, result: &GameResult) -> String {
    score_game(system, result).unwrap_err().field().to_owned()
}

#[test]
fn names_round_trip_through_from_str_and_serde() {
    for &system in ScoringSystem::ALL {
        assert_eq!(system.name().parse::<ScoringSystem>().unwrap(), system);
        assert_eq!(serde_json::to_string(&system).unwrap(), format!("\"{}\"", system.name()));
    }
    let error = "diplomacy".parse::<ScoringSystem>().unwrap_err();
    assert!(matches!(error, ScoringError::UnknownSystem { .. }));
    assert_eq!(error.field(), "system");
}

#[test]
fn a_system_rejects_another_result_shape() {
    let error = score_game(ScoringSystem::Baf, &placement(&[1.0, 2.0])).unwrap_err();
    assert!(matches!(error, ScoringError::WrongResultKind { .. }), "{error}");
    assert_eq!(error.field(), "result");
}

/// Validation, Diplomacy: 7 distinct players, centres 0..34, total ≤ 34.
#[test]
fn diplomacy_validation_names_the_field() {
    for system in [ScoringSystem::Baf, ScoringSystem::Detour98f, ScoringSystem::Squares] {
        assert_eq!(field_of(system, &diplomacy(&[5, 5, 5, 5, 5, 5])), "players");
        assert_eq!(field_of(system, &diplomacy(&[5, 5, 5, 35, 5, 5, 5])), "players[3].centres");
        assert_eq!(field_of(system, &diplomacy(&[10, 10, 10, 5, 0, 0, 0])), "players");
        assert_eq!(field_of(system, &diplomacy(&[0; 7])), "players");
        let GameResult::Diplomacy(mut entries) = diplomacy(&[10, 8, 6, 5, 3, 2, 0]) else {
            unreachable!()
        };
        entries[4].player = "P1".into();
        assert_eq!(field_of(system, &GameResult::Diplomacy(entries.clone())), "players[4].player");
        entries[4].player = "P4".into();
        entries[2].eliminated_year = Some(1904);
        assert_eq!(field_of(system, &GameResult::Diplomacy(entries)), "players[2].eliminatedYear");
    }
}

/// Validation, placement: 2..8 distinct players.
#[test]
fn placement_validation_names_the_field() {
    assert_eq!(field_of(ScoringSystem::Placement, &placement(&[1.0])), "players");
    assert_eq!(field_of(ScoringSystem::Placement, &placement(&[1.0; 9])), "players");
    assert_eq!(
        field_of(ScoringSystem::Placement, &placement(&[1.0, f64::NAN])),
        "players[1].points"
    );
    let GameResult::Placement(mut entries) = placement(&[3.0, 2.0, 1.0]) else { unreachable!() };
    entries[2].player = "P0".into();
    assert_eq!(
        field_of(ScoringSystem::Placement, &GameResult::Placement(entries)),
        "players[2].player"
    );
}

/// Validation, team systems: ≥ 2 sides (Blue Max exactly 2), lost ≤ units.
#[test]
fn team_validation_names_the_field() {
    let one_side = teams(vec![vec![team_player("W1", 0, 0)]]);
    assert_eq!(field_of(ScoringSystem::BlueMax, &one_side), "sides");
    assert_eq!(field_of(ScoringSystem::WoodenShips, &one_side), "sides");
    let three = teams(vec![
        vec![team_player("A", 0, 0)],
        vec![team_player("B", 0, 0)],
        vec![team_player("C", 0, 0)],
    ]);
    assert_eq!(field_of(ScoringSystem::BlueMax, &three), "sides");
    assert!(score_game(ScoringSystem::WoodenShips, &three).is_ok());
    let mut over_lost = team_player("D1", 1, 0);
    over_lost.lost = 2;
    let bad = teams(vec![vec![team_player("W1", 0, 1)], vec![team_player("D0", 0, 0), over_lost]]);
    assert_eq!(field_of(ScoringSystem::BlueMax, &bad), "sides[1].players[1].lost");
    let twice = teams(vec![vec![team_player("W1", 0, 1)], vec![team_player("W1", 1, 0)]]);
    assert_eq!(field_of(ScoringSystem::BlueMax, &twice), "sides[1].players[0].player");
    let mut unknown_ships = team_player("D1", 0, 0);
    unknown_ships.ships_left = None;
    let no_ships = teams(vec![vec![team_player("W1", 0, 0)], vec![unknown_ships]]);
    assert_eq!(field_of(ScoringSystem::WoodenShips, &no_ships), "sides[1].players[0].shipsLeft");
    assert!(score_game(ScoringSystem::BlueMax, &no_ships).is_ok());
}

#[test]
fn explained_and_unexplained_scores_agree() {
    let game = diplomacy(&[2, 3, 4, 10, 4, 5, 6]);
    for system in [ScoringSystem::Baf, ScoringSystem::Detour98f, ScoringSystem::Squares] {
        let explained = score_game(system, &game).unwrap();
        let quiet = score_game_unexplained(system, &game).unwrap();
        assert!(explained.players.iter().all(|row| !row.explanation.is_empty()));
        assert!(quiet.players.iter().all(|row| row.explanation.is_empty()));
        let scores =
            |g: &league_scoring::ScoredGame| g.players.iter().map(|r| r.score).collect::<Vec<_>>();
        assert_eq!(scores(&explained), scores(&quiet));
    }
}

/// Seven powers' centres with a total of at most 34 and at least one centre held: each of
/// the 34 centres goes to a power or stays neutral (index 7); half the games have a big
/// leader (10..=34 centres) so that solos and lopsided games are well covered.
fn diplomacy_centres() -> impl Strategy<Value = Vec<u32>> {
    let spread = |owners: Vec<usize>, mut centres: Vec<u32>| {
        for owner in owners {
            if owner < 7 {
                centres[owner] += 1;
            }
        }
        centres
    };
    let even =
        prop::collection::vec(0usize..8, 1..=34).prop_map(move |owners| spread(owners, vec![0; 7]));
    let leader = (0usize..7, 10u32..=34).prop_flat_map(move |(leader, big)| {
        prop::collection::vec(0usize..8, 0..=(34 - big) as usize).prop_map(move |owners| {
            let mut centres = vec![0; 7];
            centres[leader] = big;
            let others: Vec<usize> =
                owners.into_iter().map(|o| if o == leader { 7 } else { o }).collect();
            spread(others, centres)
        })
    });
    prop_oneof![even, leader].prop_filter("somebody holds a centre", |c| c.iter().any(|&n| n > 0))
}

proptest! {
    /// Placement (`docs/scoring.md#placement`): the points handed out always add up to the table's
    /// column sum,
    /// however the ties fall.
    #[test]
    fn placement_points_sum_to_the_table_sum(points in prop::collection::vec(0u8..5, 2..=8)) {
        let points: Vec<f64> = points.into_iter().map(f64::from).collect();
        let n = points.len() as u32;
        let table_sum: u32 = (1..=n).map(|place| (n + 1 - place) * (n - place)).sum();
        let game = score_game(ScoringSystem::Placement, &placement(&points)).unwrap();
        let total: f64 = game.players.iter().map(|row| row.score).sum();
        prop_assert!((total - f64::from(table_sum)).abs() < 1e-9, "{total} vs {table_sum}");
        let winners = game.players.iter().filter(|row| row.outcome == Outcome::Win).count();
        prop_assert!(winners <= 1);
    }

    /// Squares (`docs/scoring.md#squares`): a drawn Squares game totals 100; an 18-centre game
    /// gives 100 and zeros.
    #[test]
    fn squares_sum_to_100(centres in diplomacy_centres()) {
        let game = score_game(ScoringSystem::Squares, &diplomacy(&centres)).unwrap();
        let total: f64 = game.players.iter().map(|row| row.score).sum();
        prop_assert!((total - 100.0).abs() < 1e-9, "{total}");
    }

    /// Detour 98f part 1.6 (`docs/scoring.md#detour-98f`): rounding to two decimals keeps a drawn
    /// game within 100 ± 0.04
    /// (seven roundings of at most 0.005 each); an 18-centre win totals 110.
    #[test]
    fn detour_sums_to_100_within_rounding(centres in diplomacy_centres()) {
        let game = score_game(ScoringSystem::Detour98f, &diplomacy(&centres)).unwrap();
        let total: f64 = game.players.iter().map(|row| row.score).sum();
        if centres.iter().any(|&c| c >= 18) {
            prop_assert_eq!(total, 110.0);
        } else {
            prop_assert!((total - 100.0).abs() <= 0.04 + 1e-9, "{total}");
        }
    }

    /// Baf (`docs/scoring.md#baf`): a soloist scores 100 and everybody else 0; an eliminated player
    /// scores 0;
    /// every other score lies between 0 and 75 (the table's largest non-solo cell).
    #[test]
    fn baf_solo_and_elimination(centres in diplomacy_centres(), flagged in 0usize..7) {
        let GameResult::Diplomacy(mut entries) = diplomacy(&centres) else { unreachable!() };
        let solo = centres.iter().position(|&c| c >= 18);
        if solo != Some(flagged) {
            entries[flagged].eliminated = true;
        }
        match score_game(ScoringSystem::Baf, &GameResult::Diplomacy(entries.clone())) {
            Ok(game) => {
                for (index, row) in game.players.iter().enumerate() {
                    if solo == Some(index) {
                        prop_assert_eq!(row.score, 100.0);
                        prop_assert_eq!(row.outcome, Outcome::Win);
                    } else if solo.is_some() || entries[index].eliminated || entries[index].centres == 0 {
                        prop_assert_eq!(row.score, 0.0);
                    } else {
                        prop_assert!(row.score > 0.0 && row.score <= 75.0, "{}", row.score);
                    }
                }
            }
            Err(error) => {
                prop_assert!(solo.is_none(), "a solo game is always scorable: {error}");
                prop_assert!(matches!(error, ScoringError::Impossible { .. }), "{error}");
                prop_assert!(error.field().ends_with(".centres"));
            }
        }
    }
}
