//! `docs/tournaments.md#rulings`: what a tournament's directors rule beyond the boards' results,
//! as the ranking (`rank.rs`) applies it. Points added to a round score go in before the
//! tournament scoring decides which rounds count; points added to the total (adjustments of the
//! tournament, handicaps) after it. Unranked players are listed after everyone ranked, without a
//! rank; the ranks of the others close up. Players level on total whom the director put in an
//! order on a top board are split by that order before the DAANZ tie-breakers, and are ahead of
//! players level with them it does not name. (An adjustment of
//! one board's score is the caller's: it changes the board's row before ranking.)

use std::cmp::Ordering;

use super::card::Card;
use crate::thousandths;

/// Points a director added to one player's score in one round (negative: a penalty).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundPoints<K> {
    pub round: u32,
    pub player: K,
    pub points: f64,
}

/// Points added to one player's tournament total: a tournament adjustment or a handicap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TotalPoints<K> {
    pub player: K,
    pub points: f64,
}

/// Every ruling the ranking applies. The default: none.
#[derive(Debug, Clone, PartialEq)]
pub struct Rulings<K> {
    pub round_points: Vec<RoundPoints<K>>,
    pub total_points: Vec<TotalPoints<K>>,
    /// Players listed without a rank.
    pub unranked: Vec<K>,
    /// The director's order of players level on total, first ahead.
    pub tie_break_order: Vec<K>,
}

impl<K> Default for Rulings<K> {
    fn default() -> Self {
        Rulings {
            round_points: Vec::new(),
            total_points: Vec::new(),
            unranked: Vec::new(),
            tie_break_order: Vec::new(),
        }
    }
}

impl<K: Copy + Eq> Rulings<K> {
    /// `score` (a round score, `None` when the player has none) with the round's points added.
    pub(super) fn round_score(&self, player: K, round: u32, score: Option<f64>) -> Option<f64> {
        let points: f64 = self
            .round_points
            .iter()
            .filter(|p| p.player == player && p.round == round)
            .map(|p| p.points)
            .sum();
        score.map(|score| score + points)
    }

    /// Adds the points of the total to every card's total (exact thousandths).
    pub(super) fn add_to_totals(&self, cards: &mut [Card<'_, K>]) {
        for card in cards {
            card.total += self
                .total_points
                .iter()
                .filter(|p| p.player == card.player)
                .map(|p| thousandths(p.points))
                .sum::<i64>();
        }
    }

    pub(super) fn is_unranked(&self, player: K) -> bool {
        self.unranked.contains(&player)
    }

    /// Between two players level on total when the director's order names either: `Greater`
    /// when `a` is ahead. Named players are ahead of players it does not name (who played
    /// below the top board), and among themselves in its order.
    pub(super) fn directors_order(&self, a: K, b: K) -> Option<Ordering> {
        let place = |player| self.tie_break_order.iter().position(|&p| p == player);
        match (place(a), place(b)) {
            (None, None) => None,
            (Some(_), None) => Some(Ordering::Greater),
            (None, Some(_)) => Some(Ordering::Less),
            (Some(a), Some(b)) => Some(b.cmp(&a)),
        }
    }
}
