//! Pure scoring for the league platform: every scoring system of `docs/scoring.md`, listed once
//! in the [`scoring_systems!`] catalogue, plus the DAANZ standings tie-breakers
//! (`docs/scoring.md#standings-and-tie-breakers`) used to rank every league.
//!
//! No IO, no async. Player identities are opaque strings; game scores are `f64` and nothing
//! is rounded except where a seed rule says so. League totals are exact thousandths of a
//! point ([`thousandths`], [`Standing::total_thousandths`]): every system's scores have at most
//! three decimals (Squares shares excepted), so a total is shown as its decimal sum
//! (`121.492`), never as float noise (`121.49199999999999`).
//!
//! Public contract (other crates build on these names; keep them stable):
//! - [`ScoringSystem`]: the systems, serialised with their CLI names.
//! - [`GameResult`]: one finished game as reported (placement, Diplomacy or team shape).
//! - [`score_game`]: validates and scores one game → [`ScoredGame`] (scores in input order);
//!   [`score_game_unexplained`] does the same without building explanation lines (replay).
//! - [`rank_standings`]: ranks players over many scored games with the tie-breakers;
//!   [`rank_standings_with`] under a league [`Aggregation`] (sum, best N, average);
//!   [`rank_standings_keyed`] the same with the caller's own player keys (typed ids).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

mod aggregation;
mod baf;
mod bluemax;
mod detour;
mod finish;
mod placement;
mod squares;
mod standings;
mod systems;
mod validate;
mod woodenships;

pub use aggregation::Aggregation;
pub use baf::{BAF_TABLE, baf_score, baf_shared_top};
pub use detour::round_half_away_2dp;
pub use standings::compare_games;

