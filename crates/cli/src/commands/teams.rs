//! `league tournament team …`: a tournament's teams and team standings
//! (`docs/tournaments.md#teams`), printed as the export's JSON shows them; setting the team
//! rules, creating, renaming and dissolving a team and putting entrants in and out of it, as
//! the site admin.

use std::process::ExitCode;

use league_app::{AppCommand, CommandOptions};
use league_domain::{
    Actor, AddTeamMember, ChangeTeamRules, CreateTeam, DissolveTeam, RemoveTeamMember, RenameTeam,
    TeamRules, TeamScoreBasis,
};

use super::personal::refused;
use super::replay::{parse_uuid, print_json};
use super::tournament::{TournamentRef, failed, open};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct TeamArgs {
    #[command(subcommand)]
    pub command: TeamCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum TeamCommand {
    /// Print the team standings as JSON (rank, team, name, total, members, counted).
    Standings(TournamentRef),
    /// Set the team rules as a whole; prints the team standings.
    Rules(RulesArgs),
    /// Create a team; prints the team standings.
    Create(NameArgs),
    /// Rename team N; prints the team standings.
    Rename(RenameArgs),
    /// Dissolve team N (its members are in no team from then on); prints the team standings.
    Dissolve(NumberArgs),
    /// Put an entrant in team N; prints the team standings.
    Add(MemberArgs),
    /// Take a member out of team N; prints the team standings.
    Remove(MemberArgs),
}

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// Most members a team may have (omitted: no limit).
    #[arg(long, value_name = "N")]
    pub max_size: Option<u32>,
    /// The team rounds, e.g. `2,3` (omitted: every round).
    #[arg(long, value_name = "ROUNDS", value_delimiter = ',')]
    pub team_rounds: Option<Vec<u32>>,
    /// Count round scores instead of board scores.
    #[arg(long)]
    pub round_scores: bool,
    /// Only the team's best N scores count (omitted: all of them).
    #[arg(long, value_name = "N")]
    pub best: Option<u32>,
}

#[derive(Debug, clap::Args)]
pub struct NameArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long)]
    pub name: String,
}

#[derive(Debug, clap::Args)]
pub struct NumberArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    /// The team's number (as `team standings` shows it).
    #[arg(long, value_name = "N")]
    pub number: u32,
}

#[derive(Debug, clap::Args)]
pub struct RenameArgs {
    #[command(flatten)]
    pub team: NumberArgs,
    #[arg(long)]
    pub name: String,
}

#[derive(Debug, clap::Args)]
pub struct MemberArgs {
    #[command(flatten)]
    pub team: NumberArgs,
    /// The entrant (UUID).
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: String,
}

/// `league tournament team …`.
pub async fn team(args: TeamArgs) -> Result<ExitCode, CliError> {
    let of = match &args.command {
        TeamCommand::Standings(of) => of,
        TeamCommand::Rules(rules) => &rules.of,
        TeamCommand::Create(create) => &create.of,
        TeamCommand::Rename(rename) => &rename.team.of,
        TeamCommand::Dissolve(team) => &team.of,
        TeamCommand::Add(member) | TeamCommand::Remove(member) => &member.team.of,
    };
    let (app, id) = open(of).await?;
    let tournament_id = id.into();
    let actor = Actor::Admin;
    let command: Option<AppCommand> = match args.command {
        TeamCommand::Standings(_) => None,
        TeamCommand::Rules(rules) => {
            let basis =
                if rules.round_scores { TeamScoreBasis::Round } else { TeamScoreBasis::Board };
            let rules = TeamRules {
                max_size: rules.max_size,
                team_rounds: rules.team_rounds,
                basis,
                best: rules.best,
            };
            Some(ChangeTeamRules { actor, tournament_id, rules }.into())
        }
        TeamCommand::Create(create) => {
            Some(CreateTeam { actor, tournament_id, name: create.name }.into())
        }
        TeamCommand::Rename(rename) => Some(
            RenameTeam { actor, tournament_id, team: rename.team.number, name: rename.name }.into(),
        ),
        TeamCommand::Dissolve(team) => {
            Some(DissolveTeam { actor, tournament_id, team: team.number }.into())
        }
        TeamCommand::Add(member) => {
            let player_id = parse_uuid("--player", &member.player)?.into();
            Some(AddTeamMember { actor, tournament_id, team: member.team.number, player_id }.into())
        }
        TeamCommand::Remove(member) => {
            let player_id = parse_uuid("--player", &member.player)?.into();
            let team = member.team.number;
            Some(RemoveTeamMember { actor, tournament_id, team, player_id }.into())
        }
    };
    if let Some(command) = command {
        app.execute(command, CommandOptions::default()).await.map_err(refused)?;
    }
    let export = app.tournament_export(id).await.map_err(failed)?;
    print_json(&export.teams)?;
    Ok(ExitCode::SUCCESS)
}
