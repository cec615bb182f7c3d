//! The Diplomacy systems of the dipvis catalogue (`docs/scoring.md#the-dipvis-catalogue`), one
//! module each, and what they share: rank points split between tied powers, the powers in the
//! draw, and the elimination years some of them need.

use crate::finish::position;
use crate::{DiplomacyEntry, Explain, PlayerGameScore, ScoringError, ScoringSystem};

mod bangkok;
mod bangkok_pike;
mod base3;
mod carnage;
mod cdiplo;
mod cdiplo_namur;
mod detour09;
mod draw_size;
mod duct_tape;
mod haight;
mod manorcon;
mod maxonian;
mod mischief;
mod omg;
mod open_tribute;
mod ranked_classic;
mod solo_or_bust;
mod southern_sun;
mod sydney_league;
mod tribute;
mod vulcan;
mod whipping;
mod world_classic;
mod your_draw_size;

/// The year a Diplomacy game starts (`docs/scoring.md#bangkok-and-olympic`: years survived
/// count from here).
pub(crate) const FIRST_YEAR: i32 = 1901;

/// Scores a validated Diplomacy game with one of the catalogue's systems (input order).
pub(crate) fn score(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Result<Vec<PlayerGameScore>, ScoringError> {
    use ScoringSystem as S;
    Ok(match system {
        S::SoloOrBust => solo_or_bust::score(entries, explain),
        S::DrawSize => draw_size::score(entries, explain),
        S::CDiplo100 => cdiplo::score(&cdiplo::C_DIPLO_100, entries, explain),
        S::CDiplo80 => cdiplo::score(&cdiplo::C_DIPLO_80, entries, explain),
        S::Bangkok => bangkok::score(system, &bangkok::BANGKOK, entries, explain)?,
        S::Olympic => bangkok::score(system, &bangkok::OLYMPIC, entries, explain)?,
        S::CarnageDeadEqual => carnage::score(system, &carnage::DEAD_EQUAL, entries, explain)?,
        S::CarnageEliminationOrder => {
            carnage::score(system, &carnage::ELIMINATION_ORDER, entries, explain)?
        }
        S::CarnageCentreCount => carnage::score(system, &carnage::CENTRE_COUNT, entries, explain)?,
        S::Carnage2023 => carnage::score(system, &carnage::CARNAGE_2023, entries, explain)?,
        S::Tribute => tribute::score(entries, explain),
        S::Base3 => base3::score(entries, explain),
        S::CDiploNamur => cdiplo_namur::score(entries, explain),
        S::OpenTribute => open_tribute::score(entries, explain),
        S::Mischief => mischief::score(entries, explain),
        S::Omg => omg::score(entries, explain),
        S::Vulcan => vulcan::score(entries, explain),
        S::YourDrawSizeShort => {
            your_draw_size::score(your_draw_size::SHORT_GAMES_SOLO, entries, explain)
        }
        S::YourDrawSizeUnlimited => {
            your_draw_size::score(your_draw_size::UNLIMITED_GAMES_SOLO, entries, explain)
        }
        S::DuctTapeV2 => duct_tape::score(system, duct_tape::Fallen::Equal, entries, explain)?,
        S::DuctTapeV2EliminationOrder => {
            duct_tape::score(system, duct_tape::Fallen::ByEliminationYear, entries, explain)?
        }
        S::SouthernSun => southern_sun::score(system, entries, explain)?,
        S::SydneyLeague => sydney_league::score(system, entries, explain)?,
        S::WorldClassic => {
            world_classic::score(system, world_classic::TopPool::AllToppers, entries, explain)?
        }
        S::SummerClassic => {
            world_classic::score(system, world_classic::TopPool::AtMostTwo, entries, explain)?
        }
        S::Whipping => whipping::score(system, entries, explain)?,
        S::Detour09 => detour09::score(system, entries, explain)?,
        S::BangkokPike => bangkok_pike::score(system, entries, explain)?,
        S::Haight => haight::score(system, entries, explain)?,
        S::ManorCon => manorcon::score(system, &manorcon::MANORCON, entries, explain)?,
        S::ManorConOriginal => manorcon::score(system, &manorcon::ORIGINAL, entries, explain)?,
        S::ManorConV2 => manorcon::score(system, &manorcon::V2, entries, explain)?,
        S::RankedClassic => ranked_classic::score(system, entries, explain)?,
        S::Maxonian => maxonian::score(system, maxonian::MAXONIAN_THRESHOLD, entries, explain)?,
        S::SevenEleven => {
            maxonian::score(system, maxonian::SEVEN_ELEVEN_THRESHOLD, entries, explain)?
        }
        S::Placement
        | S::Baf
        | S::Detour98f
        | S::Squares
        | S::BlueMax
        | S::WoodenShips
        | S::WoodenShipsLegacy => unreachable!("{system} is scored by its own module"),
    })
}

/// Rank points for a finishing position shared by `sharing` powers: the points of the places
/// they occupy (`position` .. `position + sharing - 1`, 1-based), split equally; places past the
/// end of `table` are worth 0 (`docs/scoring.md#the-dipvis-catalogue`, "ties split").
pub(crate) fn shared_points(table: &[f64], position: u32, sharing: u32) -> f64 {
    let first = position as usize - 1;
    let places = first..first + sharing as usize;
    let sum: f64 = places.map(|place| table.get(place).copied().unwrap_or(0.0)).sum();
    sum / f64::from(sharing)
}

/// Position and sharing of power `index` ranked by centres among all powers.
pub(crate) fn centre_position(entries: &[DiplomacyEntry], index: usize) -> (u32, u32) {
    position(entries.len(), index, |i| entries[i].centres)
}

/// Place and sharing of power `index` when the survivors take the top places by centres and
/// the eliminated powers the places after them by elimination year, the later-fallen higher
/// and the same year shared (`docs/scoring.md#the-dipvis-catalogue`, "elimination order").
/// `years` is [`elimination_years`]' answer.
pub(crate) fn survivors_then_fallen(
    entries: &[DiplomacyEntry],
    years: &[Option<i32>],
    index: usize,
) -> (u32, u32) {
    if entries[index].centres > 0 {
        return centre_position(entries, index);
    }
    let alive = entries.iter().filter(|entry| entry.centres > 0).count() as u32;
    let dead: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].centres == 0).collect();
    let own = dead.iter().position(|&i| i == index).unwrap_or(0);
    let (place, sharing) = position(dead.len(), own, |i| years[dead[i]]);
    (alive + place, sharing)
}

