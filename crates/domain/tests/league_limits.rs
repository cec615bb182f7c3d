//! Property test: the limits `createLeague` checks are the scheduler's limits. Every league
//! shape the rules accept (scoring system, players per game k, size N, games per seat s) can
//! be filled: the scheduler builds its N·s games; every shape they refuse is refused with
//! `InvalidInput` naming the field at fault.

use league_domain::rules::{
    MAX_GAMES_PER_SEAT, MAX_LEAGUE_SIZE, check_league_size, check_players_per_game,
    resolve_games_per_seat, schedule_league_games,
};
use league_domain::{DomainError, LeagueId, PlayerId};
use league_scoring::ScoringSystem;
use proptest::prelude::*;
use uuid::Uuid;

const SYSTEMS: [ScoringSystem; 7] = [
    ScoringSystem::Placement,
    ScoringSystem::Baf,
    ScoringSystem::Detour98f,
    ScoringSystem::Squares,
    ScoringSystem::BlueMax,
    ScoringSystem::WoodenShips,
    ScoringSystem::WoodenShipsLegacy,
];

fn players(n: u32) -> Vec<PlayerId> {
    (0..n).map(|i| league_domain::fixtures::player(u128::from(i))).collect()
}

/// What `createLeague` decides for a shape: the resolved games per seat, or the refusal.
fn accept(system: ScoringSystem, k: u32, size: u32, s: Option<u32>) -> Result<u32, DomainError> {
    check_players_per_game(system, k)?;
    check_league_size(k, size)?;
    resolve_games_per_seat(k, s)
}

/// Shapes near and beyond every limit, plus anything in between.
fn shape() -> impl Strategy<Value = (ScoringSystem, u32, u32, Option<u32>, u128)> {
    (
        prop::sample::select(SYSTEMS.to_vec()),
        prop_oneof![1u32..=9, 1u32..=MAX_LEAGUE_SIZE + 2],
        prop_oneof![1u32..=12, 1u32..=MAX_LEAGUE_SIZE + 2],
        prop::option::of(prop_oneof![0u32..=4, 0u32..=MAX_GAMES_PER_SEAT + 5]),
        any::<u128>(),
    )
}

proptest! {
    // Each accepted case schedules a whole league (debug build): few cases, many shapes.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_accepted_league_can_be_filled((system, k, size, s, id) in shape()) {
        let league = LeagueId::new(Uuid::from_u128(id));
        match accept(system, k, size, s) {
            Ok(games_per_seat) => {
                let games = schedule_league_games(league, &players(size), k, games_per_seat);
                let games = games.map_err(|e| {
                    TestCaseError::fail(format!("accepted {system:?} k={k} N={size} s={s:?}, scheduler: {e}"))
                })?;
                prop_assert_eq!(games.len() as u32, size * games_per_seat);
                prop_assert!(games.iter().all(|g| g.seats.len() as u32 == k));
            }
            Err(DomainError::InvalidInput { field, .. }) => {
                prop_assert!(
                    ["playersPerGame", "size", "gamesPerSeat"].contains(&field.as_str()),
                    "refused on {}", field
                );
            }
            Err(other) => prop_assert!(false, "refused without naming a field: {}", other),
        }
    }
}

#[test]
fn the_largest_accepted_games_per_seat_is_the_scheduler_s() {
    let s = MAX_GAMES_PER_SEAT;
    assert_eq!(s as usize, league_scheduling::MAX_GAMES_PER_SEAT);
    assert_eq!(MAX_LEAGUE_SIZE as usize, league_scheduling::MAX_PLAYERS);
    let games =
        schedule_league_games(Uuid::from_u128(7).into(), &players(8), 4, s).expect("s = max");
    assert_eq!(games.len() as u32, 8 * s);
    match resolve_games_per_seat(4, Some(s + 1)) {
        Err(DomainError::InvalidInput { field, .. }) => assert_eq!(field, "gamesPerSeat"),
        other => panic!("s = max + 1 accepted: {other:?}"),
    }
}
