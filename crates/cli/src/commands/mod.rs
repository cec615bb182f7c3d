//! One module per group of subcommands; each exposes clap `Args` and `run`-style functions
//! returning the process exit code or a [`crate::CliError`].

pub mod awards;
pub mod backup;
pub mod db;
pub mod personal;
pub mod player;
pub mod pools;
pub mod powers;
pub mod replay;
pub mod rulings;
pub mod schedule;
pub mod score;
pub mod seed;
pub mod series;
pub mod serve;
pub mod snapshot;
pub mod systems;
pub mod teams;
pub mod tournament;

/// `--database URL` / `DATABASE_URL`, default: an embedded SQLite file (zero setup).
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    #[arg(long = "database", env = "DATABASE_URL", default_value = "sqlite://league.db?mode=rwc")]
    pub url: String,
}

/// `--read-database URL` / `READ_DATABASE_URL`: a PostgreSQL hot standby of `--database`
/// that a read-only process reads the log from (`docs/operations.md`, reading gateways).
#[derive(Debug, Clone, clap::Args)]
pub struct ReadDatabaseArgs {
    /// A streaming-replication hot standby of the PostgreSQL `--database`: the log is read
    /// there, commands still go to `--database` (empty: read the primary).
    #[arg(long = "read-database", env = "READ_DATABASE_URL", hide_env_values = true)]
    pub read_url: Option<String>,
}

impl ReadDatabaseArgs {
    /// The standby's URL, if one is given (an empty value is none).
    pub fn url(&self) -> Option<&str> {
        self.read_url.as_deref().map(str::trim).filter(|url| !url.is_empty())
    }
}

/// Writes `text` to stdout. A reader that went away (`league schedule … | head`) is not an
/// error: the output was simply not wanted any more, so the command still succeeds.
pub fn write_stdout(text: &str) -> Result<(), crate::CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::from(error).context("writing to stdout").into())
        }
        _ => Ok(()),
    }
}

/// Logs shorter than this are read or written without a progress bar.
const PROGRESS_FROM_EVENTS: u64 = 50_000;

/// A progress bar on stderr for long logs (hidden for short ones and when stderr is not a
/// terminal); `doing` names the work, e.g. "replaying".
pub fn progress_bar(total: u64, doing: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if total < PROGRESS_FROM_EVENTS {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{{spinner}} {doing} [{{bar:40}}] {{pos}}/{{len}} events ({{per_sec}}, eta {{eta}})"
    )) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
