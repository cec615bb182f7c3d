//! Test support: a fresh, empty database per test, on embedded SQLite and on PostgreSQL;
//! the domain's [`fixtures`]; a PostgreSQL primary with a hot standby made from scratch
//! ([`replication::ReplicatedPair`]); and, with the `app` feature, the gateway harness
//! ([`app::spawn_app`]) and its GraphQL and WebSocket [`client`].
//!
//! PostgreSQL comes from the `PG*` variables that `pg_virtualenv` exports (the README's test
//! command starts a throwaway cluster). Without them, PostgreSQL tests are skipped with a
//! message, unless `LEAGUE_REQUIRE_PG=1` (set by `scripts/test`), where that is a failure:
//! CI never silently passes without the real database.
//!
//! `pg_virtualenv` points `PGHOST` at `localhost`, so tests reach PostgreSQL over TCP (TLS
//! when the cluster offers it, as Debian's do). `LEAGUE_TEST_PG_SOCKET=DIR` (e.g.
//! `/var/run/postgresql`) connects over the cluster's Unix socket in `DIR` instead, with the
//! same password: start the cluster with password authentication on local connections
//! (`pg_virtualenv -i --auth-local=scram-sha-256`, as `scripts/test` does for that run).

use std::fmt;

pub use league_domain::fixtures;

#[cfg(feature = "app")]
pub mod app;
pub mod auto_failover;
#[cfg(feature = "app")]
pub mod client;
#[cfg(feature = "app")]
pub mod passkey;
pub mod replication;

use sea_orm::{ConnectionTrait, Database};

/// Which database engine a [`TestDatabase`] runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A fresh, empty database; SQLite files live in a temporary directory removed on drop.
#[derive(Debug)]
pub struct TestDatabase {
    pub backend: Backend,
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl fmt::Display for TestDatabase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} ({})", self.backend, self.url)
    }
}

/// A new SQLite database file in its own temporary directory.
pub fn sqlite() -> TestDatabase {
    let dir = tempfile::tempdir().expect("temporary directory for a test database");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("league.db").display());
    TestDatabase { backend: Backend::Sqlite, url, _dir: Some(dir) }
}

/// The server URL (no database name) of the PostgreSQL cluster named by `PG*` variables,
/// over the Unix socket in `LEAGUE_TEST_PG_SOCKET` when that is set.
pub fn postgres_server_url() -> Option<String> {
    let host = match std::env::var("LEAGUE_TEST_PG_SOCKET") {
        // A socket directory goes in the URL's host, its slashes percent-encoded.
        Ok(directory) if !directory.is_empty() => directory.replace('/', "%2F"),
        _ => std::env::var("PGHOST").ok()?,
    };
    let port = std::env::var("PGPORT").unwrap_or_else(|_| "5432".into());
    let user = std::env::var("PGUSER").unwrap_or_else(|_| "postgres".into());
    let password = std::env::var("PGPASSWORD").unwrap_or_default();
    Some(format!("postgres://{user}:{password}@{host}:{port}"))
}

/// Whether PostgreSQL tests must run (`LEAGUE_REQUIRE_PG=1`).
pub fn postgres_required() -> bool {
    std::env::var("LEAGUE_REQUIRE_PG").is_ok_and(|v| v == "1")
}

/// A new, empty PostgreSQL database on the test cluster, or `None` (with a message on
/// stderr) when no cluster is configured and PostgreSQL is not required.
pub async fn postgres() -> Option<TestDatabase> {
    let Some(server) = postgres_server_url() else {
        assert!(
            !postgres_required(),
            "LEAGUE_REQUIRE_PG=1 but no PGHOST: run the tests through scripts/test"
        );
        eprintln!("skipping PostgreSQL: no PGHOST (run scripts/test for the full suite)");
        return None;
    };
    let admin_db = std::env::var("PGDATABASE").unwrap_or_else(|_| "postgres".into());
    let admin = Database::connect(format!("{server}/{admin_db}"))
        .await
        .expect("connect to the PostgreSQL test cluster");
    let name = format!("league_test_{}", uuid::Uuid::now_v7().simple());
    admin
        .execute_unprepared(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create a fresh PostgreSQL test database");
    admin.close().await.ok();
    Some(TestDatabase { backend: Backend::Postgres, url: format!("{server}/{name}"), _dir: None })
}

/// Every database the suite runs on: SQLite always, PostgreSQL when configured.
pub async fn all() -> Vec<TestDatabase> {
    let mut dbs = vec![sqlite()];
    dbs.extend(postgres().await);
    dbs
}

/// Generates one `#[tokio::test]` per backend for an `async fn(TestDatabase)`:
/// `league_testkit::on_both_databases!(appends_are_atomic);` creates
/// `appends_are_atomic::sqlite` and `appends_are_atomic::postgres`.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() {
                super::$name($crate::sqlite()).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() {
                if let Some(db) = $crate::postgres().await {
                    super::$name(db).await;
                }
            }
        }
    )+};
}
