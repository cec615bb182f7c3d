//! Walk-ins and bulk entry (`docs/tournaments.md#walk-ins-and-bulk-entry`): an appointed
//! organiser registers players, previews a list (matches with registered players, bad lines
//! by number) and registers and enters 30 people in one mutation; the same list again
//! appends nothing; a bad line, a caller without the right or a withdrawn player refuses the
//! whole list and appends nothing.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::support::{ADMIN, Player, TestApp, spawn_app};

const PREVIEW: &str = "query($c: ID!, $l: String!) { walkInsPreview(competitionId: $c, list: $l) {
    lines { line name externalIds { system id } matches { player { id name } entered } sameNameAsLines }
    problems { line field message } } }";
const WALK_INS: &str = "mutation($c: ID!, $l: String!, $u: [UseExistingInput!]) {
    walkIns(input: {competitionId: $c, list: $l, useExisting: $u}) {
      line player { id name } registered entered token } }";
const CREATE_TOURNAMENT: &str = "mutation { createTournament(input: {name: \"Walk-in Open\", game: \"Diplomacy\", scoringSystem: SQUARES, playersPerBoard: 7, rounds: 2, tournamentScoring: \"sum-all-rounds\"}) { id } }";

/// An appointed organiser and a tournament they created.
async fn organiser_with_tournament(server: &TestApp) -> (Player, String) {
    let organiser = server.register("Olive Organiser").await;
    let appoint = "mutation($p: ID!) { appointOrganiser(playerId: $p) { id } }";
    server.data(Some(ADMIN), appoint, json!({ "p": organiser.id })).await;
    let data = server.data(Some(&organiser.token), CREATE_TOURNAMENT, json!({})).await;
    let tournament = data["createTournament"]["id"].as_str().expect("tournament id").to_owned();
    (organiser, tournament)
}

async fn entrants(server: &TestApp, tournament: &str) -> Vec<String> {
    let query = "query($id: ID!) { tournament(id: $id) { entrants { player { id } } } }";
    let data = server.data(None, query, json!({ "id": tournament })).await;
    let list = data["tournament"]["entrants"].as_array().cloned().unwrap_or_default();
    list.iter().map(|e| e["player"]["id"].as_str().unwrap_or_default().to_owned()).collect()
}

fn code(response: &Value) -> &str {
    response["errors"][0]["extensions"]["code"].as_str().unwrap_or("none")
}

