//! The league rules ask the scoring catalogue how many players a game has (SQLite and
//! PostgreSQL): for every system of `league_scoring::catalogue()`, creating a league through
//! the application with fewer or more players per game than the catalogue says is refused on
//! `playersPerGame` naming the catalogue's range and appends nothing; the catalogue's
//! smallest game is accepted.

use league_app::{App, AppError, CommandOptions};
use league_domain::{Actor, CreateLeague, LeagueSettings};
use league_scoring::{ScoringSystem, catalogue};
use league_testkit::TestDatabase;
use uuid::Uuid;

async fn create(app: &App, system: ScoringSystem, k: u32) -> Result<(), AppError> {
    let settings = LeagueSettings {
        size: k.max(2),
        games_per_seat: 1,
        ..LeagueSettings::new(format!("{system} with {k}"), "Test game", system, k)
    };
    let command = CreateLeague { actor: Actor::Admin, league_id: Uuid::now_v7().into(), settings };
    app.execute(command, CommandOptions::default()).await.map(|_| ())
}

async fn every_system_takes_the_catalogues_players_per_game(db: TestDatabase) {
    let app = App::open(&db.url).await.unwrap();
    for info in catalogue() {
        let players = info.players_per_game;
        let outside = [players.min.checked_sub(1), players.max.map(|max| max + 1)];
        for k in outside.into_iter().flatten() {
            let head = app.store().head_position().await.unwrap();
            let error = create(&app, info.system, k).await.unwrap_err();
            let (field, message) = error.invalid_input().expect("invalid input");
            assert_eq!(field, "playersPerGame", "{} with {k}: {error}", info.name);
            let range = format!("needs {players} players per game, got {k}");
            assert!(message.contains(&range), "{message:?} should say {range:?}");
            assert_eq!(app.store().head_position().await.unwrap(), head, "nothing appended");
        }
        create(&app, info.system, players.min).await.unwrap();
    }
}

league_testkit::on_both_databases!(every_system_takes_the_catalogues_players_per_game);
