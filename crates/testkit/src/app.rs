//! The one gateway harness of the API, limits and fault tests (zero2prod's `spawn_app`).
//!
//! A [`TestApp`] is the gateway over a test database, run one of three ways:
//! - [`spawn_app`] / [`spawn_app_with`]: the router of this build called in-process, no
//!   socket (`tower::ServiceExt::oneshot`), for every test that needs only requests and
//!   answers;
//! - [`spawn_app_on_port`]: the same gateway served on `127.0.0.1:0`, for what needs a
//!   socket (WebSocket subscriptions, header and body timeouts, connection caps);
//! - [`start_binary`]: the real `league serve` process, for what only a process shows (the
//!   banner, signals, crashes, several processes on one database).
//!
//! Every way is talked to through [`TestApp::send`], so the GraphQL client of
//! [`crate::client`] works the same over each.

use std::net::{IpAddr, Ipv4Addr};
use std::process::Stdio;
use std::time::Duration;

use axum::body::{Body, Bytes};
use league_app::App;
use league_gateway::{ClientAddr, GatewayConfig, Shutdown};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tower::ServiceExt;

/// The admin token every test gateway is started with (unless a test configures none).
pub const ADMIN: &str = "fault-tests-admin-token";
/// Long enough for a cold PostgreSQL migration on a busy two-core machine.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);
/// No single request of these tests may take longer (a hung server fails, not stalls).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The base URL of a gateway without a socket: requests to it go through the router.
const IN_PROCESS_BASE: &str = "http://in-process.invalid";
/// The client address a request through the router comes from (what the server loop
/// would set from the TCP peer), so per-address rate limits apply as over a socket.
const IN_PROCESS_CLIENT: ClientAddr = ClientAddr(IpAddr::V4(Ipv4Addr::LOCALHOST));

/// What runs the gateway.
enum Running {
    /// The router, called directly for each request.
    Router(axum::Router),
    /// The gateway served on a port of this test's runtime; stopped (gracefully) on drop.
    OnPort { stop: Option<oneshot::Sender<()>>, task: JoinHandle<std::io::Result<()>> },
    /// `league serve`, killed (SIGKILL) when dropped.
    Process(Child),
}

/// A running gateway. It does not own its database, so a test can restart a server on the
/// same one.
pub struct TestApp {
    running: Running,
    /// The application service under an in-process gateway (`None` for a process).
    app: Option<App>,
    /// `http://127.0.0.1:PORT` (a placeholder when there is no socket).
    pub base: String,
    /// Builds requests for [`TestApp::send`] (and sends them when there is a socket).
    pub http: reqwest::Client,
    /// Lines the binary printed on stdout before `listening on …` (empty in-process).
    pub banner: Vec<String>,
}

impl std::fmt::Debug for TestApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestApp").field("base", &self.base).finish_non_exhaustive()
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Running::OnPort { stop, task } = &mut self.running {
            if let Some(stop) = stop.take() {
                let _ = stop.send(());
            }
            task.abort();
        }
    }
}

/// The gateway in-process over `database_url` with the [`ADMIN`] token, without a socket.
pub async fn spawn_app(database_url: &str) -> TestApp {
    spawn_app_with(database_url, |_| {}).await
}

/// [`spawn_app`] with the configuration changed by `configure` first.
pub async fn spawn_app_with(
    database_url: &str,
    configure: impl FnOnce(&mut GatewayConfig),
) -> TestApp {
    let (app, config) = open(database_url, configure).await;
    let router = league_gateway::router(app.clone(), &config, Shutdown::default());
    TestApp {
        running: Running::Router(router),
        app: Some(app),
        base: IN_PROCESS_BASE.to_owned(),
        http: client(),
        banner: Vec::new(),
    }
}

/// The gateway in-process over `database_url`, served on `127.0.0.1:0` (for WebSockets and
/// what a socket shows), configured by `configure`.
pub async fn spawn_app_on_port(
    database_url: &str,
    configure: impl FnOnce(&mut GatewayConfig),
) -> TestApp {
    let (app, config) = open(database_url, configure).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind port 0");
    let base = format!("http://{}", listener.local_addr().expect("bound address"));
    let (stop, stopped) = oneshot::channel::<()>();
    // As `league serve` composes it: the webhook deliveries run beside the server (when
    // configured) and stop with it.
    let (trigger, handle) = Shutdown::channel();
    if let Some(settings) = config.webhooks.clone() {
        tokio::spawn(league_webhooks::run(app.clone(), settings, handle.requested_owned()));
    }
    let task = tokio::spawn(league_gateway::run(listener, app.clone(), config, async move {
        let _ = stopped.await;
        let _ = trigger.send(true);
    }));
    TestApp {
        running: Running::OnPort { stop: Some(stop), task },
        app: Some(app),
        base,
        http: client(),
        banner: Vec::new(),
    }
}

async fn open(
    database_url: &str,
    configure: impl FnOnce(&mut GatewayConfig),
) -> (App, GatewayConfig) {
    let app = App::open(database_url).await.expect("open the app");
    let mut config = GatewayConfig::new(ADMIN.to_owned());
    configure(&mut config);
    (app, config)
}

/// The `league serve` binary at `binary` (a test's `env!("CARGO_BIN_EXE_league")`) over
/// `database_url` with exactly the given `LEAGUE_*` settings (no admin token unless `env`
/// names one), on `127.0.0.1:0`.
pub async fn start_binary(binary: &str, database_url: &str, env: &[(&str, &str)]) -> TestApp {
    start_binary_with_args(binary, database_url, &[], env).await
}

