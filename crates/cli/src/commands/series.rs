//! `league series …`: series of tournaments and leagues (`docs/series.md`), as the site admin:
//! create one, add or remove a member event, print its standings with the attendance grid
//! (JSON, or the same export as CSV). Refusals are the domain's, with a non-zero exit.

use std::process::ExitCode;

use league_app::{App, CommandOptions};
use league_domain::{
    Actor, AddSeriesEvent, CreateSeries, RemoveSeriesEvent, SeriesBasis, SeriesId,
};
use uuid::Uuid;

use super::personal::refused;
use super::replay::{open_app, parse_uuid, print_json};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct SeriesArgs {
    #[command(subcommand)]
    pub command: SeriesCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum SeriesCommand {
    /// Create a series; prints its id.
    Create(CreateArgs),
    /// Add a league or tournament to a series.
    Add(MemberArgs),
    /// Take a league or tournament out of a series.
    Remove(MemberArgs),
    /// Print a series' standings with the attendance grid (JSON, or CSV with `--csv`).
    Standings(StandingsArgs),
}

#[derive(Debug, clap::Args)]
pub struct CreateArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    #[arg(long)]
    pub name: String,
    /// How many of each player's results count (best N).
    #[arg(long, value_name = "N")]
    pub best: u32,
    /// `rank-points` (players ranked − rank + 1) or `score` (the event's own total).
    #[arg(long, default_value = "rank-points")]
    pub basis: String,
}

#[derive(Debug, clap::Args)]
pub struct MemberArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The series (UUID).
    #[arg(long, value_name = "ID")]
    pub series: String,
    /// The league or tournament (UUID).
    #[arg(long, value_name = "ID")]
    pub event: String,
}

#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The series (UUID).
    #[arg(long, value_name = "ID")]
    pub series: String,
    /// Print the export's CSV (rank, player, total, attended, a column per event) instead.
    #[arg(long)]
    pub csv: bool,
}

pub async fn run(args: SeriesArgs) -> Result<ExitCode, CliError> {
    match args.command {
        SeriesCommand::Create(args) => create(args).await,
        SeriesCommand::Add(args) => member(args, true).await,
        SeriesCommand::Remove(args) => member(args, false).await,
        SeriesCommand::Standings(args) => standings(args).await,
    }
}

async fn create(args: CreateArgs) -> Result<ExitCode, CliError> {
    let basis: SeriesBasis =
        args.basis.parse().map_err(|e| CliError::BadInput(format!("--basis: {e}")))?;
    let app = open_app(&args.database.url).await?;
    let series_id = SeriesId::from(Uuid::now_v7());
    let command =
        CreateSeries { actor: Actor::Admin, series_id, name: args.name, best: args.best, basis };
    execute(&app, command.into()).await?;
    super::write_stdout(&format!("{series_id}\n"))?;
    Ok(ExitCode::SUCCESS)
}

async fn member(args: MemberArgs, add: bool) -> Result<ExitCode, CliError> {
    let series_id = SeriesId::from(parse_uuid("--series", &args.series)?);
    let competition = parse_uuid("--event", &args.event)?;
    let app = open_app(&args.database.url).await?;
    let actor = Actor::Admin;
    let command: league_app::AppCommand = if add {
        AddSeriesEvent { actor, series_id, competition }.into()
    } else {
        RemoveSeriesEvent { actor, series_id, competition }.into()
    };
    execute(&app, command).await?;
    Ok(ExitCode::SUCCESS)
}

async fn standings(args: StandingsArgs) -> Result<ExitCode, CliError> {
    let id = parse_uuid("--series", &args.series)?;
    let app = open_app(&args.database.url).await?;
    let export = app.series_export(id).await.map_err(refused)?;
    if args.csv {
        super::write_stdout(&export.to_csv().map_err(refused)?)?;
    } else {
        print_json(&export)?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn execute(app: &App, command: league_app::AppCommand) -> Result<(), CliError> {
    app.execute(command, CommandOptions::default()).await.map_err(refused)?;
    Ok(())
}
