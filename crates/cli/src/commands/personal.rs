//! `league erase-player` and `league export-player`: a person's data, as the site operator
//! (the site admin) handles erasure and access requests (`docs/personal-data.md`).

use std::process::ExitCode;

use league_app::{AppError, CommandOptions, ErrorCode};
use league_domain::{Actor, ErasePlayer};

use super::replay::{open_app, parse_uuid, print_json};
use crate::CliError;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Cannot be undone: the player's key is deleted, their name can never be read \
                  again, and they show as their pseudonym everywhere; their results stay."
)]
pub struct EraseArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The player (UUID).
    #[arg(value_name = "PLAYER_ID")]
    pub player: String,
    /// Why (kept in the log with the erasure), e.g. "the player asked by email on 2026-11-25".
    #[arg(long)]
    pub reason: String,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Prints JSON to stdout: league export-player PLAYER_ID > player.json")]
pub struct ExportArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The player (UUID).
    #[arg(value_name = "PLAYER_ID")]
    pub player: String,
}

/// A refusal is bad input (exit 2, nothing appended); anything else a failure.
pub(super) fn refused(error: AppError) -> CliError {
    match error.code() {
        ErrorCode::Internal | ErrorCode::Unavailable => CliError::Failed(error.into()),
        _ => CliError::BadInput(error.to_string()),
    }
}

/// Erases the player as the site admin; prints the pseudonym they show as from now on.
pub async fn erase(args: EraseArgs) -> Result<ExitCode, CliError> {
    let player_id = parse_uuid("PLAYER_ID", &args.player)?;
    let app = open_app(&args.database.url).await?;
    let command =
        ErasePlayer { actor: Actor::Admin, player_id: player_id.into(), reason: args.reason };
    let executed = app.execute(command, CommandOptions::default()).await.map_err(refused)?;
    let shown = app.catalog().player(player_id).map(|p| p.name.clone()).unwrap_or_default();
    super::write_stdout(&format!(
        "ok: player {player_id} erased at position {}; shown as {shown:?} from now on\n",
        executed.last_position
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Prints everything the platform holds about the player as JSON.
pub async fn export(args: ExportArgs) -> Result<ExitCode, CliError> {
    let player = parse_uuid("PLAYER_ID", &args.player)?;
    let app = open_app(&args.database.url).await?;
    let data = app.personal_data(Actor::Admin, player).await.map_err(refused)?;
    print_json(&data)?;
    Ok(ExitCode::SUCCESS)
}
