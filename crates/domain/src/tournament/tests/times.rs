//! Given/when/then tests of a tournament's times: dates, venue and time zone, round start
//! times, and the check-in window before a round (`docs/tournaments.md#times`).

use chrono::{DateTime, Utc};

use super::{TOURNAMENT, answer, created, given, seed, settings, then, with_entrants};
use crate::fixtures::player;
use crate::*;

fn paris_schedule() -> Schedule {
    Schedule {
        time_zone: Some("Europe/Paris".into()),
        starts_on: Some("2026-11-28".parse().unwrap()),
        ends_on: Some("2026-11-29".parse().unwrap()),
        venue: Some(Venue { name: " Club Diplo ".into(), address: Some("1 rue de Rivoli".into()) }),
        check_in_opens_minutes_before: Some(60),
    }
}

fn timed_settings() -> TournamentSettings {
    TournamentSettings { schedule: paris_schedule(), ..settings(3) }
}

fn instant(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn round_times(round: u32, starts_at: &str, actor: Actor) -> SetRoundTimes {
    SetRoundTimes {
        actor,
        tournament_id: TOURNAMENT,
        round,
        times: RoundTimes { starts_at: instant(starts_at), ends_at: None, final_year: Some(1907) },
    }
}

fn at(
    events: &[DomainEvent],
    now: &str,
    command: impl Into<TournamentCommand>,
) -> Result<Vec<DomainEvent>, DomainError> {
    given(events).decide(&command.into(), &Context::new(instant(now)))
}

#[test]
fn a_tournament_is_created_with_its_dates_venue_and_time_zone() {
    let events = created(timed_settings());
    let schedule = given(&events).schedule();
    assert_eq!(schedule.time_zone_name(), "Europe/Paris");
    assert_eq!(schedule.venue.unwrap().name, "Club Diplo", "the venue's name is trimmed");
}

#[test]
fn a_creation_with_an_unknown_time_zone_or_dates_backwards_is_refused() {
    for (schedule, field) in [
        (Schedule { time_zone: Some("Europe/Atlantis".into()), ..paris_schedule() }, "timeZone"),
        (Schedule { ends_on: Some("2026-11-27".parse().unwrap()), ..paris_schedule() }, "endsOn"),
        (Schedule { check_in_opens_minutes_before: Some(20_000), ..paris_schedule() }, "checkIn"),
    ] {
        let error = super::when(
            &[],
            CreateTournament {
                actor: Actor::Admin,
                tournament_id: TOURNAMENT,
                settings: TournamentSettings { schedule, ..settings(3) },
            },
        )
        .unwrap_err();
        assert!(error.invalid_input().unwrap().0.contains(field), "{error:?}");
    }
}

#[test]
fn an_organiser_changes_the_schedule_and_a_player_may_not() {
    let mut events = created(settings(3));
    let change = |actor| ChangeTournamentSchedule {
        actor,
        tournament_id: TOURNAMENT,
        schedule: paris_schedule(),
    };
    let refused = super::when(&events, change(Actor::Player(player(1)))).unwrap_err();
    assert_eq!(refused.code(), ErrorCode::Forbidden);
    then(&mut events, change(Actor::Admin));
    assert_eq!(given(&events).schedule().starts_on, paris_schedule().starts_on);
    let again = super::when(&events, change(Actor::Admin)).unwrap_err();
    assert_eq!(again.code(), ErrorCode::Conflict, "no change, no event");
}

#[test]
fn round_times_are_set_before_and_after_seeding_and_the_latest_counts() {
    let mut events = with_entrants(timed_settings(), 7);
    then(&mut events, round_times(1, "2026-11-28T09:00:00Z", Actor::Admin));
    for n in 1..=7 {
        then(
            &mut events,
            crate::AnswerRollCall { actor: Actor::Admin, ..answer(n, 1, true, false, false) },
        );
    }
    then(&mut events, seed(1));
    then(&mut events, round_times(1, "2026-11-28T09:30:00Z", Actor::Admin));
    then(&mut events, round_times(3, "2026-11-28T17:00:00Z", Actor::Admin));
    let tournament = given(&events);
    assert_eq!(tournament.round_times(1).unwrap().starts_at, instant("2026-11-28T09:30:00Z"));
    assert_eq!(tournament.round_times(3).unwrap().final_year, Some(1907));
    assert_eq!(tournament.round_times(2), None);
}

#[test]
fn round_times_are_checked() {
    let events = created(timed_settings());
    let player_sets =
        super::when(&events, round_times(1, "2026-11-28T09:00:00Z", Actor::Player(player(1))));
    assert_eq!(player_sets.unwrap_err().code(), ErrorCode::Forbidden);
    let beyond = super::when(&events, round_times(4, "2026-11-28T09:00:00Z", Actor::Admin));
    assert_eq!(beyond.unwrap_err().invalid_input().unwrap().0, "round");
    let mut backwards = round_times(1, "2026-11-28T09:00:00Z", Actor::Admin);
    backwards.times.ends_at = Some(instant("2026-11-28T08:00:00Z"));
    let error = super::when(&events, backwards).unwrap_err();
    assert_eq!(error.invalid_input().unwrap().0, "endsAt");
}

#[test]
fn a_player_checks_in_only_once_the_window_opens_and_an_organiser_at_any_time() {
    let mut events = with_entrants(timed_settings(), 7);
    then(&mut events, round_times(1, "2026-11-28T13:00:00Z", Actor::Admin));
    // Opens 60 minutes before 14:00 Paris time: 13:00 Paris, 12:00 UTC.
    let early = at(&events, "2026-11-28T11:59:00Z", answer(1, 1, true, false, false)).unwrap_err();
    assert_eq!(early.code(), ErrorCode::Conflict);
    assert!(
        early.to_string().contains("check-in for round 1 opens at 2026-11-28 13:00 (Europe/Paris)"),
        "{early}"
    );
    let organiser = AnswerRollCall { actor: Actor::Admin, ..answer(2, 1, true, false, false) };
    at(&events, "2026-11-28T08:00:00Z", organiser).expect("an organiser records at any time");
    let on_time = at(&events, "2026-11-28T12:00:00Z", answer(1, 1, true, false, false)).unwrap();
    events.extend(on_time);
    assert_eq!(given(&events).roll_call(1).len(), 1);
}

#[test]
fn without_a_start_time_or_a_window_check_in_is_open_with_the_roll_call() {
    let no_window = TournamentSettings {
        schedule: Schedule { check_in_opens_minutes_before: None, ..paris_schedule() },
        ..settings(3)
    };
    let mut events = with_entrants(no_window, 7);
    then(&mut events, round_times(1, "2026-11-28T13:00:00Z", Actor::Admin));
    at(&events, "2026-11-01T00:00:00Z", answer(1, 1, true, false, false)).expect("no window");
    let untimed = with_entrants(timed_settings(), 7);
    at(&untimed, "2026-11-01T00:00:00Z", answer(1, 1, true, false, false)).expect("no start");
}

/// One stored example of each times event, for the golden file.
pub(crate) fn one_of_each_times_event() -> Vec<DomainEvent> {
    let mut events = created(settings(3));
    let start = events.len();
    then(
        &mut events,
        ChangeTournamentSchedule {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            schedule: paris_schedule(),
        },
    );
    let mut times = round_times(1, "2026-11-28T13:00:00Z", Actor::Admin);
    times.times.ends_at = Some(instant("2026-11-28T17:00:00Z"));
    then(&mut events, times);
    events.split_off(start)
}
