//! A league's aggregation in GraphQL (`docs/scoring.md#league-aggregation`): the
//! `AggregationInput` of `createLeague` and of the what-if `standings(aggregation:)`, the
//! `League.aggregation` output, and the what-if standings themselves.

use async_graphql::{Enum, InputObject, SimpleObject};
use league_scoring::Aggregation;

use crate::error::{GatewayError, GatewayResult};

/// The field every aggregation refusal names: `n` is the only value that can be wrong.
const FIELD_N: &str = "aggregation.n";

/// How game scores make a league's standings total (docs/scoring.md#league-aggregation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum AggregationKind {
    /// Every game counts (the default).
    Sum,
    /// Only each player's `n` best-scoring games count.
    BestN,
    /// The average score per game played, in thousandths (half away from zero).
    Average,
}

/// A league's aggregation: `{kind: SUM}`, `{kind: BEST_N, n: 5}` or `{kind: AVERAGE}`.
/// `n` is required for BEST_N (1 to the games each player plays, k·s) and refused otherwise.
#[derive(Debug, Clone, InputObject)]
pub struct AggregationInput {
    pub kind: AggregationKind,
    pub n: Option<i32>,
}

impl AggregationInput {
    /// The scoring crate's aggregation; a missing, negative or stray `n` is `BAD_USER_INPUT`
    /// on `aggregation.n` (whether N fits the league is the domain's rule).
    pub fn to_domain(&self) -> GatewayResult<Aggregation> {
        match (self.kind, self.n) {
            (AggregationKind::BestN, Some(n)) => Ok(Aggregation::BestN {
                n: u32::try_from(n)
                    .map_err(|_| GatewayError::bad_input(FIELD_N, "must not be negative"))?,
            }),
            (AggregationKind::BestN, None) => {
                Err(GatewayError::bad_input(FIELD_N, "BEST_N needs n, the games that count"))
            }
            (_, Some(_)) => Err(GatewayError::bad_input(FIELD_N, "only BEST_N takes n")),
            (AggregationKind::Sum, None) => Ok(Aggregation::Sum),
            (AggregationKind::Average, None) => Ok(Aggregation::Average),
        }
    }
}

/// `League.aggregation`: how its standings total game scores.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(name = "Aggregation")]
pub struct AggregationValue {
    pub kind: AggregationKind,
    /// The games counted under BEST_N; null otherwise.
    pub n: Option<u32>,
}

impl From<Aggregation> for AggregationValue {
    fn from(aggregation: Aggregation) -> Self {
        match aggregation {
            Aggregation::Sum => AggregationValue { kind: AggregationKind::Sum, n: None },
            Aggregation::BestN { n } => {
                AggregationValue { kind: AggregationKind::BestN, n: Some(n) }
            }
            Aggregation::Average => AggregationValue { kind: AggregationKind::Average, n: None },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(kind: AggregationKind, n: Option<i32>) -> AggregationInput {
        AggregationInput { kind, n }
    }

    #[test]
    fn inputs_map_onto_the_scoring_aggregation() {
        assert_eq!(input(AggregationKind::Sum, None).to_domain().unwrap(), Aggregation::Sum);
        assert_eq!(
            input(AggregationKind::BestN, Some(5)).to_domain().unwrap(),
            Aggregation::BestN { n: 5 }
        );
        assert_eq!(
            input(AggregationKind::Average, None).to_domain().unwrap(),
            Aggregation::Average
        );
    }

    #[test]
    fn a_missing_negative_or_stray_n_names_aggregation_n() {
        for bad in [
            input(AggregationKind::BestN, None),
            input(AggregationKind::BestN, Some(-1)),
            input(AggregationKind::Sum, Some(3)),
            input(AggregationKind::Average, Some(3)),
        ] {
            let error = bad.to_domain().unwrap_err();
            assert_eq!(error.code(), "BAD_USER_INPUT");
            assert!(error.message().starts_with("aggregation.n:"), "{}", error.message());
        }
    }
}
