//! `league tournament best-countries` and `league tournament award …`: a tournament's Best
//! Country leaders and named awards (`docs/tournaments.md#best-country-and-awards`), printed
//! as the export's JSON shows them; giving and revoking an award as the site admin.

use std::process::ExitCode;

use league_app::CommandOptions;
use league_domain::{Actor, GiveAward, RevokeAward};

use super::personal::refused;
use super::replay::{parse_uuid, print_json};
use super::tournament::{TournamentRef, failed, open};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct AwardArgs {
    #[command(subcommand)]
    pub command: AwardCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum AwardCommand {
    /// Print the awards standing as JSON (number, name, player, power, reason).
    List(TournamentRef),
    /// Give an entrant a named award as the site admin; prints the awards standing.
    Give(GiveArgs),
    /// Revoke an award by its number as the site admin (the audit keeps it); prints the
    /// awards standing.
    Revoke(RevokeArgs),
}

#[derive(Debug, clap::Args)]
pub struct GiveArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The award's name, e.g. "Best Diplomat".
    #[arg(long)]
    pub name: String,
    /// The entrant (UUID).
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: String,
    /// The power it is for (a seat label, e.g. France).
    #[arg(long)]
    pub power: Option<String>,
    #[arg(long)]
    pub reason: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct RevokeArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The award's number (as `award list` shows it).
    #[arg(long, value_name = "N")]
    pub number: u32,
    #[arg(long)]
    pub reason: Option<String>,
}

/// `league tournament best-countries`: each power's leaders as JSON.
pub async fn best_countries(of: TournamentRef) -> Result<ExitCode, CliError> {
    let (app, id) = open(&of).await?;
    let export = app.tournament_export(id).await.map_err(failed)?;
    print_json(&export.best_countries)?;
    Ok(ExitCode::SUCCESS)
}

/// `league tournament award …`.
pub async fn award(args: AwardArgs) -> Result<ExitCode, CliError> {
    let of = match &args.command {
        AwardCommand::List(of) => of,
        AwardCommand::Give(give) => &give.of,
        AwardCommand::Revoke(revoke) => &revoke.of,
    };
    let (app, id) = open(of).await?;
    let tournament_id = id.into();
    match args.command {
        AwardCommand::List(_) => {}
        AwardCommand::Give(give) => {
            let player_id = parse_uuid("--player", &give.player)?.into();
            let command = GiveAward {
                actor: Actor::Admin,
                tournament_id,
                name: give.name,
                player_id,
                power: give.power,
                reason: give.reason,
            };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
        AwardCommand::Revoke(revoke) => {
            let command = RevokeAward {
                actor: Actor::Admin,
                tournament_id,
                award: revoke.number,
                reason: revoke.reason,
            };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
    }
    let export = app.tournament_export(id).await.map_err(failed)?;
    print_json(&export.awards)?;
    Ok(ExitCode::SUCCESS)
}
