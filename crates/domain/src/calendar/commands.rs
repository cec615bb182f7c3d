//! The commands of the [`crate::Calendar`] aggregate.

use crate::ids::{Actor, PlayerId, calendar_stream_id};

/// A player gets a new calendar feed secret (the first one, or one replacing the current
/// one): themself, or the site admin for anyone. Only the secret's hash reaches the domain.
#[derive(Debug, Clone, PartialEq)]
pub struct RotateCalendarFeed {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub feed_hash: String,
}

/// Commands handled by the [`Calendar`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum CalendarCommand {
    Rotate(RotateCalendarFeed),
}

impl CalendarCommand {
    pub fn actor(&self) -> Actor {
        match self {
            CalendarCommand::Rotate(c) => c.actor,
        }
    }

    pub fn player_id(&self) -> PlayerId {
        match self {
            CalendarCommand::Rotate(c) => c.player_id,
        }
    }

    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        calendar_stream_id(self.player_id())
    }

    /// The players who must be registered and not erased for the command to make sense (the
    /// feed's owner): the application checks them against the catalog.
    pub fn players_to_check(&self) -> Vec<PlayerId> {
        vec![self.player_id()]
    }
}

impl From<RotateCalendarFeed> for CalendarCommand {
    fn from(c: RotateCalendarFeed) -> Self {
        CalendarCommand::Rotate(c)
    }
}
