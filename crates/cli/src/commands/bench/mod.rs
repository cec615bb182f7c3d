//! `league bench <what>`: benchmarks that print figures beside a baseline measured in the
//! same run (absolute numbers drift on shared machines; ratios do not). One module per
//! benchmark; `--json` prints one JSON object.

mod append;
mod graphql;
mod ratings;
mod replay;
mod scale;
mod schedule;
mod scratch;
mod soak;

use std::process::ExitCode;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchWhat,
}

#[derive(Debug, clap::Subcommand)]
pub enum BenchWhat {
    /// Durable single appends and batches of 100 vs a raw INSERT+commit loop.
    Append(append::Args),
    /// Replay a generated log into standings, in memory and from the database, vs a raw scan.
    Replay(replay::Args),
    /// The real server under 64 keep-alive clients: standings vs `{__typename}`.
    Graphql(graphql::Args),
    /// Every N = 8 schedule shape, and N = 64, k = 7.
    Schedule(schedule::Args),
    /// Mixed reads, writes and subscriptions for N seconds: memory, descriptors, p99.
    Soak(soak::Args),
    /// The ratings model's memory per rated game and fold time, beside their floors.
    Ratings(ratings::Args),
    /// A long generated log: start-up, `/healthz` ready, memory, rebuild rate vs a scan.
    Scale(scale::Args),
}

pub async fn run(args: BenchArgs) -> Result<ExitCode, CliError> {
    match args.what {
        BenchWhat::Append(args) => append::run(args).await,
        BenchWhat::Replay(args) => replay::run(args).await,
        BenchWhat::Graphql(args) => graphql::run(args).await,
        BenchWhat::Schedule(args) => schedule::run(args),
        BenchWhat::Soak(args) => soak::run(args).await,
        BenchWhat::Scale(args) => scale::run(args).await,
        BenchWhat::Ratings(args) => ratings::run(args),
    }
}
