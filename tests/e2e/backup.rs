//! `league export` and `league import` (the binary) between SQLite and PostgreSQL, both
//! ways: a log built through the application (leagues with results and a correction, an
//! idempotent command, a tournament) moves to a fresh database of the other kind, `league
//! verify` passes there and its export is byte-identical; broken files and a non-empty
//! target are refused with one line naming the first bad position, leaving the target empty;
//! an import killed mid-way leaves the target empty and importable again.

use std::collections::HashSet;
use std::io::Write as _;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use league_app::CommandOptions;
use league_domain::{Actor, RegisterPlayer};
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use league_testkit::fixtures::player;
use league_testkit::{Backend, TestDatabase};
use serde_json::{Value, json};

use crate::api::tournament::{check_in, create, diplomacy_input, enter, report_round, seed};
use crate::replay::{league, stderr, stdout};
use crate::support::{ADMIN, spawn_app};

const LEAGUE_BINARY: &str = env!("CARGO_BIN_EXE_league");

/// A fresh database of the other kind, or `None` when PostgreSQL is not configured (and
/// not required).
async fn other_kind(db: &TestDatabase) -> Option<TestDatabase> {
    match db.backend {
        Backend::Sqlite => league_testkit::postgres().await,
        Backend::Postgres => Some(league_testkit::sqlite()),
    }
}

/// `league export` of `db`: the file's bytes.
fn export(db: &TestDatabase) -> Vec<u8> {
    let output = league(&["export"], db);
    assert_eq!(output.status.code(), Some(0), "export: {}", stderr(&output));
    output.stdout
}

/// A `league import` process into `db`, its stdin a pipe, its stdout and stderr `output`.
fn start_import(db: &TestDatabase, output: fn() -> Stdio) -> Child {
    Command::new(LEAGUE_BINARY)
        .args(["import", "--database", &db.url])
        .env("RUST_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(output())
        .stderr(output())
        .spawn()
        .expect("start league import")
}

/// `league import` into `db` with `file` on stdin.
pub(crate) fn import(db: &TestDatabase, file: &[u8]) -> Output {
    let mut child = start_import(db, Stdio::piped);
    let mut stdin = child.stdin.take().expect("stdin");
    // The import may refuse before reading everything: a closed pipe is then expected.
    stdin.write_all(file).ok();
    drop(stdin);
    child.wait_with_output().expect("league import ends")
}

/// `league verify` of `db`: the number of intact events.
fn verified(db: &TestDatabase) -> u64 {
    let output = league(&["verify"], db);
    assert_eq!(output.status.code(), Some(0), "verify: {}", stderr(&output));
    let text = stdout(&output);
    let count = text.trim().strip_prefix("ok: ").and_then(|rest| rest.split(' ').next());
    count.and_then(|count| count.parse().ok()).unwrap_or_else(|| panic!("verify said {text}"))
}

/// A refusal: exit 2, one line on stderr naming `mentions`, and the target still empty.
fn assert_refused(output: &Output, target: &TestDatabase, mentions: &str) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert_eq!(message.trim_end().lines().count(), 1, "one line: {message}");
    assert!(message.contains(mentions), "{message:?} should mention {mentions:?}");
    assert!(output.stdout.is_empty(), "stdout: {}", stdout(output));
    assert_eq!(verified(target), 0, "the target stays empty");
}

/// Leagues with results and a correction, an idempotent registration, and a one-board
/// tournament played through the API.
async fn build_log(db: &TestDatabase) {
    let app = crate::replay::build(db).await;
    let register = RegisterPlayer {
        actor: Actor::Admin,
        player_id: player(40),
        name: "Keyed".into(),
        token_hash: "hash-keyed".into(),
    };
    let options =
        CommandOptions { idempotency_key: Some("register-keyed".into()), ..Default::default() };
    app.execute(register, options).await.expect("an idempotent registration");
    drop(app);

    let server = spawn_app(&db.url).await;
    let players = server.register_many(7, "Entrant").await;
    let created = create(&server, diplomacy_input(1)).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players {
        let response = enter(&server, ADMIN, &id, Some(&player.id)).await;
        assert!(response["errors"].is_null(), "{response}");
    }
    for player in &players {
        check_in(&server, player, &id, 1, false).await;
    }
    let seeded = seed(&server, &id, 1).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
    report_round(&server, &players, &id, 1).await;
}

