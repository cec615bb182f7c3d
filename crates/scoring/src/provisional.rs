//! Provisional scores of an unfinished Diplomacy game (`docs/tournaments.md#live-progress`):
//! the supply-centre counts recorded after each game year are read as the result "if the
//! game ended now" — a draw of every surviving power, a power on 0 centres eliminated in the
//! first year it was counted at 0, a power on 18 or more a soloist — and scored by the
//! system like any final result. Only systems whose result is made of centre counts (the
//! Diplomacy ones) can; a placement or team game's result says nothing until it ends.

use crate::validate::{FIRST_GAME_YEAR, TOTAL_CENTRES};
use crate::{DiplomacyEntry, GameResult, ResultKind, ScoringError, ScoringSystem};

/// One game year's centre counts, one per power in seat order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YearCounts<'a> {
    pub year: i32,
    pub centres: &'a [u32],
}

/// Whether `system` can score an unfinished game from its centre counts: the systems whose
/// results are Diplomacy centre counts (survival, elimination order and earlier counts follow
/// from the years recorded); placement and team systems cannot.
pub fn scores_unfinished(system: ScoringSystem) -> bool {
    system.result_kind() == ResultKind::Diplomacy
}

/// Checks one year's counts for a game of `powers` powers: one count per power, each and
/// their total at most [`TOTAL_CENTRES`], somebody holding a centre, and the year not before
/// [`FIRST_GAME_YEAR`]. Answers the total.
pub fn check_year_counts(year: i32, centres: &[u32], powers: usize) -> Result<u32, ScoringError> {
    if year < FIRST_GAME_YEAR {
        return Err(ScoringError::invalid(
            "year",
            format!("{year} is before the game starts ({FIRST_GAME_YEAR})"),
        ));
    }
    if centres.len() != powers {
        return Err(ScoringError::invalid(
            "centres",
            format!("one count per power: {powers} expected, got {}", centres.len()),
        ));
    }
    let total: u32 = centres.iter().sum();
    if total > TOTAL_CENTRES {
        return Err(ScoringError::invalid(
            "centres",
            format!("the counts total {total}, more than the {TOTAL_CENTRES} centres on the board"),
        ));
    }
    if total == 0 {
        return Err(ScoringError::invalid("centres", "somebody holds a centre"));
    }
    Ok(total)
}

/// The result "if the game ended now" for `players` (in seat order) from the years recorded
/// (`years` in year order, one count per player each); `None` before any year is recorded.
/// The latest year gives the centres; every earlier year, latest first, the earlier counts;
/// a power at 0 is eliminated in the first year it was counted at 0; a power on 18 or more
/// soloed in the latest year.
pub fn provisional_result(players: &[String], years: &[YearCounts<'_>]) -> Option<GameResult> {
    let latest = years.last()?;
    let entries = players
        .iter()
        .enumerate()
        .map(|(seat, player)| {
            let centres = latest.centres.get(seat).copied().unwrap_or(0);
            let mut entry = DiplomacyEntry::new(player.clone(), centres);
            if centres == 0 {
                entry.eliminated = true;
                entry.eliminated_year = years
                    .iter()
                    .find(|y| y.centres.get(seat).copied().unwrap_or(0) == 0)
                    .map(|y| y.year);
            }
            if centres >= crate::finish::SOLO_CENTRES {
                entry.solo_year = Some(latest.year);
            }
            entry.earlier_centres = years[..years.len() - 1]
                .iter()
                .rev()
                .map(|y| y.centres.get(seat).copied().unwrap_or(0))
                .collect();
            entry
        })
        .collect();
    Some(GameResult::Diplomacy(entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_game_unexplained;

    fn players() -> Vec<String> {
        ["A", "E", "F", "G", "I", "R", "T"].map(String::from).to_vec()
    }

    #[test]
    fn only_centre_count_systems_score_an_unfinished_game() {
        assert!(scores_unfinished(ScoringSystem::Squares));
        assert!(scores_unfinished(ScoringSystem::Bangkok));
        assert!(!scores_unfinished(ScoringSystem::Placement));
        assert!(!scores_unfinished(ScoringSystem::BlueMax));
    }

    #[test]
    fn a_year_over_the_board_total_or_before_the_game_is_refused() {
        let over = [10, 10, 10, 5, 0, 0, 0];
        let error = check_year_counts(1902, &over, 7).unwrap_err();
        assert!(error.to_string().contains("35"), "{error}");
        assert!(check_year_counts(1900, &[5, 5, 5, 5, 5, 5, 4], 7).is_err());
        assert!(check_year_counts(1901, &[5, 5, 5], 7).is_err());
        assert_eq!(check_year_counts(1901, &[5, 5, 5, 5, 5, 5, 4], 7).unwrap(), 34);
    }

    /// `docs/scoring.md#squares`'s worked example, a game of 10, 8, 6, 5, 3, 2, 0 totalling
    /// 100, as the provisional scores of a board counted at those centres after 1904.
    #[test]
    fn the_latest_year_is_scored_as_a_draw_of_the_survivors() {
        let y1901 = [5, 5, 5, 5, 5, 5, 4];
        let y1904 = [10, 8, 6, 5, 3, 2, 0];
        let years = [
            YearCounts { year: 1901, centres: &y1901 },
            YearCounts { year: 1904, centres: &y1904 },
        ];
        let result = provisional_result(&players(), &years).unwrap();
        let GameResult::Diplomacy(entries) = &result else { panic!("a Diplomacy result") };
        assert_eq!(entries[0].earlier_centres, vec![5]);
        assert_eq!(entries[6].eliminated_year, Some(1904));
        assert_eq!(entries[5].eliminated_year, None);
        let scored = score_game_unexplained(ScoringSystem::Squares, &result).unwrap();
        let total: f64 = scored.players.iter().map(|row| row.score).sum();
        assert!((total - 100.0).abs() < 1e-9, "{total}");
        let first = scored.players.iter().find(|row| row.player == "A").unwrap();
        assert!((first.score - 10_000.0 / 238.0).abs() < 1e-9, "{}", first.score);
    }

    #[test]
    fn nothing_recorded_is_no_result_and_a_solo_ends_in_the_latest_year() {
        assert_eq!(provisional_result(&players(), &[]), None);
        let counts = [18, 6, 4, 3, 3, 0, 0];
        let result =
            provisional_result(&players(), &[YearCounts { year: 1907, centres: &counts }]).unwrap();
        let scored = score_game_unexplained(ScoringSystem::Squares, &result).unwrap();
        assert_eq!(scored.players.iter().find(|row| row.player == "A").unwrap().score, 100.0);
    }
}
