//! `docs/tournaments.md#round-and-tournament-scoring`: how a tournament played in rounds turns
//! its boards into round scores, round scores (or game scores) into tournament totals, and ranks
//! its players with the DAANZ tie-breakers league standings use. The rules ([`RoundScoring`],
//! [`TournamentScoring`]) and their catalogue ([`tournament_scorings`], [`round_scorings`]) live
//! here; the ranking is in `rank.rs`, the WDC 2025 cut after round 3 in `cut.rs`. Source:
//! dipvis's round and tournament scoring systems (read to learn, nothing copied).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{ScoredGame, ScoringError, thousandths};

mod cut;
mod rank;

pub use rank::rank_tournament;

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

/// How a tournament combines its rounds (or its games) into a player's total. Stored in events
/// as its string id ([`TournamentScoring::id`]): `sum-all-rounds`, `best-rounds-N` (N = 2..5),
/// `best-games-N` (N = 1..5), `games-average-plus-10`, `best-2-plus-half-average-of-rest`,
/// `best-2-plus-half-3rd`, `best-3-plus-half-4th`,
/// `best-2-plus-half-3rd-or-third-of-3rd-and-4th`, `wdc-2025`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TournamentScoring {
    /// Every round score counts.
    SumAllRounds,
    /// The player's `n` best round scores count.
    BestRounds { n: u32 },
    /// The player's `n` best games count, in whatever rounds they were played.
    BestGames { n: u32 },
    /// The sum of every game ÷ (games played + 10).
    GamesAveragePlusTen,
    /// The best 2 games plus half the average of the other games.
    BestTwoPlusHalfAverageOfRest,
    /// The best 2 games plus half the 3rd best.
    BestTwoPlusHalfThird,
    /// The best 3 games plus half the 4th best.
    BestThreePlusHalfFourth,
    /// The best 2 games plus half the 3rd best (3 games), or a third of the 3rd and 4th best
    /// (4 games or more).
    BestTwoPlusHalfThirdOrThirdOfThirdAndFourth,
    /// World Diplomacy Championship 2025: the best 2 of rounds 1–3 plus round 4, with round 4
    /// worth 1.5 for the top 21 after round 3.
    Wdc2025,
}

/// Rounds that best N rounds may keep.
const BEST_ROUNDS: std::ops::RangeInclusive<u32> = 2..=5;
/// Games that best N games may keep.
const BEST_GAMES: std::ops::RangeInclusive<u32> = 1..=5;

/// What every surface shows about one tournament scoring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TournamentScoringInfo {
    /// The stored id (`best-rounds-3`).
    pub id: String,
    pub name: String,
    /// The rule, in one or two sentences.
    pub description: String,
    /// Whether it combines round scores (true) or game scores directly (false).
    pub uses_round_scores: bool,
}

impl TournamentScoring {
    /// Every tournament scoring, in the stable order the catalogue lists them.
    pub fn all() -> Vec<TournamentScoring> {
        use TournamentScoring::*;
        let mut all = vec![SumAllRounds];
        all.extend(BEST_ROUNDS.map(|n| BestRounds { n }));
        all.extend(BEST_GAMES.map(|n| BestGames { n }));
        all.extend([
            GamesAveragePlusTen,
            BestTwoPlusHalfAverageOfRest,
            BestTwoPlusHalfThird,
            BestThreePlusHalfFourth,
            BestTwoPlusHalfThirdOrThirdOfThirdAndFourth,
            Wdc2025,
        ]);
        all
    }

    /// The stored id (`sum-all-rounds`, `best-rounds-3`, `wdc-2025`, …).
    pub fn id(self) -> String {
        use TournamentScoring::*;
        match self {
            SumAllRounds => "sum-all-rounds".to_owned(),
            BestRounds { n } => format!("best-rounds-{n}"),
            BestGames { n } => format!("best-games-{n}"),
            GamesAveragePlusTen => "games-average-plus-10".to_owned(),
            BestTwoPlusHalfAverageOfRest => "best-2-plus-half-average-of-rest".to_owned(),
            BestTwoPlusHalfThird => "best-2-plus-half-3rd".to_owned(),
            BestThreePlusHalfFourth => "best-3-plus-half-4th".to_owned(),
            BestTwoPlusHalfThirdOrThirdOfThirdAndFourth => {
                "best-2-plus-half-3rd-or-third-of-3rd-and-4th".to_owned()
            }
            Wdc2025 => "wdc-2025".to_owned(),
        }
    }

    /// Every id, comma-separated, `N` standing for the number (for error messages).
    pub fn known_ids() -> String {
        let mut ids = vec!["sum-all-rounds".to_owned(), "best-rounds-N (N = 2..5)".to_owned()];
        ids.push("best-games-N (N = 1..5)".to_owned());
        ids.extend(
            TournamentScoring::all()
                .into_iter()
                .filter(|scoring| {
                    !matches!(
                        scoring,
                        TournamentScoring::SumAllRounds
                            | TournamentScoring::BestRounds { .. }
                            | TournamentScoring::BestGames { .. }
                    )
                })
                .map(TournamentScoring::id),
        );
        ids.join(", ")
    }

