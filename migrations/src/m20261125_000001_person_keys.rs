//! The `person_keys` table: one key per person, under which their personal data is sealed in
//! the log (`docs/personal-data.md`). It lives outside the hash chain — the chain hashes the
//! sealed bytes — so deleting a key (an erasure) leaves the chain valid. Keys are written
//! and deleted in the same transaction as the registration or erasure event.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

use crate::m20261121_000001_create_events::script;

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

/// The person's id as text (the UUID's hyphenated form), the key's 32 raw bytes.
const UP_SQLITE: &str = "CREATE TABLE person_keys (\
    person_id TEXT PRIMARY KEY NOT NULL, \
    key BLOB NOT NULL CHECK (length(key) = 32))";
const UP_POSTGRES: &str = "CREATE TABLE person_keys (\
    person_id text PRIMARY KEY, \
    key bytea NOT NULL CHECK (length(key) = 32))";
const DOWN: &str = "DROP TABLE person_keys";

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
