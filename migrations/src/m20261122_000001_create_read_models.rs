//! The persisted read models (`rm_*` tables) kept by `league-projections`' projector, and the
//! checkpoint row recording up to which log position they are applied.
//!
//! One script serves both databases: ids are canonical UUID text, times RFC 3339 text
//! (UTC, microseconds), booleans 0/1, nested values (seats, results) JSON text. These tables
//! are derived data: `league replay` drops their rows and rebuilds them from the log.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

const UP: &str = r#"
CREATE TABLE rm_checkpoint (
    name     TEXT   PRIMARY KEY NOT NULL,
    position BIGINT NOT NULL
);
INSERT INTO rm_checkpoint (name, position) VALUES ('read_model', 0);
CREATE TABLE rm_players (
    player_id     TEXT PRIMARY KEY NOT NULL,
    name          TEXT NOT NULL,
    token_hash    TEXT NOT NULL,
    registered_at TEXT NOT NULL
);
CREATE INDEX rm_players_token_hash ON rm_players (token_hash);
CREATE TABLE rm_leagues (
    league_id              TEXT   PRIMARY KEY NOT NULL,
    name                   TEXT   NOT NULL,
    game                   TEXT   NOT NULL,
    game_version           TEXT,
    scoring_system         TEXT   NOT NULL,
    players_per_game       BIGINT NOT NULL,
    size                   BIGINT NOT NULL,
    games_per_seat         BIGINT NOT NULL,
    require_active_players BIGINT NOT NULL,
    status                 TEXT   NOT NULL,
    players                TEXT   NOT NULL,
    created_at             TEXT   NOT NULL,
    stream_version         BIGINT NOT NULL
);
CREATE TABLE rm_games (
    game_id     TEXT   PRIMARY KEY NOT NULL,
    league_id   TEXT   NOT NULL,
    number      BIGINT NOT NULL,
    seats       TEXT   NOT NULL,
    status      TEXT   NOT NULL,
    result      TEXT,
    scores      TEXT   NOT NULL,
    finished_at TEXT
);
CREATE INDEX rm_games_league ON rm_games (league_id, number);
CREATE TABLE rm_standings (
    league_id     TEXT             NOT NULL,
    player_id     TEXT             NOT NULL,
    standing_rank BIGINT           NOT NULL,
    total         DOUBLE PRECISION NOT NULL,
    played        BIGINT           NOT NULL,
    wins          BIGINT           NOT NULL,
    draws         BIGINT           NOT NULL,
    PRIMARY KEY (league_id, player_id)
);
CREATE TABLE rm_score_history (
    league_id   TEXT             NOT NULL,
    player_id   TEXT             NOT NULL,
    position    BIGINT           NOT NULL,
    game_id     TEXT             NOT NULL,
    recorded_at TEXT             NOT NULL,
    delta       DOUBLE PRECISION NOT NULL,
    total       DOUBLE PRECISION NOT NULL,
    reason      TEXT,
    PRIMARY KEY (league_id, player_id, position)
);
"#;

const DOWN: &str = r#"
DROP TABLE rm_score_history;
DROP TABLE rm_standings;
DROP TABLE rm_games;
DROP TABLE rm_leagues;
DROP TABLE rm_players;
DROP TABLE rm_checkpoint;
"#;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(UP).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(DOWN).await?;
        Ok(())
    }
}
