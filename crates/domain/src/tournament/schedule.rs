//! A tournament's times (`docs/tournaments.md#times`): its dates and venue, the IANA time
//! zone its times are shown in, when a round's check-in opens, and each round's start (with
//! optionally its final game year and end). Instants are stored in UTC; the time zone only
//! decides how they read.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::error::DomainError;
use crate::rules::clean_name;

/// The time zone of a tournament that names none.
pub const DEFAULT_TIME_ZONE: &str = "UTC";

/// A tournament's dates, venue, time zone and check-in window; every part optional (a
/// tournament created before times existed has none). The field order is the stored JSON's
/// key order: keep it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    /// The IANA time zone the tournament's times are shown in (e.g. `Europe/Paris`);
    /// absent: [`DEFAULT_TIME_ZONE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// The first day, in the tournament's time zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_on: Option<NaiveDate>,
    /// The last day (the first day when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_on: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<Venue>,
    /// A player's own check-in for a round with a start time opens this many minutes before
    /// it (absent: whenever the round's roll call is open).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_in_opens_minutes_before: Option<u32>,
}

/// Where the tournament is played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Venue {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// When a round is played: its start, and optionally its end and the last game year its
/// boards play to (Diplomacy's "the game ends after 1907").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundTimes {
    pub starts_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_year: Option<u32>,
}

/// Longest check-in window: a week before the round.
pub const MAX_CHECK_IN_MINUTES: u32 = 7 * 24 * 60;

impl Schedule {
    /// Nothing set (the schedule is left out of a stored creation).
    pub fn is_unset(&self) -> bool {
        *self == Schedule::default()
    }

    /// The time zone's IANA name.
    pub fn time_zone_name(&self) -> &str {
        self.time_zone.as_deref().unwrap_or(DEFAULT_TIME_ZONE)
    }

    /// `at` as the tournament's clocks show it: `2026-11-28 13:00 (Europe/Paris)`.
    pub fn local_time(&self, at: DateTime<Utc>) -> String {
        let zone = time_zone(self.time_zone_name()).unwrap_or(jiff::tz::TimeZone::UTC);
        let shown = jiff::Timestamp::from_second(at.timestamp())
            .map(|instant| zone.to_datetime(instant).strftime("%Y-%m-%d %H:%M").to_string())
            .unwrap_or_else(|_| at.format("%Y-%m-%d %H:%M").to_string());
        format!("{shown} ({})", self.time_zone_name())
    }

    /// When a player's own check-in for a round starting at `starts_at` opens (`None`:
    /// no window, check-in is open with the roll call).
    pub fn check_in_opens_at(&self, starts_at: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.check_in_opens_minutes_before
            .map(|minutes| starts_at - Duration::minutes(i64::from(minutes)))
    }

    /// The schedule checked against every rule, texts trimmed.
    pub(crate) fn validated(&self) -> Result<Schedule, DomainError> {
        if let Some(zone) = &self.time_zone
            && time_zone(zone).is_none()
        {
            return Err(DomainError::invalid(
                "schedule.timeZone",
                format!("{zone:?} is not an IANA time zone (e.g. Europe/Paris)"),
            ));
        }
        if let (Some(starts_on), Some(ends_on)) = (self.starts_on, self.ends_on)
            && ends_on < starts_on
        {
            return Err(DomainError::invalid(
                "schedule.endsOn",
                format!("the last day {ends_on} is before the first day {starts_on}"),
            ));
        }
        if self.check_in_opens_minutes_before.is_some_and(|m| m > MAX_CHECK_IN_MINUTES) {
            return Err(DomainError::invalid(
                "schedule.checkInOpensMinutesBefore",
                format!("must be at most {MAX_CHECK_IN_MINUTES} (a week)"),
            ));
        }
        let venue = self
            .venue
            .as_ref()
            .map(|venue| {
                Ok::<_, DomainError>(Venue {
                    name: clean_name("schedule.venue.name", &venue.name)?,
                    address: venue
                        .address
                        .as_deref()
                        .map(|a| clean_name("schedule.venue.address", a))
                        .transpose()?,
                })
            })
            .transpose()?;
        Ok(Schedule { venue, ..self.clone() })
    }
}

impl RoundTimes {
    /// The end, when set, is after the start; a final game year is a year.
    pub(crate) fn validate(&self) -> Result<(), DomainError> {
        if let Some(ends_at) = self.ends_at
            && ends_at <= self.starts_at
        {
            return Err(DomainError::invalid(
                "endsAt",
                format!(
                    "the round must end after it starts ({} is not after {})",
                    ends_at.to_rfc3339(),
                    self.starts_at.to_rfc3339()
                ),
            ));
        }
        if self.final_year.is_some_and(|year| !(1..=9999).contains(&year)) {
            return Err(DomainError::invalid("finalYear", "must be a year from 1 to 9999"));
        }
        Ok(())
    }
}

/// The IANA time zone named `name`, from the time zone database built into the binary.
fn time_zone(name: &str) -> Option<jiff::tz::TimeZone> {
    jiff::tz::TimeZone::get(name).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_in_the_tournament_time_zone() {
        let schedule = Schedule { time_zone: Some("Europe/Paris".into()), ..Schedule::default() };
        let at = "2026-11-28T13:00:00Z".parse().unwrap();
        assert_eq!(schedule.local_time(at), "2026-11-28 14:00 (Europe/Paris)");
        assert_eq!(Schedule::default().local_time(at), "2026-11-28 13:00 (UTC)");
    }

    #[test]
    fn an_unknown_time_zone_is_refused() {
        let schedule = Schedule { time_zone: Some("Mars/Olympus".into()), ..Schedule::default() };
        let error = schedule.validated().unwrap_err();
        assert!(error.to_string().contains("IANA"), "{error}");
    }
}
