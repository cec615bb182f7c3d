//! `league migrate` and `league verify`: schema management and the hash-chain check.

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct MigrateArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

pub async fn migrate(_args: MigrateArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}

pub async fn verify(_args: VerifyArgs) -> Result<ExitCode, CliError> {
    Err(crate::CliError::Failed(anyhow::anyhow!("not implemented yet")))
}
