//! `docs/tournaments.md#round-and-tournament-scoring`: what a tournament scoring works on. The
//! ranking (`rank.rs`) gives each player a [`Card`]: their rounds, scored under the round
//! scoring, and the boards they played, nothing counted yet. A tournament scoring's function
//! (its entry of the catalogue, `catalogue.rs`) gets every card in a [`Tally`], marks the rounds
//! and boards that count and sets each total; [`Record`] is the DAANZ tie-breakers' view of the
//! boards that count. Shared by the ranking, every scoring's function and the WDC 2025 cut, it
//! imports none of them.

use std::cmp::Ordering;

use crate::Outcome;
use crate::standings::{Decision, GameRef, TieBreakView, break_tie, compare_refs};

/// Every player's card of a tournament being ranked, and what the reports say beyond them: what
/// a tournament scoring's function is given.
#[derive(Debug)]
pub(super) struct Tally<'a, K> {
    /// One card per player, in key order.
    pub(super) cards: Vec<Card<'a, K>>,
    /// The highest round a board or a sit-out names (0: none yet).
    pub(super) last_round: u32,
}

/// One player's row on one board.
#[derive(Debug, Clone, Copy)]
pub(super) struct Play<'a> {
    pub(super) board: u32,
    pub(super) game: GameRef<'a>,
    pub(super) centres: Option<u32>,
    /// Makes the round score (under best board, only the round's best board does).
    pub(super) in_round: bool,
    /// Counts in the tournament total.
    pub(super) counts: bool,
}

impl Play<'_> {
    pub(super) fn score(&self) -> f64 {
        self.game.row.score
    }
}

/// One round of one player's tournament.
#[derive(Debug)]
pub(super) struct Round<'a> {
    pub(super) round: u32,
    /// The player's boards in the round, in board order.
    pub(super) plays: Vec<Play<'a>>,
    /// Sat the round out and played no board in it.
    pub(super) sat_out: bool,
    /// The round score; `None` when absent.
    pub(super) score: Option<f64>,
    /// Counts in the tournament total.
    pub(super) counts: bool,
}

impl Round<'_> {
    pub(super) fn micro(&self) -> Option<i64> {
        self.score.map(crate::standings::micro)
    }

    /// The best board that makes the round score.
    pub(super) fn best_play(&self) -> Option<&Play<'_>> {
        self.plays.iter().filter(|play| play.in_round).max_by(|a, b| compare_refs(&a.game, &b.game))
    }
}

/// One player's tournament while ranking.
#[derive(Debug)]
pub(super) struct Card<'a, K> {
    pub(super) player: K,
    /// The rounds the player played or sat out, in round order.
    pub(super) rounds: Vec<Round<'a>>,
    /// The total in thousandths.
    pub(super) total: i64,
    /// Why the total is what it is (the standing's notes).
    pub(super) notes: Vec<String>,
}

impl<'a, K> Card<'a, K> {
    /// Every board the player played, in round and board order.
    pub(super) fn plays(&self) -> impl Iterator<Item = &Play<'a>> {
        self.rounds.iter().flat_map(|round| &round.plays)
    }

    /// The DAANZ record of the boards that count, restricted to rounds `rounds`.
    pub(super) fn record(&self, rounds: impl Fn(u32) -> bool) -> Record<'a> {
        Record::new(
            self.rounds
                .iter()
                .filter(|round| rounds(round.round))
                .flat_map(|round| &round.plays)
                .filter(|play| play.counts)
                .map(|play| play.game),
        )
    }
}

/// The DAANZ tie-breakers' view of a player's counted games
/// (`docs/scoring.md#standings-and-tie-breakers`): wins, draws, then the best, 2nd and 3rd
/// best game.
#[derive(Debug)]
pub(super) struct Record<'a> {
    wins: usize,
    draws: usize,
    /// Best first.
    games: Vec<GameRef<'a>>,
}

impl<'a> Record<'a> {
    fn new(games: impl Iterator<Item = GameRef<'a>>) -> Self {
        let mut games: Vec<GameRef<'a>> = games.collect();
        games.sort_by(|a, b| compare_refs(b, a));
        let count = |outcome| games.iter().filter(|game| game.row.outcome == outcome).count();
        Record { wins: count(Outcome::Win), draws: count(Outcome::Draw), games }
    }

    /// `Greater` = `self` is ahead.
    pub(super) fn compare(&self, other: &Record<'_>) -> Ordering {
        break_tie(self.view(), other.view()).ordering
    }

    /// What the tie-breakers look at.
    pub(super) fn view(&self) -> TieBreakView<'_, 'a> {
        TieBreakView { wins: self.wins, draws: self.draws, best: &self.games }
    }

    /// The tie-breakers between two players whose totals compare `on_total`.
    pub(super) fn decide(&self, other: &Record<'_>, on_total: Ordering) -> Decision {
        Decision::on_total(on_total).or_tie_break(self.view(), other.view())
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … (the places notes name).
pub(super) fn ordinal(place: usize) -> String {
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn ordinals() {
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 21, 22, 23, 111].map(ordinal),
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "21st", "22nd", "23rd", "111th"]
        );
    }
}
