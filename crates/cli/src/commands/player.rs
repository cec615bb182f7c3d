//! `league player keep-apart add|remove|list`: a player's permanent keep-apart list
//! (`docs/tournaments.md#a-players-permanent-keep-apart-list`), as the site admin changes
//! and reads it.

use std::process::ExitCode;

use league_app::CommandOptions;
use league_domain::{Actor, ChangePermanentKeepApart};

use super::personal::refused;
use super::replay::{open_app, parse_uuid, print_json};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct PlayerArgs {
    #[command(subcommand)]
    pub command: PlayerCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum PlayerCommand {
    /// A player's permanent keep-apart list: the players they never share a board with in
    /// any tournament round.
    KeepApart {
        #[command(subcommand)]
        command: KeepApartCommand,
    },
}

#[derive(Debug, clap::Subcommand)]
pub enum KeepApartCommand {
    /// Put a player on the list, then print the list.
    Add(ChangeArgs),
    /// Take a player off the list, then print the list.
    Remove(ChangeArgs),
    /// Print the list as JSON (player, name, reason).
    List(ListArgs),
}

#[derive(Debug, clap::Args)]
pub struct ChangeArgs {
    #[command(flatten)]
    pub of: ListArgs,
    /// The player to keep apart from (UUID).
    #[arg(long, value_name = "PLAYER_ID")]
    pub other: String,
    /// Why (sealed under the player's key, erased with them).
    #[arg(long)]
    pub reason: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The list's owner (UUID).
    #[arg(value_name = "PLAYER_ID")]
    pub player: String,
}

/// `league player …`.
pub async fn run(args: PlayerArgs) -> Result<ExitCode, CliError> {
    let PlayerCommand::KeepApart { command } = args.command;
    let (of, change) = match command {
        KeepApartCommand::Add(c) => (c.of, Some((c.other, true, c.reason))),
        KeepApartCommand::Remove(c) => (c.of, Some((c.other, false, c.reason))),
        KeepApartCommand::List(of) => (of, None),
    };
    let player = parse_uuid("PLAYER_ID", &of.player)?;
    let app = open_app(&of.database.url).await?;
    if let Some((other, keep, reason)) = change {
        let command = ChangePermanentKeepApart {
            actor: Actor::Admin,
            player_id: player.into(),
            other: parse_uuid("--other", &other)?.into(),
            keep,
            reason,
        };
        app.execute(command, CommandOptions::default()).await.map_err(refused)?;
    }
    print_json(&app.permanent_keep_apart(Actor::Admin, player).await.map_err(refused)?)?;
    Ok(ExitCode::SUCCESS)
}
