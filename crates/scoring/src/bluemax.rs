//! `docs/scoring.md#blue-max`: "Special scoring system for Blue Max leagues": two sides, a
//! strategic, tactical
//! or marginal victory or a draw, then per-player points for the victory type, enemy units
//! destroyed, own units lost and the best team player. `woodenships-legacy` is the same
//! scheme without the kill points (the source: "not used in Wooden Ships and Iron Men").

use crate::finish::{rank_by_score, team_row};
use crate::{Explain, Outcome, PlayerGameScore, Side, TeamPlayer, TeamResult};

/// The victory types of the source's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VictoryKind {
    Strategic,
    Tactical,
    Marginal,
}

/// Which side won and how; `None` from [`victory`] is a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Victory {
    pub winner: usize,
    pub kind: VictoryKind,
}

/// Whether "Enemy unit destroyed" scores (Blue Max) or not (Wooden Ships legacy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KillPoints {
    Counted,
    NotCounted,
}

fn units(side: &Side) -> u32 {
    side.players.iter().map(|player| player.units).sum()
}

fn lost(side: &Side) -> u32 {
    side.players.iter().map(|player| player.lost).sum()
}

fn side_points(side: &Side) -> f64 {
    side.players.iter().map(|player| player.points).sum()
}

/// "Exceeds by more than 15%", compared as `a·100 > b·115` so that exactly 15% is not more.
fn exceeds_by_more_than_15_percent(a: f64, b: f64) -> bool {
    a * 100.0 > b * 115.0
}

/// Rule "Strategic victory": one side completely destroys the other and remains the only
/// side on the map (the only side with units left).
pub fn strategic_winner(sides: &[Side]) -> Option<usize> {
    let mut remaining = sides.iter().enumerate().filter(|(_, side)| units(side) > lost(side));
    match (remaining.next(), remaining.next()) {
        (Some((winner, _)), None) => Some(winner),
        _ => None,
    }
}

/// Rule "Tactical victory": the side that lost the lower fraction of its units wins
/// (4 vs 3, ending 1 vs 1: B lost 66%, A 75% → B wins). Fractions are compared by
/// cross-multiplication, exactly.
pub fn tactical_winner(sides: &[Side]) -> Option<usize> {
    let [a, b] = sides else { return None };
    let a_lost = u64::from(lost(a)) * u64::from(units(b));
    let b_lost = u64::from(lost(b)) * u64::from(units(a));
    match a_lost.cmp(&b_lost) {
        std::cmp::Ordering::Less => Some(0),
        std::cmp::Ordering::Greater => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// Rule "Marginal victory": with equal fractions lost, a side whose total points exceed
/// the opponents' by more than 15%.
pub fn marginal_winner(sides: &[Side]) -> Option<usize> {
    let [a, b] = sides else { return None };
    let (a, b) = (side_points(a), side_points(b));
    if exceeds_by_more_than_15_percent(a, b) {
        Some(0)
    } else if exceeds_by_more_than_15_percent(b, a) {
        Some(1)
    } else {
        None
    }
}

/// The four possible results in order: strategic, tactical, marginal, else draw.
pub fn victory(sides: &[Side]) -> Option<Victory> {
    let found = |kind| move |winner| Victory { winner, kind };
    strategic_winner(sides)
        .map(found(VictoryKind::Strategic))
        .or_else(|| tactical_winner(sides).map(found(VictoryKind::Tactical)))
        .or_else(|| marginal_winner(sides).map(found(VictoryKind::Marginal)))
}

/// The source's table, "Winning side" row: strategic 4, tactical 3, marginal 1 (draw and
/// defeated side 0).
pub fn victory_points(kind: VictoryKind) -> i32 {
    match kind {
        VictoryKind::Strategic => 4,
        VictoryKind::Tactical => 3,
        VictoryKind::Marginal => 1,
    }
}

/// Rule "Best team player": on a side of two or more, the player (if any) whose points
/// exceed every team-mate's by more than 15% earns 1 point.
pub fn best_team_player(side: &Side) -> Option<usize> {
    if side.players.len() < 2 {
        return None;
    }
    side.players.iter().enumerate().position(|(index, candidate)| {
        side.players
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != index)
            .all(|(_, mate)| exceeds_by_more_than_15_percent(candidate.points, mate.points))
    })
}

/// The source's table rows "Enemy unit destroyed" (+1 each, Blue Max only) and "Personal unit
/// lost" (−1 each; one point however many enemies shared the kill).
pub fn unit_points(player: &TeamPlayer, kills: KillPoints) -> i32 {
    let kill_points = match kills {
        KillPoints::Counted => player.kills as i32,
        KillPoints::NotCounted => 0,
    };
    kill_points - player.lost as i32
}

fn kind_name(kind: Option<VictoryKind>) -> &'static str {
    match kind {
        Some(VictoryKind::Strategic) => "strategic victory",
        Some(VictoryKind::Tactical) => "tactical victory",
        Some(VictoryKind::Marginal) => "marginal victory",
        None => "draw",
    }
}

