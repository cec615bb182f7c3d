//! Construction by development over the cyclic group Z_N: s ordered base blocks (k distinct
//! residues each) are shifted by every t in Z_N, giving N·s games. Seat balance comes free
//! (player p sits in seat j of block B exactly once, in the shift p − B[j]), and pair p, q
//! meets λ(q − p) times, where λ(d) counts the ordered pairs of base-block entries with
//! difference d. So the search only has to choose the blocks: it minimises the sum of squared
//! pair meetings while keeping player sets (and, where sets must repeat, seatings) as
//! distinct as combinatorics allow.

use crate::rng::SplitMix64;
use crate::shape::Shape;

/// Weight that makes any repeated set or seating worse than any pair imbalance.
const REPEAT_WEIGHT: u64 = 1 << 40;
/// Late-acceptance history length: a proposal is taken when it is no worse than the current
/// blocks or than the blocks this many steps ago (Burke & Bykov's late acceptance hill
/// climbing: escapes local minima with integers only, so every machine walks alike).
const HISTORY: usize = 50;

/// The outcome of [`search`]: the best base blocks found and how far they are from ideal.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub blocks: Vec<Vec<usize>>,
    /// Set, seating and seat repeats beyond what combinatorics forces (0 = none).
    pub repeats: u64,
    /// Sum of squared pair meetings above [`Shape::pair_square_bound`] (0 = optimal).
    pub pair_excess: u64,
}

/// Local search over base blocks, at most `max_steps` proposals, stopping at the ideal.
pub(crate) fn search(shape: &Shape, rng: &mut SplitMix64, max_steps: usize) -> Found {
    let (n, k) = (shape.players, shape.per_game);
    let mut evaluator = Evaluator::new(shape);
    let mut blocks: Vec<Vec<usize>> =
        (0..shape.games_per_seat).map(|_| random_block(n, k, rng)).collect();
    let mut cost = evaluator.cost(&blocks);
    let mut best = (cost, blocks.clone());
    let reorder_helps = shape.set_cap > 1;
    let mut history = [cost; HISTORY];
    for step in 0..max_steps {
        if best.0 == 0 {
            break;
        }
        let i = rng.below(blocks.len());
        let undo = if k < n && (!reorder_helps || rng.one_in(2)) {
            let j = rng.below(k);
            let residue = loop {
                let r = rng.below(n);
                if !blocks[i].contains(&r) {
                    break r;
                }
            };
            Undo::Replace(j, std::mem::replace(&mut blocks[i][j], residue))
        } else if reorder_helps {
            let (a, b) = (rng.below(k), rng.below(k));
            blocks[i].swap(a, b);
            Undo::Swap(a, b)
        } else {
            // k = N with every set allowed once: nothing to choose (cannot happen, as
            // then N·s games of one set force set_cap > 1).
            break;
        };
        let proposed = evaluator.cost(&blocks);
        let late = &mut history[step % HISTORY];
        let accept = proposed <= cost || proposed <= *late;
        *late = if accept { proposed } else { cost };
        if accept {
            cost = proposed;
            if cost < best.0 {
                best = (cost, blocks.clone());
            }
        } else {
            match undo {
                Undo::Replace(j, old) => blocks[i][j] = old,
                Undo::Swap(a, b) => blocks[i].swap(a, b),
            }
        }
    }
    let (cost, blocks) = best;
    Found { blocks, repeats: cost / REPEAT_WEIGHT, pair_excess: cost % REPEAT_WEIGHT }
}

/// Every game: each base block shifted by each t in Z_N (shift-major order).
pub(crate) fn develop(players: usize, blocks: &[Vec<usize>]) -> Vec<Vec<usize>> {
    (0..players)
        .flat_map(|shift| {
            blocks
                .iter()
                .map(move |block| block.iter().map(|&x| (x + shift) % players).collect::<Vec<_>>())
        })
        .collect()
}

enum Undo {
    Replace(usize, usize),
    Swap(usize, usize),
}

fn random_block(n: usize, k: usize, rng: &mut SplitMix64) -> Vec<usize> {
    // Partial Fisher–Yates: the first k of a shuffled 0..n.
    let mut residues: Vec<usize> = (0..n).collect();
    for i in 0..k {
        let j = i + rng.below(n - i);
        residues.swap(i, j);
    }
    residues.truncate(k);
    residues
}

/// Scores base blocks; keeps its buffers between calls (it runs once per search step).
struct Evaluator<'a> {
    shape: &'a Shape,
    differences: Vec<u64>,
    set_masks: Vec<u64>,
    seatings: Vec<(u64, Vec<usize>)>,
    seat_counts: Vec<usize>,
}

impl<'a> Evaluator<'a> {
    fn new(shape: &'a Shape) -> Self {
        Self {
            shape,
            differences: vec![0; shape.players],
            set_masks: Vec::with_capacity(shape.games),
            seatings: Vec::new(),
            seat_counts: vec![0; shape.players * shape.per_game],
        }
    }

