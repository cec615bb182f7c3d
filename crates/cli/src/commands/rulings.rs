//! `league tournament ruling …` and `league tournament keep-apart …`: a tournament's rulings
//! (`docs/tournaments.md#rulings`) as the site admin: adjust a score and revoke an adjustment,
//! set a handicap, mark an entrant unranked, order a top board, add and remove keep-apart
//! pairs; list the rulings. Each prints the export's standings lines with their rulings in
//! words (the keep-apart commands the pairs as they stand).

use std::process::ExitCode;

use league_app::{App, CommandOptions};
use league_domain::{
    Actor, AdjustScore, AdjustmentTarget, BreakTopBoardTie, ChangeKeepApart, PlayerId,
    RevokeScoreAdjustment, SetHandicap, SetUnranked, TournamentCommand,
};

use super::personal::refused;
use super::replay::{parse_uuid, print_json};
use super::tournament::{TournamentRef, failed, open};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct RulingArgs {
    #[command(subcommand)]
    pub command: RulingCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum RulingCommand {
    /// Add points (negative: a penalty) to a player's board (`--board`), round (`--round`)
    /// or tournament score, with a reason.
    Adjust(AdjustArgs),
    /// Revoke an adjustment by its number (the audit keeps it).
    Revoke(RevokeArgs),
    /// Set an entrant's handicap before round 1 is seeded (0 removes it).
    Handicap(HandicapArgs),
    /// Mark an entrant unranked (`--ranked` marks them ranked again).
    Unranked(UnrankedArgs),
    /// Order players of a round's top board (first ahead) for when their totals are level.
    TieBreak(TieBreakArgs),
    /// Print the standings lines with their rulings in words, as the exports show them;
    /// changes nothing.
    List(TournamentRef),
}

#[derive(Debug, clap::Args)]
pub struct AdjustArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: String,
    /// The board (UUID) whose score to adjust.
    #[arg(long, value_name = "BOARD_ID", conflicts_with = "round")]
    pub board: Option<String>,
    /// The round whose score to adjust.
    #[arg(long, value_name = "N")]
    pub round: Option<u32>,
    #[arg(long, allow_negative_numbers = true)]
    pub points: f64,
    #[arg(long)]
    pub reason: String,
}

#[derive(Debug, clap::Args)]
pub struct RevokeArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long, value_name = "N")]
    pub number: u32,
    #[arg(long)]
    pub reason: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct HandicapArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: String,
    #[arg(long, allow_negative_numbers = true)]
    pub points: f64,
    #[arg(long)]
    pub reason: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct UnrankedArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: String,
    /// Mark the entrant ranked again.
    #[arg(long)]
    pub ranked: bool,
    #[arg(long)]
    pub reason: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct TieBreakArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long, value_name = "N")]
    pub round: u32,
    /// The players in order, first ahead (repeat, or separate with commas).
    #[arg(long = "player", value_name = "PLAYER_ID", value_delimiter = ',', required = true)]
    pub players: Vec<String>,
    #[arg(long)]
    pub reason: String,
}

#[derive(Debug, clap::Args)]
pub struct KeepApartArgs {
    #[command(subcommand)]
    pub command: KeepApartCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum KeepApartCommand {
    /// Keep two players apart from the next seeding on.
    Add(PairArgs),
    /// Stop keeping two players apart from the next seeding on.
    Remove(PairArgs),
}

#[derive(Debug, clap::Args)]
pub struct PairArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long, value_name = "PLAYER_ID")]
    pub first: String,
    #[arg(long, value_name = "PLAYER_ID")]
    pub second: String,
    #[arg(long)]
    pub reason: Option<String>,
}

fn player(flag: &str, value: &str) -> Result<PlayerId, CliError> {
    Ok(parse_uuid(flag, value)?.into())
}

/// `league tournament ruling …`: runs the ruling, then prints the standings.
pub async fn ruling(args: RulingArgs) -> Result<ExitCode, CliError> {
    let of = match &args.command {
        RulingCommand::Adjust(a) => &a.of,
        RulingCommand::Revoke(a) => &a.of,
        RulingCommand::Handicap(a) => &a.of,
        RulingCommand::Unranked(a) => &a.of,
        RulingCommand::TieBreak(a) => &a.of,
        RulingCommand::List(of) => of,
    };
    let (app, id) = open(of).await?;
    let (actor, tournament_id) = (Actor::Admin, id.into());
    let command: TournamentCommand = match args.command {
        RulingCommand::Adjust(a) => {
            let target = match (a.board, a.round) {
                (Some(board), _) => {
                    AdjustmentTarget::Board { board_id: parse_uuid("--board", &board)?.into() }
                }
                (None, Some(round)) => AdjustmentTarget::Round { round },
                (None, None) => AdjustmentTarget::Tournament,
            };
            let player_id = player("--player", &a.player)?;
            let (points, reason) = (a.points, a.reason);
            AdjustScore { actor, tournament_id, player_id, target, points, reason }.into()
        }
        RulingCommand::Revoke(a) => {
            let (adjustment, reason) = (a.number, a.reason);
            RevokeScoreAdjustment { actor, tournament_id, adjustment, reason }.into()
        }
        RulingCommand::Handicap(a) => {
            let player_id = player("--player", &a.player)?;
            let (points, reason) = (a.points, a.reason);
            SetHandicap { actor, tournament_id, player_id, points, reason }.into()
        }
        RulingCommand::Unranked(a) => {
            let player_id = player("--player", &a.player)?;
            let (unranked, reason) = (!a.ranked, a.reason);
            SetUnranked { actor, tournament_id, player_id, unranked, reason }.into()
        }
        RulingCommand::TieBreak(a) => {
            let order =
                a.players.iter().map(|p| player("--player", p)).collect::<Result<Vec<_>, _>>()?;
            let (round, reason) = (a.round, a.reason);
            BreakTopBoardTie { actor, tournament_id, round, order, reason }.into()
        }
        RulingCommand::List(_) => return print_standings(&app, id).await,
    };
    app.execute(command, CommandOptions::default()).await.map_err(refused)?;
    print_standings(&app, id).await
}

/// The export's standings lines, each with its rulings in words, as JSON.
async fn print_standings(app: &App, id: uuid::Uuid) -> Result<ExitCode, CliError> {
    let export = app.tournament_export(id).await.map_err(failed)?;
    print_json(&export.standings)?;
    Ok(ExitCode::SUCCESS)
}

/// `league tournament keep-apart …`: changes a pair, then prints the pairs as they stand.
pub async fn keep_apart(args: KeepApartArgs) -> Result<ExitCode, CliError> {
    let (pair, keep) = match args.command {
        KeepApartCommand::Add(pair) => (pair, true),
        KeepApartCommand::Remove(pair) => (pair, false),
    };
    let (app, id) = open(&pair.of).await?;
    let command = ChangeKeepApart {
        actor: Actor::Admin,
        tournament_id: id.into(),
        first: player("--first", &pair.first)?,
        second: player("--second", &pair.second)?,
        keep,
        reason: pair.reason,
    };
    app.execute(command, CommandOptions::default()).await.map_err(refused)?;
    let tournament = app.existing_tournament(id).await.map_err(failed)?;
    let pairs: Vec<[uuid::Uuid; 2]> =
        tournament.keep_apart().iter().map(|[a, b]| [a.uuid(), b.uuid()]).collect();
    print_json(&pairs)?;
    Ok(ExitCode::SUCCESS)
}
