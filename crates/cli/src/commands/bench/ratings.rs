//! `league bench ratings`: what the ratings read model costs per rated game, in memory and
//! in fold time, each beside a floor measured in the same run.
//!
//! Generates placement results in memory (512 players; leagues of 8 with k = 2..6 players
//! per game in turn, 40 games each, random points, about 1 in 20 corrected right after its
//! report, as `league bench replay`'s log) and folds them one by one into a
//! [`RatingsModel`], exactly as the gateway's first ratings load does after decoding. Only
//! one league's events exist at a time, so the process's growth is the model's.
//!
//! - Memory: the resident set (`/proc/self/statm`) before and after the fold, per rated
//!   game; floor: the μ and σ (two `f64`) of every player of every rated game, the least a
//!   model that can re-rate any game and answer as of any position must keep.
//! - Time: the fold per result; floor: scoring the same results under their league's
//!   system (the first thing the fold does with a result), timed in the same loop.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::{TimeDelta, Utc};
use league_domain::{Actor, DomainEvent, GameFinished, GameResultCorrected};
use league_projections::{EventMeta, GameKind, RatingsModel};
use league_scoring::{GameResult, PlacementEntry, ScoringSystem, score_game_unexplained};
use uuid::Uuid;

use super::replay::Rng;
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rated games to generate (at least 1000); 800,000 is what a 1M-event log holds.
    #[arg(long, default_value_t = 800_000)]
    pub games: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Players the leagues draw from (as `league bench replay`).
const PLAYERS: u64 = 512;
/// Games per league.
const GAMES_PER_LEAGUE: u64 = 40;

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    games_rated: u64,
    results_folded: u64,
    /// Players per rated game, on average.
    players_per_game: f64,
    rss_before_mb: f64,
    rss_after_mb: f64,
    bytes_per_rated_game: f64,
    /// μ and σ of every rated player-game: 16 bytes each.
    floor_bytes_per_rated_game: f64,
    fold_us_per_result: f64,
    score_us_per_result: f64,
    load_average: String,
}

/// Resident set of this process in bytes (Linux `/proc/self/statm`, pages of 4 KiB).
fn resident_bytes() -> Result<f64, CliError> {
    let statm = std::fs::read_to_string("/proc/self/statm")
        .context("read /proc/self/statm (Linux only)")?;
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|field| field.parse().ok())
        .context("parse /proc/self/statm")?;
    Ok(pages as f64 * 4096.0)
}

/// The 1-minute, 5-minute and 15-minute load averages (Linux), or "unknown".
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// One league's result events: `GAMES_PER_LEAGUE` games of k of its 8 players.
fn league_results(rng: &mut Rng, league: u64) -> Vec<DomainEvent> {
    let league_id = Uuid::from_u64_pair(rng.next(), rng.next());
    let k = 2 + (league % 5) as usize;
    let mut members: Vec<u64> = Vec::with_capacity(8);
    while members.len() < 8 {
        let candidate = rng.below(PLAYERS);
        if !members.contains(&candidate) {
            members.push(candidate);
        }
    }
    let mut events = Vec::new();
    for _ in 0..GAMES_PER_LEAGUE {
        let game_id = Uuid::from_u64_pair(rng.next(), rng.next());
        let start = rng.below(8) as usize;
        let seats: Vec<u64> = (0..k).map(|seat| members[(start + seat) % 8]).collect();
        let result = |rng: &mut Rng| {
            GameResult::Placement(
                seats
                    .iter()
                    .map(|player| PlacementEntry {
                        player: Uuid::from_u64_pair(0x0193_7000_0000_7000, *player).to_string(),
                        points: rng.below(40) as f64,
                    })
                    .collect(),
            )
        };
        events.push(DomainEvent::GameFinished(GameFinished {
            league_id,
            game_id,
            result: result(rng),
            reported_by: Actor::Admin,
        }));
        if rng.below(20) == 0 {
            events.push(DomainEvent::GameResultCorrected(GameResultCorrected {
                league_id,
                game_id,
                result: result(rng),
                reason: "score sheet re-checked".into(),
                corrected_by: Actor::Admin,
            }));
        }
    }
    events
}

fn measure(games: u64) -> Result<Figures, CliError> {
    let placement = |_: Uuid| Some(ScoringSystem::Placement);
    let mut rng = Rng(0x5EED);
    let start = Utc::now();
    let mut model = RatingsModel::new();
    let (mut fold, mut score) = (Duration::ZERO, Duration::ZERO);
    let (mut position, mut rated, mut slots) = (0u64, 0u64, 0u64);
    let rss_before = resident_bytes()?;
    let mut league = 0;
    while rated < games {
        let events = league_results(&mut rng, league);
        league += 1;
        let started = Instant::now();
        for event in &events {
            position += 1;
            let meta = EventMeta {
                position,
                stream_version: position,
                recorded_at: start + TimeDelta::microseconds(position as i64),
            };
            model.apply_event(meta, event, placement).context("fold a generated result")?;
        }
        fold += started.elapsed();
        let started = Instant::now();
        for event in &events {
            if let DomainEvent::GameFinished(GameFinished { result, .. })
            | DomainEvent::GameResultCorrected(GameResultCorrected { result, .. }) = event
            {
                let scored = score_game_unexplained(ScoringSystem::Placement, result)
                    .context("score a generated result")?;
                std::hint::black_box(scored);
            }
        }
        score += started.elapsed();
        for event in &events {
            if let DomainEvent::GameFinished(GameFinished {
                result: GameResult::Placement(e),
                ..
            }) = event
            {
                rated += 1;
                slots += e.len() as u64;
            }
        }
    }
    let rss_after = resident_bytes()?;
    let games_rated = model.ratings().games_rated(GameKind::Placement) as u64;
    let results = model.results_folded() as u64;
    Ok(Figures {
        games_rated,
        results_folded: results,
        players_per_game: slots as f64 / rated as f64,
        rss_before_mb: rss_before / 1e6,
        rss_after_mb: rss_after / 1e6,
        bytes_per_rated_game: (rss_after - rss_before) / games_rated as f64,
        floor_bytes_per_rated_game: 16.0 * slots as f64 / rated as f64,
        fold_us_per_result: fold.as_secs_f64() * 1e6 / results as f64,
        score_us_per_result: score.as_secs_f64() * 1e6 / results as f64,
        load_average: load_average(),
    })
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.games < 1000 {
        return Err(CliError::BadInput(format!(
            "--games must be at least 1000, got {}",
            args.games
        )));
    }
    let figures = measure(args.games)?;
    if args.json {
        println!("{}", serde_json::to_string(&figures).context("JSON output")?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "ratings bench: {} rated games ({:.2} players each), {} results folded (load {})",
        figures.games_rated, figures.players_per_game, figures.results_folded, figures.load_average
    );
    println!(
        "  resident set                 {:>8.1} MB before, {:.1} MB after the fold",
        figures.rss_before_mb, figures.rss_after_mb
    );
    println!(
        "  model                        {:>8.0} bytes per rated game (floor: μ and σ of its players {:.0})",
        figures.bytes_per_rated_game, figures.floor_bytes_per_rated_game
    );
    println!(
        "  fold                         {:>8.2} µs per result (floor: scoring it {:.2})",
        figures.fold_us_per_result, figures.score_us_per_result
    );
    Ok(ExitCode::SUCCESS)
}
