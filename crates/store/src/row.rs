//! The raw rows the streaming reads hand out: a row as the database driver returned it
//! ([`EventRow`]), lending its fields as a [`RawEvent`] whose payload is the JSON text the
//! database holds, so a decoder parses it straight into typed values without an
//! intermediate `serde_json::Value` or a copy. Both engines' reads (`storage.rs`) and the
//! whole-log scan's batches (`scan.rs`) hand out [`RawEvent`]s.

use chrono::{DateTime, Utc};
use sea_orm::sqlx::postgres::PgRow;
use sea_orm::sqlx::sqlite::SqliteRow;
use sea_orm::sqlx::{self, ColumnIndex, Decode, Row, Type};

use crate::StoreError;
use crate::convert::from_db;
use crate::error::database_error;

/// One stored event lent from a [`EventRow`]: everything a fold needs, the payload as its
/// stored JSON text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawEvent<'a> {
    pub position: u64,
    pub stream_version: u64,
    pub event_type: &'a str,
    pub schema_version: i32,
    pub payload: &'a str,
    pub recorded_at: DateTime<Utc>,
}

/// A row of a streaming read, as the database driver returned it; [`EventRow::event`] lends
/// its fields without copying them.
pub struct EventRow(RowOf);

impl std::fmt::Debug for EventRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("EventRow").field(&self.event()).finish()
    }
}

enum RowOf {
    Sqlite(SqliteRow),
    Postgres(PgRow),
}

impl EventRow {
    pub(crate) fn sqlite(row: SqliteRow) -> EventRow {
        EventRow(RowOf::Sqlite(row))
    }

    pub(crate) fn postgres(row: PgRow) -> EventRow {
        EventRow(RowOf::Postgres(row))
    }

    /// The row's fields; a row that does not decode is [`StoreError::Database`].
    pub fn event(&self) -> Result<RawEvent<'_>, StoreError> {
        match &self.0 {
            RowOf::Sqlite(row) => raw_event(row),
            RowOf::Postgres(row) => raw_event(row),
        }
        .map_err(database_error)
    }
}

/// The columns every streaming read selects, in the order [`raw_event`] reads them (a macro,
/// so the engines' SQL can `concat!` it).
macro_rules! raw_columns {
    () => {
        "position, stream_version, event_type, schema_version, payload, recorded_at"
    };
}
pub(crate) use raw_columns;

fn raw_event<'r, R: Row>(row: &'r R) -> Result<RawEvent<'r>, sqlx::Error>
where
    usize: ColumnIndex<R>,
    i64: Decode<'r, R::Database> + Type<R::Database>,
    i32: Decode<'r, R::Database> + Type<R::Database>,
    &'r str: Decode<'r, R::Database> + Type<R::Database>,
    DateTime<Utc>: Decode<'r, R::Database> + Type<R::Database>,
{
    Ok(RawEvent {
        position: from_db(row.try_get(0)?),
        stream_version: from_db(row.try_get(1)?),
        event_type: row.try_get(2)?,
        schema_version: row.try_get(3)?,
        payload: row.try_get(4)?,
        recorded_at: row.try_get(5)?,
    })
}
