//! A pg_auto_failover formation made from scratch in a temporary directory: a monitor and two
//! PostgreSQL nodes (a primary and a synchronous secondary) on loopback, each run by its own
//! `pg_autoctl run`; what the failover test runs on (`docs/operations.md`, "Automatic
//! failover (pg_auto_failover)"). Everything goes away when the [`AutoFailoverCluster`] is
//! dropped.
//!
//! Like [`replication`](crate::replication): free ports, `trust` for local connections of
//! the [`USER`] role, the server binaries of Debian's layout (or `LEAGUE_PG_BIN`), and, as
//! root, every server-side program run as `postgres` (`pg_autoctl` refuses root) in a
//! directory it owns. `pg_autoctl` comes from Debian's `pg-auto-failover-cli` and
//! `postgresql-15-auto-failover` (`scripts/failover-test` installs them).
//!
//! The monitor is told to notice a lost node within about two seconds (its health checks
//! every second, a node unhealthy after 2 s without a report) instead of pg_auto_failover's
//! twenty, and to let the promoted standby take writes 2 s after it asked the old primary to
//! demote itself instead of 30: a test budget, not a production setting.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::replication::{
    append, clear_pg_env, free_port, is_root, run, server_binaries, server_command,
};

/// The role the nodes trust, which owns the [`DATABASE`].
pub const USER: &str = "league";
/// The database pg_auto_failover creates on the nodes.
pub const DATABASE: &str = "league";
/// Set to `1` to fail, not skip, when `pg_autoctl` is missing (`scripts/failover-test`).
pub const REQUIRE_ENV: &str = "LEAGUE_REQUIRE_FAILOVER";
/// How long the formation may take to reach a primary and a secondary.
const FORMATION_READY: Duration = Duration::from_secs(90);
/// The monitor's settings for a quick failover (milliseconds).
const MONITOR_SETTINGS: &[(&str, &str)] = &[
    ("pgautofailover.health_check_period", "1000"),
    ("pgautofailover.health_check_timeout", "1000"),
    ("pgautofailover.health_check_max_retries", "1"),
    ("pgautofailover.health_check_retry_delay", "500"),
    ("pgautofailover.node_considered_unhealthy_timeout", "2000"),
    // How long the promoted standby refuses writes while the old primary may still take
    // them (30 s by default): the test's old primary is dead for sure.
    ("pgautofailover.primary_demote_timeout", "2000"),
];

/// A monitor and two nodes, each a `pg_autoctl run` process group.
pub struct AutoFailoverCluster {
    bin: PathBuf,
    as_postgres: bool,
    monitor: Node,
    nodes: [Node; 2],
    /// Holds every data directory; removed last.
    dir: tempfile::TempDir,
}

/// One `pg_autoctl run` and the PostgreSQL it keeps.
struct Node {
    name: &'static str,
    data: PathBuf,
    port: u16,
    process: Option<Child>,
}

impl std::fmt::Debug for AutoFailoverCluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoFailoverCluster")
            .field("dir", &self.dir.path())
            .field("monitor_port", &self.monitor.port)
            .field("node_ports", &[self.nodes[0].port, self.nodes[1].port])
            .finish_non_exhaustive()
    }
}

impl AutoFailoverCluster {
    /// A running formation (a primary and a secondary, synchronous replication on), or
    /// `None` with a message on stderr when `pg_autoctl` or the server binaries are not
    /// installed, unless [`REQUIRE_ENV`] is `1`. A formation that fails to start fails the
    /// test.
    pub fn start() -> Option<AutoFailoverCluster> {
        let missing = if server_binaries().is_none() {
            Some("no PostgreSQL server binaries")
        } else if pg_autoctl().is_none() {
            Some("no pg_autoctl (Debian: pg-auto-failover-cli, postgresql-15-auto-failover)")
        } else {
            None
        };
        if let Some(missing) = missing {
            assert!(
                std::env::var(REQUIRE_ENV).as_deref() != Ok("1"),
                "{REQUIRE_ENV}=1 but {missing}"
            );
            eprintln!("skipping the failover test: {missing}");
            return None;
        }
        Some(AutoFailoverCluster::try_start().unwrap_or_else(|error| panic!("{error}")))
    }

