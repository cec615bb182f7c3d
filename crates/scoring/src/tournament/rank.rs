//! `docs/tournaments.md#round-and-tournament-scoring`: the tournament standings. Each player's
//! boards become round scores under the round scoring (a [`Card`] per player), the tournament
//! scoring's function (its entry of the catalogue, `catalogue.rs`) turns the cards into totals
//! and marks every board and round that does not count dropped, and players are ranked by total,
//! then the DAANZ tie-breakers over their counted games, exactly as league standings are.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hash;

use super::card::{Card, Play, Record, Round, Tally};
use super::rulings::Rulings;
use super::{
    BoardScoreLine, RoundScoreLine, RoundScoring, SitOut, TournamentBoard, TournamentRules,
    TournamentStanding,
};
use crate::standings::{
    Decision, GameRef, TieBreak, compare_refs, push_finishing_scores, shown_tie_breaks,
};
use crate::{Outcome, from_thousandths};

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
    rank_tournament_ruled(rules, entrants, boards, sit_outs, &Rulings::default())
}

/// [`rank_tournament`] with the directors' rulings applied (`docs/tournaments.md#rulings`).
pub fn rank_tournament_ruled<K: Copy + Ord + Hash>(
    rules: &TournamentRules,
    entrants: &[K],
    boards: &[TournamentBoard<K>],
    sit_outs: &[SitOut<K>],
    rulings: &Rulings<K>,
) -> Vec<TournamentStanding<K>> {
    let finishers: Vec<Vec<f64>> = boards
        .iter()
        .map(|board| {
            let mut scores = Vec::new();
            push_finishing_scores(&board.game.players, &mut Vec::new(), &mut scores);
            scores
        })
        .collect();
    let rounds = boards.iter().map(|board| board.round);
    let last_round = rounds.chain(sit_outs.iter().map(|sit_out| sit_out.round)).max();
    let mut tally = Tally {
        cards: cards(rules, entrants, boards, &finishers, sit_outs, rulings),
        last_round: last_round.unwrap_or(0),
    };
    rules.scoring.score(&mut tally);
    rulings.add_to_totals(&mut tally.cards);
    standings(rules, tally.cards, rulings)
}

/// Every player's rounds with their round scores, players in key order.
fn cards<'a, K: Copy + Ord>(
    rules: &TournamentRules,
    entrants: &[K],
    boards: &'a [TournamentBoard<K>],
    finishers: &'a [Vec<f64>],
    sit_outs: &[SitOut<K>],
    rulings: &Rulings<K>,
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
                    let score = rulings.round_score(player, round, score);
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

/// The ranked lines: total, then the DAANZ tie-breakers over the counted games, then key.
fn standings<K: Copy + Ord>(
    rules: &TournamentRules,
    cards: Vec<Card<'_, K>>,
    rulings: &Rulings<K>,
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
    let decide = |a: &(Card<'_, K>, Record<'_>), b: &(Card<'_, K>, Record<'_>)| {
        let on_total = a.0.total.cmp(&b.0.total);
        match rulings.directors_order(a.0.player, b.0.player).filter(|_| on_total.is_eq()) {
            Some(ordering) => Decision { ordering, by: Some(TieBreak::DirectorsRank) },
            None => a.1.decide(&b.1, on_total),
        }
    };
    let unranked = |entry: &(Card<'_, K>, Record<'_>)| rulings.is_unranked(entry.0.player);
    ranked.sort_by(|a, b| {
        unranked(a)
            .cmp(&unranked(b))
            .then_with(|| decide(b, a).ordering)
            .then(a.0.player.cmp(&b.0.player))
    });
    let mut standings: Vec<TournamentStanding<K>> = Vec::with_capacity(ranked.len());
    let mut between: Vec<Option<TieBreak>> = Vec::with_capacity(ranked.len());
    for (place, entry) in ranked.iter().enumerate() {
        let unranked = unranked(entry);
        let above = (place > 0 && !unranked).then(|| decide(&ranked[place - 1], entry));
        between.push(above.and_then(|decision| decision.by));
        let rank = match above {
            _ if unranked => 0,
            Some(decision) if decision.ordering.is_eq() => {
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
            separated_by: None,
            unranked,
        });
    }
    let ranks: Vec<u32> = standings.iter().map(|standing| standing.rank).collect();
    for (standing, shown) in standings.iter_mut().zip(shown_tie_breaks(&ranks, &between)) {
        standing.separated_by = shown;
    }
    standings
}
