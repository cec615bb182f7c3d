//! Pure scheduling: every game of a league with each seat ("starting situation": colour,
//! power, piece set) assigned, balanced as `docs/scheduling.md#balance` states ("equal
//! distribution of games and starting situation"). No IO, no async, deterministic for a given
//! seed.
//!
//! Public contract (other crates build on these names; keep them stable):
//! - [`ScheduleSpec`] → [`schedule`] → [`Schedule`] (games as player indices in seat order).
//! - [`default_games_per_seat`]: the table of `docs/scheduling.md#games-per-league`, as games
//!   per seat `s` for `k` per game.
//! - [`report`] → [`BalanceReport`]: the balance figures of any schedule.
//! - [`SeedingRequest`] → [`seed_round`] → [`Seeding`]: one tournament round's boards
//!   (`seeding`), and [`plan_round`]: who sits out or plays twice at a roll call.
//!
//! How: base blocks developed over Z_N or another abelian group of order N (seat balance by
//! construction, see `development`), chosen
//! by local search on the sum of squared pair meetings; when that stops above the
//! arithmetic bound, a set-level local search (`refine`) followed by König seat balancing
//! (`matching`) takes over. The PRNG (`rng`) is written out so streams never change.

mod development;
mod matching;
mod refine;
mod report;
mod rng;
mod seeding;
mod shape;

use serde::{Deserialize, Serialize};

pub use crate::report::{BalanceReport, report};
pub use crate::seeding::{
    Attendee, KEEP_APART_WEIGHT, MAX_BOARD_SIZE, PlanError, RoundPlan, SEEDING_ALGORITHM,
    SeatedPlayer, Seeding, SeedingError, SeedingRequest, plan_round, seat_given_boards, seed_round,
};
pub use crate::seeding::{
    PREFERENCE_SEEDING_ALGORITHM, PlayerPlace, PowerPreferences, SeatRanking,
};

/// Largest league: player sets are 64-bit masks.
pub const MAX_PLAYERS: usize = 64;
/// Largest `games_per_seat` accepted (16 gives each player 16·k games; the source's table uses ≤
/// 7).
/// The domain refuses larger values with this same constant.
pub const MAX_GAMES_PER_SEAT: usize = 16;
/// Fewest players per game (a game of one is no game).
pub const MIN_PER_GAME: usize = 2;

/// Proposals of the base-block search per group (it stops earlier once ideal).
const DEVELOPMENT_STEPS: usize = 30_000;
/// Bound on the whole base-block search, in proposals × games × k (what one evaluation of
/// repeats costs), so that big shapes stay within about a second or two.
const DEVELOPMENT_WORK: usize = 200_000_000;
/// Proposals of the set-level search (it stops earlier at the bound).
const REFINE_STEPS: usize = 300_000;

/// What to schedule: `players` (N) players, `per_game` (k) seats per game, each player
/// taking each seat `games_per_seat` (s) times (default: `docs/scheduling.md#games-per-league` for
/// k).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleSpec {
    pub players: usize,
    pub per_game: usize,
    pub games_per_seat: Option<usize>,
    pub seed: u64,
}

/// Every game of a league: `games[g][seat]` is the index (0-based) of the player in that seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    pub players: usize,
    pub per_game: usize,
    pub games_per_seat: usize,
    pub games: Vec<Vec<usize>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("invalid schedule shape: {0}")]
    InvalidShape(String),
}

/// Games per seat `s` for `per_game` = k, from the table of
/// `docs/scheduling.md#games-per-league` ("Number of games per league": games per player = k·s,
/// total games = 8·s): k = 2..8 → 14/56, 9/24, 16/32,
/// 25/40, 18/24, 21/24, 16/16, i.e. s = 7, 3, 4, 5, 3, 3, 2. `None` outside the table.
pub fn default_games_per_seat(per_game: usize) -> Option<usize> {
    match per_game {
        2 => Some(7),
        3 => Some(3),
        4 => Some(4),
        5 => Some(5),
        6 => Some(3),
        7 => Some(3),
        8 => Some(2),
        _ => None,
    }
}

