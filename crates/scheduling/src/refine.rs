//! Local search on the player *sets* of games, for shapes where the cyclic construction
//! leaves pair meetings above the arithmetic bound. A move swaps two players between two
//! games (p leaves game 1 for game 2, q the other way), which keeps every player's number
//! of games; it is taken when the sum of squared pair meetings does not grow (sometimes
//! anyway, to escape local minima) and never when it would repeat a player set. Seats are
//! reassigned afterwards by [`crate::matching::balance_seats`].

use std::collections::HashSet;

use crate::rng::SplitMix64;
use crate::shape::Shape;

/// Late-acceptance history length: a move is taken when it is no worse than the current
/// state or than the state this many steps ago (Burke & Bykov's late acceptance hill
/// climbing: integer-only, so the walk is the same on every machine).
const HISTORY: usize = 10;

/// Improves `games` (distinct player sets, seat order ignored) for at most `max_steps`
/// proposals; returns the best sets found and their pair excess over the bound.
pub(crate) fn improve(
    shape: &Shape,
    mut games: Vec<Vec<usize>>,
    rng: &mut SplitMix64,
    max_steps: usize,
) -> (Vec<Vec<usize>>, u64) {
    let n = shape.players;
    let mut meetings = PairMeetings::new(n, &games);
    let mut masks: Vec<u64> = games.iter().map(|g| mask_of(g)).collect();
    let mut present: HashSet<u64> = masks.iter().copied().collect();
    let bound = shape.pair_square_bound as i64;
    let mut best = (meetings.squares, games.clone());
    let mut history = [meetings.squares; HISTORY];
    for step in 0..max_steps {
        if best.0 <= bound {
            break;
        }
        let (g1, g2) = (rng.below(games.len()), rng.below(games.len()));
        let (a, b) = (rng.below(shape.per_game), rng.below(shape.per_game));
        let (p, q) = (games[g1][a], games[g2][b]);
        if g1 == g2 || masks[g2] & 1 << p != 0 || masks[g1] & 1 << q != 0 {
            continue;
        }
        let swapped = 1 << p | 1 << q;
        let (new1, new2) = (masks[g1] ^ swapped, masks[g2] ^ swapped);
        if present.contains(&new1) || present.contains(&new2) {
            continue;
        }
        let before = meetings.squares;
        meetings.move_player(&games[g1], p, q);
        meetings.move_player(&games[g2], q, p);
        let late = &mut history[step % HISTORY];
        let accept = meetings.squares <= before || meetings.squares <= *late;
        *late = if accept { meetings.squares } else { before };
        if accept {
            games[g1][a] = q;
            games[g2][b] = p;
            present.remove(&masks[g1]);
            present.remove(&masks[g2]);
            present.insert(new1);
            present.insert(new2);
            masks[g1] = new1;
            masks[g2] = new2;
            if meetings.squares < best.0 {
                best = (meetings.squares, games.clone());
            }
        } else {
            meetings.move_player(&games[g2], p, q);
            meetings.move_player(&games[g1], q, p);
        }
    }
    let (squares, games) = best;
    (games, (squares - bound).max(0) as u64)
}

fn mask_of(game: &[usize]) -> u64 {
    game.iter().fold(0, |m, &x| m | 1 << x)
}

/// Pair meeting counts with their running sum of squares.
struct PairMeetings {
    players: usize,
    counts: Vec<i64>,
    squares: i64,
}

impl PairMeetings {
    fn new(players: usize, games: &[Vec<usize>]) -> Self {
        let mut meetings = Self { players, counts: vec![0; players * players], squares: 0 };
        for game in games {
            for (i, &x) in game.iter().enumerate() {
                for &y in &game[i + 1..] {
                    meetings.bump(x, y, 1);
                }
            }
        }
        meetings
    }

    fn bump(&mut self, x: usize, y: usize, by: i64) {
        let count = self.counts[x * self.players + y];
        self.squares += (count + by) * (count + by) - count * count;
        self.counts[x * self.players + y] = count + by;
        self.counts[y * self.players + x] = count + by;
    }

    /// `leaving` quits the game whose members (as before the move) are `game`; `joining`
    /// takes its place.
    fn move_player(&mut self, game: &[usize], leaving: usize, joining: usize) {
        for &other in game {
            if other != leaving && other != joining {
                self.bump(leaving, other, -1);
                self.bump(joining, other, 1);
            }
        }
    }
}
