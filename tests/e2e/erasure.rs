//! Personal data (`docs/personal-data.md`) on SQLite and PostgreSQL: a name is sealed in
//! storage from its registration on; an erasure (GraphQL or `league erase-player`) deletes
//! the person's key, keeps every result, score and standing, keeps the hash chain valid, and
//! from then on every gateway answers with the pseudonym — the name is in no answer, and
//! neither the name nor the key is in the database files (SQLite) or a `pg_dump`
//! (PostgreSQL). The access request (`personalData`, `league export-player`) is the
//! person's own or the site admin's. A backup carries the keys unless `--without-keys`.

use std::process::Command;
use std::time::{Duration, Instant};

use league_store::EventStore;
use league_testkit::{Backend, TestDatabase, on_both_databases};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::api::sessions::{ME, cookie_gql, sign_in};
use crate::api::tournament::{check_in, create, diplomacy_input, enter, seed};
use crate::replay::{league as run_league, stderr, stdout};
use crate::support::{ADMIN, Player, TestApp, error_code, placement_result, spawn_app_on_port};

/// A name that occurs nowhere else, so finding its bytes anywhere means it leaked.
const NAME: &str = "Zenobia Quillfeather";
/// How long another gateway may take to fold an event (it follows the live feed).
const PROPAGATION: Duration = Duration::from_secs(10);

const ERASE: &str = "mutation($p: ID, $r: String!) {
    erasePlayer(playerId: $p, reason: $r) { id name erased }
}";

