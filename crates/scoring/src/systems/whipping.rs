//! Whipping (`docs/scoring.md#whipping`): 10 per centre, the survivors share 60, a lone board
//! topper gets twice its centre count more, and a power that fell one point per year played; a
//! solo scores 468 and every other survivor scores as if it fell in the year of the solo.

use super::{FIRST_YEAR, GameYears, centres_line, game_years, show};
use crate::finish::diplomacy_rows;
use crate::{DiplomacyEntry, Explain, PlayerGameScore, ScoringError, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 468.0;
/// Points per centre.
pub const PER_CENTRE: f64 = 10.0;
/// What the survivors share.
pub const SURVIVAL_POOL: f64 = 60.0;

pub(crate) fn score(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Result<Vec<PlayerGameScore>, ScoringError> {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    let survivors = entries.iter().filter(|entry| entry.centres > 0).count() as f64;
    let top = entries.iter().map(|entry| entry.centres).max().unwrap_or(0);
    let lone_top = entries.iter().filter(|entry| entry.centres == top).count() == 1;
    // Years played: the year a power fell (or the solo year) counts.
    let played = |year: i32| f64::from(year - FIRST_YEAR + 1);
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match (years[index], winner, solo) {
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
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}