/// Scores a validated two-side game (input order: side by side, player by player).
pub(crate) fn score(
    teams: &TeamResult,
    kills: KillPoints,
    explain: Explain,
) -> Vec<PlayerGameScore> {
    let result = victory(&teams.sides);
    let mut rows = Vec::with_capacity(teams.sides.iter().map(|side| side.players.len()).sum());
    for (side_index, side) in teams.sides.iter().enumerate() {
        let best = best_team_player(side);
        let won = result.is_some_and(|victory| victory.winner == side_index);
        let outcome = match result {
            None => Outcome::Draw,
            Some(_) if won => Outcome::Win,
            Some(_) => Outcome::Loss,
        };
        for (player_index, player) in side.players.iter().enumerate() {
            let victory = match result {
                Some(victory) if won => victory_points(victory.kind),
                _ => 0,
            };
            let best_point = i32::from(best == Some(player_index));
            let units = unit_points(player, kills);
            let total = victory + units + best_point;
            let explanation = match explain {
                Explain::No => Vec::new(),
                Explain::Yes => {
                    let kill_part = match kills {
                        KillPoints::Counted => format!("kills {}, ", player.kills),
                        KillPoints::NotCounted => String::new(),
                    };
                    vec![format!(
                        "side {} {}: {} {victory}, {kill_part}lost −{}, best team player {best_point} → {total}",
                        side.name,
                        if won {
                            "won"
                        } else if result.is_none() {
                            "drew"
                        } else {
                            "lost"
                        },
                        kind_name(result.map(|victory| victory.kind)),
                        player.lost,
                    )]
                }
            };
            rows.push(team_row(&player.player, f64::from(total), outcome, explanation));
        }
    }
    rank_by_score(&mut rows);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(name: &str, points: f64, lost: u32, kills: u32) -> TeamPlayer {
        TeamPlayer {
            player: name.to_owned(),
            points,
            units: 1,
            lost,
            kills,
            ships_left: None,
            surrendered: false,
        }
    }

    fn side(name: &str, players: Vec<TeamPlayer>) -> Side {
        Side { name: name.to_owned(), players }
    }

    /// A game of side W against side D, not drawn by consent.
    fn w_against_d(w: Vec<TeamPlayer>, d: Vec<TeamPlayer>) -> TeamResult {
        TeamResult { draw: false, sides: vec![side("W", w), side("D", d)] }
    }

    fn scores(teams: &TeamResult, kills: KillPoints) -> Vec<(String, f64)> {
        score(teams, kills, Explain::No).into_iter().map(|row| (row.player, row.score)).collect()
    }

    fn named(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
        pairs.iter().map(|(name, score)| ((*name).to_owned(), *score)).collect()
    }

    /// Blue Max example 1: W1 shoots down D1 and D2, W2 eliminates D3; strategic
    /// victory; W1 7 (4 + 2 kills + best player), W2 5, W3 4, D1–D3 −1.
    #[test]
    fn seed_002_blue_max_example_1() {
        let teams = w_against_d(
            vec![player("W1", 60.0, 0, 2), player("W2", 30.0, 0, 1), player("W3", 10.0, 0, 0)],
            vec![player("D1", 10.0, 1, 0), player("D2", 10.0, 1, 0), player("D3", 11.0, 1, 0)],
        );
        assert_eq!(
            victory(&teams.sides),
            Some(Victory { winner: 0, kind: VictoryKind::Strategic })
        );
        assert_eq!(
            scores(&teams, KillPoints::Counted),
            named(&[
                ("W1", 7.0),
                ("W2", 5.0),
                ("W3", 4.0),
                ("D1", -1.0),
                ("D2", -1.0),
                ("D3", -1.0)
            ])
        );
    }

    /// Blue Max example 2: D2 downs W3, W1 downs D1, W2 downs D3; W1, W2 and D2
    /// remain; tactical victory for W: W1 5, W2 4, W3 2, D2 2 (kill + best player), D1, D3 −1.
    #[test]
    fn seed_002_blue_max_example_2() {
        let teams = w_against_d(
            vec![player("W1", 50.0, 0, 1), player("W2", 30.0, 0, 1), player("W3", 5.0, 1, 0)],
            vec![player("D1", 5.0, 1, 0), player("D2", 40.0, 0, 1), player("D3", 5.0, 1, 0)],
        );
        assert_eq!(victory(&teams.sides), Some(Victory { winner: 0, kind: VictoryKind::Tactical }));
        assert_eq!(
            scores(&teams, KillPoints::Counted),
            named(&[
                ("W1", 5.0),
                ("W2", 4.0),
                ("W3", 2.0),
                ("D1", -1.0),
                ("D2", 2.0),
                ("D3", -1.0)
            ])
        );
    }

    /// Blue Max example 3: 1 vs 1, W1 shoots down D1: strategic; W1 5, D1 −1; no
    /// best team player on a side of one.
    #[test]
    fn seed_002_blue_max_example_3() {
        let teams = w_against_d(vec![player("W1", 20.0, 0, 1)], vec![player("D1", 0.0, 1, 0)]);
        assert_eq!(scores(&teams, KillPoints::Counted), named(&[("W1", 5.0), ("D1", -1.0)]));
    }

    /// Blue Max example 4: 1 vs 1, both shot down in the same turn, W1 scored 20%
    /// more points: marginal victory. W1 1 (1 victory + 1 kill − 1 lost), D1 0 (1 kill − 1 lost).
    #[test]
    fn seed_002_blue_max_example_4() {
        let teams = w_against_d(vec![player("W1", 120.0, 1, 1)], vec![player("D1", 100.0, 1, 1)]);
        assert_eq!(victory(&teams.sides), Some(Victory { winner: 0, kind: VictoryKind::Marginal }));
        assert_eq!(scores(&teams, KillPoints::Counted), named(&[("W1", 1.0), ("D1", 0.0)]));
    }

    /// Rule "Tactical victory" text: 4 vs 3 ending 1 vs 1 → B (lost 66%) beats A (75%);
    /// ending 3 vs 2 → A.
    #[test]
    fn seed_002_tactical_fraction_example() {
        let a = |lost: u32| {
            side(
                "A",
                (0..4).map(|i| player(&format!("A{i}"), 1.0, u32::from(i < lost), 0)).collect(),
            )
        };
        let b = |lost: u32| {
            side(
                "B",
                (0..3).map(|i| player(&format!("B{i}"), 1.0, u32::from(i < lost), 0)).collect(),
            )
        };
        assert_eq!(tactical_winner(&[a(3), b(2)]), Some(1));
        assert_eq!(tactical_winner(&[a(1), b(1)]), Some(0));
        assert_eq!(tactical_winner(&[a(2), b(0)]), Some(1));
    }

    /// Rule "Marginal victory"/"Draw": exactly 15% more is not more than 15%: a draw, and
    /// only personal points count.
    #[test]
    fn seed_002_exactly_fifteen_percent_is_a_draw() {
        let teams = w_against_d(vec![player("W1", 115.0, 1, 1)], vec![player("D1", 100.0, 1, 1)]);
        assert_eq!(victory(&teams.sides), None);
        let rows = score(&teams, KillPoints::Counted, Explain::No);
        assert!(rows.iter().all(|row| row.outcome == Outcome::Draw && row.score == 0.0));
    }

    /// `docs/scoring.md#wooden-ships-legacy`: the Blue Max scheme without kill points.
    #[test]
    fn legacy_wooden_ships_ignores_kills() {
        let teams = w_against_d(vec![player("W1", 20.0, 0, 1)], vec![player("D1", 0.0, 1, 0)]);
        assert_eq!(scores(&teams, KillPoints::NotCounted), named(&[("W1", 4.0), ("D1", -1.0)]));
    }
}
