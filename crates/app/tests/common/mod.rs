//! Shared helpers for the app's integration tests: league ids, commands, seats and models
//! (player ids and placement results are the testkit's fixtures).

#![allow(dead_code)]

use league_app::{App, CommandOptions, Executed};
use league_domain::{
    Actor, CorrectResult, CreateLeague, LeagueSettings, PlayerId, RegisterPlayer, ReportResult,
    Subscribe, game_id,
};
use league_scoring::ScoringSystem;
pub use league_testkit::fixtures::{placement, player};
use uuid::Uuid;

pub fn league(n: u128) -> Uuid {
    Uuid::from_u128(0x0193_5000_0000_7000_8000_0000_0002_0000 + n)
}

pub fn no_options() -> CommandOptions {
    CommandOptions::default()
}

pub fn register(n: u128) -> RegisterPlayer {
    RegisterPlayer {
        actor: Actor::Admin,
        player_id: player(n),
        name: format!("Player {n}"),
        token_hash: format!("hash-{n}"),
    }
}

/// A placement league of `size` players, `k` per game, `s` games per seat.
pub fn create(league_n: u128, k: u32, size: u32, s: u32) -> CreateLeague {
    let placement =
        LeagueSettings::new(format!("League {league_n}"), "Cartagena", ScoringSystem::Placement, k);
    CreateLeague {
        actor: Actor::Admin,
        league_id: league(league_n).into(),
        settings: LeagueSettings { size, games_per_seat: s, ..placement },
    }
}

pub fn subscribe(league_n: u128, n: u128) -> Subscribe {
    Subscribe {
        actor: Actor::Player(player(n)),
        league_id: league(league_n).into(),
        player_id: player(n),
    }
}

/// The seats of game `number` of a league, from the league's model.
pub async fn seats(app: &App, league_n: u128, number: u32) -> Vec<PlayerId> {
    let Some(model) = app.league(league(league_n)).await.expect("load the league") else {
        return Vec::new();
    };
    model
        .game(game_id(league(league_n).into(), number).into())
        .map(|game| game.seats.iter().map(|seat| PlayerId::from(seat.player)).collect())
        .unwrap_or_default()
}

pub async fn report(app: &App, league_n: u128, number: u32, points: &[f64]) -> ReportResult {
    let seats = seats(app, league_n, number).await;
    ReportResult {
        actor: Actor::Player(seats[0]),
        league_id: league(league_n).into(),
        game_id: game_id(league(league_n).into(), number),
        result: placement(&seats, points),
    }
}

pub async fn correct(
    app: &App,
    league_n: u128,
    number: u32,
    points: &[f64],
    reason: &str,
) -> CorrectResult {
    let seats = seats(app, league_n, number).await;
    CorrectResult {
        actor: Actor::Admin,
        league_id: league(league_n).into(),
        game_id: game_id(league(league_n).into(), number),
        result: placement(&seats, points),
        reason: reason.into(),
    }
}

/// Registers players `1..=count`.
pub async fn register_players(app: &App, count: u128) {
    for n in 1..=count {
        app.execute(register(n), no_options()).await.expect("register a player");
    }
}

/// The event types of an append, in order.
pub fn types(executed: &Executed) -> Vec<&str> {
    executed.events.iter().map(|event| event.event_type.as_str()).collect()
}

/// The model of league `league_n` (it must exist).
pub async fn model(app: &App, league_n: u128) -> std::sync::Arc<league_app::ReadModel> {
    app.league(league(league_n)).await.expect("load the league").expect("the league exists")
}

/// Four registered players subscribed to placement league 1 (k = 2, four players, s = 1).
pub async fn four_player_league(app: &App) {
    register_players(app, 4).await;
    app.execute(create(1, 2, 4, 1), no_options()).await.unwrap();
    for n in 1..=4 {
        app.execute(subscribe(1, n), no_options()).await.unwrap();
    }
}

/// [`four_player_league`] with games 1..=3 reported on `points` and game 2 then corrected to
/// 1, 2 for `reason`.
pub async fn three_reported_one_corrected(app: &App, points: &[f64], reason: &str) {
    four_player_league(app).await;
    for number in 1..=3 {
        app.execute(report(app, 1, number, points).await, no_options()).await.unwrap();
    }
    app.execute(correct(app, 1, 2, &[1.0, 2.0], reason).await, no_options()).await.unwrap();
}