/// Which powers share the draw (`docs/scoring.md#draws-and-concessions`): the powers flagged
/// `inDraw`, or every power still holding a centre when none is flagged.
pub(crate) fn draw_members(entries: &[DiplomacyEntry]) -> Vec<bool> {
    if entries.iter().any(|entry| entry.in_draw) {
        entries.iter().map(|entry| entry.in_draw).collect()
    } else {
        entries.iter().map(|entry| entry.centres > 0).collect()
    }
}

/// The elimination year of every power without centres, which systems ranking or paying
/// eliminated powers by when they fell need; a missing one is a typed error naming
/// `players[i].eliminatedYear`.
pub(crate) fn elimination_years(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
) -> Result<Vec<Option<i32>>, ScoringError> {
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| match (entry.centres, entry.eliminated_year) {
            (0, None) => Err(ScoringError::invalid(
                format!("players[{index}].eliminatedYear"),
                format!("{system} needs the year a power with no centres was eliminated"),
            )),
            (0, year) => Ok(year),
            _ => Ok(None),
        })
        .collect()
}

/// The year the soloist `winner` reached its solo (`soloYear`), which systems paying the powers
/// that survived a solo by the years they played need; missing, it is a typed error naming
/// `players[winner].soloYear` (`docs/scoring.md#draws-and-concessions`).
pub(crate) fn solo_year(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    winner: usize,
) -> Result<i32, ScoringError> {
    entries[winner].solo_year.ok_or_else(|| {
        ScoringError::invalid(
            format!("players[{winner}].soloYear"),
            format!("{system} needs the year of the solo to score the powers that lost to it"),
        )
    })
}

/// When a game ended for each power, for systems that score by years played: the soloist (if
/// any) and its solo year, and each fallen power's elimination year (typed errors naming the
/// missing field, see [`elimination_years`] and [`solo_year`]).
pub(crate) struct GameYears {
    pub winner: Option<usize>,
    pub eliminated: Vec<Option<i32>>,
    pub solo: Option<i32>,
}

pub(crate) fn game_years(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
) -> Result<GameYears, ScoringError> {
    let winner = crate::finish::soloist(entries);
    let eliminated = elimination_years(system, entries)?;
    let solo = winner.map(|w| solo_year(system, entries, w)).transpose()?;
    Ok(GameYears { winner, eliminated, solo })
}

/// The scores of a game that ended in `winner`'s solo: the soloist gets `solo_points`, every
/// other power what `loser(index)` gives (points and why), each with its explanation line.
pub(crate) fn solo_game(
    entries: &[DiplomacyEntry],
    winner: usize,
    solo_points: f64,
    explain: Explain,
    loser: impl Fn(usize) -> (f64, String),
) -> Vec<PlayerGameScore> {
    crate::finish::diplomacy_rows(entries, |index| {
        let (points, why) =
            if index == winner { (solo_points, "solo".to_owned()) } else { loser(index) };
        (points, centres_line(explain, entries[index].centres, &why, points))
    })
}

/// A power's one explanation line, `centres C, WHY → POINTS` (none when not explaining).
pub(crate) fn centres_line(explain: Explain, centres: u32, why: &str, points: f64) -> Vec<String> {
    match explain {
        Explain::No => Vec::new(),
        Explain::Yes => vec![format!("centres {centres}, {why} → {}", show(points))],
    }
}

/// Formats a score for explanation lines without float noise (`9.428571428571429` → `9.429`).
pub(crate) fn show(points: f64) -> String {
    let rounded = (points * 1000.0).round() / 1000.0;
    format!("{rounded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tied_places_split_their_points() {
        let table = [38.0, 14.0, 7.0];
        assert_eq!(shared_points(&table, 1, 1), 38.0);
        assert_eq!(shared_points(&table, 1, 2), 26.0);
        assert_eq!(shared_points(&table, 3, 2), 3.5);
        assert_eq!(shared_points(&table, 5, 3), 0.0);
    }
}