/// The file's lines (without newlines) and back.
fn lines(file: &[u8]) -> Vec<String> {
    String::from_utf8(file.to_vec()).expect("UTF-8").lines().map(str::to_owned).collect()
}

fn join(lines: &[String]) -> Vec<u8> {
    lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect()
}

/// The log moves to the other kind of database byte for byte; the target verifies.
async fn a_log_moves_to_the_other_database(db: TestDatabase) {
    let Some(target) = other_kind(&db).await else { return };
    build_log(&db).await;
    let file = export(&db);
    let text = lines(&file);
    let header: Value = serde_json::from_str(&text[0]).unwrap();
    let events = header["events"].as_u64().unwrap();
    assert_eq!(header["format"], "league-log");
    assert!(header["idempotency_keys"].as_u64().unwrap() >= 1, "{header}");
    assert!(text.iter().any(|line| line.contains("TournamentCreated")));
    assert!(text.iter().any(|line| line.contains("ResultCorrected")));
    assert_eq!(verified(&db), events);

    let imported = import(&target, &file);
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    assert!(stdout(&imported).starts_with(&format!("ok: {events} events imported")));
    // The first start of the imported log begins from a snapshot of all of it.
    let snapshot_line = format!("ok: catalog snapshot taken at position {events}\n");
    assert!(stdout(&imported).ends_with(&snapshot_line), "{}", stdout(&imported));
    let checked = league(&["snapshot", "verify"], &target);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
    let at_head = format!("ok: the catalog snapshot at position {events} ");
    assert!(stdout(&checked).starts_with(&at_head), "{}", stdout(&checked));
    assert_eq!(verified(&target), events);
    assert!(export(&target) == file, "the re-export is byte for byte the original");

    // The moved log serves: a retried idempotent command appends nothing, a new one appends.
    let store = EventStore::connect(&target.url).await.unwrap();
    let stream = StreamId::new("backup:check").unwrap();
    let event = NewEvent::new("Checked", 1, json!({}));
    let keyed = Metadata::default().with_idempotency_key("after-import");
    let first =
        store.append(&stream, ExpectedVersion::NoStream, vec![event.clone()], keyed.clone());
    assert_eq!(first.await.unwrap().first_position, events + 1);
    let again = store.append(&stream, ExpectedVersion::NoStream, vec![event], keyed).await;
    assert!(again.unwrap().deduplicated);

    // A target that holds a log is refused, and keeps it.
    let refused = import(&target, &file);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("not empty"), "{}", stderr(&refused));
    assert_eq!(verified(&target), events + 1);
}

/// Broken files are refused, naming the first bad position; the target stays empty.
async fn broken_files_are_refused(db: TestDatabase) {
    let Some(target) = other_kind(&db).await else { return };
    build_log(&db).await;
    let text = lines(&export(&db));
    let events = serde_json::from_str::<Value>(&text[0]).unwrap()["events"].as_u64().unwrap();
    assert!(events > 20, "a log worth cutting: {events}");

    // A changed payload: the hash of position 5 no longer matches.
    let mut tampered = text.clone();
    tampered[5] = tampered[5].replacen("\"payload\":{", "\"payload\":{\"forged\":true,", 1);
    assert_refused(&import(&target, &join(&tampered)), &target, "position 5: hash mismatch");

    // Two events swapped: position 7 is not where the file goes on.
    let mut reordered = text.clone();
    reordered.swap(7, 8);
    assert_refused(&import(&target, &join(&reordered)), &target, "position 7");

    // One event removed.
    let mut removed = text.clone();
    removed.remove(10);
    assert_refused(&import(&target, &join(&removed)), &target, "position 10: missing");

    // Re-chained after a removal: the hashes are recomputed by no one, so the link breaks.
    let mut relinked = text.clone();
    relinked.remove(12);
    let mut moved: Value = serde_json::from_str(&relinked[12]).unwrap();
    moved["position"] = json!(12);
    relinked[12] = serde_json::to_string(&moved).unwrap();
    assert_refused(&import(&target, &join(&relinked)), &target, "position 12: broken link");

    // Cut after an event line, and cut in the middle of a line.
    let cut = join(&text[..15]);
    assert_refused(&import(&target, &cut), &target, "truncated");
    let file = join(&text);
    assert_refused(&import(&target, &file[..file.len() / 2]), &target, "position");

    // Not a league log at all.
    assert_refused(&import(&target, b"hello\n"), &target, "line 1");

    // The intact file still goes in.
    let imported = import(&target, &file);
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    assert_eq!(verified(&target), events);
}

