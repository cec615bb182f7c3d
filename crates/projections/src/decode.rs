//! Stored `(event_type, schema_version, payload)` to a typed [`DomainEvent`]: the domain's one
//! decoder ([`DomainEvent::decode`], with its upcasting hook), re-exported under the name the
//! read side uses.

pub use league_domain::PayloadSource;
use league_domain::{DomainEvent, EventDecodeError, EventType};

/// Decodes one stored event; refuses unknown types, schema versions without an upcast and
/// malformed payloads with a typed error.
pub fn decode_event(
    event_type: &str,
    schema_version: i64,
    payload: impl PayloadSource,
) -> Result<DomainEvent, EventDecodeError> {
    DomainEvent::decode(event_type, schema_version, payload)
}

/// Streams the rows of `$sql` (columns `position, stream_version, event_type,
/// schema_version, payload, recorded_at`, one parameter bound to `$bound`) over `$pool`,
/// decoding each payload straight from its JSON text, and runs `$body` with the row's
/// [`EventMeta`](crate::model::EventMeta) and [`DomainEvent`] bound to `$meta` and `$event`.
/// The one row decoder of the database paths (whole-log fold, catalog fold); a macro
/// because SQLite and PostgreSQL pools yield different row types.
macro_rules! for_each_event_row {
    ($pool:expr, $sql:expr, $bound:expr, |$meta:ident, $event:ident| $body:block) => {{
        use ::futures::TryStreamExt as _;
        use ::sea_orm::sqlx::Row as _;
        let mut rows = ::sea_orm::sqlx::query($sql).bind($bound).fetch($pool);
        while let Some(row) = rows.try_next().await? {
            let position = row.try_get::<i64, _>(0)? as u64;
            let $meta = $crate::model::EventMeta {
                position,
                stream_version: row.try_get::<i64, _>(1)? as u64,
                recorded_at: row.try_get::<::chrono::DateTime<::chrono::Utc>, _>(5)?,
            };
            let event_type: &str = row.try_get(2)?;
            let schema_version: i64 = row.try_get::<i32, _>(3)?.into();
            let payload: &str = row.try_get(4)?;
            let $event = $crate::decode::decode_event(event_type, schema_version, payload)
                .map_err(|source| $crate::error::ProjectionError::Decode { position, source })?;
            $body
        }
    }};
}
pub(crate) use for_each_event_row;

/// The stored events of `types` in position order up to a bound, as one SQL statement
/// (`sqlite` picks SQLite's `?1` placeholder, else PostgreSQL's `$1`); the type names come
/// from the list, never retyped. On SQLite the positions are picked from the
/// `events(event_type, position)` index first, so the table is read in rowid order with no
/// sort: ordering the matching rows instead reads the table once per row at random and
/// sorts the payloads in a temporary B-tree that spills to disk (≈ 4× slower at 300k
/// events).
pub(crate) fn rows_of_types_sql(types: &[EventType], sqlite: bool) -> String {
    let names: Vec<String> = types.iter().map(|t| format!("'{}'", t.as_str())).collect();
    let types = format!("event_type IN ({})", names.join(", "));
    let columns = "position, stream_version, event_type, schema_version, payload, recorded_at";
    if sqlite {
        format!(
            "SELECT {columns} FROM events WHERE position IN \
             (SELECT position FROM events WHERE {types} AND position <= ?1) ORDER BY position"
        )
    } else {
        format!("SELECT {columns} FROM events WHERE {types} AND position <= $1 ORDER BY position")
    }
}
