//! The Diplomacy systems of the dipvis catalogue (`docs/scoring.md#the-dipvis-catalogue`), one
//! module each (the catalogue, `catalogue.rs`, names each system's scoring function), and what
//! they share: rank points split between tied powers, the powers in the
//! draw, and the elimination years some of them need.

use crate::finish::{diplomacy_rows, position};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, PlayerGameScore, ScoringError, ScoringSystem};

pub(crate) mod bangkok;
pub(crate) mod bangkok_pike;
pub(crate) mod base3;
pub(crate) mod carnage;
pub(crate) mod cdiplo;
pub(crate) mod cdiplo_namur;
pub(crate) mod detour09;
pub(crate) mod draw_size;
pub(crate) mod duct_tape;
pub(crate) mod haight;
pub(crate) mod manorcon;
pub(crate) mod maxonian;
pub(crate) mod mischief;
pub(crate) mod omg;
pub(crate) mod open_tribute;
pub(crate) mod ranked_classic;
pub(crate) mod solo_or_bust;
pub(crate) mod southern_sun;
pub(crate) mod sydney_league;
pub(crate) mod tribute;
pub(crate) mod vulcan;
pub(crate) mod whipping;
pub(crate) mod world_classic;
pub(crate) mod your_draw_size;

/// The year a Diplomacy game starts (`docs/scoring.md#bangkok-and-olympic`: years survived
/// count from here).
pub(crate) const FIRST_YEAR: i32 = 1901;

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
    let winner = crate::finish::winner(system, entries);
    let eliminated = elimination_years(system, entries)?;
    let solo = winner.map(|w| solo_year(system, entries, w)).transpose()?;
    Ok(GameYears { winner, eliminated, solo })
}

/// The scores of a game that ended in `winner`'s solo: the soloist gets `solo_points`, every
/// other power what `loser(index)` gives (points and why), each with its explanation line.
pub(crate) fn solo_game(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    winner: usize,
    solo_points: f64,
    explain: Explain,
    loser: impl Fn(usize) -> (f64, String),
) -> Scores {
    Ok(reasoned_rows(system, entries, explain, |index, _| {
        if index == winner { (solo_points, "solo".to_owned()) } else { loser(index) }
    }))
}

/// The scores of a game that ended in `winner`'s solo when the soloist gets `solo_points` and
/// every other power the same `loss`.
pub(crate) fn solo_or_loss(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    winner: usize,
    (solo_points, loss): (f64, f64),
    explain: Explain,
) -> Scores {
    solo_game(system, entries, winner, solo_points, explain, |_| {
        (loss, "lost to a solo".to_owned())
    })
}

/// Every power's row for systems whose explanation is one `centres C, WHY → POINTS` line:
/// `score(index, centres)` gives the points and the why.
pub(crate) fn reasoned_rows<Why: AsRef<str>>(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    explain: Explain,
    score: impl Fn(usize, u32) -> (f64, Why),
) -> Vec<PlayerGameScore> {
    diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let (points, why) = score(index, centres);
        (points, centres_line(explain, centres, why.as_ref(), points))
    })
}

/// A power's one explanation line, `centres C, WHY → POINTS` (none when not explaining).
pub(crate) fn centres_line(explain: Explain, centres: u32, why: &str, points: f64) -> Vec<String> {
    explain.line(|| format!("centres {centres}, {why} → {}", show(points)))
}

/// The top of the board: the most centres a power holds, how many powers hold that many, and
/// how many centres a lone leader is ahead of the next power (0 when the top is shared).
pub(crate) struct BoardTop {
    pub centres: u32,
    pub holders: usize,
    pub lead: u32,
}

pub(crate) fn board_top(entries: &[DiplomacyEntry]) -> BoardTop {
    let centres = entries.iter().map(|entry| entry.centres).max().unwrap_or(0);
    let holders = entries.iter().filter(|entry| entry.centres == centres).count();
    let next = entries.iter().map(|entry| entry.centres).filter(|&c| c < centres).max();
    let lead = if holders > 1 { 0 } else { centres - next.unwrap_or(0) };
    BoardTop { centres, holders, lead }
}

/// ` shared by N` after a rank shared by N > 1 powers, nothing after an outright one.
pub(crate) fn shared_by(sharing: u32) -> String {
    if sharing > 1 { format!(" shared by {sharing}") } else { String::new() }
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
