//! Board formation by simulated annealing over swaps of two players between boards.
//! Objective: Σ over boards of (pair cost × `SEAT_SCALE` + seat deficit), so any pair-cost
//! gain outweighs every seat change a swap can make and seats decide only among boards of
//! equal pair cost. The budget is a number of proposed swaps proportional to the players
//! seated (never a duration), so the same request gives the same boards everywhere.

use super::problem::Problem;
use super::seats::seat_deficit;
use crate::rng::SplitMix64;

/// Proposed swaps per seated slot.
const SWAPS_PER_SLOT: usize = 8_000;
/// Draws of a board until one that costs something, per swap (see `costly_board`).
const FOCUS_DRAWS: usize = 4;
/// Fewest proposed swaps, so that small rounds get a thorough search.
const MIN_SWAPS: usize = 200_000;

/// The round's boards as player indices: the top board first (if any), the others ordered
/// by their lowest player index.
pub(super) fn search(problem: &Problem, seed: u64) -> Vec<Vec<usize>> {
    let mut rng = SplitMix64::new(seed);
    let mut state = State::dealt(problem, &mut rng);
    if state.members.len() > 1 {
        state.anneal(&mut rng);
    }
    let mut boards = state.best;
    for board in &mut boards {
        board.sort_unstable();
    }
    boards.sort_unstable();
    if !problem.top_board.is_empty() {
        boards.insert(0, problem.top_board.clone());
    }
    boards
}

struct State<'a> {
    problem: &'a Problem,
    seat_scale: u64,
    /// The searched boards (the top board is fixed and left out).
    members: Vec<Vec<usize>>,
    /// Per board: pair cost × seat scale + seat deficit.
    board_cost: Vec<u64>,
    /// Per board: its seat deficit.
    deficit: Vec<u32>,
    total: u64,
    best: Vec<Vec<usize>>,
    best_total: u64,
}

impl<'a> State<'a> {
    /// A random start: players shuffled, a player playing twice given two adjacent slots,
    /// slots dealt round robin — so the two slots land on different boards.
    fn dealt(problem: &'a Problem, rng: &mut SplitMix64) -> Self {
        let k = problem.board_size;
        let mut order: Vec<usize> = (0..problem.players()).collect();
        super::shuffle(&mut order, rng);
        let on_top = |p: usize| problem.top_board.contains(&p);
        let slots: Vec<usize> = order
            .iter()
            .flat_map(|&p| {
                let copies = usize::from(!on_top(p)) + usize::from(problem.twice[p]);
                std::iter::repeat_n(p, copies)
            })
            .collect();
        let boards = slots.len() / k;
        let mut members = vec![Vec::with_capacity(k); boards];
        for (slot, &player) in slots.iter().enumerate() {
            members[slot % boards].push(player);
        }
        let seat_scale = 2 * k as u64 + 1;
        let mut state = Self {
            problem,
            seat_scale,
            board_cost: vec![0; boards],
            deficit: vec![0; boards],
            total: 0,
            best: Vec::new(),
            best_total: 0,
            members,
        };
        for board in 0..boards {
            state.deficit[board] = state.deficit_of(&state.members[board]);
            state.board_cost[board] = problem.board_cost(&state.members[board]) * seat_scale
                + u64::from(state.deficit[board]);
        }
        state.total = state.board_cost.iter().sum();
        state.best = state.members.clone();
        state.best_total = state.total;
        state
    }

    fn deficit_of(&self, board: &[usize]) -> u32 {
        seat_deficit(board.iter().map(|&p| self.problem.fresh_seats[p]))
    }

    /// Pair-cost change (ordered pairs) of putting `incoming` in place of the player at
    /// `position` on `board`.
    fn pair_change(&self, board: usize, position: usize, incoming: usize) -> i64 {
        let outgoing = self.members[board][position];
        let mut change = 0i64;
        for (i, &other) in self.members[board].iter().enumerate() {
            if i != position {
                change += self.problem.cost(incoming, other) as i64
                    - self.problem.cost(outgoing, other) as i64;
            }
        }
        2 * change
    }

