//! C-Diplo Namur (`docs/scoring.md#c-diplo-namur`): C-Diplo 100's point for playing and rank
//! bonuses, but centres worth more the fewer a power holds (5 for the first, 4 for the second,
//! 3, 2, 2, 2, then 1 each); a solo scores 85 and everyone else 0.

use super::{centre_position, shared_by, shared_points, show, solo_or_loss};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 85.0;
/// Every participant's point for playing.
pub const PLAYED: f64 = 1.0;
/// Bonuses for the three best centre counts (ties split).
pub const RANKS: [f64; 3] = [38.0, 14.0, 7.0];

/// Points for holding `centres` centres: 0, 5, 9, 12, 14, 16, 18, then one more per centre.
pub fn centre_points(centres: u32) -> f64 {
    const FIRST_SIX: [f64; 7] = [0.0, 5.0, 9.0, 12.0, 14.0, 16.0, 18.0];
    match centres {
        0..=6 => FIRST_SIX[centres as usize],
        _ => 18.0 + f64::from(centres - 6),
    }
}

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    if let Some(winner) = winner(system, entries) {
        return solo_or_loss(system, entries, winner, (SOLO_POINTS, 0.0), explain);
    }
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (position, sharing) = centre_position(entries, index);
        let rank = shared_points(&RANKS, position, sharing);
        let held = centre_points(centres);
        let points = PLAYED + held + rank;
        let explanation = explain.line(|| {
            format!(
                "played 1, centres {centres} worth {held}, rank {position}{} {} → {}",
                shared_by(sharing),
                show(rank),
                show(points)
            )
        });
        (points, explanation)
    }))
}
