//! `Query.scoringSystems` and `Query.aggregations` say exactly what the scoring catalogue
//! says, field by field, for every system and every aggregation kind, so a client that
//! builds its forms from them cannot drift from the rules the server scores by. The
//! expected values are read from the catalogue's own serialisation (enum values in
//! SCREAMING_SNAKE_CASE), not from the gateway's mapping.

use async_graphql::Request;
use league_gateway::{GatewayConfig, GatewaySchema, Shutdown, build_schema};
use league_projections::GameKind;
use league_scoring::{Aggregation, catalogue};
use serde_json::{Value, json};

async fn schema() -> (GatewaySchema, league_testkit::TestDatabase) {
    let db = league_testkit::sqlite();
    let app = league_app::App::open(&db.url).await.expect("open the test database");
    (build_schema(app, &GatewayConfig::new("admin"), Shutdown::default()), db)
}

async fn data(query: &str) -> Value {
    let (schema, _db) = schema().await;
    let response = serde_json::to_value(schema.execute(Request::new(query)).await)
        .expect("a response is JSON");
    assert!(response.get("errors").is_none(), "{}", response["errors"]);
    response["data"].clone()
}

/// `eliminatedYear` / `BlueMax` → `ELIMINATED_YEAR` / `BLUE_MAX` (a GraphQL enum value).
fn screaming_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// A catalogue enum value as GraphQL spells it, from its serde name.
fn graphql_value(value: &Value) -> Value {
    Value::String(screaming_snake(value.as_str().expect("a catalogue enum serialises as a string")))
}

#[tokio::test]
async fn scoring_systems_answer_what_the_catalogue_says_for_every_system() {
    let answer = data(
        "{ scoringSystems { system cliName displayName aliases resultShape minPlayersPerGame \
         maxPlayersPerGame requires { field description } concessionScoring rule source \
         description ratingKind } }",
    )
    .await;
    let systems = answer["scoringSystems"].as_array().expect("a list of systems");
    let catalogue = catalogue();
    assert_eq!(systems.len(), catalogue.len());
    for (got, info) in systems.iter().zip(&catalogue) {
        let facts = serde_json::to_value(info).expect("the catalogue serialises");
        let expected = json!({
            "system": info.graphql_name,
            "cliName": info.name,
            "displayName": info.display_name,
            "aliases": info.aliases,
            "resultShape": graphql_value(&facts["resultKind"]),
            "minPlayersPerGame": info.players_per_game.min,
            "maxPlayersPerGame": info.players_per_game.max,
            "requires": info.needs.iter().map(|field| json!({
                "field": graphql_value(&serde_json::to_value(field).expect("serialises")),
                "description": field.description(),
            })).collect::<Vec<_>>(),
            "concessionScoring": graphql_value(&facts["concession"]),
            "rule": info.rule,
            "source": info.source,
            "description": info.description,
            "ratingKind": screaming_snake(&format!("{:?}", GameKind::of(info.system))),
        });
        assert_eq!(got, &expected, "{}", info.name);
    }
}

#[tokio::test]
async fn aggregations_answer_what_the_catalogue_says_for_every_kind() {
    let answer = data("{ aggregations { kind displayName rule takesN } }").await;
    let expected: Vec<Value> = Aggregation::KINDS
        .iter()
        .map(|info| {
            json!({
                "kind": info.graphql_name,
                "displayName": info.display_name,
                "rule": info.rule,
                "takesN": info.takes_n,
            })
        })
        .collect();
    assert_eq!(answer["aggregations"], Value::Array(expected));
}

#[test]
fn the_screaming_snake_spelling_matches_graphql_enum_values() {
    assert_eq!(screaming_snake("eliminatedYear"), "ELIMINATED_YEAR");
    assert_eq!(screaming_snake("BlueMax"), "BLUE_MAX");
    assert_eq!(screaming_snake("asSolo"), "AS_SOLO");
}
