//! The catalogue of tournament scorings (`docs/tournaments.md#round-and-tournament-scoring`):
//! one entry per scoring (a numbered family such as `best-rounds-N` is one entry) says
//! everything the platform knows about it — its stored id, its name and one-line rule, its
//! source, whether it combines round or game scores, what it needs of the planned rounds, and
//! the function that scores it. [`TournamentScoring`], its facts ([`TournamentScoringInfo`]),
//! its checks and the scoring dispatch of the standings are generated from that one list, so
//! adding a tournament scoring is its function (`rounds.rs`, `games.rs` or a module of its own)
//! and one entry here, plus its row in the table of `docs/tournaments.md` (a test checks it).

use std::fmt;
use std::hash::Hash;
use std::ops::RangeInclusive;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::card::Tally;
use super::games::{self, Rest};
use super::{rounds, wdc};
use crate::ScoringError;

/// Expands the catalogue into [`TournamentScoring`], each scoring's [`Entry`] and the scoring
/// dispatch. An entry is `(Variant, "stored-id", { name, rule, basis, source, rounds, score })`,
/// or for a numbered family `(Variant { n in MIN..=MAX }, "stored-id-N", { … })` with `{n}` in
/// its name and rule standing for the number (and optionally `one: (name, rule)`, the wording
/// for N = 1). `rounds: |n, rounds| …` is what the scoring needs of the planned rounds besides
/// one (`Err`: why not, after the id); `score: |n, tally| …` scores every card ([`Tally`]); `n`
/// is the N of a numbered family, 0 otherwise.
macro_rules! define_tournament_scorings {
    (@n) => { 0 };
    (@n $n:ident) => { $n };
    (@numbers) => { None };
    (@numbers $min:literal, $max:literal) => { Some($min..=$max) };
    (@make $variant:ident) => { |_| TournamentScoring::$variant };
    (@make $variant:ident $n:ident) => { |$n| TournamentScoring::$variant { $n } };
    (@one) => { None };
    (@one $name:literal, $rule:literal) => { Some(($name, $rule)) };
    ($(($variant:ident $({ $n:ident in $min:literal ..= $max:literal })?, $id:literal, {
        name: $name:literal,
        rule: $rule:literal,
        $(one: ($one_name:literal, $one_rule:literal),)?
        basis: $basis:ident,
        source: $source:literal,
        rounds: $rounds:expr,
        score: $score:expr $(,)?
    })),* $(,)?) => {
        /// How a tournament combines its rounds (or its games) into a player's total. Stored in
        /// events as its string id ([`TournamentScoring::id`]); [`TournamentScoring::all`] lists
        /// every one.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum TournamentScoring {
            $(
                #[doc = $rule]
                $variant $({ $n: u32 })?,
            )*
        }

        impl TournamentScoring {
            /// One scoring per entry (a numbered family's lowest N), in catalogue order.
            const ENTRIES: &'static [TournamentScoring] =
                &[$(TournamentScoring::$variant $({ $n: $min })?),*];

            /// The scoring's entry of the catalogue.
            fn entry(self) -> Entry {
                match self {
                    $(TournamentScoring::$variant $({ $n })? => Entry {
                        n: define_tournament_scorings!(@n $($n)?),
                        pattern: $id,
                        numbers: define_tournament_scorings!(@numbers $($min, $max)?),
                        make: define_tournament_scorings!(@make $variant $($n)?),
                        name: $name,
                        rule: $rule,
                        one: define_tournament_scorings!(@one $($one_name, $one_rule)?),
                        basis: Basis::$basis,
                        source: $source,
                        rounds: $rounds,
                    },)*
                }
            }

            /// Scores every card of `tally` under this scoring: marks the rounds and boards
            /// that count and sets each total.
            pub(super) fn score<K: Copy + Ord + Hash>(self, tally: &mut Tally<'_, K>) {
                match self {
                    $(TournamentScoring::$variant $({ $n })? => {
                        let score: fn(u32, &mut Tally<'_, K>) = $score;
                        score(define_tournament_scorings!(@n $($n)?), tally)
                    })*
                }
            }
        }
    };
}

