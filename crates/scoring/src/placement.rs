//! `docs/scoring.md#placement`: "Basic scoring system for all vs. all games" (Gonzaga, Cartagena, Vampiring,
//! Viva il Re!): league points by finishing place, ties sharing the average.

use crate::finish::position;
use crate::{Explain, Outcome, PlacementEntry, PlayerGameScore};

/// The placement table: with `players` players, place `place` (1-based) scores
/// k(k−1) for k = players − place + 1, i.e. 1st (n)(n−1), 2nd (n−1)(n−2), …, last 0
/// (n = 5: 20, 12, 6, 2, 0).
pub fn place_points(players: u32, place: u32) -> u32 {
    let k = players + 1 - place;
    k * (k - 1)
}

/// Tie rule: "If two or more player are ranked in the same position, all get the
/// same number of points, corresponding to the average of the positions occupied by them."
/// `position` is the group's best place, `sharing` its size.
pub fn shared_place_points(players: u32, position: u32, sharing: u32) -> f64 {
    let sum: u32 = (position..position + sharing).map(|place| place_points(players, place)).sum();
    f64::from(sum) / f64::from(sharing)
}

/// Outcome classes for placement (`docs/scoring.md#standings-and-tie-breakers`): win = outright first, draw = shared first, loss.
pub fn placement_outcome(position: u32, sharing: u32) -> Outcome {
    match (position, sharing) {
        (1, 1) => Outcome::Win,
        (1, _) => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

/// Scores a validated placement game (input order).
pub(crate) fn score(entries: &[PlacementEntry], explain: Explain) -> Vec<PlayerGameScore> {
    let players = entries.len() as u32;
    (0..entries.len())
        .map(|index| {
            let (position, sharing) = position(entries.len(), index, |i| entries[i].points);
            let score = shared_place_points(players, position, sharing);
            let explanation = match explain {
                Explain::No => Vec::new(),
                Explain::Yes if sharing == 1 => vec![format!(
                    "game points {}, place {position} of {players} → {score}",
                    entries[index].points
                )],
                Explain::Yes => vec![format!(
                    "game points {}, places {position}–{} of {players} shared by {sharing} → average {score}",
                    entries[index].points,
                    position + sharing - 1
                )],
            };
            PlayerGameScore {
                player: entries[index].player.clone(),
                score,
                outcome: placement_outcome(position, sharing),
                explanation,
                position,
                sharing,
                eliminated_year: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(points: &[f64]) -> Vec<f64> {
        let entries: Vec<PlacementEntry> = points
            .iter()
            .enumerate()
            .map(|(i, &points)| PlacementEntry { player: format!("P{i}"), points })
            .collect();
        score(&entries, Explain::No).into_iter().map(|row| row.score).collect()
    }

    /// The placement table, columns 2..8.
    #[test]
    fn table_matches_seed_002_columns() {
        assert_eq!((1..=2).map(|p| place_points(2, p)).collect::<Vec<_>>(), [2, 0]);
        assert_eq!((1..=5).map(|p| place_points(5, p)).collect::<Vec<_>>(), [20, 12, 6, 2, 0]);
        assert_eq!(
            (1..=8).map(|p| place_points(8, p)).collect::<Vec<_>>(),
            [56, 42, 30, 20, 12, 6, 2, 0]
        );
    }

    /// The Cartagena example: 1000/970/970/800/770 → 20/9/9/2/0.
    #[test]
    fn seed_002_cartagena_example() {
        assert_eq!(game(&[1000.0, 970.0, 970.0, 800.0, 770.0]), [20.0, 9.0, 9.0, 2.0, 0.0]);
    }

    /// The Vampiring example: 32/28/28/10 → 12/4/4/0.
    #[test]
    fn seed_002_vampiring_example() {
        assert_eq!(game(&[32.0, 28.0, 28.0, 10.0]), [12.0, 4.0, 4.0, 0.0]);
    }

    #[test]
    fn input_order_is_kept_and_outcomes_follow_first_place() {
        assert_eq!(game(&[10.0, 32.0, 28.0, 28.0]), [0.0, 12.0, 4.0, 4.0]);
        assert_eq!(placement_outcome(1, 1), Outcome::Win);
        assert_eq!(placement_outcome(1, 2), Outcome::Draw);
        assert_eq!(placement_outcome(2, 1), Outcome::Loss);
        // Everybody level shares the average of the whole table: (6+2+0)/3.
        assert_eq!(game(&[5.0, 5.0, 5.0]), [8.0 / 3.0; 3]);
    }
}
