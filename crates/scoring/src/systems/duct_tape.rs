//! Duct Tape V2 (`docs/scoring.md#duct-tape-v2`): one point per centre plus 40, 24, 15, 9, 6,
//! 3, 3 for the final rank by centres (ties split); eliminated powers share the bottom ranks
//! equally, or, with elimination order, are ranked by when they fell; a solo scores 75 and
//! everyone else 0.

use super::survivors_then_fallen;
use super::{centre_position, elimination_years, shared_by, shared_points, show, solo_or_loss};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 75.0;
/// Points for the final ranks, 1st to 7th.
pub const RANKS: [f64; 7] = [40.0, 24.0, 15.0, 9.0, 6.0, 3.0, 3.0];

/// How eliminated powers are ranked among themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallen {
    /// All share the bottom ranks equally.
    Equal,
    /// The later a power fell, the higher it ranks (needs every elimination year).
    ByEliminationYear,
}

pub(crate) fn score(
    system: ScoringSystem,
    fallen: Fallen,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    if let Some(winner) = winner(system, entries) {
        return solo_or_loss(system, entries, winner, (SOLO_POINTS, 0.0), explain);
    }
    let years = match fallen {
        Fallen::Equal => Vec::new(),
        Fallen::ByEliminationYear => elimination_years(system, entries)?,
    };
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (place, sharing) = match fallen {
            Fallen::Equal => centre_position(entries, index),
            Fallen::ByEliminationYear => survivors_then_fallen(entries, &years, index),
        };
        let rank = shared_points(&RANKS, place, sharing);
        let points = f64::from(centres) + rank;
        let explanation = explain.line(|| {
            format!(
                "centres {centres}, rank {place}{} {} → {}",
                shared_by(sharing),
                show(rank),
                show(points)
            )
        });
        (points, explanation)
    }))
}