define_tournament_scorings! {
    (SumAllRounds, "sum-all-rounds", {
        name: "Sum all round scores",
        rule: "Every round score counts.",
        basis: Rounds,
        source: "dipvis's tournament scoring systems, \"Sum all round scores\"",
        rounds: |_, _| Ok(()),
        score: |_, tally| rounds::keep_best(tally, usize::MAX),
    }),
    (BestRounds { n in 2..=5 }, "best-rounds-N", {
        name: "Sum best {n} rounds",
        rule: "The player's {n} best round scores count; the other rounds are dropped.",
        basis: Rounds,
        source: "dipvis's tournament scoring systems, \"Sum best N rounds\" (class TScoringSum)",
        rounds: |n, rounds| if n > rounds {
            Err(format!("keeps {n} rounds but the tournament plans only {rounds}"))
        } else {
            Ok(())
        },
        score: |n, tally| rounds::keep_best(tally, n as usize),
    }),
    (BestGames { n in 1..=5 }, "best-games-N", {
        name: "Sum best {n} games in any rounds",
        rule: "The player's {n} best games count, in whatever rounds; sitting-out points count as a game.",
        one: (
            "Best single game result",
            "The player's best game counts, in any round; sitting-out points count as a game."
        ),
        basis: Games,
        source: "dipvis's tournament scoring systems, \"Best single game result\" and \"Sum best N games in any rounds\" (class TScoringSumGames); N = 2 is this platform's",
        rounds: |_, _| Ok(()),
        score: |n, tally| games::keep_best(tally, |_| (n as usize, Rest::Dropped)),
    }),
    (GamesAveragePlusTen, "games-average-plus-10", {
        name: "Sum games, divide by count + 10",
        rule: "The sum of every game (and sitting-out points) divided by the number of them plus 10.",
        basis: Games,
        source: "dipvis's tournament scoring systems, \"Sum games, divide by count + 10\"",
        rounds: |_, _| Ok(()),
        score: |_, tally| games::average_plus_ten(tally),
    }),
    (BestTwoPlusHalfAverageOfRest, "best-2-plus-half-average-of-rest", {
        name: "Sum best 2 games plus half the average of the rest",
        rule: "The best 2 games count in full, the others' average counts half.",
        basis: Games,
        source: "dipvis's tournament scoring systems, \"Sum best 2 games plus half the average of the rest\" (class TScoringSumGames)",
        rounds: |_, _| Ok(()),
        score: |_, tally| games::keep_best(tally, |_| (2, Rest::Average { divisor: 2.0 })),
    }),
    (BestTwoPlusHalfThird, "best-2-plus-half-3rd", {
        name: "Sum best 2 games plus half the third best",
        rule: "The best 2 games count in full, the 3rd best half; the others are dropped.",
        basis: Games,
        source: "dipvis's tournament scoring systems, \"Sum best 2 games plus half the third best\"",
        rounds: |_, _| Ok(()),
        score: |_, tally| games::keep_best(tally, |_| (2, Rest::Next { count: 1, divisor: 2.0 })),
    }),
    (BestThreePlusHalfFourth, "best-3-plus-half-4th", {
        name: "Sum best 3 games plus half the fourth best",
        rule: "The best 3 games count in full, the 4th best half; the others are dropped.",
        basis: Games,
        source: "dipvis's tournament scoring systems, \"Sum best 3 games plus half the fourth best\"",
        rounds: |_, _| Ok(()),
        score: |_, tally| games::keep_best(tally, |_| (3, Rest::Next { count: 1, divisor: 2.0 })),
    }),
    (BestTwoPlusHalfThirdOrThirdOfThirdAndFourth, "best-2-plus-half-3rd-or-third-of-3rd-and-4th", {
        name: "Sum best 2 games plus either 1/2 the 3rd or 1/3 the sum of the 3rd and 4th",
        rule: "The best 2 games count in full; with 3 games the 3rd counts half, with 4 or more the 3rd and 4th count a third each; the others are dropped.",
        basis: Games,
        source: "dipvis's tournament scoring systems, \"Sum best 2 games plus either 1/2 the 3rd or 1/3 the sum of the 3rd and 4th\"; games beyond the 4th dropped, as its name says",
        rounds: |_, _| Ok(()),
        score: |_, tally| {
            games::keep_best(tally, |games| if games >= 4 {
                (2, Rest::Next { count: 2, divisor: 3.0 })
            } else {
                (2, Rest::Next { count: 1, divisor: 2.0 })
            })
        },
    }),
    (Wdc2025, "wdc-2025", {
        name: "WDC 2025",
        rule: "The best 2 of rounds 1-3 plus round 4; the top 21 after round 3 score round 4 x1.5 (ties at 21st: best game, head-to-head, centres, dropped round, DAANZ, player order).",
        basis: Rounds,
        source: "dipvis's WDC 2025 tournament scoring; the head-to-head step dipvis left undone, DAANZ where it draws lots and player order are this platform's",
        rounds: |_, rounds| if rounds == 4 {
            Ok(())
        } else {
            Err(format!("needs exactly 4 rounds, got {rounds}"))
        },
        score: |_, tally| wdc::score(tally),
    }),
}

