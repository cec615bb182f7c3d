//! Open Mind the Gap, OMG (`docs/scoring.md#omg`): 1.5 per centre, 9 for surviving, 4.5 / 3 /
//! 1.5 for the three best centre counts (ties split); a lone board leader then receives from
//! every other power the gap between the top two centre counts, capped at half of that power's
//! score; a solo scores 100 and everyone else 0.

use super::{centre_position, centres_line, shared_points, show};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 100.0;
/// Points per centre.
pub const PER_CENTRE: f64 = 1.5;
/// What every survivor gets.
pub const SURVIVAL_POINTS: f64 = 9.0;
/// Bonuses for the three best centre counts.
pub const RANKS: [f64; 3] = [4.5, 3.0, 1.5];

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let winner = winner(system, entries);
    let mut by_centres: Vec<u32> = entries.iter().map(|entry| entry.centres).collect();
    by_centres.sort_unstable_by(|a, b| b.cmp(a));
    let gap = f64::from(by_centres[0] - by_centres[1]);
    let lone_leader = (gap > 0.0)
        .then(|| entries.iter().position(|entry| entry.centres == by_centres[0]).unwrap_or(0));
    let before: Vec<f64> = (0..entries.len())
        .map(|index| {
            let centres = entries[index].centres;
            let (position, sharing) = centre_position(entries, index);
            let survival = if centres > 0 { SURVIVAL_POINTS } else { 0.0 };
            PER_CENTRE * f64::from(centres) + survival + shared_points(&RANKS, position, sharing)
        })
        .collect();
    let paid = |index: usize| match lone_leader {
        Some(leader) if leader != index => gap.min(before[index] / 2.0),
        _ => 0.0,
    };
    let received: f64 = (0..entries.len()).map(paid).sum();
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match winner {
            Some(w) if w == index => (SOLO_POINTS, "solo".to_owned()),
            Some(_) => (0.0, "lost to a solo".to_owned()),
            None if lone_leader == Some(index) => (
                before[index] + received,
                format!(
                    "before tribute {}, tribute received {}",
                    show(before[index]),
                    show(received)
                ),
            ),
            None => (
                before[index] - paid(index),
                format!(
                    "before tribute {}, tribute paid {}",
                    show(before[index]),
                    show(paid(index))
                ),
            ),
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}
