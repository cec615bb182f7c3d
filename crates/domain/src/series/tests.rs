//! Given events / when command / then events or error, for the series aggregate
//! (`docs/series.md#rights` and `#refusals`).

use super::*;
use crate::ErrorCode;
use crate::events::DomainEvent;
use crate::ids::{PlayerId, SeriesId};
use chrono::Utc;

pub(crate) const SERIES: SeriesId =
    SeriesId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_5e01));
const ORGANISER: PlayerId =
    PlayerId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_5e02));
const OTHER: PlayerId = PlayerId::new(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_5e03));
const SPRING: Uuid = Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_5e04);
const AUTUMN: Uuid = Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_5e05);

fn context() -> Context {
    Context::new(Utc::now())
}

fn organiser() -> Context {
    context().with_actor_organiser(true)
}

fn create(actor: Actor) -> SeriesCommand {
    CreateSeries {
        actor,
        series_id: SERIES,
        name: " Circuit 2026 ".into(),
        best: 2,
        basis: SeriesBasis::RankPoints,
    }
    .into()
}

fn add(actor: Actor, competition: Uuid) -> SeriesCommand {
    AddSeriesEvent { actor, series_id: SERIES, competition }.into()
}

fn remove(actor: Actor, competition: Uuid) -> SeriesCommand {
    RemoveSeriesEvent { actor, series_id: SERIES, competition }.into()
}

fn change(actor: Actor, best: Option<u32>, basis: Option<SeriesBasis>) -> SeriesCommand {
    ChangeSeriesSettings { actor, series_id: SERIES, name: None, best, basis }.into()
}

/// Given `commands` decided in turn (each must succeed), the series and its events.
fn given(commands: &[(SeriesCommand, Context)]) -> (Series, Vec<DomainEvent>) {
    let mut series = Series::default();
    let mut events = Vec::new();
    for (command, context) in commands {
        for event in series.decide(command, context).unwrap() {
            series.apply_event(&event);
            events.push(event);
        }
    }
    (series, events)
}

/// One event of every series type: created by an organiser, two events added, one removed,
/// the settings changed.
pub(crate) fn one_of_each_series_event() -> Vec<DomainEvent> {
    let by = Actor::Player(ORGANISER);
    given(&[
        (create(by), organiser()),
        (add(by, SPRING), context()),
        (add(Actor::Admin, AUTUMN), context()),
        (remove(by, SPRING), context()),
        (change(by, Some(3), Some(SeriesBasis::Score)), context()),
    ])
    .1
}

fn code<T: std::fmt::Debug>(decision: Result<T, DomainError>) -> ErrorCode {
    decision.unwrap_err().code()
}

#[test]
fn an_organiser_creates_a_series_adds_and_removes_events_and_changes_its_rule() {
    let events = one_of_each_series_event();
    let by = Actor::Player(ORGANISER);
    assert_eq!(
        events,
        vec![
            DomainEvent::from(SeriesCreated {
                series_id: SERIES,
                name: "Circuit 2026".into(),
                best: 2,
                basis: SeriesBasis::RankPoints,
                created_by: Some(by),
            }),
            SeriesEventAdded { series_id: SERIES, competition: SPRING, added_by: by }.into(),
            SeriesEventAdded { series_id: SERIES, competition: AUTUMN, added_by: Actor::Admin }
                .into(),
            SeriesEventRemoved { series_id: SERIES, competition: SPRING, removed_by: by }.into(),
            SeriesSettingsChanged {
                series_id: SERIES,
                name: "Circuit 2026".into(),
                best: 3,
                basis: SeriesBasis::Score,
                changed_by: by,
            }
            .into(),
        ]
    );
    let series = Series::from_events(&events);
    assert_eq!(series.events(), [AUTUMN]);
    assert_eq!(series.settings().map(|s| (s.best, s.basis)), Some((3, SeriesBasis::Score)));
    assert_eq!(events[0].stream_id(), format!("series-{SERIES}"));
}

#[test]
fn only_organisers_and_the_admin_create_and_only_the_series_organisers_manage_it() {
    let player = Actor::Player(OTHER);
    assert_eq!(code(Series::default().decide(&create(player), &context())), ErrorCode::Forbidden);
    let (series, _) = given(&[(create(Actor::Player(ORGANISER)), organiser())]);
    for command in [add(player, SPRING), remove(player, SPRING), change(player, Some(1), None)] {
        // Another organiser is not this series' organiser.
        assert_eq!(code(series.decide(&command, &organiser())), ErrorCode::Forbidden);
    }
    // An admin's series is managed by the admin alone.
    let (admins, events) = given(&[(create(Actor::Admin), context())]);
    assert_eq!(events[0].payload()["createdBy"], serde_json::Value::Null);
    let by_organiser = add(Actor::Player(ORGANISER), SPRING);
    assert_eq!(code(admins.decide(&by_organiser, &organiser())), ErrorCode::Forbidden);
}

#[test]
fn typed_refusals_append_nothing() {
    let admin = Actor::Admin;
    // Missing series: the admin hears NOT_FOUND, a player FORBIDDEN (rights first).
    let none = Series::default();
    assert_eq!(
        none.decide(&add(admin, SPRING), &context()),
        Err(DomainError::SeriesNotFound(SERIES))
    );
    assert_eq!(
        code(none.decide(&add(Actor::Player(OTHER), SPRING), &organiser())),
        ErrorCode::Forbidden
    );
    let (series, _) = given(&[(create(admin), context()), (add(admin, SPRING), context())]);
    // Created twice.
    assert_eq!(code(series.decide(&create(admin), &context())), ErrorCode::Conflict);
    // An event that does not exist, one added twice, one removed that is no member.
    let unknown = context().with_competitions(vec![AUTUMN], Vec::new());
    assert_eq!(
        series.decide(&add(admin, AUTUMN), &unknown),
        Err(DomainError::CompetitionNotFound(AUTUMN))
    );
    assert_eq!(code(series.decide(&add(admin, SPRING), &context())), ErrorCode::Conflict);
    assert_eq!(
        series.decide(&remove(admin, AUTUMN), &context()),
        Err(DomainError::CompetitionNotFound(AUTUMN))
    );
    // Bad settings, and settings that change nothing.
    for best in [0, MAX_SERIES_BEST + 1] {
        let refused = series.decide(&change(admin, Some(best), None), &context()).unwrap_err();
        assert_eq!(refused.invalid_input().map(|(field, _)| field), Some("best"));
    }
    let empty = CreateSeries {
        actor: admin,
        series_id: SERIES,
        name: "  ".into(),
        best: 1,
        basis: SeriesBasis::Score,
    };
    let refused = Series::default().decide(&empty.into(), &context()).unwrap_err();
    assert_eq!(refused.invalid_input().map(|(field, _)| field), Some("name"));
    assert_eq!(code(series.decide(&change(admin, Some(2), None), &context())), ErrorCode::Conflict);
}
