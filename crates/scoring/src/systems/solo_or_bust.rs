//! Solo or bust (`docs/scoring.md#solo-or-bust`): a solo scores 100, every other result 0.

use super::reasoned_rows;
use crate::finish::winner;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What the soloist scores.
pub const SOLO_POINTS: f64 = 100.0;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let winner = winner(system, entries);
    Ok(reasoned_rows(system, entries, explain, |index, _| {
        if winner == Some(index) { (SOLO_POINTS, "solo") } else { (0.0, "no solo") }
    }))
}
