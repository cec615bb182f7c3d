//! [`LeagueSettings`]: everything a league is created with, as one value. The command
//! carries it, the `LeagueCreated` event stores it (flattened, so the stored JSON is the
//! settings' fields beside the league id), and every read model keeps it as it came, so a
//! new setting is one field here plus its rule and its GraphQL field.

use league_scoring::{Aggregation, ScoringSystem};
use serde::{Deserialize, Serialize};

/// A league's fixed settings (`docs/scheduling.md#league-life-cycle`). The field order is the
/// stored JSON's key order: keep it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueSettings {
    pub name: String,
    /// The board game played (e.g. "Diplomacy").
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_version: Option<String>,
    pub scoring_system: ScoringSystem,
    /// k: seats per game.
    pub players_per_game: u32,
    /// N: players in the league (8 by default).
    pub size: u32,
    /// s: times each player takes each seat (games per player = k·s, total games = N·s).
    pub games_per_seat: u32,
    /// The "active player" eligibility (`docs/scheduling.md#league-life-cycle`) (≥ 5 games
    /// finished in the last 90 days).
    pub require_active_players: bool,
    /// How game scores make the standings total (`docs/scoring.md#league-aggregation`). Left
    /// out of the JSON when it is the default (sum), so leagues created before the setting
    /// existed read and hash exactly as they did.
    #[serde(default, skip_serializing_if = "Aggregation::is_sum")]
    pub aggregation: Aggregation,
}

impl LeagueSettings {
    /// The settings of a league of `players_per_game` seats with every other setting at its
    /// documented default: no game version, size 8 (`docs/scheduling.md#league-life-cycle`),
    /// games per seat from `docs/scheduling.md#games-per-league` for `players_per_game`
    /// (0 where that table has none: creating the league then asks for it), eligibility
    /// off, aggregation sum (`docs/scoring.md#league-aggregation`). Callers override what
    /// they were given: `LeagueSettings { size: 6, ..LeagueSettings::new(…) }`.
    pub fn new(
        name: impl Into<String>,
        game: impl Into<String>,
        scoring_system: ScoringSystem,
        players_per_game: u32,
    ) -> Self {
        LeagueSettings {
            name: name.into(),
            game: game.into(),
            game_version: None,
            scoring_system,
            players_per_game,
            size: DEFAULT_LEAGUE_SIZE,
            games_per_seat: default_games_per_seat(players_per_game).unwrap_or(0),
            require_active_players: false,
            aggregation: Aggregation::Sum,
        }
    }
}

/// `docs/scheduling.md#league-life-cycle`, league size: "A league is composed by a variable number
/// of games played among 8 players".
pub const DEFAULT_LEAGUE_SIZE: u32 = 8;

/// The games per seat s of `docs/scheduling.md#games-per-league` for k players per game, if
/// the table has k.
pub fn default_games_per_seat(players_per_game: u32) -> Option<u32> {
    league_scheduling::default_games_per_seat(players_per_game as usize)
        .and_then(|s| u32::try_from(s).ok())
}
