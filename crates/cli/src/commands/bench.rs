//! `league bench`: benchmarks that print figures beside a same-run baseline.

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

pub async fn run(_args: BenchArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
