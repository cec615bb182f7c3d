//! Seat balancing by König's edge-colouring theorem. Given games (player sets) in which
//! every player appears k·s times, split each player into s copies holding k of its games
//! each. Games and copies then form a k-regular bipartite multigraph, which splits into k
//! perfect matchings; matching j puts each copy in seat j of one of its games, so every
//! player takes every seat exactly s times. Matchings are found by augmenting paths (Kuhn).

/// Reorders each game's players so that every player takes every seat equally often.
/// Requires `games.len() = players · s`, every player in exactly `k · s` games and no
/// player twice in one game (the scheduler's invariants).
pub(crate) fn balance_seats(players: usize, games: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let per_game = games.first().map_or(0, Vec::len);
    let copies_per_player = games.len() / players;
    let mut appearances = vec![0; players];
    // Edge e joins game `edge_game[e]` and copy `edge_copy[e]` (copy c is player c / s).
    let mut edge_game = Vec::new();
    let mut edge_copy = Vec::new();
    let mut game_edges = vec![Vec::with_capacity(per_game); games.len()];
    for (g, game) in games.iter().enumerate() {
        for &player in game {
            let copy = player * copies_per_player + appearances[player] / per_game;
            appearances[player] += 1;
            game_edges[g].push(edge_game.len());
            edge_game.push(g);
            edge_copy.push(copy);
        }
    }
    let mut used = vec![false; edge_game.len()];
    let mut seated = vec![Vec::with_capacity(per_game); games.len()];
    for _seat in 0..per_game {
        let mut matcher = Matcher {
            game_edges: &game_edges,
            edge_game: &edge_game,
            edge_copy: &edge_copy,
            used: &used,
            copy_edge: vec![None; games.len()],
            visited: vec![false; games.len()],
        };
        // Greedy first (most games find a free copy at once), augmenting paths for the rest.
        let mut unmatched = Vec::new();
        for (g, edges) in game_edges.iter().enumerate() {
            let free =
                edges.iter().find(|&&e| !used[e] && matcher.copy_edge[edge_copy[e]].is_none());
            match free {
                Some(&edge) => matcher.copy_edge[edge_copy[edge]] = Some(edge),
                None => unmatched.push(g),
            }
        }
        for g in unmatched {
            matcher.visited.fill(false);
            let found = matcher.augment(g);
            debug_assert!(found, "a regular bipartite multigraph has a perfect matching");
        }
        let mut seat_of_game = vec![None; games.len()];
        for edge in matcher.copy_edge.into_iter().flatten() {
            used[edge] = true;
            seat_of_game[edge_game[edge]] = Some(edge_copy[edge] / copies_per_player);
        }
        for (g, player) in seat_of_game.into_iter().enumerate() {
            seated[g].push(player.expect("perfect matching covers every game"));
        }
    }
    seated
}

struct Matcher<'a> {
    game_edges: &'a [Vec<usize>],
    edge_game: &'a [usize],
    edge_copy: &'a [usize],
    used: &'a [bool],
    /// For each copy, the matched edge.
    copy_edge: Vec<Option<usize>>,
    visited: Vec<bool>,
}

impl Matcher<'_> {
    /// Kuhn's augmenting path from `game`; true when the game got matched.
    fn augment(&mut self, game: usize) -> bool {
        for &edge in &self.game_edges[game] {
            let copy = self.edge_copy[edge];
            if self.used[edge] || self.visited[copy] {
                continue;
            }
            self.visited[copy] = true;
            let free = match self.copy_edge[copy] {
                None => true,
                Some(rival) => self.augment(self.edge_game[rival]),
            };
            if free {
                self.copy_edge[copy] = Some(edge);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn scrambled_seats_are_balanced_again() {
        // A cyclic schedule (N = 7, k = 3, s = 2) with every game's seat order shuffled.
        let group = crate::development::Group::new(&[7]);
        let mut games = crate::development::develop(&group, &[vec![0, 1, 3], vec![0, 2, 3]]);
        let mut rng = SplitMix64::new(3);
        for game in &mut games {
            for i in (1..game.len()).rev() {
                game.swap(i, rng.below(i + 1));
            }
        }
        let seated = balance_seats(7, &games);
        for (before, after) in games.iter().zip(&seated) {
            let (mut a, mut b) = (before.clone(), after.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "the players of a game do not change");
        }
        let mut counts = [[0; 3]; 7];
        for game in &seated {
            for (seat, &player) in game.iter().enumerate() {
                counts[player][seat] += 1;
            }
        }
        assert_eq!(counts, [[2; 3]; 7]);
    }
}
