//! The one test harness of the API and fault tests: a gateway on `127.0.0.1:0`, either
//! in-process ([`Server::spawn`], the app and router of this build, as most API tests use)
//! or the real `league serve` binary ([`Server::start`], for what only a process shows:
//! the banner, signals, crashes); and a frontend-like GraphQL and WebSocket client. Each
//! test binary uses a part of it.
#![allow(dead_code)]

use std::process::Stdio;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use league_gateway::GatewayConfig;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The admin token every test server is started with (unless a test configures none).
pub const ADMIN: &str = "fault-tests-admin-token";
/// Long enough for a cold PostgreSQL migration on a busy two-core machine.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);
/// No single request of these tests may take longer (a hung server fails, not stalls).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest wait for one WebSocket message.
pub const WS_TIMEOUT: Duration = Duration::from_secs(10);

/// What runs the gateway.
enum Running {
    /// `league serve`, killed (SIGKILL) when dropped.
    Process(Child),
    /// The gateway on this test's runtime; stopped (gracefully) when dropped.
    InProcess { stop: Option<oneshot::Sender<()>>, task: JoinHandle<std::io::Result<()>> },
}

/// A running gateway. It does not own its database, so a test can restart a server on the
/// same one.
pub struct Server {
    running: Running,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub http: reqwest::Client,
    /// Lines the binary printed on stdout before `listening on …` (empty in-process).
    pub banner: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Running::InProcess { stop, task } = &mut self.running {
            if let Some(stop) = stop.take() {
                let _ = stop.send(());
            }
            task.abort();
        }
    }
}

impl Server {
    /// The gateway in-process over `database_url`, with the [`ADMIN`] token (zero2prod's
    /// `spawn_app`).
    pub async fn spawn(database_url: &str) -> Server {
        let app = league_app::App::open(database_url).await.expect("open the app");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind port 0");
        let base = format!("http://{}", listener.local_addr().expect("bound address"));
        let (stop, stopped) = oneshot::channel::<()>();
        let config = GatewayConfig::new(ADMIN.to_owned());
        let task = tokio::spawn(league_gateway::run(listener, app, config, async move {
            let _ = stopped.await;
        }));
        Server {
            running: Running::InProcess { stop: Some(stop), task },
            base,
            http: client(),
            banner: Vec::new(),
        }
    }

    /// The real `league serve` binary with the [`ADMIN`] token.
    pub async fn start(database_url: &str) -> Server {
        Server::start_with(database_url, &[("LEAGUE_ADMIN_TOKEN", ADMIN)]).await
    }

    /// The real `league serve` binary with exactly the given `LEAGUE_*` settings (no admin
    /// token unless `env` names one).
    pub async fn start_with(database_url: &str, env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_league"));
        command
            .args(["serve", "--database", database_url, "--listen", "127.0.0.1:0"])
            .env_remove("LEAGUE_ADMIN_TOKEN")
            .env_remove("LEAGUE_CORS_ORIGINS")
            .env("RUST_LOG", "error")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("start league serve");
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
        Server { running: Running::Process(child), base, http: client(), banner }
    }

    pub fn graphql_url(&self) -> String {
        format!("{}/graphql", self.base)
    }

    pub fn ws_url(&self) -> String {
        format!("{}/graphql/ws", self.base.replacen("http://", "ws://", 1))
    }

    fn child(&mut self) -> &mut Child {
        match &mut self.running {
            Running::Process(child) => child,
            Running::InProcess { .. } => panic!("only a `league serve` process can be signalled"),
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

    /// `GET /healthz`: the head position when the server and its database answer.
    pub async fn health(&self) -> u64 {
        let response =
            self.http.get(format!("{}/healthz", self.base)).send().await.expect("GET /healthz");
        assert_eq!(response.status(), 200, "the server is healthy");
        let body: Value = response.json().await.expect("healthz JSON");
        assert_eq!(body["status"], "ok");
        body["position"].as_u64().expect("healthz position")
    }

    /// POSTs a GraphQL request; returns the whole response body (HTTP 200 expected).
    pub async fn gql(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        gql(&self.http, &self.graphql_url(), token, query, variables)
            .await
            .unwrap_or_else(|error| panic!("POST /graphql failed: {error}"))
    }

    /// POSTs a request that must succeed; returns `data`.
    pub async fn data(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let response = self.gql(token, query, variables).await;
        assert!(response.get("errors").is_none(), "unexpected errors for {query}: {response:#}");
        response["data"].clone()
    }

    /// Number of events in the log.
    pub async fn event_count(&self) -> u64 {
        let data = self.data(None, "{ events(first: 0) { totalCount } }", json!({})).await;
        data["events"]["totalCount"].as_u64().expect("totalCount")
    }

    /// Every event (optionally of one league), paging through the `events` connection.
    pub async fn events(&self, league: Option<&str>) -> Vec<Value> {
        let mut events = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let data = self
                .data(
                    None,
                    "query($league: ID, $after: String) {
                       events(leagueId: $league, first: 100, after: $after) {
                         totalCount
                         pageInfo { hasNextPage endCursor }
                         nodes { position streamId version type recordedAt actor payload hash }
                       }
                     }",
                    json!({ "league": league, "after": after }),
                )
                .await;
            let page = &data["events"];
            events.extend(page["nodes"].as_array().expect("nodes").iter().cloned());
            if !page["pageInfo"]["hasNextPage"].as_bool().expect("hasNextPage") {
                assert_eq!(events.len() as u64, page["totalCount"].as_u64().expect("total"));
                return events;
            }
            after = page["pageInfo"]["endCursor"].as_str().map(str::to_owned);
        }
    }

