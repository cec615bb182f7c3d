//! The `Calendar` aggregate (stream `calendar-<player uuid>`): a player's secret calendar
//! feed. The feed's URL carries a secret; only its hash is stored, as for bearer tokens, so a
//! leaked log does not leak feeds. Issuing a new secret (the player themself or the site
//! admin) replaces the previous one, which stops working at once.

pub(crate) mod commands;
pub(crate) mod events;

pub use self::commands::*;
pub use self::events::*;

use crate::aggregate::{Aggregate, Decision};
use crate::context::Context;
use crate::error::DomainError;

/// A player's calendar feed, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Calendar {
    version: u64,
    /// The hash of the valid feed secret (`None` before the first one is issued).
    feed_hash: Option<String>,
}

impl Calendar {
    /// The hash of the player's valid feed secret, once one was issued.
    pub fn feed_hash(&self) -> Option<&str> {
        self.feed_hash.as_deref()
    }

    /// Whether `feed_hash` is the hash of the valid feed secret.
    pub fn accepts(&self, feed_hash: &str) -> bool {
        self.feed_hash.as_deref() == Some(feed_hash)
    }

    fn rotate(
        &self,
        c: &RotateCalendarFeed,
        context: &Context,
    ) -> Result<Vec<CalendarEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) && !c.actor.is_admin() {
            return Err(DomainError::forbidden(
                "only the player themself or the site admin may issue a player's calendar feed",
            ));
        }
        if context.unknown_players.contains(&c.player_id) {
            return Err(DomainError::PlayerNotFound(c.player_id));
        }
        // An erased player's feed stopped with the erasure (`docs/personal-data.md#erasure`).
        context.refuse_erased(c.player_id)?;
        if c.feed_hash.trim().is_empty() {
            return Err(DomainError::invalid("feedHash", "must not be empty"));
        }
        let feed_hash = c.feed_hash.clone();
        Ok(vec![if self.feed_hash.is_none() {
            CalendarEvent::CalendarFeedIssued(CalendarFeedIssued {
                player_id: c.player_id,
                feed_hash,
                issued_by: c.actor,
            })
        } else {
            CalendarEvent::CalendarFeedRotated(CalendarFeedRotated {
                player_id: c.player_id,
                feed_hash,
                rotated_by: c.actor,
            })
        }])
    }
}

impl Aggregate for Calendar {
    type Command = CalendarCommand;
    type Event = CalendarEvent;

    fn handle(&self, command: &Self::Command, context: &Context) -> Decision<Self::Event> {
        match command {
            CalendarCommand::Rotate(c) => self.rotate(c, context),
        }
    }

    fn apply(&mut self, event: &CalendarEvent) {
        self.version += 1;
        match event {
            CalendarEvent::CalendarFeedIssued(e) => self.feed_hash = Some(e.feed_hash.clone()),
            CalendarEvent::CalendarFeedRotated(e) => self.feed_hash = Some(e.feed_hash.clone()),
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}

#[cfg(test)]
pub(crate) mod tests;
