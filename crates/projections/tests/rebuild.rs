//! The rebuild `league replay` runs (`rebuild`: the log read once, chain walked, folded into
//! the model and the ratings, completed leagues dropped) gives every answer a fold of the
//! whole log gives — standings, counts, leaderboards — also when a correction comes for a
//! league long dropped (it is re-folded from its own stream, then dropped again), whole and
//! up to a bound, on SQLite and PostgreSQL.

use chrono::Utc;
use league_domain::PlayerEvent;
use league_domain::{
    Actor, Aggregate, Context, CorrectResult, CreateLeague, DomainEvent, League, LeagueCommand,
    LeagueSettings, PersonalText, PlayerRegistered, ReportResult, Subscribe,
};
use league_projections::{
    AsOf, GameKind, Keep, RETIRE_AFTER, RatingsModel, ReadModel, Rebuilt, load_model, load_ratings,
    rebuild,
};
use league_scoring::ScoringSystem;
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::fixtures::{placement, player};
use league_testkit::{TestDatabase, on_both_databases};
use uuid::Uuid;

fn new_event(event: &DomainEvent) -> NewEvent {
    NewEvent::new(event.event_type(), event.schema_version() as i32, event.payload())
}

/// Appends the events a command decided to its league's stream, folding them into `league`.
async fn run(store: &EventStore, league: &mut League, command: LeagueCommand) {
    let context = Context::new(Utc::now()).with_subscriber(0);
    let events = league.decide(&command, &context).expect("the domain accepts the command");
    for event in &events {
        league.apply_event(event);
    }
    let stream = StreamId::new(command.stream_id()).expect("stream id");
    let events = events.iter().map(new_event).collect();
    store.append(&stream, ExpectedVersion::Any, events, Metadata::default()).await.expect("append");
}

fn league_id(n: u32) -> Uuid {
    Uuid::from_u128(0x0193_9000_0000_7000_8000_0000_0000_0000 + u128::from(n))
}

/// A league of 4 (2 per game, 4 games) with every game reported: completed. Points vary
/// with `n`, so leagues and ratings differ.
async fn completed_league(store: &EventStore, n: u32) -> League {
    let mut league = League::default();
    let id = league_id(n);
    let settings = LeagueSettings {
        size: 4,
        games_per_seat: 1,
        ..LeagueSettings::new(format!("League {n}"), "Cartagena", ScoringSystem::Placement, 2)
    };
    run(
        store,
        &mut league,
        CreateLeague { actor: Actor::Admin, league_id: id.into(), settings }.into(),
    )
    .await;
    for p in 0..4 {
        let player_id = player(u128::from((n + p) % 6));
        run(
            store,
            &mut league,
            Subscribe { actor: Actor::Admin, league_id: id.into(), player_id }.into(),
        )
        .await;
    }
    let games: Vec<_> = league.games().iter().map(|g| (g.id, g.seats.clone())).collect();
    for (index, (game_id, seats)) in games.into_iter().enumerate() {
        let points = [f64::from(n % 5), f64::from((n + index as u32) % 3)];
        let result = placement(&seats, &points);
        let report = ReportResult { actor: Actor::Admin, league_id: id.into(), game_id, result };
        run(store, &mut league, report.into()).await;
    }
    league
}

/// Corrects `league`'s first game, swapping its points.
async fn correct_first_game(store: &EventStore, league: &mut League, swap: bool) {
    let game = &league.games()[0];
    let points = if swap { [0.0, 9.0] } else { [9.0, 0.0] };
    let correct = CorrectResult {
        actor: Actor::Admin,
        league_id: league.id().expect("created"),
        game_id: game.id,
        result: placement(&game.seats, &points),
        reason: "sheet re-read".into(),
    };
    run(store, league, correct.into()).await;
}

/// Players, then more leagues than a rebuild keeps whole; league 0 corrected long after it
/// completed (dropped, brought back, dropped again and corrected again), league 1 right after
/// its completion.
async fn history(db: &TestDatabase) -> (EventStore, Vec<u64>) {
    let store = EventStore::connect(&db.url).await.expect("connect");
    store.migrate().await.expect("migrate");
    for n in 0..6 {
        let registered = DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: player(n),
            name: PersonalText::Plain(format!("Player {n}")),
            token_hash: format!("{n:064x}"),
        }));
        let stream = StreamId::new(registered.stream_id()).expect("stream id");
        let events = vec![new_event(&registered)];
        store
            .append(&stream, ExpectedVersion::NoStream, events, Metadata::default())
            .await
            .unwrap();
    }
    let mut cuts = Vec::new();
    let mut first = completed_league(&store, 0).await;
    let mut second = completed_league(&store, 1).await;
    correct_first_game(&store, &mut second, true).await;
    let total = RETIRE_AFTER as u32 + 4;
    for n in 2..total {
        completed_league(&store, n).await;
    }
    cuts.push(store.head_position().await.unwrap());
    correct_first_game(&store, &mut first, true).await;
    cuts.push(store.head_position().await.unwrap());
    for n in total..total + RETIRE_AFTER as u32 + 2 {
        completed_league(&store, n).await;
    }
    correct_first_game(&store, &mut first, false).await;
    cuts.push(store.head_position().await.unwrap());
    (store, cuts)
}

