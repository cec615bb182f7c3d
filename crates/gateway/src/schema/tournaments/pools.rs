//! Pools and per-round scoring over GraphQL
//! (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`): `Tournament.roundStages`
//! (each planned round's pool, its boards once seeded, its multiplier and scoring system) and
//! the mutations that set and remove a round's pool and set a round's scoring system, each one
//! domain command; the domain decides who may.

use async_graphql::{Context, ID, Object, SimpleObject};
use league_domain::{PoolPlayers, RemoveRoundPool, RoundPool, SetRoundPool, SetRoundScoring};

use super::mutation::tournament;
use super::types::Tournament;
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{caller, execute};
use crate::schema::inputs::{ScoringSystemValue, count, parse_id};
use crate::schema::players::types::Player;

/// A round's pool as set: the best `best` by standings, or the players named.
#[derive(SimpleObject)]
pub struct RoundPoolValue {
    /// The best this many present players by the standings before the round; null when the
    /// director named the players.
    pub best: Option<u32>,
    /// The players the director named (empty for a pool chosen by standings).
    pub named: Vec<Player>,
    /// Every score on the pool's boards is multiplied by it: an exact decimal ("1.5").
    pub multiplier: String,
    /// The pool's players take places 1..n·k by their pool board score.
    pub decides_places: bool,
    /// Boards 1..poolBoards seat the pool; null until the round is seeded.
    pub pool_boards: Option<u32>,
}

/// One planned round's stage: its pool and the system scoring its boards.
#[derive(SimpleObject)]
pub struct RoundStage {
    pub round: u32,
    /// Null without a pool.
    pub pool: Option<RoundPoolValue>,
    /// The system scoring the round's boards.
    pub scoring_system: ScoringSystemValue,
    /// The round has its own system rather than the tournament's.
    pub own_scoring_system: bool,
}

impl Tournament {
    /// Every planned round's stage, round 1 first.
    pub(super) fn stages_of_rounds(&self) -> Vec<RoundStage> {
        let own = self.settings().scoring_system;
        (1..=self.settings().rounds)
            .map(|round| {
                let system = self.state.round_scoring_system(round).unwrap_or(own);
                RoundStage {
                    round,
                    pool: self.state.round_pool(round).map(|pool| RoundPoolValue {
                        best: match pool.players {
                            PoolPlayers::Best(size) => Some(size),
                            PoolPlayers::Named(_) => None,
                        },
                        named: match &pool.players {
                            PoolPlayers::Best(_) => Vec::new(),
                            PoolPlayers::Named(players) => {
                                players.iter().map(|p| self.player(p.uuid())).collect()
                            }
                        },
                        multiplier: pool.multiplier.to_string(),
                        decides_places: pool.decides_places,
                        pool_boards: self.state.round(round).map(|r| r.seeded.pool_boards),
                    }),
                    scoring_system: system.into(),
                    own_scoring_system: system != own,
                }
            })
            .collect()
    }
}

/// Setting and removing a round's pool, setting a round's scoring system (merged into the
/// mutation root).
#[derive(Debug, Default)]
pub struct PoolsMutation;

#[Object]
impl PoolsMutation {
    /// The tournament's organisers or the site admin, before round `round` is seeded: its pool
    /// is the best `best` players by standings or the `named` players (give one), a whole
    /// number of boards; `multiplier` (an exact decimal above 0, at most 100, at most 3
    /// decimals; omitted: "1") multiplies every score on its boards; `decidesPlaces` (the last
    /// round only) gives its players places 1..n·k by their pool board score.
    #[allow(clippy::too_many_arguments)]
    async fn set_round_pool(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        best: Option<i32>,
        named: Option<Vec<ID>>,
        multiplier: Option<String>,
        decides_places: Option<bool>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let round = count(round, "round")?;
        let players = match (best, named) {
            (Some(best), None) => PoolPlayers::Best(count(best, "best")?),
            (None, Some(named)) => PoolPlayers::Named(
                named
                    .iter()
                    .map(|p| parse_id(p, "named").map(Into::into))
                    .collect::<Result<_, _>>()?,
            ),
            _ => {
                return Err(GatewayError::bad_input(
                    "best",
                    "give either best (a count) or named (players), not both or neither",
                ));
            }
        };
        let multiplier = match multiplier {
            Some(text) => {
                text.parse().map_err(|m: String| GatewayError::bad_input("multiplier", m))?
            }
            None => league_domain::ScoreMultiplier::ONE,
        };
        let pool =
            RoundPool { players, multiplier, decides_places: decides_places.unwrap_or(false) };
        let command = SetRoundPool { actor, tournament_id: id.into(), round, pool };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: removes round `round`'s pool before it
    /// is seeded.
    async fn remove_round_pool(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let round = count(round, "round")?;
        let command = RemoveRoundPool { actor, tournament_id: id.into(), round };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin, before any board of round `round` has a
    /// result: the system scoring its boards (one of the same game as the tournament's; the
    /// tournament's own puts it back). Like the other settings it takes no idempotency key: a
    /// retry is refused as a change to the same system.
    async fn set_round_scoring(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        scoring_system: ScoringSystemValue,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let round = count(round, "round")?;
        let command = SetRoundScoring {
            actor,
            tournament_id: id.into(),
            round,
            scoring_system: scoring_system.into(),
        };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }
}
