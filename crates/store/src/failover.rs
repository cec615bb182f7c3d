//! Following the primary over several PostgreSQL hosts (`docs/operations.md`, "Automatic
//! failover (pg_auto_failover)"): a URL may name several hosts, libpq style, as
//! `pg_autoctl show uri --formation default` prints it:
//! `postgresql://user@h1:5432,h2:5432/league?target_session_attrs=read-write`.
//!
//! sqlx connects to one host, so [`HostList::parse`] splits such a URL into one URL per host
//! (the rest of the URL kept as it is) and [`HostList::find`] picks the host to use:
//!
//! - the store's own URL (`--database`) always wants the primary (it writes): the first host,
//!   in the URL's order, where `pg_is_in_recovery()` is false;
//! - a read replica's URL (`--read-database`) follows its `target_session_attrs`: `any`
//!   (libpq's default) the first host that answers, `prefer-standby` (or `standby`,
//!   `read-only`) the first standby, else the first host that answers; `read-write` (or
//!   `primary`) the primary.
//!
//! [`follow`] then keeps the pools on that host: once a second, and at once when a write
//! found the server gone or read-only ([`Following::wake`]), it asks the current host
//! whether it still fits; when it does not, it searches the hosts (every 200 ms until one
//! fits: a standby is being promoted) and points the
//! sqlx pool (`Pool::set_connect_options`) and the write connections
//! ([`PostgresWriter::retarget`]) there. Connections to the old host fail as they are used
//! and are dropped; meanwhile commands answer [`StoreError::Unavailable`], and the caller
//! retries with its idempotency key.

use std::sync::Arc;
use std::time::Duration;

use sea_orm::sqlx::postgres::{PgConnectOptions, PgConnection, PgPool};
use sea_orm::sqlx::{self, Connection};
use sea_orm::{DbErr, RuntimeErr};
use tokio::sync::Notify;

use crate::StoreError;
use crate::postgres_writer::PostgresWriter;

/// How often the current host is asked whether it still fits, without a wake-up.
const CHECK_EVERY: Duration = Duration::from_secs(1);
/// How soon a search that found no fitting host is repeated (the standby is being promoted).
const SEARCH_AGAIN: Duration = Duration::from_millis(200);
/// How long one host may take to connect and answer before the next one is tried.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// The URL parameter naming which kind of host a URL wants (libpq's name).
const TARGET_SESSION_ATTRS: &str = "target_session_attrs";

/// Which kind of host a URL wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wanted {
    /// The primary (`read-write`, `primary`; always for the store's own URL).
    Primary,
    /// Any host that answers (`any`, the default).
    Any,
    /// A standby if one answers, else any host (`prefer-standby`, `standby`, `read-only`).
    PreferStandby,
}

/// The hosts of a multi-host URL, each as a URL of its own, and which kind it wants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HostList {
    /// One URL per host, in the given order.
    pub(crate) urls: Vec<String>,
    pub(crate) wanted: Wanted,
}

