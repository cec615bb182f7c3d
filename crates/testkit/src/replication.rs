//! A PostgreSQL primary and a streaming-replication hot standby of it, made from scratch in a
//! temporary directory with the server binaries (`initdb`, `pg_ctl`, `pg_basebackup`): what
//! the tests and the benchmark of gateways that read a standby run on. The directory and
//! both servers go away when the [`ReplicatedPair`] is dropped.
//!
//! The servers listen on 127.0.0.1 only, on free ports, and trust local connections of the
//! [`USER`] role (a throwaway pair; nothing else can reach it from outside the machine).
//! `initdb` refuses to run as root, so as root every server-side binary runs as the
//! `postgres` user (`runuser -u postgres`), which owns the directory; as anyone else they
//! run as that user. The binaries come from `LEAGUE_PG_BIN` or the newest
//! `/usr/lib/postgresql/<version>/bin` (Debian's layout).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The role both servers trust, which also streams the WAL to the standby.
pub const USER: &str = "league";
/// The database created on the primary before the standby is copied from it.
pub const DATABASE: &str = "league";
/// Where the server binaries are, when not in Debian's layout.
pub const BIN_ENV: &str = "LEAGUE_PG_BIN";

/// A primary and its hot standby, each a server process over a data directory of its own.
pub struct ReplicatedPair {
    bin: PathBuf,
    /// Run the server binaries as `postgres` (this process is root).
    as_postgres: bool,
    primary: Server,
    standby: Server,
    /// Holds both data directories; removed last.
    dir: tempfile::TempDir,
}

/// One server of the pair.
struct Server {
    data: PathBuf,
    port: u16,
    running: bool,
}

impl std::fmt::Debug for ReplicatedPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplicatedPair")
            .field("dir", &self.dir.path())
            .field("primary_port", &self.primary.port)
            .field("standby_port", &self.standby.port)
            .finish_non_exhaustive()
    }
}

impl ReplicatedPair {
    /// A running pair for a test, or `None` with a message on stderr when the PostgreSQL
    /// server binaries are not installed, unless `LEAGUE_REQUIRE_PG=1` (then that is a
    /// failure, as for every PostgreSQL test). A pair that fails to start fails the test.
    pub fn start() -> Option<ReplicatedPair> {
        if server_binaries().is_none() {
            assert!(
                !crate::postgres_required(),
                "LEAGUE_REQUIRE_PG=1 but no PostgreSQL binaries (initdb, pg_ctl, pg_basebackup, \
                 psql) in {BIN_ENV} or /usr/lib/postgresql/*/bin"
            );
            eprintln!("skipping the replica test: no PostgreSQL server binaries (initdb)");
            return None;
        }
        Some(ReplicatedPair::try_start(&[]).unwrap_or_else(|error| panic!("{error}")))
    }

    /// Makes and starts a primary with `settings` (`postgresql.conf` lines, e.g.
    /// `("fsync", "on")`; the default is `fsync = off`) and a hot standby copied from it,
    /// streaming its WAL. Fails with what went wrong.
    pub fn try_start(settings: &[(&str, &str)]) -> Result<ReplicatedPair, String> {
        let bin = server_binaries().ok_or_else(|| {
            format!("no PostgreSQL server binaries in {BIN_ENV} or /usr/lib/postgresql/*/bin")
        })?;
        let dir = tempfile::Builder::new()
            .prefix("league-replica-")
            .tempdir()
            .map_err(|error| format!("temporary directory: {error}"))?;
        let as_postgres = is_root();
        if as_postgres {
            // The servers run as `postgres` and must own their directories.
            run(Command::new("chown").arg("postgres:").arg(dir.path()))?;
        }
        let mut pair = ReplicatedPair {
            bin,
            as_postgres,
            primary: Server {
                data: dir.path().join("primary"),
                port: free_port()?,
                running: false,
            },
            standby: Server {
                data: dir.path().join("standby"),
                port: free_port()?,
                running: false,
            },
            dir,
        };
        pair.make_primary(settings)?;
        pair.make_standby()?;
        Ok(pair)
    }

