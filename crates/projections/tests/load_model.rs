//! The whole-log fold from the database (`load_model`, what `league replay` runs) and a
//! league's fold from its stream (`load_league`): the first bad event in log order stops the
//! fold with its position — whether decoding or folding refuses it, and however far the
//! reader has run ahead of the folder — and a bound ends the history, on SQLite and
//! PostgreSQL.

use league_domain::{DomainEvent, PersonalText, PlayerRegistered, ScheduledGame};
use league_domain::{LeagueEvent, PlayerEvent};
use league_projections::{AsOf, ProjectionError, load_league, load_model};
use league_scoring::ScoringSystem;
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::fixtures::{LEAGUE, created};
use league_testkit::{TestDatabase, on_both_databases};
use uuid::Uuid;

/// Registrations before the bad event: more than the reader hands the folder at a time, so
/// the bad event is read while earlier batches are still being folded.
const GOOD: u64 = 1_300;

fn new_event(event: &DomainEvent) -> NewEvent {
    NewEvent::new(event.event_type(), event.schema_version() as i32, event.payload())
}

async fn store_with_players(db: &TestDatabase) -> EventStore {
    let store = EventStore::connect(&db.url).await.unwrap();
    store.migrate().await.unwrap();
    let events: Vec<NewEvent> = (0..GOOD as u128)
        .map(|n| {
            new_event(&DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
                player_id: Uuid::from_u128(n + 1).into(),
                name: PersonalText::Plain(format!("Player {n}")),
                token_hash: format!("{n:064x}"),
            })))
        })
        .collect();
    let stream = StreamId::new("players-bulk").unwrap();
    store.append(&stream, ExpectedVersion::NoStream, events, Metadata::default()).await.unwrap();
    store
}

async fn append(store: &EventStore, stream: &str, events: Vec<NewEvent>) {
    let stream = StreamId::new(stream).unwrap();
    store.append(&stream, ExpectedVersion::Any, events, Metadata::default()).await.unwrap();
}

async fn an_unknown_event_type_stops_the_fold_at_its_position(db: TestDatabase) {
    let store = store_with_players(&db).await;
    let banned = serde_json::json!({ "playerId": Uuid::from_u128(1) });
    append(&store, "moderation", vec![NewEvent::new("PlayerBanned", 1, banned.clone())]).await;
    append(&store, "moderation", vec![NewEvent::new("PlayerSubscribed", 9, banned)]).await;

    match load_model(&store, None, |_| {}).await {
        Err(ProjectionError::Decode { position, .. }) => assert_eq!(position, GOOD + 1),
        other => panic!("expected a decode error at {}, got {other:?}", GOOD + 1),
    }
    let mut reported = Vec::new();
    let model = load_model(&store, Some(AsOf::Position(GOOD)), |p| reported.push(p)).await;
    let model = model.unwrap();
    assert_eq!(model.position(), GOOD);
    assert_eq!(model.players().count() as u64, GOOD);
    assert_eq!(reported.last(), Some(&GOOD));
}

async fn an_event_that_contradicts_the_history_stops_the_fold_at_its_position(db: TestDatabase) {
    let store = store_with_players(&db).await;
    let league = LEAGUE;
    // A schedule for a league that was never created: it decodes, but cannot be folded.
    let orphan = DomainEvent::League(LeagueEvent::GamesScheduled(league_domain::GamesScheduled {
        league_id: league,
        games: vec![ScheduledGame {
            game_id: Uuid::from_u128(0xB).into(),
            number: 1,
            seats: vec![Uuid::from_u128(1).into(), Uuid::from_u128(2).into()],
        }],
    }));
    append(&store, "league-bad", vec![new_event(&orphan)]).await;
    // Whatever follows is not folded either, even though it would fit.
    let created = created(ScoringSystem::Placement, 2, 8, 7);
    append(&store, "league-late", vec![new_event(&created)]).await;

    match load_model(&store, None, |_| {}).await {
        Err(ProjectionError::Inconsistent { position, .. }) => assert_eq!(position, GOOD + 1),
        other => panic!("expected an inconsistency at {}, got {other:?}", GOOD + 1),
    }
}

async fn a_league_loads_from_its_own_stream_up_to_a_bound(db: TestDatabase) {
    let store = store_with_players(&db).await;
    let league = LEAGUE;
    let created = created(ScoringSystem::Placement, 2, 8, 7);
    let stream = league_domain::league_stream_id(league);
    append(&store, &stream, vec![new_event(&created)]).await;
    for n in 1..=3u128 {
        let subscribed =
            DomainEvent::League(LeagueEvent::PlayerSubscribed(league_domain::PlayerSubscribed {
                league_id: league,
                player_id: Uuid::from_u128(n).into(),
            }));
        append(&store, &stream, vec![new_event(&subscribed)]).await;
    }

    let whole = load_league(&store, league.into(), None).await.unwrap();
    let view = whole.league(league.into()).expect("the league is loaded");
    assert_eq!(view.players.len(), 3);
    assert_eq!(view.stream_version, 4);
    assert_eq!(whole.position(), GOOD + 4);
    // Only the league's own stream is read: none of the registrations.
    assert_eq!(whole.players().count(), 0);

    let earlier = load_league(&store, league.into(), Some(AsOf::Position(GOOD + 2))).await.unwrap();
    assert_eq!(earlier.league(league.into()).unwrap().players.len(), 1);
    assert_eq!(earlier.position(), GOOD + 2);
    let before = load_league(&store, league.into(), Some(AsOf::Position(GOOD))).await.unwrap();
    assert!(before.league(league.into()).is_none());
}

on_both_databases!(
    an_unknown_event_type_stops_the_fold_at_its_position,
    an_event_that_contradicts_the_history_stops_the_fold_at_its_position,
    a_league_loads_from_its_own_stream_up_to_a_bound,
);
