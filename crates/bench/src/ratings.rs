//! `league-bench ratings`: what the ratings read model costs per rated game, in memory and
//! in fold time, each beside a floor measured in the same run; and what its snapshot costs.
//!
//! Generates placement results in memory ([`crate::generator`], the log of `league-bench
//! replay`: 512 players; leagues of 8 with k = 2..6 players per game in turn, random
//! points, about 1 in 20 corrected right after its report) and folds them one by one into
//! a [`RatingsModel`], exactly as the gateway's ratings load does after decoding. Only
//! a block of leagues' results exists at a time, so the process's growth is the model's. Two passes
//! over the same results: a windowed model ([`RatingsModel::windowed`], [`RATINGS_WINDOW`]
//! results: what the gateway keeps), then a complete one (what `league replay` folds).
//!
//! - Memory: the resident set (`/proc/self/statm`) before and after each fold, per rated
//!   game; floor: the μ and σ (two `f64`) of every player of every rated game, the least a
//!   model that can re-rate any game and answer as of any position must keep.
//! - Time: the fold per result and results per second of wall time and of the thread's CPU
//!   time (`league replay` needs well above 500k/s; a shared machine's load inflates the
//!   wall clock only); floor: scoring the same results under their league's system (the
//!   first thing the fold does with a result), timed in the same loop. Results are folded
//!   in blocks of [`BLOCK_LEAGUES`] leagues (a few thousand results held at once).
//! - Snapshot: the windowed model's snapshot body, its size, and the time to encode and to
//!   decode it (what the first ratings request pays before folding the results after it).

use league_domain::LeagueEvent;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::{TimeDelta, Utc};
use league_domain::{DomainEvent, GameFinished, GameResultCorrected};
use league_projections::{EventMeta, GameKind, RATINGS_WINDOW, RatingsModel};
use league_scoring::{GameResult, ScoringSystem, score_game_unexplained};
use uuid::Uuid;

use crate::BenchError;
use crate::figures::{Process, load_average, print_figures, resident_bytes};
use crate::generator::Generator;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rated games to generate (at least 1000); 800,000 is what a 1M-event log holds.
    #[arg(long, default_value_t = 800_000)]
    pub games: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    games_rated: u64,
    results_folded: u64,
    /// Players per rated game, on average.
    players_per_game: f64,
    complete: Pass,
    windowed: Pass,
    /// μ and σ of every rated player-game: 16 bytes each.
    floor_bytes_per_rated_game: f64,
    snapshot_bytes: usize,
    snapshot_encode_ms: f64,
    snapshot_decode_ms: f64,
    load_average: String,
}

/// One fold of every generated result into a model.
#[derive(Debug, serde::Serialize)]
struct Pass {
    rss_before_mb: f64,
    rss_after_mb: f64,
    bytes_per_rated_game: f64,
    fold_us_per_result: f64,
    results_per_s: f64,
    /// Results per second of this thread's CPU time (what an idle machine's wall clock
    /// would show).
    results_per_cpu_s: f64,
    score_us_per_result: f64,
}

/// Players' streams and each league's non-result events are dropped as they come.
fn is_result(event: &DomainEvent) -> bool {
    matches!(
        event,
        DomainEvent::League(LeagueEvent::GameFinished(_))
            | DomainEvent::League(LeagueEvent::GameResultCorrected(_))
    )
}

/// Leagues whose results are folded in one timed block: the CPU clock is read around each
/// block, often enough to be exact, rarely enough to cost nothing (about 4,000 results).
const BLOCK_LEAGUES: usize = 100;

/// This thread's time on a CPU so far (`/proc/thread-self/schedstat`), which the other
/// processes of a busy machine do not inflate, unlike the wall clock.
fn cpu_time() -> Result<Duration, BenchError> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").context("schedstat")?;
    let nanos = text.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    Ok(Duration::from_nanos(nanos))
}

