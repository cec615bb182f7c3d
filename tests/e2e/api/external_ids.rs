//! External ids (`docs/tournaments.md#external-ids`): a walk-in list's `wdr` ids are
//! recorded on the players; a tournament's standings export ends with a `wdr` column once
//! some entrant has one; the access request lists the id; a player records their own; a
//! stranger may not; an erased player's id is gone from the exports and the access request;
//! a list giving an id to a player who holds no key is refused whole.

use league_domain::{DomainEvent, PersonalText, PlayerEvent, PlayerRegistered, player_stream_id};
use league_store::{ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::support::{ADMIN, spawn_app};

const CREATE_TOURNAMENT: &str = "mutation { createTournament(input: {name: \"Ids Open\", game: \"Diplomacy\", scoringSystem: SQUARES, playersPerBoard: 7, rounds: 2, tournamentScoring: \"sum-all-rounds\"}) { id } }";
const WALK_INS: &str = "mutation($c: ID!, $l: String!) {
    walkIns(input: {competitionId: $c, list: $l}) { line player { id } } }";
const EXPORT: &str = "query($id: ID!) { tournament(id: $id) {
    csv: export(format: CSV, table: STANDINGS) json: export(format: JSON) } }";
const RECORD: &str = "mutation($p: ID, $s: String!, $i: String!) {
    recordExternalId(playerId: $p, system: $s, id: $i) }";
const PERSONAL_DATA: &str = "query($p: ID) { personalData(playerId: $p) }";

/// The standings CSV's lines of `player`'s row, and the header.
fn standings_csv(export: &Value) -> Vec<String> {
    export["tournament"]["csv"].as_str().expect("csv").lines().map(str::to_owned).collect()
}

fn row_of<'a>(lines: &'a [String], player: &str) -> &'a str {
    lines.iter().find(|l| l.contains(player)).map(String::as_str).expect("a row of the player")
}

async fn walk_in_wdr_ids_reach_the_exports_and_go_with_an_erasure(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let tournament = server.data(Some(ADMIN), CREATE_TOURNAMENT, json!({})).await;
    let tournament = tournament["createTournament"]["id"].as_str().expect("id").to_owned();

    // Before any id: the standings header is as it always was.
    let list = "name\nNoor Early\n";
    server.data(Some(ADMIN), WALK_INS, json!({ "c": tournament, "l": list })).await;
    let before = server.data(None, EXPORT, json!({ "id": tournament })).await;
    let header = standings_csv(&before)[0].clone();
    assert!(!header.contains("wdr"), "{header}");
    assert!(!before["tournament"]["json"].as_str().unwrap().contains("wdr"));

    let list = "name,wdr\nAnn Lee,1234\nBob Roe,\nCid Poe,99\n";
    let data = server.data(Some(ADMIN), WALK_INS, json!({ "c": tournament, "l": list })).await;
    let ids: Vec<String> = (data["walkIns"].as_array().expect("walkIns").iter())
        .map(|w| w["player"]["id"].as_str().unwrap().to_owned())
        .collect();
    let (ann, bob) = (ids[0].clone(), ids[1].clone());

    let export = server.data(None, EXPORT, json!({ "id": tournament })).await;
    let lines = standings_csv(&export);
    assert_eq!(lines[0], format!("{header},wdr"));
    assert!(row_of(&lines, &ann).ends_with(",1234"), "{lines:?}");
    assert!(row_of(&lines, &bob).ends_with(','), "{lines:?}");
    let json: Value =
        serde_json::from_str(export["tournament"]["json"].as_str().unwrap()).expect("json");
    let standing = |player: &str| {
        json["standings"].as_array().unwrap().iter().find(|s| s["playerId"] == player).cloned()
    };
    assert_eq!(standing(&ann).unwrap()["wdr"], "1234");
    assert!(standing(&bob).unwrap().get("wdr").is_none());

    // The same list again records nothing twice.
    let count = server.event_count().await;
    server.data(Some(ADMIN), WALK_INS, json!({ "c": tournament, "l": list })).await;
    assert_eq!(server.event_count().await, count);

    // Bob records his own; a stranger may not record Ann's.
    let stranger = server.register("Dee Stranger").await;
    let refused =
        server.gql(Some(&stranger.token), RECORD, json!({ "p": ann, "s": "wdr", "i": "5" })).await;
    assert_eq!(refused["errors"][0]["extensions"]["code"], "FORBIDDEN", "{refused}");
    let bad = server.gql(Some(ADMIN), RECORD, json!({ "p": bob, "s": "wdr", "i": "x" })).await;
    assert_eq!(bad["errors"][0]["extensions"]["code"], "BAD_USER_INPUT", "{bad}");
    let done = server.data(Some(ADMIN), RECORD, json!({ "p": bob, "s": "wdr", "i": "777" })).await;
    assert_eq!(done["recordExternalId"], true);
    let export = server.data(None, EXPORT, json!({ "id": tournament })).await;
    assert!(row_of(&standings_csv(&export), &bob).ends_with(",777"));

    // The access request lists Ann's id; the log holds it sealed only.
    let access = server.data(Some(ADMIN), PERSONAL_DATA, json!({ "p": ann })).await;
    assert_eq!(access["personalData"]["externalIds"], json!([{ "system": "wdr", "id": "1234" }]));
    let stored = access["personalData"]["events"].to_string();
    assert!(stored.contains("ExternalIdRecorded") && !stored.contains("1234"), "{stored}");

    // Erased: Ann's id is in no export and no access request; the others' stay.
    let erase = "mutation($p: ID, $r: String!) { erasePlayer(playerId: $p, reason: $r) { id } }";
    server.data(Some(ADMIN), erase, json!({ "p": ann, "r": "asked" })).await;
    let export = server.data(None, EXPORT, json!({ "id": tournament })).await;
    let lines = standings_csv(&export);
    assert!(row_of(&lines, &ann).ends_with(','), "{lines:?}");
    assert!(!export.to_string().contains("1234"));
    assert!(row_of(&lines, &bob).ends_with(",777"));
    let access = server.data(Some(ADMIN), PERSONAL_DATA, json!({ "p": ann })).await;
    assert_eq!(access["personalData"]["externalIds"], json!([]));
}

