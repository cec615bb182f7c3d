//! The event log: the `events` table, its indexes, the `idempotency_keys` table, and the
//! triggers that make the log append-only at the database level.
//!
//! The SQL is written per backend on purpose: the column types must round-trip the exact bytes
//! that the hash chain covers (payload and metadata are `TEXT`, never PostgreSQL `jsonb`, which
//! reorders keys), and trigger syntax differs between SQLite and PostgreSQL anyway.
//!
//! The triggers are named `events_no_update` and `events_no_delete` on both databases (and
//! `events_no_truncate` on PostgreSQL), so an operator (or the tamper test) can find them.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

const SQLITE_UP: &str = r#"
CREATE TABLE events (
    position        INTEGER PRIMARY KEY NOT NULL CHECK (position > 0),
    stream_id       TEXT    NOT NULL,
    stream_version  INTEGER NOT NULL CHECK (stream_version > 0),
    event_id        BLOB    NOT NULL UNIQUE,
    event_type      TEXT    NOT NULL,
    schema_version  INTEGER NOT NULL,
    payload         TEXT    NOT NULL,
    metadata        TEXT    NOT NULL,
    recorded_at     TEXT    NOT NULL,
    prev_hash       TEXT    NOT NULL,
    hash            TEXT    NOT NULL,
    UNIQUE (stream_id, stream_version)
);
CREATE INDEX events_recorded_at ON events (recorded_at);
CREATE TABLE idempotency_keys (
    idempotency_key TEXT    PRIMARY KEY NOT NULL,
    stream_id       TEXT    NOT NULL,
    first_position  INTEGER NOT NULL,
    last_position   INTEGER NOT NULL,
    stream_version  INTEGER NOT NULL
);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are immutable: UPDATE refused');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are immutable: DELETE refused');
END;
"#;

const POSTGRES_UP: &str = r#"
CREATE TABLE events (
    position        BIGINT      PRIMARY KEY CHECK (position > 0),
    stream_id       TEXT        NOT NULL,
    stream_version  BIGINT      NOT NULL CHECK (stream_version > 0),
    event_id        UUID        NOT NULL UNIQUE,
    event_type      TEXT        NOT NULL,
    schema_version  INTEGER     NOT NULL,
    payload         TEXT        NOT NULL,
    metadata        TEXT        NOT NULL,
    recorded_at     TIMESTAMPTZ NOT NULL,
    prev_hash       TEXT        NOT NULL,
    hash            TEXT        NOT NULL,
    UNIQUE (stream_id, stream_version)
);
CREATE INDEX events_recorded_at ON events (recorded_at);
CREATE TABLE idempotency_keys (
    idempotency_key TEXT   PRIMARY KEY,
    stream_id       TEXT   NOT NULL,
    first_position  BIGINT NOT NULL,
    last_position   BIGINT NOT NULL,
    stream_version  BIGINT NOT NULL
);
CREATE FUNCTION league_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % refused', TG_OP;
END
$$;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION league_events_immutable();
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION league_events_immutable();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION league_events_immutable();
"#;

const SQLITE_DOWN: &str = r#"
DROP TABLE idempotency_keys;
DROP TABLE events;
"#;

const POSTGRES_DOWN: &str = r#"
DROP TABLE idempotency_keys;
DROP TABLE events;
DROP FUNCTION league_events_immutable();
"#;

/// The SQL for this backend, or an error for one the platform does not support.
pub(crate) fn script(
    backend: DbBackend,
    sqlite: &'static str,
    postgres: &'static str,
) -> Result<&'static str, DbErr> {
    match backend {
        DbBackend::Sqlite => Ok(sqlite),
        DbBackend::Postgres => Ok(postgres),
        other => Err(DbErr::Migration(format!("unsupported database backend: {other:?}"))),
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(script(db.get_database_backend(), SQLITE_UP, POSTGRES_UP)?).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(script(db.get_database_backend(), SQLITE_DOWN, POSTGRES_DOWN)?)
            .await?;
        Ok(())
    }
}
