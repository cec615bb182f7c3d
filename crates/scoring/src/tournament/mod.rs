//! `docs/tournaments.md#round-and-tournament-scoring`: how a tournament played in rounds turns
//! its boards into round scores, round scores (or game scores) into tournament totals, and ranks
//! its players with the DAANZ tie-breakers league standings use. Here: the round scorings
//! ([`RoundScoring`], [`round_scorings`]) and the shapes the ranking takes and gives. The
//! tournament scorings are a catalogue (`catalogue.rs`: [`TournamentScoring`],
//! [`tournament_scorings`]), one entry per scoring naming its function (`rounds.rs`, `games.rs`,
//! `wdc.rs` with the WDC 2025 cut in `cut.rs`); each works on the players' cards (`card.rs`)
//! that the ranking (`rank.rs`) builds and ranks. Source: dipvis's round and tournament scoring
//! systems (read to learn, nothing copied).

use serde::{Deserialize, Serialize};

use crate::{ScoredGame, TieBreak, thousandths};

mod card;
mod catalogue;
mod cut;
mod games;
mod rank;
mod rounds;
mod rulings;
mod wdc;

pub use catalogue::{TournamentScoring, TournamentScoringInfo, tournament_scorings};
pub use rank::{rank_tournament, rank_tournament_ruled};
pub use rulings::{RoundPoints, Rulings, TotalPoints};

/// A player's round score when they played two boards in the round (one board: its score).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RoundScoring {
    /// The better board counts; the other board of the round is dropped.
    BestBoard,
    /// Both boards count.
    SumOfBoards,
}

/// What every surface shows about one round scoring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundScoringInfo {
    /// The stored form (`bestBoard`, `sumOfBoards`).
    pub id: String,
    pub name: String,
    pub description: String,
}

impl RoundScoring {
    /// Every round scoring, the default first.
    pub const ALL: [RoundScoring; 2] = [RoundScoring::BestBoard, RoundScoring::SumOfBoards];

    /// The stored form (its serde name).
    pub fn id(self) -> &'static str {
        match self {
            RoundScoring::BestBoard => "bestBoard",
            RoundScoring::SumOfBoards => "sumOfBoards",
        }
    }

    pub fn info(self) -> RoundScoringInfo {
        let (name, description) = match self {
            RoundScoring::BestBoard => (
                "Best board",
                "A player on two boards in a round scores the better board; the other is dropped.",
            ),
            RoundScoring::SumOfBoards => {
                ("Sum of boards", "A player on two boards in a round scores both boards' sum.")
            }
        };
        RoundScoringInfo {
            id: self.id().to_owned(),
            name: name.to_owned(),
            description: description.to_owned(),
        }
    }
}

/// Every round scoring, in a stable order.
pub fn round_scorings() -> Vec<RoundScoringInfo> {
    RoundScoring::ALL.iter().map(|scoring| scoring.info()).collect()
}

/// A tournament's scoring rules.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentRules {
    pub scoring: TournamentScoring,
    pub round_scoring: RoundScoring,
    /// Planned rounds.
    pub rounds: u32,
    /// What sitting out a round scores (0.0: nothing).
    pub sit_out_points: f64,
    /// Only the first round a player sits out scores [`Self::sit_out_points`].
    pub sit_out_points_once: bool,
}

/// One finished board. `players[i]` is the caller's key of `game.players[i]`; `centres[i]` the
/// row's supply centres when the result has them (Diplomacy), for the WDC 2025 cut.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentBoard<K> {
    pub round: u32,
    pub board: u32,
    pub game: ScoredGame,
    pub players: Vec<K>,
    pub centres: Vec<Option<u32>>,
}

/// A player who sat out a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SitOut<K> {
    pub round: u32,
    pub player: K,
}

/// A player's line in the tournament standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentStanding<K> {
    /// Competition rank: players level after every tie-breaker share it (1, 2, 2, 4); 0 for
    /// an unranked player.
    pub rank: u32,
    pub player: K,
    /// Exact thousandths, like league totals.
    pub total: f64,
    /// One line per round, planned or played, in round order.
    pub rounds: Vec<RoundScoreLine>,
    /// Boards played, and the wins and draws among them (every board, counted or not).
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    /// Why the total is what it is, where the rule does more than add, e.g. WDC 2025:
    /// "in the top 21 after round 3: round 4 ×1.5".
    pub notes: Vec<String>,
    /// The DAANZ tie-breaker that split this line from a neighbour level on total, as for
    /// league standings (`docs/tournaments.md#round-and-tournament-scoring`); absent when the
    /// totals alone rank it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separated_by: Option<TieBreak>,
    /// Listed without a rank ([`Self::rank`] is 0), after everyone ranked
    /// (`docs/tournaments.md#rulings`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unranked: bool,
}

impl<K> TournamentStanding<K> {
    /// The total in exact thousandths of a point.
    pub fn total_thousandths(&self) -> i64 {
        thousandths(self.total)
    }
}

/// One round of a player's tournament.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundScoreLine {
    pub round: u32,
    /// The round score under the round scoring; `None`: neither played nor sat out (absent,
    /// or not played yet).
    pub score: Option<f64>,
    /// Sat the round out (and played no board in it).
    pub sat_out: bool,
    /// The round does not count in the total.
    pub dropped: bool,
    pub boards: Vec<BoardScoreLine>,
}

/// One board a player played.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardScoreLine {
    pub board: u32,
    pub score: f64,
    /// The board does not count in the total.
    pub dropped: bool,
}
