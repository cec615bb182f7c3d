//! `league seed`: seats one tournament round. Reads a seeding request (JSON) on stdin and
//! prints the seeding (boards in seat order and their repeat figures) as one JSON line;
//! the seeder is the scheduling crate's, so the same request prints the same boards.

use std::io::Read as _;
use std::process::ExitCode;

use league_scheduling::{SeedingRequest, seed_round};

use crate::CliError;

#[derive(Debug, clap::Args)]
#[command(after_help = "Input: {\"boardSize\":7,\"seats\":[…],\"players\":[…],\
\"earlierBoards\":[[{\"player\":…,\"seat\":…},…],…],\"keepApart\":[[a,b],…],\
\"sittingOut\":[…],\"playingTwice\":[…],\"topBoard\":[…],\"seed\":0}")]
pub struct SeedArgs {}

pub fn run(_args: SeedArgs) -> Result<ExitCode, CliError> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|error| CliError::BadInput(format!("cannot read standard input: {error}")))?;
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    let request: SeedingRequest = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|error| CliError::BadInput(format!("invalid seeding request: {error}")))?;
    deserializer
        .end()
        .map_err(|error| CliError::BadInput(format!("invalid seeding request: {error}")))?;
    let seeding = seed_round(&request).map_err(|error| CliError::BadInput(error.to_string()))?;
    let json = serde_json::to_string(&seeding).map_err(anyhow::Error::from)?;
    super::write_stdout(&format!("{json}\n"))?;
    Ok(ExitCode::SUCCESS)
}
