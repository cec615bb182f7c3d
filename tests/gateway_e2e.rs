//! End-to-end tests of `league serve`: each test starts the real binary on port 0 over a
//! fresh database (SQLite and PostgreSQL) and talks to it like a web frontend, over HTTP
//! (`POST /graphql`) and WebSocket (`/graphql/ws`, graphql-transport-ws and graphql-ws).
//!
//! Expected scores and standings come from `league_scoring` (the seeds' implementation),
//! so these tests check that the gateway carries results to the scoring rules and back
//! intact; the rules themselves are tested against the seeds' examples in their crates.

use std::collections::{BTreeMap, HashMap};
use std::process::Stdio;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use league_scoring::{
    DiplomacyEntry, GameResult, PlacementEntry, ScoredGame, ScoringSystem, Side, TeamPlayer,
    TeamResult, rank_standings, score_game,
};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const ADMIN: &str = "e2e-admin-token";
/// Long enough for a cold PostgreSQL migration on a busy two-core machine.
const START_TIMEOUT: Duration = Duration::from_secs(60);
const WS_TIMEOUT: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------
// The server under test and a frontend-like client.
// ---------------------------------------------------------------------------------------

/// A running `league serve`; killed when dropped.
struct Server {
    child: Child,
    base: String,
    http: reqwest::Client,
    /// Lines the server printed on stdout before `listening on …`.
    banner: Vec<String>,
    _db: TestDatabase,
}

impl Server {
    async fn start(db: TestDatabase) -> Server {
        Server::start_with(db, &[("LEAGUE_ADMIN_TOKEN", ADMIN)]).await
    }

    async fn start_with(db: TestDatabase, env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_league"));
        command
            .args(["serve", "--database", &db.url, "--listen", "127.0.0.1:0"])
            .env_remove("LEAGUE_ADMIN_TOKEN")
            .env_remove("LEAGUE_CORS_ORIGINS")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("start league serve");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut banner = Vec::new();
        let base = tokio::time::timeout(START_TIMEOUT, async {
            while let Some(line) = lines.next_line().await.unwrap() {
                if let Some(address) = line.strip_prefix("listening on ") {
                    return address.to_owned();
                }
                banner.push(line);
            }
            panic!("league serve exited before listening (banner: {banner:?})");
        })
        .await
        .expect("league serve listens within the start timeout");
        // Keep draining stdout so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Server { child, base, http: reqwest::Client::new(), banner, _db: db }
    }

    fn ws_url(&self) -> String {
        format!("{}/graphql/ws", self.base.replacen("http://", "ws://", 1))
    }

    /// POSTs a GraphQL request; returns the whole response body.
    async fn gql(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let mut request = self
            .http
            .post(format!("{}/graphql", self.base))
            .json(&json!({ "query": query, "variables": variables }));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("POST /graphql");
        assert!(response.status().is_success(), "HTTP {}", response.status());
        response.json().await.expect("a JSON GraphQL response")
    }

    /// POSTs a request that must succeed; returns `data`.
    async fn data(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let response = self.gql(token, query, variables).await;
        assert!(response.get("errors").is_none(), "unexpected errors for {query}: {response:#}");
        response["data"].clone()
    }

    /// Number of events in the log (the `events` connection's total).
    async fn event_count(&self) -> u64 {
        let data = self.data(None, "{ events(first: 0) { totalCount } }", json!({})).await;
        data["events"]["totalCount"].as_u64().unwrap()
    }

    /// Every event (optionally of one league), paging through the connection.
    async fn events(&self, league: Option<&str>) -> Vec<Value> {
        let mut events = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let data = self
                .data(
                    None,
                    "query($league: ID, $after: String) {
                       events(leagueId: $league, first: 100, after: $after) {
                         totalCount
                         pageInfo { hasNextPage endCursor }
                         nodes { position streamId version type recordedAt actor payload hash }
                       }
                     }",
                    json!({ "league": league, "after": after }),
                )
                .await;
            let page = &data["events"];
            events.extend(page["nodes"].as_array().unwrap().iter().cloned());
            if !page["pageInfo"]["hasNextPage"].as_bool().unwrap() {
                assert_eq!(events.len() as u64, page["totalCount"].as_u64().unwrap());
                return events;
            }
            after = page["pageInfo"]["endCursor"].as_str().map(str::to_owned);
        }
    }

    async fn register(&self, name: &str) -> Player {
        let data = self
            .data(
                Some(ADMIN),
                "mutation($name: String!) {
                   registerPlayer(input: {name: $name}) { player { id name } token }
                 }",
                json!({ "name": name }),
            )
            .await;
        let registration = &data["registerPlayer"];
        assert_eq!(registration["player"]["name"], name);
        Player {
            id: registration["player"]["id"].as_str().unwrap().to_owned(),
            token: registration["token"].as_str().unwrap().to_owned(),
        }
    }

    async fn register_many(&self, count: usize) -> Vec<Player> {
        let mut players = Vec::new();
        for i in 1..=count {
            players.push(self.register(&format!("Player {i}")).await);
        }
        players
    }

    /// Admin creates a league; returns its id.
    async fn create_league(&self, system: &str, k: u32, games_per_seat: Option<u32>) -> String {
        let data = self
            .data(
                Some(ADMIN),
                "mutation($input: CreateLeagueInput!) {
                   createLeague(input: $input) {
                     id status scoringSystem playersPerGame size gamesPerSeat players { id }
                   }
                 }",
                json!({ "input": {
                    "name": format!("{system} league"),
                    "game": game_name(system),
                    "scoringSystem": system,
                    "playersPerGame": k,
                    "gamesPerSeat": games_per_seat,
                }}),
            )
            .await;
        let league = &data["createLeague"];
        assert_eq!(league["status"], "OPEN");
        assert_eq!(league["scoringSystem"], system);
        assert_eq!(league["playersPerGame"], k);
        assert_eq!(league["size"], 8, "seed 002: a league has 8 players by default");
        assert_eq!(league["players"], json!([]));
        league["id"].as_str().unwrap().to_owned()
    }

    /// Every player subscribes themself; returns the league after the last subscription.
    async fn fill(&self, league: &str, players: &[Player]) -> Value {
        let mut last = Value::Null;
        for player in players {
            let data = self
                .data(
                    Some(&player.token),
                    "mutation($league: ID!) {
                       subscribeToLeague(leagueId: $league) { status players { id } games { id } }
                     }",
                    json!({ "league": league }),
                )
                .await;
            last = data["subscribeToLeague"].clone();
        }
        last
    }

    async fn games(&self, league: &str) -> Vec<GameInfo> {
        let data = self
            .data(
                None,
                "query($id: ID!) {
                   league(id: $id) {
                     games { id number status seats { seat label player { id } } }
                   }
                 }",
                json!({ "id": league }),
            )
            .await;
        data["league"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|game| GameInfo {
                id: game["id"].as_str().unwrap().to_owned(),
                number: game["number"].as_u64().unwrap() as u32,
                seats: game["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|seat| seat["player"]["id"].as_str().unwrap().to_owned())
                    .collect(),
                status: game["status"].as_str().unwrap().to_owned(),
            })
            .collect()
    }

    async fn standings(&self, league: &str, as_of: Value) -> Vec<Value> {
        let data = self
            .data(
                None,
                "query($league: ID!, $asOf: AsOf) {
                   standings(leagueId: $league, asOf: $asOf) {
                     rank player { id } total played wins draws
                   }
                 }",
                json!({ "league": league, "asOf": as_of }),
            )
            .await;
        data["standings"].as_array().unwrap().clone()
    }

    async fn report(&self, token: &str, game: &str, result: &Value) -> Value {
        let data = self
            .data(
                Some(token),
                "mutation($game: ID!, $result: GameResultInput!) {
                   reportGameResult(gameId: $game, result: $result) {
                     id status scores { player { id } score }
                   }
                 }",
                json!({ "game": game, "result": result }),
            )
            .await;
        data["reportGameResult"].clone()
    }

    /// Sends SIGTERM and waits for the process to exit.
    async fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().expect("the server is running");
        let status = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
        tokio::time::timeout(Duration::from_secs(20), self.child.wait())
            .await
            .expect("the server stops within 20 s of SIGTERM")
            .unwrap()
    }
}

