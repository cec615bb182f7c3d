//! `league serve`: runs the GraphQL gateway.

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

pub async fn run(_args: ServeArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
