//! Scratch databases for benchmarks: a fresh database beside the one `--database` names
//! (a new SQLite file in the same directory, so the same disk; or a new database on the
//! same PostgreSQL server), removed afterwards. Benchmarks never touch real data.

use std::path::{Path, PathBuf};

use anyhow::Context;
use league_store::sea_orm::{ConnectionTrait, Database};

use crate::CliError;

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
    /// its name (`league-bench-LABEL-…`). An in-memory SQLite `url` is refused.
    pub async fn create(url: &str, label: &str) -> Result<(Scratch, String), CliError> {
        Self::create_inner(url, label, false).await
    }

    /// Like [`Scratch::create`], but an in-memory SQLite `url` gives a fresh in-memory
    /// database instead of an error.
    pub async fn create_or_memory(url: &str, label: &str) -> Result<(Scratch, String), CliError> {
        Self::create_inner(url, label, true).await
    }

    async fn create_inner(
        url: &str,
        label: &str,
        memory_allowed: bool,
    ) -> Result<(Scratch, String), CliError> {
        let tag = uuid::Uuid::now_v7().simple().to_string();
        if let Some(rest) = url.strip_prefix("sqlite:") {
            let path = rest.trim_start_matches("//").split('?').next().unwrap_or_default();
            if path.is_empty() || path.contains(":memory:") || url.contains("mode=memory") {
                if memory_allowed {
                    return Ok((Scratch::SqliteMemory, "sqlite::memory:".to_owned()));
                }
                return Err(CliError::BadInput(
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
            Err(CliError::BadInput(format!(
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
