//! GraphQL input types and their mapping onto domain values. The mapping only changes
//! shape (ids, integer ranges); every rule about what a valid result is stays in the domain.

use async_graphql::{Enum, ID, InputObject, OneofObject};
use chrono::{DateTime, Utc};
use league_scoring::{
    DiplomacyEntry, GameResult, PlacementEntry, ScoringSystem, Side, TeamPlayer, TeamResult,
};
use uuid::Uuid;

use crate::error::{GatewayError, GatewayResult};

/// Generates the GraphQL `ScoringSystem` enum from the scoring crate's catalogue
/// (`league_scoring::scoring_systems!`), so a new system appears here without an edit.
macro_rules! graphql_scoring_system {
    ($(($variant:ident, $name:tt, $graphql:tt, $kind:ident, $doc:tt)),* $(,)?) => {
        /// The scoring systems (docs/scoring.md); the value decides which `GameResultInput`
        /// shape a league's games take.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
        #[graphql(name = "ScoringSystem")]
        pub enum ScoringSystemValue {
            $(
                #[doc = $doc]
                #[graphql(name = $graphql)]
                $variant,
            )*
        }

        impl From<ScoringSystemValue> for ScoringSystem {
            fn from(value: ScoringSystemValue) -> Self {
                match value {
                    $(ScoringSystemValue::$variant => ScoringSystem::$variant,)*
                }
            }
        }

        impl From<ScoringSystem> for ScoringSystemValue {
            fn from(system: ScoringSystem) -> Self {
                match system {
                    $(ScoringSystem::$variant => ScoringSystemValue::$variant,)*
                }
            }
        }
    };
}

league_scoring::scoring_systems!(graphql_scoring_system);

/// A point in the log's history: after the event at a global position, or at an instant.
#[derive(Debug, Clone, OneofObject)]
pub enum AsOf {
    /// Everything up to and including this global event position.
    Position(i64),
    /// Everything recorded at or before this instant (RFC 3339).
    Time(DateTime<Utc>),
}

impl AsOf {
    /// The projections' bound; a negative position is `BAD_USER_INPUT` on `asOf.position`.
    pub fn to_bound(&self) -> GatewayResult<league_projections::AsOf> {
        Ok(match self {
            AsOf::Position(position) => {
                league_projections::AsOf::Position(u64::try_from(*position).map_err(|_| {
                    GatewayError::bad_input("asOf.position", "must not be negative")
                })?)
            }
            AsOf::Time(time) => league_projections::AsOf::Time(*time),
        })
    }
}

/// A reported game result: exactly one of the three shapes, matching the league's system
/// (`placement` for PLACEMENT; `teams` for BLUE_MAX, WOODEN_SHIPS, WOODEN_SHIPS_LEGACY;
/// `diplomacy` for every other system).
#[derive(Debug, Clone, OneofObject)]
pub enum GameResultInput {
    Placement(Vec<PlacementEntryInput>),
    Diplomacy(Vec<DiplomacyEntryInput>),
    Teams(TeamResultInput),
}

/// A player's final game points.
#[derive(Debug, Clone, InputObject)]
pub struct PlacementEntryInput {
    pub player_id: ID,
    pub points: f64,
}

/// A Diplomacy power's end-of-game position.
#[derive(Debug, Clone, InputObject)]
pub struct DiplomacyEntryInput {
    pub player_id: ID,
    pub centres: i32,
    pub eliminated: Option<bool>,
    pub eliminated_year: Option<i32>,
    /// Included in the draw the players voted through; when no power is flagged the draw is
    /// every surviving power, and a single flagged power is a concession to it
    /// (docs/scoring.md#draws-and-concessions).
    pub in_draw: Option<bool>,
    /// The soloist's game year in which it reached its solo; the systems paying the powers
    /// that lost to a solo by the years they played need it (docs/scoring.md#draws-and-concessions).
    pub solo_year: Option<i32>,
    /// Centre counts at the end of earlier years, the latest first; Maxonian and 7Eleven break
    /// ties on centres with them (docs/scoring.md#maxonian-and-7eleven).
    pub earlier_centres: Option<Vec<i32>>,
}