    /// The primary's URL (the [`DATABASE`] database).
    pub fn primary_url(&self) -> String {
        url(self.primary.port)
    }

    /// The standby's URL (the same database, read-only while it is a standby).
    pub fn standby_url(&self) -> String {
        url(self.standby.port)
    }

    /// Stops replaying the WAL on the standby (`pg_wal_replay_pause()`): it keeps answering
    /// reads, as of the last change it replayed.
    pub fn pause_replay(&self) -> Result<(), String> {
        self.standby_sql("SELECT pg_wal_replay_pause()").map(drop)
    }

    /// Replays the WAL again after [`pause_replay`](Self::pause_replay).
    pub fn resume_replay(&self) -> Result<(), String> {
        self.standby_sql("SELECT pg_wal_replay_resume()").map(drop)
    }

    /// Stops the primary (fast shutdown: sessions are ended, committed work is kept).
    pub fn stop_primary(&mut self) -> Result<(), String> {
        let data = self.primary.data.clone();
        self.pg_ctl(&data, &["-m", "fast", "stop"])?;
        self.primary.running = false;
        Ok(())
    }

    /// Promotes the standby to a primary of its own (`pg_ctl promote`; waits until it
    /// accepts writes).
    pub fn promote_standby(&self) -> Result<(), String> {
        self.pg_ctl(&self.standby.data, &["promote"]).map(drop)
    }

    /// Runs one SQL statement on the primary's [`DATABASE`]; what `psql` printed (unaligned,
    /// tuples only).
    pub fn primary_sql(&self, statement: &str) -> Result<String, String> {
        self.sql(&url(self.primary.port), statement)
    }

    /// Runs one SQL statement on the standby's [`DATABASE`], like
    /// [`primary_sql`](Self::primary_sql).
    pub fn standby_sql(&self, statement: &str) -> Result<String, String> {
        self.sql(&url(self.standby.port), statement)
    }

    fn sql(&self, url: &str, statement: &str) -> Result<String, String> {
        let mut command = self.client("psql");
        command.args(["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", statement]);
        let output = run(&mut command)?;
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    }

    fn make_primary(&mut self, settings: &[(&str, &str)]) -> Result<(), String> {
        let data = self.primary.data.clone();
        let mut initdb = self.server_binary("initdb");
        initdb.arg("-D").arg(&data).args(["-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync"]);
        run(&mut initdb)?;
        let mut conf = format!(
            "listen_addresses = '127.0.0.1'\nport = {}\nunix_socket_directories = '{}'\n\
             wal_level = replica\nhot_standby = on\nmax_wal_senders = 4\n\
             max_connections = 200\nshared_buffers = '32MB'\nfsync = off\n",
            self.primary.port,
            self.dir.path().display()
        );
        for (name, value) in settings {
            conf.push_str(&format!("{name} = '{value}'\n"));
        }
        append(&data.join("postgresql.conf"), &conf)?;
        append(
            &data.join("pg_hba.conf"),
            &format!("host replication {USER} 127.0.0.1/32 trust\n"),
        )?;
        self.start_server(&data)?;
        self.primary.running = true;
        let maintenance = format!("postgres://{USER}@127.0.0.1:{}/postgres", self.primary.port);
        self.sql(&maintenance, &format!("CREATE DATABASE {DATABASE}"))?;
        Ok(())
    }

    fn make_standby(&mut self) -> Result<(), String> {
        let data = self.standby.data.clone();
        // `-R` writes the standby's connection to the primary and `standby.signal`; `-c fast`
        // starts at once instead of after a checkpoint spread over minutes.
        let mut backup = self.server_binary("pg_basebackup");
        backup
            .args(["-h", "127.0.0.1", "-p", &self.primary.port.to_string(), "-U", USER])
            .arg("-D")
            .arg(&data)
            .args(["-R", "-X", "stream", "-c", "fast", "--no-sync"]);
        run(&mut backup)?;
        append(&data.join("postgresql.conf"), &format!("port = {}\n", self.standby.port))?;
        self.start_server(&data)?;
        self.standby.running = true;
        Ok(())
    }

