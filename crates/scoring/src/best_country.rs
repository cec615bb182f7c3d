//! Best Country (`docs/tournaments.md#best-country-and-awards`): for each power, the best
//! single result anyone played with it over a tournament's boards. The tournament compares
//! by score or by supply-centre count; the other figure breaks a tie; results level on both
//! share the place. The caller chooses which boards count (finished ones, without top boards
//! when the tournament says so).

use serde::{Deserialize, Serialize};

/// What a Best Country is decided on first; the other figure breaks a tie.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BestCountryCriterion {
    /// The highest board score, then the most centres (the default, as in dipvis).
    #[default]
    Score,
    /// The most supply centres at the end, then the highest board score.
    Centres,
}

/// One result played with a power: who (`T`, the caller's key), the board score and the
/// centres held at the end.
#[derive(Debug, Clone, PartialEq)]
pub struct CountryResult<T> {
    pub who: T,
    pub score: f64,
    pub centres: u32,
}

/// The leaders of each power, in the order of `results`' powers: every result level with the
/// best on both figures (more than one: they share it), in the order given.
pub fn best_countries<T: Clone>(
    criterion: BestCountryCriterion,
    results: &[Vec<CountryResult<T>>],
) -> Vec<Vec<CountryResult<T>>> {
    results.iter().map(|power| leaders(criterion, power)).collect()
}

fn leaders<T: Clone>(
    criterion: BestCountryCriterion,
    results: &[CountryResult<T>],
) -> Vec<CountryResult<T>> {
    let key = |r: &CountryResult<T>| match criterion {
        BestCountryCriterion::Score => (r.score, f64::from(r.centres)),
        BestCountryCriterion::Centres => (f64::from(r.centres), r.score),
    };
    let Some(best) = results.iter().map(key).max_by(|a, b| a.partial_cmp(b).expect("finite"))
    else {
        return Vec::new();
    };
    results.iter().filter(|r| key(r) == best).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(who: &'static str, score: f64, centres: u32) -> CountryResult<&'static str> {
        CountryResult { who, score, centres }
    }

    fn names(leaders: &[CountryResult<&'static str>]) -> Vec<&'static str> {
        leaders.iter().map(|r| r.who).collect()
    }

    /// `docs/tournaments.md#best-country-and-awards`, example 1: France played three times.
    fn france() -> Vec<CountryResult<&'static str>> {
        vec![result("Ann", 40.0, 9), result("Bob", 52.5, 8), result("Cat", 31.0, 12)]
    }

    #[test]
    fn by_score_the_highest_score_wins() {
        let best = best_countries(BestCountryCriterion::Score, &[france()]);
        assert_eq!(names(&best[0]), ["Bob"]);
    }

    #[test]
    fn by_centres_the_most_centres_win() {
        let best = best_countries(BestCountryCriterion::Centres, &[france()]);
        assert_eq!(names(&best[0]), ["Cat"]);
    }

    /// Example 2: Turkey, two scores level; centres decide.
    #[test]
    fn a_level_score_is_broken_by_centres() {
        let turkey = vec![result("Dan", 30.0, 7), result("Eve", 30.0, 10)];
        let best = best_countries(BestCountryCriterion::Score, &[turkey]);
        assert_eq!(names(&best[0]), ["Eve"]);
    }

    /// Example 3: Italy, level on both figures: shared.
    #[test]
    fn level_on_both_figures_is_shared() {
        let italy = vec![result("Fay", 25.0, 6), result("Gus", 25.0, 6), result("Hal", 20.0, 9)];
        let best = best_countries(BestCountryCriterion::Score, std::slice::from_ref(&italy));
        assert_eq!(names(&best[0]), ["Fay", "Gus"]);
        let best = best_countries(BestCountryCriterion::Centres, &[italy]);
        assert_eq!(names(&best[0]), ["Hal"]);
    }

    #[test]
    fn a_power_nobody_played_has_no_leader() {
        let best = best_countries::<&str>(BestCountryCriterion::Score, &[Vec::new()]);
        assert!(best[0].is_empty());
    }
}