async fn an_organiser_registers_and_enters_thirty_walk_ins_in_one_step(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (organiser, tournament) = organiser_with_tournament(&server).await;
    let token = Some(organiser.token.as_str());

    // An appointed organiser may register a player on their own (registerPlayer).
    let register =
        "mutation { registerPlayer(input: {name: \"Zoë Müller\"}) { player { id } token } }";
    let data = server.data(token, register, json!({})).await;
    let zoe = data["registerPlayer"]["player"]["id"].as_str().expect("id").to_owned();

    // 30 names, one written as Zoë is, with a WDR id each for some.
    let mut list = String::from("name,wdr\n");
    list.push_str("zoe  MULLER,101\n");
    for i in 2..=30 {
        list.push_str(&format!(
            "Walk-in {i},{}\n",
            if i % 2 == 0 { (100 + i).to_string() } else { String::new() }
        ));
    }
    let preview = server.data(token, PREVIEW, json!({ "c": tournament, "l": list })).await;
    let lines = preview["walkInsPreview"]["lines"].as_array().expect("lines").clone();
    assert_eq!(lines.len(), 30);
    assert_eq!(preview["walkInsPreview"]["problems"], json!([]));
    assert_eq!(
        (lines[0]["line"].clone(), lines[0]["name"].clone()),
        (json!(2), json!("zoe  MULLER"))
    );
    assert_eq!(lines[0]["externalIds"], json!([{ "system": "wdr", "id": "101" }]));
    assert_eq!(
        lines[0]["matches"],
        json!([{ "player": { "id": zoe, "name": "Zoë Müller" }, "entered": false }])
    );
    assert_eq!(lines[1]["matches"], json!([]));

    // One mutation: Zoë is the existing player, 29 are registered; all 30 entered.
    let before = server.event_count().await;
    let picks = json!([{ "line": 2, "playerId": zoe }]);
    let data =
        server.data(token, WALK_INS, json!({ "c": tournament, "l": list, "u": picks })).await;
    let walked_in = data["walkIns"].as_array().expect("walkIns").clone();
    assert_eq!(walked_in.len(), 30);
    assert_eq!(walked_in[0]["player"]["id"], zoe);
    assert_eq!(
        (walked_in[0]["registered"].clone(), walked_in[0]["token"].clone()),
        (json!(false), Value::Null)
    );
    assert!(walked_in[1..].iter().all(|w| w["registered"] == true && w["entered"] == true));
    // 29 registered, 30 entered, 16 WDR ids recorded (Zoë's and 15 new players').
    assert_eq!(server.event_count().await - before, 29 + 30 + 16);
    let ids: Vec<String> =
        walked_in.iter().map(|w| w["player"]["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(entrants(&server, &tournament).await, ids);
    // Each new player's token signs them in.
    let new_token = walked_in[5]["token"].as_str().expect("a token");
    let me = server.data(Some(new_token), "{ me { id name } }", json!({})).await;
    assert_eq!(me["me"]["name"], "Walk-in 6");

    // The same list again: nobody registered or entered twice, nothing appended; the
    // preview now says all are entered.
    let before = server.event_count().await;
    let again =
        server.data(token, WALK_INS, json!({ "c": tournament, "l": list, "u": picks })).await;
    let again = again["walkIns"].as_array().expect("walkIns").clone();
    let again_ids: Vec<String> =
        again.iter().map(|w| w["player"]["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(again_ids, ids);
    assert!(
        again
            .iter()
            .all(|w| w["registered"] == false && w["entered"] == false && w["token"].is_null())
    );
    assert_eq!(server.event_count().await, before);
}

on_both_databases!(an_organiser_registers_and_enters_thirty_walk_ins_in_one_step);

async fn a_bad_line_or_a_missing_right_refuses_the_whole_list(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (organiser, tournament) = organiser_with_tournament(&server).await;
    let token = Some(organiser.token.as_str());

    // Bad lines are listed by the preview and refuse the commit, appending nothing.
    let list = "Ann\nBob,not-a-number\nCid,1,2\n\nAnn\n";
    let preview = server.data(token, PREVIEW, json!({ "c": tournament, "l": list })).await;
    let problems = &preview["walkInsPreview"]["problems"];
    assert_eq!(problems.as_array().map(Vec::len), Some(2), "{problems:#}");
    assert_eq!(
        (problems[0]["line"].clone(), problems[0]["field"].clone()),
        (json!(2), json!("wdr"))
    );
    assert_eq!(
        (problems[1]["line"].clone(), problems[1]["field"].clone()),
        (json!(3), json!("line"))
    );
    assert_eq!(preview["walkInsPreview"]["lines"][1]["sameNameAsLines"], json!([1]));
    let before = server.event_count().await;
    let response = server.gql(token, WALK_INS, json!({ "c": tournament, "l": list })).await;
    assert_eq!(code(&response), "BAD_USER_INPUT", "{response:#}");
    let message = response["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("line 2") && message.contains("line 3"), "{message}");
    assert_eq!(server.event_count().await, before);

    // A player who organises nothing, an anonymous caller: refused before anything else.
    let player = server.register("Pat Player").await;
    for (token, expected) in [(Some(player.token.as_str()), "FORBIDDEN"), (None, "UNAUTHENTICATED")]
    {
        let response = server.gql(token, PREVIEW, json!({ "c": tournament, "l": "Ann" })).await;
        assert_eq!(code(&response), expected, "{response:#}");
        let response = server.gql(token, WALK_INS, json!({ "c": tournament, "l": "Ann" })).await;
        assert_eq!(code(&response), expected, "{response:#}");
    }

    // A co-organiser who is no appointed organiser enters registered players but registers
    // nobody new.
    let add = "mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }";
    server.data(token, add, json!({ "c": tournament, "p": player.id })).await;
    let co = Some(player.token.as_str());
    let before = server.event_count().await;
    let response = server.gql(co, WALK_INS, json!({ "c": tournament, "l": "Ann" })).await;
    assert_eq!(code(&response), "FORBIDDEN", "{response:#}");
    assert_eq!(server.event_count().await, before);
    let picks = json!([{ "line": 1, "playerId": organiser.id }]);
    let data =
        server.data(co, WALK_INS, json!({ "c": tournament, "l": "Olive", "u": picks })).await;
    assert_eq!(data["walkIns"][0]["entered"], true);

    // A player who withdrew cannot be entered again: the whole list is refused.
    let withdraw = "mutation($t: ID!, $p: ID) { withdrawFromTournament(tournamentId: $t, playerId: $p) { id } }";
    server.data(token, withdraw, json!({ "t": tournament, "p": organiser.id })).await;
    let before = server.event_count().await;
    let list = "Dee\nOlive";
    let picks = json!([{ "line": 2, "playerId": organiser.id }]);
    let response =
        server.gql(token, WALK_INS, json!({ "c": tournament, "l": list, "u": picks })).await;
    assert_eq!(code(&response), "CONFLICT", "{response:#}");
    assert_eq!(server.event_count().await, before);
}

on_both_databases!(a_bad_line_or_a_missing_right_refuses_the_whole_list);

async fn walk_ins_subscribe_to_an_open_league(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let league = server.create_league("PLACEMENT", 2, Some(4)).await;
    let data = server.data(Some(ADMIN), WALK_INS, json!({ "c": league, "l": "Ann\nBob" })).await;
    let ids: Vec<&str> = data["walkIns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["player"]["id"].as_str().unwrap())
        .collect();
    let query = "query($id: ID!) { league(id: $id) { players { id } } }";
    let league = server.data(None, query, json!({ "id": league })).await;
    let players: Vec<&str> = league["league"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(players, ids);
}

on_both_databases!(walk_ins_subscribe_to_an_open_league);

async fn the_cli_previews_and_enters_a_list_from_a_file(db: TestDatabase) {
    use crate::replay::{league, stderr, stdout};
    let server = spawn_app(&db.url).await;
    let data = server.data(Some(ADMIN), CREATE_TOURNAMENT, json!({})).await;
    let tournament = data["createTournament"]["id"].as_str().expect("id").to_owned();
    let ann = server.register("Ann Émile").await;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("walk-ins.csv");
    std::fs::write(&file, "name,wdr\nann emile,7\nBob,8\n").expect("write the list");
    let file = file.to_string_lossy().into_owned();
    let args = ["tournament", "walk-ins", "--tournament", &tournament, "--file", &file];

    let output = league(&[&args[..], &["--preview"]].concat(), &db);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let preview: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(preview["lines"][0]["matches"][0]["playerId"], ann.id);

    let pick = format!("2={}", ann.id);
    let output = league(&[&args[..], &["--use", &pick]].concat(), &db);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with(&format!("line 2\t{}\tAnn Émile\tentered", ann.id)), "{text}");
    assert!(lines[1].contains("\tBob\tregistered and entered\ttoken "), "{text}");

    // A bad line: exit 2, nothing appended.
    std::fs::write(&file, "Cid,x\n").expect("write the list");
    let output = league(&args, &db);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    assert!(stderr(&output).contains("line 1: wdr"), "{}", stderr(&output));
}

on_both_databases!(the_cli_previews_and_enters_a_list_from_a_file);