impl HostList {
    /// The hosts of `url` when it names several (or sets `target_session_attrs`); `None` for
    /// an ordinary one-host URL, which is used as it is. A `target_session_attrs` value
    /// libpq does not know is an error.
    pub(crate) fn parse(url: &str) -> Result<Option<HostList>, StoreError> {
        let Some((scheme, rest)) = url.split_once("://") else { return Ok(None) };
        // The authority ends at the path or the query; the user part at its last '@'.
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(authority_end);
        let (user, hosts) = match authority.rfind('@') {
            Some(at) => authority.split_at(at + 1),
            None => ("", authority),
        };
        let (path, query) = match tail.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (tail, None),
        };
        let mut attrs = None;
        let kept: Vec<&str> = query
            .into_iter()
            .flat_map(|query| query.split('&'))
            .filter(|pair| match pair.split_once('=') {
                Some((TARGET_SESSION_ATTRS, value)) => {
                    attrs = Some(value);
                    false
                }
                _ => !pair.is_empty(),
            })
            .collect();
        let hosts: Vec<&str> = hosts.split(',').collect();
        if hosts.len() < 2 && attrs.is_none() {
            return Ok(None);
        }
        let wanted = match attrs.unwrap_or("any") {
            "any" => Wanted::Any,
            "read-write" | "primary" => Wanted::Primary,
            "prefer-standby" | "standby" | "read-only" => Wanted::PreferStandby,
            other => {
                return Err(StoreError::Database(DbErr::Conn(RuntimeErr::Internal(format!(
                    "{TARGET_SESSION_ATTRS}={other}: use read-write, any or prefer-standby"
                )))));
            }
        };
        let query = if kept.is_empty() { String::new() } else { format!("?{}", kept.join("&")) };
        let urls =
            hosts.iter().map(|host| format!("{scheme}://{user}{host}{path}{query}")).collect();
        Ok(Some(HostList { urls, wanted }))
    }

    /// The same hosts, wanting the primary (the store's own URL writes).
    pub(crate) fn for_writes(self) -> HostList {
        HostList { wanted: Wanted::Primary, ..self }
    }

    /// The index of the host to use now: the first in order that fits [`Wanted`]. Tries
    /// every host once; an error when none fits (e.g. mid-failover: no primary yet).
    pub(crate) async fn find(&self) -> Result<usize, StoreError> {
        let mut answering = None;
        let mut last_error = String::from("no host");
        for (index, url) in self.urls.iter().enumerate() {
            match probe(url).await {
                Ok(in_recovery) => {
                    let fits = match self.wanted {
                        Wanted::Primary => !in_recovery,
                        Wanted::Any => true,
                        Wanted::PreferStandby => in_recovery,
                    };
                    if fits {
                        return Ok(index);
                    }
                    answering.get_or_insert(index);
                }
                Err(error) => last_error = format!("{}: {error}", host_of(url)),
            }
        }
        match (self.wanted, answering) {
            (Wanted::PreferStandby, Some(index)) => Ok(index),
            _ => Err(StoreError::Unavailable {
                reason: format!(
                    "none of the {} hosts is {} ({last_error})",
                    self.urls.len(),
                    if self.wanted == Wanted::Primary { "a primary" } else { "answering" }
                ),
            }),
        }
    }
}

/// Whether the server at `url` is a standby (`pg_is_in_recovery()`), on a connection of
/// its own that is closed again.
async fn probe(url: &str) -> Result<bool, String> {
    let asked = async {
        let options: PgConnectOptions = url.parse()?;
        let mut connection = PgConnection::connect_with(&options).await?;
        let answer: Result<bool, sqlx::Error> =
            sqlx::query_scalar("SELECT pg_is_in_recovery()").fetch_one(&mut connection).await;
        connection.close().await.ok();
        answer
    };
    match tokio::time::timeout(PROBE_TIMEOUT, asked).await {
        Ok(answer) => answer.map_err(|error| error.to_string()),
        Err(_) => Err(format!("no answer within {PROBE_TIMEOUT:?}")),
    }
}

/// `host:port` of a one-host URL, for log lines (never the user or password).
fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    authority.rsplit_once('@').map_or(authority, |(_, host)| host)
}