/// Waits until `server` serves the league as `writer` does (it follows the live feed).
async fn caught_up(server: &TestApp, writer: &TestApp, league: &str) {
    let expected = everything_served(writer, league).await;
    let start = Instant::now();
    while everything_served(server, league).await != expected {
        assert!(start.elapsed() < PROPAGATION, "the gateway lags behind");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every answer a gateway serves about the league and its players, as one text.
async fn everything_served(server: &TestApp, league: &str) -> String {
    let data = server
        .data(
            None,
            "query($l: ID!) {
               league(id: $l) {
                 name players { id name erased }
                 games { id seats { player { id name } } }
                 standings { rank total player { id name } }
               }
               players(first: 100) { edges { node { id name } } }
               ratings(game: PLACEMENT) { nodes { player { id name } } }
             }",
            json!({ "l": league }),
        )
        .await;
    let events = server.events(None).await;
    format!("{data} {}", Value::Array(events))
}

/// A league of four (Zenobia and three others) with every game reported.
async fn played_league(server: &TestApp) -> (Player, Vec<Player>, String) {
    let zenobia = server.register(NAME).await;
    let mut players = vec![zenobia.clone()];
    players.extend(server.register_many(3, "Other").await);
    let league = server.create_league("PLACEMENT", 2, Some(4)).await;
    server.fill(&league, &players).await;
    for (game, seats, _) in server.games(&league).await {
        server.report(ADMIN, &game, &placement_result(&seats)).await;
    }
    (zenobia, players, league)
}

/// The player's key bytes as the key table holds them.
async fn stored_key(db: &TestDatabase, player: &str) -> Option<[u8; 32]> {
    let store = EventStore::connect(&db.url).await.expect("connect");
    let id: Uuid = player.parse().expect("uuid");
    store.person_keys(Some(&[id])).await.expect("keys").remove(&id)
}

/// Everything the database holds, as bytes: the SQLite file and its WAL, or a `pg_dump`.
fn database_bytes(db: &TestDatabase) -> Vec<u8> {
    match db.backend {
        Backend::Sqlite => {
            let path = db.url.trim_start_matches("sqlite://");
            let path = path.split('?').next().expect("path");
            let mut bytes = std::fs::read(path).expect("the SQLite file");
            bytes.extend(std::fs::read(format!("{path}-wal")).unwrap_or_default());
            bytes
        }
        Backend::Postgres => {
            let output = Command::new("pg_dump")
                .args(["--dbname", &db.url, "--no-owner"])
                .output()
                .expect("run pg_dump");
            assert!(output.status.success(), "pg_dump: {}", stderr(&output));
            output.stdout
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// The key as it may appear in storage: raw (SQLite) or as PostgreSQL dumps a bytea.
fn key_forms(key: &[u8; 32]) -> [Vec<u8>; 2] {
    let hex: String = key.iter().map(|byte| format!("{byte:02x}")).collect();
    [key.to_vec(), hex.into_bytes()]
}

async fn erasure_keeps_results_and_the_chain_and_hides_the_name_everywhere(db: TestDatabase) {
    let first = spawn_app_on_port(&db.url, |_| {}).await;
    let second = spawn_app_on_port(&db.url, |_| {}).await;
    let (zenobia, _, league) = played_league(&first).await;
    let before = first.standings(&league, Value::Null).await;

    // Sealed from the registration on: the name is not in storage, the key is.
    let key = stored_key(&db, &zenobia.id).await.expect("a key for every new registration");
    assert!(!contains(&database_bytes(&db), NAME.as_bytes()), "the name is stored in plain");
    caught_up(&second, &first, &league).await;
    let served = everything_served(&second, &league).await;
    assert!(served.contains(NAME), "not served while not erased: {served}");

    let browser = sign_in(&first, "/auth/token", json!({ "token": zenobia.token })).await;
    let data =
        first.data(Some(ADMIN), ERASE, json!({ "p": zenobia.id, "r": "asked by email" })).await;
    let erased = &data["erasePlayer"];
    let pseudonym = erased["name"].as_str().expect("name").to_owned();
    assert_eq!(erased["erased"], true);
    assert_eq!(pseudonym, format!("Erased player {}", &zenobia.id.replace('-', "")[24..]));

    // Every gateway: the pseudonym, never the name; results and standings unchanged.
    let start = Instant::now();
    while !everything_served(&second, &league).await.contains(&pseudonym) {
        assert!(start.elapsed() < PROPAGATION, "the second gateway still shows the name");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for server in [&first, &second] {
        let served = everything_served(server, &league).await;
        assert!(!served.contains(NAME), "a gateway still serves the name: {served}");
        assert_eq!(server.standings(&league, Value::Null).await, before, "standings changed");
        let refused = server.gql(Some(&zenobia.token), "{ __typename }", json!({})).await;
        assert_eq!(error_code(&refused), "UNAUTHENTICATED", "the erased player's token works");
        let me = cookie_gql(server, &browser, true, ME, json!({})).await;
        assert_eq!(me["data"]["me"], Value::Null, "the erased player's session signs in: {me:#}");
    }
    // The erasure is in the log, with who and why.
    let events = first.events(None).await;
    let erasure = events.iter().find(|e| e["type"] == "PlayerErased").expect("erasure");
    assert_eq!(erasure["payload"]["reason"], "asked by email");
    assert_eq!(erasure["payload"]["erasedBy"], "admin");

    // The key is gone, and neither it nor the name is anywhere in the database.
    assert_eq!(stored_key(&db, &zenobia.id).await, None);
    let bytes = database_bytes(&db);
    assert!(!contains(&bytes, NAME.as_bytes()), "the name is in the database");
    for form in key_forms(&key) {
        assert!(!contains(&bytes, &form), "the deleted key's bytes are in the database");
    }
    let verify = run_league(&["verify"], &db);
    assert_eq!(verify.status.code(), Some(0), "verify: {}", stderr(&verify));

    // Once is enough: a second erasure is a conflict and appends nothing.
    let head = first.event_count().await;
    let again = first.gql(Some(ADMIN), ERASE, json!({ "p": zenobia.id, "r": "twice" })).await;
    assert_eq!(error_code(&again), "CONFLICT", "{again}");
    assert_eq!(first.event_count().await, head);
}

async fn players_erase_themselves_but_nobody_else(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let ann = server.register("Ann").await;
    let bob = server.register("Bob").await;
    let head = server.event_count().await;
    for (token, variables, code) in [
        (Some(bob.token.as_str()), json!({ "p": ann.id, "r": "spite" }), "FORBIDDEN"),
        (None, json!({ "p": ann.id, "r": "why" }), "UNAUTHENTICATED"),
        (Some(ADMIN), json!({ "p": ann.id, "r": "  " }), "BAD_USER_INPUT"),
        (Some(ADMIN), json!({ "p": Uuid::now_v7(), "r": "why" }), "NOT_FOUND"),
    ] {
        let response = server.gql(token, ERASE, variables).await;
        assert_eq!(error_code(&response), code, "{response}");
    }
    assert_eq!(server.event_count().await, head, "a refused erasure appended");
    let own = server.data(Some(&ann.token), ERASE, json!({ "r": "leaving the club" })).await;
    assert_eq!(own["erasePlayer"]["erased"], true);
    assert_eq!(own["erasePlayer"]["id"], ann.id);
}

const PERSONAL_DATA: &str = "query($p: ID) { personalData(playerId: $p) }";

async fn the_access_request_is_the_persons_own_or_the_site_admins(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let (zenobia, players, league) = played_league(&server).await;
    sign_in(&server, "/auth/token", json!({ "token": zenobia.token })).await;
    let own = server.data(Some(&zenobia.token), PERSONAL_DATA, json!({})).await;
    let data = &own["personalData"];
    assert_eq!(data["name"], NAME);
    assert_eq!(data["sessions"][0]["method"], "token", "{data:#}");
    assert_eq!(data["playerId"], zenobia.id);
    assert_eq!((data["erased"].clone(), data["keyHeld"].clone()), (json!(false), json!(true)));
    assert_eq!(data["token"], "valid");
    let leagues = data["leagues"].as_array().expect("leagues");
    assert_eq!(leagues.len(), 1);
    assert_eq!(leagues[0]["leagueId"], league);
    let seated =
        server.games(&league).await.into_iter().filter(|(_, seats, _)| seats.contains(&zenobia.id));
    assert_eq!(leagues[0]["games"].as_array().expect("games").len(), seated.count(), "{data:#}");
    let types: Vec<&str> = data["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["eventType"].as_str())
        .collect();
    assert_eq!(types.first(), Some(&"PlayerRegistered"), "{types:?}");
    assert!(types.contains(&"PlayerSubscribed") && types.contains(&"GameFinished"), "{types:?}");
    assert_eq!(data["ratings"][0]["kind"], "Placement");

    // The site admin may ask for anyone's; another player and an anonymous caller may not.
    let admin = server.data(Some(ADMIN), PERSONAL_DATA, json!({ "p": zenobia.id })).await;
    assert_eq!(admin["personalData"], own["personalData"]);
    let other =
        server.gql(Some(&players[1].token), PERSONAL_DATA, json!({ "p": zenobia.id })).await;
    assert_eq!(error_code(&other), "FORBIDDEN", "{other}");
    let anonymous = server.gql(None, PERSONAL_DATA, json!({ "p": zenobia.id })).await;
    assert_eq!(error_code(&anonymous), "UNAUTHENTICATED", "{anonymous}");

    // `league export-player` prints the same document; after `league erase-player` the
    // pseudonym, no key, and still the results.
    let printed = run_league(&["export-player", &zenobia.id], &db);
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    let printed: Value = serde_json::from_str(&stdout(&printed)).expect("JSON");
    assert_eq!(printed, own["personalData"]);
    let erased = run_league(&["erase-player", &zenobia.id, "--reason", "asked in person"], &db);
    assert_eq!(erased.status.code(), Some(0), "{}", stderr(&erased));
    assert!(stdout(&erased).contains("Erased player"), "{}", stdout(&erased));
    let after = run_league(&["export-player", &zenobia.id], &db);
    let after: Value = serde_json::from_str(&stdout(&after)).expect("JSON");
    assert!(after["name"].as_str().expect("name").starts_with("Erased player"));
    assert_eq!((after["erased"].clone(), after["keyHeld"].clone()), (json!(true), json!(false)));
    assert_eq!(after["leagues"], printed["leagues"], "the results stay");
    assert!(!after.to_string().contains(NAME));

    // Bad input: exit 2, nothing appended.
    let head = server.event_count().await;
    for args in [
        vec!["erase-player", "not-a-uuid", "--reason", "x"],
        vec!["erase-player", &zenobia.id, "--reason", "again"],
        vec!["export-player", "7"],
    ] {
        let output = run_league(&args, &db);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
    }
    assert_eq!(server.event_count().await, head);
}

async fn a_backup_carries_the_keys_unless_told_not_to(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let zenobia = server.register(NAME).await;
    drop(server);
    for (flags, shown) in [(vec!["export"], NAME), (vec!["export", "--without-keys"], "")] {
        let file = run_league(&flags, &db);
        assert_eq!(file.status.code(), Some(0), "{}", stderr(&file));
        let keys_in_file = stdout(&file).contains("\"kind\":\"person_key\"");
        assert_eq!(keys_in_file, !shown.is_empty(), "{flags:?}");
        let target = league_testkit::sqlite();
        let imported = crate::backup::import(&target, &file.stdout);
        assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
        let restored = spawn_app_on_port(&target.url, |_| {}).await;
        let data = restored
            .data(None, "query($p: ID!) { player(id: $p) { name } }", json!({ "p": zenobia.id }))
            .await;
        let name = data["player"]["name"].as_str().expect("name").to_owned();
        if shown.is_empty() {
            assert!(name.starts_with("Erased player"), "{name}");
        } else {
            assert_eq!(name, shown);
        }
    }
}

/// `mutation` as `token`: refused with `CONFLICT`, saying the player was erased.
async fn assert_refused_as_erased(server: &TestApp, mutation: &str, variables: Value) {
    let response = server.gql(Some(ADMIN), mutation, variables).await;
    assert_eq!(error_code(&response), "CONFLICT", "{mutation}: {response}");
    let message = response["errors"][0]["message"].as_str().expect("message");
    assert!(message.contains("was erased"), "{mutation}: {message}");
}

async fn feed_status(server: &TestApp, path: &str) -> reqwest::StatusCode {
    server.send(server.http.get(server.url(path))).await.expect("GET").status()
}

async fn nothing_new_is_recorded_about_an_erased_player(db: TestDatabase) {
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let zenobia = server.register(NAME).await;
    let others = server.register_many(7, "Other").await;
    let rotate = "mutation($p: ID) { rotateCalendarFeed(playerId: $p) { path } }";
    let feed = server.data(Some(&zenobia.token), rotate, json!({})).await;
    let feed = feed["rotateCalendarFeed"]["path"].as_str().expect("path").to_owned();
    assert_eq!(feed_status(&server, &feed).await, reqwest::StatusCode::OK);
    let league = server.create_league("PLACEMENT", 2, Some(4)).await;
    let created = create(&server, diplomacy_input(2)).await;
    let cup = created["data"]["createTournament"]["id"].as_str().expect("id").to_owned();
    let created = create(&server, diplomacy_input(1)).await;
    let later = created["data"]["createTournament"]["id"].as_str().expect("id").to_owned();
    // Entered and present in round 1 before the erasure, with seven others.
    for player in std::iter::once(&zenobia).chain(&others) {
        let entered = enter(&server, ADMIN, &cup, Some(&player.id)).await;
        assert!(entered["errors"].is_null(), "{entered}");
        check_in(&server, player, &cup, 1, false).await;
    }
    server.data(Some(ADMIN), ERASE, json!({ "p": zenobia.id, "r": "asked" })).await;

    let head = server.event_count().await;
    let p = &zenobia.id;
    for (mutation, variables) in [
        (
            "mutation($l: ID!, $p: ID) { subscribeToLeague(leagueId: $l, playerId: $p) { id } }",
            json!({ "l": league, "p": p }),
        ),
        (
            "mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }",
            json!({ "t": later, "p": p }),
        ),
        (
            "mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }",
            json!({ "c": league, "p": p }),
        ),
        (
            "mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }",
            json!({ "c": cup, "p": p }),
        ),
        (rotate, json!({ "p": p })),
        ("mutation($p: ID) { rotateToken(playerId: $p) { token } }", json!({ "p": p })),
        ("mutation($p: ID!) { appointOrganiser(playerId: $p) { id } }", json!({ "p": p })),
        (
            "mutation($t: ID!, $p: ID) {
               answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: false) { id }
             }",
            json!({ "t": cup, "p": p }),
        ),
        (
            "mutation($t: ID!) { seedRound(tournamentId: $t, round: 1) { number } }",
            json!({ "t": cup }),
        ),
    ] {
        assert_refused_as_erased(&server, mutation, variables).await;
    }
    assert_eq!(server.event_count().await, head, "a refused command appended");
    // The feed stopped with the erasure, like an unknown address.
    assert_eq!(feed_status(&server, &feed).await, reqwest::StatusCode::NOT_FOUND);
    let has_feed = "query($p: ID!) { player(id: $p) { calendarFeed } }";
    let data = server.data(Some(ADMIN), has_feed, json!({ "p": p })).await;
    assert_eq!(data["player"]["calendarFeed"], false);

    // What still works: withdrawing them, after which the round is seeded without them.
    let withdraw = "mutation($t: ID!, $p: ID) {
        withdrawFromTournament(tournamentId: $t, playerId: $p) { id }
    }";
    server.data(Some(ADMIN), withdraw, json!({ "t": cup, "p": p })).await;
    let seeded = seed(&server, &cup, 1).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
}

/// A reader holding a snapshot from before the erasure (a backup, a long export, an
/// operator's session) keeps the deleted key's page alive only while it reads: once it
/// ends, the key leaves the database files (SQLite) within a moment, and no query or
/// `pg_dump` shows it (PostgreSQL) even meanwhile.
async fn a_long_reader_does_not_keep_the_erased_key(db: TestDatabase) {
    use league_store::sea_orm::{ConnectionTrait, IsolationLevel, TransactionTrait};

    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let zenobia = server.register(NAME).await;
    server.register_many(3, "Other").await;
    let key = stored_key(&db, &zenobia.id).await.expect("a key");

    // A second connection reads the key table, and keeps its snapshot.
    let reader = EventStore::connect(&db.url).await.expect("connect");
    let snapshot = reader
        .connection()
        .begin_with_config(Some(IsolationLevel::RepeatableRead), None)
        .await
        .expect("begin");
    let held = snapshot
        .query_one_raw(league_store::sea_orm::Statement::from_string(
            reader.backend(),
            "SELECT count(*) AS n FROM person_keys",
        ))
        .await
        .expect("read")
        .expect("a row");
    assert_eq!(held.try_get::<i64>("", "n").expect("count"), 4);

    server.data(Some(ADMIN), ERASE, json!({ "p": zenobia.id, "r": "asked" })).await;
    server.register_many(5, "Later").await;
    assert_eq!(stored_key(&db, &zenobia.id).await, None, "no query sees the key");
    snapshot.rollback().await.expect("end the reader");
    server.register_many(2, "After").await;

    let start = Instant::now();
    loop {
        let bytes = database_bytes(&db);
        if !key_forms(&key).iter().any(|form| contains(&bytes, form)) {
            break;
        }
        assert!(
            start.elapsed() < PROPAGATION,
            "the deleted key's bytes are still in the database after its reader ended"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

on_both_databases!(
    nothing_new_is_recorded_about_an_erased_player,
    a_long_reader_does_not_keep_the_erased_key,
    erasure_keeps_results_and_the_chain_and_hides_the_name_everywhere,
    players_erase_themselves_but_nobody_else,
    the_access_request_is_the_persons_own_or_the_site_admins,
    a_backup_carries_the_keys_unless_told_not_to,
);
