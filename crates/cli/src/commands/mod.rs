//! One module per group of subcommands; each exposes clap `Args` and `run`-style functions
//! returning the process exit code or a [`crate::CliError`].

pub mod bench;
pub mod db;
pub mod replay;
pub mod schedule;
pub mod score;
pub mod serve;

/// `--database URL` / `DATABASE_URL`, default: an embedded SQLite file (zero setup).
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    #[arg(long = "database", env = "DATABASE_URL", default_value = "sqlite://league.db?mode=rwc")]
    pub url: String,
}
