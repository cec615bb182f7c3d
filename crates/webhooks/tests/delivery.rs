//! Deliveries end to end through the worker, on embedded SQLite and on a real PostgreSQL:
//! every wanted event once, in log order, signed; a receiver failing 30 % of requests still
//! gets every event; a webhook failing too long is paused with the reason and delivers again
//! once resumed; a failing webhook never holds up another; refused addresses are never
//! reached; on PostgreSQL two gateways never both make a delivery; a receiver answering `429`
//! is waited for as long as it asks, by every webhook to it, and no other is held; a worker
//! that crashes mid-catch-up repeats at most the deliveries its checkpoint did not cover yet
//! (`checkpoint_every`) and the one in flight, and one stopped cleanly only the one in flight.

use std::time::Duration;

use league_app::{App, CommandOptions};
use league_domain::{
    Actor, CorrectResult, CreateLeague, LeagueSettings, PlayerId, RegisterPlayer, RegisterWebhook,
    ReportResult, ResumeWebhook, Subscribe, WebhookFormat, WebhookKind, WebhookStatus, game_id,
};
use league_scoring::ScoringSystem;
use league_testkit::fixtures::{placement, player};
use league_testkit::{TestDatabase, on_both_databases};
use league_webhooks::receiver::{Receiver, distinct_accepted};
use league_webhooks::{WebhookSettings, generate_secret, list_webhooks};
use tokio::sync::oneshot;
use uuid::Uuid;

const LEAGUE: Uuid = Uuid::from_u128(0x0193_5000_0000_7000_8000_0000_0003_0001);
const WAIT: Duration = Duration::from_secs(60);

fn fast() -> WebhookSettings {
    WebhookSettings {
        allow_private: true,
        retry_base: Duration::from_millis(10),
        retry_max: Duration::from_millis(100),
        poll_interval: Duration::from_millis(100),
        ..WebhookSettings::default()
    }
}

/// The worker over `app` until the returned sender is dropped or fired.
fn start_worker(app: &App, settings: WebhookSettings) -> oneshot::Sender<()> {
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(league_webhooks::run(app.clone(), settings, async {
        let _ = stopped.await;
    }));
    stop
}

async fn open(db: &TestDatabase) -> App {
    App::open(&db.url).await.expect("open the app")
}

/// Eight players in a placement league (k = 2): returns the number of games.
async fn league(app: &App) -> u32 {
    let none = CommandOptions::default;
    for n in 1..=8 {
        let name = format!("Player {n}");
        let register = RegisterPlayer {
            actor: Actor::Admin,
            player_id: player(n),
            name,
            token_hash: format!("h{n}"),
        };
        app.execute(register, none()).await.unwrap();
    }
    let settings = LeagueSettings {
        size: 8,
        games_per_seat: 1,
        ..LeagueSettings::new("Autumn", "Cartagena", ScoringSystem::Placement, 2)
    };
    app.execute(CreateLeague { actor: Actor::Admin, league_id: LEAGUE.into(), settings }, none())
        .await
        .unwrap();
    for n in 1..=8 {
        let subscribe =
            Subscribe { actor: Actor::Admin, league_id: LEAGUE.into(), player_id: player(n) };
        app.execute(subscribe, none()).await.unwrap();
    }
    app.league(LEAGUE).await.unwrap().unwrap().games_of(LEAGUE).count() as u32
}

/// The players seated at game `number`.
async fn seats(app: &App, number: u32) -> Vec<PlayerId> {
    let model = app.league(LEAGUE).await.unwrap().unwrap();
    let game = model.game(game_id(LEAGUE.into(), number).into()).unwrap();
    game.seats.iter().map(|seat| seat.player.into()).collect()
}

/// Reports games `numbers`; returns the log positions of their results.
async fn report(app: &App, numbers: impl IntoIterator<Item = u32>) -> Vec<u64> {
    let mut positions = Vec::new();
    for number in numbers {
        let result = placement(&seats(app, number).await, &[2.0, 1.0]);
        let command = ReportResult {
            actor: Actor::Admin,
            league_id: LEAGUE.into(),
            game_id: game_id(LEAGUE.into(), number),
            result,
        };
        let executed = app.execute(command, CommandOptions::default()).await.unwrap();
        positions.push(executed.events[0].position);
    }
    positions
}

