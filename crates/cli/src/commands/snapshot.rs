//! `league snapshot take|show|verify|drop`: the catalog snapshot a start begins from and the
//! ratings snapshot the first ratings request begins from (`docs/architecture.md#snapshots`,
//! `docs/ratings.md`). The server keeps them fresh by itself; an operator takes them after
//! an import (so the first start and the first leaderboard are quick), checks them against
//! the log, or drops them (the next start folds every catalog event, the next ratings load
//! every result). None of this touches the log.

use std::process::ExitCode;

use anyhow::Context as _;
use league_projections::{
    CATALOG_SNAPSHOT, RATINGS_SNAPSHOT, SnapshotCheck, verify_catalog_snapshot,
};
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
    /// Fold the catalog and the ratings (each from its current snapshot, if usable) and
    /// store new snapshots.
    Take(SnapshotDatabase),
    /// Print the stored snapshots' positions, chain hashes, formats, sizes and times.
    Show(SnapshotDatabase),
    /// Check the stored snapshots: intact, readable by this build, taken from this log, and
    /// byte for byte a fresh fold of the log up to their position (exit 1 otherwise).
    Verify(SnapshotDatabase),
    /// Delete the stored snapshots (the next start folds the whole log, the next ratings
    /// load every result).
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
            let catalog = app.take_catalog_snapshot().await.context("cannot take a snapshot")?;
            let ratings =
                app.take_ratings_snapshot().await.context("cannot take a ratings snapshot")?;
            write_stdout(&format!(
                "ok: catalog snapshot taken\n{}ok: ratings snapshot taken\n{}",
                describe(&catalog),
                describe(&ratings)
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        SnapshotAction::Show(args) => {
            let store = connect(&args.database.url).await?;
            store.migrate().await.context("migration failed")?;
            let mut shown = String::new();
            for (kind, name) in [(CATALOG_SNAPSHOT, "catalog"), (RATINGS_SNAPSHOT, "ratings")] {
                match store.snapshot(kind).await.context("cannot read the snapshot")? {
                    Some(snapshot) => shown.push_str(&describe(&snapshot)),
                    None => shown.push_str(&format!("no {name} snapshot\n")),
                }
            }
            write_stdout(&shown)?;
            Ok(ExitCode::SUCCESS)
        }
        SnapshotAction::Verify(args) => {
            let store = connect(&args.database.url).await?;
            store.migrate().await.context("migration failed")?;
            let catalog = verify_catalog_snapshot(&store).await.context("cannot verify")?;
            report("catalog", catalog)?;
            // The ratings are scored under each league's system: the catalog names them.
            let app = open_app(&args.database.url).await?;
            let ratings = app.verify_ratings_snapshot().await.context("cannot verify")?;
            report("ratings", ratings)?;
            Ok(ExitCode::SUCCESS)
        }
        SnapshotAction::Drop(args) => {
            let store = connect(&args.database.url).await?;
            store.migrate().await.context("migration failed")?;
            let mut said = String::new();
            for (kind, name) in [(CATALOG_SNAPSHOT, "catalog"), (RATINGS_SNAPSHOT, "ratings")] {
                let dropped = store.delete_snapshot(kind).await.context("cannot drop it")?;
                said.push_str(&if dropped {
                    format!("ok: {name} snapshot dropped\n")
                } else {
                    format!("no {name} snapshot\n")
                });
            }
            write_stdout(&said)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints what verifying the `name` snapshot found; an error when a start would not use it
/// or it differs from a fold of the log.
fn report(name: &str, check: SnapshotCheck) -> Result<(), CliError> {
    match check {
        SnapshotCheck::Verified { position, body_bytes } => write_stdout(&format!(
            "ok: the {name} snapshot at position {position} ({body_bytes} bytes) equals a fold \
             of the log\n"
        )),
        SnapshotCheck::Missing => write_stdout(&format!("no {name} snapshot\n")),
        SnapshotCheck::Rejected(why) => {
            Err(CliError::Failed(anyhow::anyhow!("the {name} snapshot is not used: {why}")))
        }
        SnapshotCheck::Differs { position } => Err(CliError::Failed(anyhow::anyhow!(
            "the {name} snapshot at position {position} differs from a fold of the log: drop \
             it or take a new one"
        ))),
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
