//! Construction by development over an abelian group G of order N (players are its
//! elements; the cyclic group Z_N first, then the other Z_m1 × … × Z_mr): s ordered base
//! blocks (k distinct elements each) are shifted by every t in G, giving N·s games. Seat
//! balance comes free (player p sits in seat j of block B exactly once, in the shift
//! p − B[j]), and pair p, q meets λ(q − p) times, where λ(d) counts the ordered pairs of
//! base-block entries with difference d. So the search only has to choose the blocks: it
//! minimises the sum of squared pair meetings while keeping player sets (and, where sets
//! must repeat, seatings) as distinct as combinatorics allow. Other groups than Z_N matter
//! when Z_N has an arithmetic obstruction (e.g. no cyclic solution for N = 10, k = 7).

use crate::rng::SplitMix64;
use crate::shape::Shape;

/// Weight that makes any repeated set or seating worse than any pair imbalance.
const REPEAT_WEIGHT: u64 = 1 << 40;
/// Weight of a difference met two or more times away from the mean, so that the search
/// prefers many near-misses to one far miss (which widens the spread).
const OUTLIER_WEIGHT: u64 = 1 << 30;
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
    /// Differences whose meetings lie two or more away from the mean.
    pub outliers: u64,
    /// Sum of squared pair meetings above [`Shape::pair_square_bound`] (0 = optimal).
    pub pair_excess: u64,
}

/// An abelian group Z_m1 × … × Z_mr on the elements 0..N (mixed radix), as tables.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    order: usize,
    sum: Vec<usize>,
    negative: Vec<usize>,
}

impl Group {
    pub(crate) fn new(moduli: &[usize]) -> Self {
        let order: usize = moduli.iter().product();
        let digits = |mut x: usize| {
            moduli.iter().map(move |&m| {
                let digit = x % m;
                x /= m;
                digit
            })
        };
        let compose = |digits: &mut dyn Iterator<Item = usize>| {
            let mut place = 1;
            let mut value = 0;
            for (digit, &m) in digits.zip(moduli) {
                value += digit * place;
                place *= m;
            }
            value
        };
        let mut sum = vec![0; order * order];
        for a in 0..order {
            for b in 0..order {
                let mut added =
                    digits(a).zip(digits(b)).zip(moduli).map(|((x, y), &m)| (x + y) % m);
                sum[a * order + b] = compose(&mut added);
            }
        }
        let negative = (0..order)
            .map(|a| (0..order).find(|&b| sum[a * order + b] == 0).unwrap_or(0))
            .collect();
        Self { order, sum, negative }
    }

    pub(crate) fn add(&self, a: usize, b: usize) -> usize {
        self.sum[a * self.order + b]
    }

    fn difference(&self, a: usize, b: usize) -> usize {
        self.add(a, self.negative[b])
    }
}