/// Whether a scoring combines round scores or takes game scores directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Basis {
    Rounds,
    Games,
}

/// One scoring's entry of the catalogue (see [`define_tournament_scorings!`]).
struct Entry {
    /// The scoring's N in a numbered family (`best-rounds-3`: 3), else 0.
    n: u32,
    /// The stored id, `N` standing for the number in a numbered family (`best-rounds-N`).
    pattern: &'static str,
    /// The N a numbered family takes; `None` for a scoring of its own.
    numbers: Option<RangeInclusive<u32>>,
    /// The family's scoring of an N.
    make: fn(u32) -> TournamentScoring,
    /// The name, `{n}` standing for N.
    name: &'static str,
    /// The rule in one or two sentences, `{n}` standing for N.
    rule: &'static str,
    /// The name and rule of N = 1, where the wording differs.
    one: Option<(&'static str, &'static str)>,
    basis: Basis,
    source: &'static str,
    /// What the scoring needs of the planned rounds (N, rounds) besides one; `Err`: why not.
    rounds: fn(u32, u32) -> Result<(), String>,
}

impl Entry {
    /// A numbered family's ids before the number (`best-rounds-`).
    fn prefix(&self) -> &'static str {
        self.pattern.strip_suffix('N').unwrap_or(self.pattern)
    }

    /// `{n}` of a name or rule as this scoring's N.
    fn words(&self, text: &str) -> String {
        text.replace("{n}", &self.n.to_string())
    }
}

/// What every surface shows about one tournament scoring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentScoringInfo {
    /// The stored id (`best-rounds-3`).
    pub id: String,
    pub name: String,
    /// The rule, in one or two sentences.
    pub description: String,
    /// Whether it combines round scores (true) or game scores directly (false).
    pub uses_round_scores: bool,
}

impl TournamentScoring {
    /// Every tournament scoring, in the stable order the catalogue lists them (a numbered
    /// family's from its lowest N).
    pub fn all() -> Vec<TournamentScoring> {
        let mut all = Vec::new();
        for scoring in Self::ENTRIES {
            let entry = scoring.entry();
            match entry.numbers {
                Some(numbers) => all.extend(numbers.map(entry.make)),
                None => all.push(*scoring),
            }
        }
        all
    }

    /// The stored id (`sum-all-rounds`, `best-rounds-3`, `wdc-2025`, …).
    pub fn id(self) -> String {
        let entry = self.entry();
        match entry.numbers {
            Some(_) => format!("{}{}", entry.prefix(), entry.n),
            None => entry.pattern.to_owned(),
        }
    }

