//! Your Draw Size (`docs/scoring.md#your-draw-size`): without a solo, a fixed score by the band
//! a power's final centre count falls in (the larger the power, the smaller the draw it can
//! expect); a solo scores 300 (short games) or 320 (unlimited games) and everyone else 0.

use super::reasoned_rows;
use crate::finish::winner;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores in games with a time limit.
pub const SHORT_GAMES_SOLO: f64 = 300.0;
/// What a solo scores in games played to the end.
pub const UNLIMITED_GAMES_SOLO: f64 = 320.0;

/// The score of a power on `centres` centres in a game without a solo.
pub fn band_points(centres: u32) -> f64 {
    match centres {
        0 => 0.0,
        1..=3 => 21.0,
        4..=7 => 30.0,
        8..=10 => 42.0,
        11..=13 => 70.0,
        _ => 105.0,
    }
}

pub(crate) fn score(
    system: ScoringSystem,
    solo: f64,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    let winner = winner(system, entries);
    Ok(reasoned_rows(system, entries, explain, |index, centres| match winner {
        Some(w) if w == index => (solo, "solo"),
        Some(_) => (0.0, "lost to a solo"),
        None => (band_points(centres), "band"),
    }))
}