/// A side-against-side game.
#[derive(Debug, Clone, InputObject)]
pub struct TeamResultInput {
    /// Draw by mutual consent (Wooden Ships).
    pub draw: Option<bool>,
    pub sides: Vec<SideInput>,
}

#[derive(Debug, Clone, InputObject)]
pub struct SideInput {
    pub name: String,
    pub players: Vec<TeamPlayerInput>,
}

/// One player of a side. `units` defaults to 1; `lost`, `kills` to 0.
#[derive(Debug, Clone, InputObject)]
pub struct TeamPlayerInput {
    pub player_id: ID,
    pub points: f64,
    pub units: Option<i32>,
    pub lost: Option<i32>,
    pub kills: Option<i32>,
    pub ships_left: Option<i32>,
    pub surrendered: Option<bool>,
}

/// Parses an `ID` argument as a UUID; anything else is `BAD_USER_INPUT` on `field`.
pub fn parse_id(id: &ID, field: &str) -> GatewayResult<Uuid> {
    Uuid::parse_str(id.as_str())
        .map_err(|_| GatewayError::bad_input(field, format!("{:?} is not a valid id", id.as_str())))
}

fn non_negative(value: i32, field: impl FnOnce() -> String) -> GatewayResult<u32> {
    u32::try_from(value).map_err(|_| GatewayError::bad_input(field(), "must not be negative"))
}

/// Converts a non-negative count input (`size`, `playersPerGame`…).
pub fn count(value: i32, field: &str) -> GatewayResult<u32> {
    non_negative(value, || field.to_owned())
}

