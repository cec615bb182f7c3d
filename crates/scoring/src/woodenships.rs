//! Wooden Ships & Iron Men league scoring, the site's rules for newer leagues
//! (`docs/scoring.md#wooden-ships`): coalitions win, win overwhelmingly, tie, draw by consent
//! or lose; a player who surrendered scores 0 whatever the result.

use crate::finish::{rank_by_score, team_row};
use crate::{Explain, Outcome, PlayerGameScore, Side, TeamResult};

/// How a coalition's game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoalitionResult {
    /// A victory with more than double the points of every other coalition: 4.
    OverwhelmingVictory,
    /// The only coalition with ships left, or the one with most points if several remain: 3.
    Victory,
    /// Several remain and this one shares the top points: 1.
    Tie,
    /// Draw by mutual consent: 1.
    Draw,
    /// 0.
    Loss,
}

fn ships_left(side: &Side) -> u32 {
    side.players.iter().map(|player| player.ships_left.unwrap_or(0)).sum()
}

fn coalition_points(side: &Side) -> f64 {
    side.players.iter().map(|player| player.points).sum()
}

/// Wooden Ships rule "Victory": the only coalition with ships left; if several remain, the one
/// of them with most points. `Err(tied)` when several remaining coalitions share the top
/// points (a tie); if no coalition has ships left, all of them are compared on points.
pub fn victor(sides: &[Side]) -> Result<usize, Vec<usize>> {
    let any_left = sides.iter().any(|side| ships_left(side) > 0);
    let contenders =
        || sides.iter().enumerate().filter(move |(_, side)| !any_left || ships_left(side) > 0);
    let top =
        contenders().map(|(_, side)| coalition_points(side)).fold(f64::NEG_INFINITY, f64::max);
    let mut leaders =
        contenders().filter(|(_, side)| coalition_points(side) == top).map(|(index, _)| index);
    match (leaders.next(), leaders.next()) {
        (Some(winner), None) => Ok(winner),
        (Some(first), Some(second)) => Err([first, second].into_iter().chain(leaders).collect()),
        (None, _) => Err(Vec::new()),
    }
}

/// Wooden Ships rule "Overwhelming Victory": the victor has more than double the points of
/// every other coalition.
pub fn is_overwhelming(sides: &[Side], winner: usize) -> bool {
    let points = coalition_points(&sides[winner]);
    sides
        .iter()
        .enumerate()
        .filter(|&(index, _)| index != winner)
        .all(|(_, side)| points > 2.0 * coalition_points(side))
}

/// Wooden Ships results for every coalition (in side order): a draw by consent is a draw for
/// all; otherwise victory (overwhelming or not) for the victor, a tie for coalitions sharing
/// the top, a loss for the rest.
pub fn coalition_results(result: &TeamResult) -> Vec<CoalitionResult> {
    let count = result.sides.len();
    if result.draw {
        return vec![CoalitionResult::Draw; count];
    }
    let mut results = vec![CoalitionResult::Loss; count];
    match victor(&result.sides) {
        Ok(winner) if is_overwhelming(&result.sides, winner) => {
            results[winner] = CoalitionResult::OverwhelmingVictory;
        }
        Ok(winner) => results[winner] = CoalitionResult::Victory,
        Err(tied) => tied.into_iter().for_each(|index| results[index] = CoalitionResult::Tie),
    }
    results
}

impl CoalitionResult {
    /// The result's name in explanations.
    pub fn label(self) -> &'static str {
        match self {
            CoalitionResult::OverwhelmingVictory => "overwhelming victory",
            CoalitionResult::Victory => "victory",
            CoalitionResult::Tie => "tie",
            CoalitionResult::Draw => "draw by consent",
            CoalitionResult::Loss => "loss",
        }
    }
}

/// Wooden Ships award to every member: overwhelming 4, victory 3, tie 1, draw 1, loss 0.
pub fn award(result: CoalitionResult) -> f64 {
    match result {
        CoalitionResult::OverwhelmingVictory => 4.0,
        CoalitionResult::Victory => 3.0,
        CoalitionResult::Tie | CoalitionResult::Draw => 1.0,
        CoalitionResult::Loss => 0.0,
    }
}

