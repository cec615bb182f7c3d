//! Haight v1.0 (`docs/scoring.md#haight`): 10 per centre, one point per game year played for a
//! power that fell, rank points 66, 55 … 0 (survivors by centres, then the fallen by when they
//! fell; equal powers get the lower rank's points) and 5 per centre of a lone leader's lead; a
//! solo scores 451, each other survivor the better of 5 per centre and its years played, each
//! fallen power its years played.

use super::survivors_then_fallen;
use super::{BoardTop, FIRST_YEAR, GameYears, board_top, game_years, shared_by, show, solo_game};
use crate::finish::diplomacy_rows;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 451.0;
/// Points per centre in a drawn game.
pub const PER_CENTRE: f64 = 10.0;
/// Rank points, 1st to 7th.
pub const RANKS: [f64; 7] = [66.0, 55.0, 44.0, 33.0, 22.0, 11.0, 0.0];
/// Points per centre of a lone leader's lead.
pub const PER_CENTRE_LEAD: f64 = 5.0;

/// Game years played up to `year`, which counts.
fn played(year: i32) -> f64 {
    f64::from(year - FIRST_YEAR + 1)
}

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    if let (Some(winner), Some(solo)) = (winner, solo) {
        return solo_game(system, entries, winner, SOLO_POINTS, explain, |index| {
            match years[index] {
                Some(year) => (played(year), format!("eliminated in {year}, years played")),
                None => (
                    (5.0 * f64::from(entries[index].centres)).max(played(solo)),
                    format!("lost to the solo in {solo}, best of 5 per centre and years played"),
                ),
            }
        });
    }
    let BoardTop { centres: top, lead, .. } = board_top(entries);
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (place, sharing) = survivors_then_fallen(entries, &years, index);
        // Equal powers get the points of the lowest rank they share.
        let rank = RANKS[(place + sharing - 2) as usize];
        let base = match years[index] {
            Some(year) => played(year),
            None => PER_CENTRE * f64::from(centres),
        };
        let lead_bonus = if centres == top { PER_CENTRE_LEAD * f64::from(lead) } else { 0.0 };
        let points = base + rank + lead_bonus;
        let explanation = explain.line(|| {
            format!(
                "centres {centres}, {} {}, rank {place}{} {}{} → {}",
                if years[index].is_some() { "years played" } else { "centre points" },
                show(base),
                shared_by(sharing),
                show(rank),
                if lead_bonus > 0.0 { format!(", lead {lead} × 5") } else { String::new() },
                show(points)
            )
        });
        (points, explanation)
    }))
}
