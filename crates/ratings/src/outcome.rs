//! A scored game as the rating model sees it: teams with a finishing rank each
//! (`docs/ratings.md#outcomes`). Placement and Diplomacy games are free-for-all (each player a
//! team of one, ranked by the scored game's finishing position, ties sharing a rank); Blue
//! Max and Wooden Ships games are side against side.

use league_scoring::{GameResult, Outcome, ScoredGame};
use uuid::Uuid;

use crate::RatingError;
use crate::ledger::MAX_RANK;

/// Players who share one result, and where they finished (1 = first; equal ranks tie).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub players: Vec<Uuid>,
    pub rank: u32,
}

/// Every team of one game, with its rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOutcome {
    pub teams: Vec<Team>,
}

impl GameOutcome {
    /// A free-for-all game: each `(player, rank)` a team of one.
    pub fn free_for_all(ranks: impl IntoIterator<Item = (Uuid, u32)>) -> GameOutcome {
        GameOutcome {
            teams: ranks
                .into_iter()
                .map(|(player, rank)| Team { players: vec![player], rank })
                .collect(),
        }
    }

    /// Every player, team by team (the order ratings are stored and returned in).
    pub fn players(&self) -> impl Iterator<Item = Uuid> + '_ {
        self.teams.iter().flat_map(|team| team.players.iter().copied())
    }

    /// At least two teams, none empty, no player twice.
    pub(crate) fn check(&self) -> Result<(), RatingError> {
        if self.teams.len() < 2 {
            return Err(RatingError::Invalid(format!(
                "a rated game needs at least two teams, got {}",
                self.teams.len()
            )));
        }
        if self.teams.iter().any(|team| team.players.is_empty()) {
            return Err(RatingError::Invalid("a team has no player".into()));
        }
        // The ledger keeps a team's rank in 31 bits; a finishing rank is a seat count.
        if let Some(team) = self.teams.iter().find(|team| team.rank > MAX_RANK) {
            return Err(RatingError::Invalid(format!("rank {} is out of range", team.rank)));
        }
        let mut seen: Vec<Uuid> = self.players().collect();
        let count = seen.len();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != count {
            return Err(RatingError::Invalid("a player appears twice".into()));
        }
        Ok(())
    }
}

/// The outcome of a scored game. Free-for-all games rank players by the scored game's
/// finishing position (Diplomacy by centres, placement by league score; level players share
/// the best position of their group, so they tie). Team games rank the sides: a side whose
/// players won or drew (a draw by consent, a tie on points) ranks first, the rest second, so
/// a draw is a tie of every side. A side's result is its best player's: a Wooden Ships
/// player who surrendered scores nothing, but their side still won or lost together.
pub fn outcome(scored: &ScoredGame, result: &GameResult) -> Result<GameOutcome, RatingError> {
    let player = |key: &str| {
        Uuid::parse_str(key)
            .map_err(|_| RatingError::Invalid(format!("player {key:?} is not a player id")))
    };
    match result {
        GameResult::Placement(_) | GameResult::Diplomacy(_) => {
            let ranks = scored
                .players
                .iter()
                .map(|row| Ok((player(&row.player)?, row.position)))
                .collect::<Result<Vec<_>, RatingError>>()?;
            Ok(GameOutcome::free_for_all(ranks))
        }
        GameResult::Teams(teams) => {
            let mut out = Vec::with_capacity(teams.sides.len());
            for side in &teams.sides {
                let mut best = Outcome::Loss;
                let mut players = Vec::with_capacity(side.players.len());
                for member in &side.players {
                    let row = scored.players.iter().find(|row| row.player == member.player);
                    let row = row.ok_or_else(|| {
                        RatingError::Invalid(format!("player {} was not scored", member.player))
                    })?;
                    best = best.max(row.outcome);
                    players.push(player(&member.player)?);
                }
                let rank = if best >= Outcome::Draw { 1 } else { 2 };
                out.push(Team { players, rank });
            }
            Ok(GameOutcome { teams: out })
        }
    }
}

