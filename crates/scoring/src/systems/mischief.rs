//! Mischief (`docs/scoring.md#mischief`): one point per centre, 5 more for a lone board top and
//! 1 more each for a top shared by two; a solo scores 34 and everyone else 0.

use super::{centres_line, show};
use crate::finish::{diplomacy_rows, soloist};
use crate::{DiplomacyEntry, Explain, PlayerGameScore};

/// What a solo scores: every centre on the board.
pub const SOLO_POINTS: f64 = 34.0;

pub(crate) fn score(entries: &[DiplomacyEntry], explain: Explain) -> Vec<PlayerGameScore> {
    let winner = soloist(entries);
    let top = entries.iter().map(|entry| entry.centres).max().unwrap_or(0);
    let toppers = entries.iter().filter(|entry| entry.centres == top).count();
    let bonus = match toppers {
        1 => 5.0,
        2 => 1.0,
        _ => 0.0,
    };
    diplomacy_rows(entries, |index| {
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
    })
}
