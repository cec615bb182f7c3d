//! Snapshots of derived state kept beside the log (migration `m20261126_000001_snapshots`,
//! `docs/architecture.md#snapshots`): one row per kind, replaced by the next one taken. A
//! snapshot names the log position and chain hash it was taken at, its encoding's format
//! number and the SHA-256 of its body, so a reader can tell whether it belongs to this log
//! ([`EventStore::hash_at`]), whether it understands it, and whether its bytes are intact.

use chrono::{DateTime, TimeZone, Utc};
use sea_orm::sqlx::{self, Connection as _, Row as _};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, QueryResult};
use sha2::{Digest, Sha256};

use crate::convert::{from_db, to_db};
use crate::error::database_error;
use crate::{EventStore, StoreError};

/// A snapshot as stored.
#[derive(Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// What it is a snapshot of (e.g. `catalog`).
    pub kind: String,
    /// The encoding of `body`: a reader that does not know it ignores the snapshot.
    pub format: u32,
    /// The last log position folded into it.
    pub position: u64,
    /// The chain hash of the event at `position` (the genesis hash at position 0).
    pub chain_hash: String,
    /// SHA-256 of `body`, hex, as computed when it was saved.
    pub body_sha256: String,
    pub body: Vec<u8>,
    pub taken_at: DateTime<Utc>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("kind", &self.kind)
            .field("format", &self.format)
            .field("position", &self.position)
            .field("chain_hash", &self.chain_hash)
            .field("body_sha256", &self.body_sha256)
            .field("body_bytes", &self.body.len())
            .field("taken_at", &self.taken_at)
            .finish()
    }
}

impl Snapshot {
    /// A snapshot of `body`, taken now.
    pub fn new(
        kind: &str,
        format: u32,
        position: u64,
        chain_hash: String,
        body: Vec<u8>,
    ) -> Snapshot {
        Snapshot {
            kind: kind.to_owned(),
            format,
            position,
            chain_hash,
            body_sha256: sha256_hex(&body),
            body,
            taken_at: Utc::now(),
        }
    }

