//! `league-bench backup`: `league export` and `league import` of a generated N-event log
//! (the same code paths: `EventStore::export` to a file, `EventStore::import` from it into
//! a fresh database), beside the database's own dump and load measured in the same run on
//! the same log: `sqlite3 .dump` and loading that dump into a new file for SQLite;
//! `COPY events TO STDOUT` and `COPY events FROM STDIN` through `psql` for PostgreSQL. The
//! baselines copy rows and check nothing; the import also verifies the whole chain.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write as _};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use anyhow::Context as _;
use futures::StreamExt as _;
use league_store::EventStore;
use serde::Serialize;

use crate::BenchError;
use crate::figures::{load_average, print_figures};
use crate::generator::{LogSize, append_all, generate};
use crate::scratch::{ScratchArgs, in_scratch};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub scratch: ScratchArgs,
    #[command(flatten)]
    pub log_size: LogSize,
}

#[derive(Debug, Serialize)]
struct Figures {
    database: &'static str,
    events: u64,
    load_average: String,
    file_mb: f64,
    export_s: f64,
    import_s: f64,
    baseline: &'static str,
    baseline_file_mb: f64,
    baseline_dump_s: f64,
    baseline_load_s: f64,
}

pub async fn run(args: Args) -> Result<ExitCode, BenchError> {
    args.log_size.check()?;
    let args = &args;
    let figures = in_scratch(&args.scratch.database, "backup_source", false, |source| async move {
        in_scratch(&args.scratch.database, "backup_target", false, |target| async move {
            in_scratch(&args.scratch.database, "backup_baseline", false, |baseline| async move {
                measure(&source, &target, &baseline, args.log_size.events).await
            })
            .await
        })
        .await
    })
    .await?;
    print_figures(&figures, args.scratch.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

async fn measure(
    source_url: &str,
    target_url: &str,
    baseline_url: &str,
    events: u64,
) -> Result<Figures, BenchError> {
    let source = open(source_url).await?;
    let (streams, _) = generate(events)?;
    append_all(&source, streams).await?;
    let events = source.head_position().await.context("head")?;
    let dir = tempfile::tempdir().context("a temporary directory")?;
    let file = dir.path().join("log.jsonl");

    let started = Instant::now();
    let export = source.export(true).await.context("export")?;
    let mut out = BufWriter::with_capacity(1 << 20, File::create(&file).context("log file")?);
    let mut lines = export.lines;
    while let Some(line) = lines.next().await {
        let line = line.context("export")?;
        out.write_all(line.as_bytes()).and_then(|()| out.write_all(b"\n")).context("write")?;
    }
    out.flush().context("write")?;
    drop(out);
    let export_s = started.elapsed().as_secs_f64();

    let target = open(target_url).await?;
    let started = Instant::now();
    let reader = BufReader::with_capacity(1 << 20, File::open(&file).context("log file")?);
    let summary = target
        .import(reader, |s, t| league_domain::key_owner(s, t).map(Into::into), |_, _| {})
        .await
        .context("import")?;
    let import_s = started.elapsed().as_secs_f64();
    if summary.events != events {
        return Err(anyhow::anyhow!("imported {} of {events} events", summary.events).into());
    }

    let dump = dir.path().join("baseline.dump");
    let (baseline, baseline_dump_s, baseline_load_s) = if source_url.starts_with("sqlite:") {
        let dump_s = timed(
            Command::new("sqlite3").arg(sqlite_path(source_url)).arg(".dump"),
            None,
            Some(&dump),
        )?;
        let load_s =
            timed(Command::new("sqlite3").arg(sqlite_path(baseline_url)), Some(&dump), None)?;
        ("sqlite3 .dump, then loading the dump into a new file", dump_s, load_s)
    } else {
        // The baseline's tables, empty, as the import's target had them.
        open(baseline_url).await?;
        let copy = |url: &str, sql: &str| {
            let mut command = Command::new("psql");
            command.args(["-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]);
            command
        };
        let dump_s = timed(&mut copy(source_url, "COPY events TO STDOUT"), None, Some(&dump))?;
        let load_s = timed(&mut copy(baseline_url, "COPY events FROM STDIN"), Some(&dump), None)?;
        ("psql COPY events TO STDOUT, then COPY FROM STDIN", dump_s, load_s)
    };
    Ok(Figures {
        database: if source_url.starts_with("sqlite:") { "SQLite" } else { "PostgreSQL" },
        events,
        load_average: load_average(),
        file_mb: megabytes(&file),
        export_s,
        import_s,
        baseline,
        baseline_file_mb: megabytes(&dump),
        baseline_dump_s,
        baseline_load_s,
    })
}

async fn open(url: &str) -> Result<EventStore, BenchError> {
    let store = EventStore::connect(url).await.context("connect")?;
    store.migrate().await.context("migrate")?;
    Ok(store)
}

/// The file path of a `sqlite://PATH?…` URL.
fn sqlite_path(url: &str) -> &str {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    rest.split('?').next().unwrap_or(rest)
}

/// Runs `command` with stdin from and stdout to the given files; its wall time in seconds.
fn timed(
    command: &mut Command,
    stdin: Option<&Path>,
    stdout: Option<&Path>,
) -> Result<f64, BenchError> {
    let stdin = match stdin {
        Some(path) => Stdio::from(File::open(path).context("baseline input")?),
        None => Stdio::null(),
    };
    let stdout = match stdout {
        Some(path) => Stdio::from(File::create(path).context("baseline output")?),
        None => Stdio::null(),
    };
    let started = Instant::now();
    let status = command.stdin(stdin).stdout(stdout).status().context("run the baseline")?;
    if !status.success() {
        return Err(anyhow::anyhow!("baseline {command:?} failed: {status}").into());
    }
    Ok(started.elapsed().as_secs_f64())
}

fn megabytes(path: &Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |meta| meta.len() as f64 / 1e6)
}

fn print_table(f: &Figures) {
    println!("backup bench on {} ({} events, load {})", f.database, f.events, f.load_average);
    println!(
        "  league export            {:>8.2} s  {:>10.0} events/s  {:>8.1} MB",
        f.export_s,
        f.events as f64 / f.export_s,
        f.file_mb
    );
    println!(
        "  league import (verified) {:>8.2} s  {:>10.0} events/s",
        f.import_s,
        f.events as f64 / f.import_s
    );
    println!("  baseline: {}", f.baseline);
    println!(
        "    dump                   {:>8.2} s  {:>10.0} events/s  {:>8.1} MB",
        f.baseline_dump_s,
        f.events as f64 / f.baseline_dump_s,
        f.baseline_file_mb
    );
    println!(
        "    load                   {:>8.2} s  {:>10.0} events/s",
        f.baseline_load_s,
        f.events as f64 / f.baseline_load_s
    );
}