/// Builds every game of the league: N·s games; every player in every seat exactly s times;
/// no player twice in a game; player sets (and, where sets must repeat, seatings) as
/// distinct as combinatorics allow; pair meetings as even as the search reaches (the
/// arithmetic bound in every N = 8 shape; see [`report`] for what a schedule achieves).
pub fn schedule(spec: &ScheduleSpec) -> Result<Schedule, ScheduleError> {
    let (players, per_game) = (spec.players, spec.per_game);
    let invalid = |message: String| Err(ScheduleError::InvalidShape(message));
    if per_game < MIN_PER_GAME {
        return invalid(format!("{per_game} players per game: at least {MIN_PER_GAME} are needed"));
    }
    if per_game > players {
        return invalid(format!("{per_game} players per game but only {players} players"));
    }
    if players > MAX_PLAYERS {
        return invalid(format!("{players} players: at most {MAX_PLAYERS} are supported"));
    }
    let Some(games_per_seat) = spec.games_per_seat.or_else(|| default_games_per_seat(per_game))
    else {
        return invalid(format!(
            "the league rules have no games-per-seat entry for {per_game} players per game; give it"
        ));
    };
    if !(1..=MAX_GAMES_PER_SEAT).contains(&games_per_seat) {
        return invalid(format!(
            "{games_per_seat} games per seat: must be between 1 and {MAX_GAMES_PER_SEAT}"
        ));
    }
    let shape = shape::Shape::new(players, per_game, games_per_seat);
    let mut rng = rng::SplitMix64::new(spec.seed);
    let mut best: Option<(development::Found, development::Group)> = None;
    let mut steps_left = DEVELOPMENT_WORK / (shape.games * per_game);
    for moduli in development::abelian_groups(players) {
        // The cyclic group always gets a search; the others share what is left.
        let steps = steps_left.min(DEVELOPMENT_STEPS).max(usize::from(best.is_none()));
        if steps == 0 {
            break;
        }
        steps_left = steps_left.saturating_sub(steps);
        let group = development::Group::new(&moduli);
        let found = development::search(&shape, &group, &mut rng, steps);
        let rank = |f: &development::Found| (f.repeats, f.outliers, f.pair_excess);
        if best.as_ref().is_none_or(|(b, _)| rank(&found) < rank(b)) {
            best = Some((found, group));
        }
        if best.as_ref().is_some_and(|(b, _)| rank(b) == (0, 0, 0)) {
            break;
        }
    }
    let (found, group) = best.expect("every order has the cyclic group");
    let mut games = development::develop(&group, &found.blocks);
    if found.repeats == 0 && (found.outliers, found.pair_excess) != (0, 0) && shape.set_cap == 1 {
        // Local search on complements when they are smaller: a swap then moves fewer
        // meetings at once, and pair balance of the complements is pair balance of the
        // games (meetings differ by a constant), so the excess is the same number.
        let complemented = 2 * per_game > players + 1;
        let (search_shape, sets) = if complemented {
            (
                shape::Shape::new(players, players - per_game, games_per_seat),
                complements(players, &games),
            )
        } else {
            (shape.clone(), games.clone())
        };
        let (sets, excess) = refine::improve(&search_shape, sets, &mut rng, REFINE_STEPS);
        if excess < found.pair_excess {
            let sets = if complemented { complements(players, &sets) } else { sets };
            games = matching::balance_seats(players, &sets);
        }
    }
    Ok(Schedule { players, per_game, games_per_seat, games })
}

/// Each game's absent players.
fn complements(players: usize, games: &[Vec<usize>]) -> Vec<Vec<usize>> {
    games.iter().map(|game| (0..players).filter(|p| !game.contains(p)).collect()).collect()
}
