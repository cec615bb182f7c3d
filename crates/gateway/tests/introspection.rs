//! Introspection under the default limits: the exact documents that GraphiQL, codegen tools
//! and client libraries send to read the schema are answered, while a document nested deeper
//! than any of them, or a data query beyond the data depth limit, is still refused.
//!
//! The query texts are vendored verbatim: `getIntrospectionQuery()` of graphql-js 16.15 and
//! graphql-core 3.2's `get_introspection_query()` with every option switched on.

use async_graphql::Request;
use league_gateway::{GatewayConfig, GatewaySchema, Shutdown, build_schema};
use serde_json::Value;

const GRAPHQL_JS: &str = include_str!("queries/graphql-js-introspection.graphql");
const GRAPHQL_CORE_ALL_OPTIONS: &str =
    include_str!("queries/graphql-core-introspection-all-options.graphql");

async fn schema() -> (GatewaySchema, league_testkit::TestDatabase) {
    let db = league_testkit::sqlite();
    let app = league_app::App::open(&db.url).await.expect("open the test database");
    (build_schema(app, &GatewayConfig::new("admin"), Shutdown::default()), db)
}

async fn run(schema: &GatewaySchema, query: &str) -> Value {
    let response = schema.execute(Request::new(query)).await;
    serde_json::to_value(&response).expect("a response is JSON")
}

fn type_names(response: &Value) -> Vec<&str> {
    response["data"]["__schema"]["types"]
        .as_array()
        .unwrap_or_else(|| panic!("no types in {response}"))
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect()
}

#[tokio::test]
async fn the_standard_introspection_queries_pass_the_default_limits() {
    let (schema, _db) = schema().await;
    for (name, query) in
        [("graphql-js", GRAPHQL_JS), ("graphql-core all options", GRAPHQL_CORE_ALL_OPTIONS)]
    {
        let response = run(&schema, query).await;
        assert!(response.get("errors").is_none(), "{name}: {}", response["errors"]);
        let names = type_names(&response);
        for expected in ["Query", "Mutation", "Subscription", "League", "Standing"] {
            assert!(names.contains(&expected), "{name}: no type {expected} in {names:?}");
        }
        assert_eq!(response["data"]["__schema"]["queryType"]["name"], "Query", "{name}");
    }
}

fn nested_introspection(levels: usize) -> String {
    format!(
        "{{ __schema {{ types {{ {} name {} }} }} }}",
        "fields { type { ".repeat(levels),
        "} } ".repeat(levels)
    )
}

#[tokio::test]
async fn introspection_deeper_than_its_own_limit_is_refused() {
    let (schema, _db) = schema().await;
    // 2 + 2·9 + 1 = 21 levels: above the introspection limit of 20.
    let response = run(&schema, &nested_introspection(9)).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "QUERY_TOO_COMPLEX", "{response}");
    assert_eq!(response["errors"][0]["extensions"]["max"], 20);
    // 2 + 2·8 + 1 = 19 levels pass.
    let response = run(&schema, &nested_introspection(8)).await;
    assert!(response.get("errors").is_none(), "{response}");
}

#[tokio::test]
async fn data_queries_keep_the_data_depth_limit() {
    let (schema, _db) = schema().await;
    // 2 + 2·6 + 1 = 15 levels of data, introspection beside it does not lift the limit.
    let deep = format!(
        "{{ __typename leagues {{ nodes {{ {} id {} }} }} }}",
        "games { league { ".repeat(6),
        "} } ".repeat(6)
    );
    let response = run(&schema, &deep).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "QUERY_TOO_COMPLEX", "{response}");
    assert_eq!(response["errors"][0]["extensions"]["max"], 12);
    // A fragment spread at the top is judged as data, whatever it holds.
    let spread = format!(
        "query {{ ...F }} fragment F on Query {{ __schema {{ types {{ {} name {} }} }} }}",
        "fields { type { ".repeat(6),
        "} } ".repeat(6)
    );
    let response = run(&schema, &spread).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "QUERY_TOO_COMPLEX", "{response}");
}
