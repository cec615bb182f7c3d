//! Shared harness of the fault and load tests (`race`, `crash`, `bad_input`): the real
//! `league serve` binary on a loopback port, killed when dropped, and a frontend-like
//! GraphQL client. Each test binary uses a part of it.
#![allow(dead_code)]

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The admin token every test server is started with.
pub const ADMIN: &str = "fault-tests-admin-token";
/// Long enough for a cold PostgreSQL migration on a busy two-core machine.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);
/// No single request of these tests may take longer (a hung server fails, not stalls).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `league serve` on `127.0.0.1:0`; killed (SIGKILL) when dropped. It does not
/// own its database, so a test can restart a server on the same one.
pub struct Server {
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub http: reqwest::Client,
}

impl Server {
    pub async fn start(database_url: &str) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_league"));
        command
            .args(["serve", "--database", database_url, "--listen", "127.0.0.1:0"])
            .env("LEAGUE_ADMIN_TOKEN", ADMIN)
            .env_remove("LEAGUE_CORS_ORIGINS")
            .env("RUST_LOG", "error")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        let mut child = command.spawn().expect("start league serve");
        let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        let base = tokio::time::timeout(START_TIMEOUT, async {
            while let Some(line) = lines.next_line().await.expect("read the server's stdout") {
                if let Some(address) = line.strip_prefix("listening on ") {
                    return address.to_owned();
                }
            }
            panic!("league serve exited before listening");
        })
        .await
        .expect("league serve listens within the start timeout");
        assert!(base.starts_with("http://127.0.0.1:"), "loopback only: {base}");
        // Keep draining stdout so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .pool_max_idle_per_host(128)
            .build()
            .expect("an HTTP client");
        Server { child, base, http }
    }

    pub fn graphql_url(&self) -> String {
        format!("{}/graphql", self.base)
    }

    /// Kills the process with SIGKILL (no graceful shutdown) and reaps it.
    pub async fn kill(mut self) {
        self.child.start_kill().expect("send SIGKILL");
        tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .expect("a killed server exits at once")
            .expect("reap the server");
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
                         nodes { position streamId version type payload }
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

    /// Admin registers `count` players; returns them in order.
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
                   registerPlayer(input: {name: $name}) { player { id } token }
                 }",
                json!({ "name": name }),
            )
            .await;
        Player {
            id: data["registerPlayer"]["player"]["id"].as_str().expect("id").to_owned(),
            token: data["registerPlayer"]["token"].as_str().expect("token").to_owned(),
        }
    }

    /// Admin creates a league of `size` (default 8) with `k` seats per game; returns its id.
    pub async fn create_league(&self, system: &str, k: u32, size: Option<u32>) -> String {
        let game = match system {
            "BAF" | "DETOUR_98F" | "SQUARES" => "Diplomacy",
            _ => "Carcassonne",
        };
        let data = self
            .data(
                Some(ADMIN),
                "mutation($input: CreateLeagueInput!) { createLeague(input: $input) { id } }",
                json!({ "input": {
                    "name": format!("{system} league"), "game": game,
                    "scoringSystem": system, "playersPerGame": k, "size": size,
                }}),
            )
            .await;
        data["createLeague"]["id"].as_str().expect("league id").to_owned()
    }

    /// Each player subscribes themself, one after the other.
    pub async fn fill(&self, league: &str, players: &[Player]) {
        for player in players {
            self.data(
                Some(&player.token),
                "mutation($l: ID!) { subscribeToLeague(leagueId: $l) { id } }",
                json!({ "l": league }),
            )
            .await;
        }
    }

    /// A league's games: `(id, seated player ids in seat order, status)`.
    pub async fn games(&self, league: &str) -> Vec<(String, Vec<String>, String)> {
        let data = self
            .data(
                None,
                "query($id: ID!) { league(id: $id) { games { id status seats { player { id } } } } }",
                json!({ "id": league }),
            )
            .await;
        data["league"]["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|game| {
                let seats = game["seats"]
                    .as_array()
                    .expect("seats")
                    .iter()
                    .map(|s| s["player"]["id"].as_str().expect("player id").to_owned())
                    .collect();
                (
                    game["id"].as_str().expect("game id").to_owned(),
                    seats,
                    game["status"].as_str().expect("status").to_owned(),
                )
            })
            .collect()
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

/// The `extensions.code` of the first error of a response (`<none>` when absent).
pub fn error_code(response: &Value) -> &str {
    response["errors"][0]["extensions"]["code"].as_str().unwrap_or("<none>")
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
