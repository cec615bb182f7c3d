//! Webhooks' tables beside the log (migrations `m20261125_000002_webhooks`,
//! `m20261127_000001_webhook_urls`): each webhook's signing secret and URL, kept like a key and
//! never in the hash chain, and each webhook's delivery
//! checkpoint with the retry state of its delivery in flight. One SQL text serves both
//! databases (`?` placeholders, numbered for PostgreSQL); times are Unix milliseconds.
//!
//! On PostgreSQL several gateways may deliver from one database: [`WebhookLocks`] holds a
//! session advisory lock per webhook on a connection of its own, so each webhook has one
//! delivering gateway at a time, and a gateway that dies (even by SIGKILL) lets go at once
//! (the server ends the session). SQLite is served by one process, whose locks always succeed.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sqlx::{self, PgConnection, pool::PoolConnection};
use sea_orm::{ConnectionTrait, DbBackend, QueryResult, Statement, Value, sea_query::Values};
use tokio::sync::Mutex;
use uuid::Uuid;

use crate::convert::{from_db, to_db};
use crate::error::database_error;
use crate::{EventStore, StoreError};

/// Where a webhook's deliveries stand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookCheckpoint {
    pub webhook_id: Uuid,
    /// The last log position delivered, or passed over as not wanted.
    pub position: u64,
    /// Failed attempts at the delivery in flight (0 when the last one succeeded).
    pub attempts: u32,
    /// When the delivery in flight is tried next, after a failure.
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// When the delivery in flight first failed (the pause timer starts there).
    pub failing_since: Option<DateTime<Utc>>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// When the last delivery succeeded.
    pub delivered_at: Option<DateTime<Utc>>,
}

/// A failed attempt, as recorded in the checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookFailure {
    pub attempts: u32,
    pub next_attempt_at: DateTime<Utc>,
    pub failing_since: DateTime<Utc>,
    pub error: String,
}

const CHECKPOINT_COLUMNS: &str = "webhook_id, position, attempts, next_attempt_at_ms, \
                                  failing_since_ms, last_error, delivered_at_ms";

impl EventStore {
    /// Keeps a webhook's signing secret and URL (the first ones kept for the id stay): the URL
    /// is a capability like the secret, so it is kept here and never in the log.
    pub async fn save_webhook_secret(
        &self,
        webhook: Uuid,
        secret: &str,
        url: &str,
    ) -> Result<(), StoreError> {
        self.webhook_sql(
            "INSERT INTO webhook_secrets (webhook_id, secret, url, created_at_ms) \
             VALUES (?, ?, ?, ?) ON CONFLICT (webhook_id) DO NOTHING",
            vec![webhook.to_string().into(), secret.into(), url.into(), millis(Utc::now()).into()],
        )
        .await
        .map(drop)
    }

    /// A webhook's signing secret, if one is kept.
    pub async fn webhook_secret(&self, webhook: Uuid) -> Result<Option<String>, StoreError> {
        let row = self
            .webhook_query_one(
                "SELECT secret FROM webhook_secrets WHERE webhook_id = ?",
                vec![webhook.to_string().into()],
            )
            .await?;
        row.map(|row| row.try_get::<String>("", "secret")).transpose().map_err(StoreError::from)
    }

    /// A webhook's URL, if one is kept (webhooks registered before URLs were kept here have
    /// theirs in their registration event).
    pub async fn webhook_url(&self, webhook: Uuid) -> Result<Option<String>, StoreError> {
        let row = self
            .webhook_query_one(
                "SELECT url FROM webhook_secrets WHERE webhook_id = ?",
                vec![webhook.to_string().into()],
            )
            .await?;
        Ok(row.map(|row| row.try_get::<Option<String>>("", "url")).transpose()?.flatten())
    }

    /// Every kept webhook URL, by webhook.
    pub async fn webhook_urls(&self) -> Result<HashMap<Uuid, String>, StoreError> {
        let sql = "SELECT webhook_id, url FROM webhook_secrets WHERE url IS NOT NULL";
        let rows = self.connection().query_all_raw(self.sql_statement(sql, vec![])).await?;
        let mut urls = HashMap::with_capacity(rows.len());
        for row in rows {
            let id: String = row.try_get("", "webhook_id")?;
            let Ok(id) = Uuid::parse_str(&id) else { continue };
            urls.insert(id, row.try_get("", "url")?);
        }
        Ok(urls)
    }

    /// Forgets a webhook's secret (its registration was refused, or it was removed).
    pub async fn delete_webhook_secret(&self, webhook: Uuid) -> Result<(), StoreError> {
        self.webhook_sql(
            "DELETE FROM webhook_secrets WHERE webhook_id = ?",
            vec![webhook.to_string().into()],
        )
        .await
        .map(drop)
    }