    fn start_server(&self, data: &Path) -> Result<(), String> {
        let log = data.with_extension("log");
        let mut command = self.server_binary("pg_ctl");
        command.arg("-D").arg(data).arg("-l").arg(&log).args(["-w", "-t", "60", "start"]);
        run(&mut command).map(drop).map_err(|error| {
            let tail = std::fs::read_to_string(&log).unwrap_or_default();
            format!("{error}\nserver log {}:\n{tail}", log.display())
        })
    }

    fn pg_ctl(&self, data: &Path, args: &[&str]) -> Result<Output, String> {
        let mut command = self.server_binary("pg_ctl");
        command.arg("-D").arg(data).args(["-w", "-t", "60"]).args(args);
        run(&mut command)
    }

    /// A server binary, run as `postgres` when this process is root.
    fn server_binary(&self, name: &str) -> Command {
        let mut command = server_command(self.bin.join(name), self.as_postgres);
        command.current_dir(self.dir.path());
        command
    }

    /// A client binary, run as this process's user.
    fn client(&self, name: &str) -> Command {
        let mut command = Command::new(self.bin.join(name));
        clear_pg_env(&mut command);
        command
    }
}

impl Drop for ReplicatedPair {
    fn drop(&mut self) {
        // Immediate: nothing of a throwaway pair needs a clean shutdown.
        for server in [&self.standby, &self.primary] {
            if server.running {
                let _ = self.pg_ctl(&server.data, &["-m", "immediate", "stop"]);
            }
        }
    }
}

/// The URL of the [`DATABASE`] on a local server.
fn url(port: u16) -> String {
    format!("postgres://{USER}@127.0.0.1:{port}/{DATABASE}?sslmode=disable")
}

/// The directory holding `initdb`, `pg_ctl` and `pg_basebackup`, if there is one.
pub(crate) fn server_binaries() -> Option<PathBuf> {
    let has_all = |dir: &Path| {
        ["initdb", "pg_ctl", "pg_basebackup", "psql"].iter().all(|name| dir.join(name).is_file())
    };
    if let Some(dir) = std::env::var_os(BIN_ENV).map(PathBuf::from) {
        return has_all(&dir).then_some(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, dir)| has_all(dir))
        .collect();
    versions.sort();
    versions.pop().map(|(_, dir)| dir)
}

/// `program` run as `postgres` (through `runuser`) when `as_postgres`, else as this process's
/// user, without the caller's `PG*` variables.
pub(crate) fn server_command(program: PathBuf, as_postgres: bool) -> Command {
    let mut command = if as_postgres {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    };
    clear_pg_env(&mut command);
    command
}

/// Whether this process runs as root (`id -u` is 0).
pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// A port nobody listens on now (the kernel's pick; free again once the probe closes).
pub(crate) fn free_port() -> Result<u16, String> {
    let probe = TcpListener::bind("127.0.0.1:0").map_err(|error| format!("free port: {error}"))?;
    probe.local_addr().map(|address| address.port()).map_err(|error| error.to_string())
}

/// Leaves out the `PG*` variables of the caller's environment (`pg_virtualenv` exports its
/// cluster's), so every command talks to the server its arguments name.
pub(crate) fn clear_pg_env(command: &mut Command) {
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(|name| name.starts_with("PG")) {
            command.env_remove(name);
        }
    }
}

/// Runs `command`; its output, or what it printed when it failed.
pub(crate) fn run(command: &mut Command) -> Result<Output, String> {
    let output = command.output().map_err(|error| format!("{command:?}: {error}"))?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(format!(
            "{command:?} failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

pub(crate) fn append(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|error| format!("{}: {error}", path.display()))
}
