//! Seats within a board. While boards form, a board's seat deficit (how many of its players
//! cannot get a seat they never had: k − a maximum matching of players to fresh seats) is
//! the search's second term. Once boards are fixed, each board's seats are assigned by the
//! Hungarian method: first no repeated seat when avoidable, then Σ (times the player had
//! that seat)² so seats spread evenly over the tournament.

use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;

use super::problem::Problem;
use super::{PowerPreferences, SeatedPlayer, Seeding};
use crate::rng::SplitMix64;

/// Players of a board who cannot get a fresh seat, given each one's fresh seats as a mask.
pub(super) fn seat_deficit(fresh: impl ExactSizeIterator<Item = u64>) -> u32 {
    let mut matcher = FreshMatcher { fresh: [0; 64], player_of_seat: [u8::MAX; 64] };
    let players = fresh.len();
    for (i, mask) in fresh.enumerate() {
        matcher.fresh[i] = mask;
    }
    let mut unmatched = 0;
    for player in 0..players {
        if !matcher.augment(player, &mut 0) {
            unmatched += 1;
        }
    }
    unmatched
}

/// Kuhn's augmenting paths over at most 64 players and 64 seats.
struct FreshMatcher {
    fresh: [u64; 64],
    player_of_seat: [u8; 64],
}

impl FreshMatcher {
    fn augment(&mut self, player: usize, visited: &mut u64) -> bool {
        let mut open = self.fresh[player] & !*visited;
        while open != 0 {
            let seat = open.trailing_zeros() as usize;
            open &= open - 1;
            *visited |= 1 << seat;
            let holder = self.player_of_seat[seat];
            if holder == u8::MAX || self.augment(usize::from(holder), visited) {
                self.player_of_seat[seat] = player as u8;
                return true;
            }
        }
        false
    }
}

/// Outweighs any spread term: a repeated seat is avoided whenever the board allows.
const REPEAT_PENALTY: i64 = 1 << 32;

/// Outweighs a board full of repeats: a seat chosen by preference is never moved.
const CHOSEN_ELSEWHERE: i64 = REPEAT_PENALTY << 8;

/// Seats every board (player indices; order kept) and counts the figures of the result.
/// Boards are seated in order, so a player on two boards avoids their first board's seat.
/// Each board's players are shuffled by `seed` first: among equally good assignments (every
/// seat in round 1) the seat is drawn, not given by the order of the players. With
/// `preferences`, the seats players choose are fixed first and the rest are assigned as above.
pub(super) fn seat_boards(
    problem: &Problem,
    boards: &[Vec<usize>],
    seed: u64,
    preferences: Option<&PowerPreferences>,
) -> Seeding {
    let mut rng = SplitMix64::new(seed);
    let k = problem.board_size;
    let n = problem.players();
    let mut counts = problem.seat_counts.clone();
    let mut seeding = Seeding {
        boards: Vec::with_capacity(boards.len()),
        repeat_score: 0,
        seat_repeats: 0,
        keep_apart_met: 0,
    };
    for board in boards {
        let mut board = board.clone();
        super::shuffle(&mut board, &mut rng);
        let chosen =
            preferences.map_or_else(|| vec![None; k], |p| chosen_seats(problem, &board, p));
        let costs = Matrix::from_fn(k, k, |(row, seat)| {
            match chosen[row] {
                Some(own) => return if own == seat { 0 } else { CHOSEN_ELSEWHERE },
                None if chosen.contains(&Some(seat)) => return CHOSEN_ELSEWHERE,
                None => {}
            }
            let had = i64::from(counts[board[row] * k + seat]);
            if had > 0 { REPEAT_PENALTY + had * had } else { 0 }
        });
        let (_, seat_of_row) = kuhn_munkres_min(&costs);
        let mut seated = vec![String::new(); k];
        for (row, &seat) in seat_of_row.iter().enumerate() {
            let player = board[row];
            seeding.seat_repeats += u32::from(counts[player * k + seat] > 0);
            counts[player * k + seat] += 1;
            seated[seat].clone_from(&problem.names[player]);
        }
        for (i, &p) in board.iter().enumerate() {
            for &q in &board[i + 1..] {
                let met = u64::from(problem.met[p * n + q]);
                seeding.repeat_score += 2 * met * met;
                seeding.keep_apart_met += u32::from(problem.keep_apart[p * n + q]);
            }
        }
        seeding.boards.push(
            seated
                .into_iter()
                .zip(&problem.seat_labels)
                .map(|(player, seat)| SeatedPlayer { player, seat: seat.clone() })
                .collect(),
        );
    }
    seeding
}

/// Per row of `board` (the seeded draw's order): the seat its player chooses by preference,
/// or `None` when indifferent.
fn chosen_seats(
    problem: &Problem,
    board: &[usize],
    preferences: &PowerPreferences,
) -> Vec<Option<usize>> {
    let drawn: Vec<&str> = board.iter().map(|&p| problem.names[p].as_str()).collect();
    let order = preferences.choosing_order(&drawn);
    let seats = preferences.choose(&order, &problem.seat_labels);
    drawn
        .iter()
        .map(|player| {
            let at = order.iter().position(|p| p == player).expect("the order holds the board");
            seats[at]
        })
        .collect()
}
