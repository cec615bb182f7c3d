//! `league tournament powers …`: a tournament's power assignment
//! (`docs/tournaments.md#power-assignment`) as the site admin handles it: show the method,
//! the rankings and the boards still choosing; set the method; record one player's ranking or
//! a pasted list; export the rankings (JSON or CSV); set a board's powers; pick a power in
//! turn on a choosing board.

use std::process::ExitCode;

use league_app::{App, CommandOptions, PowerPreferenceRow, power_preferences_csv};
use league_domain::{
    Actor, ChangePowerAssignment, ChoosePower, PowerAssignment, PowerAssignmentRule,
    SetBoardPowers, SubmitPowerPreferences, Tournament,
};
use serde::Serialize;

use super::personal::refused;
use super::replay::{parse_uuid, print_json};
use super::tournament::{TournamentRef, failed, open};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct PowersArgs {
    #[command(subcommand)]
    pub command: PowersCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum PowersCommand {
    /// Print the method, every ranking and the boards still choosing as JSON.
    Show(TournamentRef),
    /// Set how powers are given, as the site admin; prints what `show` prints.
    Method(MethodArgs),
    /// Record one entrant's ranking, best first, as the site admin (no powers: clear it).
    Rank(RankArgs),
    /// Record a list of rankings (one line per entrant: name or id, then the powers best
    /// first, separated by commas, semicolons or tabs); any bad line records nothing.
    Paste(PasteArgs),
    /// Print the rankings as JSON, or as CSV `player,playerId,1,2,…` with `--csv`.
    Export(ExportArgs),
    /// Set every power of a seeded board before its result, as the site admin.
    Set(SetArgs),
    /// Pick a power for the player whose turn it is on a choosing board, as the site admin.
    Choose(ChooseArgs),
}

/// A method as the command line spells it.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Method {
    Automatic,
    Preferences,
    Manual,
    OrderedChoice,
}

#[derive(Debug, clap::Args)]
pub struct MethodArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long, value_enum)]
    pub method: Method,
    /// A round's top board picks by ordered choice whatever the method.
    #[arg(long)]
    pub top_board_ordered_choice: bool,
}

#[derive(Debug, clap::Args)]
pub struct RankArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The entrant (UUID).
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: String,
    /// The powers best first, comma-separated (e.g. "France,England,Italy").
    #[arg(long, default_value = "")]
    pub powers: String,
}

#[derive(Debug, clap::Args)]
pub struct PasteArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The list (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub file: String,
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long)]
    pub csv: bool,
}

#[derive(Debug, clap::Args)]
pub struct SetArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The board (UUID).
    #[arg(long, value_name = "BOARD_ID")]
    pub board: String,
    /// One seat (repeat for every power).
    #[arg(long = "seat", value_name = "POWER=PLAYER_ID")]
    pub seats: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct ChooseArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The board (UUID).
    #[arg(long, value_name = "BOARD_ID")]
    pub board: String,
    /// The player whose turn it is (UUID).
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: String,
    #[arg(long)]
    pub power: String,
}

/// What `show` prints.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PowersView {
    assignment: PowerAssignmentRule,
    preferences: Vec<PowerPreferenceRow>,
    choosing: Vec<ChoosingBoard>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChoosingBoard {
    board_id: uuid::Uuid,
    round: u32,
    number: u32,
    order: Vec<uuid::Uuid>,
    picked: Vec<String>,
    next: Option<uuid::Uuid>,
}

/// `league tournament powers …`.
pub async fn run(args: PowersArgs) -> Result<ExitCode, CliError> {
    let of = match &args.command {
        PowersCommand::Show(of) => of,
        PowersCommand::Method(a) => &a.of,
        PowersCommand::Rank(a) => &a.of,
        PowersCommand::Paste(a) => &a.of,
        PowersCommand::Export(a) => &a.of,
        PowersCommand::Set(a) => &a.of,
        PowersCommand::Choose(a) => &a.of,
    };
    let (app, id) = open(of).await?;
    let tournament_id = id.into();
    let actor = Actor::Admin;
    match args.command {
        PowersCommand::Show(_) => {}
        PowersCommand::Export(export) => {
            let state = state(&app, id).await?;
            let rows = app.power_preference_rows(&state);
            if export.csv {
                let csv =
                    power_preferences_csv(&rows, state.seat_labels().len()).map_err(failed)?;
                super::write_stdout(&csv)?;
            } else {
                print_json(&rows)?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        PowersCommand::Method(m) => {
            let method = match m.method {
                Method::Automatic => PowerAssignment::Automatic,
                Method::Preferences => PowerAssignment::Preferences,
                Method::Manual => PowerAssignment::Manual,
                Method::OrderedChoice => PowerAssignment::OrderedChoice,
            };
            let rule = PowerAssignmentRule {
                method,
                top_board_ordered_choice: m.top_board_ordered_choice,
            };
            let command = ChangePowerAssignment { actor, tournament_id, rule };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
        PowersCommand::Rank(rank) => {
            let player = parse_uuid("--player", &rank.player)?.into();
            let powers = rank
                .powers
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect();
            let rankings = vec![(player, powers)];
            let command = SubmitPowerPreferences { actor, tournament_id, rankings };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
        PowersCommand::Paste(paste) => {
            let text = if paste.file == "-" {
                std::io::read_to_string(std::io::stdin())
            } else {
                std::fs::read_to_string(&paste.file)
            }
            .map_err(|error| CliError::BadInput(format!("--file: {error}")))?;
            let state = state(&app, id).await?;
            let rankings = app.read_power_preference_list(&state, &text).map_err(refused)?;
            let command = SubmitPowerPreferences { actor, tournament_id, rankings };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
        PowersCommand::Set(set) => {
            let board_id = parse_uuid("--board", &set.board)?.into();
            let seats = set
                .seats
                .iter()
                .map(|seat| {
                    let (power, player) = seat.split_once('=').ok_or_else(|| {
                        CliError::BadInput(format!("--seat {seat:?}: expected POWER=PLAYER_ID"))
                    })?;
                    Ok((power.to_owned(), parse_uuid("--seat", player.trim())?.into()))
                })
                .collect::<Result<Vec<_>, CliError>>()?;
            let command = SetBoardPowers { actor, tournament_id, board_id, seats };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
        PowersCommand::Choose(choose) => {
            let command = ChoosePower {
                actor,
                tournament_id,
                board_id: parse_uuid("--board", &choose.board)?.into(),
                player_id: parse_uuid("--player", &choose.player)?.into(),
                power: choose.power,
            };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
    }
    let state = state(&app, id).await?;
    print_json(&view(&app, &state))?;
    Ok(ExitCode::SUCCESS)
}

async fn state(app: &App, id: uuid::Uuid) -> Result<std::sync::Arc<Tournament>, CliError> {
    app.tournament(id)
        .await
        .map_err(failed)?
        .ok_or_else(|| CliError::BadInput(format!("--tournament: no tournament {id}")))
}

fn view(app: &App, state: &Tournament) -> PowersView {
    PowersView {
        assignment: state.power_assignment(),
        preferences: app.power_preference_rows(state),
        choosing: state
            .boards()
            .filter_map(|board| {
                let choice = state.power_choice(board.id)?;
                Some(ChoosingBoard {
                    board_id: board.id.uuid(),
                    round: board.round,
                    number: board.number,
                    order: choice.order.iter().map(|p| p.uuid()).collect(),
                    picked: choice.picked.clone(),
                    next: choice.next().map(|p| p.uuid()),
                })
            })
            .collect(),
    }
}
