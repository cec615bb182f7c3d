//! Tribute (`docs/scoring.md#tribute`): one point per centre, the survivors share 66, and every
//! other survivor pays the board leader(s) a tribute of one point per leader centre over 6,
//! capped at the survival share; a solo scores 100.

use super::{BoardTop, board_top, reasoned_rows, show};
use crate::finish::winner;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What the survivors share.
pub const SURVIVAL_POOL: f64 = 66.0;
/// What a solo scores.
pub const SOLO_POINTS: f64 = 100.0;
/// Leader centres that owe no tribute.
pub const TRIBUTE_FREE_CENTRES: u32 = 6;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let survivors = entries.iter().filter(|entry| entry.centres > 0).count() as f64;
    let survival = SURVIVAL_POOL / survivors;
    let BoardTop { centres: top, holders: leaders, .. } = board_top(entries);
    let leaders = leaders as f64;
    let tribute = f64::from(top.saturating_sub(TRIBUTE_FREE_CENTRES)).min(survival);
    let winner = winner(system, entries);
    Ok(reasoned_rows(system, entries, explain, |index, centres| match winner {
        Some(w) if w == index => (SOLO_POINTS, "solo".to_owned()),
        Some(_) => (0.0, "lost to a solo".to_owned()),
        None if centres == 0 => (0.0, "eliminated".to_owned()),
        None if centres == top => {
            let received = tribute * (survivors - leaders) / leaders;
            (
                f64::from(centres) + survival + received,
                format!("survival {}, tribute received {}", show(survival), show(received)),
            )
        }
        None => (
            f64::from(centres) + survival - tribute,
            format!("survival {}, tribute paid {}", show(survival), show(tribute)),
        ),
    }))
}
