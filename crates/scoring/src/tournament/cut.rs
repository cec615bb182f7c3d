//! `docs/tournaments.md#round-and-tournament-scoring`, WDC 2025: who is in the top 21 after
//! round 3 (and so scores round 4 ×1.5), breaking a tie at 21st step by step as dipvis does,
//! with the head-to-head step dipvis left undone and a deterministic last resort.

use std::cmp::Ordering;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::card::{Card, Record, ordinal};
use crate::from_thousandths;
use crate::standings::micro;

/// The last round before WDC 2025's final round; rounds up to it are the early rounds.
pub(super) const EARLY_ROUNDS: u32 = 3;
/// How many players score the final round ×1.5.
pub(super) const CUT_SIZE: usize = 21;

/// A player's place at the cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CutPlace {
    /// In the top 21 after round 3.
    pub(super) top: bool,
    /// For a player tied at 21st: the step that put them in or out.
    pub(super) tie: Option<String>,
}

/// The tie-breakers at the cut, in order; each applies to the players still tied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The higher single board score in rounds 1–3.
    BestGame,
    /// More head-to-head wins among the tied players (see [`head_to_head_wins`]).
    HeadToHead,
    /// More centres on the boards of the two counted rounds.
    Centres,
    /// The higher score of the dropped round of rounds 1–3 (none: 0).
    DroppedRound,
    /// The DAANZ comparison of the counted boards of rounds 1–3.
    Daanz,
    /// The lower player key: the last resort, one player at a time.
    PlayerOrder,
}

impl Step {
    const ALL: [Step; 6] = [
        Step::BestGame,
        Step::HeadToHead,
        Step::Centres,
        Step::DroppedRound,
        Step::Daanz,
        Step::PlayerOrder,
    ];

    fn describe(self) -> &'static str {
        match self {
            Step::BestGame => "higher single game score",
            Step::HeadToHead => "head-to-head score",
            Step::Centres => "more centres in the two counted games",
            Step::DroppedRound => "higher dropped-round score",
            Step::Daanz => "the DAANZ tie-breakers",
            Step::PlayerOrder => "player order",
        }
    }
}

/// What the cut knows of one player.
#[derive(Debug)]
struct Candidate<'a, K> {
    player: K,
    /// The best 2 of rounds 1–3, in thousandths.
    early: i64,
    /// The best board score of rounds 1–3, in millionths.
    best_game: Option<i64>,
    /// Every board of rounds 1–3: (round, board) and the score in millionths.
    boards: Vec<((u32, u32), i64)>,
    centres: u32,
    /// The dropped round's score, in millionths.
    dropped: i64,
    record: Record<'a>,
}

impl<'a, K: Copy> Candidate<'a, K> {
    fn new(card: &Card<'a, K>, early: i64) -> Self {
        let rounds = || card.rounds.iter().filter(|round| round.round <= EARLY_ROUNDS);
        let plays = || rounds().flat_map(|round| round.plays.iter().map(move |p| (round, p)));
        Candidate {
            player: card.player,
            early,
            best_game: plays().map(|(_, play)| play.game.micro).max(),
            boards: plays()
                .map(|(round, play)| ((round.round, play.board), play.game.micro))
                .collect(),
            centres: plays()
                .filter(|(_, play)| play.counts)
                .map(|(_, play)| play.centres.unwrap_or(0))
                .sum(),
            dropped: rounds()
                .filter(|round| !round.counts)
                .filter_map(|round| round.score.map(micro))
                .max()
                .unwrap_or(0),
            record: card.record(|round| round <= EARLY_ROUNDS),
        }
    }
}

