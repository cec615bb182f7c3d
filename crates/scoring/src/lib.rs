//! Pure scoring for the league platform: every scoring system of `docs/scoring.md`, listed once
//! in the catalogue (`catalogue.rs`: [`SystemInfo`], [`scoring_systems!`]), plus the DAANZ standings tie-breakers
//! (`docs/scoring.md#standings-and-tie-breakers`) used to rank every league.
//!
//! No IO, no async. Player identities are opaque strings; game scores are `f64` and nothing
//! is rounded except where a seed rule says so. League totals are exact thousandths of a
//! point ([`thousandths`], [`Standing::total_thousandths`]): every system's scores have at most
//! three decimals (Squares shares excepted), so a total is shown as its decimal sum
//! (`121.492`), never as float noise (`121.49199999999999`).
//!
//! Public contract (other crates build on these names; keep them stable):
//! - [`ScoringSystem`]: the systems, serialised with their CLI names; [`ScoringSystem::info`] and
//!   [`catalogue`] give every per-system fact ([`SystemInfo`]).
//! - [`GameResult`]: one finished game as reported (placement, Diplomacy or team shape).
//! - [`score_game`]: validates and scores one game → [`ScoredGame`] (scores in input order);
//!   [`score_game_unexplained`] does the same without building explanation lines (replay).
//! - [`rank_standings`]: ranks players over many scored games with the tie-breakers;
//!   [`rank_standings_with`] under a league [`Aggregation`] (sum, best N, average);
//!   [`rank_standings_keyed`] the same with the caller's own player keys (typed ids).
//! - [`rank_tournament`]: a tournament in rounds (`docs/tournaments.md#round-and-tournament-scoring`)
//!   under a [`TournamentScoring`] and a [`RoundScoring`] ([`tournament_scorings`],
//!   [`round_scorings`] list them).
//! - [`series_standings`]: a series' best N results per player over its member events, with
//!   the attendance grid (`docs/series.md`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

mod aggregation;
mod baf;
mod best_country;
mod bluemax;
mod catalogue;
mod detour;
mod finish;
mod placement;
mod provisional;
mod scorer;
mod series;
mod squares;
mod standings;
mod systems;
mod tournament;
mod validate;
mod woodenships;

pub use aggregation::{Aggregation, AggregationInfo};
pub use baf::{BAF_TABLE, baf_score, baf_shared_top};
pub use best_country::{BestCountryCriterion, CountryResult, best_countries};
pub use catalogue::{
    CONCESSION_SOLO_ONLY_UNDER_EARLIER_RULE, ConcessionScoring, PlayersPerGame, ResultField,
    ScoringSystem, SystemInfo, USUAL_SYSTEMS, catalogue,
};
pub use detour::round_half_away_2dp;
pub use provisional::{YearCounts, check_year_counts, provisional_result, scores_unfinished};
pub use series::{EventPlacing, SeriesBasis, SeriesCell, SeriesStanding, series_standings};
pub use standings::{TieBreak, compare_games, rank_keyed as rank_standings_keyed};
pub use tournament::{
    BoardScoreLine, RoundPoints, RoundScoreLine, RoundScoring, RoundScoringInfo, Rulings, SitOut,
    TotalPoints, TournamentBoard, TournamentRules, TournamentScoring, TournamentScoringInfo,
    TournamentStanding, rank_tournament, rank_tournament_ruled, round_scorings,
    tournament_scorings,
};
pub use validate::{FIRST_GAME_YEAR, TOTAL_CENTRES};

impl ScoringSystem {
    /// True for the seven-power Diplomacy systems.
    pub fn is_diplomacy(self) -> bool {
        self.result_kind() == ResultKind::Diplomacy
    }

    /// The supply centres a result's centres add up to at most ([`TOTAL_CENTRES`]), for the
    /// Diplomacy systems; `None` for the others.
    pub fn total_centres(self) -> Option<u32> {
        self.is_diplomacy().then_some(TOTAL_CENTRES)
    }