    /// Creates a webhook's checkpoint at `position` unless it has one; returns the
    /// checkpoint as it is.
    pub async fn start_webhook_checkpoint(
        &self,
        webhook: Uuid,
        position: u64,
    ) -> Result<WebhookCheckpoint, StoreError> {
        self.webhook_sql(
            "INSERT INTO webhook_checkpoints (webhook_id, position, attempts, updated_at_ms) \
             VALUES (?, ?, 0, ?) ON CONFLICT (webhook_id) DO NOTHING",
            vec![webhook.to_string().into(), to_db(position).into(), millis(Utc::now()).into()],
        )
        .await?;
        self.webhook_checkpoint(webhook).await?.ok_or_else(|| {
            StoreError::Database(sea_orm::DbErr::RecordNotFound(format!(
                "webhook {webhook}'s checkpoint vanished"
            )))
        })
    }

    /// A webhook's checkpoint, if its deliveries have started.
    pub async fn webhook_checkpoint(
        &self,
        webhook: Uuid,
    ) -> Result<Option<WebhookCheckpoint>, StoreError> {
        let sql =
            format!("SELECT {CHECKPOINT_COLUMNS} FROM webhook_checkpoints WHERE webhook_id = ?");
        let row = self.webhook_query_one(&sql, vec![webhook.to_string().into()]).await?;
        row.as_ref().map(checkpoint_of).transpose()
    }

    /// Every webhook's checkpoint.
    pub async fn webhook_checkpoints(&self) -> Result<Vec<WebhookCheckpoint>, StoreError> {
        let sql = format!("SELECT {CHECKPOINT_COLUMNS} FROM webhook_checkpoints");
        let rows = self.connection().query_all_raw(self.sql_statement(&sql, vec![])).await?;
        rows.iter().map(checkpoint_of).collect()
    }

