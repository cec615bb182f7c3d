//! `league serve` as a process: the generated admin token on stdout, settings from the
//! environment, request ids (a client's kept only when it is a UUID), health, CORS, the body limit, graceful shutdown on SIGTERM
//! with an open subscription, and refusals of bad flags and unusable databases. The API
//! itself is tested in-process ([`crate::api`]).

use crate::support;

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use support::{start_league_serve_with, ws_next, ws_send};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

async fn http_surface_and_graceful_shutdown(db: TestDatabase) {
    // No admin token configured: one is generated and printed once.
    let server = start_league_serve_with(
        &db.url,
        &[("LEAGUE_CORS_ORIGINS", "http://frontend.test"), ("LEAGUE_MAX_QUERY_DEPTH", "4")],
    )
    .await;
    let admin = server
        .banner
        .iter()
        .find_map(|line| line.strip_prefix("admin token (generated, shown once): "))
        .expect("the generated admin token is printed")
        .to_owned();
    assert_eq!(admin.len(), 64);
    // The client's request id comes back as a header and lands in the event's metadata.
    let request_id = uuid::Uuid::now_v7().to_string();
    let response = server
        .http
        .post(format!("{}/graphql", server.base))
        .bearer_auth(&admin)
        .header("x-request-id", &request_id)
        .json(&json!({ "query": "mutation { registerPlayer(input: {name: \"Ann\"}) { player { name } } }" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], request_id.as_str());
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["data"]["registerPlayer"]["player"]["name"], "Ann");
    let data = server.data(None, "{ events { nodes { type correlationId } } }", json!({})).await;
    assert_eq!(
        data["events"]["nodes"],
        json!([{ "type": "PlayerRegistered", "correlationId": request_id }])
    );

    // A client's id that is not a UUID is replaced by a fresh one, which the events carry;
    // a UUID in another form comes back, and is stored, hyphenated in lower case.
    let uuid = uuid::Uuid::now_v7();
    let cases = [
        ("Bo", "not a uuid <b>".to_owned(), None),
        ("Cy", "x".repeat(200), None),
        ("Di", uuid.simple().to_string().to_uppercase(), Some(uuid.to_string())),
    ];
    for (name, sent, kept) in cases {
        let response = server
            .http
            .post(format!("{}/graphql", server.base))
            .bearer_auth(&admin)
            .header("x-request-id", &sent)
            .json(&json!({ "query": format!("mutation {{ registerPlayer(input: {{name: \"{name}\"}}) {{ player {{ name }} }} }}") }))
            .send()
            .await
            .unwrap();
        let answered = response.headers()["x-request-id"].to_str().unwrap().to_owned();
        let fresh = uuid::Uuid::try_parse(&answered).expect("the answer's id is a UUID");
        assert_eq!(answered, fresh.to_string(), "hyphenated, lower case");
        match &kept {
            Some(kept) => assert_eq!(&answered, kept),
            None => assert_ne!(answered, sent),
        }
        let data =
            server.data(None, "{ events { nodes { type correlationId } } }", json!({})).await;
        let last = data["events"]["nodes"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last, json!({ "type": "PlayerRegistered", "correlationId": answered }));
    }

    // (Four players registered: the log holds four events.)
    // The configured depth limit applies.
    let response =
        server.gql(None, "{ players { nodes { leagues { games { id } } } } }", json!({})).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "QUERY_TOO_COMPLEX");
    assert_eq!(response["errors"][0]["extensions"]["max"], 4);
    assert_eq!(response["errors"][0]["extensions"]["actual"], 5);

    let health = server.http.get(format!("{}/healthz", server.base)).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let request_id =
        health.headers().get("x-request-id").expect("every response has a request id").clone();
    assert!(uuid::Uuid::parse_str(request_id.to_str().unwrap()).is_ok());
    let body: Value = health.json().await.unwrap();
    assert_eq!(body, json!({ "status": "ok", "position": 4 }));

    let page = server.http.get(&server.base).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("graphiql"));

    // CORS preflight from the configured origin.
    let preflight = server
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/graphql", server.base))
        .header("Origin", "http://frontend.test")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization, content-type")
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.headers()["access-control-allow-origin"], "http://frontend.test");
    assert_eq!(preflight.headers()["x-content-type-options"], "nosniff");
    assert_eq!(preflight.headers()["referrer-policy"], "no-referrer");

    // A body announced above the limit is refused before it is read. (Raw HTTP: a client
    // still sending a large body may see the connection close instead of the answer.)
    let address = server.base.strip_prefix("http://").unwrap();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /graphql HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        2 * 1024 * 1024
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut status_line = String::new();
    BufReader::new(stream).read_line(&mut status_line).await.unwrap();
    assert!(status_line.starts_with("HTTP/1.1 413"), "{status_line}");

    // An open subscription does not hold shutdown up: its stream ends, the server exits 0.
    let data = server
        .data(
            Some(&admin),
            "mutation { createLeague(input: {name: \"L\", game: \"Go\", scoringSystem: PLACEMENT, playersPerGame: 2}) { id } }",
            json!({}),
        )
        .await;
    let mut socket = server.ws_connect("graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "connection_ack");
    ws_send(
        &mut socket,
        json!({ "id": "1", "type": "subscribe", "payload": {
            "query": "subscription($id: ID!) { leagueEvents(leagueId: $id) { type } }",
            "variables": { "id": data["createLeague"]["id"] },
        }}),
    )
    .await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "pong");

    let status = server.terminate().await;
    assert!(status.success(), "graceful shutdown exits 0, got {status}");
    match ws_next(&mut socket).await {
        None => {}
        Some(message) => assert_eq!(message, json!({ "id": "1", "type": "complete" })),
    }
}

/// Bad flags and unsupported database URLs are bad input (exit 2, one line on stderr,
/// nothing on stdout); a database that cannot be opened is a failure (exit 1).
#[test]
fn serve_refuses_bad_flags_and_reports_unusable_databases() {
    let league = env!("CARGO_BIN_EXE_league");
    let output = std::process::Command::new(league)
        .args(["serve", "--listen", "not-an-address", "--database", "sqlite::memory:"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().filter(|l| l.starts_with("league: ")).count(), 1, "{stderr}");
    assert!(stderr.contains("--listen"), "{stderr}");

    let serve = |database: &str| {
        std::process::Command::new(league)
            .args(["serve", "--listen", "127.0.0.1:0", "--database", database])
            .env("RUST_LOG", "off")
            .output()
            .unwrap()
    };
    let output = serve("mysql://nowhere/league");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("league: database: unsupported database URL"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);

    let output = serve("sqlite:///no/such/directory/league.db?mode=rwc");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("league: cannot open the database"), "{stderr}");
}

on_both_databases!(http_surface_and_graceful_shutdown);
