//! Balance figures of a schedule (games per player, seat counts, pair meetings, repeats):
//! what `league schedule --report` prints and what the tests check against `docs/scheduling.md`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::Schedule;
use crate::shape::Shape;

/// How balanced a [`Schedule`] is. Player indices outside `0..players` are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BalanceReport {
    pub games: usize,
    /// `games_per_player[p]`: how many games player p plays.
    pub games_per_player: Vec<usize>,
    /// `seat_counts[p][seat]`: how often player p takes that seat.
    pub seat_counts: Vec<Vec<usize>>,
    /// Fewest and most meetings of any two players (in the same game).
    pub pair_min: usize,
    pub pair_max: usize,
    /// The least spread `pair_max − pair_min` arithmetic allows for this shape (0 or 1).
    pub pair_spread_bound: usize,
    /// Most games sharing one player set, and the most combinatorics forces.
    pub max_set_repeats: usize,
    pub set_repeats_bound: usize,
    /// Most games sharing one seating (same players in the same seats), and the bound.
    pub max_seating_repeats: usize,
    pub seating_repeats_bound: usize,
    /// Games in which some player holds two seats (must be 0).
    pub games_with_a_player_twice: usize,
}

impl BalanceReport {
    /// Every player takes every seat exactly `games_per_seat` times.
    pub fn seats_balanced(&self, games_per_seat: usize) -> bool {
        self.seat_counts.iter().flatten().all(|&c| c == games_per_seat)
    }

    pub fn pair_spread(&self) -> usize {
        self.pair_max - self.pair_min
    }
}

/// Computes the balance figures of `schedule`.
pub fn report(schedule: &Schedule) -> BalanceReport {
    let (n, k) = (schedule.players, schedule.per_game);
    let mut games_per_player = vec![0; n];
    let mut seat_counts = vec![vec![0; k]; n];
    let mut meetings = vec![0usize; n * n];
    let mut sets: HashMap<Vec<usize>, usize> = HashMap::new();
    let mut seatings: HashMap<&[usize], usize> = HashMap::new();
    let mut games_with_a_player_twice = 0;
    for game in &schedule.games {
        let members: Vec<usize> = game.iter().copied().filter(|&p| p < n).collect();
        let mut set = members.clone();
        set.sort_unstable();
        set.dedup();
        if set.len() < game.len() {
            games_with_a_player_twice += 1;
        }
        for (seat, &player) in game.iter().enumerate() {
            if player < n && seat < k {
                seat_counts[player][seat] += 1;
            }
        }
        for (i, &x) in set.iter().enumerate() {
            games_per_player[x] += 1;
            for &y in &set[i + 1..] {
                meetings[x * n + y] += 1;
            }
        }
        *sets.entry(set).or_default() += 1;
        *seatings.entry(game.as_slice()).or_default() += 1;
    }
    let pairs = (0..n).flat_map(|x| (x + 1..n).map(move |y| (x, y)));
    let pair_counts = pairs.map(|(x, y)| meetings[x * n + y]);
    let pair_min = pair_counts.clone().min().unwrap_or(0);
    let pair_max = pair_counts.max().unwrap_or(0);
    let bounds = (k >= 2 && k <= n && schedule.games_per_seat >= 1)
        .then(|| Shape::new(n, k, schedule.games_per_seat));
    BalanceReport {
        games: schedule.games.len(),
        games_per_player,
        seat_counts,
        pair_min,
        pair_max,
        pair_spread_bound: bounds.as_ref().map_or(0, |b| b.pair_spread_bound),
        max_set_repeats: sets.values().copied().max().unwrap_or(0),
        set_repeats_bound: bounds.as_ref().map_or(1, |b| b.set_cap),
        max_seating_repeats: seatings.values().copied().max().unwrap_or(0),
        seating_repeats_bound: bounds.as_ref().map_or(1, |b| b.seating_cap),
        games_with_a_player_twice,
    }
}