#[derive(Debug, Clone)]
struct Player {
    id: String,
    token: String,
}

#[derive(Debug, Clone)]
struct GameInfo {
    id: String,
    number: u32,
    /// Player ids in seat order.
    seats: Vec<String>,
    status: String,
}

fn game_name(system: &str) -> &'static str {
    match system {
        "BAF" | "DETOUR_98F" | "SQUARES" => "Diplomacy",
        "BLUE_MAX" => "Blue Max",
        "WOODEN_SHIPS" | "WOODEN_SHIPS_LEGACY" => "Wooden Ships & Iron Men",
        _ => "Carcassonne",
    }
}

fn scoring_system(system: &str) -> ScoringSystem {
    match system {
        "PLACEMENT" => ScoringSystem::Placement,
        "BAF" => ScoringSystem::Baf,
        "DETOUR_98F" => ScoringSystem::Detour98f,
        "SQUARES" => ScoringSystem::Squares,
        "BLUE_MAX" => ScoringSystem::BlueMax,
        "WOODEN_SHIPS" => ScoringSystem::WoodenShips,
        other => panic!("no such system {other}"),
    }
}

// ---------------------------------------------------------------------------------------
// Results: the GraphQL input and the same result for the scoring oracle.
// ---------------------------------------------------------------------------------------

/// Supply-centre distributions (7 powers, ≤ 34 centres) every Diplomacy system scores;
/// the last has an eliminated power.
const CENTRES: [[u32; 7]; 3] =
    [[12, 8, 6, 4, 2, 1, 1], [9, 7, 6, 5, 4, 2, 1], [14, 10, 5, 3, 1, 1, 0]];

