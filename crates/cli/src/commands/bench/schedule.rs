//! `league bench schedule`.

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