/// Every abelian group of order `n` as invariant factors m1, m2, … (m_{i+1} divides m_i),
/// the cyclic group [n] first.
pub(crate) fn abelian_groups(n: usize) -> Vec<Vec<usize>> {
    fn extend(
        remaining: usize,
        largest: usize,
        prefix: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if remaining == 1 {
            out.push(prefix.clone());
            return;
        }
        for m in (2..=largest.min(remaining)).rev() {
            if remaining.is_multiple_of(m) && largest.is_multiple_of(m) {
                prefix.push(m);
                extend(remaining / m, m, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    for first in (2..=n).rev() {
        if n.is_multiple_of(first) {
            extend(n / first, first, &mut vec![first], &mut out);
        }
    }
    if n == 1 {
        out.push(vec![1]);
    }
    out
}

/// Local search over base blocks in `group`, at most `max_steps` proposals, stopping at
/// the ideal.
pub(crate) fn search(
    shape: &Shape,
    group: &Group,
    rng: &mut SplitMix64,
    max_steps: usize,
) -> Found {
    let (n, k) = (shape.players, shape.per_game);
    let mut evaluator = Evaluator::new(shape, group);
    let mut blocks: Vec<Vec<usize>> =
        (0..shape.games_per_seat).map(|_| random_block(n, k, rng)).collect();
    let mut cost = evaluator.reset(&blocks);
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
            let old = blocks[i][j];
            evaluator.move_entry(&blocks[i], j, old, residue);
            blocks[i][j] = residue;
            Undo::Replace(j, old)
        } else if reorder_helps {
            let (a, b) = (rng.below(k), rng.below(k));
            blocks[i].swap(a, b);
            Undo::Swap(a, b)
        } else {
            // k = N with every set allowed once: nothing to choose (cannot happen, as
            // then N·s games of one set force set_cap > 1).
            break;
        };
        // Late acceptance: take it when no worse than now or than HISTORY steps ago. The
        // pair part is known incrementally; repeats (costlier) only matter if it passes.
        let late = &mut history[step % HISTORY];
        let threshold = cost.max(*late);
        let pair_excess = OUTLIER_WEIGHT * evaluator.outliers as u64 + evaluator.pair_excess();
        let proposed = (pair_excess <= threshold)
            .then(|| REPEAT_WEIGHT * evaluator.repeats(&blocks) + pair_excess)
            .filter(|&proposed| proposed <= threshold);
        *late = proposed.unwrap_or(cost);
        if let Some(proposed) = proposed {
            cost = proposed;
            if cost < best.0 {
                best = (cost, blocks.clone());
            }
        } else {
            match undo {
                Undo::Replace(j, old) => {
                    let new = blocks[i][j];
                    evaluator.move_entry(&blocks[i], j, new, old);
                    blocks[i][j] = old;
                }
                Undo::Swap(a, b) => blocks[i].swap(a, b),
            }
        }
    }
    let blocks = best.1;
    evaluator.reset(&blocks);
    Found {
        repeats: evaluator.repeats(&blocks),
        outliers: evaluator.outliers as u64,
        pair_excess: evaluator.pair_excess(),
        blocks,
    }
}

/// Every game: each base block shifted by each t in the group (shift-major order).
pub(crate) fn develop(group: &Group, blocks: &[Vec<usize>]) -> Vec<Vec<usize>> {
    (0..group.order)
        .flat_map(|shift| {
            blocks
                .iter()
                .map(move |block| block.iter().map(|&x| group.add(x, shift)).collect::<Vec<_>>())
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

/// Scores base blocks: pair differences kept incrementally, repeats recounted on demand
/// (buffers kept between calls; it runs once per search step).
struct Evaluator<'a> {
    shape: &'a Shape,
    group: &'a Group,
    differences: Vec<i64>,
    squares: i64,
    outliers: i64,
    /// Meetings per difference allowed without counting as an outlier: ⌊mean⌋ − 1 ..= ⌈mean⌉ + 1.
    band: (i64, i64),
    set_masks: Vec<u64>,
    seatings: Vec<(u64, Vec<usize>)>,
    seat_counts: Vec<usize>,
}

impl<'a> Evaluator<'a> {
    fn new(shape: &'a Shape, group: &'a Group) -> Self {
        Self {
            shape,
            group,
            differences: vec![0; shape.players],
            squares: 0,
            outliers: 0,
            band: {
                let total = (shape.games_per_seat * shape.per_game * (shape.per_game - 1)) as i64;
                let gaps = shape.players as i64 - 1;
                (total / gaps - 1, (total + gaps - 1) / gaps + 1)
            },
            set_masks: Vec::with_capacity(shape.games),
            seatings: Vec::new(),
            seat_counts: vec![0; shape.players * shape.per_game],
        }
    }

    /// `REPEAT_WEIGHT · repeats + pair excess`; 0 means ideal.
    /// Recounts the differences of `blocks`; returns their cost (0 = ideal):
    /// `REPEAT_WEIGHT · repeats + pair excess`.
    fn reset(&mut self, blocks: &[Vec<usize>]) -> u64 {
        self.differences.fill(0);
        self.squares = 0;
        self.outliers = (1..self.shape.players).filter(|_| self.outside_band(0)).count() as i64;
        for block in blocks {
            for &x in block {
                for &y in block {
                    if x != y {
                        self.bump(self.group.difference(y, x), 1);
                    }
                }
            }
        }
        REPEAT_WEIGHT * self.repeats(blocks)
            + OUTLIER_WEIGHT * self.outliers as u64
            + self.pair_excess()
    }

    fn bump(&mut self, difference: usize, by: i64) {
        let count = self.differences[difference];
        self.squares += (count + by) * (count + by) - count * count;
        self.outliers +=
            i64::from(self.outside_band(count + by)) - i64::from(self.outside_band(count));
        self.differences[difference] = count + by;
    }

    /// λ(d) two or more below ⌊mean⌋ or above ⌈mean⌉.
    fn outside_band(&self, count: i64) -> bool {
        count < self.band.0 || count > self.band.1
    }

    /// The entry at `position` of `block` changes from `from` to `to` (`block` may hold
    /// either; the other entries are what count).
    fn move_entry(&mut self, block: &[usize], position: usize, from: usize, to: usize) {
        for (other, &y) in block.iter().enumerate() {
            if other != position {
                self.bump(self.group.difference(y, from), -1);
                self.bump(self.group.difference(from, y), -1);
                self.bump(self.group.difference(y, to), 1);
                self.bump(self.group.difference(to, y), 1);
            }
        }
    }

    /// Sum of squared pair meetings above the bound: each difference d stands for N
    /// ordered pairs (p, p + d), so Σ over unordered pairs = N · Σ_d λ(d)² / 2.
    fn pair_excess(&self) -> u64 {
        let pair_squares = self.squares as u64 * self.shape.players as u64 / 2;
        pair_squares.saturating_sub(self.shape.pair_square_bound)
    }

    fn repeats(&mut self, blocks: &[Vec<usize>]) -> u64 {
        let n = self.shape.players;
        self.set_masks.clear();
        for block in blocks {
            let group = self.group;
            self.set_masks
                .extend((0..n).map(|t| block.iter().fold(0u64, |m, &x| m | 1 << group.add(x, t))));
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
        let k = self.shape.per_game;
        self.seatings.clear();
        for game in develop(self.group, blocks) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_of_order_sixteen_and_their_arithmetic() {
        // Z16, Z8×Z2, Z4×Z4, Z4×Z2×Z2, Z2^4.
        let groups = abelian_groups(16);
        assert_eq!(groups, vec![vec![16], vec![8, 2], vec![4, 4], vec![4, 2, 2], vec![2, 2, 2, 2]]);
        let cyclic = Group::new(&[8]);
        assert_eq!((cyclic.add(5, 6), cyclic.difference(1, 3)), (3, 6));
        // Z4×Z2, mixed radix x = a + 4b: (3,1) + (2,1) = (1,0).
        let product = Group::new(&[4, 2]);
        assert_eq!(product.add(7, 6), 1);
        for a in 0..8 {
            assert_eq!(product.difference(a, a), 0);
        }
    }

    #[test]
    fn development_puts_each_player_in_each_seat_once_per_block() {
        let games = develop(&Group::new(&[5]), &[vec![0, 1, 3]]);
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
        let cyclic = Group::new(&[8]);
        assert_eq!(Evaluator::new(&shape, &cyclic).reset(&blocks), 0);
        let repeated = vec![vec![0, 1, 2], vec![1, 2, 3], vec![0, 2, 5]];
        assert!(Evaluator::new(&shape, &cyclic).reset(&repeated) >= REPEAT_WEIGHT);
    }
}
