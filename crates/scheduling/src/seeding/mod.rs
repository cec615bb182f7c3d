//! Tournament seeding (`docs/tournaments.md#seeding`): the players present for a round are
//! seated into boards of `board_size`, avoiding pairs that met on earlier boards and giving
//! each player a seat (power) they have not had. Pure and reproducible: the result depends
//! only on the [`SeedingRequest`] and [`SEEDING_ALGORITHM`] — the search budget is a count
//! of moves, never a duration, and nothing iterates a hash map.
//!
//! How: the request is checked and indexed (`problem`); when the earlier rounds are
//! parallel classes of an affine plane (k² players, k prime), the next class is constructed
//! (`plane`), so a 49-player event plays 8 rounds without a repeat; otherwise simulated
//! annealing over swaps between boards minimises the pair cost, seat feasibility second
//! (`search`); finally each board's seats are assigned by the Hungarian method (`seats`).
//! Roll-call planning (who sits out or plays twice) is `plan`.

mod plan;
mod plane;
mod pools;
mod preferences;
mod problem;
mod search;
mod seats;
mod teams;

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

pub use plan::{Attendee, PlanError, RoundPlan, plan_round};
pub use preferences::{PREFERENCE_SEEDING_ALGORITHM, PlayerPlace, PowerPreferences, SeatRanking};

/// Stored in `RoundSeeded`; bump when the algorithm's output for the same request changes.
pub const SEEDING_ALGORITHM: &str = "league-seeder/1";

/// Largest board: seat sets are 64-bit masks.
pub const MAX_BOARD_SIZE: usize = 64;

/// Weight of a keep-apart pair, in earlier shared boards (dipvis's weight).
pub const KEEP_APART_WEIGHT: u32 = 25;

/// Everything the seeder needs for one round; its canonical JSON is what
/// [`SeedingRequest::digest`] hashes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeedingRequest {
    pub board_size: usize,
    /// Seat labels, one per seat (e.g. the seven powers); absent → "1".."k".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<String>>,
    /// Everyone to seat this round (present and not withdrawn), incl. those in `playing_twice`
    /// and those in `sitting_out` (who are then left out).
    pub players: Vec<String>,
    /// Every earlier board of the tournament (any player, also absent/withdrawn ones).
    #[serde(default)]
    pub earlier_boards: Vec<Vec<SeatedPlayer>>,
    /// Pairs never to seat together unless impossible (then as few as possible). Pairs
    /// naming someone not in `players` are ignored (they cannot meet this round).
    #[serde(default)]
    pub keep_apart: Vec<[String; 2]>,
    #[serde(default)]
    pub sitting_out: Vec<String>,
    /// Each seated on two different boards this round.
    #[serde(default)]
    pub playing_twice: Vec<String>,
    /// Optional top board: exactly board_size players who play together on board 1 (e.g.
    /// the best k by standings in the last round); the others are seeded as usual.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_board: Vec<String>,
    /// Teams whose members never share a board this round (a team round,
    /// `docs/tournaments.md#teams`): a hard constraint, refused when it cannot be met. Names
    /// not among `players`, or sitting out, are ignored. Absent from older requests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<Vec<String>>,
    pub seed: u64,
    /// Seats by the players' preferences instead of the automatic rule
    /// (`docs/tournaments.md#power-assignment`); absent in every older request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_preferences: Option<PowerPreferences>,
    /// Optional pool (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`): n·board_size
    /// players seeded first among themselves onto boards 1..n, the others as usual after them.
    /// Absent from the canonical JSON when empty, so earlier requests keep their digest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pool: Vec<String>,
}

impl SeedingRequest {
    /// Hex SHA-256 of the request's canonical JSON (serde_json of the struct): the inputs'
    /// digest stored in `RoundSeeded`.
    pub fn digest(&self) -> String {
        let json = serde_json::to_vec(self).expect("a request always serialises");
        hex::encode(Sha256::digest(json))
    }

    /// The algorithm version a seeding of this request records.
    pub fn algorithm(&self) -> &'static str {
        if self.power_preferences.is_some() {
            PREFERENCE_SEEDING_ALGORITHM
        } else {
            SEEDING_ALGORITHM
        }
    }
}

/// One seat of a board: who sits there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatedPlayer {
    pub player: String,
    pub seat: String,
}

/// The seeder's answer, with its quality figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Seeding {
    /// Each board's seats in seat order (seat labels as in the request).
    pub boards: Vec<Vec<SeatedPlayer>>,
    /// Σ over new boards of Σ over ordered pairs of (earlier shared boards)².
    pub repeat_score: u64,
    /// Players given a seat they had on an earlier board.
    pub seat_repeats: u32,
    /// Keep-apart pairs seated together.
    pub keep_apart_met: u32,
}

