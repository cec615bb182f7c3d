//! `league-bench schedule`: time to build every N = 8 shape (k = 2..8) and N = 64, k = 7,
//! beside a same-run baseline: the time to merely verify the schedule (compute its balance
//! report: games per player, seat counts, all pair meetings, set and seating repeats).
//! Goals: all N = 8 shapes together < 50 ms; N = 64, k = 7 < 1 s.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use league_scheduling::{ScheduleSpec, report, schedule};
use serde::Serialize;

use crate::BenchError;
use crate::figures::print_figures;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Runs per shape (seeds 0..runs); figures are means.
    #[arg(long, default_value_t = 10)]
    pub runs: u64,
}

#[derive(Debug, Serialize)]
struct ShapeFigures {
    players: usize,
    per_game: usize,
    games: usize,
    /// Worst pair spread over the runs' schedules, and the arithmetic bound.
    pair_spread: usize,
    pair_spread_bound: usize,
    schedule_ms: f64,
    verify_ms: f64,
}

#[derive(Debug, Serialize)]
struct Figures {
    baseline: &'static str,
    runs: u64,
    shapes: Vec<ShapeFigures>,
    league_of_eight_total_ms: f64,
    league_of_eight_goal_ms: f64,
    sixty_four_seven_ms: f64,
    sixty_four_seven_goal_ms: f64,
}

pub fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.runs == 0 {
        return Err(BenchError::BadInput("--runs must be at least 1".into()));
    }
    let shapes: Vec<(usize, usize)> = (2..=8).map(|k| (8, k)).chain([(64, 7)]).collect();
    let mut measured = Vec::new();
    for (players, per_game) in shapes {
        measured.push(measure(players, per_game, args.runs)?);
    }
    let eight_total: f64 = measured.iter().filter(|s| s.players == 8).map(|s| s.schedule_ms).sum();
    let sixty_four = measured.iter().find(|s| s.players == 64).map_or(0.0, |s| s.schedule_ms);
    let figures = Figures {
        baseline: "verify: balance report of the same schedule",
        runs: args.runs,
        shapes: measured,
        league_of_eight_total_ms: eight_total,
        league_of_eight_goal_ms: 50.0,
        sixty_four_seven_ms: sixty_four,
        sixty_four_seven_goal_ms: 1000.0,
    };
    print_figures(&figures, args.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

fn measure(players: usize, per_game: usize, runs: u64) -> Result<ShapeFigures, BenchError> {
    let (mut building, mut verifying) = (Duration::ZERO, Duration::ZERO);
    let (mut games, mut spread, mut bound) = (0, 0, 0);
    for seed in 0..runs {
        let spec = ScheduleSpec { players, per_game, games_per_seat: None, seed };
        let started = Instant::now();
        let league = schedule(&spec).map_err(|e| BenchError::Failed(e.into()))?;
        building += started.elapsed();
        let started = Instant::now();
        let figures = std::hint::black_box(report(&league));
        verifying += started.elapsed();
        games = figures.games;
        spread = spread.max(figures.pair_spread());
        bound = figures.pair_spread_bound;
    }
    let mean_ms = |total: Duration| total.as_secs_f64() * 1000.0 / runs as f64;
    Ok(ShapeFigures {
        players,
        per_game,
        games,
        pair_spread: spread,
        pair_spread_bound: bound,
        schedule_ms: mean_ms(building),
        verify_ms: mean_ms(verifying),
    })
}

fn print_table(figures: &Figures) {
    println!("schedule: mean of {} runs per shape; baseline = {}", figures.runs, figures.baseline);
    println!(
        "{:>3} {:>2} {:>6} {:>21} {:>12} {:>10} {:>8}",
        "N", "k", "games", "pair spread (bound)", "schedule ms", "verify ms", "ratio"
    );
    for shape in &figures.shapes {
        println!(
            "{:>3} {:>2} {:>6} {:>17} ({}) {:>12.3} {:>10.3} {:>7.1}x",
            shape.players,
            shape.per_game,
            shape.games,
            shape.pair_spread,
            shape.pair_spread_bound,
            shape.schedule_ms,
            shape.verify_ms,
            shape.schedule_ms / shape.verify_ms.max(1e-9),
        );
    }
    println!(
        "all N = 8 shapes: {:.3} ms (goal < {} ms); N = 64, k = 7: {:.3} ms (goal < {} ms)",
        figures.league_of_eight_total_ms,
        figures.league_of_eight_goal_ms,
        figures.sixty_four_seven_ms,
        figures.sixty_four_seven_goal_ms
    );
}
