//! Sydney League (`docs/scoring.md#sydney-league`): 25 per centre plus position points 700,
//! 600 … 100 (equal powers share the average), survivors placed by centres and eliminated
//! powers after them by when they fell, plus one point per year survived for an eliminated
//! power; with a solo every score is worked out the same way, then the soloist's is raised by
//! half and everyone else's halved.

use super::{FIRST_YEAR, elimination_years, shared_points, show, survivors_then_fallen};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// Points per centre.
pub const PER_CENTRE: f64 = 25.0;
/// Position points, 1st to 7th.
pub const POSITIONS: [f64; 7] = [700.0, 600.0, 500.0, 400.0, 300.0, 200.0, 100.0];

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let winner = winner(system, entries);
    let years = elimination_years(system, entries)?;
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (place, sharing) = survivors_then_fallen(entries, &years, index);
        let position = shared_points(&POSITIONS, place, sharing);
        // The year of elimination counts as survived.
        let survived = years[index].map_or(0, |year| 1 + year - FIRST_YEAR);
        let base = PER_CENTRE * f64::from(centres) + position + f64::from(survived);
        let (factor, solo_note) = match winner {
            Some(w) if w == index => (1.5, ", solo × 1.5"),
            Some(_) => (0.5, ", lost to a solo × 0.5"),
            None => (1.0, ""),
        };
        let points = base * factor;
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes => vec![format!(
                "centres {centres} × 25, position {place}{} {}{}{solo_note} → {}",
                if sharing > 1 { format!(" shared by {sharing}") } else { String::new() },
                show(position),
                if years[index].is_some() {
                    format!(", years survived {survived}")
                } else {
                    String::new()
                },
                show(points)
            )],
        };
        (points, explanation)
    }))
}