    /// The id of the scoring's catalogue entry: its stored id, or its family's with `N` for
    /// the number (`best-rounds-N`).
    pub fn id_pattern(self) -> &'static str {
        self.entry().pattern
    }

    /// The N its family takes (`best-rounds-N`: 2 to 5); `None` for a scoring of its own.
    pub fn numbers(self) -> Option<RangeInclusive<u32>> {
        self.entry().numbers
    }

    /// Where the rule comes from.
    pub fn source(self) -> &'static str {
        self.entry().source
    }

    /// Every id, comma-separated, `N` standing for the number (for error messages).
    pub fn known_ids() -> String {
        let ids: Vec<String> = Self::ENTRIES
            .iter()
            .map(|scoring| {
                let entry = scoring.entry();
                match entry.numbers {
                    Some(numbers) => {
                        format!("{} (N = {}..{})", entry.pattern, numbers.start(), numbers.end())
                    }
                    None => entry.pattern.to_owned(),
                }
            })
            .collect();
        ids.join(", ")
    }

    /// Parses a stored id (surrounding blanks and case ignored); an unknown id, or an N out of
    /// range, is refused under field `scoring` with the known ids.
    pub fn parse(id: &str) -> Result<Self, ScoringError> {
        let wanted = id.trim().to_ascii_lowercase();
        for scoring in Self::ENTRIES {
            let entry = scoring.entry();
            let Some(numbers) = entry.numbers.clone() else { continue };
            let prefix = entry.prefix();
            if let Some(n) = wanted.strip_prefix(prefix) {
                return match n.parse::<u32>() {
                    Ok(n) if numbers.contains(&n) => Ok((entry.make)(n)),
                    _ => Err(ScoringError::invalid(
                        "scoring",
                        format!(
                            "{prefix}N takes N from {} to {}, got `{n}`",
                            numbers.start(),
                            numbers.end()
                        ),
                    )),
                };
            }
        }
        TournamentScoring::all().into_iter().find(|scoring| scoring.id() == wanted).ok_or_else(
            || {
                ScoringError::invalid(
                    "scoring",
                    format!(
                        "unknown tournament scoring `{id}` (known: {})",
                        TournamentScoring::known_ids()
                    ),
                )
            },
        )
    }

    /// Refuses rules that cannot work with the tournament's number of rounds, under field
    /// `rounds` (or `scoring` for an N out of its family's range): every scoring needs a round,
    /// and each what its entry says (best N rounds: N ≤ rounds; WDC 2025: exactly 4 rounds).
    pub fn check(self, rounds: u32) -> Result<(), ScoringError> {
        let id = self.id();
        let entry = self.entry();
        if let Some(numbers) = &entry.numbers
            && !numbers.contains(&entry.n)
        {
            return Err(ScoringError::invalid(
                "scoring",
                format!("{id}: N must be from {} to {}", numbers.start(), numbers.end()),
            ));
        }
        if rounds == 0 {
            return Err(ScoringError::invalid(
                "rounds",
                format!("{id} needs at least 1 round, got 0"),
            ));
        }
        (entry.rounds)(entry.n, rounds)
            .map_err(|needs| ScoringError::invalid("rounds", format!("{id} {needs}")))
    }

    /// True when the total combines round scores; false when it takes game scores directly
    /// (sitting-out points then count as a pseudo-game).
    pub fn uses_round_scores(self) -> bool {
        self.entry().basis == Basis::Rounds
    }

    pub fn info(self) -> TournamentScoringInfo {
        let entry = self.entry();
        let (name, rule) = match entry.one {
            Some(one) if entry.n == 1 => one,
            _ => (entry.name, entry.rule),
        };
        TournamentScoringInfo {
            id: self.id(),
            name: entry.words(name),
            description: entry.words(rule),
            uses_round_scores: self.uses_round_scores(),
        }
    }
}

/// Every tournament scoring, in a stable order.
pub fn tournament_scorings() -> Vec<TournamentScoringInfo> {
    TournamentScoring::all().into_iter().map(TournamentScoring::info).collect()
}

impl fmt::Display for TournamentScoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

impl FromStr for TournamentScoring {
    type Err = ScoringError;

    fn from_str(id: &str) -> Result<Self, Self::Err> {
        TournamentScoring::parse(id)
    }
}

impl Serialize for TournamentScoring {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.id())
    }
}

impl<'de> Deserialize<'de> for TournamentScoring {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        TournamentScoring::parse(&id).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::TournamentScoring;

    #[test]
    fn every_entry_is_whole() {
        for scoring in TournamentScoring::all() {
            let entry = scoring.entry();
            assert!(!entry.source.is_empty() && !entry.rule.is_empty(), "{scoring}");
            assert_eq!(entry.numbers.is_some(), entry.pattern.ends_with("-N"), "{scoring}");
            assert_eq!((entry.make)(entry.n), scoring);
            let info = scoring.info();
            assert!(!info.name.contains('{') && !info.description.contains('{'), "{scoring}");
        }
    }
}
