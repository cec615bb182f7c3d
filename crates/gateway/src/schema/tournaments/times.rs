//! A tournament's times over GraphQL (`docs/tournaments.md#times`): its dates, venue, time
//! zone and check-in window, each round's start (and final game year and end); the
//! mutations that set them, each one domain command.

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, NaiveDate, Utc};
use league_domain::{ChangeTournamentSchedule, RoundTimes, Schedule, SetRoundTimes, Venue};

use super::mutation::tournament;
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::context::{caller, execute};
use crate::schema::inputs::{count, parse_id};

/// A tournament's dates, venue, time zone and check-in window. At creation omitted parts
/// are unset; `changeTournamentSchedule` replaces the whole schedule with this one.
#[derive(Debug, Default, InputObject)]
pub struct TournamentScheduleInput {
    /// An IANA time zone (e.g. `Europe/Paris`); omitted: UTC.
    pub time_zone: Option<String>,
    /// The first day, in the tournament's time zone.
    pub starts_on: Option<NaiveDate>,
    /// The last day (omitted: the first).
    pub ends_on: Option<NaiveDate>,
    pub venue_name: Option<String>,
    /// Needs `venueName`.
    pub venue_address: Option<String>,
    /// A player's own check-in for a round with a start time opens this many minutes before
    /// it (omitted: with the roll call); organisers record anyone at any time.
    pub check_in_opens_minutes_before: Option<i32>,
}

impl TournamentScheduleInput {
    /// The domain's schedule, `field` naming the input in errors.
    pub(super) fn into_schedule(self, field: &str) -> GatewayResult<Schedule> {
        let venue = match (self.venue_name, self.venue_address) {
            (Some(name), address) => Some(Venue { name, address }),
            (None, Some(_)) => {
                return Err(crate::error::GatewayError::bad_input(
                    format!("{field}.venueAddress"),
                    "an address needs a venue name",
                ));
            }
            (None, None) => None,
        };
        let check_in = self
            .check_in_opens_minutes_before
            .map(|minutes| count(minutes, &format!("{field}.checkInOpensMinutesBefore")))
            .transpose()?;
        Ok(Schedule {
            time_zone: self.time_zone.map(|zone| zone.trim().to_owned()),
            starts_on: self.starts_on,
            ends_on: self.ends_on,
            venue,
            check_in_opens_minutes_before: check_in,
        })
    }
}

/// `Tournament.schedule`.
#[derive(SimpleObject)]
pub struct TournamentSchedule {
    /// The IANA time zone its times are shown in (UTC when none was set).
    pub time_zone: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub venue_name: Option<String>,
    pub venue_address: Option<String>,
    pub check_in_opens_minutes_before: Option<u32>,
}

impl From<&Schedule> for TournamentSchedule {
    fn from(schedule: &Schedule) -> Self {
        TournamentSchedule {
            time_zone: schedule.time_zone_name().to_owned(),
            starts_on: schedule.starts_on,
            ends_on: schedule.ends_on,
            venue_name: schedule.venue.as_ref().map(|v| v.name.clone()),
            venue_address: schedule.venue.as_ref().and_then(|v| v.address.clone()),
            check_in_opens_minutes_before: schedule.check_in_opens_minutes_before,
        }
    }
}

/// When a round is played (`Tournament.roundTimes`): instants in UTC, shown in the
/// tournament's time zone by the client.
#[derive(SimpleObject)]
pub struct RoundTimesInfo {
    pub round: u32,
    pub starts_at: DateTime<Utc>,
    pub ends_at: Option<DateTime<Utc>>,
    /// The last game year its boards play to.
    pub final_year: Option<u32>,
    /// When a player's own check-in opens (null: with the roll call).
    pub check_in_opens_at: Option<DateTime<Utc>>,
}

/// The rounds with a start time, in order.
pub(super) fn round_times(tournament: &league_domain::Tournament) -> Vec<RoundTimesInfo> {
    let rounds = tournament.settings().map_or(0, |s| s.rounds);
    (1..=rounds)
        .filter_map(|round| {
            let times = tournament.round_times(round)?;
            Some(RoundTimesInfo {
                round,
                starts_at: times.starts_at,
                ends_at: times.ends_at,
                final_year: times.final_year,
                check_in_opens_at: tournament.check_in_opens_at(round),
            })
        })
        .collect()
}

/// Setting a tournament's times (merged into the mutation root); the domain decides who may.
#[derive(Debug, Default)]
pub struct TournamentTimesMutation;

#[Object]
impl TournamentTimesMutation {
    /// Its organisers or the site admin: replaces the tournament's dates, venue, time zone
    /// and check-in window (`docs/tournaments.md#times`); an unknown time zone is
    /// `BAD_USER_INPUT`, no change `CONFLICT`.
    async fn change_tournament_schedule(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        schedule: TournamentScheduleInput,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let tournament_id = parse_id(&tournament_id, "tournamentId")?;
        let command = ChangeTournamentSchedule {
            actor,
            tournament_id: tournament_id.into(),
            schedule: schedule.into_schedule("schedule")?,
        };
        execute(ctx, command, None).await?;
        tournament(ctx, tournament_id).await
    }

    /// Its organisers or the site admin: sets when round `round` is played (before or after
    /// its seeding; the latest times count): its start, optionally its end and the last game
    /// year its boards play to.
    async fn set_round_times(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        starts_at: DateTime<Utc>,
        ends_at: Option<DateTime<Utc>>,
        final_year: Option<i32>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let tournament_id = parse_id(&tournament_id, "tournamentId")?;
        let command = SetRoundTimes {
            actor,
            tournament_id: tournament_id.into(),
            round: count(round, "round")?,
            times: RoundTimes {
                starts_at,
                ends_at,
                final_year: final_year.map(|year| count(year, "finalYear")).transpose()?,
            },
        };
        execute(ctx, command, None).await?;
        tournament(ctx, tournament_id).await
    }
}
