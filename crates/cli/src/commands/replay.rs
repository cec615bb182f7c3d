//! `league replay`, `league audit`, `league rescore`: the read side from the log.

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

#[derive(Debug, clap::Args)]
pub struct RescoreArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

pub async fn replay(_args: ReplayArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}

pub async fn audit(_args: AuditArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}

pub async fn rescore(_args: RescoreArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
