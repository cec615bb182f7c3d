//! The scoring oracle of the API tests: a plausible result of every system as both the
//! GraphQL input and the `league_scoring` value, and checks of the server's scores and
//! standings against `league_scoring` over the same games.

use std::collections::BTreeMap;

use league_scoring::{
    DiplomacyEntry, GameResult, PlacementEntry, ScoredGame, ScoringSystem, Side, TeamPlayer,
    TeamResult, rank_standings,
};
use serde_json::{Value, json};

use crate::support::{GameInfo, Player, TestApp};

/// The scoring crate's system for a GraphQL enum value.
pub fn scoring_system(system: &str) -> ScoringSystem {
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

/// Supply-centre distributions (7 powers, ≤ 34 centres) every Diplomacy system scores;
/// the last has an eliminated power.
const CENTRES: [[u32; 7]; 3] =
    [[12, 8, 6, 4, 2, 1, 1], [9, 7, 6, 5, 4, 2, 1], [14, 10, 5, 3, 1, 1, 0]];

/// A plausible result of game `number` with `seats`, varied from game to game, as
/// (GraphQL `GameResultInput`, the same result for `league_scoring`).
pub fn result_for(system: &str, number: u32, seats: &[String]) -> (Value, GameResult) {
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
                        eliminated: centres == 0,
                        eliminated_year: (centres == 0).then_some(1906),
                        ..DiplomacyEntry::new(p.clone(), centres)
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
            teams_result(TeamResult { draw: false, sides })
        }
        other => panic!("no result shape for {other}"),
    }
}

/// A team game as the API's `teams` input and as the oracle's result.
pub fn teams_result(teams: TeamResult) -> (Value, GameResult) {
    let input = json!({ "teams": { "draw": teams.draw, "sides": teams.sides.iter().map(|side| json!({
        "name": side.name,
        "players": side.players.iter().map(|p| json!({
            "playerId": p.player, "points": p.points, "units": p.units, "lost": p.lost,
            "kills": p.kills, "shipsLeft": p.ships_left, "surrendered": p.surrendered,
        })).collect::<Vec<_>>(),
    })).collect::<Vec<_>>() }});
    (input, GameResult::Teams(teams))
}

pub fn close(a: f64, b: f64) -> bool {
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

pub fn assert_scores_match(game: &Value, scored: &ScoredGame) {
    let actual = scores_of(game);
    assert_eq!(actual.len(), scored.players.len());
    for expected in &scored.players {
        let got = actual[&expected.player];
        assert!(close(got, expected.score), "{}: {got} ≠ {}", expected.player, expected.score);
    }
}

/// TestApp standings against `league_scoring::rank_standings` over the same games: the
/// ranked players first, then every subscribed player without a result yet, sharing the
/// last rank with nothing scored (all test leagues have 8 players).
pub fn assert_standings_match(actual: &[Value], scored: &[ScoredGame]) {
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

/// An open placement league of 8 players, k = 4, one game per seat (8 games); its id.
pub async fn small_placement_league(server: &TestApp) -> String {
    let league = server
        .create_league_with(json!({
            "name": "Small league", "game": "Carcassonne", "scoringSystem": "PLACEMENT",
            "playersPerGame": 4, "gamesPerSeat": 1,
        }))
        .await;
    league["id"].as_str().expect("league id").to_owned()
}

/// A running placement league (k = 4, one game per seat: 8 games) and its players.
pub async fn running_league(server: &TestApp) -> (String, Vec<Player>, Vec<GameInfo>) {
    let players = server.register_many(8, "Player").await;
    let league = small_placement_league(server).await;
    server.fill(&league, &players).await;
    let games = server.game_infos(&league).await;
    assert_eq!(games.len(), 8);
    (league, players, games)
}
