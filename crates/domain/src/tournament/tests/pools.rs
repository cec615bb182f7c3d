//! Given/when/then tests of pools and per-round scoring
//! (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`), with the section's worked
//! example: 14 players, Squares, round 1 two boards alike (seat i: 10, 8, 6, 4, 3, 2, 1
//! centres), round 2's pool the best 7 ×1.5.

use league_scoring::{ScoringSystem, thousandths};

use super::{
    TOURNAMENT, all_present, given, report_round, seed, settings, then, when, with_entrants,
};
use crate::fixtures::player;
use crate::*;

fn pool(round: u32, players: PoolPlayers, multiplier: &str, decides_places: bool) -> SetRoundPool {
    SetRoundPool {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        round,
        pool: RoundPool { players, multiplier: multiplier.parse().unwrap(), decides_places },
    }
}

fn round_scoring(round: u32, scoring_system: ScoringSystem) -> SetRoundScoring {
    SetRoundScoring { actor: Actor::Admin, tournament_id: TOURNAMENT, round, scoring_system }
}

/// 14 entrants, round 1 played (two boards alike), round 2's roll call answered.
fn after_round_one() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 14);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    report_round(&mut events, 1);
    all_present(&mut events, 14, 2);
    events
}

fn total(tournament: &Tournament, who: PlayerId) -> (u32, f64, Vec<String>) {
    let standings = tournament.standings(None).unwrap();
    let line = standings.into_iter().find(|s| s.player == who).unwrap();
    (line.rank, line.total, line.notes)
}

#[test]
fn the_best_seven_play_board_one_and_score_it_times_one_and_a_half() {
    // Given round 1 played, when round 2's pool is the best 7 ×1.5 and round 2 is seeded
    let mut events = after_round_one();
    let before = given(&events).standings(None).unwrap();
    let best_seven: Vec<PlayerId> = before.iter().take(7).map(|s| s.player).collect();
    then(&mut events, pool(2, PoolPlayers::Best(7), "1.5", false));
    then(&mut events, seed(2));
    // then board 1 seats exactly the best 7 and the event says it is the pool's
    let tournament = given(&events);
    let round = tournament.round(2).unwrap();
    assert_eq!(round.seeded.pool_boards, 1);
    let mut board_one = round.boards[0].seats.clone();
    board_one.sort_unstable();
    let mut expected = best_seven.clone();
    expected.sort_unstable();
    assert_eq!(board_one, expected);
    // and, once reported, the board's seat 1 (10 centres: 43.478 under Squares) counts
    // 43.478 × 1.5 = 65.217 on board 1 and 43.478 on board 2
    report_round(&mut events, 2);
    let tournament = given(&events);
    let round = tournament.round(2).unwrap();
    let pool_winner = round.boards[0].seats[0];
    let other_winner = round.boards[1].seats[0];
    let standings = tournament.standings(None).unwrap();
    let round_two = |who: PlayerId| {
        let line = standings.iter().find(|s| s.player == who).unwrap();
        thousandths(line.rounds[1].score.unwrap())
    };
    assert_eq!(round_two(pool_winner), 65_217);
    assert_eq!(round_two(other_winner), 43_478);
    assert_eq!(round_two(round.boards[0].seats[6]), 653, "0.435 × 1.5 = 0.6525 → 0.653");
    let (_, _, notes) = total(&tournament, pool_winner);
    assert!(notes.contains(&"pool: round 2 ×1.5".to_owned()), "{notes:?}");
    let (_, _, notes) = total(&tournament, other_winner);
    assert!(notes.is_empty(), "{notes:?}");
    // and re-running the seeding from the log gives the same boards
    let checks = Tournament::verify_seeding(&events);
    assert!(checks.iter().all(SeedingCheck::verified), "{checks:?}");
}

#[test]
fn a_pool_that_decides_places_puts_its_players_first_by_their_pool_score() {
    // Given round 2's pool (the best 7, ×1, deciding places 1..7) played
    let mut events = after_round_one();
    then(&mut events, pool(2, PoolPlayers::Best(7), "1", true));
    then(&mut events, seed(2));
    report_round(&mut events, 2);
    let tournament = given(&events);
    let round = tournament.round(2).unwrap();
    let standings = tournament.standings(None).unwrap();
    // then places 1..7 are board 1's seats in pool score order (seat 1 had 10 centres, seat 7
    // one), whatever their totals
    let first_seven: Vec<PlayerId> = standings.iter().take(7).map(|s| s.player).collect();
    assert_eq!(first_seven, round.boards[0].seats);
    assert_eq!(standings.iter().map(|s| s.rank).collect::<Vec<_>>(), (1..=14).collect::<Vec<_>>());
    // and board 2's winner (6.957 + 43.478 = 50.435 at best) is 8th even when a pool player
    // has less
    assert_eq!(standings[7].player, round.boards[1].seats[0]);
    assert!(standings[..7].iter().any(|s| s.total < standings[7].total), "{standings:?}");
    assert!(standings[0].notes.iter().any(|n| n.starts_with("pool: place decided in round 2, ")));
}

