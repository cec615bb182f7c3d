//! Scratch databases for benchmarks: a fresh database beside the one `--database` names
//! (a new SQLite file in the same directory, so the same disk; or a new database on the
//! same PostgreSQL server), removed afterwards. Benchmarks never touch real data.

use std::future::Future;
use std::path::{Path, PathBuf};

use anyhow::Context;
use league_store::sea_orm::{ConnectionTrait, Database};

use crate::BenchError;

/// A scratch database and how to remove it.
pub enum Scratch {
    SqliteFile(PathBuf),
    /// An in-memory SQLite database: nothing to remove.
    SqliteMemory,
    Postgres {
        admin_url: String,
        name: String,
    },
}

impl Scratch {
    /// A fresh scratch database beside the one `url` names, and its URL; `label` goes into
    /// its name (`league-bench-LABEL-…`). An in-memory SQLite `url` is refused unless
    /// `memory_allowed`, which gives a fresh in-memory database instead.
    async fn create_inner(
        url: &str,
        label: &str,
        memory_allowed: bool,
    ) -> Result<(Scratch, String), BenchError> {
        let tag = uuid::Uuid::now_v7().simple().to_string();
        if let Some(rest) = url.strip_prefix("sqlite:") {
            let path = rest.trim_start_matches("//").split('?').next().unwrap_or_default();
            if path.is_empty() || path.contains(":memory:") || url.contains("mode=memory") {
                if memory_allowed {
                    return Ok((Scratch::SqliteMemory, "sqlite::memory:".to_owned()));
                }
                return Err(BenchError::BadInput(
                    "--database: give a SQLite file path (the scratch file goes beside it) or PostgreSQL"
                        .into(),
                ));
            }
            let dir = Path::new(path).parent().filter(|dir| !dir.as_os_str().is_empty());
            let file = dir.unwrap_or(Path::new(".")).join(format!("league-bench-{label}-{tag}.db"));
            let scratch_url = format!("sqlite://{}?mode=rwc", file.display());
            Ok((Scratch::SqliteFile(file), scratch_url))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // Connection options (`?sslmode=…`) apply to the scratch database too.
            let (base, query) = match url.split_once('?') {
                Some((base, query)) => (base, format!("?{query}")),
                None => (url, String::new()),
            };
            let scheme_end = base.find("://").map_or(0, |i| i + 3);
            let server = match base[scheme_end..].find('/') {
                Some(slash) => &base[..scheme_end + slash],
                None => base,
            };
            let name = format!("league_bench_{label}_{tag}");
            let admin = Database::connect(url).await.context("cannot connect to PostgreSQL")?;
            admin
                .execute_unprepared(&format!("CREATE DATABASE {name}"))
                .await
                .context("cannot create a scratch database (CREATEDB privilege needed)")?;
            admin.close().await.ok();
            let scratch_url = format!("{server}/{name}{query}");
            Ok((Scratch::Postgres { admin_url: url.to_owned(), name }, scratch_url))
        } else {
            Err(BenchError::BadInput(format!(
                "--database: unsupported URL {url:?}: use sqlite://… or postgres://…"
            )))
        }
    }

    /// Removes the scratch database (best effort: a failure is reported, not fatal).
    pub async fn remove(self) {
        match self {
            Scratch::SqliteFile(file) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut name = file.clone().into_os_string();
                    name.push(suffix);
                    std::fs::remove_file(name).ok();
                }
            }
            Scratch::SqliteMemory => {}
            Scratch::Postgres { admin_url, name } => {
                if let Ok(admin) = Database::connect(&admin_url).await {
                    let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                    if let Err(error) = admin.execute_unprepared(&drop).await {
                        eprintln!("league: could not drop scratch database {name}: {error}");
                    }
                    admin.close().await.ok();
                }
            }
        }
    }
}

/// Runs `measure` on a fresh scratch database beside `url` (given the scratch URL) and
/// removes the scratch afterwards, whether or not the measurement succeeded.
pub async fn in_scratch<T, Fut>(
    url: &str,
    label: &str,
    memory_allowed: bool,
    measure: impl FnOnce(String) -> Fut,
) -> Result<T, BenchError>
where
    Fut: Future<Output = Result<T, BenchError>>,
{
    let (scratch, scratch_url) = Scratch::create_inner(url, label, memory_allowed).await?;
    let outcome = measure(scratch_url).await;
    scratch.remove().await;
    outcome
}

/// A fresh scratch database beside `url` that is kept afterwards (for later runs on the same
/// log); its URL.
pub async fn kept_scratch(url: &str, label: &str) -> Result<String, BenchError> {
    let (_kept, scratch_url) = Scratch::create_inner(url, label, false).await?;
    Ok(scratch_url)
}

/// `--database` (where the scratch database goes) and `--json`, for the benches whose
/// scratch goes beside the default database file.
#[derive(Debug, clap::Args)]
pub struct ScratchArgs {
    /// Where to put the scratch database: beside this SQLite file, or on this PostgreSQL
    /// server. Nothing in it is touched.
    #[arg(long = "database", env = "DATABASE_URL", default_value = "sqlite://league.db?mode=rwc")]
    pub database: String,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `--database` and `--json`, for the benches whose scratch goes to the system's temporary
/// directory unless `--database` says otherwise.
#[derive(Debug, clap::Args)]
pub struct TempScratchArgs {
    /// Where the scratch database goes: beside this SQLite file, or on this PostgreSQL
    /// server (default: a SQLite file in the system's temporary directory).
    #[arg(long = "database", env = "DATABASE_URL")]
    pub database: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

impl TempScratchArgs {
    /// The URL the scratch goes beside: `--database`, or a SQLite file in the system's
    /// temporary directory.
    pub fn beside(&self) -> String {
        match &self.database {
            Some(url) => url.to_owned(),
            None => {
                format!("sqlite://{}?mode=rwc", std::env::temp_dir().join("league.db").display())
            }
        }
    }
}
