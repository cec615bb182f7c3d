//! `league tournament …`: a tournament read from the log (`docs/tournaments.md`): re-run every
//! recorded seeding and say whether it gives the same boards, print the standings (after a
//! round, at a point in history) or a round's board call.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Arc;

use league_app::{App, AppError, AsOf};
use league_domain::Tournament;

use super::replay::{open_app, parse_uuid, print_json};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    #[command(subcommand)]
    pub command: TournamentCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum TournamentCommand {
    /// Re-run every recorded seeding from the events before it: exit 1 unless each gives the
    /// recorded inputs' digest and boards.
    VerifySeeding(TournamentRef),
    /// Print the standings as JSON: round scores (dropped ones marked), total, rank.
    Standings(StandingsArgs),
    /// Print a round's board call: each board's seats (powers) and players.
    Boards(BoardsArgs),
}

#[derive(Debug, clap::Args)]
pub struct TournamentRef {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The tournament (UUID).
    #[arg(long, value_name = "ID")]
    pub tournament: String,
}

#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// Standings after this round (default: every round so far).
    #[arg(long, value_name = "N")]
    pub after_round: Option<u32>,
    /// Standings as of this global log position.
    #[arg(long, value_name = "POSITION")]
    pub to_position: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct BoardsArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The round (1-based).
    #[arg(long, value_name = "N")]
    pub round: u32,
}

pub async fn run(args: TournamentArgs) -> Result<ExitCode, CliError> {
    match args.command {
        TournamentCommand::VerifySeeding(of) => verify_seeding(of).await,
        TournamentCommand::Standings(args) => standings(args).await,
        TournamentCommand::Boards(args) => boards(args).await,
    }
}

/// The app over the database and the tournament's id; an unknown tournament is bad input.
async fn open(of: &TournamentRef) -> Result<(App, uuid::Uuid), CliError> {
    let id = parse_uuid("--tournament", &of.tournament)?;
    let app = open_app(&of.database.url).await?;
    if app.catalog().tournament(id).is_none() {
        return Err(CliError::BadInput(format!("--tournament: no tournament {id} in this log")));
    }
    Ok((app, id))
}

fn failed(error: AppError) -> CliError {
    CliError::Failed(error.into())
}

async fn verify_seeding(of: TournamentRef) -> Result<ExitCode, CliError> {
    let (app, id) = open(&of).await?;
    let checks = app.verify_seeding(id).await.map_err(failed)?;
    let mut text = String::new();
    for check in &checks {
        let verdict = if check.verified() { "verified" } else { "MISMATCH" };
        let _ = write!(
            text,
            "round {}: {verdict} ({}, seed {}, inputs {})",
            check.round, check.algorithm, check.seed, check.recorded_digest
        );
        if check.recomputed_digest != check.recorded_digest && !check.recomputed_digest.is_empty() {
            let _ = write!(text, "; the log gives inputs {}", check.recomputed_digest);
        }
        if !check.boards_match && check.problem.is_none() {
            text.push_str("; the re-run seats other boards");
        }
        if let Some(problem) = &check.problem {
            let _ = write!(text, "; {problem}");
        }
        text.push('\n');
    }
    if checks.is_empty() {
        text.push_str("no round seeded yet\n");
    }
    super::write_stdout(&text)?;
    Ok(if checks.iter().all(|c| c.verified()) { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

async fn standings(args: StandingsArgs) -> Result<ExitCode, CliError> {
    let (app, id) = open(&args.of).await?;
    let state: Arc<Tournament> = match args.to_position {
        Some(position) => app.tournament_as_of(id, AsOf::Position(position)).await,
        None => app.existing_tournament(id).await,
    }
    .map_err(failed)?;
    let rows = state.standings(args.after_round).map_err(|e| failed(e.into()))?;
    print_json(&rows)?;
    Ok(ExitCode::SUCCESS)
}

async fn boards(args: BoardsArgs) -> Result<ExitCode, CliError> {
    let (app, id) = open(&args.of).await?;
    let state = app.existing_tournament(id).await.map_err(failed)?;
    let Some(round) = state.round(args.round) else {
        return Err(CliError::BadInput(format!("--round: round {} is not seeded", args.round)));
    };
    let labels = state.seat_labels();
    let name = |player| {
        app.catalog().player(player).map_or_else(|| player.to_string(), |p| p.name.clone())
    };
    let mut text = String::new();
    for board in &round.boards {
        let _ = writeln!(text, "Round {} — board {}", round.number, board.number);
        for (label, player) in labels.iter().zip(&board.seats) {
            let _ = writeln!(text, "  {label:<10} {}", name(*player));
        }
    }
    if !round.sitting_out.is_empty() {
        let names: Vec<String> = round.sitting_out.iter().map(|p| name(*p)).collect();
        let _ = writeln!(text, "Sitting out: {}", names.join(", "));
    }
    super::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