#[test]
fn a_named_pool_plays_board_one() {
    let mut events = after_round_one();
    let named: Vec<PlayerId> = (8..=14).map(player).collect();
    then(&mut events, pool(2, PoolPlayers::Named(named.clone()), "2", false));
    then(&mut events, seed(2));
    let tournament = given(&events);
    let mut board_one = tournament.round(2).unwrap().boards[0].seats.clone();
    board_one.sort_unstable();
    let mut expected = named;
    expected.sort_unstable();
    assert_eq!(board_one, expected);
}

#[test]
fn a_round_scored_by_its_own_system() {
    // Given round 2 scored by Solo or bust (only a solo scores)
    let mut events = after_round_one();
    then(&mut events, round_scoring(2, ScoringSystem::SoloOrBust));
    assert_eq!(given(&events).round_scoring_system(1), Some(ScoringSystem::Squares));
    assert_eq!(given(&events).round_scoring_system(2), Some(ScoringSystem::SoloOrBust));
    then(&mut events, seed(2));
    // when round 2's boards end without a solo
    report_round(&mut events, 2);
    // then every round 2 score is 0 and round 1's stay Squares'
    let tournament = given(&events);
    for line in tournament.standings(None).unwrap() {
        assert_eq!(line.rounds[1].score, Some(0.0));
        let total = thousandths(line.total);
        assert!([43_478, 27_826, 15_652, 6_957, 3_913, 1_739, 435].contains(&total), "{total}");
    }
    // and the round's system cannot change once it has a result
    let refused = when(&events, round_scoring(2, ScoringSystem::Squares)).unwrap_err();
    assert_eq!(refused.code(), ErrorCode::Conflict);
}

#[test]
fn refusals() {
    let events = after_round_one();
    let by_player = SetRoundPool {
        actor: Actor::Player(player(1)),
        ..pool(2, PoolPlayers::Best(7), "1.5", false)
    };
    assert_eq!(when(&events, by_player).unwrap_err().code(), ErrorCode::Forbidden);
    for (command, field) in [
        (pool(3, PoolPlayers::Best(7), "1.5", false), "round"),
        (pool(2, PoolPlayers::Best(6), "1.5", false), "players"),
        (pool(2, PoolPlayers::Best(0), "1.5", false), "players"),
        (pool(2, PoolPlayers::Named(vec![player(1); 7]), "1", false), "players"),
        (pool(2, PoolPlayers::Named((1..=6).map(player).collect()), "1", false), "players"),
    ] {
        let refused = when(&events, command).unwrap_err();
        assert_eq!(refused.invalid_input().map(|(f, _)| f), Some(field), "{refused:?}");
    }
    let not_entered = pool(2, PoolPlayers::Named((9..=15).map(player).collect()), "1", false);
    assert_eq!(when(&events, not_entered).unwrap_err().code(), ErrorCode::Conflict);
    let seeded = when(&events, pool(1, PoolPlayers::Best(7), "1", false)).unwrap_err();
    assert_eq!(seeded.code(), ErrorCode::Conflict);
    let mut three_rounds = with_entrants(settings(3), 14);
    let early = pool(2, PoolPlayers::Best(7), "1", true);
    let refused = when(&three_rounds, early).unwrap_err();
    assert_eq!(refused.invalid_input().map(|(f, _)| f), Some("decidesPlaces"));
    then(&mut three_rounds, pool(2, PoolPlayers::Best(7), "1", false));
    let again = when(&three_rounds, pool(2, PoolPlayers::Best(7), "1", false)).unwrap_err();
    assert_eq!(again.code(), ErrorCode::Conflict);
    let remove = RemoveRoundPool { actor: Actor::Admin, tournament_id: TOURNAMENT, round: 3 };
    assert_eq!(when(&three_rounds, remove.clone()).unwrap_err().code(), ErrorCode::Conflict);
    then(&mut three_rounds, RemoveRoundPool { round: 2, ..remove });
    assert!(given(&three_rounds).round_pool(2).is_none());
    let other_game = when(&events, round_scoring(2, ScoringSystem::Placement)).unwrap_err();
    assert_eq!(other_game.invalid_input().map(|(f, _)| f), Some("scoringSystem"));
    let same = when(&events, round_scoring(2, ScoringSystem::Squares)).unwrap_err();
    assert_eq!(same.code(), ErrorCode::Conflict);
}

#[test]
fn a_pool_larger_than_those_present_cannot_be_seeded() {
    let mut events = after_round_one();
    then(&mut events, pool(2, PoolPlayers::Best(21), "1", true));
    assert_eq!(when(&events, seed(2)).unwrap_err().code(), ErrorCode::Conflict);
}

/// One stored example of each pool and round scoring event, for the earlier-build file.
pub(crate) fn one_of_each_pools_event() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 14);
    let start = events.len();
    then(&mut events, pool(2, PoolPlayers::Named((1..=7).map(player).collect()), "1.5", true));
    then(&mut events, RemoveRoundPool { actor: Actor::Admin, tournament_id: TOURNAMENT, round: 2 });
    then(&mut events, pool(2, PoolPlayers::Best(7), "1.25", false));
    then(&mut events, round_scoring(2, ScoringSystem::SoloOrBust));
    events.split_off(start)
}