/// A plausible result of game `number` with `seats`, varied from game to game, as
/// (GraphQL `GameResultInput`, the same result for `league_scoring`).
fn result_for(system: &str, number: u32, seats: &[String]) -> (Value, GameResult) {
    let k = seats.len();
    let turn = number as usize;
    match system {
        "PLACEMENT" => {
            let entries: Vec<(String, f64)> = seats
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), ((i + turn) % k) as f64 * 10.0 + 5.0))
                .collect();
            (
                json!({ "placement": entries.iter().map(|(p, points)| json!({ "playerId": p, "points": points })).collect::<Vec<_>>() }),
                GameResult::Placement(
                    entries
                        .into_iter()
                        .map(|(player, points)| PlacementEntry { player, points })
                        .collect(),
                ),
            )
        }
        "BAF" | "DETOUR_98F" | "SQUARES" => {
            let distribution = CENTRES[turn % CENTRES.len()];
            let entries: Vec<DiplomacyEntry> = seats
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let centres = distribution[(i + turn) % 7];
                    DiplomacyEntry {
                        player: p.clone(),
                        centres,
                        eliminated: centres == 0,
                        eliminated_year: (centres == 0).then_some(1906),
                        in_draw: false,
                    }
                })
                .collect();
            let input = entries
                .iter()
                .map(|e| {
                    json!({ "playerId": e.player, "centres": e.centres,
                            "eliminated": e.eliminated, "eliminatedYear": e.eliminated_year })
                })
                .collect::<Vec<_>>();
            (json!({ "diplomacy": input }), GameResult::Diplomacy(entries))
        }
        "BLUE_MAX" | "WOODEN_SHIPS" => {
            // Blue Max: two sides; Wooden Ships: one side per seat. The winner rotates.
            let sides_of: Vec<Vec<&String>> = if system == "BLUE_MAX" {
                let (a, b) = seats.split_at(k / 2);
                vec![a.iter().collect(), b.iter().collect()]
            } else {
                seats.iter().map(|p| vec![p]).collect()
            };
            let winner = turn % sides_of.len();
            let sides: Vec<Side> = sides_of
                .iter()
                .enumerate()
                .map(|(s, members)| Side {
                    name: format!("Side {}", s + 1),
                    players: members
                        .iter()
                        .enumerate()
                        .map(|(j, p)| TeamPlayer {
                            player: (*p).clone(),
                            points: if s == winner { 30.0 + j as f64 } else { 10.0 + s as f64 },
                            units: 2,
                            lost: if s == winner { 0 } else { 1 },
                            kills: if s == winner { 2 } else { 0 },
                            ships_left: (system == "WOODEN_SHIPS").then_some(if s == winner {
                                3
                            } else {
                                1
                            }),
                            surrendered: false,
                        })
                        .collect(),
                })
                .collect();
            let input = json!({ "teams": { "draw": false, "sides": sides.iter().map(|side| json!({
                "name": side.name,
                "players": side.players.iter().map(|p| json!({
                    "playerId": p.player, "points": p.points, "units": p.units, "lost": p.lost,
                    "kills": p.kills, "shipsLeft": p.ships_left, "surrendered": p.surrendered,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>() }});
            (input, GameResult::Teams(TeamResult { draw: false, sides }))
        }
        other => panic!("no result shape for {other}"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Game scores as `player id → score` from a `Game { scores }` answer.
fn scores_of(game: &Value) -> BTreeMap<String, f64> {
    game["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["player"]["id"].as_str().unwrap().to_owned(), s["score"].as_f64().unwrap()))
        .collect()
}

fn assert_scores_match(game: &Value, scored: &ScoredGame) {
    let actual = scores_of(game);
    assert_eq!(actual.len(), scored.players.len());
    for expected in &scored.players {
        let got = actual[&expected.player];
        assert!(close(got, expected.score), "{}: {got} ≠ {}", expected.player, expected.score);
    }
}

/// Server standings against `league_scoring::rank_standings` over the same games: the
/// ranked players first, then every subscribed player without a result yet, sharing the
/// last rank with nothing scored (all test leagues have 8 players).
fn assert_standings_match(actual: &[Value], scored: &[ScoredGame]) {
    let expected = rank_standings(scored);
    assert_eq!(actual.len(), 8, "one line per subscribed player: {actual:#?}");
    for line in &actual[expected.len()..] {
        assert_eq!(line["rank"], expected.len() + 1, "{actual:#?}");
        assert_eq!(line["played"], 0);
        assert_eq!(line["total"], 0.0);
    }
    for (line, want) in actual.iter().zip(&expected) {
        assert_eq!(line["player"]["id"], want.player.as_str(), "{actual:#?}");
        assert_eq!(line["rank"], want.rank);
        assert!(close(line["total"].as_f64().unwrap(), want.total));
        assert_eq!(line["played"], want.games);
        assert_eq!(line["wins"], want.wins);
        assert_eq!(line["draws"], want.draws);
    }
}

// ---------------------------------------------------------------------------------------
// Full league life cycles.
// ---------------------------------------------------------------------------------------

/// Register 8 players, create the league, every player subscribes (the 8th schedules the
/// games), a seated player reports every game, and the league completes; scores,
/// standings and the audit log match.
async fn life_cycle(db: TestDatabase, system: &str, k: u32, expected_games_per_seat: u32) {
    let server = Server::start(db).await;
    let players = server.register_many(8).await;
    let league = server.create_league(system, k, None).await;

    let running = server.fill(&league, &players).await;
    assert_eq!(running["status"], "RUNNING");
    assert_eq!(running["players"].as_array().unwrap().len(), 8);
    let games = server.games(&league).await;
    assert_eq!(games.len() as u32, 8 * expected_games_per_seat, "N·s games (seed 002)");
    let mut appearances: HashMap<&str, u32> = HashMap::new();
    for game in &games {
        assert_eq!(game.seats.len() as u32, k);
        assert_eq!(game.status, "SCHEDULED");
        for player in &game.seats {
            *appearances.entry(player).or_default() += 1;
        }
    }
    assert!(appearances.values().all(|n| *n == k * expected_games_per_seat));

    let token_of: HashMap<&str, &str> =
        players.iter().map(|p| (p.id.as_str(), p.token.as_str())).collect();
    let system_value = scoring_system(system);
    let mut scored = Vec::new();
    for game in &games {
        let (input, result) = result_for(system, game.number, &game.seats);
        let expected = score_game(system_value, &result).expect("the oracle scores the result");
        // Any seated player may report; rotate who does.
        let reporter = &game.seats[game.number as usize % game.seats.len()];
        let answer = server.report(token_of[reporter.as_str()], &game.id, &input).await;
        assert_eq!(answer["status"], "FINISHED");
        assert_scores_match(&answer, &expected);
        scored.push(expected);
    }

    let data = server
        .data(None, "query($id: ID!) { league(id: $id) { status } }", json!({ "id": league }))
        .await;
    assert_eq!(data["league"]["status"], "COMPLETED");
    assert_standings_match(&server.standings(&league, Value::Null).await, &scored);

    let events = server.events(Some(&league)).await;
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let mut expected_types = vec!["LeagueCreated"];
    expected_types.extend(["PlayerSubscribed"; 8]);
    expected_types.push("GamesScheduled");
    expected_types.extend(std::iter::repeat_n("GameFinished", games.len()));
    expected_types.push("LeagueCompleted");
    assert_eq!(types, expected_types);
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["version"], i as u64 + 1, "league stream versions are gapless");
        assert_eq!(event["streamId"], format!("league-{league}"));
        assert_eq!(event["hash"].as_str().unwrap().len(), 64);
    }
    assert_eq!(events[0]["actor"], "admin");
    assert_eq!(events[1]["actor"], format!("player:{}", players[0].id));
    assert_eq!(server.event_count().await, 8 + events.len() as u64, "8 registrations + the league");
}

async fn placement_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "PLACEMENT", 4, 4).await;
}

async fn baf_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "BAF", 7, 3).await;
}

async fn detour_98f_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "DETOUR_98F", 7, 3).await;
}

