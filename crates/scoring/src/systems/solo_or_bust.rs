//! Solo or bust (`docs/scoring.md#solo-or-bust`): a solo scores 100, every other result 0.

use crate::finish::{diplomacy_rows, winner};
use crate::{DiplomacyEntry, Explain, PlayerGameScore, ScoringError, ScoringSystem};

/// What the soloist scores.
pub const SOLO_POINTS: f64 = 100.0;

pub(crate) fn score(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Result<Vec<PlayerGameScore>, ScoringError> {
    let winner = winner(system, entries);
    Ok(diplomacy_rows(system, entries, |index| {
        let points = if winner == Some(index) { SOLO_POINTS } else { 0.0 };
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes if points > 0.0 => {
                vec![format!("centres {}, solo → {points}", entries[index].centres)]
            }
            Explain::Yes => vec![format!("centres {}, no solo → 0", entries[index].centres)],
        };
        (points, explanation)
    }))
}
