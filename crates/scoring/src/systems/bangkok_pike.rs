//! Bangkok Pike (`docs/scoring.md#bangkok-pike`): one point per centre, 3 for surviving or 0.1
//! per game year played for a power that fell, and bonuses near the top: 6 for a lone board top
//! (4 each when shared), 4 for one centre behind it, 2 for two behind (a lone topper with
//! nobody one or two behind also takes those); a solo scores 60 and every other power 0.1 per
//! game year it played.

use super::{BoardTop, FIRST_YEAR, GameYears, board_top, game_years, show, solo_game};
use crate::finish::diplomacy_rows;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 60.0;
/// What every survivor of a drawn game gets.
pub const SURVIVAL_POINTS: f64 = 3.0;

/// 0.1 per game year played up to `year` (which counts), in tenths so 0.1 × 5 prints as 0.5.
fn years_played(year: i32) -> f64 {
    f64::from((year - FIRST_YEAR + 1).max(0)) / 10.0
}

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    if let (Some(winner), Some(solo)) = (winner, solo) {
        return solo_game(system, entries, winner, SOLO_POINTS, explain, |index| {
            let year = years[index].unwrap_or(solo);
            (years_played(year), format!("lost to a solo, played to {year}"))
        });
    }
    let BoardTop { centres: top, holders: toppers, .. } = board_top(entries);
    let count_with = |centres: u32| entries.iter().filter(|entry| entry.centres == centres).count();
    let none_at = |behind: u32| top < behind || count_with(top - behind) == 0;
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let bonus = if centres == top {
            match toppers {
                1 if none_at(1) && none_at(2) => 12.0,
                1 if none_at(1) => 10.0,
                1 => 6.0,
                _ => 4.0,
            }
        } else if centres + 1 == top {
            4.0
        } else if centres + 2 == top {
            2.0
        } else {
            0.0
        };
        let (survival, why) = match years[index] {
            Some(year) => (years_played(year), format!("played to {year}")),
            None => (SURVIVAL_POINTS, "survival".to_owned()),
        };
        let points = f64::from(centres) + bonus + survival;
        let explanation = explain.line(|| {
            format!(
                "centres {centres}, bonus {}, {why} {} → {}",
                show(bonus),
                show(survival),
                show(points)
            )
        });
        (points, explanation)
    }))
}