/// The catalogue of scoring systems, one line each: `(Variant, "cli-name", "GRAPHQL_NAME",
/// ResultKind, "one-line description")`. It invokes `$callback! { … }` with the list, so
/// every crate that needs a per-system item (this crate's [`ScoringSystem`], the gateway's
/// GraphQL enum) generates it from this one list: adding a system is one line here plus its
/// module. The CLI names are the serde names stored in events and never change.
#[macro_export]
macro_rules! scoring_systems {
    ($callback:ident) => {
        $callback! {
            (Placement, "placement", "PLACEMENT", Placement,
                "League points from finishing position in all-vs-all games (docs/scoring.md#placement)."),
            (Baf, "baf", "BAF", Diplomacy,
                "Diplomacy, Baf system (docs/scoring.md#baf)."),
            (Detour98f, "detour98f", "DETOUR_98F", Diplomacy,
                "Diplomacy, DAANZ Detour 98f (docs/scoring.md#detour-98f)."),
            (Squares, "squares", "SQUARES", Diplomacy,
                "Diplomacy, DAANZ Squares, also dipvis's Sum of Squares (docs/scoring.md#squares)."),
            (BlueMax, "bluemax", "BLUE_MAX", Teams,
                "Team game: Blue Max (docs/scoring.md#blue-max)."),
            (WoodenShips, "woodenships", "WOODEN_SHIPS", Teams,
                "Team game: Wooden Ships & Iron Men (docs/scoring.md#wooden-ships)."),
            (WoodenShipsLegacy, "woodenships-legacy", "WOODEN_SHIPS_LEGACY", Teams,
                "Team game: Wooden Ships & Iron Men, legacy rules (docs/scoring.md#wooden-ships-legacy)."),
            (SoloOrBust, "solo-or-bust", "SOLO_OR_BUST", Diplomacy,
                "Diplomacy: only a solo scores (docs/scoring.md#solo-or-bust)."),
            (DrawSize, "draw-size", "DRAW_SIZE", Diplomacy,
                "Diplomacy: the draw shares 100 points equally (docs/scoring.md#draw-size)."),
            (CDiplo100, "cdiplo100", "C_DIPLO_100", Diplomacy,
                "Diplomacy, C-Diplo 100 (docs/scoring.md#c-diplo)."),
            (CDiplo80, "cdiplo80", "C_DIPLO_80", Diplomacy,
                "Diplomacy, C-Diplo 80 (docs/scoring.md#c-diplo)."),
            (Bangkok, "bangkok", "BANGKOK", Diplomacy,
                "Diplomacy, Bangkok (docs/scoring.md#bangkok-and-olympic)."),
            (Olympic, "olympic", "OLYMPIC", Diplomacy,
                "Diplomacy, Olympic: Bangkok with other weights (docs/scoring.md#bangkok-and-olympic)."),
            (CarnageDeadEqual, "carnage-dead-equal", "CARNAGE_DEAD_EQUAL", Diplomacy,
                "Diplomacy, Carnage with dead equal (docs/scoring.md#carnage)."),
            (CarnageEliminationOrder, "carnage-elimination-order", "CARNAGE_ELIMINATION_ORDER", Diplomacy,
                "Diplomacy, Carnage with elimination order (docs/scoring.md#carnage)."),
            (CarnageCentreCount, "carnage-centre-count", "CARNAGE_CENTRE_COUNT", Diplomacy,
                "Diplomacy, centre-count Carnage (docs/scoring.md#carnage)."),
            (Carnage2023, "carnage-2023", "CARNAGE_2023", Diplomacy,
                "Diplomacy, Carnage 2023: elimination order plus a lead bonus (docs/scoring.md#carnage)."),
            (Tribute, "tribute", "TRIBUTE", Diplomacy,
                "Diplomacy, Tribute (docs/scoring.md#tribute)."),
            (Base3, "base3", "BASE_3", Diplomacy,
                "Diplomacy, Base 3 (docs/scoring.md#base-3)."),
            (CDiploNamur, "cdiplo-namur", "C_DIPLO_NAMUR", Diplomacy,
                "Diplomacy, C-Diplo Namur (docs/scoring.md#c-diplo-namur)."),
            (OpenTribute, "opentribute", "OPEN_TRIBUTE", Diplomacy,
                "Diplomacy, OpenTribute (docs/scoring.md#opentribute)."),
            (Mischief, "mischief", "MISCHIEF", Diplomacy,
                "Diplomacy, Mischief (docs/scoring.md#mischief)."),
            (Omg, "omg", "OMG", Diplomacy,
                "Diplomacy, Open Mind the Gap (docs/scoring.md#omg)."),
            (Vulcan, "vulcan", "VULCAN", Diplomacy,
                "Diplomacy, Vulcan (docs/scoring.md#vulcan)."),
            (YourDrawSizeShort, "your-draw-size-short", "YOUR_DRAW_SIZE_SHORT", Diplomacy,
                "Diplomacy, Your Draw Size for short games (docs/scoring.md#your-draw-size)."),
            (YourDrawSizeUnlimited, "your-draw-size-unlimited", "YOUR_DRAW_SIZE_UNLIMITED", Diplomacy,
                "Diplomacy, Your Draw Size for unlimited games (docs/scoring.md#your-draw-size)."),
            (DuctTapeV2, "duct-tape-v2", "DUCT_TAPE_V2", Diplomacy,
                "Diplomacy, Duct Tape V2 (docs/scoring.md#duct-tape-v2)."),
            (DuctTapeV2EliminationOrder, "duct-tape-v2-elimination-order", "DUCT_TAPE_V2_ELIMINATION_ORDER", Diplomacy,
                "Diplomacy, Duct Tape V2 with elimination order (docs/scoring.md#duct-tape-v2)."),
            (SouthernSun, "southern-sun", "SOUTHERN_SUN", Diplomacy,
                "Diplomacy, Southern Sun (docs/scoring.md#southern-sun)."),
            (SydneyLeague, "sydney-league", "SYDNEY_LEAGUE", Diplomacy,
                "Diplomacy, Sydney League (docs/scoring.md#sydney-league)."),
            (WorldClassic, "world-classic", "WORLD_CLASSIC", Diplomacy,
                "Diplomacy, World Classic (docs/scoring.md#world-classic-and-summer-classic)."),
            (SummerClassic, "summer-classic", "SUMMER_CLASSIC", Diplomacy,
                "Diplomacy, Summer Classic (docs/scoring.md#world-classic-and-summer-classic)."),
            (Whipping, "whipping", "WHIPPING", Diplomacy,
                "Diplomacy, Whipping (docs/scoring.md#whipping)."),
            (Detour09, "detour09", "DETOUR_09", Diplomacy,
                "Diplomacy, Detour09 (docs/scoring.md#detour09)."),
            (BangkokPike, "bangkok-pike", "BANGKOK_PIKE", Diplomacy,
                "Diplomacy, Bangkok Pike (docs/scoring.md#bangkok-pike)."),
            (Haight, "haight", "HAIGHT", Diplomacy,
                "Diplomacy, Haight v1.0 (docs/scoring.md#haight)."),
            (ManorCon, "manorcon", "MANORCON", Diplomacy,
                "Diplomacy, ManorCon (docs/scoring.md#manorcon)."),
            (ManorConOriginal, "manorcon-original", "MANORCON_ORIGINAL", Diplomacy,
                "Diplomacy, Original ManorCon (docs/scoring.md#manorcon)."),
            (ManorConV2, "manorcon-v2", "MANORCON_V2", Diplomacy,
                "Diplomacy, ManorCon v2 (docs/scoring.md#manorcon)."),
            (RankedClassic, "ranked-classic", "RANKED_CLASSIC", Diplomacy,
                "Diplomacy, Ranked Classic (docs/scoring.md#ranked-classic)."),
            (Maxonian, "maxonian", "MAXONIAN", Diplomacy,
                "Diplomacy, Maxonian (docs/scoring.md#maxonian-and-7eleven)."),
            (SevenEleven, "7eleven", "SEVEN_ELEVEN", Diplomacy,
                "Diplomacy, 7Eleven (docs/scoring.md#maxonian-and-7eleven)."),
        }
    };
}

