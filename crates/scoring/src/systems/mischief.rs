//! Mischief (`docs/scoring.md#mischief`): one point per centre, 5 more for a lone board top and
//! 1 more each for a top shared by two; a solo scores 34 and everyone else 0.

use super::{BoardTop, board_top, reasoned_rows, show};
use crate::finish::winner;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores: every centre on the board.
pub const SOLO_POINTS: f64 = 34.0;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let BoardTop { centres: top, holders: toppers, .. } = board_top(entries);
    let bonus = match toppers {
        1 => 5.0,
        2 => 1.0,
        _ => 0.0,
    };
    let winner = winner(system, entries);
    Ok(reasoned_rows(system, entries, explain, |index, centres| match winner {
        Some(w) if w == index => (SOLO_POINTS, "solo".to_owned()),
        Some(_) => (0.0, "lost to a solo".to_owned()),
        None if centres == top => {
            (f64::from(centres) + bonus, format!("board top shared by {toppers} {}", show(bonus)))
        }
        None => (f64::from(centres), "no board top".to_owned()),
    }))
}