/// [`start_binary`] with more `league serve` arguments (e.g. `--read-database URL`).
pub async fn start_binary_with_args(
    binary: &str,
    database_url: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> TestApp {
    start_process(binary, database_url, args, env, None).await
}

/// Everything a `league serve` process wrote to its stderr (its log) so far.
#[derive(Debug, Clone, Default)]
pub struct ServerLog(std::sync::Arc<std::sync::Mutex<String>>);

impl ServerLog {
    pub fn text(&self) -> String {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

/// [`start_binary`] with its log (stderr) kept in the answered [`ServerLog`] instead of
/// passed through; `env` may set `RUST_LOG` and `LEAGUE_LOG_FORMAT`.
pub async fn start_binary_logged(
    binary: &str,
    database_url: &str,
    env: &[(&str, &str)],
) -> (TestApp, ServerLog) {
    let log = ServerLog::default();
    (start_process(binary, database_url, &[], env, Some(log.clone())).await, log)
}

async fn start_process(
    binary: &str,
    database_url: &str,
    args: &[&str],
    env: &[(&str, &str)],
    log: Option<ServerLog>,
) -> TestApp {
    let mut command = Command::new(binary);
    command
        .args(["serve", "--database", database_url, "--listen", "127.0.0.1:0"])
        .args(args)
        .env_remove("LEAGUE_ADMIN_TOKEN")
        .env_remove("LEAGUE_CORS_ORIGINS")
        .env_remove("READ_DATABASE_URL")
        .env_remove("LEAGUE_REPLICA_LAG_TIMEOUT")
        .env("RUST_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(if log.is_some() { Stdio::piped() } else { Stdio::inherit() })
        .kill_on_drop(true);
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("start league serve");
    if let Some(log) = log {
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr")).lines();
        tokio::spawn(async move {
            while let Ok(Some(line)) = stderr.next_line().await {
                let mut text = log.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                text.push_str(&line);
                text.push('\n');
            }
        });
    }
    let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
    let mut banner = Vec::new();
    let base = tokio::time::timeout(START_TIMEOUT, async {
        while let Some(line) = lines.next_line().await.expect("read the server's stdout") {
            if let Some(address) = line.strip_prefix("listening on ") {
                return address.to_owned();
            }
            banner.push(line);
        }
        panic!("league serve exited before listening (banner: {banner:?})");
    })
    .await
    .expect("league serve listens within the start timeout");
    assert!(base.starts_with("http://127.0.0.1:"), "loopback only: {base}");
    // Keep draining stdout so the server never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    TestApp { running: Running::Process(child), app: None, base, http: client(), banner }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .pool_max_idle_per_host(128)
        .build()
        .expect("an HTTP client")
}

impl TestApp {
    /// Sends a request built with [`TestApp::http`]: through the router when there is no
    /// socket (with the client address the server loop would set), over HTTP otherwise.
    pub async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> reqwest::Result<reqwest::Response> {
        let Running::Router(router) = &self.running else {
            return request.send().await;
        };
        let request: axum::http::Request<reqwest::Body> = request.build()?.try_into()?;
        let (parts, body) = request.into_parts();
        let body = Body::from(body.as_bytes().map(Bytes::copy_from_slice).unwrap_or_default());
        let mut request = axum::http::Request::from_parts(parts, body);
        request.extensions_mut().insert(IN_PROCESS_CLIENT);
        let response = tokio::time::timeout(REQUEST_TIMEOUT, router.clone().oneshot(request))
            .await
            .expect("the router answers within the request timeout")
            .unwrap_or_else(|never| match never {});
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX).await.expect("read the answer's body");
        Ok(axum::http::Response::from_parts(parts, body).into())
    }

    /// The application service under an in-process gateway (its store, its read model).
    pub fn app(&self) -> &App {
        self.app.as_ref().expect("only an in-process gateway has an app")
    }

    /// Whether requests go over a socket (as opposed to through the router).
    pub fn has_socket(&self) -> bool {
        !matches!(self.running, Running::Router(_))
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn graphql_url(&self) -> String {
        self.url("/graphql")
    }

    /// `ws://127.0.0.1:PORT/graphql/ws` (a gateway on a port or a process).
    pub fn ws_url(&self) -> String {
        assert!(self.has_socket(), "WebSockets need a gateway on a port (spawn_app_on_port)");
        format!("{}/graphql/ws", self.base.replacen("http://", "ws://", 1))
    }

    /// `127.0.0.1:PORT` (a gateway on a port or a process).
    pub fn address(&self) -> &str {
        assert!(self.has_socket(), "no socket: the gateway is called in-process");
        self.base.strip_prefix("http://").expect("an http base")
    }

    fn child(&mut self) -> &mut Child {
        match &mut self.running {
            Running::Process(child) => child,
            _ => panic!("only a `league serve` process can be signalled"),
        }
    }

    /// Kills the process with SIGKILL (no graceful shutdown) and reaps it.
    pub async fn kill(mut self) {
        let child = self.child();
        child.start_kill().expect("send SIGKILL");
        tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .expect("a killed server exits at once")
            .expect("reap the server");
    }

    /// Sends SIGTERM and waits for the process to exit.
    pub async fn terminate(mut self) -> std::process::ExitStatus {
        let child = self.child();
        let pid = child.id().expect("the server is running");
        let status = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
        tokio::time::timeout(Duration::from_secs(20), child.wait())
            .await
            .expect("the server stops within 20 s of SIGTERM")
            .expect("reap the server")
    }
}
