//! `league-bench seed`: tournaments of 21, 49, 105 and 300 players seeded round by round
//! (each round's earlier boards = the rounds before, nobody absent; the roll-call plan
//! decides who sits out when the players do not fill whole boards). Per round: the
//! seeder's time, repeatScore and seatRepeats, beside two baselines seeding the same
//! request in the same run: (a) a random seating improved by random swaps for as long as
//! the seeder took; (b) a board-by-board greedy seating improved by swaps for 10× that.
//! Both baselines' boards get the seeder's own seat assignment, so seat figures compare
//! board formation only. Goals: 300 players, round 7 < 1 s; every round's repeatScore at
//! most baseline (b)'s.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use league_scheduling::{
    Attendee, KEEP_APART_WEIGHT, SeatedPlayer, SeedingRequest, plan_round, seat_given_boards,
    seed_round,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::BenchError;
use crate::figures::{load_average, print_figures};

const POWERS: [&str; 7] = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Tournament sizes (players), comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [21, 49, 105, 300])]
    pub players: Vec<usize>,
    /// Rounds per tournament.
    #[arg(long, default_value_t = 7)]
    pub rounds: usize,
    /// Seed of round 1 (round r uses seed + r − 1), also of the baselines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Quality {
    repeat_score: u64,
    seat_repeats: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RoundFigures {
    players: usize,
    round: usize,
    sitting_out: usize,
    ours_ms: f64,
    ours: Quality,
    random_swaps: Quality,
    greedy_swaps: Quality,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Figures {
    baselines: [&'static str; 2],
    load_average: String,
    rounds: Vec<RoundFigures>,
    largest_last_round_ms: f64,
    largest_last_round_goal_ms: f64,
    rounds_at_most_greedy: usize,
}

pub fn run(args: Args) -> Result<ExitCode, BenchError> {
    if args.rounds == 0 || args.players.iter().any(|&n| n < POWERS.len()) {
        return Err(BenchError::BadInput(
            "--rounds must be at least 1 and every tournament at least 7 players".into(),
        ));
    }
    let mut rounds = Vec::new();
    for &players in &args.players {
        rounds.extend(tournament(players, args.rounds, args.seed)?);
    }
    let largest = args.players.iter().max().copied().unwrap_or(0);
    let largest_last_round_ms = rounds
        .iter()
        .filter(|r| r.players == largest && r.round == args.rounds)
        .map(|r| r.ours_ms)
        .sum();
    let rounds_at_most_greedy =
        rounds.iter().filter(|r| r.ours.repeat_score <= r.greedy_swaps.repeat_score).count();
    let figures = Figures {
        baselines: [
            "(a) random seating + random swaps, same time as ours",
            "(b) board-by-board greedy + swaps, 10x our time",
        ],
        load_average: load_average(),
        rounds,
        largest_last_round_ms,
        largest_last_round_goal_ms: 1000.0,
        rounds_at_most_greedy,
    };
    print_figures(&figures, args.json, print_table)?;
    Ok(ExitCode::SUCCESS)
}

fn failed(error: impl std::fmt::Display) -> BenchError {
    BenchError::Failed(anyhow::anyhow!("{error}"))
}

/// Seeds one tournament round by round with the seeder, measuring the baselines on each
/// round's request.
fn tournament(players: usize, rounds: usize, seed: u64) -> Result<Vec<RoundFigures>, BenchError> {
    let names: Vec<String> = (1..=players).map(|i| format!("P{i}")).collect();
    let mut times_sat_out = vec![0u32; players];
    let mut earlier_boards: Vec<Vec<SeatedPlayer>> = Vec::new();
    let mut figures = Vec::with_capacity(rounds);
    for round in 1..=rounds {
        let present: Vec<Attendee> = names
            .iter()
            .zip(&times_sat_out)
            .map(|(player, &times_sat_out)| Attendee {
                player: player.clone(),
                standby: false,
                two_boards: false,
                times_sat_out,
                rank: None,
            })
            .collect();
        let plan = plan_round(POWERS.len(), &present).map_err(failed)?;
        for (player, count) in names.iter().zip(&mut times_sat_out) {
            *count += u32::from(plan.sitting_out.contains(player));
        }
        let request = SeedingRequest {
            board_size: POWERS.len(),
            seats: Some(POWERS.iter().map(|p| p.to_string()).collect()),
            players: names.clone(),
            earlier_boards: earlier_boards.clone(),
            keep_apart: Vec::new(),
            sitting_out: plan.sitting_out.clone(),
            playing_twice: plan.playing_twice,
            top_board: Vec::new(),
            teams: Vec::new(),
            seed: seed + round as u64 - 1,
            power_preferences: None,
            pool: Vec::new(),
        };
        let started = Instant::now();
        let ours = seed_round(&request).map_err(failed)?;
        let ours_time = started.elapsed();
        let baseline = Baseline::new(&request);
        let mut rng = StdRng::seed_from_u64(request.seed);
        let random = baseline.improve(baseline.random(&mut rng), ours_time, &mut rng);
        let greedy = baseline.improve(baseline.greedy(&mut rng), ours_time * 10, &mut rng);
        let quality = |boards: Vec<Vec<usize>>| -> Result<Quality, BenchError> {
            let named: Vec<Vec<String>> = boards
                .into_iter()
                .map(|board| board.into_iter().map(|p| baseline.names[p].clone()).collect())
                .collect();
            let seated = seat_given_boards(&request, &named).map_err(failed)?;
            Ok(Quality { repeat_score: seated.repeat_score, seat_repeats: seated.seat_repeats })
        };
        figures.push(RoundFigures {
            players,
            round,
            sitting_out: plan.sitting_out.len(),
            ours_ms: ours_time.as_secs_f64() * 1000.0,
            ours: Quality { repeat_score: ours.repeat_score, seat_repeats: ours.seat_repeats },
            random_swaps: quality(random)?,
            greedy_swaps: quality(greedy)?,
        });
        earlier_boards.extend(ours.boards);
    }
    Ok(figures)
}

/// The baselines' view of a request: the players to seat and the pair costs, as the issue
/// defines them (Σ over ordered pairs of (earlier shared boards)², keep-apart pairs as 25
/// more), in a plain matrix.
struct Baseline {
    names: Vec<String>,
    board_size: usize,
    cost: Vec<u64>,
}

impl Baseline {
    fn new(request: &SeedingRequest) -> Self {
        let names: Vec<String> =
            request.players.iter().filter(|p| !request.sitting_out.contains(p)).cloned().collect();
        let n = names.len();
        let index = |name: &str| names.iter().position(|p| p == name);
        let mut weight = vec![0u64; n * n];
        for board in &request.earlier_boards {
            let present: Vec<usize> = board.iter().filter_map(|s| index(&s.player)).collect();
            for &p in &present {
                for &q in &present {
                    weight[p * n + q] += u64::from(p != q);
                }
            }
        }
        for [a, b] in &request.keep_apart {
            if let (Some(p), Some(q)) = (index(a), index(b)) {
                weight[p * n + q] += u64::from(KEEP_APART_WEIGHT);
                weight[q * n + p] += u64::from(KEEP_APART_WEIGHT);
            }
        }
        let cost = weight.into_iter().map(|w| w * w).collect();
        Self { names, board_size: request.board_size, cost }
    }

    fn added_cost(&self, board: &[usize], player: usize) -> u64 {
        let n = self.names.len();
        board.iter().filter(|&&q| q != player).map(|&q| 2 * self.cost[player * n + q]).sum()
    }

    fn random(&self, rng: &mut StdRng) -> Vec<Vec<usize>> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.shuffle(rng);
        order.chunks(self.board_size).map(<[usize]>::to_vec).collect()
    }

    /// Board by board: a random first player, then the one adding least cost, until full.
    fn greedy(&self, rng: &mut StdRng) -> Vec<Vec<usize>> {
        let mut left: Vec<usize> = (0..self.names.len()).collect();
        left.shuffle(rng);
        let mut boards = Vec::new();
        while let Some(first) = left.pop() {
            let mut board = vec![first];
            while board.len() < self.board_size {
                let (at, _) = left
                    .iter()
                    .enumerate()
                    .min_by_key(|&(_, &p)| self.added_cost(&board, p))
                    .expect("players fill whole boards");
                board.push(left.swap_remove(at));
            }
            boards.push(board);
        }
        boards
    }

    /// Random swaps between two boards, kept when they do not worsen the cost, for `budget`.
    fn improve(
        &self,
        mut boards: Vec<Vec<usize>>,
        budget: Duration,
        rng: &mut StdRng,
    ) -> Vec<Vec<usize>> {
        let count = boards.len();
        if count < 2 {
            return boards;
        }
        let started = Instant::now();
        let k = self.board_size;
        loop {
            for _ in 0..256 {
                let a = rng.random_range(0..count);
                let b = (a + rng.random_range(1..count)) % count;
                let (i, j) = (rng.random_range(0..k), rng.random_range(0..k));
                let (pa, pb) = (boards[a][i], boards[b][j]);
                let before = self.added_cost(&boards[a], pa) + self.added_cost(&boards[b], pb);
                boards[a][i] = pb;
                boards[b][j] = pa;
                let after = self.added_cost(&boards[a], pb) + self.added_cost(&boards[b], pa);
                if after > before {
                    boards[a][i] = pa;
                    boards[b][j] = pb;
                }
            }
            if started.elapsed() >= budget {
                return boards;
            }
        }
    }
}

fn print_table(figures: &Figures) {
    println!(
        "seed: baselines on the same request, same run: {}; {} (load average {})",
        figures.baselines[0], figures.baselines[1], figures.load_average
    );
    println!(
        "{:>4} {:>5} {:>4} {:>9} {:>16} {:>16} {:>16}",
        "N", "round", "out", "ours ms", "ours rep/seat", "(a) rep/seat", "(b) rep/seat"
    );
    for round in &figures.rounds {
        let pair = |q: &Quality| format!("{}/{}", q.repeat_score, q.seat_repeats);
        println!(
            "{:>4} {:>5} {:>4} {:>9.1} {:>16} {:>16} {:>16}",
            round.players,
            round.round,
            round.sitting_out,
            round.ours_ms,
            pair(&round.ours),
            pair(&round.random_swaps),
            pair(&round.greedy_swaps),
        );
    }
    println!(
        "largest tournament, last round: {:.1} ms (goal < {} ms); repeatScore at most (b)'s in {} of {} rounds",
        figures.largest_last_round_ms,
        figures.largest_last_round_goal_ms,
        figures.rounds_at_most_greedy,
        figures.rounds.len()
    );
}
