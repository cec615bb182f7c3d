//! Compressed answers (`docs/performance.md#compression`), on SQLite and PostgreSQL: a
//! GraphQL answer or a web app file asked with `Accept-Encoding: gzip` or `br` comes
//! compressed and decodes to the very bytes sent to a client that asks for none; a tiny
//! answer comes as it is.

use std::io::Read;

use league_gateway::config::RateLimits;
use league_testkit::app::{TestApp, spawn_app_on_port};
use league_testkit::{TestDatabase, on_both_databases};
use reqwest::header::{ACCEPT_ENCODING, CONTENT_ENCODING, VARY};
use serde_json::{Value, json};

/// A GraphQL answer of a few kilobytes: every scoring system with its rule.
const CATALOGUE: &str = "{ scoringSystems { system displayName rule description } }";

/// The body (as sent on the wire) and `Content-Encoding` of a request asking for `encoding`.
async fn fetch(
    request: reqwest::RequestBuilder,
    encoding: Option<&str>,
) -> (Vec<u8>, Option<String>) {
    let request = match encoding {
        Some(encoding) => request.header(ACCEPT_ENCODING, encoding),
        None => request,
    };
    let response = request.send().await.expect("the gateway answers");
    assert!(response.status().is_success(), "{}", response.status());
    let encoding = response.headers().get(CONTENT_ENCODING).map(|v| v.to_str().unwrap().to_owned());
    if encoding.is_some() {
        let vary: Vec<_> = response.headers().get_all(VARY).iter().collect();
        assert!(
            vary.iter().any(|v| v.as_bytes().eq_ignore_ascii_case(b"accept-encoding")),
            "{vary:?}"
        );
    }
    (response.bytes().await.expect("a body").to_vec(), encoding)
}

fn decoded(body: &[u8], encoding: &str) -> Vec<u8> {
    let mut out = Vec::new();
    match encoding {
        "gzip" => flate2::read::GzDecoder::new(body).read_to_end(&mut out),
        "br" => brotli_decompressor::Decompressor::new(body, 4096).read_to_end(&mut out),
        other => panic!("unexpected encoding {other}"),
    }
    .expect("a well-formed compressed body");
    out
}

/// Each request the same three ways: plain, gzip, brotli; the compressed ones are smaller and
/// decode to the plain body.
async fn same_three_ways(request: impl Fn() -> reqwest::RequestBuilder) -> Vec<u8> {
    let (plain, none) = fetch(request(), None).await;
    assert_eq!(none, None, "nothing asked, nothing compressed");
    for encoding in ["gzip", "br"] {
        let (body, used) = fetch(request(), Some(encoding)).await;
        assert_eq!(used.as_deref(), Some(encoding));
        assert!(
            body.len() * 2 < plain.len(),
            "{encoding}: {} of {} bytes",
            body.len(),
            plain.len()
        );
        assert_eq!(decoded(&body, encoding), plain);
    }
    plain
}

async fn answers_are_compressed_when_the_client_asks(db: TestDatabase) {
    let gateway: TestApp = spawn_app_on_port(&db.url, |config| config.rate = RateLimits::OFF).await;
    let http = reqwest::Client::new();
    let post = || http.post(gateway.graphql_url()).json(&json!({ "query": CATALOGUE }));
    let answer: Value = serde_json::from_slice(&same_three_ways(post).await).unwrap();
    assert!(answer["data"]["scoringSystems"].as_array().unwrap().len() > 3, "{answer}");

    let get = || http.get(gateway.graphql_url()).query(&[("query", CATALOGUE)]);
    same_three_ways(get).await;

    let script = || http.get(gateway.url("/js/queries.js"));
    let text = same_three_ways(script).await;
    assert!(String::from_utf8(text).unwrap().contains("export const LEAGUE"));

    // Below the threshold a body goes as it is, even when compression is asked for.
    let tiny = || http.post(gateway.graphql_url()).json(&json!({ "query": "{ __typename }" }));
    let (body, used) = fetch(tiny(), Some("gzip, br")).await;
    assert_eq!(used, None);
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap(),
        json!({ "data": { "__typename": "Query" } })
    );
}

on_both_databases!(answers_are_compressed_when_the_client_asks);