    /// True for the side-against-side systems (bluemax, woodenships, woodenships-legacy).
    pub fn is_team(self) -> bool {
        self.result_kind() == ResultKind::Teams
    }

    /// Every system's name, comma-separated (for help and error messages).
    pub fn known_names() -> String {
        ScoringSystem::ALL.iter().map(|system| system.name()).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for ScoringSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ScoringSystem {
    type Err = ScoringError;

    /// Parses any name of a system, ignoring case and surrounding blanks: the CLI name
    /// (`ranked-classic`), the GraphQL name (`RANKED_CLASSIC`), the display name
    /// (`Ranked Classic`) or an alias (`Sum of Squares`); an unknown name is
    /// [`ScoringError::UnknownSystem`] (field `system`).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let wanted = name.trim();
        ScoringSystem::ALL
            .iter()
            .copied()
            .find(|system| system.names().any(|known| known.eq_ignore_ascii_case(wanted)))
            .ok_or_else(|| ScoringError::UnknownSystem { name: name.to_owned() })
    }
}

/// The three shapes of [`GameResult`]; see [`ScoringSystem::result_kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ResultKind {
    Placement,
    Diplomacy,
    Teams,
}

impl fmt::Display for ResultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResultKind::Placement => "placement",
            ResultKind::Diplomacy => "Diplomacy",
            ResultKind::Teams => "team",
        })
    }
}

/// One finished game, as reported. Which variant a system accepts is its
/// [`ScoringSystem::result_kind`]: placement → `Placement`; the Diplomacy systems →
/// `Diplomacy`; bluemax, woodenships, woodenships-legacy → `Teams`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum GameResult {
    Placement(Vec<PlacementEntry>),
    Diplomacy(Vec<DiplomacyEntry>),
    Teams(TeamResult),
}

impl GameResult {
    /// The shape of this result.
    pub fn kind(&self) -> ResultKind {
        match self {
            GameResult::Placement(_) => ResultKind::Placement,
            GameResult::Diplomacy(_) => ResultKind::Diplomacy,
            GameResult::Teams(_) => ResultKind::Teams,
        }
    }
    /// The power a Diplomacy game was conceded to (the one power flagged `inDraw`), by its
    /// index in the result.
    pub fn concession(&self) -> Option<usize> {
        match self {
            GameResult::Diplomacy(entries) => finish::conceded_to(entries),
            GameResult::Placement(_) | GameResult::Teams(_) => None,
        }
    }

    /// The rule this result's concession is scored under: [`ConcessionRule::DrawOfOne`] when
    /// the power conceded to is marked `concessionAsDraw`, [`ConcessionRule::Solo`] when it is
    /// marked `concessionAsSolo`, else [`ConcessionRule::PerSystem`] (also for a result
    /// without a concession).
    pub fn concession_rule(&self) -> ConcessionRule {
        match (self, self.concession()) {
            (GameResult::Diplomacy(entries), Some(index)) => {
                finish::concession_rule(&entries[index])
            }
            _ => ConcessionRule::PerSystem,
        }
    }

    /// Scores this result's concession under `rule` from now on: marks the power conceded to
    /// `concessionAsDraw` or `concessionAsSolo`, or neither for the current rule. A result
    /// without a concession is left as it is. A decoder upcasting a result recorded under an
    /// earlier rule calls it with that rule.
    pub fn set_concession_rule(&mut self, rule: ConcessionRule) {
        let conceded = self.concession();
        if let (GameResult::Diplomacy(entries), Some(index)) = (self, conceded) {
            entries[index].concession_as_draw = rule == ConcessionRule::DrawOfOne;
            entries[index].concession_as_solo = rule == ConcessionRule::Solo;
        }
    }
}

