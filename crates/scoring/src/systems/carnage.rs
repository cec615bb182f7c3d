//! The Carnage family (`docs/scoring.md#carnage`): points per centre plus points for the final
//! position (7000 for first down to 1000 for seventh, ties split); eliminated powers share the
//! bottom positions equally (dead equal) or are ranked by when they fell (elimination order);
//! Carnage 2023 adds 300 per centre of the leader's lead; the centre-count variant weights
//! centres by 500 and pays losers to a solo.

use super::{BoardTop, board_top, centre_position, elimination_years, shared_by, shared_points};
use super::{show, solo_or_loss, survivors_then_fallen};
use crate::finish::{diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::validate::TOTAL_CENTRES;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// One variant's numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Carnage {
    pub per_centre: f64,
    pub positions: [f64; 7],
    pub solo: f64,
    pub loss: f64,
    /// Eliminated powers all share the bottom positions (else ranked by elimination year).
    pub dead_equal: bool,
    /// Extra points per centre the leader is ahead of the second power.
    pub per_centre_lead: f64,
}

const POSITIONS: [f64; 7] = [7000.0, 6000.0, 5000.0, 4000.0, 3000.0, 2000.0, 1000.0];
/// Every position point plus every centre: a solo takes everything on the table.
const SOLO: f64 = 28_000.0 + TOTAL_CENTRES as f64;

/// Carnage with dead equal.
pub const DEAD_EQUAL: Carnage = Carnage {
    per_centre: 1.0,
    positions: POSITIONS,
    solo: SOLO,
    loss: 0.0,
    dead_equal: true,
    per_centre_lead: 0.0,
};
/// Carnage with elimination order.
pub const ELIMINATION_ORDER: Carnage = Carnage { dead_equal: false, ..DEAD_EQUAL };
/// Carnage 2023: elimination order plus 300 per centre of lead.
pub const CARNAGE_2023: Carnage = Carnage { per_centre_lead: 300.0, ..ELIMINATION_ORDER };
/// Centre-count Carnage.
pub const CENTRE_COUNT: Carnage = Carnage {
    per_centre: 500.0,
    positions: [7007.0, 6006.0, 5005.0, 4004.0, 3003.0, 2002.0, 1001.0],
    solo: 39_028.0,
    loss: 1000.0,
    dead_equal: false,
    per_centre_lead: 0.0,
};

pub(crate) fn score(
    system: ScoringSystem,
    rule: &Carnage,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    if let Some(winner) = winner(system, entries) {
        return solo_or_loss(system, entries, winner, (rule.solo, rule.loss), explain);
    }
    let years = if rule.dead_equal {
        vec![None; entries.len()]
    } else {
        elimination_years(system, entries)?
    };
    let BoardTop { centres: top, lead, .. } = board_top(entries);
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (place, sharing) = match years[index] {
            // Eliminated powers take the places after the survivors, the later fall first.
            Some(_) => survivors_then_fallen(entries, &years, index),
            None => centre_position(entries, index),
        };
        let rank = shared_points(&rule.positions, place, sharing);
        let lead_bonus = if centres > 0 && centres == top && lead > 0 {
            rule.per_centre_lead * f64::from(lead)
        } else {
            0.0
        };
        let points = rule.per_centre * f64::from(centres) + rank + lead_bonus;
        let explanation = explain.line(|| {
            format!(
                "centres {centres} × {}, position {place}{} {}{} → {}",
                rule.per_centre,
                shared_by(sharing),
                show(rank),
                if lead_bonus > 0.0 {
                    format!(", lead {lead} × {}", rule.per_centre_lead)
                } else {
                    String::new()
                },
                show(points)
            )
        });
        (points, explanation)
    }))
}
