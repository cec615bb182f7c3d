//! The events of a player's calendar-feed stream (`calendar-<player uuid>`).

use serde::{Deserialize, Serialize};

use crate::event_enum::aggregate_enum;
use crate::ids::{Actor, PlayerId};

/// A player's first calendar feed secret was issued: only its hash is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarFeedIssued {
    pub player_id: PlayerId,
    pub feed_hash: String,
    pub issued_by: Actor,
}

/// A player's calendar feed secret was replaced: the previous feed URL stops working.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarFeedRotated {
    pub player_id: PlayerId,
    pub feed_hash: String,
    pub rotated_by: Actor,
}

/// The calendar feed's event types, one line each, like `player_events!`.
macro_rules! calendar_events {
    ([$next:ident $(, $rest:ident)*] $($groups:tt)*) => {
        $next! { [$($rest),*] $($groups)*
            Calendar(CalendarEvent, player_id) {
                CalendarFeedIssued = "CalendarFeedIssued" version 1,
                CalendarFeedRotated = "CalendarFeedRotated" version 1,
            }
        }
    };
}
pub(crate) use calendar_events;
calendar_events! { [aggregate_enum] }

impl CalendarEvent {
    /// The steps of [`crate::upcast`] for a calendar feed's events: none so far.
    pub(crate) fn upcast(&mut self, _schema_version: i64) {
        match self {
            CalendarEvent::CalendarFeedIssued(_) | CalendarEvent::CalendarFeedRotated(_) => {}
        }
    }
}
