//! `league tournament …`: a tournament read from the log (`docs/tournaments.md`): re-run every
//! recorded seeding and say whether it gives the same boards, print the standings (after a
//! round, at a point in history) or a round's board call; register and enter a list of
//! walk-ins.

use league_domain::TournamentEvent;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Arc;

use league_app::{App, AppError, AsOf, NewToken, UseExisting};
use league_domain::{Actor, Aggregate, DomainEvent, Tournament};
use league_projections::decode;
use league_scoring::{GameResult, score_game};

use super::personal::refused;
use super::replay::{name, open_app, parse_uuid, print_json};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    #[command(subcommand)]
    pub command: TournamentCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum TournamentCommand {
    /// Re-run every recorded seeding from the events before it: exit 1 unless each gives the
    /// recorded inputs' digest and boards.
    VerifySeeding(TournamentRef),
    /// Print the standings as JSON: round scores (dropped ones marked), total, rank.
    Standings(StandingsArgs),
    /// Print a round's board call: each board's seats (powers) and players.
    Boards(BoardsArgs),
    /// Explain, event by event, how the tournament came to be: entries, roll calls, seedings,
    /// swaps, each board's scores with the system's explanation, and the standings now.
    Audit(TournamentRef),
    /// Register and enter a list of people in one step, as the site admin
    /// (docs/tournaments.md#walk-ins-and-bulk-entry): CSV, a name per line, optionally a
    /// header `name,wdr,…`. Prints each person's line, id, name and, for a new player, their
    /// token (shown only this once); `--preview` prints the matches and bad lines instead.
    WalkIns(WalkInsArgs),
    /// Print each power's Best Country leaders as JSON (docs/tournaments.md#best-country-and-awards).
    BestCountries(TournamentRef),
    /// List, give or revoke a tournament's named awards.
    Award(super::awards::AwardArgs),
    /// Teams and team standings (docs/tournaments.md#teams): list, set the rules, create,
    /// rename, dissolve, put entrants in and out.
    Team(super::teams::TeamArgs),
    /// How powers are given, the players' rankings, setting and choosing a board's powers
    /// (docs/tournaments.md#power-assignment).
    Powers(super::powers::PowersArgs),
    /// List, set or remove a round's pool (docs/tournaments.md#pools-top-boards-and-per-round-scoring).
    Pool(super::pools::PoolArgs),
    /// Set the system scoring a round's boards, before any has a result.
    RoundScoring(super::pools::RoundScoringArgs),
    /// Score adjustments, handicaps, unranked entrants and top-board orders
    /// (docs/tournaments.md#rulings).
    Ruling(super::rulings::RulingArgs),
    /// Add or remove a keep-apart pair before the seedings that use it.
    KeepApart(super::rulings::KeepApartArgs),
}

#[derive(Debug, clap::Args)]
pub struct WalkInsArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The list (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub file: String,
    /// Print what would happen as JSON (matches with registered players, bad lines) and
    /// append nothing.
    #[arg(long)]
    pub preview: bool,
    /// Enter the registered player PLAYER_ID for the person on line LINE (repeatable).
    #[arg(long = "use", value_name = "LINE=PLAYER_ID")]
    pub use_existing: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct TournamentRef {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The tournament (UUID).
    #[arg(long, value_name = "ID")]
    pub tournament: String,
}

#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// Standings after this round (default: every round so far).
    #[arg(long, value_name = "N")]
    pub after_round: Option<u32>,
    /// Standings as of this global log position.
    #[arg(long, value_name = "POSITION")]
    pub to_position: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct BoardsArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The round (1-based).
    #[arg(long, value_name = "N")]
    pub round: u32,
}

pub async fn run(args: TournamentArgs) -> Result<ExitCode, CliError> {
    match args.command {
        TournamentCommand::VerifySeeding(of) => verify_seeding(of).await,
        TournamentCommand::Standings(args) => standings(args).await,
        TournamentCommand::Boards(args) => boards(args).await,
        TournamentCommand::Audit(of) => audit(of).await,
        TournamentCommand::WalkIns(args) => walk_ins(args).await,
        TournamentCommand::BestCountries(of) => super::awards::best_countries(of).await,
        TournamentCommand::Award(args) => super::awards::award(args).await,
        TournamentCommand::Team(args) => super::teams::team(args).await,
        TournamentCommand::Powers(args) => super::powers::run(args).await,
        TournamentCommand::Pool(args) => super::pools::pool(args).await,
        TournamentCommand::RoundScoring(args) => super::pools::round_scoring(args).await,
        TournamentCommand::Ruling(args) => super::rulings::ruling(args).await,
        TournamentCommand::KeepApart(args) => super::rulings::keep_apart(args).await,
    }
}