/// An import killed mid-way (after thousands of rows went into its transaction) leaves the
/// target empty, and the same file imports afterwards.
async fn a_killed_import_leaves_nothing(db: TestDatabase) {
    let Some(target) = other_kind(&db).await else { return };
    let store = EventStore::connect(&db.url).await.unwrap();
    store.migrate().await.unwrap();
    for batch in 0..120 {
        let stream = StreamId::new(format!("bulk:{batch}")).unwrap();
        let events = (0..100).map(|n| NewEvent::new("Counted", 1, json!({ "n": n }))).collect();
        let metadata = Metadata::default().with_idempotency_key(format!("batch-{batch}"));
        store.append(&stream, ExpectedVersion::NoStream, events, metadata).await.unwrap();
    }
    let file = export(&db);
    let text = lines(&file);
    assert_eq!(text.len(), 1 + 12_000 + 120);

    let mut child = start_import(&target, Stdio::null);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(&join(&text[..11_000])).expect("feed most of the file");
    stdin.flush().ok();
    tokio::time::sleep(Duration::from_secs(2)).await;
    child.kill().expect("kill league import");
    child.wait().expect("reap league import");
    drop(stdin);

    assert_eq!(verified(&target), 0, "nothing of the killed import is visible");
    let imported = import(&target, &file);
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    assert_eq!(verified(&target), 12_000);
    assert!(export(&target) == file);
}

/// A fresh database of the same kind as `db`.
async fn same_kind(db: &TestDatabase) -> TestDatabase {
    match db.backend {
        Backend::Sqlite => league_testkit::sqlite(),
        Backend::Postgres => league_testkit::postgres().await.expect("PostgreSQL"),
    }
}

/// The persons an export file registers, and those it holds a key of.
fn registered_and_keyed(file: &[u8]) -> (HashSet<String>, Vec<String>) {
    let mut registered = HashSet::new();
    let mut keyed = Vec::new();
    for line in lines(file).iter().skip(1) {
        let line: Value = serde_json::from_str(line).expect("JSON line");
        if line["event_type"] == "PlayerRegistered" {
            registered.insert(line["payload"]["playerId"].as_str().expect("id").to_owned());
        }
        if line["kind"] == "person_key" {
            keyed.push(line["person_id"].as_str().expect("id").to_owned());
        }
    }
    (registered, keyed)
}

/// Registrations committed while exports run: every file holds a key only for a person
/// whose registration it holds (every table is read at one snapshot).
async fn an_export_during_registrations_holds_no_key_without_its_person(db: TestDatabase) {
    let app = std::sync::Arc::new(league_app::App::open(&db.url).await.unwrap());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writers: Vec<_> = (0..4)
        .map(|writer| {
            let (app, stop) = (app.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let register = RegisterPlayer {
                        actor: Actor::Admin,
                        player_id: uuid::Uuid::now_v7().into(),
                        name: format!("Racer {writer}-{n}"),
                        token_hash: format!("hash-{writer}-{n}"),
                    };
                    app.execute(register, CommandOptions::default()).await.expect("register");
                    n += 1;
                }
            })
        })
        .collect();
    let store = EventStore::connect(&db.url).await.unwrap();
    let (mut keys, mut exports, start) = (0, 0, std::time::Instant::now());
    while exports < 25 || keys < 40 {
        assert!(start.elapsed() < Duration::from_secs(60), "{keys} keys after {exports} exports");
        exports += 1;
        let export = store.export(true).await.expect("export");
        let mut file = Vec::new();
        let mut lines = export.lines;
        while let Some(line) = futures::StreamExt::next(&mut lines).await {
            file.extend(line.expect("line").into_bytes());
            file.push(b'\n');
        }
        let (registered, keyed) = registered_and_keyed(&file);
        let orphans: Vec<_> = keyed.iter().filter(|p| !registered.contains(*p)).collect();
        assert!(orphans.is_empty(), "keys without their registration: {orphans:?}");
        keys = keyed.len();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for writer in writers {
        writer.await.expect("writer");
    }
    // The binary's export of the settled log imports whole.
    let target = same_kind(&db).await;
    let imported = import(&target, &export(&db));
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
}

