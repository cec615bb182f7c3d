//! `docs/tournaments.md#round-and-tournament-scoring`: the tournament standings. Each player's
//! boards become round scores under the round scoring, the round (or game) scores become the
//! total under the tournament scoring, every board and round that does not count is marked
//! dropped, and players are ranked by total, then the DAANZ tie-breakers over their counted
//! games, exactly as league standings are.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hash;

use super::cut::{CUT_SIZE, top_after_round_three};
use super::{
    BoardScoreLine, RoundScoreLine, RoundScoring, SitOut, TournamentBoard, TournamentRules,
    TournamentScoring, TournamentStanding,
};
use crate::aggregation::div_round_half_away;
use crate::standings::{GameRef, compare_best_games, compare_refs, push_finishing_scores};
use crate::{Outcome, from_thousandths, thousandths};

/// The last round before WDC 2025's final round; rounds up to it are the early rounds.
pub(super) const EARLY_ROUNDS: u32 = 3;
/// WDC 2025's final round, the one worth 1.5 to the top 21.
const FINAL_ROUND: u32 = 4;

/// One player's row on one board.
#[derive(Debug, Clone, Copy)]
pub(super) struct Play<'a> {
    pub(super) board: u32,
    pub(super) game: GameRef<'a>,
    pub(super) centres: Option<u32>,
    /// Makes the round score (under best board, only the round's best board does).
    in_round: bool,
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
    sat_out: bool,
    /// The round score; `None` when absent.
    pub(super) score: Option<f64>,
    /// Counts in the tournament total.
    pub(super) counts: bool,
}

impl Round<'_> {
    fn micro(&self) -> Option<i64> {
        self.score.map(crate::standings::micro)
    }

    /// The best board that makes the round score.
    fn best_play(&self) -> Option<&Play<'_>> {
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
    total: i64,
    notes: Vec<String>,
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
        self.wins
            .cmp(&other.wins)
            .then(self.draws.cmp(&other.draws))
            .then_with(|| compare_best_games(&self.games, &other.games))
    }
}

/// Ranks a tournament's players (`docs/tournaments.md#round-and-tournament-scoring`). Every
/// entrant gets a line (one with no board yet: total 0), and so does any other player found on
/// a board or sitting out. Best first by total (exact thousandths), then the DAANZ
/// tie-breakers over the player's counted games: wins, draws, best, 2nd and 3rd best game;
/// players level after every tie-breaker share the rank and are listed in key order. The
/// standings do not depend on the order boards and sit-outs are listed in; a `(round, board)`
/// pair names one board, and a player who both sat out and played a round played it.
pub fn rank_tournament<K: Copy + Ord + Hash>(
    rules: &TournamentRules,
    entrants: &[K],
    boards: &[TournamentBoard<K>],
    sit_outs: &[SitOut<K>],
) -> Vec<TournamentStanding<K>> {
    let finishers: Vec<Vec<f64>> = boards
        .iter()
        .map(|board| {
            let mut scores = Vec::new();
            push_finishing_scores(&board.game.players, &mut Vec::new(), &mut scores);
            scores
        })
        .collect();
    let mut cards = cards(rules, entrants, boards, &finishers, sit_outs);
    match rules.scoring {
        TournamentScoring::SumAllRounds => {
            for card in &mut cards {
                keep_best_rounds(card, usize::MAX, |_| true);
            }
        }
        TournamentScoring::BestRounds { n } => {
            for card in &mut cards {
                keep_best_rounds(card, n as usize, |_| true);
            }
        }
        TournamentScoring::Wdc2025 => score_wdc_2025(&mut cards, boards, sit_outs),
        scoring => cards.iter_mut().for_each(|card| score_games(card, scoring)),
    }
    standings(rules, cards)
}

/// Every player's rounds with their round scores, players in key order.
fn cards<'a, K: Copy + Ord>(
    rules: &TournamentRules,
    entrants: &[K],
    boards: &'a [TournamentBoard<K>],
    finishers: &'a [Vec<f64>],
    sit_outs: &[SitOut<K>],
) -> Vec<Card<'a, K>> {
    #[derive(Default)]
    struct Reported<'a> {
        plays: Vec<Play<'a>>,
        sat_out: bool,
    }
    let mut players: BTreeMap<K, BTreeMap<u32, Reported<'a>>> =
        entrants.iter().map(|&player| (player, BTreeMap::new())).collect();
    for (board, finishers) in boards.iter().zip(finishers) {
        for (index, row) in board.game.players.iter().enumerate() {
            let Some(&player) = board.players.get(index) else { continue };
            players.entry(player).or_default().entry(board.round).or_default().plays.push(Play {
                board: board.board,
                game: GameRef::single(row, finishers),
                centres: board.centres.get(index).copied().flatten(),
                in_round: false,
                counts: false,
            });
        }
    }
    for sit_out in sit_outs {
        players.entry(sit_out.player).or_default().entry(sit_out.round).or_default().sat_out = true;
    }
    players
        .into_iter()
        .map(|(player, reported)| {
            let mut scored_sit_out = false;
            let rounds = reported
                .into_iter()
                .map(|(round, Reported { mut plays, sat_out })| {
                    plays.sort_by_key(|play| (play.board, play.game.micro));
                    let sat_out = sat_out && plays.is_empty();
                    let score = if sat_out {
                        let scores = !(rules.sit_out_points_once && scored_sit_out);
                        scored_sit_out = true;
                        Some(if scores { rules.sit_out_points } else { 0.0 })
                    } else {
                        score_round(&mut plays, rules.round_scoring)
                    };
                    Round { round, plays, sat_out, score, counts: false }
                })
                .collect();
            Card { player, rounds, total: 0, notes: Vec::new() }
        })
        .collect()
}