/// Expands the catalogue into [`ScoringSystem`] and its per-system facts.
macro_rules! define_scoring_system {
    ($(($variant:ident, $name:tt, $graphql:tt, $kind:ident, $doc:tt)),* $(,)?) => {
        /// Every scoring system the platform knows. The serde names are the CLI names
        /// ([`ScoringSystem::name`]), stored in events: they never change.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ScoringSystem {
            $(
                #[doc = $doc]
                #[serde(rename = $name)]
                $variant,
            )*
        }

        impl ScoringSystem {
            /// Every system, in catalogue order.
            pub const ALL: &'static [ScoringSystem] = &[$(ScoringSystem::$variant),*];

            /// The name used by the CLI and stored in events; same as the serde name.
            pub fn name(self) -> &'static str {
                match self {
                    $(ScoringSystem::$variant => $name,)*
                }
            }

            /// The GraphQL enum value (`DETOUR_98F`).
            pub fn graphql_name(self) -> &'static str {
                match self {
                    $(ScoringSystem::$variant => $graphql,)*
                }
            }

            /// One line saying what the system is, with its `docs/scoring.md` section.
            pub fn description(self) -> &'static str {
                match self {
                    $(ScoringSystem::$variant => $doc,)*
                }
            }

            /// Which [`GameResult`] shape the system scores.
            pub fn result_kind(self) -> ResultKind {
                match self {
                    $(ScoringSystem::$variant => ResultKind::$kind,)*
                }
            }
        }
    };
}

scoring_systems!(define_scoring_system);

impl ScoringSystem {
    /// True for the seven-power Diplomacy systems.
    pub fn is_diplomacy(self) -> bool {
        self.result_kind() == ResultKind::Diplomacy
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

    /// Parses a system name (exact, lower case); an unknown name is
    /// [`ScoringError::UnknownSystem`] (field `system`).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        ScoringSystem::ALL
            .iter()
            .copied()
            .find(|system| system.name() == name)
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
    /// concession to it. Left out of the JSON when false, so results stored before the field
    /// existed read and hash exactly as they did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_draw: bool,
    /// The soloist's game year in which it reached its solo, the year the game ended
    /// (`docs/scoring.md#draws-and-concessions`): systems paying the powers that lost to a
    /// solo by the years they played need it. Only a power on 18 or more centres carries it;
    /// left out of the JSON when absent, so earlier results read and hash as they did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solo_year: Option<i32>,
    /// The power's centre counts at the end of earlier years, the latest first (the year
    /// before the final count, then the one before…), which Maxonian and 7Eleven use to break
    /// ties on centres (`docs/scoring.md#maxonian-and-7eleven`). Optional; left out of the JSON
    /// when empty, so earlier results read and hash as they did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_centres: Vec<u32>,
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

fn score_with(
    system: ScoringSystem,
    result: &GameResult,
    explain: Explain,
) -> Result<ScoredGame, ScoringError> {
    let players = match (system, result) {
        (ScoringSystem::Placement, GameResult::Placement(entries)) => {
            validate::placement(entries)?;
            placement::score(entries, explain)
        }
        (ScoringSystem::Baf, GameResult::Diplomacy(entries)) => {
            validate::diplomacy(entries)?;
            baf::score(entries, explain)?
        }
        (ScoringSystem::Detour98f, GameResult::Diplomacy(entries)) => {
            validate::diplomacy(entries)?;
            detour::score(entries, explain)
        }
        (ScoringSystem::Squares, GameResult::Diplomacy(entries)) => {
            validate::diplomacy(entries)?;
            squares::score(entries, explain)
        }
        (system, GameResult::Diplomacy(entries)) if system.is_diplomacy() => {
            validate::diplomacy(entries)?;
            systems::score(system, entries, explain)?
        }
        (ScoringSystem::BlueMax, GameResult::Teams(teams)) => {
            validate::teams(system, teams)?;
            bluemax::score(teams, bluemax::KillPoints::Counted, explain)
        }
        (ScoringSystem::WoodenShipsLegacy, GameResult::Teams(teams)) => {
            validate::teams(system, teams)?;
            bluemax::score(teams, bluemax::KillPoints::NotCounted, explain)
        }
        (ScoringSystem::WoodenShips, GameResult::Teams(teams)) => {
            validate::teams(system, teams)?;
            woodenships::score(teams, explain)
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

/// [`rank_standings_with`] over any list of scored games, with the caller's own identity for
/// each row's player: `rows` gives a game's rows (what [`ScoredGame::players`] holds) and
/// `key` the player of its row `row`. Equal keys are the same player; players still level
/// after every tie-breaker are listed in key order. Ranking by a small copyable key (a typed
/// id) instead of the rows' names hashes, compares and copies no strings: the read side
/// ranks every league of a replayed log this way.
pub fn rank_standings_keyed<'a, G, K>(
    games: &'a [G],
    aggregation: Aggregation,
    rows: impl Fn(&'a G) -> &'a [PlayerGameScore],
    key: impl Fn(&'a G, usize) -> K,
) -> Vec<Standing<K>>
where
    K: Copy + Ord + std::hash::Hash,
{
    standings::rank_keyed(games, aggregation, rows, key)
}
