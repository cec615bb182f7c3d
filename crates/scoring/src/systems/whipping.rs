//! Whipping (`docs/scoring.md#whipping`): 10 per centre, the survivors share 60, a lone board
//! topper gets twice its centre count more, and a power that fell one point per year played; a
//! solo scores 468 and every other survivor scores as if it fell in the year of the solo.

use super::{BoardTop, FIRST_YEAR, GameYears, board_top, game_years, reasoned_rows, show};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 468.0;
/// Points per centre.
pub const PER_CENTRE: f64 = 10.0;
/// What the survivors share.
pub const SURVIVAL_POOL: f64 = 60.0;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    let survivors = entries.iter().filter(|entry| entry.centres > 0).count() as f64;
    let BoardTop { centres: top, holders: toppers, .. } = board_top(entries);
    let lone_top = toppers == 1;
    // Years played: the year a power fell (or the solo year) counts.
    let played = |year: i32| f64::from(year - FIRST_YEAR + 1);
    Ok(reasoned_rows(system, entries, explain, |index, centres| {
        match (years[index], winner, solo) {
            (Some(year), _, _) => (played(year), format!("eliminated in {year}, years played")),
            (None, Some(w), _) if w == index => (SOLO_POINTS, "solo".to_owned()),
            (None, Some(_), Some(year)) => {
                (played(year), format!("lost to the solo in {year}, years played"))
            }
            _ => {
                let bonus = if lone_top && centres == top { 2.0 * f64::from(top) } else { 0.0 };
                (
                    PER_CENTRE * f64::from(centres) + SURVIVAL_POOL / survivors + bonus,
                    format!(
                        "survival share {}, board top {}",
                        show(SURVIVAL_POOL / survivors),
                        show(bonus)
                    ),
                )
            }
        }
    }))
}
