//! Mischief (`docs/scoring.md#mischief`): one point per centre, 5 more for a lone board top and
//! 1 more each for a top shared by two; a solo scores 34 and everyone else 0.

use super::{centres_line, show};
use crate::finish::{diplomacy_rows, winner};
use crate::{DiplomacyEntry, Explain, PlayerGameScore, ScoringError, ScoringSystem};

/// What a solo scores: every centre on the board.
pub const SOLO_POINTS: f64 = 34.0;

pub(crate) fn score(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Result<Vec<PlayerGameScore>, ScoringError> {
    let winner = winner(system, entries);
    let top = entries.iter().map(|entry| entry.centres).max().unwrap_or(0);
    let toppers = entries.iter().filter(|entry| entry.centres == top).count();
    let bonus = match toppers {
        1 => 5.0,
        2 => 1.0,
        _ => 0.0,
    };
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match winner {
            Some(w) if w == index => (SOLO_POINTS, "solo".to_owned()),
            Some(_) => (0.0, "lost to a solo".to_owned()),
            None if centres == top => (
                f64::from(centres) + bonus,
                format!("board top shared by {toppers} {}", show(bonus)),
            ),
            None => (f64::from(centres), "no board top".to_owned()),
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}
