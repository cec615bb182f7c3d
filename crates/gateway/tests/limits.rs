//! The gateway's limits against real clients on a real socket (`league_gateway::run` on
//! port 0), on SQLite and PostgreSQL: WebSocket init deadline, keep-alive pings, connection
//! and subscription caps, message size; header-read and request timeouts; complexity
//! weighed by list size; rate limits; metrics; cacheable GET reads with ETags and named
//! operations; automatic persisted queries.
//! Every limit is set tiny here, so each test shows the refusal and the request that passes.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use league_gateway::GatewayConfig;
use league_gateway::config::RateLimits;
use league_testkit::app::{ADMIN, TestApp, spawn_app_on_port, spawn_app_with};
use league_testkit::client::{Socket as Ws, ws_frame};
use league_testkit::{TestDatabase, on_both_databases};
use reqwest::Response;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// Longest wait for something the server must do (generous: a shared machine).
const PATIENCE: Duration = Duration::from_secs(10);

/// Rate limits off (they are on by default), then the limit a test sets.
fn only(configure: impl FnOnce(&mut GatewayConfig)) -> impl FnOnce(&mut GatewayConfig) {
    move |config| {
        config.rate = RateLimits::OFF;
        configure(config);
    }
}

async fn post(gateway: &TestApp, token: Option<&str>, query: &str, variables: Value) -> Response {
    gateway.graphql_response(token, query, variables).await.expect("POST /graphql")
}

async fn head_position(gateway: &TestApp) -> u64 {
    gateway.app().store().head_position().await.unwrap()
}

async fn create_league(gateway: &TestApp) -> String {
    let league = gateway
        .create_league_with(json!({"name": "Cup", "game": "Carcassonne",
            "scoringSystem": "PLACEMENT", "playersPerGame": 4, "gamesPerSeat": 1}))
        .await;
    league["id"].as_str().unwrap_or_else(|| panic!("{league}")).to_owned()
}

async fn ws(gateway: &TestApp) -> Ws {
    gateway.ws_connect("graphql-transport-ws").await
}

fn close_code(message: &Message) -> Option<u16> {
    match message {
        Message::Close(Some(frame)) => Some(u16::from(frame.code)),
        _ => None,
    }
}

