//! World Classic and Summer Classic (`docs/scoring.md#world-classic-and-summer-classic`): 10 per
//! centre and 30 for surviving, 48 shared by the board toppers (Summer Classic: only when one or
//! two top the board), and one point per year survived for a power that fell; a solo scores 420
//! and every other power one point per year it survived.

use super::{FIRST_YEAR, GameYears, centres_line, game_years, show};
use crate::finish::diplomacy_rows;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 420.0;
/// Points per centre.
pub const PER_CENTRE: f64 = 10.0;
/// What every survivor of a drawn game gets.
pub const SURVIVAL_POINTS: f64 = 30.0;
/// What the board toppers share.
pub const TOP_POOL: f64 = 48.0;

/// Who shares the board-top pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopPool {
    /// Every topper (World Classic).
    AllToppers,
    /// One or two toppers; nobody when three or more share the top (Summer Classic).
    AtMostTwo,
}

pub(crate) fn score(
    system: ScoringSystem,
    pool: TopPool,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    let top = entries.iter().map(|entry| entry.centres).max().unwrap_or(0);
    let toppers = entries.iter().filter(|entry| entry.centres == top).count();
    let top_share = match pool {
        TopPool::AtMostTwo if toppers >= 3 => 0.0,
        _ => TOP_POOL / toppers as f64,
    };
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match (years[index], winner, solo) {
            (Some(year), _, _) => (
                f64::from(year - FIRST_YEAR),
                format!("years survived to the elimination in {year}"),
            ),
            (None, Some(w), _) if w == index => (SOLO_POINTS, "solo".to_owned()),
            (None, Some(_), Some(year)) => {
                (f64::from(year - FIRST_YEAR), format!("years survived to the solo in {year}"))
            }
            _ if centres == top => (
                PER_CENTRE * f64::from(centres) + SURVIVAL_POINTS + top_share,
                format!("survival 30, board top shared by {toppers} {}", show(top_share)),
            ),
            _ => (PER_CENTRE * f64::from(centres) + SURVIVAL_POINTS, "survival 30".to_owned()),
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}
