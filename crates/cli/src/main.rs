//! `league`: the command-line face of the platform. Each subcommand lives in its own module
//! under `commands/`; this file only parses arguments, sets up logging and maps errors to
//! exit codes (0 ok, 1 failure, 2 bad input).

mod commands;
mod error;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::commands::{
    backup, db, personal, player, replay, schedule, score, seed, series, serve, snapshot, systems,
    tournament,
};
pub use crate::error::CliError;

/// mimalloc instead of the system allocator: a replay allocates and frees a few small values
/// per event, and glibc's malloc and free were a sixth of its CPU time
/// (docs/performance.md#replay-fold).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(
    name = "league",
    version,
    about = "Event-sourced platform for board-game leagues and tournaments"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the platform: GraphQL API, subscriptions and GraphiQL (migrates on start).
    Serve(serve::ServeArgs),
    /// Create or upgrade the database schema.
    Migrate(db::MigrateArgs),
    /// Walk the event log's hash chain; exit 1 at the first tampered position.
    Verify(db::VerifyArgs),
    /// Write the whole event log to stdout as JSON lines (a backup, or a move to another
    /// database).
    Export(backup::ExportArgs),
    /// Read an exported log from stdin into an empty database, verifying its hash chain;
    /// exit 2, writing nothing, at the first bad line.
    Import(backup::ImportArgs),
    /// Score one game read as JSON (FILE or - for stdin).
    Score(score::ScoreArgs),
    /// Rank players over several games read as JSON.
    Standings(score::StandingsArgs),
    /// List the scoring systems (names, aliases, result shape, players per game, what a
    /// result carries, concession, source) and the league aggregations.
    Systems(systems::SystemsArgs),
    /// Print every game of a league with balanced seats and opponents.
    Schedule(schedule::ScheduleArgs),
    /// Seat one tournament round: a seeding request (JSON) on stdin, the boards on stdout.
    Seed(seed::SeedArgs),
    /// Fold the whole log and verify its chain, or print standings at a point in history.
    Replay(replay::ReplayArgs),
    /// Explain, event by event, how each score of a league came to be.
    Audit(replay::AuditArgs),
    /// What-if: standings of a league under another scoring system, or with every concession
    /// scored as a solo (appends nothing).
    Rescore(replay::RescoreArgs),
    /// A tournament from the log: verify its seeding, its standings, a round's board call.
    Tournament(tournament::TournamentArgs),
    /// A series of tournaments and leagues: create it, add or remove events, its standings
    /// (each player's best N results) with the attendance grid.
    Series(series::SeriesArgs),
    /// Erase a player's personal data (as the site admin): their key is deleted and they
    /// show as their pseudonym from now on; their results stay.
    ErasePlayer(personal::EraseArgs),
    /// Print everything the platform holds about a player, as JSON (an access request).
    ExportPlayer(personal::ExportArgs),
    /// The catalog snapshot a start begins from: take, show, verify or drop it.
    Snapshot(snapshot::SnapshotArgs),
    /// A player's permanent keep-apart list (as the site admin): add, remove or list.
    Player(player::PlayerArgs),
}

/// Ends the process quietly (exit 0) when `println!` meets a closed stdout (`league … |
/// head`): the reader no longer wants the output, which is not the command's failure. The
/// commands write through [`commands::write_stdout`]; this covers every other `println!`.
fn quiet_on_closed_stdout() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn,sea_orm=warn".into());
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    // `LEAGUE_LOG_FORMAT=json`: one JSON object per line, for log collectors.
    if std::env::var("LEAGUE_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json")) {
        logs.json().init();
    } else {
        logs.init();
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("league: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async move {
        match cli.command {
            Command::Serve(args) => serve::run(args).await,
            Command::Migrate(args) => db::migrate(args).await,
            Command::Verify(args) => db::verify(args).await,
            Command::Export(args) => backup::export(args).await,
            Command::Import(args) => backup::import(args).await,
            Command::ErasePlayer(args) => personal::erase(args).await,
            Command::ExportPlayer(args) => personal::export(args).await,
            Command::Score(args) => score::score(args),
            Command::Standings(args) => score::standings(args),
            Command::Systems(args) => systems::run(args),
            Command::Schedule(args) => schedule::run(args),
            Command::Seed(args) => seed::run(args),
            Command::Replay(args) => replay::replay(args).await,
            Command::Audit(args) => replay::audit(args).await,
            Command::Rescore(args) => replay::rescore(args).await,
            Command::Tournament(args) => tournament::run(args).await,
            Command::Series(args) => series::run(args).await,
            Command::Snapshot(args) => snapshot::run(args).await,
            Command::Player(args) => player::run(args).await,
        }
    });
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("league: {error}");
            error.exit_code()
        }
    }
}