async fn init(ws: &mut Ws) {
    ws.send(Message::text(json!({"type": "connection_init", "payload": {}}).to_string()))
        .await
        .unwrap();
    let ack = ws_frame(ws).await;
    assert_eq!(ack.to_text().unwrap_or_default(), r#"{"type":"connection_ack"}"#, "{ack:?}");
}

async fn ws_init_timeout_closes_with_4408(db: TestDatabase) {
    let gateway =
        spawn_app_on_port(&db.url, only(|c| c.ws.init_timeout = Duration::from_millis(300))).await;
    let mut silent = ws(&gateway).await;
    let frame = ws_frame(&mut silent).await;
    assert_eq!(close_code(&frame), Some(4408), "{frame:?}");
    if let Message::Close(Some(f)) = &frame {
        assert_eq!(f.reason.as_str(), "Connection initialisation timeout");
    }
    // A client that initialises in time is acknowledged and stays open past the deadline.
    let mut prompt = ws(&gateway).await;
    init(&mut prompt).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    prompt.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
    assert_eq!(ws_frame(&mut prompt).await.to_text().unwrap(), r#"{"type":"pong"}"#);
}

async fn ws_keepalive_pings(db: TestDatabase) {
    let gateway =
        spawn_app_on_port(&db.url, only(|c| c.ws.keepalive = Duration::from_millis(200))).await;
    let mut ws = ws(&gateway).await;
    init(&mut ws).await;
    // A client that keeps reading answers the pings (tungstenite replies while reading)
    // and stays open well past two intervals.
    let mut pings = 0;
    let _ = tokio::time::timeout(Duration::from_millis(1000), async {
        while let Some(Ok(message)) = ws.next().await {
            assert!(matches!(message, Message::Ping(_)), "{message:?}");
            pings += 1;
        }
    })
    .await;
    assert!(pings >= 2, "{pings} pings in a second at a 200 ms interval");
    ws.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
    assert_eq!(ws_frame(&mut ws).await.to_text().unwrap(), r#"{"type":"pong"}"#);
    // A peer that stops answering is closed with 3008.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let frame = ws_frame(&mut ws).await;
    assert_eq!(close_code(&frame), Some(3008), "{frame:?}");
}

async fn ws_connection_caps_close_with_4429(db: TestDatabase) {
    let gateway = spawn_app_on_port(
        &db.url,
        only(|c| {
            c.ws.max_connections_per_addr = 2;
            c.ws.max_connections = 3;
        }),
    )
    .await;
    let mut first = ws(&gateway).await;
    init(&mut first).await;
    let mut second = ws(&gateway).await;
    init(&mut second).await;
    let mut third = ws(&gateway).await;
    let frame = ws_frame(&mut third).await;
    assert_eq!(close_code(&frame), Some(4429), "{frame:?}");
    // Closing one gives its place back.
    first.close(None).await.unwrap();
    drop(first);
    let reopened = tokio::time::timeout(PATIENCE, async {
        loop {
            let mut ws = ws(&gateway).await;
            ws.send(Message::text(r#"{"type":"connection_init"}"#)).await.unwrap();
            if ws_frame(&mut ws).await.to_text().is_ok_and(|t| t.contains("connection_ack")) {
                return ws;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(reopened.is_ok(), "a freed place is given to the next connection");
}

/// A message larger than the body limit is refused with 1009 before anything answers it
/// (anonymous `connection_init` included), so a client cannot make the server hold
/// megabytes; a connection that keeps its messages within the limit is served.
async fn ws_messages_over_the_body_limit_close_with_1009(db: TestDatabase) {
    let gateway = spawn_app_on_port(&db.url, only(|_| {})).await;
    let limit = GatewayConfig::new(ADMIN.to_owned()).max_body_bytes;
    for size in [limit + 1, 2 * 1024 * 1024] {
        let padding = "x".repeat(size);
        let init = json!({"type": "connection_init", "payload": {"padding": padding}});
        let (mut sink, mut stream) = ws(&gateway).await.split();
        // Sent beside the read: the server stops reading the message at its header.
        let sending = tokio::spawn(async move { sink.send(Message::text(init.to_string())).await });
        let frame = tokio::time::timeout(PATIENCE, async {
            loop {
                match stream.next().await {
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    other => return other,
                }
            }
        })
        .await
        .expect("an answer within the patience");
        let frame = frame.expect("a frame").expect("a frame, not an error");
        assert_eq!(close_code(&frame), Some(1009), "{size} bytes: {frame:?}");
        if let Message::Close(Some(f)) = &frame {
            assert_eq!(f.reason.as_str(), "message too big");
        }
        sending.abort();
    }
    // Within the limit: acknowledged, and the connection serves operations.
    let mut ws = ws(&gateway).await;
    let padding = "x".repeat(limit - 1024);
    let init = json!({"type": "connection_init",
        "payload": {"authorization": format!("Bearer {ADMIN}"), "padding": padding}});
    ws.send(Message::text(init.to_string())).await.unwrap();
    let ack = ws_frame(&mut ws).await;
    assert_eq!(ack.to_text().unwrap_or_default(), r#"{"type":"connection_ack"}"#, "{ack:?}");
    ws.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
    assert_eq!(ws_frame(&mut ws).await.to_text().unwrap(), r#"{"type":"pong"}"#);
    // The same limit for an authenticated connection's later messages.
    let (mut sink, mut stream) = ws.split();
    let oversized = json!({"type": "subscribe", "id": "1",
        "payload": {"query": format!("subscription {{ __typename }} # {}", "x".repeat(limit))}});
    let sending =
        tokio::spawn(async move { sink.send(Message::text(oversized.to_string())).await });
    let frame = tokio::time::timeout(PATIENCE, stream.next()).await.unwrap().unwrap().unwrap();
    assert_eq!(close_code(&frame), Some(1009), "{frame:?}");
    sending.abort();
}

fn subscribe(id: &str, league: &str) -> Message {
    Message::text(
        json!({"type": "subscribe", "id": id, "payload": {
            "query": "subscription($l: ID!) { leagueEvents(leagueId: $l) { position } }",
            "variables": {"l": league}}})
        .to_string(),
    )
}

async fn ws_subscription_cap_refuses_one_operation(db: TestDatabase) {
    let gateway = spawn_app_on_port(&db.url, only(|c| c.ws.max_subscriptions = 2)).await;
    let league = create_league(&gateway).await;
    let mut ws = ws(&gateway).await;
    init(&mut ws).await;
    ws.send(subscribe("1", &league)).await.unwrap();
    ws.send(subscribe("2", &league)).await.unwrap();
    ws.send(subscribe("3", &league)).await.unwrap();
    let refusal: Value = serde_json::from_str(ws_frame(&mut ws).await.to_text().unwrap()).unwrap();
    assert_eq!(refusal["type"], "error", "{refusal}");
    assert_eq!(refusal["id"], "3");
    assert_eq!(refusal["payload"][0]["extensions"]["code"], "TOO_MANY_SUBSCRIPTIONS");
    // Completing one makes room: the next subscribe is not refused, the connection is open.
    ws.send(Message::text(r#"{"type":"complete","id":"1"}"#)).await.unwrap();
    assert_eq!(ws_frame(&mut ws).await.to_text().unwrap(), r#"{"type":"complete","id":"1"}"#);
    ws.send(subscribe("4", &league)).await.unwrap();
    ws.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
    assert_eq!(ws_frame(&mut ws).await.to_text().unwrap(), r#"{"type":"pong"}"#);
}

async fn ws_operations_draw_from_the_request_bucket(db: TestDatabase) {
    let gateway = spawn_app_on_port(
        &db.url,
        only(|c| {
            c.rate.requests_per_second = 1;
            c.rate.requests_burst = 2;
        }),
    )
    .await;
    let mut ws = ws(&gateway).await;
    init(&mut ws).await;
    let query = |id: &str| {
        Message::text(
            json!({"type": "subscribe", "id": id, "payload": {"query": "{ __typename }"}})
                .to_string(),
        )
    };
    // The burst of two runs; the third operation on the same connection is refused with
    // RATE_LIMITED and the connection stays open.
    for id in ["1", "2", "3"] {
        ws.send(query(id)).await.unwrap();
    }
    // Operations run concurrently: read until each of the three has finished.
    let mut refusals = Vec::new();
    let mut answered = 0;
    let mut finished = 0;
    while finished < 3 {
        let frame: Value =
            serde_json::from_str(ws_frame(&mut ws).await.to_text().unwrap()).unwrap();
        match frame["type"].as_str() {
            Some("next") if frame["payload"]["errors"].is_array() => {
                refusals.push(frame["payload"]["errors"][0].clone());
            }
            Some("next") => answered += 1,
            Some("error") => {
                refusals.push(frame["payload"][0].clone());
                finished += 1;
            }
            Some("complete") => finished += 1,
            _ => {}
        }
    }
    assert_eq!(answered, 2, "the burst ran: {refusals:?}");
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    assert_eq!(refusals[0]["extensions"]["code"], "RATE_LIMITED", "{}", refusals[0]);
    ws.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
    loop {
        let frame = ws_frame(&mut ws).await;
        if frame.to_text().unwrap() == r#"{"type":"pong"}"# {
            break;
        }
    }
}

/// Reads everything until the server closes; `Err` when it does not within `limit`.
async fn read_until_closed(
    stream: &mut tokio::net::TcpStream,
    limit: Duration,
) -> Result<String, String> {
    let mut received = Vec::new();
    let outcome = tokio::time::timeout(limit, async {
        let mut buffer = [0u8; 1024];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    let text = String::from_utf8_lossy(&received).into_owned();
    outcome.map(|()| text.clone()).map_err(|_| text)
}

async fn half_a_header_is_disconnected(db: TestDatabase) {
    let gateway =
        spawn_app_on_port(&db.url, only(|c| c.header_read_timeout = Duration::from_millis(300)))
            .await;
    let mut stream = tokio::net::TcpStream::connect(gateway.address()).await.unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ").await.unwrap();
    let closed = read_until_closed(&mut stream, PATIENCE).await;
    assert!(closed.is_ok(), "the server still holds a half-sent header: {closed:?}");
    // A whole request on a fresh connection is answered.
    let health = gateway.send(gateway.http.get(gateway.url("/healthz"))).await.unwrap();
    assert_eq!(health.status(), 200);
}

async fn a_body_that_never_ends_gets_408(db: TestDatabase) {
    let gateway =
        spawn_app_on_port(&db.url, only(|c| c.request_timeout = Duration::from_millis(300))).await;
    let mut stream = tokio::net::TcpStream::connect(gateway.address()).await.unwrap();
    stream
        .write_all(
            b"POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"query\":",
        )
        .await
        .unwrap();
    let answer = read_until_closed(&mut stream, PATIENCE).await.unwrap_or_else(|partial| partial);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
}

fn aliased_standings(count: usize, league: &str) -> String {
    let fields: String = (0..count)
        .map(|i| {
            format!("s{i}: standings(leagueId: \"{league}\") {{ rank total player {{ name }} }} ")
        })
        .collect();
    format!("{{ {fields} }}")
}

async fn complexity_weighs_lists_by_league_size(db: TestDatabase) {
    let gateway = spawn_app_with(&db.url, only(|_| {})).await;
    let league = create_league(&gateway).await;
    let amplified = post(&gateway, None, &aliased_standings(300, &league), json!({})).await;
    assert_eq!(amplified.status(), 200);
    let body: Value = amplified.json().await.unwrap();
    assert_eq!(body["errors"][0]["extensions"]["code"], "QUERY_TOO_COMPLEX", "{body}");
    assert_eq!(body["errors"][0]["extensions"]["limit"], "complexity");
    assert!(body.get("data").is_none_or(Value::is_null), "{body}");
    // One page of standings, and the web app's league page (every list of a league), pass.
    let one = post(&gateway, None, &aliased_standings(1, &league), json!({})).await;
    let body: Value = one.json().await.unwrap();
    assert!(body.get("errors").is_none(), "{body}");
    let page = "query($id: ID!) { league(id: $id) { id name players { id name }
        standings { rank total played wins draws player { id name } }
        games { id number status finishedAt seats { seat label player { id name } }
                scores { score player { id name } } } } }";
    let body: Value = post(&gateway, None, page, json!({"id": league})).await.json().await.unwrap();
    assert!(body.get("errors").is_none(), "{body}");
}

async fn rate_limits_answer_429_with_retry_after(db: TestDatabase) {
    let gateway = spawn_app_with(
        &db.url,
        only(|c| {
            c.rate = RateLimits {
                requests_per_second: 1,
                requests_burst: 3,
                mutations_per_minute: 1,
                mutations_burst: 1,
            };
        }),
    )
    .await;
    // Anonymous reads: the burst passes, the next is refused, well-formed.
    for _ in 0..3 {
        assert_eq!(post(&gateway, None, "{ __typename }", json!({})).await.status(), 200);
    }
    let limited = post(&gateway, None, "{ __typename }", json!({})).await;
    assert_eq!(limited.status(), 429);
    let retry: u64 = limited.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    let body: Value = limited.json().await.unwrap();
    assert_eq!(body["errors"][0]["extensions"]["code"], "RATE_LIMITED", "{body}");
    // The admin's token has its own buckets; mutations are stricter than reads.
    create_league(&gateway).await;
    let head = head_position(&gateway).await;
    let refused = post(
        &gateway,
        Some(ADMIN),
        "mutation { registerPlayer(input: {name: \"Bo\"}) { token } }",
        json!({}),
    )
    .await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["errors"][0]["extensions"]["code"], "RATE_LIMITED", "{body}");
    assert_eq!(head_position(&gateway).await, head, "a rate-limited mutation appends nothing");
    // Reads of the same token still pass (their bucket is not the mutations').
    let read = post(&gateway, Some(ADMIN), "{ __typename }", json!({})).await;
    assert_eq!(read.status(), 200);
}

/// The value of the sample `name{labels}` in a Prometheus text exposition.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
}

async fn metrics_count_requests(db: TestDatabase) {
    let gateway = spawn_app_with(&db.url, only(|_| {})).await;
    let scrape = || async {
        let response = gateway.send(gateway.http.get(gateway.url("/metrics"))).await.unwrap();
        assert_eq!(response.status(), 200);
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
        response.text().await.unwrap()
    };
    let before = scrape().await;
    let ok_queries = r#"league_graphql_requests_total{operation="query",outcome="ok"}"#;
    assert_eq!(sample(&before, ok_queries), None, "{before}");
    post(&gateway, None, "{ __typename }", json!({})).await;
    create_league(&gateway).await;
    let after = scrape().await;
    assert_eq!(sample(&after, ok_queries), Some(1.0), "{after}");
    assert_eq!(
        sample(&after, r#"league_graphql_requests_total{operation="mutation",outcome="ok"}"#),
        Some(1.0)
    );
    assert_eq!(sample(&after, "league_appends_total"), Some(1.0));
    assert_eq!(
        sample(&after, r#"league_graphql_request_duration_seconds_count{operation="query"}"#),
        Some(1.0)
    );
    let head = head_position(&gateway).await as f64;
    assert_eq!(sample(&after, "league_log_head_position"), Some(head));
    assert!(sample(&after, "league_read_model_lag").is_some());
    assert_eq!(sample(&after, "league_ws_connections"), Some(0.0));
    // Every line is a comment or `series value`.
    for line in after.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (_, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line}"));
        assert!(value.parse::<f64>().is_ok(), "{line}");
    }
}

async fn get_reads_are_cacheable_and_never_stale(db: TestDatabase) {
    let gateway = spawn_app_with(&db.url, only(|_| {})).await;
    create_league(&gateway).await;
    let url = gateway.url("/graphql");
    let query = [("query", "{ leagues { totalCount } }")];
    let first = gateway.send(gateway.http.get(&url).query(&query)).await.unwrap();
    assert_eq!(first.status(), 200);
    let tag = first.headers()["etag"].to_str().unwrap().to_owned();
    let body: Value = first.json().await.unwrap();
    assert_eq!(body["data"]["leagues"]["totalCount"], 1);
    let again = gateway
        .send(gateway.http.get(&url).query(&query).header("if-none-match", &tag))
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    // An append moves the position: the old tag no longer matches, the answer is fresh.
    create_league(&gateway).await;
    let fresh = gateway
        .send(gateway.http.get(&url).query(&query).header("if-none-match", &tag))
        .await
        .unwrap();
    assert_eq!(fresh.status(), 200);
    assert_ne!(fresh.headers()["etag"].to_str().unwrap(), tag);
    let body: Value = fresh.json().await.unwrap();
    assert_eq!(body["data"]["leagues"]["totalCount"], 2);
    // Mutations over GET are refused and change nothing.
    let head = head_position(&gateway).await;
    let mutation = [("query", "mutation { registerPlayer(input: {name: \"Cy\"}) { token } }")];
    let refused =
        gateway.send(gateway.http.get(&url).query(&mutation).bearer_auth(ADMIN)).await.unwrap();
    assert_eq!(refused.status(), 405);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["errors"][0]["extensions"]["code"], "METHOD_NOT_ALLOWED", "{body}");
    assert_eq!(head_position(&gateway).await, head);
    // POST answers come from the same response cache and are never stale either.
    let count = || async {
        let body: Value = post(&gateway, None, "{ leagues { totalCount } }", json!({}))
            .await
            .json()
            .await
            .unwrap();
        body["data"]["leagues"]["totalCount"].as_u64().unwrap()
    };
    assert_eq!(count().await, 2);
    assert_eq!(count().await, 2);
    create_league(&gateway).await;
    assert_eq!(count().await, 3);
    // Without a query string GET /graphql leads to the built-in GraphiQL, whose scripts come
    // from this server only.
    let redirect = gateway.send(gateway.http.get(&url)).await.unwrap();
    assert_eq!(redirect.status(), reqwest::StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(redirect.headers()[reqwest::header::LOCATION], "/graphiql");
    let graphiql = gateway.send(gateway.http.get(gateway.url("/graphiql"))).await.unwrap();
    assert_eq!(graphiql.status(), reqwest::StatusCode::OK);
    let page = graphiql.text().await.unwrap();
    assert!(page.contains("GraphiQL"));
    assert!(!page.contains("unpkg") && !page.contains("https://"), "{page}");
}

/// `GET /graphql` selects a document's operation by `operationName` (GraphQL over HTTP),
/// and by async-graphql's `operation_name` too; a malformed query string gets a fixed 400.
async fn get_selects_the_named_operation(db: TestDatabase) {
    let gateway = spawn_app_with(&db.url, only(|_| {})).await;
    create_league(&gateway).await;
    let url = gateway.url("/graphql");
    let document = "query Count { leagues { totalCount } } query Kind { __typename }";
    for (parameter, operation, expected) in [
        ("operationName", "Count", json!({"leagues": {"totalCount": 1}})),
        ("operationName", "Kind", json!({"__typename": "Query"})),
        ("operation_name", "Kind", json!({"__typename": "Query"})),
    ] {
        let query = [("query", document), (parameter, operation)];
        let answer = gateway.send(gateway.http.get(&url).query(&query)).await.unwrap();
        assert_eq!(answer.status(), 200, "{parameter}={operation}");
        let body: Value = answer.json().await.unwrap();
        assert_eq!(body["data"], expected, "{parameter}={operation}: {body}");
    }
    // Without a name, a document of several operations is refused as GraphQL says.
    let answer = gateway.send(gateway.http.get(&url).query(&[("query", document)])).await.unwrap();
    let body: Value = answer.json().await.unwrap();
    assert!(body["errors"][0]["message"].is_string(), "{body}");
    let variables = [("query", "{ __typename }"), ("variables", "<b>not json")];
    let answer = gateway.send(gateway.http.get(&url).query(&variables)).await.unwrap();
    assert_eq!(answer.status(), 400);
    assert_eq!(answer.text().await.unwrap(), "variables: not a JSON object");
}

async fn automatic_persisted_queries(db: TestDatabase) {
    use sha2::Digest;
    let gateway = spawn_app_with(&db.url, only(|_| {})).await;
    let query = "{ leagues { totalCount } }";
    let hash = hex::encode(sha2::Sha256::digest(query.as_bytes()));
    let extensions = json!({"persistedQuery": {"version": 1, "sha256Hash": hash}}).to_string();
    let url = gateway.url("/graphql");
    let by_hash = [("extensions", extensions.as_str())];
    let unknown: Value =
        gateway.send(gateway.http.get(&url).query(&by_hash)).await.unwrap().json().await.unwrap();
    assert_eq!(unknown["errors"][0]["message"], "PersistedQueryNotFound", "{unknown}");
    let register: Value = gateway
        .send(gateway.http.post(&url).json(
            &json!({"query": query, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": hash}}}),
        ))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(register["data"]["leagues"]["totalCount"], 0, "{register}");
    let known = gateway.send(gateway.http.get(&url).query(&by_hash)).await.unwrap();
    assert_eq!(known.status(), 200);
    assert!(known.headers().contains_key("etag"));
    let known: Value = known.json().await.unwrap();
    assert_eq!(known["data"]["leagues"]["totalCount"], 0, "{known}");
}

on_both_databases!(
    ws_init_timeout_closes_with_4408,
    ws_keepalive_pings,
    ws_connection_caps_close_with_4429,
    ws_messages_over_the_body_limit_close_with_1009,
    ws_subscription_cap_refuses_one_operation,
    ws_operations_draw_from_the_request_bucket,
    half_a_header_is_disconnected,
    a_body_that_never_ends_gets_408,
    complexity_weighs_lists_by_league_size,
    rate_limits_answer_429_with_retry_after,
    metrics_count_requests,
    get_reads_are_cacheable_and_never_stale,
    get_selects_the_named_operation,
    automatic_persisted_queries,
);
