//! `league score` and `league standings`: offline scoring of games read as JSON (organisers
//! score offline tournaments with them). Bad input exits 2 with one line on stderr naming the
//! problem and prints nothing on stdout.

use std::io::Read;
use std::process::ExitCode;

use league_scoring::{
    Aggregation, DiplomacyEntry, GameResult, PlacementEntry, ResultKind, ScoredGame, ScoringSystem,
    Standing, TeamResult,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// Scoring system by name (docs/scoring.md lists them; an unknown name lists every known one).
    #[arg(long, value_name = "NAME")]
    pub system: String,
    /// Game JSON file, or - for stdin (the default).
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: String,
    /// Add, per player, the lines that make up the score.
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    /// Scoring system by name (docs/scoring.md lists them; an unknown name lists every known one).
    #[arg(long, value_name = "NAME")]
    pub system: String,
    /// `{"games":[game,…]}` JSON file, or - for stdin (the default).
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: String,
    /// How game scores make the total: sum (the default), best:N (each player's N best
    /// games) or average (per game played); docs/scoring.md#league-aggregation.
    #[arg(long, value_name = "AGGREGATION", default_value = "sum")]
    pub aggregation: String,
}

/// `league score`: prints `{"system":…,"scores":[{"player":…,"score":…},…]}` in input order.
pub fn score(args: ScoreArgs) -> Result<ExitCode, CliError> {
    let system = parse_system(&args.system)?;
    let text = read_input(&args.input)?;
    let result = parse_game(system, &text)?;
    let scored = if args.explain {
        league_scoring::score_game(system, &result)
    } else {
        league_scoring::score_game_unexplained(system, &result)
    }
    .map_err(|error| CliError::BadInput(error.to_string()))?;
    print_json(&ScoreOutput::new(&scored, args.explain))
}

/// `league standings`: prints
/// `{"standings":[{"rank":…,"player":…,"total":…,"wins":…,"draws":…,"games":…}]}` (plus
/// `"counted"` under best N), totals under `--aggregation`.
pub fn standings(args: StandingsArgs) -> Result<ExitCode, CliError> {
    let system = parse_system(&args.system)?;
    let aggregation: Aggregation = args
        .aggregation
        .trim()
        .parse()
        .map_err(|error: league_scoring::ScoringError| CliError::BadInput(error.to_string()))?;
    let text = read_input(&args.input)?;
    let results = parse_games(system, &text)?;
    let scored = results
        .iter()
        .enumerate()
        .map(|(index, result)| {
            league_scoring::score_game_unexplained(system, result)
                .map_err(|error| CliError::BadInput(format!("games[{index}].{error}")))
        })
        .collect::<Result<Vec<ScoredGame>, CliError>>()?;
    print_json(&StandingsOutput {
        standings: league_scoring::rank_standings_with(&scored, aggregation),
    })
}

fn parse_system(name: &str) -> Result<ScoringSystem, CliError> {
    name.parse()
        .map_err(|error: league_scoring::ScoringError| CliError::BadInput(error.to_string()))
}

fn read_input(input: &str) -> Result<String, CliError> {
    let mut text = String::new();
    let read = if input == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(input).map(|content| text = content)
    };
    read.map_err(|error| {
        let source = if input == "-" { "standard input".to_owned() } else { input.to_owned() };
        CliError::BadInput(format!("cannot read {source}: {error}"))
    })?;
    Ok(text)
}

/// Game JSON of the Diplomacy and placement systems: `{"players":[…]}`.
#[derive(Debug, Deserialize)]
struct PlayersGame<T> {
    players: Vec<T>,
}

/// Standings input: `{"games":[game,…]}`.
#[derive(Debug, Deserialize)]
struct GamesFile<G> {
    games: Vec<G>,
}

/// Deserialises `text`, reporting the JSON path of the problem (`players[3].centres: …`).
fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, CliError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        match path.as_str() {
            "." => CliError::BadInput(format!("invalid game JSON: {inner}")),
            _ => CliError::BadInput(format!("{path}: {inner}")),
        }
    })?;
    deserializer
        .end()
        .map_err(|error| CliError::BadInput(format!("invalid game JSON: {error}")))?;
    Ok(value)
}

fn parse_game(system: ScoringSystem, text: &str) -> Result<GameResult, CliError> {
    Ok(match system.result_kind() {
        ResultKind::Placement => {
            GameResult::Placement(from_json::<PlayersGame<PlacementEntry>>(text)?.players)
        }
        ResultKind::Diplomacy => {
            GameResult::Diplomacy(from_json::<PlayersGame<DiplomacyEntry>>(text)?.players)
        }
        ResultKind::Teams => GameResult::Teams(from_json::<TeamResult>(text)?),
    })
}

fn parse_games(system: ScoringSystem, text: &str) -> Result<Vec<GameResult>, CliError> {
    Ok(match system.result_kind() {
        ResultKind::Placement => from_json::<GamesFile<PlayersGame<PlacementEntry>>>(text)?
            .games
            .into_iter()
            .map(|game| GameResult::Placement(game.players))
            .collect(),
        ResultKind::Diplomacy => from_json::<GamesFile<PlayersGame<DiplomacyEntry>>>(text)?
            .games
            .into_iter()
            .map(|game| GameResult::Diplomacy(game.players))
            .collect(),
        ResultKind::Teams => from_json::<GamesFile<TeamResult>>(text)?
            .games
            .into_iter()
            .map(GameResult::Teams)
            .collect(),
    })
}

#[derive(Debug, Serialize)]
struct ScoreOutput<'a> {
    system: ScoringSystem,
    scores: Vec<ScoreLine<'a>>,
}

#[derive(Debug, Serialize)]
struct ScoreLine<'a> {
    player: &'a str,
    score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<&'a [String]>,
}

impl<'a> ScoreOutput<'a> {
    fn new(scored: &'a ScoredGame, explain: bool) -> Self {
        let scores = scored
            .players
            .iter()
            .map(|row| ScoreLine {
                player: &row.player,
                score: row.score,
                explanation: explain.then_some(row.explanation.as_slice()),
            })
            .collect();
        ScoreOutput { system: scored.system, scores }
    }
}

#[derive(Debug, Serialize)]
struct StandingsOutput {
    standings: Vec<Standing>,
}

fn print_json(value: &impl Serialize) -> Result<ExitCode, CliError> {
    let line = serde_json::to_string(value).map_err(|error| CliError::Failed(error.into()))?;
    super::write_stdout(&format!("{line}\n"))?;
    Ok(ExitCode::SUCCESS)
}