async fn squares_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "SQUARES", 7, 3).await;
}

async fn blue_max_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "BLUE_MAX", 4, 4).await;
}

async fn wooden_ships_league_life_cycle(db: TestDatabase) {
    life_cycle(db, "WOODEN_SHIPS", 3, 3).await;
}

on_both_databases!(
    placement_league_life_cycle,
    baf_league_life_cycle,
    detour_98f_league_life_cycle,
    squares_league_life_cycle,
    blue_max_league_life_cycle,
    wooden_ships_league_life_cycle,
);

// ---------------------------------------------------------------------------------------
// History: as-of standings and corrections.
// ---------------------------------------------------------------------------------------

/// A running placement league (k = 4, one game per seat: 8 games) and its players.
async fn running_league(server: &Server) -> (String, Vec<Player>, Vec<GameInfo>) {
    let players = server.register_many(8).await;
    let league = server.create_league("PLACEMENT", 4, Some(1)).await;
    server.fill(&league, &players).await;
    let games = server.games(&league).await;
    assert_eq!(games.len(), 8);
    (league, players, games)
}

async fn as_of_standings_and_corrections(db: TestDatabase) {
    let server = Server::start(db).await;
    let (league, _players, games) = running_league(&server).await;
    let mut scored = Vec::new();
    for game in &games[..4] {
        let (input, result) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        scored.push(score_game(ScoringSystem::Placement, &result).unwrap());
    }
    let halfway = server.standings(&league, Value::Null).await;
    assert_standings_match(&halfway, &scored);
    let halfway_position = server.event_count().await;
    let events = server.events(None).await;
    let halfway_time = events.last().unwrap()["recordedAt"].as_str().unwrap().to_owned();

    // Let the clock move past the halfway instant before the next events are recorded.
    tokio::time::sleep(Duration::from_millis(20)).await;
    for game in &games[4..] {
        let (input, result) = result_for("PLACEMENT", game.number, &game.seats);
        server.report(ADMIN, &game.id, &input).await;
        scored.push(score_game(ScoringSystem::Placement, &result).unwrap());
    }
    let final_standings = server.standings(&league, Value::Null).await;
    assert_standings_match(&final_standings, &scored);
    assert_ne!(final_standings, halfway);

    // As of the halfway position or instant: the halfway standings, from the query root
    // and from the League field alike.
    assert_eq!(server.standings(&league, json!({ "position": halfway_position })).await, halfway);
    assert_eq!(server.standings(&league, json!({ "time": halfway_time })).await, halfway);
    let data = server
        .data(
            None,
            "query($id: ID!, $p: Int!) {
               league(id: $id) { standings(asOf: {position: $p}) { rank player { id } total played wins draws } }
             }",
            json!({ "id": league, "p": halfway_position }),
        )
        .await;
    assert_eq!(data["league"]["standings"].as_array().unwrap(), &halfway);

    // The admin corrects game 1: its first seat now scores best.
    let game = &games[0];
    let corrected_points: Vec<(String, f64)> = game
        .seats
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), if i == 0 { 100.0 } else { i as f64 }))
        .collect();
    let input = json!({ "placement": corrected_points.iter().map(|(p, points)| json!({"playerId": p, "points": points})).collect::<Vec<_>>() });
    let corrected = GameResult::Placement(
        corrected_points
            .iter()
            .map(|(player, points)| PlacementEntry { player: player.clone(), points: *points })
            .collect(),
    );
    let data = server
        .data(
            Some(ADMIN),
            "mutation($game: ID!, $result: GameResultInput!) {
               correctGameResult(gameId: $game, result: $result, reason: \"scores were swapped\") {
                 status scores { player { id } score }
                 result { ... on PlacementResult { entries { player { id } points } } }
               }
             }",
            json!({ "game": game.id, "result": input }),
        )
        .await;
    let corrected_scored = score_game(ScoringSystem::Placement, &corrected).unwrap();
    assert_scores_match(&data["correctGameResult"], &corrected_scored);
    assert_eq!(data["correctGameResult"]["result"]["entries"][0]["points"], 100.0);
    let before = scored[0].clone();
    scored[0] = corrected_scored.clone();
    let after_correction = server.standings(&league, Value::Null).await;
    assert_standings_match(&after_correction, &scored);
    // History is immutable: the halfway view is unchanged by the correction.
    assert_eq!(server.standings(&league, json!({ "position": halfway_position })).await, halfway);

    // The correction shows in the first seat's score history with its reason and delta.
    let player = &game.seats[0];
    let data = server
        .data(
            None,
            "query($league: ID!, $player: ID!) {
               scoreHistory(leagueId: $league, playerId: $player) {
                 game { id } position recordedAt delta total reason
               }
             }",
            json!({ "league": league, "player": player }),
        )
        .await;
    let history = data["scoreHistory"].as_array().unwrap();
    let old = before.players.iter().find(|p| &p.player == player).unwrap().score;
    let new = corrected_scored.players.iter().find(|p| &p.player == player).unwrap().score;
    let last = history.last().unwrap();
    assert_eq!(last["game"]["id"], game.id.as_str());
    assert_eq!(last["reason"], "scores were swapped");
    assert!(close(last["delta"].as_f64().unwrap(), new - old));
    let total =
        after_correction.iter().find(|l| l["player"]["id"] == player.as_str()).unwrap()["total"]
            .as_f64()
            .unwrap();
    assert!(close(last["total"].as_f64().unwrap(), total));
    assert!(history[..history.len() - 1].iter().all(|change| change["reason"].is_null()));
    let positions: Vec<u64> = history.iter().map(|c| c["position"].as_u64().unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "oldest first: {positions:?}");
    let sum: f64 = history.iter().map(|c| c["delta"].as_f64().unwrap()).sum();
    assert!(close(sum, total), "the deltas add up to the total");
    let last_event = server.events(Some(&league)).await.pop().unwrap();
    assert_eq!(last_event["type"], "GameResultCorrected");
    assert_eq!(last_event["payload"]["reason"], "scores were swapped");
    assert_eq!(last_event["position"], last["position"]);
}