    fn try_start() -> Result<AutoFailoverCluster, String> {
        let bin = server_binaries().ok_or("no PostgreSQL server binaries")?;
        let dir = tempfile::Builder::new()
            .prefix("league-failover-")
            .tempdir()
            .map_err(|error| format!("temporary directory: {error}"))?;
        let as_postgres = is_root();
        if as_postgres {
            run(Command::new("chown").arg("postgres:").arg(dir.path()))?;
        }
        let node = |name: &'static str| -> Result<Node, String> {
            Ok(Node { name, data: dir.path().join(name), port: free_port()?, process: None })
        };
        let mut cluster = AutoFailoverCluster {
            bin,
            as_postgres,
            monitor: node("monitor")?,
            nodes: [node("node_1")?, node("node_2")?],
            dir,
        };
        let started = Instant::now();
        cluster.start_monitor()?;
        cluster.start_node(0)?;
        cluster.wait(|cluster| cluster.primary_index().is_some(), "node_1 as the primary")?;
        cluster.start_node(1)?;
        cluster.wait(AutoFailoverCluster::settled, "a primary and a secondary")?;
        eprintln!(
            "pg_auto_failover: monitor and two nodes up in {:.1} s (ports {}, {} and {})",
            started.elapsed().as_secs_f64(),
            cluster.monitor.port,
            cluster.nodes[0].port,
            cluster.nodes[1].port
        );
        Ok(cluster)
    }

    /// The formation's URL as `pg_autoctl show uri --formation default` prints it (with the
    /// [`USER`], and without TLS): both nodes, `target_session_attrs` as given (`read-write`
    /// for the gateways' `--database`, `prefer-standby` or `any` for `--read-database`).
    pub fn formation_url(&self, target_session_attrs: &str) -> String {
        format!(
            "postgresql://{USER}@127.0.0.1:{},127.0.0.1:{}/{DATABASE}?\
             target_session_attrs={target_session_attrs}&sslmode=disable",
            self.nodes[0].port, self.nodes[1].port
        )
    }

    /// The one-node URL of the node that is the primary now, if one is.
    pub fn primary_url(&self) -> Option<String> {
        self.primary_index().map(|index| self.node_url(index))
    }

    /// The name of the node that is the primary now (`node_1`, `node_2`), if one is.
    pub fn primary_name(&self) -> Option<&'static str> {
        self.primary_index().map(|index| self.nodes[index].name)
    }

    /// The primary's `synchronous_standby_names` (pg_auto_failover sets it while a
    /// secondary is attached: an acknowledged commit is on both nodes).
    pub fn synchronous_standby_names(&self) -> Result<String, String> {
        let url = self.primary_url().ok_or("no primary")?;
        self.sql(&url, "SHOW synchronous_standby_names")
    }

    /// Runs one SQL statement on the primary's [`DATABASE`]; what `psql` printed (unaligned,
    /// tuples only).
    pub fn primary_sql(&self, statement: &str) -> Result<String, String> {
        let url = self.primary_url().ok_or("no primary")?;
        self.sql(&url, statement)
    }

    /// SIGKILLs the primary's postmaster and, with it, its node's `pg_autoctl` (one process
    /// group): the node is lost, as when its machine dies, and stays down. Answers the
    /// lost node's name.
    pub fn kill_primary(&mut self) -> Result<&'static str, String> {
        let index = self.primary_index().ok_or("no primary to kill")?;
        let node = &mut self.nodes[index];
        let postmaster = std::fs::read_to_string(node.data.join("postmaster.pid"))
            .map_err(|error| format!("{}: {error}", node.name))?;
        let postmaster = postmaster.lines().next().unwrap_or_default().trim().to_owned();
        let group = node.process.as_ref().map(Child::id).ok_or("the node is not running")?;
        run(Command::new("kill").args(["-KILL", "--", &postmaster, &format!("-{group}")]))?;
        if let Some(mut child) = node.process.take() {
            child.wait().ok();
        }
        Ok(node.name)
    }

    /// Waits until a node answers as the primary (after [`kill_primary`](Self::kill_primary):
    /// the secondary, promoted by the monitor); its name.
    pub fn wait_for_new_primary(&self, timeout: Duration) -> Result<&'static str, String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(name) = self.primary_name() {
                return Ok(name);
            }
            if Instant::now() >= deadline {
                return Err(format!("no primary within {timeout:?}: {}", self.state()));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `pg_autoctl show state`, for messages.
    pub fn state(&self) -> String {
        let mut command = self.autoctl();
        command.args(["show", "state", "--pgdata"]).arg(&self.monitor.data);
        match run(&mut command) {
            Ok(output) => String::from_utf8_lossy(&output.stdout).into_owned(),
            Err(error) => error,
        }
    }

    fn start_monitor(&mut self) -> Result<(), String> {
        let mut create = self.autoctl();
        create
            .args(["create", "monitor", "--pgdata"])
            .arg(&self.monitor.data)
            .args(["--pgport", &self.monitor.port.to_string()])
            .args(["--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl"]);
        run(&mut create)?;
        let settings: String =
            MONITOR_SETTINGS.iter().map(|(name, value)| format!("{name} = {value}\n")).collect();
        append(&self.monitor.data.join("postgresql.conf"), &settings)?;
        self.monitor.process = Some(self.spawn_run(&self.monitor.data, "monitor")?);
        let url = format!("postgres://postgres@127.0.0.1:{}/pg_auto_failover", self.monitor.port);
        self.wait(|cluster| cluster.sql(&url, "SELECT 1").is_ok(), "the monitor")
    }

    fn start_node(&mut self, index: usize) -> Result<(), String> {
        let monitor = format!(
            "postgres://autoctl_node@127.0.0.1:{}/pg_auto_failover?sslmode=disable",
            self.monitor.port
        );
        let node = &self.nodes[index];
        let mut create = self.autoctl();
        create
            .args(["create", "postgres", "--pgdata"])
            .arg(&node.data)
            .args(["--pgport", &node.port.to_string(), "--name", node.name])
            .args(["--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl"])
            .args(["--monitor", &monitor, "--dbname", DATABASE, "--username", USER]);
        let log = self.dir.path().join(format!("{}.create.log", node.name));
        let output = create.output().map_err(|error| format!("pg_autoctl create: {error}"))?;
        std::fs::write(&log, [output.stdout.as_slice(), output.stderr.as_slice()].concat()).ok();
        if !output.status.success() {
            return Err(format!(
                "pg_autoctl create postgres {} failed: {}",
                node.name,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let process = self.spawn_run(&node.data, node.name)?;
        self.nodes[index].process = Some(process);
        Ok(())
    }

    /// `pg_autoctl run` for a data directory, in a process group of its own (so the node can
    /// be killed whole), its output in `<name>.log`.
    fn spawn_run(&self, data: &Path, name: &str) -> Result<Child, String> {
        use std::os::unix::process::CommandExt;
        let log = std::fs::File::create(self.dir.path().join(format!("{name}.log")))
            .map_err(|error| format!("{name}.log: {error}"))?;
        let mut command = self.autoctl();
        command
            .args(["run", "--pgdata"])
            .arg(data)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|error| error.to_string())?)
            .stderr(log)
            .process_group(0);
        command.spawn().map_err(|error| format!("pg_autoctl run {name}: {error}"))
    }

    /// The index of the node that answers as a primary (not in recovery), if one does.
    fn primary_index(&self) -> Option<usize> {
        (0..self.nodes.len()).find(|&index| {
            self.nodes[index].process.is_some()
                && self
                    .sql(&self.node_url(index), "SELECT pg_is_in_recovery()")
                    .is_ok_and(|answer| answer == "f")
        })
    }

    /// Whether the monitor sees a primary and a secondary, each in the state it was given.
    fn settled(&self) -> bool {
        let url = format!("postgres://postgres@127.0.0.1:{}/pg_auto_failover", self.monitor.port);
        self.sql(
            &url,
            "SELECT count(*) FROM pgautofailover.node WHERE reportedstate = goalstate \
             AND reportedstate IN ('primary', 'secondary')",
        )
        .is_ok_and(|count| count == "2")
    }

    fn wait(&self, ready: impl Fn(&Self) -> bool, what: &str) -> Result<(), String> {
        let deadline = Instant::now() + FORMATION_READY;
        while !ready(self) {
            if Instant::now() >= deadline {
                return Err(format!(
                    "pg_auto_failover: no {what} within {FORMATION_READY:?} (logs in {}):\n{}",
                    self.dir.path().display(),
                    self.state()
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Ok(())
    }

    fn node_url(&self, index: usize) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{DATABASE}?sslmode=disable", self.nodes[index].port)
    }

    fn sql(&self, url: &str, statement: &str) -> Result<String, String> {
        let mut command = Command::new(self.bin.join("psql"));
        clear_pg_env(&mut command);
        let url = format!("{url}{}connect_timeout=2", if url.contains('?') { '&' } else { '?' });
        command.args(["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", &url, "-c", statement]);
        let output = run(&mut command)?;
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    }

    /// `pg_autoctl`, as `postgres` when this process is root, finding the server binaries
    /// through `PG_CONFIG`, its configuration and state under the temporary directory.
    fn autoctl(&self) -> Command {
        let program = pg_autoctl().unwrap_or_else(|| PathBuf::from("pg_autoctl"));
        let mut command = server_command(program, self.as_postgres);
        let path = std::env::var("PATH").unwrap_or_default();
        command
            .env("PATH", format!("{}:{path}", self.bin.display()))
            .env("PG_CONFIG", self.bin.join("pg_config"))
            .env("XDG_CONFIG_HOME", self.dir.path().join("config"))
            .env("XDG_DATA_HOME", self.dir.path().join("data"))
            .env("XDG_RUNTIME_DIR", self.dir.path().join("run"))
            .current_dir(self.dir.path());
        command
    }
}

impl Drop for AutoFailoverCluster {
    fn drop(&mut self) {
        // Whole process groups: pg_autoctl, its services and the postmasters.
        for node in self.nodes.iter_mut().chain(std::iter::once(&mut self.monitor)) {
            if let Some(mut child) = node.process.take() {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .status();
                let _ = child.wait();
            }
        }
    }
}

/// `pg_autoctl` on the `PATH` or in the server binaries' directory, if installed.
fn pg_autoctl() -> Option<PathBuf> {
    let mut places: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    places.extend(server_binaries());
    places.into_iter().map(|dir| dir.join("pg_autoctl")).find(|path| path.is_file())
}
