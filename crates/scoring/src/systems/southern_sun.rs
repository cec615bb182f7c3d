//! Southern Sun (`docs/scoring.md#southern-sun`): a survivor scores 30, 10 per centre and
//! Fibonacci-like rank points (130, 80, 50, 30, 20, 10, 10) among the survivors, equal powers
//! sharing the average rounded to a whole number; an eliminated power scores 3 per game year
//! played; a solo scores 500 and everyone else 0.

use super::{FIRST_YEAR, centre_position, elimination_years, reasoned_rows, shared_by};
use super::{shared_points, solo_or_loss};
use crate::finish::winner;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

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

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    if let Some(winner) = winner(system, entries) {
        return solo_or_loss(system, entries, winner, (SOLO_POINTS, 0.0), explain);
    }
    let years = elimination_years(system, entries)?;
    Ok(reasoned_rows(system, entries, explain, |index, centres| {
        match years[index] {
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
                    format!("survival 30, rank {place}{} {rank}", shared_by(sharing)),
                )
            }
        }
    }))
}

/// The nearest whole number, halves up (`docs/scoring.md#southern-sun`, chosen).
fn round_half_up(points: f64) -> f64 {
    (points + 0.5).floor()
}
