//! `league score` and `league standings`: offline scoring of games read as JSON.

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct ScoreArgs {}

#[derive(Debug, clap::Args)]
pub struct StandingsArgs {}

pub fn score(_args: ScoreArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}

pub fn standings(_args: StandingsArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
