//! Bangkok and Olympic (`docs/scoring.md#bangkok-and-olympic`): without a solo, one point per
//! centre, 3 for surviving or 0.3 per year survived for an eliminated power, and 12 points
//! shared by the powers at, one below and two below the top centre count in proportion to
//! their shares; a solo scores a fixed amount, the others a little per centre.

use super::{FIRST_YEAR, elimination_years, show};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// One variant's numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bangkok {
    pub solo: f64,
    /// Per centre for a power that lost to a solo.
    pub loser_per_centre: f64,
    /// Shares of the domination bonus at the top, one below and two below the top.
    pub shares: [f64; 3],
}

/// Bangkok: solo 41, losers 0.5 per centre, shares 3 / 2 / 1.
pub const BANGKOK: Bangkok = Bangkok { solo: 41.0, loser_per_centre: 0.5, shares: [3.0, 2.0, 1.0] };
/// Olympic: solo 46, losers 0, shares 4 / 1.5 / 0.5.
pub const OLYMPIC: Bangkok = Bangkok { solo: 46.0, loser_per_centre: 0.0, shares: [4.0, 1.5, 0.5] };

/// The domination bonus the top powers share.
pub const DOMINATION_BONUS: f64 = 12.0;
/// What every surviving power gets.
pub const SURVIVAL_POINTS: f64 = 3.0;

pub(crate) fn score(
    system: ScoringSystem,
    rule: &Bangkok,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    if let Some(winner) = winner(system, entries) {
        return Ok(diplomacy_rows(system, entries, |index| {
            let centres = entries[index].centres;
            let points = if index == winner {
                rule.solo
            } else {
                rule.loser_per_centre * f64::from(centres)
            };
            let explanation = match explain {
                Explain::No => Vec::new(),
                Explain::Yes if index == winner => {
                    vec![format!("centres {centres}, solo → {points}")]
                }
                Explain::Yes => vec![format!("centres {centres}, lost to a solo → {points}")],
            };
            (points, explanation)
        }));
    }
    let years = elimination_years(system, entries)?;
    let top = entries.iter().map(|entry| entry.centres).max().unwrap_or(0);
    let share = |centres: u32| match top - centres {
        0 => rule.shares[0],
        1 => rule.shares[1],
        2 => rule.shares[2],
        _ => 0.0,
    };
    let total_shares: f64 = entries.iter().map(|entry| share(entry.centres)).sum();
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let bonus = DOMINATION_BONUS * share(centres) / total_shares;
        // Tenths in integers, so 0.3 × 4 years prints as 1.2.
        let survival = match years[index] {
            Some(year) => f64::from(3 * (year - FIRST_YEAR).max(0)) / 10.0,
            None => SURVIVAL_POINTS,
        };
        let points = f64::from(centres) + survival + bonus;
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes => vec![format!(
                "centres {centres}, {} {}, domination {} → {}",
                if years[index].is_some() { "years survived" } else { "survival" },
                show(survival),
                show(bonus),
                show(points)
            )],
        };
        (points, explanation)
    }))
}