/// For each player of `group`, how many others of the group they beat head to head: against
/// each other player they shared a board with in rounds 1–3, the one with the higher sum of
/// scores on the shared boards wins (equal sums: neither).
fn head_to_head_wins<K>(group: &[&Candidate<'_, K>]) -> Vec<usize> {
    group
        .iter()
        .map(|player| {
            let own: FxHashMap<(u32, u32), i64> = player.boards.iter().copied().collect();
            group
                .iter()
                .filter(|other| {
                    let (mut mine, mut theirs, mut shared) = (0, 0, false);
                    for (board, score) in &other.boards {
                        if let Some(own) = own.get(board) {
                            (mine, theirs, shared) = (mine + own, theirs + score, true);
                        }
                    }
                    shared && mine > theirs
                })
                .count()
        })
        .collect()
}

/// The players of `group` best under `step` (`group` is never empty).
fn best_of<'g, 'a, K: Ord>(
    group: &[&'g Candidate<'a, K>],
    step: Step,
) -> Vec<&'g Candidate<'a, K>> {
    let wins = if step == Step::HeadToHead { head_to_head_wins(group) } else { Vec::new() };
    let compare = |a: usize, b: usize| -> Ordering {
        let (x, y) = (group[a], group[b]);
        match step {
            Step::BestGame => x.best_game.cmp(&y.best_game),
            Step::HeadToHead => wins[a].cmp(&wins[b]),
            Step::Centres => x.centres.cmp(&y.centres),
            Step::DroppedRound => x.dropped.cmp(&y.dropped),
            Step::Daanz => x.record.compare(&y.record),
            Step::PlayerOrder => y.player.cmp(&x.player),
        }
    };
    let best = (0..group.len()).max_by(|&a, &b| compare(a, b)).unwrap_or(0);
    (0..group.len()).filter(|&a| compare(a, best).is_eq()).map(|a| group[a]).collect()
}

/// Who is in the top 21 after round 3, for each card (its early rounds already kept: the best
/// 2 of rounds 1–3 count, and `early[i]` is card `i`'s sum of them in thousandths). Players
/// above the 21st's early total are in; when players tie on the 21st's total across the cut,
/// the steps of [`Step`] split them in order: at each step the best of those still tied are in
/// if they all fit, and the search starts over with the rest; if they do not fit, the others
/// are out and the next step splits the best.
pub(super) fn top_after_round_three<K: Copy + Ord + Hash>(
    cards: &[Card<'_, K>],
    early: &[i64],
) -> Vec<CutPlace> {
    let candidates: Vec<Candidate<'_, K>> =
        cards.iter().zip(early).map(|(card, &early)| Candidate::new(card, early)).collect();
    let mut places = vec![CutPlace { top: false, tie: None }; candidates.len()];
    let index: FxHashMap<K, usize> =
        candidates.iter().enumerate().map(|(index, c)| (c.player, index)).collect();
    let mut totals: Vec<i64> = candidates.iter().map(|c| c.early).collect();
    totals.sort_unstable_by(|a, b| b.cmp(a));
    if totals.len() <= CUT_SIZE || totals[CUT_SIZE - 1] > totals[CUT_SIZE] {
        let line = totals.get(CUT_SIZE - 1).copied().unwrap_or(i64::MIN);
        for (place, candidate) in places.iter_mut().zip(&candidates) {
            place.top = candidate.early >= line;
        }
        return places;
    }
    let line = totals[CUT_SIZE - 1];
    let above = candidates.iter().filter(|c| c.early > line).count();
    for (place, candidate) in places.iter_mut().zip(&candidates) {
        place.top = candidate.early > line;
    }
    let mut needed = CUT_SIZE - above;
    let mut remaining: Vec<&Candidate<'_, K>> =
        candidates.iter().filter(|c| c.early == line).collect();
    let tie = |step: Step, top: bool| {
        Some(format!(
            "tied {} after round {EARLY_ROUNDS} on {}: {} the top {CUT_SIZE} by {}",
            ordinal(CUT_SIZE),
            from_thousandths(line),
            if top { "into" } else { "out of" },
            step.describe()
        ))
    };
    let mut last = Step::BestGame;
    'cut: while needed > 0 {
        for step in Step::ALL {
            let best = best_of(&remaining, step);
            last = step;
            if best.len() <= needed {
                needed -= best.len();
                for candidate in &best {
                    let place = &mut places[index[&candidate.player]];
                    (place.top, place.tie) = (true, tie(step, true));
                }
                remaining.retain(|c| !best.iter().any(|b| b.player == c.player));
                continue 'cut;
            }
            for candidate in remaining.iter().filter(|c| !best.iter().any(|b| b.player == c.player))
            {
                places[index[&candidate.player]].tie = tie(step, false);
            }
            remaining = best;
        }
    }
    for candidate in remaining {
        places[index[&candidate.player]].tie = tie(last, false);
    }
    places
}
