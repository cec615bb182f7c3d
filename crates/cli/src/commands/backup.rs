//! `league export` and `league import`: the event log as a `league-log` JSON-lines file, for
//! backups and for moving a log between databases (SQLite ↔ PostgreSQL). The format and the
//! checks an import makes are the store's (`league_store::export` / `import`).

use std::io::{BufReader, BufWriter, Write as _};
use std::process::ExitCode;

use anyhow::Context as _;
use futures::StreamExt as _;
use league_store::ImportError;

use crate::CliError;
use crate::commands::db::connect;
use crate::commands::replay::open_app;

#[derive(Debug, clap::Args)]
#[command(after_help = "Writes the log to stdout: league export --database URL > log.jsonl")]
pub struct ExportArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// Leave out the person keys (the file then cannot reveal anyone's sealed name, and a
    /// log restored from it shows every such person as their pseudonym).
    #[arg(long)]
    pub without_keys: bool,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Reads the log from stdin: league import --database URL < log.jsonl")]
pub struct ImportArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
}

/// Streams the whole log to stdout in position order, a progress bar on stderr, and a
/// summary line on stderr at the end.
pub async fn export(args: ExportArgs) -> Result<ExitCode, CliError> {
    let store = connect(&args.database.url).await?;
    let export = store.export(!args.without_keys).await.context("cannot read the event log")?;
    let bar = super::progress_bar(export.header.events, "exporting");
    let mut out = BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    let mut lines = export.lines;
    let mut written = 0u64;
    while let Some(line) = lines.next().await {
        let line = line.context("cannot read the event log")?;
        out.write_all(line.as_bytes())
            .and_then(|()| out.write_all(b"\n"))
            .context("cannot write to stdout")?;
        written += 1;
        if written.is_multiple_of(10_000) {
            bar.set_position(written.min(export.header.events));
        }
    }
    out.flush().context("cannot write to stdout")?;
    bar.finish_and_clear();
    eprintln!(
        "league: exported {} events, {} idempotency keys and {} person keys",
        export.header.events, export.header.idempotency_keys, export.header.person_keys
    );
    Ok(ExitCode::SUCCESS)
}

/// Reads a log from stdin into an empty database, verifying it; prints one line. A broken
/// file, a person key without its person's registration, or a non-empty target is bad input
/// (exit 2, nothing written).
pub async fn import(args: ImportArgs) -> Result<ExitCode, CliError> {
    let store = connect(&args.database.url).await?;
    store.migrate().await.context("cannot migrate the database")?;
    let mut bar = None;
    let progress = |header: &league_store::LogHeader, events: u64| {
        bar.get_or_insert_with(|| super::progress_bar(header.events, "importing"))
            .set_position(events);
    };
    let file = BufReader::with_capacity(1 << 20, std::io::stdin());
    let outcome =
        store.import(file, |s, t| league_domain::key_owner(s, t).map(Into::into), progress).await;
    match outcome {
        Ok(summary) => {
            super::write_stdout(&format!(
                "ok: {} events imported and verified ({} idempotency keys, {} person keys)\n",
                summary.events, summary.idempotency_keys, summary.person_keys
            ))?;
            // A log without a snapshot makes the first start fold every catalog event
            // (`docs/operations.md#league-export-and-league-import`): leave one.
            // The log is in and verified whatever happens here: a snapshot that cannot be
            // taken (a log this build cannot fold) only leaves the first start slower.
            let snapshot = match open_app(&args.database.url).await {
                Ok(app) => app.take_catalog_snapshot().await.map_err(anyhow::Error::new),
                Err(error) => Err(anyhow::anyhow!("{error}")),
            };
            match snapshot {
                Ok(snapshot) => super::write_stdout(&format!(
                    "ok: catalog snapshot taken at position {}\n",
                    snapshot.position
                ))?,
                Err(error) => eprintln!(
                    "league: no catalog snapshot taken ({error:#}); the first start folds the \
                     whole log"
                ),
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(
            error @ (ImportError::BadFile(_)
            | ImportError::NotEmpty
            | ImportError::KeyWithoutPerson { .. }),
        ) => Err(CliError::BadInput(format!("nothing imported: {error}"))),
        Err(error) => Err(CliError::Failed(anyhow::Error::new(error).context("nothing imported"))),
    }
}
