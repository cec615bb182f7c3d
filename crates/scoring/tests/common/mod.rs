//! Helpers the Diplomacy test files share: a game's scores in input order, and comparing
//! scores to the worked examples' decimals.

use league_scoring::{GameResult, ScoringSystem, score_game};

/// The scores of `result` under `system`, in input order.
pub fn scores(system: ScoringSystem, result: &GameResult) -> Vec<f64> {
    score_game(system, result).unwrap().players.iter().map(|row| row.score).collect()
}

/// Equal to the worked example's decimals, within float noise.
pub fn assert_close(actual: &[f64], expected: &[f64]) {
    assert_eq!(actual.len(), expected.len());
    for (a, e) in actual.iter().zip(expected) {
        assert!((a - e).abs() < 1e-9, "{actual:?} != {expected:?}");
    }
}
