//! `docs/scoring.md#league-aggregation`: how a league turns its players' game scores into the
//! standings total — the sum of every game (the default), the best N games, or the average per
//! game played — and the check that a best-N setting fits the league.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ScoringError;

/// A league's aggregation of game scores into its standings total. Stored in the league's
/// settings as `{"kind":"sum"}`, `{"kind":"bestN","n":5}` or `{"kind":"average"}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Aggregation {
    /// Every game counts: the total is the sum of the player's game scores.
    #[default]
    Sum,
    /// Only the player's `n` best-scoring games count (all of them while fewer are played).
    #[serde(rename = "bestN")]
    BestN { n: u32 },
    /// The total is the average score per game played, in thousandths (half away from zero).
    Average,
}

impl Aggregation {
    /// True for the default, which settings leave out of their JSON.
    pub fn is_sum(&self) -> bool {
        *self == Aggregation::Sum
    }

    /// A best-N setting needs 1 ≤ N ≤ the games each player plays in the league (more could
    /// never be counted); refused under field `aggregation.n`. Sum and average always fit.
    pub fn check(&self, games_per_player: u32) -> Result<(), ScoringError> {
        match *self {
            Aggregation::BestN { n } if n == 0 || n > games_per_player => {
                Err(ScoringError::invalid(
                    "aggregation.n",
                    format!(
                        "best N needs N from 1 to the {games_per_player} games each player \
                         plays, got {n}"
                    ),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// What every surface shows about one kind of aggregation (`docs/scoring.md#league-aggregation`),
/// the counterpart of a scoring system's `SystemInfo`. Serialised with camelCase keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AggregationInfo {
    /// The `kind` stored in a league's settings (`sum`, `bestN`, `average`).
    pub kind: &'static str,
    /// The GraphQL `kind` value.
    pub graphql_name: &'static str,
    /// The CLI form (`best:N` takes a whole N ≥ 1).
    pub cli: &'static str,
    pub display_name: &'static str,
    /// The total, in one line.
    pub rule: &'static str,
    /// True when the aggregation takes `n`.
    pub takes_n: bool,
}

impl Aggregation {
    /// Every kind of aggregation, the default first.
    pub const KINDS: [AggregationInfo; 3] = [
        AggregationInfo {
            kind: "sum",
            graphql_name: "SUM",
            cli: "sum",
            display_name: "Sum",
            rule: "The sum of every game's score.",
            takes_n: false,
        },
        AggregationInfo {
            kind: "bestN",
            graphql_name: "BEST_N",
            cli: "best:N",
            display_name: "Best N games",
            rule: "The sum of the player's N highest game scores; the tie-breakers look at those games.",
            takes_n: true,
        },
        AggregationInfo {
            kind: "average",
            graphql_name: "AVERAGE",
            cli: "average",
            display_name: "Average",
            rule: "The player's total over the games they played, to the thousandth.",
            takes_n: false,
        },
    ];

    /// What every surface shows about this aggregation's kind.
    pub fn info(&self) -> AggregationInfo {
        match self {
            Aggregation::Sum => Aggregation::KINDS[0],
            Aggregation::BestN { .. } => Aggregation::KINDS[1],
            Aggregation::Average => Aggregation::KINDS[2],
        }
    }
}

impl fmt::Display for Aggregation {
    /// `sum`, `best:5`, `average` (the CLI form, parsed back by [`FromStr`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Aggregation::Sum => f.write_str("sum"),
            Aggregation::BestN { n } => write!(f, "best:{n}"),
            Aggregation::Average => f.write_str("average"),
        }
    }
}

impl FromStr for Aggregation {
    type Err = ScoringError;

    /// Parses `sum`, `average` or `best:N` (N ≥ 1); anything else is refused under field
    /// `aggregation` (or `aggregation.n` for a bad N).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "sum" => Ok(Aggregation::Sum),
            "average" => Ok(Aggregation::Average),
            _ => {
                let Some(n) = text.strip_prefix("best:") else {
                    return Err(ScoringError::invalid(
                        "aggregation",
                        format!("unknown aggregation `{text}` (known: sum, best:N, average)"),
                    ));
                };
                match n.parse::<u32>() {
                    Ok(n) if n >= 1 => Ok(Aggregation::BestN { n }),
                    _ => Err(ScoringError::invalid(
                        "aggregation.n",
                        format!("best:N needs a whole N ≥ 1, got `{n}`"),
                    )),
                }
            }
        }
    }
}

/// `numerator / denominator` rounded to the nearest whole number, halves away from zero
/// (`denominator` > 0): the average's rounding to thousandths.
pub(crate) fn div_round_half_away(numerator: i64, denominator: i64) -> i64 {
    let quotient = numerator / denominator;
    let remainder = numerator % denominator;
    if 2 * remainder.abs() >= denominator { quotient + numerator.signum() } else { quotient }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_forms_are_tagged_by_kind() {
        let cases = [
            (Aggregation::Sum, r#"{"kind":"sum"}"#),
            (Aggregation::BestN { n: 5 }, r#"{"kind":"bestN","n":5}"#),
            (Aggregation::Average, r#"{"kind":"average"}"#),
        ];
        for (aggregation, json) in cases {
            assert_eq!(serde_json::to_string(&aggregation).unwrap(), json);
            assert_eq!(serde_json::from_str::<Aggregation>(json).unwrap(), aggregation);
        }
        assert!(serde_json::from_str::<Aggregation>(r#"{"kind":"bestN"}"#).is_err());
        assert!(Aggregation::default().is_sum());
    }

    #[test]
    fn best_n_must_fit_the_games_each_player_plays() {
        assert!(Aggregation::BestN { n: 1 }.check(6).is_ok());
        assert!(Aggregation::BestN { n: 6 }.check(6).is_ok());
        for n in [0, 7] {
            let error = Aggregation::BestN { n }.check(6).unwrap_err();
            assert_eq!(error.field(), "aggregation.n");
        }
        assert!(Aggregation::Sum.check(0).is_ok());
        assert!(Aggregation::Average.check(0).is_ok());
    }

    #[test]
    fn cli_forms_round_trip_and_bad_ones_name_the_field() {
        for aggregation in [Aggregation::Sum, Aggregation::BestN { n: 3 }, Aggregation::Average] {
            assert_eq!(aggregation.to_string().parse::<Aggregation>().unwrap(), aggregation);
        }
        assert_eq!("best:0".parse::<Aggregation>().unwrap_err().field(), "aggregation.n");
        assert_eq!("best:x".parse::<Aggregation>().unwrap_err().field(), "aggregation.n");
        assert_eq!("median".parse::<Aggregation>().unwrap_err().field(), "aggregation");
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(div_round_half_away(5, 2), 3);
        assert_eq!(div_round_half_away(-5, 2), -3);
        assert_eq!(div_round_half_away(4, 3), 1);
        assert_eq!(div_round_half_away(5, 3), 2);
        assert_eq!(div_round_half_away(-4, 3), -1);
        assert_eq!(div_round_half_away(0, 7), 0);
    }
}
