//! A round whose pool is seated first (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`):
//! the pool's n·k players are seeded among themselves onto boards 1..n, with every earlier
//! board as history, then the other players onto the boards after them exactly as a round
//! without a pool. Both halves use the request's seed, so the whole stays reproducible from the
//! request alone.

use std::collections::BTreeSet;

use super::{Seeding, SeedingError, SeedingRequest, seed_round};

/// Seeds `request`'s pool first, then everyone else (`request.pool` is not empty).
pub(super) fn seed_with_pool(request: &SeedingRequest) -> Result<Seeding, SeedingError> {
    check_pool(request)?;
    let pool_request = SeedingRequest {
        players: request.pool.clone(),
        sitting_out: Vec::new(),
        playing_twice: Vec::new(),
        pool: Vec::new(),
        ..request.clone()
    };
    let mut seeding = seed_round(&pool_request)?;
    let others: Vec<String> =
        request.players.iter().filter(|p| !request.pool.contains(p)).cloned().collect();
    let seated_others = others.len() - request.sitting_out.len() + request.playing_twice.len();
    if seated_others > 0 {
        let others_request =
            SeedingRequest { players: others, pool: Vec::new(), ..request.clone() };
        let rest = seed_round(&others_request)?;
        seeding.boards.extend(rest.boards);
        seeding.repeat_score += rest.repeat_score;
        seeding.seat_repeats += rest.seat_repeats;
        seeding.keep_apart_met += rest.keep_apart_met;
    } else if !request.sitting_out.is_empty() || !request.playing_twice.is_empty() {
        // Nobody but the pool plays: the lists have nobody left to name.
        return Err(SeedingError::Uneven(
            "everyone present is in the pool: nobody can sit out or play twice".into(),
        ));
    }
    Ok(seeding)
}

/// The pool is whole boards of players present, each once, none sitting out or playing twice,
/// and the round has no top board besides.
fn check_pool(request: &SeedingRequest) -> Result<(), SeedingError> {
    let k = request.board_size;
    if k == 0 || !request.pool.len().is_multiple_of(k) {
        return Err(SeedingError::PoolSize { given: request.pool.len(), board_size: k });
    }
    if !request.top_board.is_empty() {
        return Err(SeedingError::PoolAndTopBoard);
    }
    let mut seen = BTreeSet::new();
    for player in &request.pool {
        if !seen.insert(player) {
            return Err(SeedingError::DuplicatePlayer(player.clone(), "pool"));
        }
        if !request.players.contains(player) {
            return Err(SeedingError::UnknownPlayer(player.clone(), "pool"));
        }
        if request.sitting_out.contains(player) {
            return Err(SeedingError::PoolPlayerNotOnce(player.clone(), "sitting out"));
        }
        if request.playing_twice.contains(player) {
            return Err(SeedingError::PoolPlayerNotOnce(player.clone(), "playing twice"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{names, request};
    use super::*;

    #[test]
    fn the_pool_fills_the_first_boards_and_the_others_follow() {
        let mut request = request(35, 3);
        request.pool = names(35).into_iter().skip(14).take(21).collect();
        let seeding = seed_round(&request).unwrap();
        assert_eq!(seeding.boards.len(), 5);
        for (index, board) in seeding.boards.iter().enumerate() {
            let in_pool = board.iter().filter(|s| request.pool.contains(&s.player)).count();
            assert_eq!(in_pool, if index < 3 { 7 } else { 0 }, "board {}", index + 1);
        }
        assert_eq!(seed_round(&request).unwrap(), seeding, "same request, same boards");
    }

    #[test]
    fn a_request_without_a_pool_keeps_its_digest() {
        let request = request(14, 1);
        let json = serde_json::to_string(&request).unwrap();
        assert!(!json.contains("pool"), "{json}");
        let with_pool = SeedingRequest { pool: names(7), ..request.clone() };
        assert_ne!(with_pool.digest(), request.digest());
    }

    #[test]
    fn a_pool_of_part_of_a_board_or_with_a_player_sitting_out_is_refused() {
        let base = request(14, 0);
        let part = SeedingRequest { pool: names(6), ..base.clone() };
        assert_eq!(seed_round(&part), Err(SeedingError::PoolSize { given: 6, board_size: 7 }));
        let sitting_out = SeedingRequest {
            players: names(15),
            sitting_out: vec!["P1".into()],
            pool: names(7),
            ..base.clone()
        };
        assert_eq!(
            seed_round(&sitting_out),
            Err(SeedingError::PoolPlayerNotOnce("P1".into(), "sitting out"))
        );
        let both = SeedingRequest { pool: names(7), top_board: names(7), ..base };
        assert_eq!(seed_round(&both), Err(SeedingError::PoolAndTopBoard));
    }
}