/// How a Diplomacy result's concession (every other power conceded to one) is scored
/// (`docs/scoring.md#draws-and-concessions`). The platform's rule changed twice; a result
/// keeps the rule it was recorded under.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ConcessionRule {
    /// Each system as its published rule says, else as dipvis's code scores it
    /// ([`ScoringSystem::concession`]): the rule for every result recorded now.
    #[default]
    PerSystem,
    /// As that power's solo by every system but Baf and Detour 98f (whose rules know only the
    /// 18-centre win): the rule of results recorded before [`ConcessionRule::PerSystem`], and
    /// the what-if "every concession as a solo".
    Solo,
    /// As a draw of one: the first rule, kept for results recorded before concessions were
    /// scored as solos.
    DrawOfOne,
}

/// A player's final game points in an all-vs-all game (`docs/scoring.md#placement`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacementEntry {
    pub player: String,
    pub points: f64,
}

/// A Diplomacy power's end-of-game position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiplomacyEntry {
    pub player: String,
    pub centres: u32,
    /// No units left and only non-home centres (the Baf rule's "eliminated player",
    /// `docs/scoring.md#baf`).
    #[serde(default)]
    pub eliminated: bool,
    /// Game year in which the power was eliminated, if it was (Detour survival to 1905,
    /// and the "longest survival" game comparison).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eliminated_year: Option<i32>,
    /// Included in the draw the players voted through (`docs/scoring.md#draws-and-concessions`).
    /// When no power is flagged the draw is every surviving power; a single flagged power is a
    /// concession to it, which each system scores as its rule says (a solo or from the
    /// centres, [`ScoringSystem::concession`]). Left out of the JSON when false, so results stored before the field
    /// existed read and hash exactly as they did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_draw: bool,
    /// The soloist's game year in which it reached its solo, the year the game ended
    /// (`docs/scoring.md#draws-and-concessions`): systems paying the powers that lost to a
    /// solo by the years they played need it. Only a power on 18 or more centres, or the power
    /// conceded to (then the year the game ended), carries it; left out of the JSON when absent,
    /// so earlier results read and hash as they did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solo_year: Option<i32>,
    /// The power's centre counts at the end of earlier years, the latest first (the year
    /// before the final count, then the one before…), which Maxonian and 7Eleven use to break
    /// ties on centres (`docs/scoring.md#maxonian-and-7eleven`). Optional; left out of the JSON
    /// when empty, so earlier results read and hash as they did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_centres: Vec<u32>,
    /// Set on the power conceded to when the result is scored under the earlier rule, a
    /// concession is a draw of one ([`ConcessionRule::DrawOfOne`]): results recorded before
    /// concessions were scored as solos keep their scores. Left out of the JSON when false, so
    /// every result stored before the field existed reads and hashes exactly as it did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub concession_as_draw: bool,
    /// Set on the power conceded to when the result is scored under the rule before each
    /// system followed its own, a concession is that power's solo in every system but Baf and
    /// Detour 98f ([`ConcessionRule::Solo`]): results recorded then keep their scores. Left out
    /// of the JSON when false, so every result stored before the field existed reads and
    /// hashes exactly as it did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub concession_as_solo: bool,
}

impl DiplomacyEntry {
    /// A power still in the game on `centres` centres (not eliminated, no elimination year).
    pub fn new(player: impl Into<String>, centres: u32) -> Self {
        DiplomacyEntry {
            player: player.into(),
            centres,
            eliminated: false,
            eliminated_year: None,
            in_draw: false,
            solo_year: None,
            earlier_centres: Vec::new(),
            concession_as_draw: false,
            concession_as_solo: false,
        }
    }
}

/// Seven surviving powers named `P0`..`P6` on the given centres (test fixture).
#[cfg(test)]
pub(crate) fn seven_powers(centres: [u32; 7]) -> Vec<DiplomacyEntry> {
    centres.iter().enumerate().map(|(i, &c)| DiplomacyEntry::new(format!("P{i}"), c)).collect()
}

