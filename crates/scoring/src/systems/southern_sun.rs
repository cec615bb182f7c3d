//! Southern Sun (`docs/scoring.md#southern-sun`): a survivor scores 30, 10 per centre and
//! Fibonacci-like rank points (130, 80, 50, 30, 20, 10, 10) among the survivors, equal powers
//! sharing the average rounded to a whole number; an eliminated power scores 3 per game year
//! played; a solo scores 500 and everyone else 0.

use super::{FIRST_YEAR, centre_position, centres_line, elimination_years, shared_points};
use crate::finish::{diplomacy_rows, winner};
use crate::{DiplomacyEntry, Explain, PlayerGameScore, ScoringError, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 500.0;
/// What every survivor gets.
pub const SURVIVAL_POINTS: f64 = 30.0;
/// Points per centre.
pub const PER_CENTRE: f64 = 10.0;
/// Rank points, 1st to 7th.
pub const RANKS: [f64; 7] = [130.0, 80.0, 50.0, 30.0, 20.0, 10.0, 10.0];
/// What an eliminated power gets per game year it played.
pub const PER_YEAR_PLAYED: f64 = 3.0;

pub(crate) fn score(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Result<Vec<PlayerGameScore>, ScoringError> {
    if let Some(winner) = winner(system, entries) {
        return Ok(diplomacy_rows(system, entries, |index| {
            let points = if index == winner { SOLO_POINTS } else { 0.0 };
            let why = if index == winner { "solo" } else { "lost to a solo" };
            let explanation = match explain {
                Explain::No => Vec::new(),
                Explain::Yes => {
                    vec![format!("centres {}, {why} → {points}", entries[index].centres)]
                }
            };
            (points, explanation)
        }));
    }
    let years = elimination_years(system, entries)?;
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match years[index] {
            Some(year) => {
                // The year of elimination counts as a year played.
                let played = 1 + year - FIRST_YEAR;
                (PER_YEAR_PLAYED * f64::from(played), format!("eliminated, {played} years played"))
            }
            None => {
                // Survivors hold every place above the eliminated powers, so their place by
                // centres among all powers is their place among the survivors.
                let (place, sharing) = centre_position(entries, index);
                let rank = round_half_up(shared_points(&RANKS, place, sharing));
                (
                    SURVIVAL_POINTS + PER_CENTRE * f64::from(centres) + rank,
                    format!(
                        "survival 30, rank {place}{} {rank}",
                        if sharing > 1 { format!(" shared by {sharing}") } else { String::new() }
                    ),
                )
            }
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}

/// The nearest whole number, halves up (`docs/scoring.md#southern-sun`, chosen).
fn round_half_up(points: f64) -> f64 {
    (points + 0.5).floor()
}
