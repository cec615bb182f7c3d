//! The `snapshots` table: derived read-side state kept beside the log so a start need not
//! fold the whole log (`docs/architecture.md#snapshots`). A snapshot names the log position
//! and chain hash it was taken at and the format it is encoded in; a reader that does not
//! know the format, or whose log does not hold that hash at that position, ignores it and
//! folds the log. The log stays the only source of truth: deleting every row changes no
//! answer, only how long a start takes.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

use crate::m20261121_000001_create_events::script;

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

/// One row per kind of snapshot (the newest replaces the one before).
const UP_SQLITE: &str = "CREATE TABLE snapshots (\
    kind TEXT PRIMARY KEY NOT NULL, \
    format BIGINT NOT NULL, \
    position BIGINT NOT NULL CHECK (position >= 0), \
    chain_hash TEXT NOT NULL, \
    body_sha256 TEXT NOT NULL, \
    body BLOB NOT NULL, \
    taken_at_ms BIGINT NOT NULL)";
const UP_POSTGRES: &str = "CREATE TABLE snapshots (\
    kind text PRIMARY KEY, \
    format bigint NOT NULL, \
    position bigint NOT NULL CHECK (position >= 0), \
    chain_hash text NOT NULL, \
    body_sha256 text NOT NULL, \
    body bytea NOT NULL, \
    taken_at_ms bigint NOT NULL)";
const DOWN: &str = "DROP TABLE snapshots";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(script(db.get_database_backend(), UP_SQLITE, UP_POSTGRES)?).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(DOWN).await?;
        Ok(())
    }
}