on_both_databases!(walk_in_wdr_ids_reach_the_exports_and_go_with_an_erasure);

/// A player registered before personal data was sealed holds no key, so no id of theirs can
/// be sealed: a walk-in list giving them one is refused before anyone on it is registered or
/// entered, and the list without their id goes through.
async fn a_list_giving_an_id_to_a_player_without_a_key_changes_nothing(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let tournament = server.data(Some(ADMIN), CREATE_TOURNAMENT, json!({})).await;
    let tournament = tournament["createTournament"]["id"].as_str().expect("id").to_owned();
    // Registered as an older build wrote it: schema version 1, the name plain, no key.
    let old = uuid::Uuid::now_v7();
    let registered = DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
        player_id: old.into(),
        name: PersonalText::Plain("Old Timer".into()),
        token_hash: "0".repeat(64),
    }));
    let row = NewEvent::new(registered.event_type(), 1, registered.payload());
    let stream = StreamId::new(player_stream_id(old.into())).unwrap();
    let store = server.app().store();
    store.append(&stream, ExpectedVersion::Any, vec![row], Metadata::default()).await.unwrap();
    server.app().wait_applied(store.head_position().await.unwrap()).await.unwrap();

    let list = "name,wdr\nNew Person,5\nOld Timer,7\n";
    let existing = json!([{ "line": 3, "playerId": old }]);
    let walk_ins = "mutation($c: ID!, $l: String!, $e: [UseExistingInput!]) {
        walkIns(input: {competitionId: $c, list: $l, useExisting: $e}) { line } }";
    let count = server.event_count().await;
    let refused = server
        .gql(Some(ADMIN), walk_ins, json!({ "c": tournament, "l": list, "e": existing }))
        .await;
    assert_eq!(refused["errors"][0]["extensions"]["code"], "CONFLICT", "{refused}");
    assert!(refused["errors"][0]["message"].as_str().unwrap().contains("line 3"), "{refused}");
    assert_eq!(server.event_count().await, count, "nobody registered or entered");

    let list = "name,wdr\nNew Person,5\nOld Timer,\n";
    let done = server
        .data(Some(ADMIN), walk_ins, json!({ "c": tournament, "l": list, "e": existing }))
        .await;
    assert_eq!(done["walkIns"].as_array().expect("walkIns").len(), 2, "{done}");
}

on_both_databases!(a_list_giving_an_id_to_a_player_without_a_key_changes_nothing);