impl GameResultInput {
    /// The domain result; player strings are the players' UUIDs. `arg` is the argument
    /// name used in error fields (`result`).
    pub fn to_domain(&self, arg: &str) -> GatewayResult<GameResult> {
        let player = |id: &ID, path: String| parse_id(id, &path).map(|id| id.to_string());
        Ok(match self {
            GameResultInput::Placement(entries) => GameResult::Placement(
                entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        Ok(PlacementEntry {
                            player: player(&e.player_id, format!("{arg}.placement[{i}].playerId"))?,
                            points: e.points,
                        })
                    })
                    .collect::<GatewayResult<_>>()?,
            ),
            GameResultInput::Diplomacy(entries) => GameResult::Diplomacy(
                entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        Ok(DiplomacyEntry {
                            player: player(&e.player_id, format!("{arg}.diplomacy[{i}].playerId"))?,
                            centres: non_negative(e.centres, || {
                                format!("{arg}.diplomacy[{i}].centres")
                            })?,
                            eliminated: e.eliminated.unwrap_or(false),
                            eliminated_year: e.eliminated_year,
                            in_draw: e.in_draw.unwrap_or(false),
                            solo_year: e.solo_year,
                            earlier_centres: e
                                .earlier_centres
                                .iter()
                                .flatten()
                                .enumerate()
                                .map(|(year, &count)| {
                                    non_negative(count, || {
                                        format!("{arg}.diplomacy[{i}].earlierCentres[{year}]")
                                    })
                                })
                                .collect::<GatewayResult<_>>()?,
                            concession_as_draw: false,
                            concession_as_solo: false,
                        })
                    })
                    .collect::<GatewayResult<_>>()?,
            ),
            GameResultInput::Teams(teams) => GameResult::Teams(TeamResult {
                draw: teams.draw.unwrap_or(false),
                sides: teams
                    .sides
                    .iter()
                    .enumerate()
                    .map(|(s, side)| {
                        let players = side
                            .players
                            .iter()
                            .enumerate()
                            .map(|(p, tp)| {
                                let path = |name: &str| {
                                    format!("{arg}.teams.sides[{s}].players[{p}].{name}")
                                };
                                let count = |value: Option<i32>, default: u32, name: &str| {
                                    value.map_or(Ok(default), |v| non_negative(v, || path(name)))
                                };
                                Ok(TeamPlayer {
                                    player: player(&tp.player_id, path("playerId"))?,
                                    points: tp.points,
                                    units: count(tp.units, 1, "units")?,
                                    lost: count(tp.lost, 0, "lost")?,
                                    kills: count(tp.kills, 0, "kills")?,
                                    ships_left: tp
                                        .ships_left
                                        .map(|v| non_negative(v, || path("shipsLeft")))
                                        .transpose()?,
                                    surrendered: tp.surrendered.unwrap_or(false),
                                })
                            })
                            .collect::<GatewayResult<_>>()?;
                        Ok(Side { name: side.name.clone(), players })
                    })
                    .collect::<GatewayResult<_>>()?,
            }),
        })
    }

    /// The name of the chosen shape in the input (`placement`, `diplomacy`, `teams`).
    fn shape(&self) -> &'static str {
        match self {
            GameResultInput::Placement(_) => "placement",
            GameResultInput::Diplomacy(_) => "diplomacy",
            GameResultInput::Teams(_) => "teams",
        }
    }

    /// Translates a domain error field (`result.players[3].centres`, in the scoring crate's
    /// terms) into this input's terms (`result.diplomacy[3].centres`), so a frontend can
    /// point at the offending input.
    pub fn input_field(&self, domain_field: &str) -> String {
        let Some(rest) = domain_field.strip_prefix("result") else {
            return domain_field.to_owned();
        };
        let shape = self.shape();
        let rest = if let Some(tail) = rest.strip_prefix(".players") {
            match self {
                GameResultInput::Teams(_) => format!(".teams.players{tail}"),
                _ => format!(".{shape}{tail}"),
            }
        } else if let Some(tail) = rest.strip_prefix(".sides") {
            format!(".teams.sides{tail}")
        } else if rest == ".draw" {
            ".teams.draw".to_owned()
        } else {
            rest.to_owned()
        };
        let rest = rest.strip_suffix(".player").map_or(rest.clone(), |r| format!("{r}.playerId"));
        format!("result{rest}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diplomacy(centres: i32) -> GameResultInput {
        GameResultInput::Diplomacy(vec![DiplomacyEntryInput {
            player_id: ID::from(Uuid::from_u128(1).to_string()),
            centres,
            eliminated: None,
            eliminated_year: None,
            in_draw: None,
            solo_year: None,
            earlier_centres: None,
        }])
    }

    #[test]
    fn ids_become_canonical_uuid_player_strings() {
        let GameResult::Diplomacy(entries) = diplomacy(3).to_domain("result").unwrap() else {
            panic!("a Diplomacy input maps to a Diplomacy result");
        };
        assert_eq!(entries[0].player, Uuid::from_u128(1).to_string());
        assert_eq!(entries[0].centres, 3);
        assert!(!entries[0].eliminated);
    }

    #[test]
    fn negative_counts_and_bad_ids_name_their_input_field() {
        let error = diplomacy(-1).to_domain("result").unwrap_err();
        assert_eq!(error.code(), "BAD_USER_INPUT");
        assert!(error.message().starts_with("result.diplomacy[0].centres:"));
        let bad_id = GameResultInput::Placement(vec![PlacementEntryInput {
            player_id: ID::from("nobody"),
            points: 1.0,
        }]);
        let error = bad_id.to_domain("result").unwrap_err();
        assert!(error.message().starts_with("result.placement[0].playerId:"));
    }

    #[test]
    fn domain_fields_are_translated_into_input_terms() {
        let input = diplomacy(3);
        assert_eq!(input.input_field("result.players[3].centres"), "result.diplomacy[3].centres");
        assert_eq!(input.input_field("result"), "result");
        let teams = GameResultInput::Teams(TeamResultInput { draw: None, sides: vec![] });
        assert_eq!(
            teams.input_field("result.sides[1].players[0].player"),
            "result.teams.sides[1].players[0].playerId"
        );
        assert_eq!(teams.input_field("result.draw"), "result.teams.draw");
    }
}
