//! Given events / when command / then events or error, for the calendar aggregate.

use super::*;
use crate::events::DomainEvent;
use crate::ids::{Actor, PlayerId};
use chrono::Utc;
use uuid::Uuid;

pub(crate) const PLAYER: PlayerId =
    PlayerId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0c01));
const OTHER: PlayerId = PlayerId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0c02));

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