#[cfg(test)]
mod tests {
    use league_scoring::{
        DiplomacyEntry, PlacementEntry, ScoringSystem, Side, TeamPlayer, TeamResult, score_game,
    };

    use super::*;

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    fn ranks(outcome: &GameOutcome) -> Vec<(Vec<Uuid>, u32)> {
        outcome.teams.iter().map(|team| (team.players.clone(), team.rank)).collect()
    }

    #[test]
    fn placement_ranks_follow_points_and_ties_share_a_rank() {
        let result = GameResult::Placement(vec![
            PlacementEntry { player: id(1).to_string(), points: 40.0 },
            PlacementEntry { player: id(2).to_string(), points: 61.0 },
            PlacementEntry { player: id(3).to_string(), points: 40.0 },
            PlacementEntry { player: id(4).to_string(), points: 12.0 },
        ]);
        let scored = score_game(ScoringSystem::Placement, &result).unwrap();
        let outcome = outcome(&scored, &result).unwrap();
        let mut got = ranks(&outcome);
        got.sort();
        assert_eq!(
            got,
            vec![(vec![id(1)], 2), (vec![id(2)], 1), (vec![id(3)], 2), (vec![id(4)], 4)]
        );
    }

    #[test]
    fn diplomacy_ranks_follow_centres() {
        let centres = [18, 6, 4, 4, 2, 0, 0];
        let entries: Vec<DiplomacyEntry> = centres
            .iter()
            .zip(1u128..)
            .map(|(c, n)| DiplomacyEntry {
                eliminated: *c == 0,
                ..DiplomacyEntry::new(id(n).to_string(), *c)
            })
            .collect();
        let result = GameResult::Diplomacy(entries);
        let scored = score_game(ScoringSystem::Squares, &result).unwrap();
        let outcome = outcome(&scored, &result).unwrap();
        let rank_of = |n: u128| outcome.teams.iter().find(|t| t.players == [id(n)]).unwrap().rank;
        assert_eq!(rank_of(1), 1);
        assert_eq!(rank_of(2), 2);
        assert_eq!(rank_of(3), rank_of(4));
        assert!(rank_of(5) > rank_of(4));
        assert_eq!(rank_of(6), rank_of(7));
    }

    fn ship(n: u128, points: f64, surrendered: bool) -> TeamPlayer {
        TeamPlayer {
            player: id(n).to_string(),
            points,
            units: 3,
            lost: 0,
            kills: 0,
            ships_left: Some(1),
            surrendered,
        }
    }

    fn two_sides(draw: bool, first: f64, second: f64) -> GameResult {
        GameResult::Teams(TeamResult {
            draw,
            sides: vec![
                Side {
                    name: "British".into(),
                    players: vec![ship(1, first, true), ship(2, 0.0, false)],
                },
                Side {
                    name: "French".into(),
                    players: vec![ship(3, second, false), ship(4, 0.0, false)],
                },
            ],
        })
    }

    #[test]
    fn wooden_ships_sides_are_teams_and_a_draw_ties_them() {
        let won = two_sides(false, 30.0, 10.0);
        let scored = score_game(ScoringSystem::WoodenShips, &won).unwrap();
        assert_eq!(
            ranks(&outcome(&scored, &won).unwrap()),
            vec![(vec![id(1), id(2)], 1), (vec![id(3), id(4)], 2)],
            "the side that won ranks first, surrendered member included"
        );
        let drawn = two_sides(true, 30.0, 10.0);
        let scored = score_game(ScoringSystem::WoodenShips, &drawn).unwrap();
        let outcome = outcome(&scored, &drawn).unwrap();
        assert!(outcome.teams.iter().all(|team| team.rank == 1), "a draw by consent ties");
    }

    #[test]
    fn a_result_naming_no_player_id_is_refused() {
        let result = GameResult::Placement(vec![
            PlacementEntry { player: "Ann".into(), points: 3.0 },
            PlacementEntry { player: "Bob".into(), points: 1.0 },
        ]);
        let scored = score_game(ScoringSystem::Placement, &result).unwrap();
        assert!(matches!(outcome(&scored, &result), Err(RatingError::Invalid(_))));
    }
}