    fn deficit_after(&self, board: usize, position: usize, incoming: usize) -> u32 {
        let fresh = &self.problem.fresh_seats;
        seat_deficit(
            self.members[board]
                .iter()
                .enumerate()
                .map(|(i, &p)| if i == position { fresh[incoming] } else { fresh[p] }),
        )
    }

    fn anneal(&mut self, rng: &mut SplitMix64) {
        let k = self.problem.board_size;
        let boards = self.members.len();
        let slots = boards * k;
        let swaps = (SWAPS_PER_SLOT * slots).max(MIN_SWAPS);
        let start = self.starting_temperature(rng);
        let end = 0.2;
        let cooling = if start > end { (end / start).powf(1.0 / swaps as f64) } else { 1.0 };
        let mut temperature = start.max(end);
        for _ in 0..swaps {
            if self.total == 0 {
                break;
            }
            temperature *= cooling;
            let a = self.costly_board(rng);
            let b = (a + 1 + rng.below(boards - 1)) % boards;
            let (i, j) = (rng.below(k), rng.below(k));
            let (pa, pb) = (self.members[a][i], self.members[b][j]);
            if pa == pb {
                continue;
            }
            let (pair_a, pair_b) = (self.pair_change(a, i, pb), self.pair_change(b, j, pa));
            let pair = pair_a + pair_b;
            // Accept when the change is below a threshold drawn from the Boltzmann law.
            let threshold = -temperature * (1.0 - next_unit(rng)).ln();
            let seat_gain_bound = i64::from(self.deficit[a] + self.deficit[b]);
            let scaled = pair.saturating_mul(self.seat_scale as i64);
            if (scaled - seat_gain_bound) as f64 > threshold {
                continue;
            }
            let (deficit_a, deficit_b) =
                (self.deficit_after(a, i, pb), self.deficit_after(b, j, pa));
            let change = scaled + i64::from(deficit_a) + i64::from(deficit_b)
                - i64::from(self.deficit[a])
                - i64::from(self.deficit[b]);
            if change as f64 > threshold {
                continue;
            }
            self.members[a][i] = pb;
            self.members[b][j] = pa;
            let scale = self.seat_scale as i64;
            let board_change = |pair: i64, before: u32, after: u32| {
                pair * scale + i64::from(after) - i64::from(before)
            };
            self.board_cost[a] = (self.board_cost[a] as i64
                + board_change(pair_a, self.deficit[a], deficit_a))
                as u64;
            self.board_cost[b] = (self.board_cost[b] as i64
                + board_change(pair_b, self.deficit[b], deficit_b))
                as u64;
            self.deficit[a] = deficit_a;
            self.deficit[b] = deficit_b;
            self.total = (self.total as i64 + change) as u64;
            if self.total < self.best_total {
                self.best_total = self.total;
                self.best.clone_from(&self.members);
            }
        }
    }

    /// A random board, drawn again (a few times) while it costs nothing: late in the
    /// search most boards are perfect and swaps among them cannot help.
    fn costly_board(&self, rng: &mut SplitMix64) -> usize {
        let mut board = rng.below(self.members.len());
        for _ in 0..FOCUS_DRAWS {
            if self.board_cost[board] > 0 {
                break;
            }
            board = rng.below(self.members.len());
        }
        board
    }

    /// Half the mean worsening of a sample of random swaps: hot enough to leave the start.
    fn starting_temperature(&self, rng: &mut SplitMix64) -> f64 {
        let k = self.problem.board_size;
        let boards = self.members.len();
        let (mut sum, mut count) = (0.0, 0u32);
        for _ in 0..200 {
            let a = rng.below(boards);
            let b = (a + 1 + rng.below(boards - 1)) % boards;
            let (i, j) = (rng.below(k), rng.below(k));
            let (pa, pb) = (self.members[a][i], self.members[b][j]);
            let pair = self.pair_change(a, i, pb) + self.pair_change(b, j, pa);
            if pair > 0 && (pair as u64) < super::problem::SAME_PLAYER {
                sum += (pair as u64 * self.seat_scale) as f64;
                count += 1;
            }
        }
        if count == 0 { self.seat_scale as f64 } else { 0.5 * sum / f64::from(count) }
    }
}

/// A number in `[0, 1)` from the top 53 bits of a draw.
fn next_unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}
