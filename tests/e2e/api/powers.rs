//! Power assignment on both databases (`docs/tournaments.md#power-assignment`): players rank
//! the powers themselves, an organiser pastes the rest (a bad list records nothing), a round
//! seeded by preferences gives each their choice and verifies; a director sets a board's
//! powers; a round by ordered choice waits for each pick in turn. GraphQL and the CLI show
//! the same rankings and choices.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::confirmation::{report, seats_of};
use super::tournament::{check_in, create, diplomacy_input, diplomacy_result, enter, seed};
use crate::replay::{league, stdout};
use crate::support::{ADMIN, TestApp, spawn_app};

const POWERS: &str = "query($t: ID!) {
  tournament(id: $t) {
    powerAssignment { method topBoardOrderedChoice }
    powerPreferences { player { id } powers }
    powerPreferencesCsv
  }
}";
const MINE: &str =
    "query($t: ID!) { tournament(id: $t) { powerPreferences { player { id } powers } } }";
const METHOD: &str = "mutation($t: ID!, $m: PowerAssignment!) {
  changePowerAssignment(tournamentId: $t, method: $m) { id } }";
const RANK: &str = "mutation($t: ID!, $p: ID, $w: [String!]!) {
  submitPowerPreferences(tournamentId: $t, playerId: $p, powers: $w) { id } }";
const PASTE: &str = "mutation($t: ID!, $l: String!) {
  pastePowerPreferences(tournamentId: $t, list: $l) { id } }";
const SET: &str = "mutation($t: ID!, $b: ID!, $s: [PowerSeatInput!]!) {
  setBoardPowers(tournamentId: $t, boardId: $b, seats: $s) { id } }";
const CHOOSE: &str = "mutation($t: ID!, $b: ID!, $w: String!) {
  choosePower(tournamentId: $t, boardId: $b, power: $w) { id } }";
const CHOICE: &str = "query($t: ID!, $b: ID!) {
  tournament(id: $t) { board(id: $b) { powerChoice { order { id } picked next { id } } } } }";

fn code(response: &Value) -> &Value {
    &response["errors"][0]["extensions"]["code"]
}

