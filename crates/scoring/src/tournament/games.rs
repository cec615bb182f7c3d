//! `docs/tournaments.md#round-and-tournament-scoring`: the scorings of games (`best-games-N`,
//! `games-average-plus-10`, best 2 or 3 plus part of the rest). Every board is a game of its
//! own, in whatever round, and non-zero sitting-out points a pseudo-game; the games that count
//! (and their rounds) are marked, the others dropped.

use super::card::{Card, Tally, ordinal};
use crate::aggregation::div_round_half_away;
use crate::standings::{compare_refs, micro};
use crate::thousandths;

/// One game of a scoring of games: a board, or the sitting-out points of a round without one
/// (a pseudo-game; sitting out that scores nothing is no game).
#[derive(Debug, Clone, Copy)]
struct Item {
    round: usize,
    play: Option<usize>,
    score: f64,
}

/// How the games after a player's best ones count.
#[derive(Debug, Clone, Copy)]
pub(super) enum Rest {
    /// The rest are dropped.
    Dropped,
    /// The average of every other game counts, divided by `divisor`.
    Average { divisor: f64 },
    /// The next `count` games count, each divided by `divisor`; the others are dropped.
    Next { count: usize, divisor: f64 },
}

/// Every player's best games count: `rule(games)` says, for a player of `games` games, how many
/// of the best count in full and how the rest count.
pub(super) fn keep_best<K>(tally: &mut Tally<'_, K>, rule: impl Fn(usize) -> (usize, Rest)) {
    for card in &mut tally.cards {
        let items = games(card);
        let (full, rest) = rule(items.len());
        let full = full.min(items.len());
        let rest_items = &items[full..];
        let (partial, divisor) = match rest {
            Rest::Dropped => (0, 1.0),
            Rest::Average { divisor } => (rest_items.len(), divisor * rest_items.len() as f64),
            Rest::Next { count, divisor } => (count.min(rest_items.len()), divisor),
        };
        let full_sum: f64 = items[..full].iter().map(|item| item.score).sum();
        let partial_sum: f64 = rest_items[..partial].iter().map(|item| item.score).sum();
        card.total = thousandths(full_sum + if partial > 0 { partial_sum / divisor } else { 0.0 });
        if partial > 0 {
            let nth = |place: usize| ordinal(place + 1);
            card.notes.push(match rest {
                Rest::Average { .. } => {
                    format!("best {full} games in full, half the average of the other {partial}")
                }
                Rest::Next { count: 2, .. } if partial == 2 => {
                    format!("{} and {} best games count a third each", nth(full), nth(full + 1))
                }
                _ => format!("{} best game counts half", nth(full)),
            });
        }
        count(card, &items[..full + partial]);
    }
}

/// `games-average-plus-10`: every game counts; the total is their sum ÷ (their number + 10).
pub(super) fn average_plus_ten<K>(tally: &mut Tally<'_, K>) {
    for card in &mut tally.cards {
        let items = games(card);
        // Exact: the sum in millionths over 1000 × (games + 10), rounded once.
        let sum: i64 = items.iter().map(|item| micro(item.score)).sum();
        let games = i64::try_from(items.len()).unwrap_or(i64::MAX - 10);
        card.notes.push(format!("{} games + 10", items.len()));
        card.total = div_round_half_away(sum, (games + 10) * 1000);
        count(card, &items);
    }
}

/// A player's games, best first: the higher score, then a board before a pseudo-game, the
/// better game by the DAANZ comparison, the earlier round and board.
fn games<K>(card: &Card<'_, K>) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    for (index, round) in card.rounds.iter().enumerate() {
        if let Some(score) = round.score.filter(|&score| round.sat_out && score != 0.0) {
            items.push(Item { round: index, play: None, score });
        }
        items.extend(round.plays.iter().enumerate().map(|(play, board)| Item {
            round: index,
            play: Some(play),
            score: board.score(),
        }));
    }
    let play = |item: &Item| item.play.map(|play| &card.rounds[item.round].plays[play]);
    items.sort_by(|a, b| {
        let score = |item: &Item| micro(item.score);
        score(b)
            .cmp(&score(a))
            .then_with(|| match (play(a), play(b)) {
                (Some(a), Some(b)) => compare_refs(&b.game, &a.game).then(a.board.cmp(&b.board)),
                (a, b) => b.is_some().cmp(&a.is_some()),
            })
            .then(card.rounds[a.round].round.cmp(&card.rounds[b.round].round))
    });
    items
}

/// Marks `items` (and their rounds) as counting in the total.
fn count<K>(card: &mut Card<'_, K>, items: &[Item]) {
    for item in items {
        let round = &mut card.rounds[item.round];
        round.counts = true;
        if let Some(play) = item.play {
            round.plays[play].counts = true;
        }
    }
}
