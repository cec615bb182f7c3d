//! OpenTribute (`docs/scoring.md#opentribute`): every survivor starts on 34 plus 3 per centre
//! and pays the board leader one point per centre the leader holds more; an eliminated power
//! scores 0 and pays the leader's whole count; a top shared by N powers gives each of them
//! 1/N² of the tribute, rounded down; a solo scores 340 and everyone else 0.

use super::{BoardTop, board_top, show};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 340.0;
/// Every survivor's starting score.
pub const BASE: f64 = 34.0;
/// Points per centre.
pub const PER_CENTRE: f64 = 3.0;

pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    let BoardTop { centres: top, holders: leaders, .. } = board_top(entries);
    let leaders = leaders as u32;
    // Every power pays the gap to the top; a leader's gap is 0, an eliminated power's the top.
    let tribute: u32 = entries.iter().map(|entry| top - entry.centres).sum();
    let received = f64::from(tribute / (leaders * leaders));
    let winner = winner(system, entries);
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let paid = f64::from(top - centres);
        let (points, why) = match winner {
            Some(w) if w == index => (SOLO_POINTS, "solo".to_owned()),
            Some(_) => (0.0, "lost to a solo".to_owned()),
            None if centres == 0 => (0.0, "eliminated".to_owned()),
            None if centres == top => (
                BASE + PER_CENTRE * f64::from(centres) + received,
                format!("base 34, tribute received {received} (of {tribute}, {leaders} leaders)"),
            ),
            None => (
                BASE + PER_CENTRE * f64::from(centres) - paid,
                format!("base 34, tribute paid {paid}"),
            ),
        };
        (points, explain.line(|| format!("centres {centres} × 3, {why} → {}", show(points))))
    }))
}
