//! Vulcan (`docs/scoring.md#vulcan`): a survivor scores one point per centre, 5 for surviving,
//! one point per centre it is ahead of each power below it (eliminated ones included), and the
//! board top shares 10; an eliminated power scores 0; a solo scores 130 and each other
//! survivor 5.

use super::{BoardTop, board_top, reasoned_rows, show};
use crate::finish::winner;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 130.0;
/// What every survivor gets (also when it lost to a solo).
pub const SURVIVAL_POINTS: f64 = 5.0;
/// What the board top shares.
pub const TOP_BONUS: f64 = 10.0;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let BoardTop { centres: top, holders: toppers, .. } = board_top(entries);
    let toppers = toppers as f64;
    let winner = winner(system, entries);
    Ok(reasoned_rows(system, entries, explain, |index, centres| {
        let gap: u32 = entries
            .iter()
            .filter(|other| other.centres < centres)
            .map(|other| centres - other.centres)
            .sum();
        let top_share = if centres == top { TOP_BONUS / toppers } else { 0.0 };
        match winner {
            _ if centres == 0 => (0.0, "eliminated".to_owned()),
            Some(w) if w == index => (SOLO_POINTS, "solo".to_owned()),
            Some(_) => (SURVIVAL_POINTS, "survived a solo".to_owned()),
            None => (
                f64::from(centres) + SURVIVAL_POINTS + f64::from(gap) + top_share,
                format!("survival 5, ahead by {gap}, board top {}", show(top_share)),
            ),
        }
    }))
}
