//! ManorCon, Original ManorCon and ManorCon v2 (`docs/scoring.md#manorcon`): each survivor's
//! N = S² + 4S + 16 (S its centres) as a share of 100 over the sum of every N (a fallen power
//! adding 16 to the sum, except in v2), and 0.1 per year survived for a power that fell; a solo
//! scores a fixed amount and every other power 0.1 per year it survived.

use super::{FIRST_YEAR, GameYears, centres_line, game_years, show};
use crate::finish::diplomacy_rows;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// One variant's numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ManorCon {
    pub solo: f64,
    /// What a fallen power adds to the sum of N.
    pub fallen_n: f64,
}

/// ManorCon: solo 75, a fallen power counts N = 16.
pub const MANORCON: ManorCon = ManorCon { solo: 75.0, fallen_n: 16.0 };
/// Original ManorCon: solo 100, a fallen power counts N = 16.
pub const ORIGINAL: ManorCon = ManorCon { solo: 100.0, fallen_n: 16.0 };
/// ManorCon v2: solo 100, a fallen power counts nothing.
pub const V2: ManorCon = ManorCon { solo: 100.0, fallen_n: 0.0 };

/// N for a power on `centres` centres.
pub fn n(centres: u32) -> f64 {
    let s = f64::from(centres);
    s * s + 4.0 * s + 16.0
}

/// 0.1 per year survived after 1901, in tenths so 0.1 × 4 prints as 0.4.
fn years_survived(year: i32) -> f64 {
    f64::from((year - FIRST_YEAR).max(0)) / 10.0
}

pub(crate) fn score(
    system: ScoringSystem,
    rule: &ManorCon,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    let sum_n: f64 = entries
        .iter()
        .map(|entry| if entry.centres > 0 { n(entry.centres) } else { rule.fallen_n })
        .sum();
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match (years[index], winner, solo) {
            (_, Some(w), _) if w == index => (rule.solo, "solo".to_owned()),
            (Some(year), _, _) => {
                (years_survived(year), format!("eliminated in {year}, years survived"))
            }
            (None, Some(_), Some(year)) => {
                (years_survived(year), format!("lost to the solo in {year}, years survived"))
            }
            _ => (100.0 * n(centres) / sum_n, format!("N {} of {}", show(n(centres)), show(sum_n))),
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}