/// Folds `games` generated games' results into `model`: the pass's figures, the games rated
/// and their seats.
fn fold(model: &mut RatingsModel, games: u64) -> Result<(Pass, u64, u64), BenchError> {
    let placement = |_: Uuid| Some(ScoringSystem::Placement);
    let start = Utc::now();
    let (mut fold, mut fold_cpu, mut score) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut position, mut rated, mut slots, mut results) = (0u64, 0u64, 0u64, 0u64);
    let rss_before = resident_bytes(Process::This)?;
    // A target no log reaches: the loop stops at `games` rated games.
    let mut generator = Generator::new(u64::MAX);
    let mut events: Vec<DomainEvent> = Vec::new();
    let mut exhausted = false;
    while rated < games && !exhausted {
        events.clear();
        for _ in 0..BLOCK_LEAGUES {
            let Some(stream) = generator.next() else {
                exhausted = true;
                break;
            };
            events.extend(stream?.events.into_iter().filter(is_result));
        }
        let (started, cpu) = (Instant::now(), cpu_time()?);
        for event in &events {
            position += 1;
            let meta = EventMeta {
                position,
                stream_version: position,
                recorded_at: start + TimeDelta::microseconds(position as i64),
            };
            model.apply_event(meta, event, placement).context("fold a generated result")?;
        }
        fold_cpu += cpu_time()? - cpu;
        fold += started.elapsed();
        results += events.len() as u64;
        let started = Instant::now();
        for event in &events {
            if let DomainEvent::League(LeagueEvent::GameFinished(GameFinished { result, .. }))
            | DomainEvent::League(LeagueEvent::GameResultCorrected(GameResultCorrected {
                result,
                ..
            })) = event
            {
                let scored = score_game_unexplained(ScoringSystem::Placement, result)
                    .context("score a generated result")?;
                std::hint::black_box(scored);
            }
        }
        score += started.elapsed();
        for event in &events {
            if let DomainEvent::League(LeagueEvent::GameFinished(GameFinished {
                result: GameResult::Placement(e),
                ..
            })) = event
            {
                rated += 1;
                slots += e.len() as u64;
            }
        }
    }
    drop(events);
    let rss_after = resident_bytes(Process::This)?;
    let pass = Pass {
        rss_before_mb: rss_before / 1e6,
        rss_after_mb: rss_after / 1e6,
        bytes_per_rated_game: (rss_after - rss_before) / rated as f64,
        fold_us_per_result: fold.as_secs_f64() * 1e6 / results as f64,
        results_per_s: results as f64 / fold.as_secs_f64().max(1e-9),
        results_per_cpu_s: results as f64 / fold_cpu.as_secs_f64().max(1e-9),
        score_us_per_result: score.as_secs_f64() * 1e6 / results as f64,
    };
    Ok((pass, rated, slots))
}

fn measure(games: u64) -> Result<Figures, BenchError> {
    let mut windowed = RatingsModel::windowed(RATINGS_WINDOW);
    let (windowed_pass, _, _) = fold(&mut windowed, games)?;
    let mut complete = RatingsModel::new();
    let (complete_pass, rated, slots) = fold(&mut complete, games)?;
    let games_rated = complete.ratings().games_rated(GameKind::Placement) as u64;
    let same = windowed.ratings().leaderboard(GameKind::Placement, None)
        == complete.ratings().leaderboard(GameKind::Placement, None);
    if !same || windowed.results_folded() != complete.results_folded() {
        return Err(anyhow::anyhow!("the windowed model ranks otherwise than the complete").into());
    }
    let started = Instant::now();
    let body = windowed.snapshot_body(RATINGS_WINDOW).context("a stale model")?;
    let snapshot_encode_ms = started.elapsed().as_secs_f64() * 1e3;
    let started = Instant::now();
    let decoded = RatingsModel::from_snapshot_body(&body, RATINGS_WINDOW)
        .map_err(|error| anyhow::anyhow!("decode the snapshot: {error}"))?;
    let snapshot_decode_ms = started.elapsed().as_secs_f64() * 1e3;
    if decoded.ratings().leaderboard(GameKind::Placement, None)
        != complete.ratings().leaderboard(GameKind::Placement, None)
    {
        return Err(anyhow::anyhow!("the snapshot ranks otherwise than the complete").into());
    }
    Ok(Figures {
        games_rated,
        results_folded: complete.results_folded() as u64,
        players_per_game: slots as f64 / rated as f64,
        complete: complete_pass,
        windowed: windowed_pass,
        floor_bytes_per_rated_game: 16.0 * slots as f64 / rated as f64,
        snapshot_bytes: body.len(),
        snapshot_encode_ms,
        snapshot_decode_ms,
        load_average: load_average(),
    })
}

pub fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.games < 1000 {
        return Err(BenchError::BadInput(format!(
            "--games must be at least 1000, got {}",
            args.games
        )));
    }
    let figures = measure(args.games)?;
    print_figures(&figures, args.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

fn print_table(figures: &Figures) {
    println!(
        "ratings bench: {} rated games ({:.2} players each), {} results folded (load {})",
        figures.games_rated, figures.players_per_game, figures.results_folded, figures.load_average
    );
    for (name, pass) in [("complete", &figures.complete), ("windowed", &figures.windowed)] {
        println!(
            "  {name} model: resident set {:>8.1} MB before, {:.1} MB after the fold",
            pass.rss_before_mb, pass.rss_after_mb
        );
        println!(
            "    memory                     {:>8.0} bytes per rated game (floor: μ and σ of its players {:.0})",
            pass.bytes_per_rated_game, figures.floor_bytes_per_rated_game
        );
        println!(
            "    fold                       {:>8.2} µs per result, {:.0} results/s, {:.0} per CPU-second (floor: scoring it {:.2} µs)",
            pass.fold_us_per_result,
            pass.results_per_s,
            pass.results_per_cpu_s,
            pass.score_us_per_result
        );
    }
    println!(
        "  windowed snapshot            {:>8.2} MB; encoded in {:.1} ms, decoded in {:.1} ms",
        figures.snapshot_bytes as f64 / 1e6,
        figures.snapshot_encode_ms,
        figures.snapshot_decode_ms
    );
}