    /// Whether the body still hashes to the SHA-256 recorded with it.
    pub fn is_intact(&self) -> bool {
        sha256_hex(&self.body) == self.body_sha256
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

const COLUMNS: &str = "kind, format, position, chain_hash, body_sha256, body, taken_at_ms";

impl EventStore {
    /// Saves `snapshot`, replacing the one of its kind.
    pub async fn save_snapshot(&self, snapshot: &Snapshot) -> Result<(), StoreError> {
        let sql = format!(
            "INSERT INTO snapshots ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (kind) DO UPDATE SET format = excluded.format, \
             position = excluded.position, chain_hash = excluded.chain_hash, \
             body_sha256 = excluded.body_sha256, body = excluded.body, \
             taken_at_ms = excluded.taken_at_ms"
        );
        let values = vec![
            snapshot.kind.clone().into(),
            i64::from(snapshot.format).into(),
            to_db(snapshot.position).into(),
            snapshot.chain_hash.clone().into(),
            snapshot.body_sha256.clone().into(),
            snapshot.body.clone().into(),
            snapshot.taken_at.timestamp_millis().into(),
        ];
        let statement = self.sql_statement(&sql, values);
        if self.backend() == DbBackend::Postgres {
            return on_shrunk_connection(self.connection(), statement, |_| Ok(())).await;
        }
        self.connection().execute_raw(statement).await?;
        Ok(())
    }

    /// The snapshot of `kind`, if one is stored (check [`Snapshot::is_intact`] before use);
    /// read where this handle reads the log (a replica through [`EventStore::for_reads`]).
    pub async fn snapshot(&self, kind: &str) -> Result<Option<Snapshot>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM snapshots WHERE kind = ?");
        let statement = self.sql_statement(&sql, vec![kind.into()]);
        if self.backend() == DbBackend::Postgres {
            return on_shrunk_connection(self.read_db(), statement, |rows| {
                rows.first().map(pg_snapshot_of).transpose()
            })
            .await;
        }
        let row = self.read_db().query_one_raw(statement).await?;
        row.as_ref().map(snapshot_of).transpose()
    }

    /// Deletes the snapshot of `kind`; whether there was one.
    pub async fn delete_snapshot(&self, kind: &str) -> Result<bool, StoreError> {
        let statement =
            self.sql_statement("DELETE FROM snapshots WHERE kind = ?", vec![kind.into()]);
        Ok(self.connection().execute_raw(statement).await?.rows_affected() > 0)
    }

    /// The chain hash of the event at `position` (the genesis hash at 0; `None` past the
    /// head): what ties a snapshot to the log it was taken from.
    pub async fn hash_at(&self, position: u64) -> Result<Option<String>, StoreError> {
        if position == 0 {
            return Ok(Some(crate::GENESIS_HASH.to_owned()));
        }
        let events = self.read_range(position, position, 1).await?;
        Ok(events.into_iter().next().map(|event| event.hash))
    }
}

/// Runs `statement` on a PostgreSQL connection of `db`'s pool and hands its rows to `answer`,
/// then gives back the connection's buffers: the driver keeps a connection's read and write
/// buffers as large as the largest message it carried, so a pooled connection that carried
/// a catalog snapshot (≈ 130 MB at 10M events) would hold that much for the rest of the
/// process's life.
async fn on_shrunk_connection<T>(
    db: &DatabaseConnection,
    statement: sea_orm::Statement,
    answer: impl FnOnce(&[sqlx::postgres::PgRow]) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut connection =
        db.get_postgres_connection_pool().acquire().await.map_err(database_error)?;
    // The statement is this module's own SQL with bound parameters.
    let mut query = sqlx::query(sqlx::AssertSqlSafe(statement.sql));
    for value in statement.values.iter().flat_map(|values| values.0.iter()) {
        query = match value {
            sea_orm::Value::String(text) => query.bind(text.as_deref()),
            sea_orm::Value::BigInt(number) => query.bind(*number),
            sea_orm::Value::Bytes(bytes) => query.bind(bytes.as_deref()),
            other => {
                return Err(StoreError::Database(sea_orm::DbErr::Custom(format!(
                    "snapshot statement: unexpected parameter {other:?}"
                ))));
            }
        };
    }
    let rows = query.fetch_all(&mut *connection).await;
    connection.shrink_buffers();
    answer(&rows.map_err(database_error)?)
}

fn pg_snapshot_of(row: &sqlx::postgres::PgRow) -> Result<Snapshot, StoreError> {
    let get = |error: sqlx::Error| database_error(error);
    let format: i64 = row.try_get("format").map_err(get)?;
    let taken_at_ms: i64 = row.try_get("taken_at_ms").map_err(get)?;
    Ok(Snapshot {
        kind: row.try_get("kind").map_err(get)?,
        format: u32::try_from(format).unwrap_or(u32::MAX),
        position: from_db(row.try_get("position").map_err(get)?),
        chain_hash: row.try_get("chain_hash").map_err(get)?,
        body_sha256: row.try_get("body_sha256").map_err(get)?,
        body: row.try_get("body").map_err(get)?,
        taken_at: Utc.timestamp_millis_opt(taken_at_ms).single().unwrap_or_default(),
    })
}

fn snapshot_of(row: &QueryResult) -> Result<Snapshot, StoreError> {
    let format: i64 = row.try_get("", "format")?;
    let taken_at_ms: i64 = row.try_get("", "taken_at_ms")?;
    Ok(Snapshot {
        kind: row.try_get("", "kind")?,
        // A format beyond u32 is one no reader knows.
        format: u32::try_from(format).unwrap_or(u32::MAX),
        position: from_db(row.try_get("", "position")?),
        chain_hash: row.try_get("", "chain_hash")?,
        body_sha256: row.try_get("", "body_sha256")?,
        body: row.try_get("", "body")?,
        taken_at: Utc.timestamp_millis_opt(taken_at_ms).single().unwrap_or_default(),
    })
}