/// Registers a webhook to `url` for the league's results and standings; returns its id and
/// secret.
async fn register(app: &App, url: &str, format: WebhookFormat) -> (Uuid, String) {
    let id = Uuid::now_v7();
    let secret = generate_secret();
    app.store().save_webhook_secret(id, &secret, url).await.unwrap();
    let command = RegisterWebhook {
        actor: Actor::Admin,
        webhook_id: id.into(),
        url: url.to_owned(),
        kinds: vec![WebhookKind::ResultReported, WebhookKind::StandingsChanged],
        competitions: vec![LEAGUE],
        format,
    };
    app.execute(command, CommandOptions::default()).await.unwrap();
    (id, secret)
}

fn positions_of(received: &[league_webhooks::receiver::Received], accepted_only: bool) -> Vec<u64> {
    received
        .iter()
        .filter(|r| r.accepted || !accepted_only)
        .map(|r| r.delivery_id.rsplit(':').next().unwrap().parse().unwrap())
        .collect()
}

async fn every_wanted_event_arrives_once_in_order_and_signed(db: TestDatabase) {
    let app = open(&db).await;
    let games = league(&app).await;
    let receiver = Receiver::start(0.0).await.unwrap();
    let discord = Receiver::start(0.0).await.unwrap();
    let (hook, secret) = register(&app, &receiver.url, WebhookFormat::Json).await;
    register(&app, &discord.url, WebhookFormat::Discord).await;
    let _worker = start_worker(&app, fast());
    let positions = report(&app, 1..=games).await;
    let received = receiver.wait_for_accepted(positions.len(), WAIT).await;
    assert_eq!(positions_of(&received, false), positions, "each result once, in log order");
    for request in &received {
        assert!(request.verifies(&secret), "signed with the webhook's secret");
        assert!(request.delivery_id.starts_with(&hook.to_string()));
    }
    let last = received.last().unwrap().json();
    assert_eq!(last["eventType"], "GameFinished");
    assert_eq!(last["kinds"], serde_json::json!(["RESULT_REPORTED", "STANDINGS_CHANGED"]));
    assert_eq!(last["competition"]["name"], "Autumn");
    assert_eq!(last["standings"].as_array().unwrap().len(), 8);
    assert!(last["summary"].as_str().unwrap().contains("standings: 1. "), "{last}");
    let messages = discord.wait_for_accepted(positions.len(), WAIT).await;
    let content = messages[0].json()["content"].as_str().unwrap().to_owned();
    assert!(content.starts_with("Autumn — Result of game "), "{content}");
    assert!(content.contains(" reported: Player "), "{content}");
    assert!(content.contains("; standings: 1. "), "{content}");
    let views = list_webhooks(app.store(), app.applied_position()).await.unwrap();
    let view = views.iter().find(|v| v.entry.id == hook).unwrap();
    // Past the last result (events not wanted after it are passed over).
    assert!(view.checkpoint.as_ref().unwrap().position >= *positions.last().unwrap());
}

async fn a_receiver_failing_30_percent_gets_every_event_exactly_once_after_dedup(db: TestDatabase) {
    let app = open(&db).await;
    let games = league(&app).await;
    let receiver = Receiver::start(0.3).await.unwrap();
    register(&app, &receiver.url, WebhookFormat::Json).await;
    let _worker = start_worker(&app, fast());
    let positions = report(&app, 1..=games).await;
    let received = receiver.wait_for_accepted(positions.len(), WAIT).await;
    assert_eq!(distinct_accepted(&received), positions.len());
    let mut accepted = positions_of(&received, true);
    assert_eq!(accepted, positions, "accepted in log order, none twice");
    accepted.dedup();
    let failed = received.iter().filter(|r| !r.accepted).count();
    assert!(failed > 0, "some of {} requests failed and were retried", received.len());
}

