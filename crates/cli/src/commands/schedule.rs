//! `league schedule`: prints every game of a league (scheduling crate) as JSON on stdout,
//! with `--report` the balance figures on stderr.

use std::process::ExitCode;

use league_scheduling::{BalanceReport, Schedule, ScheduleSpec, report, schedule};
use serde::Serialize;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct ScheduleArgs {
    /// Players in the league (N).
    #[arg(long)]
    pub players: usize,
    /// Players in each game (k).
    #[arg(long = "per-game")]
    pub per_game: usize,
    /// How often each player takes each seat (s); default: `docs/scheduling.md#games-per-league` for k.
    #[arg(long = "games-per-seat")]
    pub games_per_seat: Option<usize>,
    /// Seed of the search: the same inputs and seed give the same schedule everywhere.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print the balance figures (games per player, seat counts, pair meetings) on stderr.
    #[arg(long)]
    pub report: bool,
}

/// The printed form: players named P1..PN, each game as its seats in order.
#[derive(Debug, Serialize)]
struct Printed {
    players: Vec<String>,
    per_game: usize,
    games: Vec<PrintedGame>,
}

#[derive(Debug, Serialize)]
struct PrintedGame {
    seats: Vec<String>,
}

pub fn run(args: ScheduleArgs) -> Result<ExitCode, CliError> {
    let spec = ScheduleSpec {
        players: args.players,
        per_game: args.per_game,
        games_per_seat: args.games_per_seat,
        seed: args.seed,
    };
    let league = schedule(&spec).map_err(|error| CliError::BadInput(error.to_string()))?;
    let json = serde_json::to_string(&printed(&league)).map_err(anyhow::Error::from)?;
    super::write_stdout(&format!("{json}\n"))?;
    if args.report {
        eprint!("{}", describe(&league, &report(&league)));
    }
    Ok(ExitCode::SUCCESS)
}

fn player_name(index: usize) -> String {
    format!("P{}", index + 1)
}

fn printed(league: &Schedule) -> Printed {
    Printed {
        players: (0..league.players).map(player_name).collect(),
        per_game: league.per_game,
        games: league
            .games
            .iter()
            .map(|game| PrintedGame { seats: game.iter().copied().map(player_name).collect() })
            .collect(),
    }
}

/// Human-readable balance figures, one per line.
fn describe(league: &Schedule, figures: &BalanceReport) -> String {
    let games_min = figures.games_per_player.iter().min().unwrap_or(&0);
    let games_max = figures.games_per_player.iter().max().unwrap_or(&0);
    let seats = figures.seat_counts.iter().flatten();
    let seat_min = seats.clone().min().unwrap_or(&0);
    let seat_max = seats.max().unwrap_or(&0);
    format!(
        "games: {} ({} players, {} per game, {} games per seat)\n\
         games per player: min {games_min}, max {games_max}\n\
         seat counts (player x seat): min {seat_min}, max {seat_max}\n\
         pair meetings: min {}, max {} (spread {}, best possible {})\n\
         most games of one player set: {} (fewest possible {})\n\
         most games of one seating: {} (fewest possible {})\n",
        figures.games,
        league.players,
        league.per_game,
        league.games_per_seat,
        figures.pair_min,
        figures.pair_max,
        figures.pair_spread(),
        figures.pair_spread_bound,
        figures.max_set_repeats,
        figures.set_repeats_bound,
        figures.max_seating_repeats,
        figures.seating_repeats_bound,
    )
}
