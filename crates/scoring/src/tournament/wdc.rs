//! `docs/tournaments.md#round-and-tournament-scoring`, WDC 2025: the best 2 of rounds 1–3, then
//! every later round in full, round 4 ×1.5 for the top 21 after round 3 (who they are: `cut.rs`).

use std::hash::Hash;

use super::card::Tally;
use super::cut::{CUT_SIZE, EARLY_ROUNDS, top_after_round_three};
use super::rounds::keep_best_rounds;
use crate::thousandths;

/// WDC 2025's final round, the one worth 1.5 to the top 21.
const FINAL_ROUND: u32 = 4;

/// Scores every card under WDC 2025. Once the final round has a board or a sit-out, a player in
/// the top 21 has a note saying so, and a player tied at 21st the step that put them in or out.
pub(super) fn score<K: Copy + Ord + Hash>(tally: &mut Tally<'_, K>) {
    let cards = &mut tally.cards;
    let early: Vec<f64> = cards
        .iter_mut()
        .map(|card| keep_best_rounds(card, 2, |round| round <= EARLY_ROUNDS))
        .collect();
    let final_started = tally.last_round >= FINAL_ROUND;
    let early_thousandths: Vec<i64> = early.iter().map(|&sum| thousandths(sum)).collect();
    let cut = top_after_round_three(cards, &early_thousandths);
    for ((card, early), cut) in cards.iter_mut().zip(early).zip(cut) {
        let bonus = if cut.top { 1.5 } else { 1.0 };
        let mut total = early;
        for round in card.rounds.iter_mut().filter(|round| round.round > EARLY_ROUNDS) {
            round.counts = round.score.is_some();
            round.plays.iter_mut().for_each(|play| play.counts = play.in_round);
            let weight = if round.round == FINAL_ROUND { bonus } else { 1.0 };
            total += round.score.unwrap_or(0.0) * weight;
        }
        card.total = thousandths(total);
        if final_started {
            card.notes.extend(cut.tie);
            if cut.top {
                card.notes.push(format!(
                    "in the top {CUT_SIZE} after round {EARLY_ROUNDS}: round {FINAL_ROUND} ×1.5"
                ));
            }
        }
    }
}
