//! The events of a series' stream (`series-<uuid>`, `docs/series.md`).

use league_scoring::SeriesBasis;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::event_enum::aggregate_enum;
use crate::ids::{Actor, SeriesId};

/// A series was created by an organiser (`createdBy`) or the site admin (absent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesCreated {
    pub series_id: SeriesId,
    pub name: String,
    /// How many of each player's results count (best N).
    pub best: u32,
    pub basis: SeriesBasis,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<Actor>,
}

/// A league or tournament joined the series (at the end of its order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesEventAdded {
    pub series_id: SeriesId,
    pub competition: Uuid,
    pub added_by: Actor,
}

/// A league or tournament left the series: its results no longer count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesEventRemoved {
    pub series_id: SeriesId,
    pub competition: Uuid,
    pub removed_by: Actor,
}

/// The series' name, count or basis changed: the standings are read under the new ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesSettingsChanged {
    pub series_id: SeriesId,
    pub name: String,
    pub best: u32,
    pub basis: SeriesBasis,
    pub changed_by: Actor,
}

/// A series' event types, one line each, like `player_events!`.
macro_rules! series_events {
    ([$next:ident $(, $rest:ident)*] $($groups:tt)*) => {
        $next! { [$($rest),*] $($groups)*
            Series(SeriesEvent, series_id) {
                SeriesCreated = "SeriesCreated" version 1 in catalog,
                SeriesEventAdded = "SeriesEventAdded" version 1 in catalog,
                SeriesEventRemoved = "SeriesEventRemoved" version 1 in catalog,
                SeriesSettingsChanged = "SeriesSettingsChanged" version 1 in catalog,
            }
        }
    };
}
pub(crate) use series_events;
series_events! { [aggregate_enum] }

impl SeriesEvent {
    /// The steps of [`crate::upcast`] for a series' events: none so far.
    pub(crate) fn upcast(&mut self, _schema_version: i64) {
        match self {
            SeriesEvent::SeriesCreated(_)
            | SeriesEvent::SeriesEventAdded(_)
            | SeriesEvent::SeriesEventRemoved(_)
            | SeriesEvent::SeriesSettingsChanged(_) => {}
        }
    }
}