on_both_databases!(as_of_standings_and_corrections);

// ---------------------------------------------------------------------------------------
// Subscriptions over WebSocket.
// ---------------------------------------------------------------------------------------

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws_connect(server: &Server, protocol: &str) -> Socket {
    let mut request = server.ws_url().into_client_request().unwrap();
    request.headers_mut().insert("Sec-WebSocket-Protocol", protocol.parse().unwrap());
    let (socket, response) =
        tokio_tungstenite::connect_async(request).await.expect("WebSocket upgrade");
    assert_eq!(response.headers()["sec-websocket-protocol"], protocol);
    socket
}

async fn ws_send(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).await.unwrap();
}

/// The next JSON text message (pings answered by the library are skipped); `None` when
/// the server closed the connection.
async fn ws_next(socket: &mut Socket) -> Option<Value> {
    loop {
        let message = tokio::time::timeout(WS_TIMEOUT, socket.next())
            .await
            .expect("a WebSocket message within the timeout")?;
        match message.ok()? {
            Message::Text(text) => return Some(serde_json::from_str(&text).unwrap()),
            Message::Close(_) => return None,
            _ => continue,
        }
    }
}

async fn subscription_receives_the_events(db: TestDatabase) {
    let server = Server::start(db).await;
    let players = server.register_many(8).await;
    let league = server.create_league("PLACEMENT", 4, Some(1)).await;

    let mut socket = ws_connect(&server, "graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": { "authorization": format!("Bearer {ADMIN}") } })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "connection_ack");
    ws_send(&mut socket, json!({ "id": "events", "type": "subscribe", "payload": {
        "query": "subscription($id: ID!) { leagueEvents(leagueId: $id) { position type actor payload } }",
        "variables": { "id": league },
    }})).await;
    ws_send(&mut socket, json!({ "id": "standings", "type": "subscribe", "payload": {
        "query": "subscription($id: ID!) { standingsChanged(leagueId: $id) { position league { id } standings { rank player { id } total } } }",
        "variables": { "id": league },
    }})).await;
    // The subscriptions are registered once a ping round-trip has gone through.
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "pong");

    server.fill(&league, &players).await;
    let games = server.games(&league).await;
    let (input, _) = result_for("PLACEMENT", games[0].number, &games[0].seats);
    server.report(ADMIN, &games[0].id, &input).await;

    // 8 subscriptions, the schedule, the result: 10 events. Standings change with every
    // subscription (a new line) and with the result; wait for the result's update.
    let mut received: Vec<Value> = Vec::new();
    let mut standings_update: Option<Value> = None;
    let result_reported = |received: &[Value], update: &Option<Value>| {
        received.len() >= 10
            && update.as_ref().is_some_and(|u| u["position"] == received[9]["position"])
    };
    while !result_reported(&received, &standings_update) {
        let message = ws_next(&mut socket).await.expect("the subscription stays open");
        assert_eq!(message["type"], "next", "{message}");
        match message["id"].as_str().unwrap() {
            "events" => received.push(message["payload"]["data"]["leagueEvents"].clone()),
            "standings" => {
                standings_update = Some(message["payload"]["data"]["standingsChanged"].clone())
            }
            other => panic!("unexpected subscription id {other}"),
        }
    }
    let logged = server.events(Some(&league)).await;
    // Everything after LeagueCreated (appended before subscribing), in log order.
    for (got, want) in received.iter().zip(&logged[1..]) {
        assert_eq!(got["position"], want["position"]);
        assert_eq!(got["type"], want["type"]);
        assert_eq!(got["actor"], want["actor"]);
        assert_eq!(got["payload"], want["payload"]);
    }
    assert_eq!(received[0]["actor"], format!("player:{}", players[0].id));
    assert_eq!(received.last().unwrap()["type"], "GameFinished");
    let update = standings_update.unwrap();
    assert_eq!(update["position"], received.last().unwrap()["position"]);
    assert_eq!(update["league"]["id"], league.as_str());
    let now = server.standings(&league, Value::Null).await;
    let totals: Vec<&Value> =
        update["standings"].as_array().unwrap().iter().map(|l| &l["total"]).collect();
    assert_eq!(totals, now.iter().map(|l| &l["total"]).collect::<Vec<_>>());

    ws_send(&mut socket, json!({ "id": "events", "type": "complete" })).await;
    socket.close(None).await.ok();

    // The legacy graphql-ws protocol (subscriptions-transport-ws) works too, anonymously.
    let mut legacy = ws_connect(&server, "graphql-ws").await;
    ws_send(&mut legacy, json!({ "type": "connection_init", "payload": {} })).await;
    assert_eq!(ws_next(&mut legacy).await.unwrap()["type"], "connection_ack");
    ws_send(
        &mut legacy,
        json!({ "id": "1", "type": "start", "payload": {
            "query": "subscription($id: ID!) { leagueEvents(leagueId: $id) { type } }",
            "variables": { "id": league },
        }}),
    )
    .await;
    // Give the server a moment to register the subscription (the legacy protocol has no ping).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (input, _) = result_for("PLACEMENT", games[1].number, &games[1].seats);
    server.report(ADMIN, &games[1].id, &input).await;
    let message = ws_next(&mut legacy).await.unwrap();
    assert_eq!(message["type"], "data");
    assert_eq!(message["payload"]["data"]["leagueEvents"]["type"], "GameFinished");

    // A bad token in connection_init closes the connection without an ack.
    let mut refused = ws_connect(&server, "graphql-transport-ws").await;
    ws_send(
        &mut refused,
        json!({ "type": "connection_init", "payload": { "authorization": "Bearer wrong" } }),
    )
    .await;
    assert_eq!(ws_next(&mut refused).await, None, "closed, no connection_ack");
}

