//! The frontend-like client of a [`TestApp`]: GraphQL requests (`POST /graphql`) and the
//! steps most tests take through them (register players, create and fill leagues, report
//! results, read events and standings), WebSockets on `/graphql/ws`, and helpers that
//! read errors and results out of answers.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::app::{ADMIN, TestApp};

/// The longest wait for one WebSocket message.
pub const WS_TIMEOUT: Duration = Duration::from_secs(10);

impl TestApp {
    /// `GET /healthz`: the head position when the server and its database answer.
    pub async fn health(&self) -> u64 {
        let response = self.send(self.http.get(self.url("/healthz"))).await.expect("GET /healthz");
        assert_eq!(response.status(), 200, "the server is healthy");
        let body: Value = response.json().await.expect("healthz JSON");
        assert_eq!(body["status"], "ok");
        body["position"].as_u64().expect("healthz position")
    }

    /// POSTs a GraphQL request; returns the HTTP answer as it is (status, headers, body).
    pub async fn graphql_response(
        &self,
        token: Option<&str>,
        query: &str,
        variables: Value,
    ) -> reqwest::Result<reqwest::Response> {
        self.send(graphql_request(&self.http, &self.graphql_url(), token, query, variables)).await
    }

    /// POSTs a GraphQL request; returns the whole response body (HTTP 200 expected).
    pub async fn gql(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        graphql_answer(self.graphql_response(token, query, variables).await)
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
                         nodes { position streamId version type description recordedAt actor payload hash }
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
    graphql_answer(graphql_request(http, url, token, query, variables).send().await).await
}

/// A GraphQL `POST` of `query` with `variables`, as `token`'s bearer when given.
pub fn graphql_request(
    http: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    query: &str,
    variables: Value,
) -> reqwest::RequestBuilder {
    let request = http.post(url).json(&json!({ "query": query, "variables": variables }));
    match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    }
}

/// The body of a GraphQL answer; `Err` on a transport failure or a non-200 answer.
async fn graphql_answer(response: reqwest::Result<reqwest::Response>) -> Result<Value, String> {
    let response = response.map_err(|e| e.to_string())?;
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

/// The next text or close frame (pings and pongs skipped: the library answers pings while
/// reading); panics when the connection ends without one or none comes within the timeout.
pub async fn ws_frame(socket: &mut Socket) -> Message {
    tokio::time::timeout(WS_TIMEOUT, async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(message)) => return message,
                other => panic!("the connection ended without a frame: {other:?}"),
            }
        }
    })
    .await
    .expect("a WebSocket frame within the timeout")
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
