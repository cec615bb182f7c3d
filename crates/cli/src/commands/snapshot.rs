//! `league snapshot take|show|verify|drop`: the catalog snapshot a start begins from
//! (`docs/architecture.md#snapshots`). The server keeps one fresh by itself; an operator
//! takes one after an import (so the first start is quick), checks one against the log, or
//! drops one (the next start folds the whole log). None of this touches the log.

use std::process::ExitCode;

use anyhow::Context as _;
use league_projections::{CATALOG_SNAPSHOT, SnapshotCheck, verify_catalog_snapshot};
use league_store::Snapshot;

use super::db::connect;
use super::replay::open_app;
use super::write_stdout;
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct SnapshotArgs {
    #[command(subcommand)]
    pub action: SnapshotAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum SnapshotAction {
    /// Fold the catalog (from the current snapshot, if usable) and store a new snapshot.
    Take(SnapshotDatabase),
    /// Print the stored snapshot's position, chain hash, format, size and time.
    Show(SnapshotDatabase),
    /// Check the stored snapshot: intact, readable by this build, taken from this log, and
    /// byte for byte a fresh fold of the log up to its position (exit 1 otherwise).
    Verify(SnapshotDatabase),
    /// Delete the stored snapshot (the next start folds the whole log).
    Drop(SnapshotDatabase),
}

#[derive(Debug, clap::Args)]
pub struct SnapshotDatabase {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

pub async fn run(args: SnapshotArgs) -> Result<ExitCode, CliError> {
    match args.action {
        SnapshotAction::Take(args) => {
            let app = open_app(&args.database.url).await?;
            let snapshot = app.take_catalog_snapshot().await.context("cannot take a snapshot")?;
            write_stdout(&format!("ok: catalog snapshot taken\n{}", describe(&snapshot)))?;
            Ok(ExitCode::SUCCESS)
        }
        SnapshotAction::Show(args) => {
            let store = connect(&args.database.url).await?;
            store.migrate().await.context("migration failed")?;
            match store.snapshot(CATALOG_SNAPSHOT).await.context("cannot read the snapshot")? {
                Some(snapshot) => write_stdout(&describe(&snapshot))?,
                None => write_stdout("no catalog snapshot\n")?,
            }
            Ok(ExitCode::SUCCESS)
        }
        SnapshotAction::Verify(args) => {
            let store = connect(&args.database.url).await?;
            store.migrate().await.context("migration failed")?;
            let check = verify_catalog_snapshot(&store).await.context("cannot verify")?;
            match check {
                SnapshotCheck::Verified { position, body_bytes } => {
                    write_stdout(&format!(
                        "ok: the catalog snapshot at position {position} ({body_bytes} bytes) \
                         equals a fold of the log\n"
                    ))?;
                    Ok(ExitCode::SUCCESS)
                }
                SnapshotCheck::Missing => {
                    write_stdout("no catalog snapshot\n")?;
                    Ok(ExitCode::SUCCESS)
                }
                SnapshotCheck::Rejected(why) => Err(CliError::Failed(anyhow::anyhow!(
                    "the catalog snapshot is not used by a start: {why}"
                ))),
                SnapshotCheck::Differs { position } => Err(CliError::Failed(anyhow::anyhow!(
                    "the catalog snapshot at position {position} differs from a fold of the \
                     log: drop it or take a new one"
                ))),
            }
        }
        SnapshotAction::Drop(args) => {
            let store = connect(&args.database.url).await?;
            store.migrate().await.context("migration failed")?;
            let dropped =
                store.delete_snapshot(CATALOG_SNAPSHOT).await.context("cannot drop it")?;
            write_stdout(if dropped {
                "ok: catalog snapshot dropped\n"
            } else {
                "no catalog snapshot\n"
            })?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn describe(snapshot: &Snapshot) -> String {
    format!(
        "kind: {}\nposition: {}\nchain hash: {}\nformat: {}\nbytes: {}\nbody sha256: {}\ntaken at: {}\n",
        snapshot.kind,
        snapshot.position,
        snapshot.chain_hash,
        snapshot.format,
        snapshot.body.len(),
        snapshot.body_sha256,
        snapshot.taken_at.to_rfc3339(),
    )
}