async fn a_webhook_failing_too_long_is_paused_and_delivers_again_once_resumed(db: TestDatabase) {
    let app = open(&db).await;
    let games = league(&app).await;
    let receiver = Receiver::start(1.0).await.unwrap();
    let (hook, _) = register(&app, &receiver.url, WebhookFormat::Json).await;
    let settings = WebhookSettings { pause_after: Duration::from_millis(300), ..fast() };
    let _worker = start_worker(&app, settings);
    let positions = report(&app, 1..=games).await;
    let deadline = std::time::Instant::now() + WAIT;
    let view = loop {
        let views = list_webhooks(app.store(), app.applied_position()).await.unwrap();
        let view = views.into_iter().find(|v| v.entry.id == hook).unwrap();
        if view.entry.status() == WebhookStatus::Paused || std::time::Instant::now() > deadline {
            break view;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(view.entry.status(), WebhookStatus::Paused);
    let reason = view.entry.state.paused_reason().unwrap();
    assert!(reason.contains("HTTP 500"), "{reason}");
    assert!(view.checkpoint.unwrap().last_error.unwrap().contains("500"));
    receiver.set_failure_rate(0.0);
    let resume = ResumeWebhook { actor: Actor::Admin, webhook_id: hook.into() };
    app.execute(resume, CommandOptions::default()).await.unwrap();
    let received = receiver.wait_for_accepted(positions.len(), WAIT).await;
    assert_eq!(positions_of(&received, true), positions);
}

async fn a_failing_webhook_never_holds_up_another_and_refused_addresses_are_never_reached(
    db: TestDatabase,
) {
    let app = open(&db).await;
    let games = league(&app).await;
    let slow = Receiver::start(1.0).await.unwrap();
    slow.set_hold(Duration::from_secs(5));
    let healthy = Receiver::start(0.0).await.unwrap();
    register(&app, &slow.url, WebhookFormat::Json).await;
    register(&app, &healthy.url, WebhookFormat::Json).await;
    let worker = start_worker(&app, fast());
    let positions = report(&app, 1..=games).await;
    let received = healthy.wait_for_accepted(positions.len(), WAIT).await;
    assert_eq!(positions_of(&received, true), positions, "never waits on the slow one");
    drop(worker);
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Private addresses not allowed: the loopback receiver is refused at delivery.
    let receiver = Receiver::start(0.0).await.unwrap();
    let (hook, _) = register(&app, &receiver.url, WebhookFormat::Json).await;
    let _strict = start_worker(&app, WebhookSettings { allow_private: false, ..fast() });
    let model = app.league(LEAGUE).await.unwrap().unwrap();
    let seats: Vec<PlayerId> = model
        .game(game_id(LEAGUE.into(), 1).into())
        .unwrap()
        .seats
        .iter()
        .map(|s| s.player.into())
        .collect();
    let correction = CorrectResult {
        actor: Actor::Admin,
        league_id: LEAGUE.into(),
        game_id: game_id(LEAGUE.into(), 1),
        result: placement(&seats, &[1.0, 2.0]),
        reason: "swapped".into(),
    };
    app.execute(correction, CommandOptions::default()).await.unwrap();
    let deadline = std::time::Instant::now() + WAIT;
    let error = loop {
        let views = list_webhooks(app.store(), app.applied_position()).await.unwrap();
        let error = views
            .into_iter()
            .find(|v| v.entry.id == hook)
            .and_then(|v| v.checkpoint)
            .and_then(|c| c.last_error);
        if error.is_some() || std::time::Instant::now() > deadline {
            break error.unwrap_or_default();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(error.contains("loopback"), "{error}");
    assert!(receiver.received().is_empty(), "a refused address is never reached");
}

async fn a_receiver_over_its_rate_limit_is_waited_for_as_it_asks_and_others_are_not_held(
    db: TestDatabase,
) {
    let app = open(&db).await;
    let games = league(&app).await as usize;
    let limited = Receiver::start(0.0).await.unwrap();
    limited.set_rate_limit(2, Duration::from_millis(400));
    let healthy = Receiver::start(0.0).await.unwrap();
    let (first, _) = register(&app, &limited.url, WebhookFormat::Json).await;
    let (second, _) = register(&app, &limited.url, WebhookFormat::Discord).await;
    register(&app, &healthy.url, WebhookFormat::Json).await;
    let _worker = start_worker(&app, fast());
    report(&app, 1..=games as u32).await;
    let to_healthy = healthy.wait_for_accepted(games, WAIT).await;
    let to_limited = limited.wait_for_accepted(2 * games, WAIT).await;
    assert_eq!(distinct_accepted(&to_limited), 2 * games, "every delivery of both webhooks");
    // Two webhooks, two requests a window: a deliverer retrying on its own backoff (10 to
    // 100 ms here) would be refused several times a window; one that waits as told is
    // refused at most once per webhook per window.
    let windows = games;
    let throttled = to_limited.iter().filter(|r| r.throttled).count();
    assert!(throttled <= 2 * windows, "{throttled} refusals over {windows} windows");
    let last = |received: &[league_webhooks::receiver::Received]| {
        received.iter().filter(|r| r.accepted).map(|r| r.at).max().unwrap()
    };
    assert!(last(&to_healthy) < last(&to_limited), "the healthy receiver is not held");
    // Waiting as asked is not failing: no error recorded, nothing paused.
    let views = list_webhooks(app.store(), app.applied_position()).await.unwrap();
    for view in views.iter().filter(|v| v.entry.id == first || v.entry.id == second) {
        assert_eq!(view.entry.status(), WebhookStatus::Active);
        assert_eq!(view.checkpoint.as_ref().and_then(|c| c.last_error.clone()), None);
    }
}

/// Requests per delivery id, for those made more than once.
fn repeats(received: &[league_webhooks::receiver::Received]) -> Vec<(String, usize)> {
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for request in received {
        *counts.entry(request.delivery_id.clone()).or_default() += 1;
    }
    counts.into_iter().filter(|(_, n)| *n > 1).collect()
}

/// Webhook `hook`'s checkpoint position in the database.
async fn saved_position(app: &App, hook: Uuid) -> u64 {
    app.store().webhook_checkpoint(hook).await.unwrap().map_or(0, |c| c.position)
}

async fn a_crash_mid_catch_up_repeats_at_most_the_deliveries_not_yet_checkpointed(
    db: TestDatabase,
) {
    const EVERY: u32 = 5;
    let app = open(&db).await;
    let games = league(&app).await;
    let receiver = Receiver::start(0.0).await.unwrap();
    // Slow answers: the crash comes mid-way through the catch-up.
    receiver.set_hold(Duration::from_millis(40));
    let (hook, _) = register(&app, &receiver.url, WebhookFormat::Json).await;
    let mut positions = report(&app, 1..=games).await;
    positions.extend(correct(&app, (0..40).map(|n| n % games + 1)).await);
    // Only the count writes the checkpoint while delivering (an interval never reached).
    let settings = WebhookSettings {
        checkpoint_every: EVERY,
        checkpoint_interval: Duration::from_secs(3600),
        ..fast()
    };

    // The crashing worker runs on a runtime of its own, over its own connections, and ends
    // as a killed process does: its tasks dropped where they stand, nothing written after.
    let url = db.url.clone();
    let crashing = settings.clone();
    let runtime = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let app = runtime.block_on(App::open(&url)).unwrap();
        runtime.spawn(league_webhooks::run(app, crashing, std::future::pending()));
        runtime
    })
    .join()
    .unwrap();
    receiver.wait_for_accepted(20, WAIT).await;
    runtime.shutdown_background();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let before = receiver.received();
    let saved = saved_position(&app, hook).await;
    let delivered_past_saved =
        positions_of(&before, true).into_iter().filter(|p| *p > saved).count();
    assert!(distinct_accepted(&before) < positions.len(), "crashed mid-way");
    let batch = positions[EVERY as usize - 1];
    assert!(saved >= batch, "written during the catch-up: {saved} < {batch}");
    // The deliveries the checkpoint does not cover, and the one in flight.
    assert!(delivered_past_saved <= EVERY as usize + 1, "{delivered_past_saved} past {saved}");

    // The restart repeats those, and nothing else.
    receiver.set_hold(Duration::ZERO);
    let worker = start_worker(&app, settings.clone());
    let received = receiver.wait_for_accepted(positions.len(), WAIT).await;
    assert_eq!(distinct_accepted(&received), positions.len(), "no event lost");
    let repeated = repeats(&received);
    assert!(repeated.len() <= EVERY as usize + 1, "{repeated:?}");
    assert!(repeated.iter().all(|(_, n)| *n == 2), "{repeated:?}");
    let mut first_seen = Vec::new();
    for position in positions_of(&received, false) {
        if !first_seen.contains(&position) {
            first_seen.push(position);
        }
    }
    assert_eq!(first_seen, positions, "first made in log order");
    drop(worker);

    // A clean stop mid-catch-up writes what was delivered: only the delivery in flight is
    // made again.
    let corrections = correct(&app, (0..40).map(|n| n % games + 1)).await;
    let settings = WebhookSettings { checkpoint_every: 1000, ..settings };
    receiver.set_hold(Duration::from_millis(40));
    let before = receiver.received().len();
    let worker = start_worker(&app, settings.clone());
    receiver.wait_for_accepted(positions.len() + 8, WAIT).await;
    drop(worker);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopped = receiver.received();
    let made = &stopped[before..];
    assert!(distinct_accepted(made) < corrections.len(), "stopped mid-way");
    let saved = saved_position(&app, hook).await;
    let past_saved = positions_of(made, false).into_iter().filter(|p| *p > saved).count();
    assert!(past_saved <= 1, "{past_saved} requests past {saved}");
    // The one cut short may or may not have been answered.
    let answered_past_saved = positions_of(made, true).into_iter().filter(|p| *p > saved).count();
    receiver.set_hold(Duration::ZERO);
    let _worker = start_worker(&app, settings);
    let received = receiver.wait_for_accepted(positions.len() + corrections.len(), WAIT).await;
    assert_eq!(
        positions_of(&received[before..], true).len(),
        corrections.len() + answered_past_saved
    );
}

/// Corrects games `numbers` (the seats' places swapped); returns the corrections' positions.
async fn correct(app: &App, numbers: impl IntoIterator<Item = u32>) -> Vec<u64> {
    let mut positions = Vec::new();
    for number in numbers {
        let correction = CorrectResult {
            actor: Actor::Admin,
            league_id: LEAGUE.into(),
            game_id: game_id(LEAGUE.into(), number),
            result: placement(&seats(app, number).await, &[1.0, 2.0]),
            reason: "swapped".into(),
        };
        let executed = app.execute(correction, CommandOptions::default()).await.unwrap();
        positions.push(executed.events[0].position);
    }
    positions
}

async fn two_gateways_on_one_postgres_never_both_deliver(db: TestDatabase) {
    if db.backend == league_testkit::Backend::Sqlite {
        return; // one process serves a SQLite file
    }
    let first = open(&db).await;
    let second = open(&db).await;
    let games = league(&first).await;
    let receiver = Receiver::start(0.0).await.unwrap();
    register(&first, &receiver.url, WebhookFormat::Json).await;
    let _one = start_worker(&first, fast());
    let _two = start_worker(&second, fast());
    let positions = report(&first, 1..=games).await;
    let received = receiver.wait_for_accepted(positions.len(), WAIT).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(positions_of(&receiver.received(), false), positions, "each delivery made once");
    assert_eq!(received.len(), positions.len());
}

on_both_databases!(
    every_wanted_event_arrives_once_in_order_and_signed,
    a_receiver_failing_30_percent_gets_every_event_exactly_once_after_dedup,
    a_webhook_failing_too_long_is_paused_and_delivers_again_once_resumed,
    a_failing_webhook_never_holds_up_another_and_refused_addresses_are_never_reached,
    two_gateways_on_one_postgres_never_both_deliver,
    a_receiver_over_its_rate_limit_is_waited_for_as_it_asks_and_others_are_not_held,
    a_crash_mid_catch_up_repeats_at_most_the_deliveries_not_yet_checkpointed,
);
