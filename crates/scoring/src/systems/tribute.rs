//! Tribute (`docs/scoring.md#tribute`): one point per centre, the survivors share 66, and every
//! other survivor pays the board leader(s) a tribute of one point per leader centre over 6,
//! capped at the survival share; a solo scores 100.

use super::{centres_line, show};
use crate::finish::{diplomacy_rows, winner};
use crate::{DiplomacyEntry, Explain, PlayerGameScore, ScoringError, ScoringSystem};

/// What the survivors share.
pub const SURVIVAL_POOL: f64 = 66.0;
/// What a solo scores.
pub const SOLO_POINTS: f64 = 100.0;
/// Leader centres that owe no tribute.
pub const TRIBUTE_FREE_CENTRES: u32 = 6;

pub(crate) fn score(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Result<Vec<PlayerGameScore>, ScoringError> {
    let winner = winner(system, entries);
    let survivors = entries.iter().filter(|entry| entry.centres > 0).count() as f64;
    let survival = SURVIVAL_POOL / survivors;
    let top = entries.iter().map(|entry| entry.centres).max().unwrap_or(0);
    let leaders = entries.iter().filter(|entry| entry.centres == top).count() as f64;
    let tribute = f64::from(top.saturating_sub(TRIBUTE_FREE_CENTRES)).min(survival);
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match winner {
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
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}