/// A hand-made file with a key whose person has no registration in it is refused: such a
/// key could never be erased.
async fn an_import_refuses_a_key_without_its_person(db: TestDatabase) {
    let app = league_app::App::open(&db.url).await.unwrap();
    let register = RegisterPlayer {
        actor: Actor::Admin,
        player_id: player(41),
        name: "Keyed".into(),
        token_hash: "hash-keyed".into(),
    };
    app.execute(register, CommandOptions::default()).await.expect("register");
    drop(app);
    let mut text = lines(&export(&db));
    let keyed = text.iter().position(|line| line.contains("\"kind\":\"person_key\""));
    let keyed = keyed.expect("a person key line");
    let stranger = uuid::Uuid::now_v7().to_string();
    let mut line: Value = serde_json::from_str(&text[keyed]).unwrap();
    line["person_id"] = json!(stranger);
    text[keyed] = serde_json::to_string(&line).unwrap();
    let target = same_kind(&db).await;
    let refused = import(&target, &join(&text));
    assert_refused(&refused, &target, &format!("person {stranger}'s key has no registration"));
}

/// The log written by an earlier build (`tests/e2e/data/earlier-build.log`: leagues with
/// results and a correction, an idempotent command, a tournament) and what that build answered
/// about it (`earlier-build.standings`: every league's and the tournament's standings, as the
/// CLI prints them). Set `LEAGUE_WRITE_EARLIER_BUILD=1` to write both anew from this build.
const EARLIER_LOG: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/e2e/data/earlier-build.log");
const EARLIER_STANDINGS: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/e2e/data/earlier-build.standings");

/// What the CLI answers about a log's standings: `league replay` to its head (every league) and each
/// tournament's `league tournament standings`, one text.
fn every_standing(db: &TestDatabase, file: &[u8]) -> String {
    let header: Value = serde_json::from_str(&lines(file)[0]).unwrap();
    let head = header["events"].to_string();
    let replayed = league(&["replay", "--to-position", &head], db);
    assert_eq!(replayed.status.code(), Some(0), "replay: {}", stderr(&replayed));
    let mut text = stdout(&replayed);
    let tournaments: std::collections::BTreeSet<String> = lines(file)
        .iter()
        .filter(|line| line.contains("\"TournamentCreated\""))
        .map(|line| {
            let line: Value = serde_json::from_str(line).unwrap();
            line["payload"]["tournamentId"].as_str().unwrap().to_owned()
        })
        .collect();
    for tournament in tournaments {
        let output = league(&["tournament", "standings", "--tournament", &tournament], db);
        assert_eq!(output.status.code(), Some(0), "standings: {}", stderr(&output));
        text.push_str(&format!("\ntournament {tournament}\n{}", stdout(&output)));
    }
    text
}

/// A log written by an earlier build imports and verifies, re-exports byte for byte (every
/// payload and hash as it was written) and replays to the standings that build printed: the
/// stored event schema is the same whatever shape the code gives its events.
async fn a_log_written_by_an_earlier_build_replays_to_the_same_hashes_and_standings(
    db: TestDatabase,
) {
    if std::env::var_os("LEAGUE_WRITE_EARLIER_BUILD").is_some() {
        if db.backend != Backend::Sqlite {
            return;
        }
        build_log(&db).await;
        let file = export(&db);
        std::fs::write(EARLIER_LOG, &file).unwrap();
        std::fs::write(EARLIER_STANDINGS, every_standing(&db, &file)).unwrap();
        return;
    }
    let file = std::fs::read(EARLIER_LOG).unwrap();
    let imported = import(&db, &file);
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    let header: Value = serde_json::from_str(&lines(&file)[0]).unwrap();
    assert_eq!(verified(&db), header["events"].as_u64().unwrap(), "the whole chain verifies");
    assert!(export(&db) == file, "the re-export is byte for byte the earlier build's");
    assert_eq!(every_standing(&db, &file), std::fs::read_to_string(EARLIER_STANDINGS).unwrap());
}

league_testkit::on_both_databases!(
    a_log_written_by_an_earlier_build_replays_to_the_same_hashes_and_standings,
    an_export_during_registrations_holds_no_key_without_its_person,
    an_import_refuses_a_key_without_its_person,
    a_log_moves_to_the_other_database,
    broken_files_are_refused,
    a_killed_import_leaves_nothing,
);
