//! Ranked Classic (`docs/scoring.md#ranked-classic`): a survivor scores 30, 10 per centre and
//! rank points (200, 90, 60, 40, 30, 20, 10; two level share the two-way table 135, 70, 50,
//! 35, 25, 15; three or more level get the lowest place they share); a power that fell scores
//! one point per year survived; a solo scores 550 and every other power one point per year it
//! survived. Ranked Classic v2 differs only in three or more level powers: they get the two-way
//! table's points for the second-lowest place they share.

use super::{FIRST_YEAR, GameYears, centre_position, centres_line, game_years};
use crate::finish::diplomacy_rows;
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// What a solo scores.
pub const SOLO_POINTS: f64 = 550.0;
/// What every survivor of a drawn game gets.
pub const SURVIVAL_POINTS: f64 = 30.0;
/// Points per centre.
pub const PER_CENTRE: f64 = 10.0;
/// Rank points, 1st to 7th.
pub const RANKS: [f64; 7] = [200.0, 90.0, 60.0, 40.0, 30.0, 20.0, 10.0];
/// Rank points for exactly two powers level on a place, 1st to 6th.
pub const TWO_LEVEL: [f64; 6] = [135.0, 70.0, 50.0, 35.0, 25.0, 15.0];

/// What three or more powers level on centres get (two level always get the two-way table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiWayTie {
    /// Ranked Classic: the points of the lowest place they share.
    LowestPlace,
    /// Ranked Classic v2: the two-way table's points for the second-lowest place they share.
    TwoWayAtSecondLowest,
}

/// Rank points for a place shared by `sharing` powers.
pub fn rank_points(place: u32, sharing: u32, multi_way: MultiWayTie) -> f64 {
    let lowest = (place + sharing - 1) as usize;
    match (sharing, multi_way) {
        (1, _) => RANKS[place as usize - 1],
        (2, _) => TWO_LEVEL[place as usize - 1],
        (_, MultiWayTie::LowestPlace) => RANKS[lowest - 1],
        (_, MultiWayTie::TwoWayAtSecondLowest) => TWO_LEVEL[lowest - 2],
    }
}

pub(crate) fn score(
    system: ScoringSystem,
    multi_way: MultiWayTie,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    let GameYears { winner, eliminated: years, solo } = game_years(system, entries)?;
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = match (years[index], winner, solo) {
            (_, Some(w), _) if w == index => (SOLO_POINTS, "solo".to_owned()),
            (Some(year), _, _) => {
                (f64::from(year - FIRST_YEAR), format!("eliminated in {year}, years survived"))
            }
            (None, Some(_), Some(year)) => (
                f64::from(year - FIRST_YEAR),
                format!("lost to the solo in {year}, years survived"),
            ),
            _ => {
                let (place, sharing) = centre_position(entries, index);
                let rank = rank_points(place, sharing, multi_way);
                (
                    SURVIVAL_POINTS + PER_CENTRE * f64::from(centres) + rank,
                    format!(
                        "survival 30, rank {place}{} {rank}",
                        if sharing > 1 { format!(" shared by {sharing}") } else { String::new() }
                    ),
                )
            }
        };
        (points, centres_line(explain, centres, &why, points))
    }))
}
