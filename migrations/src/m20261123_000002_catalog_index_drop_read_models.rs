//! The read side without persisted read models (`docs/architecture.md`): an index
//! `events(event_type, position)` so a gateway folds its catalog from the catalog event
//! types alone, and the `rm_*` tables dropped — nothing read them; every model is folded
//! from the log (the catalog at start, each league from its own stream on demand).

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

use crate::m20261122_000001_create_read_models as read_models;

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

const UP: &str = r#"
CREATE INDEX IF NOT EXISTS events_type_position ON events (event_type, position);
DROP TABLE IF EXISTS rm_score_history;
DROP TABLE IF EXISTS rm_standings;
DROP TABLE IF EXISTS rm_games;
DROP TABLE IF EXISTS rm_leagues;
DROP TABLE IF EXISTS rm_players;
DROP TABLE IF EXISTS rm_checkpoint;
"#;

const DOWN: &str = "DROP INDEX IF EXISTS events_type_position;";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(UP).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(DOWN).await?;
        // The tables come back empty: a server of that version rebuilds them at start.
        read_models::Migration.up(manager).await
    }
}