/// The task that keeps a pool (and the write connections) on the host its URL wants.
pub(crate) struct Following {
    wake: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl Following {
    /// Asks the task to check the current host now (a write found it gone or read-only).
    pub(crate) fn wake(&self) {
        self.wake.notify_one();
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts following `hosts` for `pool` (and `writer`), which are on host `current` now.
pub(crate) fn follow(
    hosts: HostList,
    current: usize,
    pool: PgPool,
    writer: Option<Arc<PostgresWriter>>,
) -> Following {
    let wake = Arc::new(Notify::new());
    let woken = wake.clone();
    let task = tokio::spawn(async move {
        let mut current = current;
        // Whether the last search found no host that fits (mid-failover: search again soon).
        let mut searching = false;
        loop {
            let pause = if searching { SEARCH_AGAIN } else { CHECK_EVERY };
            tokio::select! {
                () = woken.notified() => {}
                () = tokio::time::sleep(pause) => {}
            }
            if !searching && still_fits(&pool, hosts.wanted).await {
                continue;
            }
            let Ok(found) = hosts.find().await else {
                searching = true;
                continue;
            };
            searching = false;
            if found == current {
                continue;
            }
            let url = &hosts.urls[found];
            let options: PgConnectOptions = match url.parse() {
                Ok(options) => options,
                Err(error) => {
                    tracing::error!(%error, "cannot read the new host's URL");
                    continue;
                }
            };
            if let Some(writer) = &writer
                && let Err(error) = writer.retarget(url)
            {
                tracing::error!(%error, "cannot point the write connections at the new host");
                continue;
            }
            pool.set_connect_options(options);
            tracing::warn!(
                from = host_of(&hosts.urls[current]),
                to = host_of(url),
                "the database moved: following it to the new host"
            );
            current = found;
        }
    });
    Following { wake, task }
}

/// Whether the pool's host still answers as `wanted` needs (the primary: not in recovery).
async fn still_fits(pool: &PgPool, wanted: Wanted) -> bool {
    let asked = sqlx::query_scalar::<_, bool>("SELECT pg_is_in_recovery()").fetch_one(pool);
    match tokio::time::timeout(PROBE_TIMEOUT, asked).await {
        Ok(Ok(in_recovery)) => wanted != Wanted::Primary || !in_recovery,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_host_url_is_used_as_it_is() {
        assert_eq!(HostList::parse("postgres://u:p@db:5432/league?sslmode=disable").unwrap(), None);
        assert_eq!(HostList::parse("sqlite://league.db?mode=rwc").unwrap(), None);
    }

    #[test]
    fn the_hosts_of_pg_autoctl_show_uri_become_one_url_each() {
        let url = "postgresql://league:pw@10.0.0.1:5432,10.0.0.2:6432/league?\
                   target_session_attrs=read-write&sslmode=require";
        let hosts = HostList::parse(url).unwrap().unwrap();
        assert_eq!(hosts.wanted, Wanted::Primary);
        assert_eq!(
            hosts.urls,
            [
                "postgresql://league:pw@10.0.0.1:5432/league?sslmode=require",
                "postgresql://league:pw@10.0.0.2:6432/league?sslmode=require",
            ]
        );
        assert_eq!(host_of(&hosts.urls[1]), "10.0.0.2:6432");
    }

    #[test]
    fn target_session_attrs_says_which_host_a_url_wants() {
        let wanted = |url: &str| HostList::parse(url).unwrap().unwrap().wanted;
        assert_eq!(wanted("postgres://a,b/db"), Wanted::Any);
        assert_eq!(wanted("postgres://a,b/db?target_session_attrs=any"), Wanted::Any);
        assert_eq!(
            wanted("postgres://a,b?target_session_attrs=prefer-standby"),
            Wanted::PreferStandby
        );
        assert_eq!(wanted("postgres://a/db?target_session_attrs=primary"), Wanted::Primary);
        assert_eq!(
            HostList::parse("postgres://a,b/db").unwrap().unwrap().for_writes().wanted,
            Wanted::Primary
        );
        assert!(HostList::parse("postgres://a,b/db?target_session_attrs=sometimes").is_err());
    }

    #[test]
    fn a_url_without_user_path_or_other_parameters_keeps_its_shape() {
        let hosts =
            HostList::parse("postgres://[::1]:5432,h2?target_session_attrs=any").unwrap().unwrap();
        assert_eq!(hosts.urls, ["postgres://[::1]:5432", "postgres://h2"]);
    }
}
