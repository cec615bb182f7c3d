//! One module per group of subcommands; each exposes clap `Args` and `run`-style functions
//! returning the process exit code or a [`crate::CliError`].

pub mod db;
pub mod replay;
pub mod schedule;
pub mod score;
pub mod seed;
pub mod serve;
pub mod systems;
pub mod tournament;

/// `--database URL` / `DATABASE_URL`, default: an embedded SQLite file (zero setup).
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    #[arg(long = "database", env = "DATABASE_URL", default_value = "sqlite://league.db?mode=rwc")]
    pub url: String,
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
