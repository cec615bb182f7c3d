//! The `Player` aggregate (stream `player-<uuid>`): registration, the bearer token's
//! rotations and revocations, and the organiser right.

use crate::aggregate::Aggregate;
use crate::commands::{
    AppointOrganiser, DismissOrganiser, PlayerCommand, RegisterPlayer, RevokeToken, RotateToken,
};
use crate::context::Context;
use crate::error::DomainError;
use crate::events::{
    DomainEvent, OrganiserAppointed, OrganiserDismissed, PlayerRegistered, TokenRevoked,
    TokenRotated,
};
use crate::ids::{Actor, PlayerId, player_stream_id};
use crate::rules::clean_name;

/// A player's state, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Player {
    version: u64,
    registered: Option<PlayerRegistered>,
    /// The hash of the player's valid token (`None` once revoked, until rotated again).
    token_hash: Option<String>,
    organiser: bool,
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

    /// The hash of the player's valid token (`None` while revoked).
    pub fn token_hash(&self) -> Option<&str> {
        self.token_hash.as_deref()
    }

    /// Whether the site admin has appointed the player organiser (and not dismissed them).
    pub fn is_organiser(&self) -> bool {
        self.organiser
    }

    /// `player-<uuid>`, once registered.
    pub fn stream_id(&self) -> Option<String> {
        self.id().map(player_stream_id)
    }

    fn registered(&self, player_id: PlayerId) -> Result<(), DomainError> {
        if self.exists() { Ok(()) } else { Err(DomainError::PlayerNotFound(player_id)) }
    }

    fn register(&self, command: &RegisterPlayer) -> Result<Vec<DomainEvent>, DomainError> {
        only_the_site_admin(command.actor, "register players")?;
        if self.exists() {
            return Err(DomainError::PlayerAlreadyRegistered(command.player_id));
        }
        let name = clean_name("name", &command.name)?;
        let token_hash = check_token_hash(&command.token_hash)?;
        Ok(vec![DomainEvent::PlayerRegistered(PlayerRegistered {
            player_id: command.player_id,
            name,
            token_hash,
        })])
    }

    fn rotate_token(&self, c: &RotateToken) -> Result<Vec<DomainEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) {
            only_the_site_admin(c.actor, "rotate another player's token")?;
        }
        self.registered(c.player_id)?;
        let token_hash = check_token_hash(&c.token_hash)?;
        Ok(vec![DomainEvent::TokenRotated(TokenRotated {
            player_id: c.player_id,
            token_hash,
            rotated_by: c.actor,
        })])
    }

    fn revoke_token(&self, c: &RevokeToken) -> Result<Vec<DomainEvent>, DomainError> {
        only_the_site_admin(c.actor, "revoke tokens")?;
        self.registered(c.player_id)?;
        if self.token_hash.is_none() {
            return Err(DomainError::conflict(format!(
                "player {}'s token is already revoked",
                c.player_id
            )));
        }
        Ok(vec![DomainEvent::TokenRevoked(TokenRevoked {
            player_id: c.player_id,
            revoked_by: c.actor,
        })])
    }

    fn appoint(&self, c: &AppointOrganiser) -> Result<Vec<DomainEvent>, DomainError> {
        only_the_site_admin(c.actor, "appoint organisers")?;
        self.registered(c.player_id)?;
        if self.organiser {
            return Err(DomainError::conflict(format!(
                "player {} is already an organiser",
                c.player_id
            )));
        }
        Ok(vec![DomainEvent::OrganiserAppointed(OrganiserAppointed {
            player_id: c.player_id,
            appointed_by: c.actor,
        })])
    }

    fn dismiss(&self, c: &DismissOrganiser) -> Result<Vec<DomainEvent>, DomainError> {
        only_the_site_admin(c.actor, "dismiss organisers")?;
        self.registered(c.player_id)?;
        if !self.organiser {
            return Err(DomainError::conflict(format!(
                "player {} is not an organiser",
                c.player_id
            )));
        }
        Ok(vec![DomainEvent::OrganiserDismissed(OrganiserDismissed {
            player_id: c.player_id,
            dismissed_by: c.actor,
        })])
    }
}

/// Refuses anyone but the site admin, naming the right.
fn only_the_site_admin(actor: Actor, right: &str) -> Result<(), DomainError> {
    if actor.is_admin() {
        Ok(())
    } else {
        Err(DomainError::forbidden(format!("only the site admin may {right}")))
    }
}

fn check_token_hash(token_hash: &str) -> Result<String, DomainError> {
    if token_hash.trim().is_empty() {
        return Err(DomainError::invalid("tokenHash", "must not be empty"));
    }
    Ok(token_hash.to_owned())
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
            PlayerCommand::RotateToken(c) => self.rotate_token(c),
            PlayerCommand::RevokeToken(c) => self.revoke_token(c),
            PlayerCommand::AppointOrganiser(c) => self.appoint(c),
            PlayerCommand::DismissOrganiser(c) => self.dismiss(c),
        }
    }

    fn apply(&mut self, event: &DomainEvent) {
        self.version += 1;
        match event {
            DomainEvent::PlayerRegistered(e) => {
                self.token_hash = Some(e.token_hash.clone());
                self.registered = Some(e.clone());
            }
            DomainEvent::TokenRotated(e) => self.token_hash = Some(e.token_hash.clone()),
            DomainEvent::TokenRevoked(_) => self.token_hash = None,
            DomainEvent::OrganiserAppointed(_) => self.organiser = true,
            DomainEvent::OrganiserDismissed(_) => self.organiser = false,
            _ => {}
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}