/// A team game (Blue Max, Wooden Ships & Iron Men).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamResult {
    /// Draw by mutual consent (Wooden Ships).
    #[serde(default)]
    pub draw: bool,
    pub sides: Vec<Side>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub name: String,
    pub players: Vec<TeamPlayer>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamPlayer {
    pub player: String,
    /// Personal score in the game.
    pub points: f64,
    /// Units the player started with (default 1).
    #[serde(default = "one")]
    pub units: u32,
    /// Own units lost.
    #[serde(default)]
    pub lost: u32,
    /// Enemy units destroyed.
    #[serde(default)]
    pub kills: u32,
    /// Wooden Ships: ships still afloat at the end (`None` = not reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ships_left: Option<u32>,
    #[serde(default)]
    pub surrendered: bool,
}

fn one() -> u32 {
    1
}

/// How a game ended for one player, for the standings tie-breakers (DAANZ part 4.1,
/// `docs/scoring.md#standings-and-tie-breakers`:
/// Win beats Draw beats Elimination beats Loss).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    Loss,
    Elimination,
    Draw,
    Win,
}

/// One player's league score for one game, with what the tie-breakers need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerGameScore {
    pub player: String,
    pub score: f64,
    pub outcome: Outcome,
    /// Human-readable lines that make up the score (`--explain`, audit). Empty when scored
    /// with [`score_game_unexplained`].
    pub explanation: Vec<String>,
    /// Finishing position in the game (1 = first), by centres for Diplomacy and by league
    /// score otherwise; players level share the best position of their group (DAANZ
    /// part 4.3).
    #[serde(default = "one")]
    pub position: u32,
    /// How many players share [`Self::position`] (1 = outright).
    #[serde(default = "one")]
    pub sharing: u32,
    /// Diplomacy: the year the power was eliminated, if reported (DAANZ part 4.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eliminated_year: Option<i32>,
}

/// A validated, scored game: one entry per player, in the input order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoredGame {
    pub system: ScoringSystem,
    pub players: Vec<PlayerGameScore>,
}

/// A player's line in league standings. The player is the game rows' name (`String`), or
/// the caller's own key under [`rank_standings_keyed`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Standing<P = String> {
    /// Competition rank: players still level after every tie-breaker share it (1, 2, 2, 4).
    pub rank: u32,
    pub player: P,
    pub total: f64,
    /// Wins, draws and games as played (every game, whatever the aggregation counts).
    pub wins: u32,
    pub draws: u32,
    pub games: u32,
    /// Under best N: how many games the total counts (N, or fewer while fewer are played);
    /// absent when every game counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted: Option<u32>,
    /// The tie-breaker that split this line from a neighbour level on total
    /// (`docs/scoring.md#standings-and-tie-breakers`): from the line above, or else from the
    /// line below; absent when the totals alone rank it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separated_by: Option<TieBreak>,
}

impl<P> Standing<P> {
    /// The same line with the player named another way.
    pub fn map_player<Q>(self, name: impl FnOnce(P) -> Q) -> Standing<Q> {
        Standing {
            rank: self.rank,
            player: name(self.player),
            total: self.total,
            wins: self.wins,
            draws: self.draws,
            games: self.games,
            counted: self.counted,
            separated_by: self.separated_by,
        }
    }

    /// The total in exact thousandths of a point (`121.492` → `121_492`).
    pub fn total_thousandths(&self) -> i64 {
        thousandths(self.total)
    }
}

/// Points as whole thousandths, half away from zero (`121.49199999999999` → `121_492`).
pub fn thousandths(points: f64) -> i64 {
    (points * 1000.0).round() as i64
}

/// Whole thousandths as points: the `f64` nearest the decimal value, which prints as that
/// decimal (`121_492` → `121.492`).
pub fn from_thousandths(thousandths: i64) -> f64 {
    thousandths as f64 / 1000.0
}

