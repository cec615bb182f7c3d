//! The `Player` aggregate (stream `player-<uuid>`): registration.

use crate::aggregate::Aggregate;
use crate::commands::{PlayerCommand, RegisterPlayer};
use crate::context::Context;
use crate::error::DomainError;
use crate::events::{DomainEvent, PlayerRegistered};
use crate::ids::{PlayerId, player_stream_id};
use crate::rules::clean_name;

/// A player's state, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Player {
    version: u64,
    registered: Option<PlayerRegistered>,
}

impl Player {
    /// Whether the player has been registered.
    pub fn exists(&self) -> bool {
        self.registered.is_some()
    }

    pub fn id(&self) -> Option<PlayerId> {
        self.registered.as_ref().map(|r| r.player_id)
    }

    pub fn name(&self) -> Option<&str> {
        self.registered.as_ref().map(|r| r.name.as_str())
    }

    pub fn token_hash(&self) -> Option<&str> {
        self.registered.as_ref().map(|r| r.token_hash.as_str())
    }

    /// `player-<uuid>`, once registered.
    pub fn stream_id(&self) -> Option<String> {
        self.id().map(player_stream_id)
    }

    fn register(&self, command: &RegisterPlayer) -> Result<Vec<DomainEvent>, DomainError> {
        if !command.actor.is_admin() {
            return Err(DomainError::Forbidden("only an admin may register players"));
        }
        if self.exists() {
            return Err(DomainError::PlayerAlreadyRegistered(command.player_id));
        }
        let name = clean_name("name", &command.name)?;
        if command.token_hash.trim().is_empty() {
            return Err(DomainError::invalid("tokenHash", "must not be empty"));
        }
        Ok(vec![DomainEvent::PlayerRegistered(PlayerRegistered {
            player_id: command.player_id,
            name,
            token_hash: command.token_hash.clone(),
        })])
    }
}

impl Aggregate for Player {
    type Command = PlayerCommand;

    fn handle(
        &self,
        command: &PlayerCommand,
        _context: &Context,
    ) -> Result<Vec<DomainEvent>, DomainError> {
        match command {
            PlayerCommand::Register(c) => self.register(c),
        }
    }

    fn apply(&mut self, event: &DomainEvent) {
        self.version += 1;
        if let DomainEvent::PlayerRegistered(e) = event {
            self.registered = Some(e.clone());
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}