/// The round score of `plays` (in board order) under `scoring`, marking the boards that make
/// it; `None` without a board.
fn score_round(plays: &mut [Play<'_>], scoring: RoundScoring) -> Option<f64> {
    match scoring {
        RoundScoring::BestBoard => {
            // The higher score; between equal scores the better game by the DAANZ
            // comparison, then the lower board number.
            let best = (0..plays.len()).max_by(|&a, &b| {
                let (a, b) = (&plays[a], &plays[b]);
                a.game
                    .micro
                    .cmp(&b.game.micro)
                    .then_with(|| compare_refs(&a.game, &b.game))
                    .then(b.board.cmp(&a.board))
            })?;
            plays[best].in_round = true;
            Some(plays[best].score())
        }
        RoundScoring::SumOfBoards => {
            plays.iter_mut().for_each(|play| play.in_round = true);
            (!plays.is_empty()).then(|| plays.iter().map(Play::score).sum())
        }
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
fn keep_best_rounds<K>(card: &mut Card<'_, K>, n: usize, eligible: impl Fn(u32) -> bool) -> f64 {
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

/// One game of a scoring of games: a board, or the sitting-out points of a round without one
/// (a pseudo-game; sitting out that scores nothing is no game).
#[derive(Debug, Clone, Copy)]
struct Item {
    round: usize,
    play: Option<usize>,
    score: f64,
}

/// How many of a player's best games count in full, and how the next ones count.
#[derive(Debug, Clone, Copy)]
enum Rest {
    /// The rest are dropped.
    Dropped,
    /// The average of every other game counts, divided by `divisor`.
    Average { divisor: f64 },
    /// The next `count` games count, each divided by `divisor`; the others are dropped.
    Next { count: usize, divisor: f64 },
}

/// A scoring of games (`uses_round_scores` false): marks the boards (and sitting-out rounds)
/// that count and sets the total.
fn score_games<K>(card: &mut Card<'_, K>, scoring: TournamentScoring) {
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
    // Best first: the higher score, then a board before a pseudo-game, the better game by the
    // DAANZ comparison, the earlier round and board.
    let play = |item: &Item| item.play.map(|play| &card.rounds[item.round].plays[play]);
    items.sort_by(|a, b| {
        let micro = |item: &Item| crate::standings::micro(item.score);
        micro(b)
            .cmp(&micro(a))
            .then_with(|| match (play(a), play(b)) {
                (Some(a), Some(b)) => compare_refs(&b.game, &a.game).then(a.board.cmp(&b.board)),
                (a, b) => b.is_some().cmp(&a.is_some()),
            })
            .then(card.rounds[a.round].round.cmp(&card.rounds[b.round].round))
    });
    let (full, rest) = match scoring {
        TournamentScoring::BestGames { n } => (n as usize, Rest::Dropped),
        TournamentScoring::GamesAveragePlusTen => (items.len(), Rest::Dropped),
        TournamentScoring::BestTwoPlusHalfAverageOfRest => (2, Rest::Average { divisor: 2.0 }),
        TournamentScoring::BestTwoPlusHalfThird => (2, Rest::Next { count: 1, divisor: 2.0 }),
        TournamentScoring::BestThreePlusHalfFourth => (3, Rest::Next { count: 1, divisor: 2.0 }),
        TournamentScoring::BestTwoPlusHalfThirdOrThirdOfThirdAndFourth if items.len() >= 4 => {
            (2, Rest::Next { count: 2, divisor: 3.0 })
        }
        TournamentScoring::BestTwoPlusHalfThirdOrThirdOfThirdAndFourth => {
            (2, Rest::Next { count: 1, divisor: 2.0 })
        }
        TournamentScoring::SumAllRounds
        | TournamentScoring::BestRounds { .. }
        | TournamentScoring::Wdc2025 => unreachable!("scorings of rounds are not scored by game"),
    };
    let full = full.min(items.len());
    let rest_items = &items[full..];
    let (partial, divisor) = match rest {
        Rest::Dropped => (0, 1.0),
        Rest::Average { divisor } => (rest_items.len(), divisor * rest_items.len() as f64),
        Rest::Next { count, divisor } => (count.min(rest_items.len()), divisor),
    };
    let full_sum: f64 = items[..full].iter().map(|item| item.score).sum();
    let partial_sum: f64 = rest_items[..partial].iter().map(|item| item.score).sum();
    card.total = if scoring == TournamentScoring::GamesAveragePlusTen {
        // Exact: the sum in millionths over 1000 × (games + 10), rounded once.
        let sum: i64 = items.iter().map(|item| crate::standings::micro(item.score)).sum();
        let games = i64::try_from(items.len()).unwrap_or(i64::MAX - 10);
        card.notes.push(format!("{} games + 10", items.len()));
        div_round_half_away(sum, (games + 10) * 1000)
    } else {
        thousandths(full_sum + if partial > 0 { partial_sum / divisor } else { 0.0 })
    };
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
    for item in &items[..full + partial] {
        let round = &mut card.rounds[item.round];
        round.counts = true;
        if let Some(play) = item.play {
            round.plays[play].counts = true;
        }
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

/// WDC 2025: the best 2 of rounds 1–3, then every later round in full, round 4 ×1.5 for the
/// top 21 after round 3 (`docs/tournaments.md#round-and-tournament-scoring`).
fn score_wdc_2025<K: Copy + Ord + Hash>(
    cards: &mut [Card<'_, K>],
    boards: &[TournamentBoard<K>],
    sit_outs: &[SitOut<K>],
) {
    let early: Vec<f64> = cards
        .iter_mut()
        .map(|card| keep_best_rounds(card, 2, |round| round <= EARLY_ROUNDS))
        .collect();
    let final_started = boards.iter().any(|board| board.round >= FINAL_ROUND)
        || sit_outs.iter().any(|sit_out| sit_out.round >= FINAL_ROUND);
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

/// The ranked lines: total, then the DAANZ tie-breakers over the counted games, then key.
fn standings<K: Copy + Ord>(
    rules: &TournamentRules,
    cards: Vec<Card<'_, K>>,
) -> Vec<TournamentStanding<K>> {
    let round_numbers: BTreeSet<u32> = (1..=rules.rounds)
        .chain(cards.iter().flat_map(|card| card.rounds.iter().map(|round| round.round)))
        .collect();
    let mut ranked: Vec<(Card<'_, K>, Record<'_>)> = cards
        .into_iter()
        .map(|card| {
            let record = card.record(|_| true);
            (card, record)
        })
        .collect();
    let compare = |a: &(Card<'_, K>, Record<'_>), b: &(Card<'_, K>, Record<'_>)| {
        a.0.total.cmp(&b.0.total).then_with(|| a.1.compare(&b.1))
    };
    ranked.sort_by(|a, b| compare(b, a).then(a.0.player.cmp(&b.0.player)));
    let mut standings: Vec<TournamentStanding<K>> = Vec::with_capacity(ranked.len());
    for (place, entry) in ranked.iter().enumerate() {
        let rank = match place {
            _ if place > 0 && compare(&ranked[place - 1], entry).is_eq() => {
                standings.last().map_or(1, |previous| previous.rank)
            }
            _ => place as u32 + 1,
        };
        let card = &entry.0;
        let count = |outcome: Option<Outcome>| {
            card.plays().filter(|play| outcome.is_none_or(|o| play.game.row.outcome == o)).count()
                as u32
        };
        let mut rounds = card.rounds.iter().peekable();
        let lines = round_numbers
            .iter()
            .map(|&number| match rounds.next_if(|round| round.round == number) {
                Some(round) => RoundScoreLine {
                    round: number,
                    score: round.score,
                    sat_out: round.sat_out,
                    dropped: round.score.is_some() && !round.counts,
                    boards: round
                        .plays
                        .iter()
                        .map(|play| BoardScoreLine {
                            board: play.board,
                            score: play.score(),
                            dropped: !play.counts,
                        })
                        .collect(),
                },
                None => RoundScoreLine {
                    round: number,
                    score: None,
                    sat_out: false,
                    dropped: false,
                    boards: Vec::new(),
                },
            })
            .collect();
        standings.push(TournamentStanding {
            rank,
            player: card.player,
            total: from_thousandths(card.total),
            rounds: lines,
            games: count(None),
            wins: count(Some(Outcome::Win)),
            draws: count(Some(Outcome::Draw)),
            notes: card.notes.clone(),
        });
    }
    standings
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
