//! `docs/tournaments.md#round-and-tournament-scoring`: the scorings of rounds (`sum-all-rounds`,
//! `best-rounds-N`, and WDC 2025's early rounds): a player's best round scores count, the other
//! rounds and the boards that do not make a counted round's score are dropped.

use std::cmp::Ordering;

use super::card::{Card, Round, Tally};
use crate::standings::compare_refs;
use crate::thousandths;

/// Every player keeps their `n` best rounds (`usize::MAX`: every round).
pub(super) fn keep_best<K>(tally: &mut Tally<'_, K>, n: usize) {
    for card in &mut tally.cards {
        keep_best_rounds(card, n, |_| true);
    }
}

/// Which of two rounds a best-N choice keeps first (`Greater` = `a`): the higher score, then
/// the better best board by the DAANZ comparison (a board beats sitting out), then the earlier
/// round.
fn round_preference(a: &Round<'_>, b: &Round<'_>) -> Ordering {
    a.micro()
        .cmp(&b.micro())
        .then_with(|| match (a.best_play(), b.best_play()) {
            (Some(a), Some(b)) => compare_refs(&a.game, &b.game),
            (a, b) => a.is_some().cmp(&b.is_some()),
        })
        .then(b.round.cmp(&a.round))
}

/// Keeps the `n` best scored rounds among those `eligible`, marking them and their boards that
/// make the round score as counting; returns their sum (in round order).
pub(super) fn keep_best_rounds<K>(
    card: &mut Card<'_, K>,
    n: usize,
    eligible: impl Fn(u32) -> bool,
) -> f64 {
    let mut order: Vec<usize> = (0..card.rounds.len())
        .filter(|&index| eligible(card.rounds[index].round) && card.rounds[index].score.is_some())
        .collect();
    order.sort_by(|&a, &b| round_preference(&card.rounds[b], &card.rounds[a]));
    for &index in order.iter().take(n) {
        let round = &mut card.rounds[index];
        round.counts = true;
        round.plays.iter_mut().for_each(|play| play.counts = play.in_round);
    }
    let sum: f64 = card
        .rounds
        .iter()
        .filter(|round| round.counts && eligible(round.round))
        .filter_map(|round| round.score)
        .sum();
    card.total = thousandths(sum);
    sum
}