/// The app over the database and the tournament's id; an unknown tournament is bad input.
pub(super) async fn open(of: &TournamentRef) -> Result<(App, uuid::Uuid), CliError> {
    let id = parse_uuid("--tournament", &of.tournament)?;
    let app = open_app(&of.database.url).await?;
    if app.catalog().tournament(id).is_none() {
        return Err(CliError::BadInput(format!("--tournament: no tournament {id} in this log")));
    }
    Ok((app, id))
}

pub(super) fn failed(error: AppError) -> CliError {
    CliError::Failed(error.into())
}

/// `league tournament walk-ins`: the list previewed, or registered and entered.
async fn walk_ins(args: WalkInsArgs) -> Result<ExitCode, CliError> {
    let text = if args.file == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(&args.file)
    }
    .map_err(|error| CliError::BadInput(format!("--file: {error}")))?;
    let existing = args
        .use_existing
        .iter()
        .map(|pick| {
            let (line, player) = pick.split_once('=').unwrap_or((pick, ""));
            let line = line.trim().parse::<usize>().map_err(|_| {
                CliError::BadInput(format!("--use {pick:?}: expected LINE=PLAYER_ID"))
            })?;
            Ok(UseExisting { line, player_id: parse_uuid("--use", player.trim())? })
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let (app, id) = open(&args.of).await?;
    if args.preview {
        let preview = app.walk_ins_preview(Actor::Admin, id, &text).await.map_err(refused)?;
        print_json(&preview)?;
        return Ok(ExitCode::SUCCESS);
    }
    let new_token = || {
        let token = league_gateway::auth::generate_token();
        NewToken { hash: league_gateway::auth::hash_token(&token), token }
    };
    let walked_in =
        app.walk_ins(Actor::Admin, id, &text, &existing, new_token).await.map_err(refused)?;
    let mut out = String::new();
    for w in &walked_in {
        let what = match (w.registered, w.entered) {
            (true, _) => "registered and entered",
            (false, true) => "entered",
            (false, false) => "entered already",
        };
        let _ = write!(out, "line {}\t{}\t{}\t{what}", w.line, w.player_id, w.name);
        if let Some(token) = &w.token {
            let _ = write!(out, "\ttoken {token}");
        }
        out.push('\n');
    }
    super::write_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

async fn verify_seeding(of: TournamentRef) -> Result<ExitCode, CliError> {
    let (app, id) = open(&of).await?;
    let checks = app.verify_seeding(id).await.map_err(failed)?;
    let mut text = String::new();
    for check in &checks {
        let verdict = if check.verified() { "verified" } else { "MISMATCH" };
        let _ = write!(
            text,
            "round {}: {verdict} ({}, seed {}, inputs {})",
            check.round, check.algorithm, check.seed, check.recorded_digest
        );
        if check.recomputed_digest != check.recorded_digest && !check.recomputed_digest.is_empty() {
            let _ = write!(text, "; the log gives inputs {}", check.recomputed_digest);
        }
        if !check.boards_match && check.problem.is_none() {
            text.push_str("; the re-run seats other boards");
        }
        if let Some(problem) = &check.problem {
            let _ = write!(text, "; {problem}");
        }
        text.push('\n');
    }
    if checks.is_empty() {
        text.push_str("no round seeded yet\n");
    }
    super::write_stdout(&text)?;
    Ok(if checks.iter().all(|c| c.verified()) { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

async fn standings(args: StandingsArgs) -> Result<ExitCode, CliError> {
    let (app, id) = open(&args.of).await?;
    let state: Arc<Tournament> = match args.to_position {
        Some(position) => app.tournament_as_of(id, AsOf::Position(position)).await,
        None => app.existing_tournament(id).await,
    }
    .map_err(failed)?;
    let rows = state.standings(args.after_round).map_err(|e| failed(e.into()))?;
    print_json(&rows)?;
    Ok(ExitCode::SUCCESS)
}

async fn boards(args: BoardsArgs) -> Result<ExitCode, CliError> {
    let (app, id) = open(&args.of).await?;
    let state = app.existing_tournament(id).await.map_err(failed)?;
    let Some(round) = state.round(args.round) else {
        return Err(CliError::BadInput(format!("--round: round {} is not seeded", args.round)));
    };
    let labels = state.seat_labels();
    let name = |player| {
        app.catalog().player(player).map_or_else(|| player.to_string(), |p| p.name.clone())
    };
    let mut text = String::new();
    for board in &round.boards {
        let _ = writeln!(text, "Round {} — board {}", round.number, board.number);
        for (label, player) in labels.iter().zip(&board.seats) {
            let _ = writeln!(text, "  {label:<10} {}", name((*player).into()));
        }
    }
    if !round.sitting_out.is_empty() {
        let names: Vec<String> = round.sitting_out.iter().map(|p| name((*p).into())).collect();
        let _ = writeln!(text, "Sitting out: {}", names.join(", "));
    }
    super::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `league tournament audit`: every event of the tournament's stream in words, the scores of
/// each board result with the scoring system's explanation, then the standings now.
async fn audit(of: TournamentRef) -> Result<ExitCode, CliError> {
    let (app, id) = open(&of).await?;
    let events = app.tournament_events(id).await.map_err(failed)?;
    let mut state = Tournament::default();
    let mut text = String::new();
    for recorded in &events {
        let (_, event) = decode(recorded).map_err(|e| failed(AppError::internal(e)))?;
        let head = format!(
            "#{} {} {} by {}",
            recorded.position,
            recorded.recorded_at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            recorded.event_type,
            recorded.metadata.actor.as_deref().unwrap_or("unknown")
        );
        describe(&mut text, &app, &state, &head, &event).await;
        state.apply_event(&event);
    }
    let _ = writeln!(text, "\nStandings now:");
    for row in state.standings(None).map_err(|e| failed(e.into()))? {
        let rounds: Vec<String> = row
            .rounds
            .iter()
            .map(|r| match (r.score, r.sat_out, r.dropped) {
                (Some(score), _, true) => format!("r{} ({score})", r.round),
                (Some(score), _, false) => format!("r{} {score}", r.round),
                (None, true, _) => format!("r{} sat out", r.round),
                (None, false, _) => format!("r{} —", r.round),
            })
            .collect();
        let _ = writeln!(
            text,
            "  {:>2}. {}  {}  [{}]  ({} boards, {} wins, {} draws)",
            row.rank,
            name(&app, row.player.into()),
            row.total,
            rounds.join(", "),
            row.games,
            row.wins,
            row.draws
        );
    }
    super::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// One event of the tournament: its sentence (`App::describe`), then what an auditor checks
/// beside it: a seeding's parameters, a board's scores with the system's explanation.
async fn describe(
    text: &mut String,
    app: &App,
    state: &Tournament,
    head: &str,
    event: &DomainEvent,
) {
    let sentence = app.describe_naming(event, &|player| name(app, player)).await;
    let _ = writeln!(text, "{head}: {sentence}");
    let DomainEvent::Tournament(event) = event else { return };
    if let TournamentEvent::RoundSeeded(e) = event {
        let _ = writeln!(
            text,
            "    {} boards ({}, seed {}, inputs {}; repeat score {}, seat repeats {}, keep-apart met {})",
            e.boards.len(),
            e.algorithm,
            e.seed,
            e.inputs_digest,
            e.repeat_score,
            e.seat_repeats,
            e.keep_apart_met,
        );
    }
    if let Some(recorded) = event.effects().result {
        explain_scores(text, app, state, recorded.result);
    }
}

/// A board's scores under the tournament's system, each with the system's explanation.
fn explain_scores(text: &mut String, app: &App, state: &Tournament, result: &GameResult) {
    let Some(system) = state.settings().map(|s| s.scoring_system) else { return };
    match score_game(system, result) {
        Ok(scored) => {
            for row in &scored.players {
                let player = uuid::Uuid::parse_str(&row.player)
                    .map_or_else(|_| row.player.clone(), |p| name(app, p));
                let _ = writeln!(text, "    {player}: {}", row.score);
                for line in &row.explanation {
                    let _ = writeln!(text, "      {line}");
                }
            }
        }
        Err(error) => {
            let _ = writeln!(text, "    cannot be scored: {error}");
        }
    }
}