    /// `REPEAT_WEIGHT · repeats + pair excess`; 0 means ideal.
    fn cost(&mut self, blocks: &[Vec<usize>]) -> u64 {
        let n = self.shape.players;
        self.differences.fill(0);
        for block in blocks {
            for &x in block {
                for &y in block {
                    if x != y {
                        self.differences[(y + n - x) % n] += 1;
                    }
                }
            }
        }
        // Each difference d (and its negative) stands for N/2 unordered pairs {p, p + d}.
        let squares: u64 = self.differences.iter().map(|d| d * d).sum();
        let pair_squares = squares * n as u64 / 2;
        let pair_excess = pair_squares.saturating_sub(self.shape.pair_square_bound);
        REPEAT_WEIGHT * self.repeats(blocks) + pair_excess
    }

    fn repeats(&mut self, blocks: &[Vec<usize>]) -> u64 {
        let n = self.shape.players;
        self.set_masks.clear();
        for block in blocks {
            let mask = block.iter().fold(0u64, |m, &x| m | 1 << x);
            self.set_masks.extend((0..n).map(|t| rotate(mask, t, n)));
        }
        self.set_masks.sort_unstable();
        let mut repeats = excess_over(&self.set_masks, self.shape.set_cap, |a, b| a == b);
        if self.shape.set_cap > 1 {
            repeats += self.seating_repeats(blocks);
        }
        repeats
    }

    /// Where sets must repeat: seatings used too often, and players sitting in the same
    /// seat more than ⌈m/k⌉ times among the m games of one set.
    fn seating_repeats(&mut self, blocks: &[Vec<usize>]) -> u64 {
        let (n, k) = (self.shape.players, self.shape.per_game);
        self.seatings.clear();
        for game in develop(n, blocks) {
            let mask = game.iter().fold(0u64, |m, &x| m | 1 << x);
            self.seatings.push((mask, game));
        }
        self.seatings.sort_unstable();
        let mut repeats = excess_over(&self.seatings, self.shape.seating_cap, |a, b| a == b);
        let mut start = 0;
        while start < self.seatings.len() {
            let mask = self.seatings[start].0;
            let end = start + self.seatings[start..].iter().take_while(|g| g.0 == mask).count();
            let cap = (end - start).div_ceil(k);
            for (_, game) in &self.seatings[start..end] {
                for (seat, &player) in game.iter().enumerate() {
                    let count = &mut self.seat_counts[player * k + seat];
                    *count += 1;
                    if *count > cap {
                        repeats += 1;
                    }
                }
            }
            for (_, game) in &self.seatings[start..end] {
                for (seat, &player) in game.iter().enumerate() {
                    self.seat_counts[player * k + seat] = 0;
                }
            }
            start = end;
        }
        repeats
    }
}

/// In a sorted slice, how many items exceed `cap` copies of their value.
fn excess_over<T>(sorted: &[T], cap: usize, same: impl Fn(&T, &T) -> bool) -> u64 {
    let mut excess = 0;
    let mut run = 0;
    for (i, item) in sorted.iter().enumerate() {
        run = if i > 0 && same(&sorted[i - 1], item) { run + 1 } else { 1 };
        if run > cap {
            excess += 1;
        }
    }
    excess
}

/// The set `mask` (bits 0..n) shifted by `t` in Z_n.
fn rotate(mask: u64, t: usize, n: usize) -> u64 {
    if t == 0 {
        return mask;
    }
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    ((mask << t) | (mask >> (n - t))) & full
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_shifts_every_member() {
        assert_eq!(rotate(0b0000_0111, 6, 8), 0b1100_0001);
        assert_eq!(rotate(1 << 63, 1, 64), 1);
    }

    #[test]
    fn development_puts_each_player_in_each_seat_once_per_block() {
        let games = develop(5, &[vec![0, 1, 3]]);
        for seat in 0..3 {
            let mut seated: Vec<usize> = games.iter().map(|g| g[seat]).collect();
            seated.sort_unstable();
            assert_eq!(seated, vec![0, 1, 2, 3, 4]);
        }
    }

    #[test]
    fn notes_blocks_for_three_per_game_reach_the_bound() {
        // NOTES.md, league schedule maths: (0,1,2), (0,1,4), (0,2,5) mod 8 give spread 1.
        let shape = Shape::new(8, 3, 3);
        let blocks = vec![vec![0, 1, 2], vec![0, 1, 4], vec![0, 2, 5]];
        assert_eq!(Evaluator::new(&shape).cost(&blocks), 0);
        let repeated = vec![vec![0, 1, 2], vec![1, 2, 3], vec![0, 2, 5]];
        assert!(Evaluator::new(&shape).cost(&repeated) >= REPEAT_WEIGHT);
    }
}