    /// Admin registers `count` players named `"{prefix} {i}"`; returns them in order.
    pub async fn register_many(&self, count: usize, prefix: &str) -> Vec<Player> {
        let mut players = Vec::with_capacity(count);
        for i in 1..=count {
            players.push(self.register(&format!("{prefix} {i}")).await);
        }
        players
    }

    pub async fn register(&self, name: &str) -> Player {
        let data = self
            .data(
                Some(ADMIN),
                "mutation($name: String!) {
                   registerPlayer(input: {name: $name}) { player { id name } token }
                 }",
                json!({ "name": name }),
            )
            .await;
        let registration = &data["registerPlayer"];
        assert_eq!(registration["player"]["name"], name);
        Player {
            id: registration["player"]["id"].as_str().expect("id").to_owned(),
            token: registration["token"].as_str().expect("token").to_owned(),
        }
    }

    /// Admin creates a league from a whole `CreateLeagueInput`; returns the new league
    /// (`id status scoringSystem playersPerGame size gamesPerSeat players { id }`).
    pub async fn create_league_with(&self, input: Value) -> Value {
        let data = self
            .data(
                Some(ADMIN),
                "mutation($input: CreateLeagueInput!) {
                   createLeague(input: $input) {
                     id status scoringSystem playersPerGame size gamesPerSeat players { id }
                   }
                 }",
                json!({ "input": input }),
            )
            .await;
        data["createLeague"].clone()
    }

    /// Admin creates a league of `size` (default 8) with `k` seats per game; returns its id.
    pub async fn create_league(&self, system: &str, k: u32, size: Option<u32>) -> String {
        let league = self
            .create_league_with(json!({
                "name": format!("{system} league"), "game": game_name(system),
                "scoringSystem": system, "playersPerGame": k, "size": size,
            }))
            .await;
        league["id"].as_str().expect("league id").to_owned()
    }

    /// Each player subscribes themself, one after the other; returns the league as the
    /// last subscription left it (`status players { id } games { id }`).
    pub async fn fill(&self, league: &str, players: &[Player]) -> Value {
        let mut last = Value::Null;
        for player in players {
            let data = self
                .data(
                    Some(&player.token),
                    "mutation($l: ID!) {
                       subscribeToLeague(leagueId: $l) { status players { id } games { id } }
                     }",
                    json!({ "l": league }),
                )
                .await;
            last = data["subscribeToLeague"].clone();
        }
        last
    }

    /// A league's games in number order.
    pub async fn game_infos(&self, league: &str) -> Vec<GameInfo> {
        let data = self
            .data(
                None,
                "query($id: ID!) {
                   league(id: $id) { games { id number status seats { player { id } } } }
                 }",
                json!({ "id": league }),
            )
            .await;
        data["league"]["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|game| GameInfo {
                id: game["id"].as_str().expect("game id").to_owned(),
                number: game["number"].as_u64().expect("number") as u32,
                seats: game["seats"]
                    .as_array()
                    .expect("seats")
                    .iter()
                    .map(|s| s["player"]["id"].as_str().expect("player id").to_owned())
                    .collect(),
                status: game["status"].as_str().expect("status").to_owned(),
            })
            .collect()
    }

    /// A league's games: `(id, seated player ids in seat order, status)`.
    pub async fn games(&self, league: &str) -> Vec<(String, Vec<String>, String)> {
        self.game_infos(league).await.into_iter().map(|g| (g.id, g.seats, g.status)).collect()
    }

    /// A league's standings, now or as of `as_of` (`{position}` / `{time}`, or null).
    pub async fn standings(&self, league: &str, as_of: Value) -> Vec<Value> {
        let data = self
            .data(
                None,
                "query($league: ID!, $asOf: AsOf) {
                   standings(leagueId: $league, asOf: $asOf) {
                     rank player { id } total played wins draws
                   }
                 }",
                json!({ "league": league, "asOf": as_of }),
            )
            .await;
        data["standings"].as_array().expect("standings").clone()
    }

    /// Reports a game's result as `token`; returns the game (`id status scores`).
    pub async fn report(&self, token: &str, game: &str, result: &Value) -> Value {
        let data = self
            .data(
                Some(token),
                "mutation($game: ID!, $result: GameResultInput!) {
                   reportGameResult(gameId: $game, result: $result) {
                     id status scores { player { id } score }
                   }
                 }",
                json!({ "game": game, "result": result }),
            )
            .await;
        data["reportGameResult"].clone()
    }

    /// A WebSocket to `/graphql/ws` speaking `protocol`.
    pub async fn ws_connect(&self, protocol: &str) -> Socket {
        let mut request = self.ws_url().into_client_request().expect("a WebSocket request");
        request.headers_mut().insert("Sec-WebSocket-Protocol", protocol.parse().expect("header"));
        let (socket, response) =
            tokio_tungstenite::connect_async(request).await.expect("WebSocket upgrade");
        assert_eq!(response.headers()["sec-websocket-protocol"], protocol);
        socket
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .pool_max_idle_per_host(128)
        .build()
        .expect("an HTTP client")
}

