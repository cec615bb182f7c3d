//! `league schedule`: prints every game of a league (scheduling crate).

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct ScheduleArgs {}

pub fn run(_args: ScheduleArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