/// Why a request cannot be seeded; each message is one line naming the culprit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedingError {
    #[error("board size {0}: a board needs at least 2 seats")]
    BoardTooSmall(usize),
    #[error("board size {0}: at most {MAX_BOARD_SIZE} seats are supported")]
    BoardTooLarge(usize),
    #[error("{labels} seat labels for boards of {board_size}: give one label per seat")]
    SeatCount { labels: usize, board_size: usize },
    #[error("seat {0:?} is listed twice")]
    DuplicateSeat(String),
    #[error("player {0:?} is listed twice in {1}")]
    DuplicatePlayer(String, &'static str),
    #[error("unknown player {0:?} in {1}: not among the players")]
    UnknownPlayer(String, &'static str),
    #[error("player {0:?} is both sitting out and playing twice")]
    SittingOutAndPlayingTwice(String),
    #[error("player {0:?} is on the top board but sitting out")]
    TopBoardSittingOut(String),
    #[error("the top board has {given} players; it needs exactly {board_size}")]
    TopBoardSize { given: usize, board_size: usize },
    #[error("{0}")]
    Uneven(String),
    #[error("player {0:?} plays twice but there is only one board")]
    TwiceOnOneBoard(String),
    #[error("earlier board {board} has seat {seat:?}, which is not one of the seats")]
    UnknownEarlierSeat { board: usize, seat: String },
    #[error("earlier board {board} seats {player:?} twice")]
    TwiceOnEarlierBoard { board: usize, player: String },
    #[error("keep-apart pair names {0:?} twice")]
    KeepApartSelf(String),
    #[error("the boards given do not fit the request: {0}")]
    BoardsMismatch(String),
    #[error(
        "team {team} has {members} seats to fill this round but there are only {boards} boards: team-mates cannot all be kept apart"
    )]
    TeamLargerThanBoards { team: usize, members: usize, boards: usize },
    #[error("team-mates {0:?} and {1:?} are both on the top board")]
    TeamMatesOnTopBoard(String, String),
    #[error(
        "no seating found that keeps every team's members apart ({0:?} and {1:?} share a board)"
    )]
    TeamMatesTogether(String, String),
    #[error("the ranking of {player:?} names {seat:?} twice or as none of the seats")]
    BadRanking { player: String, seat: String },
    #[error("the pool has {given} players; it needs a whole number of boards of {board_size}")]
    PoolSize { given: usize, board_size: usize },
    #[error("player {0:?} is in the pool but {1}: a pool player plays exactly one board")]
    PoolPlayerNotOnce(String, &'static str),
    #[error("a round seats either a pool or a top board, not both")]
    PoolAndTopBoard,
}

/// Seats the round: boards of `board_size` in seat order, minimising Σ over boards of Σ over
/// ordered pairs of (earlier shared boards)² (a keep-apart pair counts 25 more), then seat
/// repeats. Same request → same seeding, on every machine.
pub fn seed_round(request: &SeedingRequest) -> Result<Seeding, SeedingError> {
    if !request.pool.is_empty() {
        return pools::seed_with_pool(request);
    }
    let problem = problem::Problem::new(request)?;
    check_preferences(request, &problem)?;
    let boards = plane::next_parallel_class(&problem)
        .unwrap_or_else(|| search::search(&problem, request.seed));
    teams::check_apart(&problem, &boards)?;
    Ok(seats::seat_boards(&problem, &boards, request.seed, request.power_preferences.as_ref()))
}

/// Seats boards formed elsewhere (e.g. by hand, or by another seeder to compare with) as
/// [`seed_round`] seats its own, with the same figures: each board's players in any order,
/// every player to seat on as many boards as the request says.
pub fn seat_given_boards(
    request: &SeedingRequest,
    boards: &[Vec<String>],
) -> Result<Seeding, SeedingError> {
    let problem = problem::Problem::new(request)?;
    check_preferences(request, &problem)?;
    let boards = problem.boards_by_index(boards)?;
    Ok(seats::seat_boards(&problem, &boards, request.seed, request.power_preferences.as_ref()))
}

fn check_preferences(
    request: &SeedingRequest,
    problem: &problem::Problem,
) -> Result<(), SeedingError> {
    request.power_preferences.as_ref().map_or(Ok(()), |p| p.check(&problem.seat_labels))
}

/// Fisher–Yates with the crate's own generator, so a seed shuffles alike everywhere.
fn shuffle<T>(items: &mut [T], rng: &mut crate::rng::SplitMix64) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests;
