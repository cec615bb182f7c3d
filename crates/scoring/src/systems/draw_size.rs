//! Draw size (`docs/scoring.md#draw-size`): a solo scores 100; otherwise the powers in the draw
//! share 100 equally (a concession, a draw of one, gives its power all 100).

use super::{draw_members, show};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores, and what the draw shares.
pub const POOL: f64 = 100.0;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let winner = winner(system, entries);
    let members = draw_members(entries);
    let size = members.iter().filter(|&&member| member).count();
    Ok(diplomacy_rows(system, entries, |index| {
        let (points, why) = match winner {
            Some(w) if w == index => (POOL, "solo".to_owned()),
            Some(_) => (0.0, "another power soloed".to_owned()),
            None if members[index] => (POOL / size as f64, format!("in a {size}-way draw")),
            None => (0.0, "not in the draw".to_owned()),
        };
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes => {
                vec![format!("centres {}, {why} → {}", entries[index].centres, show(points))]
            }
        };
        (points, explanation)
    }))
}
