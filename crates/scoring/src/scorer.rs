//! What a scoring function is (`docs/scoring.md#the-catalogue`): the type every system's module
//! returns ([`Scores`]) and the function the catalogue names for each system ([`Scoring`]). A
//! leaf, so the systems and the catalogue that names them both build on it without importing
//! each other.

use crate::{DiplomacyEntry, Explain, PlacementEntry, PlayerGameScore, ScoringError, TeamResult};

/// What scoring one result gives: each player's row, or why the result cannot be scored.
pub(crate) type Scores = Result<Vec<PlayerGameScore>, ScoringError>;

/// A function scoring one validated result of shape `R` for a system.
pub(crate) type Scorer<R> = fn(crate::ScoringSystem, &R, Explain) -> Scores;

/// A system's scoring function, by the result shape it scores.
pub(crate) enum Scoring {
    Placement(Scorer<[PlacementEntry]>),
    Diplomacy(Scorer<[DiplomacyEntry]>),
    Teams(Scorer<TeamResult>),
}
