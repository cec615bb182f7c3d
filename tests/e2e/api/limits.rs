//! Query limits and malformed documents: depth, complexity, parse and validation errors.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::json;

use crate::support::{error_of, spawn_app};

/// 2 + 2·8 + 1 = 19 levels, above the default depth limit of 12.
async fn a_deep_query_is_too_complex(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let deep = format!(
        "{{ leagues {{ nodes {{ {} id {} }} }} }}",
        "games { league { ".repeat(8),
        "} } ".repeat(8)
    );
    let response = server.gql(None, &deep, json!({})).await;
    assert_eq!(error_of(&response), ("QUERY_TOO_COMPLEX", None));
    assert_eq!(response["errors"][0]["extensions"]["limit"], "depth");
}

/// Twenty full pages of leagues in one request exceed the complexity limit.
async fn a_wide_query_is_too_complex(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let wide: String = (1..=20)
        .map(|i| format!("l{i}: leagues(first: 100) {{ nodes {{ id name game }} }} "))
        .collect();
    let response = server.gql(None, &format!("{{ {wide} }}"), json!({})).await;
    assert_eq!(error_of(&response), ("QUERY_TOO_COMPLEX", None));
    assert_eq!(response["errors"][0]["extensions"]["limit"], "complexity");
}

/// A document that does not parse, or names a field of no type, gets the GraphQL codes.
async fn malformed_documents_get_parse_and_validation_codes(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let response = server.gql(None, "{ leagues { nodes { id } ", json!({})).await;
    assert_eq!(error_of(&response), ("GRAPHQL_PARSE_FAILED", None));
    let response = server.gql(None, "{ leagues { nodes { colour } } }", json!({})).await;
    assert_eq!(error_of(&response), ("GRAPHQL_VALIDATION_FAILED", None));
}

on_both_databases!(
    a_deep_query_is_too_complex,
    a_wide_query_is_too_complex,
    malformed_documents_get_parse_and_validation_codes,
);
