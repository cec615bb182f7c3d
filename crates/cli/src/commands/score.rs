//! `league score` and `league standings`: offline scoring of games read as JSON (organisers
//! score offline tournaments with them). Bad input exits 2 with one line on stderr naming the
//! problem and prints nothing on stdout — except in a batch of games (`league score` with a
//! JSON array or JSON lines), where every good game is still answered and each bad one gets
//! an error object in its place and a line on stderr.

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
#[command(after_long_help = SCORE_BATCH_HELP)]
pub struct ScoreArgs {
    /// Scoring system by any of its names (`league systems` lists them; an unknown name lists
    /// every known one).
    #[arg(long, value_name = "NAME")]
    pub system: String,
    /// Game JSON file, or - for stdin (the default): one game, a JSON array of games, or
    /// JSON lines (one game per line).
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

/// How `league score` answers several games (`league score --help`).
const SCORE_BATCH_HELP: &str = "\
Several games in one call:
  A JSON array of games is answered with one JSON array, one answer per game in order.
  JSON lines (one whole game per line, blank lines skipped) are answered with JSON lines,
  one answer per game in order.
  A bad game among several does not stop the others: its place holds
  {\"error\":\"<field>: <problem>\",\"index\":N} (array, 0-based) or
  {\"error\":\"<field>: <problem>\",\"line\":N} (JSON lines, 1-based), stderr says which
  game it is, and the exit status is 2 once every game is answered (0 when all were good).
One game in (a JSON object) is answered with one JSON object, as always.";

/// `league score`: prints `{"system":…,"scores":[{"player":…,"score":…},…]}` in input order;
/// for several games, one such answer per game ([`SCORE_BATCH_HELP`]).
pub fn score(args: ScoreArgs) -> Result<ExitCode, CliError> {
    let system = parse_system(&args.system)?;
    let text = read_input(&args.input)?;
    let scorer = GameScorer { system, explain: args.explain };
    match Batch::of(&text) {
        Batch::One => {
            super::write_stdout(&format!("{}\n", scorer.answer(text.as_str())?))?;
            Ok(ExitCode::SUCCESS)
        }
        Batch::Array(games) => {
            let answers = scorer.answer_all(games.into_iter().enumerate(), "index", |index| {
                format!("game [{index}]")
            });
            let json: Vec<&str> = answers.iter().map(|answer| answer.json.as_str()).collect();
            super::write_stdout(&format!("[{}]\n", json.join(",")))?;
            Ok(batch_exit(&answers))
        }
        Batch::Lines(lines) => {
            let answers = scorer.answer_all(lines, "line", |line| format!("line {line}"));
            let text: String = answers.iter().map(|answer| format!("{}\n", answer.json)).collect();
            super::write_stdout(&text)?;
            Ok(batch_exit(&answers))
        }
    }
}

/// How the games of `league score` came in.
enum Batch<'a> {
    /// One game (a JSON object, or anything that is no batch: refused as one game).
    One,
    /// A JSON array of games.
    Array(Vec<serde_json::Value>),
    /// JSON lines: each non-blank line's number (1-based) and text.
    Lines(Vec<(usize, &'a str)>),
}

impl<'a> Batch<'a> {
    /// A JSON array is a batch; so is text that is not one JSON value but whose first
    /// non-blank line is a whole one (JSON lines). Anything else is read as one game, so a
    /// single game, pretty-printed or broken, is answered exactly as before batches.
    fn of(text: &'a str) -> Self {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Array(games)) => Batch::Array(games),
            Ok(_) => Batch::One,
            Err(_) => {
                let lines: Vec<(usize, &str)> = text
                    .lines()
                    .enumerate()
                    .map(|(index, line)| (index + 1, line))
                    .filter(|(_, line)| !line.trim().is_empty())
                    .collect();
                let first_is_whole = lines.first().is_some_and(|(_, line)| {
                    serde_json::from_str::<serde::de::IgnoredAny>(line).is_ok()
                });
                if lines.len() > 1 && first_is_whole { Batch::Lines(lines) } else { Batch::One }
            }
        }
    }
}

/// Scores games under one system, with or without explanations.
struct GameScorer {
    system: ScoringSystem,
    explain: bool,
}

/// One game's answer in a batch, as JSON text: its scores, or an error object naming the game.
struct BatchAnswer {
    json: String,
    bad: bool,
}

impl GameScorer {
    /// One game's answer as one line of JSON text (no newline), or the bad input that
    /// refuses it.
    fn answer(&self, game: impl JsonSource) -> Result<String, CliError> {
        let result = parse_game(self.system, game)?;
        let scored = if self.explain {
            league_scoring::score_game(self.system, &result)
        } else {
            league_scoring::score_game_unexplained(self.system, &result)
        }
        .map_err(|error| CliError::BadInput(error.to_string()))?;
        serde_json::to_string(&ScoreOutput::new(&scored, self.explain))
            .map_err(|error| CliError::Failed(error.into()))
    }

    /// Every game's answer in order: a bad game's is `{"error":…, key: position}`, and
    /// stderr names it (`which(position)`: `games[2]`, `line 3`).
    fn answer_all<G: JsonSource>(
        &self,
        games: impl IntoIterator<Item = (usize, G)>,
        key: &str,
        which: impl Fn(usize) -> String,
    ) -> Vec<BatchAnswer> {
        games
            .into_iter()
            .map(|(position, game)| match self.answer(game) {
                Ok(json) => BatchAnswer { json, bad: false },
                Err(error) => {
                    eprintln!("league: {}: {error}", which(position));
                    let json = serde_json::json!({ "error": error.to_string(), key: position });
                    BatchAnswer { json: json.to_string(), bad: true }
                }
            })
            .collect()
    }
}

/// Exit 2 when some game of the batch was bad input, else 0.
fn batch_exit(answers: &[BatchAnswer]) -> ExitCode {
    if answers.iter().any(|answer| answer.bad) { ExitCode::from(2) } else { ExitCode::SUCCESS }
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

/// Where game JSON is read from: the input's text, or one game of a JSON array already
/// parsed. Either reports the JSON path of a problem (`players[3].centres: …`).
trait JsonSource {
    fn decode<T: DeserializeOwned>(self) -> Result<T, CliError>;
}

impl JsonSource for &str {
    fn decode<T: DeserializeOwned>(self) -> Result<T, CliError> {
        let mut deserializer = serde_json::Deserializer::from_str(self);
        let value = serde_path_to_error::deserialize(&mut deserializer).map_err(path_error)?;
        deserializer
            .end()
            .map_err(|error| CliError::BadInput(format!("invalid game JSON: {error}")))?;
        Ok(value)
    }
}

impl JsonSource for serde_json::Value {
    fn decode<T: DeserializeOwned>(self) -> Result<T, CliError> {
        serde_path_to_error::deserialize(self).map_err(path_error)
    }
}

/// A deserialisation error as bad input naming the JSON path of the problem.
fn path_error(error: serde_path_to_error::Error<serde_json::Error>) -> CliError {
    let path = error.path().to_string();
    let inner = error.into_inner();
    match path.as_str() {
        "." => CliError::BadInput(format!("invalid game JSON: {inner}")),
        _ => CliError::BadInput(format!("{path}: {inner}")),
    }
}

fn parse_game(system: ScoringSystem, game: impl JsonSource) -> Result<GameResult, CliError> {
    Ok(match system.result_kind() {
        ResultKind::Placement => {
            GameResult::Placement(game.decode::<PlayersGame<PlacementEntry>>()?.players)
        }
        ResultKind::Diplomacy => {
            GameResult::Diplomacy(game.decode::<PlayersGame<DiplomacyEntry>>()?.players)
        }
        ResultKind::Teams => GameResult::Teams(game.decode::<TeamResult>()?),
    })
}

fn parse_games(system: ScoringSystem, text: &str) -> Result<Vec<GameResult>, CliError> {
    Ok(match system.result_kind() {
        ResultKind::Placement => text
            .decode::<GamesFile<PlayersGame<PlacementEntry>>>()?
            .games
            .into_iter()
            .map(|game| GameResult::Placement(game.players))
            .collect(),
        ResultKind::Diplomacy => text
            .decode::<GamesFile<PlayersGame<DiplomacyEntry>>>()?
            .games
            .into_iter()
            .map(|game| GameResult::Diplomacy(game.players))
            .collect(),
        ResultKind::Teams => text
            .decode::<GamesFile<TeamResult>>()?
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