on_both_databases!(subscription_receives_the_events);

// ---------------------------------------------------------------------------------------
// Authorisation: every mutation × every kind of caller.
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    Allowed,
    Refused(&'static str),
}

/// Runs a mutation as `token` and checks the outcome; a refusal must append nothing.
async fn attempt(
    server: &Server,
    who: &str,
    token: Option<&str>,
    query: &str,
    variables: Value,
    expect: Expect,
) {
    let before = server.event_count().await;
    let response = server.gql(token, query, variables).await;
    let after = server.event_count().await;
    match expect {
        Expect::Allowed => {
            assert!(response.get("errors").is_none(), "{who}: expected success, got {response:#}");
            assert!(after > before, "{who}: an allowed mutation appends");
        }
        Expect::Refused(code) => {
            assert_eq!(response["errors"][0]["extensions"]["code"], code, "{who}: {response:#}");
            assert!(response["data"].is_null(), "{who}: no data on refusal: {response:#}");
            assert_eq!(after, before, "{who}: a refused mutation appends nothing");
        }
    }
}

async fn every_mutation_by_every_kind_of_caller(db: TestDatabase) {
    use Expect::{Allowed, Refused};
    const UNAUTH: Expect = Refused("UNAUTHENTICATED");
    const FORBIDDEN: Expect = Refused("FORBIDDEN");
    let server = Server::start(db).await;
    let (league, players, games) = running_league(&server).await;
    let game = &games[0];
    let seated = players.iter().find(|p| p.id == game.seats[0]).unwrap().clone();
    let other = players.iter().find(|p| !game.seats.contains(&p.id)).unwrap().clone();
    let callers = |expect: [Expect; 5]| {
        [
            ("anonymous", None, expect[0]),
            ("invalid token", Some("not-a-token".to_owned()), expect[1]),
            ("other player", Some(other.token.clone()), expect[2]),
            ("seated player", Some(seated.token.clone()), expect[3]),
            ("admin", Some(ADMIN.to_owned()), expect[4]),
        ]
    };

    // registerPlayer and createLeague: admin only.
    for (who, token, expect) in callers([UNAUTH, UNAUTH, FORBIDDEN, FORBIDDEN, Allowed]) {
        let query = "mutation { registerPlayer(input: {name: \"Newcomer\"}) { token } }";
        attempt(&server, who, token.as_deref(), query, json!({}), expect).await;
        let query = "mutation { createLeague(input: {name: \"L\", game: \"Go\", scoringSystem: PLACEMENT, playersPerGame: 2}) { id } }";
        attempt(&server, who, token.as_deref(), query, json!({}), expect).await;
    }

    // subscribeToLeague / unsubscribeFromLeague of the seated player into a new open
    // league: the player themself or the admin; "seated player" acts on their own behalf.
    let open = server.create_league("PLACEMENT", 4, Some(1)).await;
    let subscribe =
        "mutation($l: ID!, $p: ID) { subscribeToLeague(leagueId: $l, playerId: $p) { id } }";
    let unsubscribe =
        "mutation($l: ID!, $p: ID) { unsubscribeFromLeague(leagueId: $l, playerId: $p) { id } }";
    let vars = json!({ "l": open, "p": seated.id });
    for (who, token, expect) in callers([UNAUTH, UNAUTH, FORBIDDEN, Allowed, Allowed]) {
        attempt(&server, who, token.as_deref(), subscribe, vars.clone(), expect).await;
        if expect == Allowed {
            // Undo it (also checking unsubscription by the same caller).
            attempt(&server, who, token.as_deref(), unsubscribe, vars.clone(), Allowed).await;
        }
    }
    // Unsubscribing someone else is refused the same way.
    attempt(&server, "admin", Some(ADMIN), subscribe, vars.clone(), Allowed).await;
    for (who, token, expect) in callers([UNAUTH, UNAUTH, FORBIDDEN, Allowed, Allowed]) {
        if expect == Allowed {
            continue; // checked above
        }
        attempt(&server, who, token.as_deref(), unsubscribe, vars.clone(), expect).await;
    }

    // reportGameResult: the admin or a player seated in the game (each on a fresh game).
    let report = "mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { status } }";
    let mut fresh_games =
        games.iter().filter(|g| g.seats.contains(&seated.id) && !g.seats.contains(&other.id));
    for (who, token, expect) in callers([UNAUTH, UNAUTH, FORBIDDEN, Allowed, Allowed]) {
        let game = if expect == Allowed {
            fresh_games.next().expect("a fresh game with the seated player")
        } else {
            game
        };
        let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
        attempt(
            &server,
            who,
            token.as_deref(),
            report,
            json!({ "g": game.id, "r": input }),
            expect,
        )
        .await;
    }

    // correctGameResult: admin only.
    let reported = games
        .iter()
        .find(|g| g.seats.contains(&seated.id) && !g.seats.contains(&other.id))
        .unwrap();
    let correct = "mutation($g: ID!, $r: GameResultInput!) { correctGameResult(gameId: $g, result: $r, reason: \"fix\") { status } }";
    let (input, _) = result_for("PLACEMENT", reported.number + 1, &reported.seats);
    for (who, token, expect) in callers([UNAUTH, UNAUTH, FORBIDDEN, FORBIDDEN, Allowed]) {
        attempt(
            &server,
            who,
            token.as_deref(),
            correct,
            json!({ "g": reported.id, "r": input }),
            expect,
        )
        .await;
    }
    let data = server
        .data(None, "query($id: ID!) { league(id: $id) { status } }", json!({ "id": league }))
        .await;
    assert_eq!(data["league"]["status"], "RUNNING");
}

