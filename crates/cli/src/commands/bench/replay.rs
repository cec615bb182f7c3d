//! `league bench replay`.

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub database: crate::commands::DatabaseArgs,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