    /// Moves a webhook's checkpoint from `from` to `to` and clears its retry state; `delivered`
    /// when a delivery succeeded (rather than events passed over). Returns `false`, changing
    /// nothing, when the checkpoint is no longer at `from` (another deliverer moved it).
    pub async fn advance_webhook_checkpoint(
        &self,
        webhook: Uuid,
        from: u64,
        to: u64,
        delivered: bool,
    ) -> Result<bool, StoreError> {
        let now = millis(Utc::now());
        let delivered_at: Value = if delivered { Some(now).into() } else { None::<i64>.into() };
        let changed = self
            .webhook_sql(
                "UPDATE webhook_checkpoints SET position = ?, attempts = 0, \
                 next_attempt_at_ms = NULL, failing_since_ms = NULL, last_error = NULL, \
                 delivered_at_ms = COALESCE(?, delivered_at_ms), updated_at_ms = ? \
                 WHERE webhook_id = ? AND position = ?",
                vec![
                    to_db(to).into(),
                    delivered_at,
                    now.into(),
                    webhook.to_string().into(),
                    to_db(from).into(),
                ],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Records a failed attempt at the delivery after `position`.
    pub async fn record_webhook_failure(
        &self,
        webhook: Uuid,
        position: u64,
        failure: &WebhookFailure,
    ) -> Result<(), StoreError> {
        self.webhook_sql(
            "UPDATE webhook_checkpoints SET attempts = ?, next_attempt_at_ms = ?, \
             failing_since_ms = ?, last_error = ?, updated_at_ms = ? \
             WHERE webhook_id = ? AND position = ?",
            vec![
                i64::from(failure.attempts).into(),
                millis(failure.next_attempt_at).into(),
                millis(failure.failing_since).into(),
                failure.error.clone().into(),
                millis(Utc::now()).into(),
                webhook.to_string().into(),
                to_db(position).into(),
            ],
        )
        .await
        .map(drop)
    }

    /// Clears a webhook's retry state (it was resumed: the pause timer starts again).
    pub async fn reset_webhook_retries(&self, webhook: Uuid) -> Result<(), StoreError> {
        self.webhook_sql(
            "UPDATE webhook_checkpoints SET attempts = 0, next_attempt_at_ms = NULL, \
             failing_since_ms = NULL, updated_at_ms = ? WHERE webhook_id = ?",
            vec![millis(Utc::now()).into(), webhook.to_string().into()],
        )
        .await
        .map(drop)
    }

    /// The locks that give each webhook one delivering gateway.
    pub fn webhook_locks(&self) -> WebhookLocks {
        let pool = match self.backend() {
            DbBackend::Postgres => Some(self.connection().get_postgres_connection_pool().clone()),
            _ => None,
        };
        WebhookLocks { pool, session: Mutex::new(Session::default()) }
    }

    pub(crate) fn sql_statement(&self, sql: &str, values: Vec<Value>) -> Statement {
        let backend = self.backend();
        let sql = match backend {
            DbBackend::Postgres => number_placeholders(sql),
            _ => sql.to_owned(),
        };
        Statement::from_sql_and_values(backend, sql, Values(values))
    }

    /// Runs one statement; returns the rows it changed.
    async fn webhook_sql(&self, sql: &str, values: Vec<Value>) -> Result<u64, StoreError> {
        let result = self.connection().execute_raw(self.sql_statement(sql, values)).await?;
        Ok(result.rows_affected())
    }

    async fn webhook_query_one(
        &self,
        sql: &str,
        values: Vec<Value>,
    ) -> Result<Option<QueryResult>, StoreError> {
        Ok(self.connection().query_one_raw(self.sql_statement(sql, values)).await?)
    }
}

/// `?` placeholders as PostgreSQL's `$1`, `$2`, … (the SQL here has no `?` elsewhere).
fn number_placeholders(sql: &str) -> String {
    let mut numbered = String::with_capacity(sql.len() + 8);
    let mut next = 0;
    for c in sql.chars() {
        if c == '?' {
            next += 1;
            numbered.push_str(&format!("${next}"));
        } else {
            numbered.push(c);
        }
    }
    numbered
}

fn millis(time: DateTime<Utc>) -> i64 {
    time.timestamp_millis()
}

fn time_of(ms: Option<i64>) -> Option<DateTime<Utc>> {
    ms.and_then(DateTime::from_timestamp_millis)
}

fn checkpoint_of(row: &QueryResult) -> Result<WebhookCheckpoint, StoreError> {
    let id: String = row.try_get("", "webhook_id")?;
    let webhook_id = Uuid::parse_str(&id).map_err(|error| {
        StoreError::Database(sea_orm::DbErr::Type(format!("webhook id {id:?}: {error}")))
    })?;
    Ok(WebhookCheckpoint {
        webhook_id,
        position: from_db(row.try_get("", "position")?),
        attempts: u32::try_from(row.try_get::<i64>("", "attempts")?).unwrap_or(u32::MAX),
        next_attempt_at: time_of(row.try_get("", "next_attempt_at_ms")?),
        failing_since: time_of(row.try_get("", "failing_since_ms")?),
        last_error: row.try_get("", "last_error")?,
        delivered_at: time_of(row.try_get("", "delivered_at_ms")?),
    })
}

/// Session advisory locks, one per webhook, on a PostgreSQL connection kept out of the pool
/// (a lock lives as long as the session that took it). On SQLite every lock succeeds.
#[derive(Debug)]
pub struct WebhookLocks {
    pool: Option<sqlx::PgPool>,
    session: Mutex<Session>,
}

/// The locking connection and the webhooks it holds.
#[derive(Debug, Default)]
struct Session {
    connection: Option<PgConnection>,
    held: HashSet<Uuid>,
}

/// The first key of every webhook lock ("hk" in ASCII): the two-key form, so webhook locks
/// never meet the store's one-key append lock.
const WEBHOOK_LOCK_CLASS: i32 = 0x686b;

/// The second key: 32 bits of the webhook id (two webhooks sharing it share one deliverer).
fn lock_key(webhook: Uuid) -> i32 {
    let bytes = webhook.as_bytes();
    i32::from_be_bytes([bytes[12], bytes[13], bytes[14], bytes[15]])
}

impl WebhookLocks {
    /// Takes the webhook's lock if no other gateway holds it; `true` when this one holds it.
    pub async fn try_lock(&self, webhook: Uuid) -> Result<bool, StoreError> {
        let Some(pool) = &self.pool else { return Ok(true) };
        let mut session = self.session.lock().await;
        if session.held.contains(&webhook) {
            return Ok(true);
        }
        if session.connection.is_none() {
            let connection: PoolConnection<sqlx::Postgres> =
                pool.acquire().await.map_err(database_error)?;
            session.connection = Some(connection.detach());
            session.held.clear();
        }
        let connection = session.connection.as_mut().expect("connected above");
        let taken = sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1, $2)")
            .bind(WEBHOOK_LOCK_CLASS)
            .bind(lock_key(webhook))
            .fetch_one(&mut *connection)
            .await;
        match taken {
            Ok(taken) => {
                if taken {
                    session.held.insert(webhook);
                }
                Ok(taken)
            }
            Err(error) => {
                // The session is gone, and every lock with it: start afresh next time.
                session.connection = None;
                session.held.clear();
                Err(database_error(error))
            }
        }
    }

    /// Whether this gateway still holds the webhook's lock (its session may have died).
    pub async fn holds(&self, webhook: Uuid) -> bool {
        self.pool.is_none() || self.session.lock().await.held.contains(&webhook)
    }

    /// Lets another gateway deliver the webhook.
    pub async fn unlock(&self, webhook: Uuid) -> Result<(), StoreError> {
        if self.pool.is_none() {
            return Ok(());
        }
        let mut session = self.session.lock().await;
        if !session.held.remove(&webhook) {
            return Ok(());
        }
        let Some(connection) = session.connection.as_mut() else { return Ok(()) };
        let released = sqlx::query_scalar::<_, bool>("SELECT pg_advisory_unlock($1, $2)")
            .bind(WEBHOOK_LOCK_CLASS)
            .bind(lock_key(webhook))
            .fetch_one(&mut *connection)
            .await;
        if let Err(error) = released {
            session.connection = None;
            session.held.clear();
            return Err(database_error(error));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres() {
        assert_eq!(
            number_placeholders("UPDATE t SET a = ?, b = ? WHERE c = ?"),
            "UPDATE t SET a = $1, b = $2 WHERE c = $3"
        );
    }
}
