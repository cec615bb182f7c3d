//! The arithmetic of a league shape (N players, k per game, s games per seat): how many
//! games, how often a player set or a seating may repeat, and the best possible balance of
//! pair meetings. Everything the construction aims at and the report compares against.

/// Targets derived from a validated shape; see [`Shape::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shape {
    pub players: usize,
    pub per_game: usize,
    pub games_per_seat: usize,
    /// N·s: each of the k seats is taken s times by each of the N players.
    pub games: usize,
    /// How often one player *set* may occur: ⌈games / C(N, k)⌉ (1 = all sets distinct).
    pub set_cap: usize,
    /// How often one *seating* (ordered k-tuple) may occur: ⌈games / (C(N, k)·k!)⌉.
    pub seating_cap: usize,
    /// The least possible sum over all pairs of (meetings)², from the pair-meeting total
    /// spread as evenly as whole numbers allow.
    pub pair_square_bound: u64,
    /// The least possible spread between the most- and least-met pair: 0 when the mean
    /// number of meetings s·k(k−1)/(N−1) is whole, else 1.
    pub pair_spread_bound: usize,
}

impl Shape {
    /// `players ≥ per_game ≥ 2` and `games_per_seat ≥ 1` are checked by the caller.
    pub(crate) fn new(players: usize, per_game: usize, games_per_seat: usize) -> Self {
        let games = players * games_per_seat;
        let sets = binomial(players, per_game);
        let seatings = (1..=per_game as u128).fold(sets, |acc, f| acc.saturating_mul(f));
        let pairs = (players * (players - 1) / 2) as u64;
        let meetings = (games * per_game * (per_game - 1) / 2) as u64;
        let (low, high_pairs) = (meetings / pairs, meetings % pairs);
        let pair_square_bound =
            high_pairs * (low + 1) * (low + 1) + (pairs - high_pairs) * low * low;
        Self {
            players,
            per_game,
            games_per_seat,
            games,
            set_cap: ceil_div(games as u128, sets),
            seating_cap: ceil_div(games as u128, seatings),
            pair_square_bound,
            pair_spread_bound: usize::from(high_pairs != 0),
        }
    }
}

/// C(n, k), saturating at `u128::MAX` (exact for every n ≤ 64).
pub(crate) fn binomial(n: usize, k: usize) -> u128 {
    let k = k.min(n - k);
    (0..k).fold(1u128, |acc, i| acc.saturating_mul((n - i) as u128) / (i as u128 + 1))
}

fn ceil_div(numerator: u128, denominator: u128) -> usize {
    numerator.div_ceil(denominator.max(1)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(8, 3), 56);
        assert_eq!(binomial(8, 8), 1);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
    }

    #[test]
    fn league_of_eight_targets() {
        // docs/scheduling.md#games-per-league, k = 7: 24 games; the 8 possible 7-sets each occur 3 times.
        let seven = Shape::new(8, 7, 3);
        assert_eq!((seven.games, seven.set_cap, seven.seating_cap), (24, 3, 1));
        assert_eq!(seven.pair_spread_bound, 0);
        // k = 3: 24 games out of 56 possible sets, mean meetings 18/7 → spread 1.
        let three = Shape::new(8, 3, 3);
        assert_eq!((three.games, three.set_cap, three.pair_spread_bound), (24, 1, 1));
        // 72 meetings over 28 pairs: 16 pairs meet 3 times, 12 meet twice.
        assert_eq!(three.pair_square_bound, 16 * 9 + 12 * 4);
        // k = 2: 56 games over 28 pairs, each in 2 seatings → every seating once.
        let two = Shape::new(8, 2, 7);
        assert_eq!((two.set_cap, two.seating_cap, two.pair_spread_bound), (2, 1, 0));
    }
}
