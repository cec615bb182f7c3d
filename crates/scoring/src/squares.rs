//! `docs/scoring.md#squares`: DAANZ "Squares": each power scores the square of its centres,
//! normalised so
//! that a drawn game totals 100; an 18-centre win scores 100 and everybody else 0.

use crate::finish::{diplomacy_rows, soloist, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// Squares part 2.1: the winning player's score.
pub const SQUARES_SOLO_POINTS: f64 = 100.0;

/// Squares part 1.1: points equal to the square of the centres held (5 → 25, 15 → 225).
pub fn square_points(centres: u32) -> u32 {
    centres * centres
}

/// Squares part 1.2: the player's share of the game's squares, as a percentage (not
/// rounded: the source does not say to round).
pub fn squares_share(centres: u32, sum_of_squares: u32) -> f64 {
    100.0 * f64::from(square_points(centres)) / f64::from(sum_of_squares)
}

/// Scores a validated Diplomacy game with Squares (input order).
pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    // Squares part 2: the 18-centre winner (or, as dipvis's Sum of Squares scores it, the
    // power conceded to) scores 100, all losing players 0.
    let winner = winner(system, entries);
    let solo = winner.is_some();
    let sum: u32 = entries.iter().map(|entry| square_points(entry.centres)).sum();
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let points = if solo {
            if winner == Some(index) { SQUARES_SOLO_POINTS } else { 0.0 }
        } else {
            squares_share(centres, sum)
        };
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes if solo => vec![format!(
                "centres {centres}, {} → {points}",
                if soloist(entries).is_some() { "18-centre game" } else { "game conceded" }
            )],
            Explain::Yes => vec![format!(
                "centres {centres}, squared {} of {sum} → {points}",
                square_points(centres)
            )],
        };
        (points, explanation)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(centres: [u32; 7]) -> Vec<DiplomacyEntry> {
        crate::seven_powers(centres)
    }

    /// Each power's score in the Squares game of seven powers on `centres`.
    fn scores(centres: [u32; 7]) -> Vec<f64> {
        let rows = score(ScoringSystem::Squares, &game(centres), Explain::No).unwrap();
        rows.iter().map(|r| r.score).collect()
    }

    /// Squares part 1.1 examples: 5 centres = 25 points, 15 centres = 225 points.
    #[test]
    fn seed_003_squares_examples() {
        assert_eq!(square_points(5), 25);
        assert_eq!(square_points(15), 225);
    }

    /// Squares part 1.2: 15, 5, 5, 5, 4, 0, 0 → squares 225+25+25+25+16 = 316.
    #[test]
    fn seed_003_normalised_to_100() {
        let scores = scores([15, 5, 5, 5, 4, 0, 0]);
        assert_eq!(scores[0], 100.0 * 225.0 / 316.0);
        assert_eq!(scores[1], 100.0 * 25.0 / 316.0);
        assert_eq!(scores[4], 100.0 * 16.0 / 316.0);
        assert_eq!(scores[6], 0.0);
    }

    /// Squares part 2: 18-centre win → 100 and 0.
    #[test]
    fn seed_003_solo() {
        assert_eq!(scores([5, 18, 5, 4, 2, 0, 0]), [0.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    }
}