on_both_databases!(every_mutation_by_every_kind_of_caller);

// ---------------------------------------------------------------------------------------
// Errors, idempotency, limits and the HTTP surface.
// ---------------------------------------------------------------------------------------

fn error_of(response: &Value) -> (&str, Option<&str>) {
    let extensions = &response["errors"][0]["extensions"];
    (extensions["code"].as_str().unwrap_or("<none>"), extensions["field"].as_str())
}

async fn errors_idempotency_and_limits(db: TestDatabase) {
    let server = Server::start(db).await;
    let (league, players, games) = running_league(&server).await;
    let game = &games[0];
    let report = "mutation($g: ID!, $r: GameResultInput!, $key: String) {
        reportGameResult(gameId: $g, result: $r, idempotencyKey: $key) { id status scores { player { id } score } }
    }";
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    let count = server.event_count().await;

    // BAD_USER_INPUT names the field: wrong shape, negative centres, a bad id, page size.
    let diplomacy = json!({ "diplomacy": game.seats.iter().map(|p| json!({"playerId": p, "centres": -1})).collect::<Vec<_>>() });
    let response = server.gql(Some(ADMIN), report, json!({ "g": game.id, "r": diplomacy })).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("result.diplomacy[0].centres")));
    let diplomacy = json!({ "diplomacy": game.seats.iter().map(|p| json!({"playerId": p, "centres": 3})).collect::<Vec<_>>() });
    let response = server.gql(Some(ADMIN), report, json!({ "g": game.id, "r": diplomacy })).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("result")));
    let response = server.gql(Some(ADMIN), report, json!({ "g": "no-such-id", "r": input })).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("gameId")));
    let response = server.gql(None, "{ leagues(first: 101) { totalCount } }", json!({})).await;
    assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("first")));
    // Both oneOf fields at once is refused by document validation, before any resolver
    // runs (like every value that does not fit its declared input type).
    let both = json!({ "placement": input["placement"], "diplomacy": [] });
    let response = server.gql(Some(ADMIN), report, json!({ "g": game.id, "r": both })).await;
    assert_eq!(error_of(&response), ("GRAPHQL_VALIDATION_FAILED", None));
    // So is a value of no enum.
    let create = "mutation($s: ScoringSystem!) {
        createLeague(input: {name: \"X\", game: \"Go\", scoringSystem: $s, playersPerGame: 2}) { id }
    }";
    let response = server.gql(Some(ADMIN), create, json!({ "s": "CHESS_ELO" })).await;
    assert_eq!(error_of(&response), ("GRAPHQL_VALIDATION_FAILED", None));
    // NOT_FOUND: a well-formed id of no game.
    let nobody = "00000000-0000-7000-8000-000000000000";
    let response = server.gql(Some(ADMIN), report, json!({ "g": nobody, "r": input })).await;
    assert_eq!(error_of(&response), ("NOT_FOUND", None));
    let response = server
        .gql(None, "query($l: ID!) { standings(leagueId: $l) { rank } }", json!({ "l": nobody }))
        .await;
    assert_eq!(error_of(&response), ("NOT_FOUND", None));
    let response = server
        .gql(
            None,
            "query($l: ID!) { events(leagueId: $l, first: 0) { totalCount } }",
            json!({ "l": nobody }),
        )
        .await;
    assert_eq!(error_of(&response), ("NOT_FOUND", None));
    assert_eq!(server.event_count().await, count, "refusals append nothing");

    // Idempotency: a retried report with the same key gets the identical answer.
    let vars = json!({ "g": game.id, "r": input, "key": "report-game-1" });
    let first = server.gql(Some(ADMIN), report, vars.clone()).await;
    assert!(first.get("errors").is_none(), "{first:#}");
    let count = server.event_count().await;
    let retry = server.gql(Some(ADMIN), report, vars).await;
    assert_eq!(retry, first);
    assert_eq!(server.event_count().await, count, "the retry appended nothing");
    // Without the key, reporting again is a CONFLICT.
    let response = server.gql(Some(ADMIN), report, json!({ "g": game.id, "r": input })).await;
    assert_eq!(error_of(&response), ("CONFLICT", None));
    // createLeague retried with its key returns the same league.
    let create = "mutation { createLeague(input: {name: \"Once\", game: \"Go\", scoringSystem: PLACEMENT, playersPerGame: 2}, idempotencyKey: \"create-once\") { id } }";
    let a = server.data(Some(ADMIN), create, json!({})).await;
    let b = server.data(Some(ADMIN), create, json!({})).await;
    assert_eq!(a, b);

    // Authentication on reads: none is fine, an invalid token is refused.
    let response = server.gql(Some("forged"), "{ leagues { totalCount } }", json!({})).await;
    assert_eq!(error_of(&response), ("UNAUTHENTICATED", None));
    let me = "{ me { id name } }";
    assert_eq!(server.data(None, me, json!({})).await["me"], Value::Null);
    assert_eq!(
        server.data(Some(&players[2].token), me, json!({})).await["me"]["id"],
        players[2].id.as_str()
    );

    // Depth and complexity limits.
    // 2 + 2·8 + 1 = 19 levels, above the default limit of 12.
    let deep = format!(
        "{{ leagues {{ nodes {{ {} id {} }} }} }}",
        "games { league { ".repeat(8),
        "} } ".repeat(8)
    );
    let response = server.gql(None, &deep, json!({})).await;
    assert_eq!(error_of(&response), ("QUERY_TOO_COMPLEX", None));
    assert_eq!(response["errors"][0]["extensions"]["limit"], "depth");
    let wide: String = (1..=20)
        .map(|i| format!("l{i}: leagues(first: 100) {{ nodes {{ id name game }} }} "))
        .collect();
    let wide = format!("{{ {wide} }}");
    let response = server.gql(None, &wide, json!({})).await;
    assert_eq!(error_of(&response), ("QUERY_TOO_COMPLEX", None));
    assert_eq!(response["errors"][0]["extensions"]["limit"], "complexity");
    let response = server.gql(None, "{ leagues { nodes { id } ", json!({})).await;
    assert_eq!(error_of(&response), ("GRAPHQL_PARSE_FAILED", None));
    let response = server.gql(None, "{ leagues { nodes { colour } } }", json!({})).await;
    assert_eq!(error_of(&response), ("GRAPHQL_VALIDATION_FAILED", None));

    // Connections page with cursors.
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
    let data = server.data(None, "{ leagues { totalCount nodes { id } } }", json!({})).await;
    assert_eq!(data["leagues"]["nodes"][0]["id"], league.as_str());
}

