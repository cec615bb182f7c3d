//! Base 3 (`docs/scoring.md#base-3`): one point per centre and 3 for surviving, plus a 9-point
//! bonus for topping the board divided by 3 for each further power sharing the top; a solo
//! scores 46 and everyone else 0.

use super::{BoardTop, board_top, reasoned_rows, show};
use crate::finish::winner;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 46.0;
/// What every survivor gets on top of its centres.
pub const SURVIVAL_POINTS: f64 = 3.0;
/// The bonus of a lone board topper.
pub const TOP_BONUS: f64 = 9.0;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let BoardTop { centres: top, holders: toppers, .. } = board_top(entries);
    // 9 for one topper, 3 each for two, 1 each for three, a third of that for four…
    let bonus = TOP_BONUS / 3f64.powi(toppers as i32 - 1);
    let winner = winner(system, entries);
    Ok(reasoned_rows(system, entries, explain, |index, centres| match winner {
        Some(w) if w == index => (SOLO_POINTS, "solo".to_owned()),
        Some(_) => (0.0, "lost to a solo".to_owned()),
        None if centres == 0 => (0.0, "eliminated".to_owned()),
        None if centres == top => (
            f64::from(centres) + SURVIVAL_POINTS + bonus,
            format!("survival 3, board top shared by {toppers} {}", show(bonus)),
        ),
        None => (f64::from(centres) + SURVIVAL_POINTS, "survival 3".to_owned()),
    }))
}
