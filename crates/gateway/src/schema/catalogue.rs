//! The scoring catalogue over GraphQL: `Query.scoringSystems` and `Query.aggregations`, so
//! every client (the web app first) builds its pickers, result forms and labels from the
//! scoring crate's one catalogue (`league_scoring::catalogue()`, `Aggregation::KINDS`)
//! instead of keeping its own copy. Nothing here states a fact about a system: each field
//! maps a catalogue value onto its GraphQL type.

use async_graphql::resolver_utils::EnumType;
use async_graphql::{Enum, Object, SimpleObject};
use league_projections::GameKind;
use league_scoring::{AggregationInfo as CatalogueAggregation, SystemInfo};

use crate::schema::aggregation::AggregationKind;
use crate::schema::inputs::ScoringSystemValue;
use crate::schema::ratings::values::GameKindValue;

/// The scoring catalogue (merged into the query root).
#[derive(Debug, Default)]
pub struct CatalogueQuery;

#[Object]
impl CatalogueQuery {
    /// Every scoring system the platform knows, in catalogue order, with everything a
    /// client needs to offer it and to report its games (docs/scoring.md).
    async fn scoring_systems(&self) -> Vec<ScoringSystemInfo> {
        scoring_systems()
    }

    /// The games whose new competitions start with another system than the first in a
    /// form, with that system (docs/scoring.md#the-usual-system-of-a-game).
    async fn usual_scoring_systems(&self) -> Vec<UsualScoringSystem> {
        league_scoring::USUAL_SYSTEMS
            .iter()
            .map(|(game, system)| UsualScoringSystem { game, system: (*system).into() })
            .collect()
    }

    /// Every kind of league aggregation, the default first
    /// (docs/scoring.md#league-aggregation).
    async fn aggregations(&self) -> Vec<AggregationInfo> {
        aggregations()
    }
}

/// Which `GameResultInput` shape a system's games are reported in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_scoring::ResultKind")]
pub enum ResultShape {
    /// `placement`: each player's final game points.
    Placement,
    /// `diplomacy`: each power's centres and fate.
    Diplomacy,
    /// `teams`: sides, each with its players.
    Teams,
}

/// What a result must carry for a system, besides the players themselves
/// (`RequiredResultField.description` says where and when).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_scoring::ResultField")]
pub enum ResultRequirement {
    Points,
    Centres,
    EliminatedYear,
    SoloYear,
    EarlierCentres,
    Sides,
    TwoSides,
    UnitsLost,
    Kills,
    ShipsLeft,
}

/// How a system scores a concession, a game every other power conceded to one
/// (docs/scoring.md#draws-and-concessions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(name = "ConcessionScoring", remote = "league_scoring::ConcessionScoring")]
pub enum ConcessionScoringValue {
    /// As that power's solo.
    AsSolo,
    /// As a game without a solo, scored from the centres.
    AsDraw,
    /// The result shape has no concession (placement, team games).
    NoConcession,
}

/// One thing a result must carry, with where it goes and when.
#[derive(Debug, Clone, SimpleObject)]
pub struct RequiredResultField {
    pub field: ResultRequirement,
    /// The field's path in a result and when it is needed, one line.
    pub description: &'static str,
}

/// A game and the system its new competitions start with.
#[derive(SimpleObject)]
pub struct UsualScoringSystem {
    /// The game's name (compared without case).
    pub game: &'static str,
    pub system: ScoringSystemValue,
}

/// Everything the platform knows about one scoring system (docs/scoring.md).
pub struct ScoringSystemInfo(SystemInfo);

/// Everything the platform knows about one scoring system (docs/scoring.md).
#[Object]
impl ScoringSystemInfo {
    /// The value `createLeague` and `League.scoringSystem` use.
    async fn system(&self) -> ScoringSystemValue {
        self.0.system.into()
    }