/// Why a result cannot be scored. Every variant names the offending field ([`Self::field`]),
/// e.g. `players[3].centres`; the message is one line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoringError {
    /// The input breaks a validation rule (count, range, duplicate, missing value…).
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    /// The input is well-formed but the seed says such a result cannot happen (a blank Baf
    /// cell, a tie count the Baf tie tables do not list). Never guessed.
    #[error("{field}: impossible result: {message}")]
    Impossible { field: String, message: String },
    /// The system expects another result shape (e.g. team sides for `baf`).
    #[error("result: {system} scores a {expected} result, got a {got} result")]
    WrongResultKind { system: ScoringSystem, expected: ResultKind, got: ResultKind },
    /// No system has this name.
    #[error("system: unknown scoring system `{name}` (known: {})", ScoringSystem::known_names())]
    UnknownSystem { name: String },
}

impl ScoringError {
    /// The offending field, as a path into the input (`players[3].centres`, `sides[1].name`,
    /// `result`, `system`).
    pub fn field(&self) -> &str {
        match self {
            ScoringError::Invalid { field, .. } | ScoringError::Impossible { field, .. } => field,
            ScoringError::WrongResultKind { .. } => "result",
            ScoringError::UnknownSystem { .. } => "system",
        }
    }

    pub(crate) fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ScoringError::Invalid { field: field.into(), message: message.into() }
    }

    pub(crate) fn impossible(field: impl Into<String>, message: impl Into<String>) -> Self {
        ScoringError::Impossible { field: field.into(), message: message.into() }
    }
}

/// Validates `result` for `system` and scores it (scores in input order), with the
/// explanation lines filled in.
pub fn score_game(system: ScoringSystem, result: &GameResult) -> Result<ScoredGame, ScoringError> {
    score_with(system, result, Explain::Yes)
}

/// Same as [`score_game`] but leaves every `explanation` empty: the allocation-light path for
/// replaying long event logs.
pub fn score_game_unexplained(
    system: ScoringSystem,
    result: &GameResult,
) -> Result<ScoredGame, ScoringError> {
    score_with(system, result, Explain::No)
}

/// Whether to build the human-readable explanation lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Explain {
    Yes,
    No,
}

impl Explain {
    /// The explanation: the one line `line` builds, or none when not explaining (replays skip
    /// the formatting).
    pub(crate) fn line(self, line: impl FnOnce() -> String) -> Vec<String> {
        match self {
            Explain::No => Vec::new(),
            Explain::Yes => vec![line()],
        }
    }
}

fn score_with(
    system: ScoringSystem,
    result: &GameResult,
    explain: Explain,
) -> Result<ScoredGame, ScoringError> {
    use scorer::Scoring;
    let players = match (system.scoring(), result) {
        (Scoring::Placement(score), GameResult::Placement(entries)) => {
            validate::placement(entries)?;
            score(system, entries, explain)?
        }
        (Scoring::Diplomacy(score), GameResult::Diplomacy(entries)) => {
            validate::diplomacy(entries)?;
            score(system, entries, explain)?
        }
        (Scoring::Teams(score), GameResult::Teams(teams)) => {
            validate::teams(system, teams)?;
            score(system, teams, explain)?
        }
        _ => {
            return Err(ScoringError::WrongResultKind {
                system,
                expected: system.result_kind(),
                got: result.kind(),
            });
        }
    };
    Ok(ScoredGame { system, players })
}

/// Ranks players over scored games (the DAANZ tie-breakers,
/// `docs/scoring.md#standings-and-tie-breakers`), best first. Players
/// still level after every tie-breaker share a rank and are listed by name.
pub fn rank_standings(games: &[ScoredGame]) -> Vec<Standing> {
    standings::rank(games, Aggregation::Sum)
}

/// [`rank_standings`] under a league's aggregation (`docs/scoring.md#league-aggregation`):
/// the total is the sum, the best N games' sum or the average per game played, and the
/// tie-breakers look at the counted games.
pub fn rank_standings_with(games: &[ScoredGame], aggregation: Aggregation) -> Vec<Standing> {
    standings::rank(games, aggregation)
}
