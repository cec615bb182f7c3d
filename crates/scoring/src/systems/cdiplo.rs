//! C-Diplo 100 and C-Diplo 80 (`docs/scoring.md#c-diplo`): points for playing, one per centre,
//! and bonuses for the three best centre counts (ties split them); a solo scores a fixed amount.

use super::{centre_position, shared_by, shared_points, show, solo_or_loss};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// One C-Diplo variant's numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CDiplo {
    pub solo: f64,
    pub played: f64,
    pub ranks: [f64; 3],
}

/// C-Diplo 100: solo 100; 1 for playing; 38, 14, 7 for the three best.
pub const C_DIPLO_100: CDiplo = CDiplo { solo: 100.0, played: 1.0, ranks: [38.0, 14.0, 7.0] };
/// C-Diplo 80: solo 80; nothing for playing; 25, 14, 7 for the three best.
pub const C_DIPLO_80: CDiplo = CDiplo { solo: 80.0, played: 0.0, ranks: [25.0, 14.0, 7.0] };

pub(crate) fn score(
    system: ScoringSystem,
    rule: &CDiplo,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    if let Some(winner) = winner(system, entries) {
        return solo_or_loss(system, entries, winner, (rule.solo, 0.0), explain);
    }
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (position, sharing) = centre_position(entries, index);
        let rank = shared_points(&rule.ranks, position, sharing);
        let points = rule.played + f64::from(centres) + rank;
        let explanation = explain.line(|| {
            format!(
                "played {}, centres {centres}, rank {position}{} {} → {}",
                rule.played,
                shared_by(sharing),
                show(rank),
                show(points)
            )
        });
        (points, explanation)
    }))
}
