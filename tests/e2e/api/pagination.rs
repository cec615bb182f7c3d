//! Relay connections: pages follow cursors, in registration and creation order.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::json;

use crate::api::oracle::running_league;
use crate::support::spawn_app;

/// Players page by cursor: the first page and the rest give every player once, in order.
async fn players_page_by_cursor(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, players, _games) = running_league(&server).await;
    let page = server
        .data(
            None,
            "{ players(first: 3) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } }",
            json!({}),
        )
        .await;
    assert_eq!(page["players"]["totalCount"], 8);
    assert_eq!(page["players"]["pageInfo"]["hasNextPage"], true);
    let next = server
        .data(None, "query($a: String) { players(first: 100, after: $a) { pageInfo { hasNextPage hasPreviousPage } nodes { id } } }",
              json!({ "a": page["players"]["pageInfo"]["endCursor"] }))
        .await;
    let ids: Vec<&str> = page["players"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .chain(next["players"]["nodes"].as_array().unwrap())
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, players.iter().map(|p| p.id.as_str()).collect::<Vec<_>>());
    assert_eq!(next["players"]["pageInfo"]["hasNextPage"], false);
    assert_eq!(next["players"]["pageInfo"]["hasPreviousPage"], true);
}

/// `players(search:)` lists the players whose name holds the search, ignoring case, in
/// registration order, paged by cursor like the whole list; a blank search lists everyone.
async fn players_are_found_by_name(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let olga = server.register("Olga Petrova").await;
    server.register("Pat").await;
    let olaf = server.register("olaf").await;
    let query = "query($s: String, $a: String) { players(first: 1, after: $a, search: $s) {
        totalCount pageInfo { hasNextPage endCursor } nodes { id name } } }";
    let first = server.data(None, query, json!({ "s": " OL" })).await;
    assert_eq!(first["players"]["totalCount"], 2);
    assert_eq!(first["players"]["nodes"], json!([{ "id": olga.id, "name": "Olga Petrova" }]));
    let after = &first["players"]["pageInfo"]["endCursor"];
    let next = server.data(None, query, json!({ "s": "ol", "a": after })).await;
    assert_eq!(next["players"]["nodes"], json!([{ "id": olaf.id, "name": "olaf" }]));
    assert_eq!(next["players"]["pageInfo"]["hasNextPage"], false);
    let blank = server.data(None, query, json!({ "s": "  " })).await;
    assert_eq!(blank["players"]["totalCount"], 3);
    let none = server.data(None, query, json!({ "s": "zz" })).await;
    assert_eq!(none["players"]["totalCount"], 0);
}

/// Leagues are listed in creation order.
async fn leagues_are_listed_in_creation_order(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _players, _games) = running_league(&server).await;
    let later = server.create_league("BAF", 7, None).await;
    let data = server.data(None, "{ leagues { totalCount nodes { id } } }", json!({})).await;
    assert_eq!(data["leagues"]["totalCount"], 2);
    assert_eq!(data["leagues"]["nodes"], json!([{ "id": league }, { "id": later }]));
}

/// A league's audit log pages by cursor: small pages give the league's events once each, in
/// order, as one large page does.
async fn league_events_page_by_cursor(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, _players, _games) = running_league(&server).await;
    let all = server.events(Some(&league)).await;
    let mut paged = Vec::new();
    let mut after = serde_json::Value::Null;
    loop {
        let data = server
            .data(
                None,
                "query($l: ID, $a: String) {
                   events(leagueId: $l, first: 3, after: $a) {
                     pageInfo { hasNextPage endCursor } nodes { position }
                   }
                 }",
                json!({ "l": league, "a": after }),
            )
            .await;
        let page = &data["events"];
        paged.extend(page["nodes"].as_array().unwrap().iter().map(|n| n["position"].clone()));
        if page["pageInfo"]["hasNextPage"] == false {
            break;
        }
        after = page["pageInfo"]["endCursor"].clone();
    }
    let expected: Vec<_> = all.iter().map(|e| e["position"].clone()).collect();
    assert!(expected.len() > 3, "more than one page");
    assert_eq!(paged, expected);
}

on_both_databases!(
    players_page_by_cursor,
    players_are_found_by_name,
    leagues_are_listed_in_creation_order,
    league_events_page_by_cursor
);