/// The rebuild's answers equal the whole model's and the ratings' loaded apart.
fn assert_same(rebuilt: &Rebuilt, model: &ReadModel, ratings: &RatingsModel, keep: Keep) {
    assert_eq!(rebuilt.model.position(), model.position());
    assert_eq!(rebuilt.model.last_recorded_at(), model.last_recorded_at());
    let expected: Vec<Uuid> = match keep {
        Keep::Every => model.leagues().map(|view| view.id).collect(),
        Keep::One(id) => model.league(id).map(|view| view.id).into_iter().collect(),
        Keep::Nothing => Vec::new(),
    };
    let got: Vec<Uuid> = rebuilt.leagues.iter().map(|league| league.id).collect();
    assert_eq!(got, expected);
    for league in &rebuilt.leagues {
        let view = model.league(league.id).expect("in the whole model");
        assert_eq!(league.name, view.settings.name);
        assert_eq!(league.status, view.status);
        assert_eq!(league.scoring_system, view.settings.scoring_system);
        assert_eq!(league.games, view.games.len());
        let finished = model.games_of(league.id).filter(|game| game.result.is_some()).count();
        assert_eq!(league.games_finished, finished);
        assert_eq!(league.standings, model.standings(league.id), "league {}", league.name);
    }
    for player in model.players() {
        assert_eq!(rebuilt.model.player(player.id), Some(player));
    }
    assert_eq!(rebuilt.ratings.position(), ratings.position());
    assert_eq!(rebuilt.ratings.results_folded(), ratings.results_folded());
    for kind in GameKind::ALL {
        assert_eq!(
            rebuilt.ratings.ratings().leaderboard(kind, None),
            ratings.ratings().leaderboard(kind, None)
        );
    }
}

async fn ratings_of(store: &EventStore, model: &ReadModel) -> RatingsModel {
    load_ratings(store, model.position(), |c| model.scoring_system_of(c)).await.expect("ratings")
}

async fn a_rebuild_answers_as_the_whole_fold(db: TestDatabase) {
    let (store, cuts) = history(&db).await;
    let head = store.head_position().await.unwrap();
    let whole = load_model(&store, None, |_| {}).await.expect("whole fold");
    let ratings = ratings_of(&store, &whole).await;
    for keep in [Keep::Every, Keep::One(league_id(0)), Keep::One(league_id(1)), Keep::Nothing] {
        let rebuilt = rebuild(&store, None, keep, |_| {}).await.expect("rebuild");
        assert_same(&rebuilt, &whole, &ratings, keep);
        // League 0 came back twice for its late corrections.
        assert_eq!(rebuilt.reopened, 2, "{keep:?}");
        assert!(rebuilt.dropped as usize > RETIRE_AFTER, "{keep:?}: {}", rebuilt.dropped);
        let open = rebuilt.model.leagues().count();
        assert!(open <= RETIRE_AFTER + 1, "{open} open, {} dropped", rebuilt.dropped);
        let scan = rebuilt.scan.expect("scanned");
        let chain = scan.chain.expect("the whole log walks the chain");
        assert_eq!((scan.rows, chain.events_verified, chain.first_bad), (head, head, None));
    }
    // Up to a bound: before the late correction, with it, and the whole log; nothing walked.
    for cut in cuts {
        let bound = AsOf::Position(cut);
        let then = load_model(&store, Some(bound), |_| {}).await.expect("fold up to the cut");
        let rated = ratings_of(&store, &then).await;
        let rebuilt = rebuild(&store, Some(bound), Keep::Every, |_| {}).await.expect("rebuild");
        assert_same(&rebuilt, &then, &rated, Keep::Every);
        assert_eq!(rebuilt.scan.and_then(|scan| scan.chain), None);
    }
    // A league that does not exist is simply not kept.
    let rebuilt = rebuild(&store, None, Keep::One(league_id(999)), |_| {}).await.expect("rebuild");
    assert!(rebuilt.leagues.is_empty());
}

on_both_databases!(a_rebuild_answers_as_the_whole_fold);
