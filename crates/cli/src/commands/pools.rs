//! `league tournament pool …` and `league tournament round-scoring …`: a round's pool and a
//! round's own scoring system (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`),
//! set as the site admin; each prints every planned round's stage as JSON.

use std::process::ExitCode;

use league_app::CommandOptions;
use league_domain::{
    Actor, PoolPlayers, RemoveRoundPool, RoundPool, ScoreMultiplier, SetRoundPool, SetRoundScoring,
};
use league_scoring::ScoringSystem;

use super::personal::refused;
use super::replay::{parse_uuid, print_json};
use super::tournament::{TournamentRef, failed, open};
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct PoolArgs {
    #[command(subcommand)]
    pub command: PoolCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum PoolCommand {
    /// Print every planned round's pool and scoring system as JSON.
    List(TournamentRef),
    /// Set a round's pool before it is seeded: the best N by standings (`--best`) or named
    /// players (`--player`, repeated), a whole number of boards.
    Set(SetPoolArgs),
    /// Remove a round's pool before it is seeded.
    Remove(RoundArgs),
}

#[derive(Debug, clap::Args)]
pub struct SetPoolArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long)]
    pub round: u32,
    /// The best N present players by the standings before the round.
    #[arg(long, value_name = "N", conflicts_with = "player", required_unless_present = "player")]
    pub best: Option<u32>,
    /// A pool player (UUID); repeat for each.
    #[arg(long, value_name = "PLAYER_ID")]
    pub player: Vec<String>,
    /// Every score on the pool's boards is multiplied by it (an exact decimal, e.g. 1.5).
    #[arg(long, default_value = "1")]
    pub multiplier: String,
    /// The pool's players take places 1..n·k by their pool board score (last round only).
    #[arg(long)]
    pub decides_places: bool,
}

#[derive(Debug, clap::Args)]
pub struct RoundArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long)]
    pub round: u32,
}

#[derive(Debug, clap::Args)]
pub struct RoundScoringArgs {
    #[command(flatten)]
    pub of: TournamentRef,
    #[arg(long)]
    pub round: u32,
    /// The system scoring the round's boards (`league systems` lists them).
    #[arg(long)]
    pub system: String,
}

/// `league tournament pool …`.
pub async fn pool(args: PoolArgs) -> Result<ExitCode, CliError> {
    let of = match &args.command {
        PoolCommand::List(of) => of,
        PoolCommand::Set(set) => &set.of,
        PoolCommand::Remove(remove) => &remove.of,
    };
    let (app, id) = open(of).await?;
    let tournament_id = id.into();
    match args.command {
        PoolCommand::List(_) => {}
        PoolCommand::Set(set) => {
            let players = match set.best {
                Some(best) => PoolPlayers::Best(best),
                None => PoolPlayers::Named(
                    set.player
                        .iter()
                        .map(|p| parse_uuid("--player", p).map(Into::into))
                        .collect::<Result<_, _>>()?,
                ),
            };
            let multiplier: ScoreMultiplier =
                set.multiplier.parse().map_err(|message: String| {
                    CliError::BadInput(format!("--multiplier: {message}"))
                })?;
            let pool = RoundPool { players, multiplier, decides_places: set.decides_places };
            let command =
                SetRoundPool { actor: Actor::Admin, tournament_id, round: set.round, pool };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
        PoolCommand::Remove(remove) => {
            let command =
                RemoveRoundPool { actor: Actor::Admin, tournament_id, round: remove.round };
            app.execute(command, CommandOptions::default()).await.map_err(refused)?;
        }
    }
    print_stages(&app, id).await
}

/// `league tournament round-scoring`: sets a round's scoring system as the site admin.
pub async fn round_scoring(args: RoundScoringArgs) -> Result<ExitCode, CliError> {
    let (app, id) = open(&args.of).await?;
    let scoring_system: ScoringSystem =
        args.system.parse().map_err(|error| CliError::BadInput(format!("--system: {error}")))?;
    let command = SetRoundScoring {
        actor: Actor::Admin,
        tournament_id: id.into(),
        round: args.round,
        scoring_system,
    };
    app.execute(command, CommandOptions::default()).await.map_err(refused)?;
    print_stages(&app, id).await
}

async fn print_stages(app: &league_app::App, id: uuid::Uuid) -> Result<ExitCode, CliError> {
    let export = app.tournament_export(id).await.map_err(failed)?;
    print_json(&export.round_stages)?;
    Ok(ExitCode::SUCCESS)
}