/// The power each player of `board` plays: `(player, label)` in seat order.
async fn powers_of(server: &TestApp, tournament: &str, board: &str) -> Vec<(String, String)> {
    server
        .data(
            None,
            "query($t: ID!, $b: ID!) { tournament(id: $t) { board(id: $b) { seats { label player { id } } } } }",
            json!({ "t": tournament, "b": board }),
        )
        .await["tournament"]["board"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (s["player"]["id"].as_str().unwrap().to_owned(), s["label"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn power_of(seats: &[(String, String)], player: &str) -> String {
    seats.iter().find(|(p, _)| p == player).map(|(_, power)| power.clone()).unwrap()
}

async fn powers_by_preference_by_hand_and_by_choice(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(7, "Ranker").await;
    let id = create(&server, diplomacy_input(2)).await["data"]["createTournament"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for player in &players {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
        check_in(&server, player, &id, 1, false).await;
    }
    let state = server.data(Some(ADMIN), POWERS, json!({ "t": id })).await["tournament"].clone();
    assert_eq!(
        state["powerAssignment"],
        json!({ "method": "AUTOMATIC", "topBoardOrderedChoice": false })
    );

    // A player ranks their own powers, never another's; only a director sets the method.
    let own = json!({ "t": id, "w": ["france", "Eng"] });
    let ranked = server.gql(Some(&players[0].token), RANK, own).await;
    assert!(ranked["errors"].is_null(), "{ranked}");
    let another = json!({ "t": id, "p": players[1].id, "w": ["France"] });
    assert_eq!(code(&server.gql(Some(&players[0].token), RANK, another).await), "FORBIDDEN");
    let by_player = json!({ "t": id, "m": "PREFERENCES" });
    assert_eq!(
        code(&server.gql(Some(&players[0].token), METHOD, by_player.clone()).await),
        "FORBIDDEN"
    );
    assert!(server.gql(Some(ADMIN), METHOD, by_player).await["errors"].is_null());

    // A pasted list with one bad line records nothing; the good one records every line.
    let bad = "Ranker 2, Germany, Italy\nNobody Known, Turkey\n";
    let refused = server.gql(Some(ADMIN), PASTE, json!({ "t": id, "l": bad })).await;
    assert_eq!(code(&refused), "BAD_USER_INPUT", "{refused}");
    let before = server.data(Some(ADMIN), POWERS, json!({ "t": id })).await;
    assert_eq!(before["tournament"]["powerPreferences"].as_array().unwrap().len(), 1);
    let list = format!("ranker 2, Germany, Italy\nRanker 3; Turkey\n{}\tRussia\n", players[3].id);
    let pasted = server.gql(Some(ADMIN), PASTE, json!({ "t": id, "l": list })).await;
    assert!(pasted["errors"].is_null(), "{pasted}");
    let state = server.data(Some(ADMIN), POWERS, json!({ "t": id })).await["tournament"].clone();
    assert_eq!(state["powerPreferences"][0]["powers"], json!(["France", "England"]));
    assert_eq!(state["powerPreferences"].as_array().unwrap().len(), 4);
    let mine = server.data(Some(&players[1].token), MINE, json!({ "t": id })).await;
    assert_eq!(mine["tournament"]["powerPreferences"][0]["powers"], json!(["Germany", "Italy"]));
    assert_eq!(mine["tournament"]["powerPreferences"].as_array().unwrap().len(), 1, "own only");

    // The CLI exports the same rankings (CSV and JSON).
    let csv = league(&["tournament", "powers", "export", "--csv", "--tournament", &id], &db);
    assert_eq!(csv.status.code(), Some(0), "{}", stdout(&csv));
    assert_eq!(stdout(&csv), state["powerPreferencesCsv"].as_str().unwrap());
    let json_out = league(&["tournament", "powers", "export", "--tournament", &id], &db);
    let rows: Value = serde_json::from_str(&stdout(&json_out)).unwrap();
    for (row, listed) in
        rows.as_array().unwrap().iter().zip(state["powerPreferences"].as_array().unwrap())
    {
        assert_eq!(row["playerId"], listed["player"]["id"]);
        assert_eq!(row["powers"], listed["powers"]);
    }

    // Seeded by preferences: everyone gets their first choice (nobody shares one).
    let seeded = seed(&server, &id, 1).await;
    let board = seeded["data"]["seedRound"]["boards"][0]["id"].as_str().unwrap().to_owned();
    let seats = powers_of(&server, &id, &board).await;
    for (player, power) in [(0, "France"), (1, "Germany"), (2, "Turkey"), (3, "Russia")] {
        assert_eq!(power_of(&seats, &players[player].id), power, "player {player}");
    }
    let verified = league(&["tournament", "verify-seeding", "--tournament", &id], &db);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));

    // A director swaps France and Germany by hand, then sets them back.
    let swapped: Vec<Value> = seats
        .iter()
        .map(|(player, power)| {
            let power = match power.as_str() {
                "France" => "Germany",
                "Germany" => "France",
                p => p,
            };
            json!({ "power": power, "playerId": player })
        })
        .collect();
    let set = server.gql(Some(ADMIN), SET, json!({ "t": id, "b": board, "s": swapped })).await;
    assert!(set["errors"].is_null(), "{set}");
    assert_eq!(power_of(&powers_of(&server, &id, &board).await, &players[0].id), "Germany");
    let back: Vec<Value> =
        seats.iter().map(|(player, power)| json!({ "power": power, "playerId": player })).collect();
    let set = server.gql(Some(ADMIN), SET, json!({ "t": id, "b": board, "s": back })).await;
    assert!(set["errors"].is_null(), "{set}");
    assert_eq!(powers_of(&server, &id, &board).await, seats);

    // Round 2 by ordered choice: the best placed picks first.
    let round_one = seats_of(&server, &id, &board).await;
    let reported = report(&server, ADMIN, &id, &board, diplomacy_result(&round_one)).await;
    assert!(reported["errors"].is_null(), "{reported}");
    let method = json!({ "t": id, "m": "ORDERED_CHOICE" });
    assert!(server.gql(Some(ADMIN), METHOD, method).await["errors"].is_null());
    for player in &players {
        check_in(&server, player, &id, 2, false).await;
    }
    let seeded = seed(&server, &id, 2).await;
    let board = seeded["data"]["seedRound"]["boards"][0]["id"].as_str().unwrap().to_owned();
    let choice = server.data(None, CHOICE, json!({ "t": id, "b": board })).await["tournament"]
        ["board"]["powerChoice"]
        .clone();
    let order: Vec<String> = choice["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(order[0], round_one[0], "round 1's Austria (10 centres) is best placed");
    assert_eq!(choice["next"]["id"], order[0].as_str());
    let seats_now = seats_of(&server, &id, &board).await;
    let early = report(&server, ADMIN, &id, &board, diplomacy_result(&seats_now)).await;
    assert_eq!(code(&early), "CONFLICT", "a choosing board takes no result");
    let token = |player: &str| players.iter().find(|p| p.id == player).unwrap().token.clone();
    let pick = |power: &str| json!({ "t": id, "b": board, "w": power });
    assert_eq!(code(&server.gql(Some(&token(&order[1])), CHOOSE, pick("Italy")).await), "CONFLICT");
    let picked = server.gql(Some(&token(&order[0])), CHOOSE, pick("Italy")).await;
    assert!(picked["errors"].is_null(), "{picked}");
    let taken = server.gql(Some(&token(&order[1])), CHOOSE, pick("italy")).await;
    assert_eq!(code(&taken), "CONFLICT", "Italy is taken");
    for (player, power) in order[1..5].iter().zip(["Austria", "England", "France", "Germany"]) {
        let picked = server.gql(Some(&token(player)), CHOOSE, pick(power)).await;
        assert!(picked["errors"].is_null(), "{picked}");
    }
    let shown = league(&["tournament", "powers", "show", "--tournament", &id], &db);
    let shown: Value = serde_json::from_str(&stdout(&shown)).unwrap();
    assert_eq!(shown["assignment"]["method"], "ORDERED_CHOICE");
    assert_eq!(
        shown["choosing"][0]["picked"],
        json!(["Italy", "Austria", "England", "France", "Germany"])
    );
    assert_eq!(shown["choosing"][0]["next"], order[5].as_str());

    // Last, as the server does not read what another process writes to SQLite: the CLI
    // makes the sixth pick, then gives the first picker Turkey and the last Italy.
    let cli = league(
        &[
            "tournament",
            "powers",
            "choose",
            "--tournament",
            &id,
            "--board",
            &board,
            "--player",
            &order[5],
            "--power",
            "Russia",
        ],
        &db,
    );
    assert_eq!(cli.status.code(), Some(0), "{}", stdout(&cli));
    let shown: Value = serde_json::from_str(&stdout(&cli)).unwrap();
    assert_eq!(shown["choosing"], json!([]), "six picks leave the seventh the power left");
    let call = league(&["tournament", "boards", "--round", "2", "--tournament", &id], &db);
    let name = |player: &str| {
        let n = (0..7).find(|i| players[*i].id == player).unwrap();
        format!("Ranker {}", n + 1)
    };
    assert!(
        stdout(&call).contains(&format!("Turkey     {}", name(&order[6]))),
        "{}",
        stdout(&call)
    );
    let mut args: Vec<&str> =
        vec!["tournament", "powers", "set", "--tournament", &id, "--board", &board];
    let seat_args: Vec<String> = order
        .iter()
        .zip(["Turkey", "Austria", "England", "France", "Germany", "Russia", "Italy"])
        .map(|(player, power)| format!("{power}={player}"))
        .collect();
    for seat in &seat_args {
        args.extend(["--seat", seat.as_str()]);
    }
    let set = league(&args, &db);
    assert_eq!(set.status.code(), Some(0), "{}", stdout(&set));
    let call = stdout(&league(&["tournament", "boards", "--round", "2", "--tournament", &id], &db));
    assert!(call.contains(&format!("Turkey     {}", name(&order[0]))), "{call}");
    assert!(call.contains(&format!("Italy      {}", name(&order[6]))), "{call}");
    let verified = league(&["tournament", "verify-seeding", "--tournament", &id], &db);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));
}

on_both_databases!(powers_by_preference_by_hand_and_by_choice);
