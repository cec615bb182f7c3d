//! `league-bench <what>`: benchmarks that print figures beside a baseline measured in the
//! same run (absolute numbers drift on shared machines; ratios do not). One module per
//! benchmark; `--json` prints one JSON object. Exit codes as `league`'s: 0 ok, 1 failure
//! (or a bound not met), 2 bad input.
//!
//! The benchmarks share one log generator ([`generator`]), one scratch-database module
//! ([`scratch`]) and one figures printer ([`figures`]). `scale` starts real `league serve`
//! processes: it runs the `league` binary that sits next to this one (both are built into
//! the same `target/<profile>/` directory by `cargo build --release`), or the one
//! `--league PATH` names. `graphql` and `soak` serve the gateway inside this process.

mod append;
mod backup;
mod figures;
mod generator;
mod graphql;
mod ratings;
mod replay;
mod scale;
mod schedule;
mod scratch;
mod seed;
mod soak;
mod spectators;
mod standby;
mod webhooks;

/// mimalloc instead of the system allocator: a replay allocates and frees a few small values
/// per event, and glibc's malloc and free were a sixth of its CPU time
/// (docs/performance.md#replay-fold).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A benchmark's error: bad input (exit 2, nothing measured) versus failure (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The arguments are wrong: a one-line message, exit status 2.
    #[error("{0}")]
    BadInput(String),
    /// Something failed while measuring (database unreachable, server down…).
    #[error("{0:#}")]
    Failed(#[from] anyhow::Error),
}

#[derive(Debug, Parser)]
#[command(
    name = "league-bench",
    version,
    about = "Benchmarks of the league platform, each beside a baseline measured in the same run"
)]
struct Cli {
    #[command(subcommand)]
    what: BenchWhat,
}

#[derive(Debug, Subcommand)]
enum BenchWhat {
    /// Durable single appends and batches of 100 vs a raw INSERT+commit loop.
    Append(append::Args),
    /// Replay a generated log into standings, in memory and from the database, vs a raw scan.
    Replay(replay::Args),
    /// The real server under 64 keep-alive clients: standings vs `{__typename}`.
    Graphql(graphql::Args),
    /// Every N = 8 schedule shape, and N = 64, k = 7.
    Schedule(schedule::Args),
    /// Tournaments seeded round by round: time, repeats, seat repeats vs two baselines.
    Seed(seed::Args),
    /// Mixed reads, writes and subscriptions for N seconds: memory, descriptors, p99.
    Soak(soak::Args),
    /// 1,000 spectators of a league's and of a tournament's live page: bytes and requests per
    /// result, time to every page up to date, memory per subscription, vs the pages before.
    Spectators(spectators::Args),
    /// The ratings model's memory per rated game and fold time, beside their floors.
    Ratings(ratings::Args),
    /// `league export` and `league import` of a generated log vs the database's own dump/load.
    Backup(backup::Args),
    /// A long generated log: start-up, `/healthz` ready, memory, rebuild rate vs a scan.
    Scale(scale::Args),
    /// Webhook deliveries from the log vs raw POSTs: rate, lag p50/p99, a 30 % failing receiver.
    Webhooks(webhooks::Args),
    /// A gateway reading a hot standby: lag p50/p99 behind appends at ~1,000/s, beside a
    /// gateway reading the primary.
    Standby(standby::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Benchmarks print figures, not a log line per request of the server they measure.
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into());
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("league-bench: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async move {
        match cli.what {
            BenchWhat::Append(args) => append::run(args).await,
            BenchWhat::Replay(args) => replay::run(args).await,
            BenchWhat::Graphql(args) => graphql::run(args).await,
            BenchWhat::Schedule(args) => schedule::run(args),
            BenchWhat::Seed(args) => seed::run(args),
            BenchWhat::Soak(args) => soak::run(args).await,
            BenchWhat::Spectators(args) => spectators::run(args).await,
            BenchWhat::Scale(args) => scale::run(args).await,
            BenchWhat::Ratings(args) => ratings::run(args),
            BenchWhat::Backup(args) => backup::run(args).await,
            BenchWhat::Webhooks(args) => webhooks::run(args).await,
            BenchWhat::Standby(args) => standby::run(args).await,
        }
    });
    match outcome {
        Ok(code) => code,
        Err(BenchError::BadInput(message)) => {
            eprintln!("league-bench: {message}");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("league-bench: {error}");
            ExitCode::FAILURE
        }
    }
}
