//! The `Calendar` aggregate (stream `calendar-<player uuid>`): a player's secret calendar
//! feed. The feed's URL carries a secret; only its hash is stored, as for bearer tokens, so a
//! leaked log does not leak feeds. Issuing a new secret (the player themself or the site
//! admin) replaces the previous one, which stops working at once.

pub(crate) mod commands;
pub(crate) mod events;

pub use self::commands::*;
pub use self::events::*;

use crate::aggregate::Aggregate;
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

    fn handle(
        &self,
        command: &CalendarCommand,
        context: &Context,
    ) -> Result<Vec<CalendarEvent>, DomainError> {
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
pub(crate) mod tests {
    use super::*;
    use crate::events::DomainEvent;
    use crate::ids::{Actor, PlayerId};
    use chrono::Utc;
    use uuid::Uuid;

    pub(crate) const PLAYER: PlayerId =
        PlayerId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0c01));
    const OTHER: PlayerId =
        PlayerId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0c02));

    fn rotate(actor: Actor, feed_hash: &str) -> CalendarCommand {
        RotateCalendarFeed { actor, player_id: PLAYER, feed_hash: feed_hash.into() }.into()
    }

    fn context() -> Context {
        Context::new(Utc::now())
    }

    /// The events of a player's calendar feed: issued by the player, rotated by the admin.
    pub(crate) fn issued_and_rotated() -> Vec<DomainEvent> {
        let mut calendar = Calendar::default();
        let mut events = Vec::new();
        for command in [rotate(Actor::Player(PLAYER), "first"), rotate(Actor::Admin, "second")] {
            for event in calendar.decide(&command, &context()).unwrap() {
                calendar.apply_event(&event);
                events.push(event);
            }
        }
        events
    }

    #[test]
    fn the_first_secret_is_issued_and_later_ones_rotate_it() {
        let events = issued_and_rotated();
        assert_eq!(
            events,
            vec![
                DomainEvent::from(CalendarFeedIssued {
                    player_id: PLAYER,
                    feed_hash: "first".into(),
                    issued_by: Actor::Player(PLAYER),
                }),
                DomainEvent::from(CalendarFeedRotated {
                    player_id: PLAYER,
                    feed_hash: "second".into(),
                    rotated_by: Actor::Admin,
                }),
            ]
        );
        let calendar = Calendar::from_events(&events);
        assert!(calendar.accepts("second"));
        assert!(!calendar.accepts("first"));
        assert_eq!(calendar.version(), 2);
        assert_eq!(events[0].stream_id(), format!("calendar-{PLAYER}"));
        assert_eq!(crate::player_id_of_calendar_stream(&events[1].stream_id()), Some(PLAYER));
    }

    #[test]
    fn another_player_an_unknown_player_and_an_empty_hash_are_refused() {
        let calendar = Calendar::default();
        let other = calendar.decide(&rotate(Actor::Player(OTHER), "h"), &context()).unwrap_err();
        assert!(matches!(other, DomainError::Forbidden(_)), "{other}");
        let unknown = context().with_unknown_players(vec![PLAYER]);
        let missing = calendar.decide(&rotate(Actor::Admin, "h"), &unknown).unwrap_err();
        assert_eq!(missing, DomainError::PlayerNotFound(PLAYER));
        let empty = calendar.decide(&rotate(Actor::Admin, " "), &context()).unwrap_err();
        assert!(matches!(empty, DomainError::InvalidInput { .. }), "{empty}");
    }
}
