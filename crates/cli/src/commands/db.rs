//! `league migrate` and `league verify`: schema management and the hash-chain check.

use std::process::ExitCode;

use anyhow::Context;
use league_store::{EventStore, StoreError};

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

/// Opens the store named by `url`; a URL that names no supported database is bad input.
pub async fn connect(url: &str) -> Result<EventStore, CliError> {
    match EventStore::connect(url).await {
        Ok(store) => Ok(store),
        Err(error @ StoreError::UnsupportedDatabase { .. }) => {
            Err(CliError::BadInput(error.to_string()))
        }
        Err(error) => {
            Err(CliError::Failed(anyhow::Error::new(error).context("cannot open the database")))
        }
    }
}

/// Creates or upgrades the schema; prints one line.
pub async fn migrate(args: MigrateArgs) -> Result<ExitCode, CliError> {
    let store = connect(&args.database.url).await?;
    store.migrate().await.context("migration failed")?;
    super::write_stdout(&format!("ok: schema up to date ({:?})\n", store.backend()))?;
    Ok(ExitCode::SUCCESS)
}

/// Walks the hash chain: `ok: N events verified` (exit 0), or the first bad position on
/// stderr (exit 1).
pub async fn verify(args: VerifyArgs) -> Result<ExitCode, CliError> {
    let store = connect(&args.database.url).await?;
    let report = store.verify().await.context("cannot read the event log")?;
    match report.first_bad {
        None => {
            super::write_stdout(&format!("ok: {} events verified\n", report.events_verified))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(first_bad) => Err(CliError::Failed(anyhow::anyhow!(
            "the event log has been tampered with at {first_bad} ({} events before it are intact)",
            report.events_verified
        ))),
    }
}