/// The game a test league of `system` is for (Diplomacy systems need Diplomacy).
pub fn game_name(system: &str) -> &'static str {
    match system {
        "BAF" | "DETOUR_98F" | "SQUARES" => "Diplomacy",
        "BLUE_MAX" => "Blue Max",
        "WOODEN_SHIPS" | "WOODEN_SHIPS_LEGACY" => "Wooden Ships & Iron Men",
        _ => "Carcassonne",
    }
}

/// POSTs one GraphQL request through `http`; `Err` on a transport failure or a non-200
/// answer (what a client sees when the server dies mid-request).
pub async fn gql(
    http: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    query: &str,
    variables: Value,
) -> Result<Value, String> {
    let mut request = http.post(url).json(&json!({ "query": query, "variables": variables }));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("HTTP {}", response.status()));
    }
    response.json().await.map_err(|e| e.to_string())
}

/// A registered player and their bearer token.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: String,
    pub token: String,
}

/// One game of a league.
#[derive(Debug, Clone)]
pub struct GameInfo {
    pub id: String,
    pub number: u32,
    /// Player ids in seat order.
    pub seats: Vec<String>,
    pub status: String,
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn ws_send(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).await.expect("send a WebSocket message");
}

/// The next JSON text message (pings answered by the library are skipped); `None` when
/// the server closed the connection.
pub async fn ws_next(socket: &mut Socket) -> Option<Value> {
    loop {
        let message = tokio::time::timeout(WS_TIMEOUT, socket.next())
            .await
            .expect("a WebSocket message within the timeout")?;
        match message.ok()? {
            Message::Text(text) => return Some(serde_json::from_str(&text).expect("JSON")),
            Message::Close(_) => return None,
            _ => continue,
        }
    }
}

/// The `extensions.code` of the first error of a response (`<none>` when absent).
pub fn error_code(response: &Value) -> &str {
    response["errors"][0]["extensions"]["code"].as_str().unwrap_or("<none>")
}

/// The `extensions.code` and `extensions.field` of the first error of a response.
pub fn error_of(response: &Value) -> (&str, Option<&str>) {
    let extensions = &response["errors"][0]["extensions"];
    (extensions["code"].as_str().unwrap_or("<none>"), extensions["field"].as_str())
}

/// A placement result for `seats`: distinct points, the first seat winning.
pub fn placement_result(seats: &[String]) -> Value {
    let entries: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, p)| json!({ "playerId": p, "points": (seats.len() - i) as f64 * 10.0 }))
        .collect();
    json!({ "placement": entries })
}

/// Asserts that a stream's versions run 1, 2, 3… and global positions strictly increase.
pub fn assert_gapless(events: &[Value]) {
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["version"].as_u64(), Some(i as u64 + 1), "stream versions: {event}");
    }
    for pair in events.windows(2) {
        assert!(pair[0]["position"].as_u64() < pair[1]["position"].as_u64(), "positions");
    }
}