    /// Parses a stored id (surrounding blanks and case ignored); an unknown id, or an N out of
    /// range, is refused under field `scoring` with the known ids.
    pub fn parse(id: &str) -> Result<Self, ScoringError> {
        let wanted = id.trim().to_ascii_lowercase();
        let numbered = |prefix: &str, range: std::ops::RangeInclusive<u32>| {
            wanted.strip_prefix(prefix).map(|n| match n.parse::<u32>() {
                Ok(n) if range.contains(&n) => Ok(n),
                _ => Err(ScoringError::invalid(
                    "scoring",
                    format!(
                        "{prefix}N takes N from {} to {}, got `{n}`",
                        range.start(),
                        range.end()
                    ),
                )),
            })
        };
        if let Some(n) = numbered("best-rounds-", BEST_ROUNDS) {
            return n.map(|n| TournamentScoring::BestRounds { n });
        }
        if let Some(n) = numbered("best-games-", BEST_GAMES) {
            return n.map(|n| TournamentScoring::BestGames { n });
        }
        TournamentScoring::all().into_iter().find(|scoring| scoring.id() == wanted).ok_or_else(
            || {
                ScoringError::invalid(
                    "scoring",
                    format!(
                        "unknown tournament scoring `{id}` (known: {})",
                        TournamentScoring::known_ids()
                    ),
                )
            },
        )
    }

    /// Refuses rules that cannot work with the tournament's number of rounds, under field
    /// `rounds` (or `scoring` for an N out of range): every scoring needs a round; best N rounds
    /// needs N ≤ rounds; WDC 2025 needs exactly 4 rounds.
    pub fn check(self, rounds: u32) -> Result<(), ScoringError> {
        let id = self.id();
        match self {
            TournamentScoring::BestRounds { n } if !BEST_ROUNDS.contains(&n) => {
                Err(ScoringError::invalid("scoring", format!("{id}: N must be from 2 to 5")))
            }
            TournamentScoring::BestGames { n } if !BEST_GAMES.contains(&n) => {
                Err(ScoringError::invalid("scoring", format!("{id}: N must be from 1 to 5")))
            }
            _ if rounds == 0 => {
                Err(ScoringError::invalid("rounds", format!("{id} needs at least 1 round, got 0")))
            }
            TournamentScoring::BestRounds { n } if n > rounds => Err(ScoringError::invalid(
                "rounds",
                format!("{id} keeps {n} rounds but the tournament plans only {rounds}"),
            )),
            TournamentScoring::Wdc2025 if rounds != 4 => Err(ScoringError::invalid(
                "rounds",
                format!("{id} needs exactly 4 rounds, got {rounds}"),
            )),
            _ => Ok(()),
        }
    }

    /// True when the total combines round scores; false when it takes game scores directly
    /// (sitting-out points then count as a pseudo-game).
    pub fn uses_round_scores(self) -> bool {
        matches!(
            self,
            TournamentScoring::SumAllRounds
                | TournamentScoring::BestRounds { .. }
                | TournamentScoring::Wdc2025
        )
    }

    pub fn info(self) -> TournamentScoringInfo {
        use TournamentScoring::*;
        let (name, description) = match self {
            SumAllRounds => {
                ("Sum all round scores".to_owned(), "Every round score counts.".to_owned())
            }
            BestRounds { n } => (
                format!("Sum best {n} rounds"),
                format!("The player's {n} best round scores count; the other rounds are dropped."),
            ),
            BestGames { n: 1 } => (
                "Best single game result".to_owned(),
                "The player's best game counts, in any round; sitting-out points count as a game."
                    .to_owned(),
            ),
            BestGames { n } => (
                format!("Sum best {n} games in any rounds"),
                format!(
                    "The player's {n} best games count, in whatever rounds; sitting-out points \
                     count as a game."
                ),
            ),
            GamesAveragePlusTen => (
                "Sum games, divide by count + 10".to_owned(),
                "The sum of every game (and sitting-out points) divided by the number of them \
                 plus 10."
                    .to_owned(),
            ),
            BestTwoPlusHalfAverageOfRest => (
                "Sum best 2 games plus half the average of the rest".to_owned(),
                "The best 2 games count in full, the others' average counts half.".to_owned(),
            ),
            BestTwoPlusHalfThird => (
                "Sum best 2 games plus half the third best".to_owned(),
                "The best 2 games count in full, the 3rd best half; the others are dropped."
                    .to_owned(),
            ),
            BestThreePlusHalfFourth => (
                "Sum best 3 games plus half the fourth best".to_owned(),
                "The best 3 games count in full, the 4th best half; the others are dropped."
                    .to_owned(),
            ),
            BestTwoPlusHalfThirdOrThirdOfThirdAndFourth => (
                "Sum best 2 games plus either 1/2 the 3rd or 1/3 the sum of the 3rd and 4th"
                    .to_owned(),
                "The best 2 games count in full; with 3 games the 3rd counts half, with 4 or \
                 more the 3rd and 4th count a third each; the others are dropped."
                    .to_owned(),
            ),
            Wdc2025 => (
                "WDC 2025".to_owned(),
                "The best 2 of rounds 1-3 plus round 4; the top 21 after round 3 score round 4 \
                 x1.5 (ties at 21st: best game, head-to-head, centres, dropped round, DAANZ, \
                 player order)."
                    .to_owned(),
            ),
        };
        TournamentScoringInfo {
            id: self.id(),
            name,
            description,
            uses_round_scores: self.uses_round_scores(),
        }
    }
}

/// Every tournament scoring, in a stable order.
pub fn tournament_scorings() -> Vec<TournamentScoringInfo> {
    TournamentScoring::all().into_iter().map(TournamentScoring::info).collect()
}

impl fmt::Display for TournamentScoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

impl FromStr for TournamentScoring {
    type Err = ScoringError;

    fn from_str(id: &str) -> Result<Self, Self::Err> {
        TournamentScoring::parse(id)
    }
}

impl Serialize for TournamentScoring {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.id())
    }
}

impl<'de> Deserialize<'de> for TournamentScoring {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        TournamentScoring::parse(&id).map_err(serde::de::Error::custom)
    }
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
    /// Competition rank: players level after every tie-breaker share it (1, 2, 2, 4).
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