on_both_databases!(errors_idempotency_and_limits);

async fn http_surface_and_graceful_shutdown(db: TestDatabase) {
    // No admin token configured: one is generated and printed once.
    let server = Server::start_with(
        db,
        &[("LEAGUE_CORS_ORIGINS", "http://frontend.test"), ("LEAGUE_MAX_QUERY_DEPTH", "4")],
    )
    .await;
    let admin = server
        .banner
        .iter()
        .find_map(|line| line.strip_prefix("admin token (generated, shown once): "))
        .expect("the generated admin token is printed")
        .to_owned();
    assert_eq!(admin.len(), 64);
    // The client's request id comes back as a header and lands in the event's metadata.
    let request_id = uuid::Uuid::now_v7().to_string();
    let response = server
        .http
        .post(format!("{}/graphql", server.base))
        .bearer_auth(&admin)
        .header("x-request-id", &request_id)
        .json(&json!({ "query": "mutation { registerPlayer(input: {name: \"Ann\"}) { player { name } } }" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], request_id.as_str());
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["data"]["registerPlayer"]["player"]["name"], "Ann");
    let data = server.data(None, "{ events { nodes { type correlationId } } }", json!({})).await;
    assert_eq!(
        data["events"]["nodes"],
        json!([{ "type": "PlayerRegistered", "correlationId": request_id }])
    );

    // The configured depth limit applies.
    let response =
        server.gql(None, "{ players { nodes { leagues { games { id } } } } }", json!({})).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "QUERY_TOO_COMPLEX");
    assert_eq!(response["errors"][0]["extensions"]["max"], 4);
    assert_eq!(response["errors"][0]["extensions"]["actual"], 5);

    let health = server.http.get(format!("{}/healthz", server.base)).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let request_id =
        health.headers().get("x-request-id").expect("every response has a request id").clone();
    assert!(uuid::Uuid::parse_str(request_id.to_str().unwrap()).is_ok());
    let body: Value = health.json().await.unwrap();
    assert_eq!(body, json!({ "status": "ok", "position": 1 }));

    let page = server.http.get(&server.base).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("graphiql"));

    // CORS preflight from the configured origin.
    let preflight = server
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/graphql", server.base))
        .header("Origin", "http://frontend.test")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization, content-type")
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.headers()["access-control-allow-origin"], "http://frontend.test");

    // A body announced above the limit is refused before it is read. (Raw HTTP: a client
    // still sending a large body may see the connection close instead of the answer.)
    let address = server.base.strip_prefix("http://").unwrap();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /graphql HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        2 * 1024 * 1024
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut status_line = String::new();
    BufReader::new(stream).read_line(&mut status_line).await.unwrap();
    assert!(status_line.starts_with("HTTP/1.1 413"), "{status_line}");

    // An open subscription does not hold shutdown up: its stream ends, the server exits 0.
    let data = server
        .data(
            Some(&admin),
            "mutation { createLeague(input: {name: \"L\", game: \"Go\", scoringSystem: PLACEMENT, playersPerGame: 2}) { id } }",
            json!({}),
        )
        .await;
    let mut socket = ws_connect(&server, "graphql-transport-ws").await;
    ws_send(&mut socket, json!({ "type": "connection_init" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "connection_ack");
    ws_send(
        &mut socket,
        json!({ "id": "1", "type": "subscribe", "payload": {
            "query": "subscription($id: ID!) { leagueEvents(leagueId: $id) { type } }",
            "variables": { "id": data["createLeague"]["id"] },
        }}),
    )
    .await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(ws_next(&mut socket).await.unwrap()["type"], "pong");

    let status = server.terminate().await;
    assert!(status.success(), "graceful shutdown exits 0, got {status}");
    match ws_next(&mut socket).await {
        None => {}
        Some(message) => assert_eq!(message, json!({ "id": "1", "type": "complete" })),
    }
}

/// Bad flags and unsupported database URLs are bad input (exit 2, one line on stderr,
/// nothing on stdout); a database that cannot be opened is a failure (exit 1).
#[test]
fn serve_refuses_bad_flags_and_reports_unusable_databases() {
    let league = env!("CARGO_BIN_EXE_league");
    let output = std::process::Command::new(league)
        .args(["serve", "--listen", "not-an-address", "--database", "sqlite::memory:"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().filter(|l| l.starts_with("league: ")).count(), 1, "{stderr}");
    assert!(stderr.contains("--listen"), "{stderr}");

    let serve = |database: &str| {
        std::process::Command::new(league)
            .args(["serve", "--listen", "127.0.0.1:0", "--database", database])
            .env("RUST_LOG", "off")
            .output()
            .unwrap()
    };
    let output = serve("mysql://nowhere/league");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("league: database: unsupported database URL"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);

    let output = serve("sqlite:///no/such/directory/league.db?mode=rwc");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("league: cannot open the database"), "{stderr}");
}

on_both_databases!(http_surface_and_graceful_shutdown);
