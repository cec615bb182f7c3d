//! Detour09 (`docs/scoring.md#detour09`): 1 per centre and 2 for holding any, the lone leader
//! the gap to the second power, and 4, 3, 2, 1 for the first four places (equal powers get the
//! lower place's points), scaled so the game totals 100; powers that fell or lost to a solo
//! then add 0.25 per year survived (at most 2); a solo scores 110.

use super::{
    BoardTop, FIRST_YEAR, GameYears, board_top, centre_position, game_years, show, solo_game,
};
use crate::finish::diplomacy_rows;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 110.0;
/// What the raw scores of a drawn game are scaled to.
pub const TOTAL: f64 = 100.0;

/// Survival points for a power whose game ended in `year`: 0.25 per year after 1901, at most 8
/// years.
fn survival(year: i32) -> f64 {
    0.25 * f64::from((year - FIRST_YEAR).clamp(0, 8))
}

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    if let (Some(winner), Some(solo)) = (winner, solo) {
        return solo_game(system, entries, winner, SOLO_POINTS, explain, |index| {
            let year = years[index].unwrap_or(solo);
            (survival(year), format!("lost to a solo, survived to {year}"))
        });
    }
    let BoardTop { centres: top, lead, .. } = board_top(entries);
    let raw: Vec<f64> = (0..entries.len())
        .map(|index| {
            let centres = entries[index].centres;
            let (place, sharing) = centre_position(entries, index);
            // Equal powers get the points of the lowest place they share.
            let last = place + sharing - 1;
            let position = f64::from(5u32.saturating_sub(last));
            let alive = if centres > 0 { 2.0 } else { 0.0 };
            let gap = if centres == top { f64::from(lead) } else { 0.0 };
            f64::from(centres) + alive + gap + position
        })
        .collect();
    let raw_total: f64 = raw.iter().sum();
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let scaled = raw[index] * TOTAL / raw_total;
        let survived = years[index].map_or(0.0, survival);
        let points = scaled + survived;
        let explanation = explain.line(|| {
            format!(
                "centres {centres}, raw {} of {} → {}{} → {}",
                show(raw[index]),
                show(raw_total),
                show(scaled),
                if years[index].is_some() {
                    format!(", survival {}", show(survived))
                } else {
                    String::new()
                },
                show(points)
            )
        });
        (points, explanation)
    }))
}