    /// The name the CLI takes and events store.
    async fn cli_name(&self) -> &'static str {
        self.0.name
    }

    /// The name people use ("Squares", "Centre-count Carnage").
    async fn display_name(&self) -> &'static str {
        self.0.display_name
    }

    /// Other names users know it by.
    async fn aliases(&self) -> &'static [&'static str] {
        self.0.aliases
    }

    /// The `GameResultInput` shape its games are reported in.
    async fn result_shape(&self) -> ResultShape {
        self.0.result_kind.into()
    }

    /// The fewest players a game of it has.
    async fn min_players_per_game(&self) -> u32 {
        self.0.players_per_game.min
    }

    /// The most players a game of it has; null when the scoring rules set no limit.
    async fn max_players_per_game(&self) -> Option<u32> {
        self.0.players_per_game.max
    }

    /// The supply centres a result's centres add up to at most (Diplomacy systems; null for
    /// the others), so a form can show the total against it.
    async fn total_centres(&self) -> Option<u32> {
        self.0.system.total_centres()
    }

    /// What a result must carry, besides the players themselves.
    async fn requires(&self) -> Vec<RequiredResultField> {
        self.0
            .needs
            .iter()
            .map(|&field| RequiredResultField {
                field: field.into(),
                description: field.description(),
            })
            .collect()
    }

    /// How it scores a concession.
    async fn concession_scoring(&self) -> ConcessionScoringValue {
        self.0.concession.into()
    }

    /// The rule in one line.
    async fn rule(&self) -> &'static str {
        self.0.rule
    }

    /// Where the rule is published.
    async fn source(&self) -> &'static str {
        self.0.source
    }

    /// One line saying what it is, with its docs/scoring.md section.
    async fn description(&self) -> &'static str {
        self.0.description
    }

    /// The rating its leagues' games count towards (docs/ratings.md).
    async fn rating_kind(&self) -> GameKindValue {
        GameKind::of(self.0.system).into()
    }
}

/// One kind of league aggregation (docs/scoring.md#league-aggregation).
pub struct AggregationInfo(CatalogueAggregation);

/// One kind of league aggregation (docs/scoring.md#league-aggregation).
#[Object]
impl AggregationInfo {
    /// The value `AggregationInput.kind` takes.
    async fn kind(&self) -> AggregationKind {
        aggregation_kind(&self.0)
    }

    /// The name people use.
    async fn display_name(&self) -> &'static str {
        self.0.display_name
    }

    /// The total, in one line.
    async fn rule(&self) -> &'static str {
        self.0.rule
    }

    /// True when the aggregation takes `n` (the games that count).
    async fn takes_n(&self) -> bool {
        self.0.takes_n
    }
}

/// The GraphQL kind the catalogue entry names by its GraphQL value.
fn aggregation_kind(info: &CatalogueAggregation) -> AggregationKind {
    AggregationKind::items()
        .iter()
        .find(|item| item.name == info.graphql_name)
        .map(|item| item.value)
        .unwrap_or_else(|| {
            unreachable!("the catalogue's aggregation {} is an AggregationKind", info.graphql_name)
        })
}

/// `Query.scoringSystems`: every system, in catalogue order.
fn scoring_systems() -> Vec<ScoringSystemInfo> {
    league_scoring::catalogue().into_iter().map(ScoringSystemInfo).collect()
}

/// `Query.aggregations`: every kind, the default first.
fn aggregations() -> Vec<AggregationInfo> {
    league_scoring::Aggregation::KINDS.into_iter().map(AggregationInfo).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_aggregation_kind_of_the_catalogue_is_a_distinct_graphql_kind() {
        let kinds: Vec<AggregationKind> =
            league_scoring::Aggregation::KINDS.iter().map(aggregation_kind).collect();
        assert_eq!(kinds.len(), AggregationKind::items().len());
        assert!(AggregationKind::items().iter().all(|item| kinds.contains(&item.value)));
    }
}