/// Outcome class of a coalition result (team systems: win, draw for draw or tie, loss).
pub fn coalition_outcome(result: CoalitionResult) -> Outcome {
    match result {
        CoalitionResult::OverwhelmingVictory | CoalitionResult::Victory => Outcome::Win,
        CoalitionResult::Tie | CoalitionResult::Draw => Outcome::Draw,
        CoalitionResult::Loss => Outcome::Loss,
    }
}

/// Scores a validated Wooden Ships game (input order). A surrendered player scores 0 and, for
/// the tie-breakers, counts as a loss whatever the coalition did.
pub(crate) fn score(teams: &TeamResult, explain: Explain) -> Vec<PlayerGameScore> {
    let results = coalition_results(teams);
    let mut rows = Vec::with_capacity(teams.sides.iter().map(|side| side.players.len()).sum());
    for (side, &result) in teams.sides.iter().zip(&results) {
        for player in &side.players {
            let (score, outcome) = if player.surrendered {
                (0.0, Outcome::Loss)
            } else {
                (award(result), coalition_outcome(result))
            };
            let explanation = match explain {
                Explain::No => Vec::new(),
                Explain::Yes if player.surrendered => {
                    vec![format!("coalition {} {}, surrendered → 0", side.name, result.label())]
                }
                Explain::Yes => vec![format!(
                    "coalition {} ({} points, {} ships left) {} → {score}",
                    side.name,
                    coalition_points(side),
                    ships_left(side),
                    result.label()
                )],
            };
            rows.push(team_row(&player.player, score, outcome, explanation));
        }
    }
    rank_by_score(&mut rows);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TeamPlayer;

    fn coalition(name: &str, points: f64, ships_left: u32) -> Side {
        Side {
            name: name.to_owned(),
            players: vec![TeamPlayer {
                player: format!("{name}1"),
                points,
                units: 1,
                lost: 0,
                kills: 0,
                ships_left: Some(ships_left),
                surrendered: false,
            }],
        }
    }

    fn results(sides: Vec<Side>, draw: bool) -> Vec<CoalitionResult> {
        coalition_results(&TeamResult { draw, sides })
    }

    use CoalitionResult::*;

    /// Wooden Ships "Victory": the only coalition with ships left wins even on fewer points.
    #[test]
    fn only_coalition_with_ships_left_wins() {
        assert_eq!(
            results(vec![coalition("A", 10.0, 2), coalition("B", 15.0, 0)], false),
            [Victory, Loss]
        );
    }

    /// Wooden Ships "Overwhelming Victory": more than double every other coalition; exactly
    /// double is a plain victory.
    #[test]
    fn overwhelming_needs_more_than_double() {
        assert_eq!(
            results(vec![coalition("A", 21.0, 1), coalition("B", 10.0, 0)], false),
            [OverwhelmingVictory, Loss]
        );
        assert_eq!(
            results(vec![coalition("A", 20.0, 1), coalition("B", 10.0, 1)], false),
            [Victory, Loss]
        );
    }

    /// Wooden Ships "Victory"/"Tie": several remain → most points wins; equal top points tie.
    #[test]
    fn several_remaining_compare_points() {
        assert_eq!(
            results(vec![coalition("A", 10.0, 1), coalition("B", 15.0, 1)], false),
            [Loss, Victory]
        );
        assert_eq!(
            results(
                vec![coalition("A", 15.0, 1), coalition("B", 15.0, 1), coalition("C", 3.0, 1)],
                false
            ),
            [Tie, Tie, Loss]
        );
    }

    /// Wooden Ships "Draw" by mutual consent: 1 to all; surrendered players 0 whatever.
    #[test]
    fn draw_and_surrender() {
        assert_eq!(
            results(vec![coalition("A", 30.0, 1), coalition("B", 1.0, 1)], true),
            [Draw, Draw]
        );
        let mut sides = vec![coalition("A", 30.0, 1), coalition("B", 1.0, 0)];
        sides[0].players[0].surrendered = true;
        let rows = score(&TeamResult { draw: false, sides }, Explain::No);
        assert_eq!((rows[0].score, rows[0].outcome), (0.0, Outcome::Loss));
        assert_eq!((rows[1].score, rows[1].outcome), (0.0, Outcome::Loss));
        let rows = score(
            &TeamResult {
                draw: false,
                sides: vec![coalition("A", 30.0, 1), coalition("B", 1.0, 0)],
            },
            Explain::No,
        );
        assert_eq!((rows[0].score, rows[0].outcome), (4.0, Outcome::Win));
    }
}
