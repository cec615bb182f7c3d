//! Teams on both databases (`docs/tournaments.md#teams`): a director makes two teams (one
//! member put in through the CLI), a team round keeps team-mates apart and its seeding
//! verifies, and GraphQL, the exports and the CLI show the same team standings.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::tournament::{
    check_in, create, diplomacy_input, enter, report_round, seat_ids, seed, tournament,
};
use crate::replay::{league, stdout};
use crate::support::{ADMIN, Player, TestApp, spawn_app};

pub(crate) const CREATE_TEAM: &str = "mutation($t: ID!, $n: String!) {
  createTeam(tournamentId: $t, name: $n) { teams { number name } } }";
pub(crate) const ADD_MEMBER: &str = "mutation($t: ID!, $n: Int!, $p: ID!) {
  addTeamMember(tournamentId: $t, number: $n, playerId: $p) { id } }";
pub(crate) const TEAM_RULES: &str = "mutation($t: ID!, $r: TeamRulesInput!) {
  changeTeamRules(tournamentId: $t, rules: $r) { id } }";

const TEAMS: &str = "query($t: ID!) {
  tournament(id: $t) {
    teamRules { maxSize teamRounds basis best }
    teams { number name members { id } }
    teamStandings { rank total team { number name } scores { player { id } round board score counted } }
    standings { total player { id } }
    export(format: JSON)
    teamsCsv: export(format: CSV, table: TEAMS)
    standingsCsv: export(format: CSV, table: STANDINGS)
  }
}";

/// A tournament of `rounds` rounds with 14 entrants (registered as `prefix` 1…14), all
/// checked in for round 1.
pub(crate) async fn checked_in(
    server: &TestApp,
    prefix: &str,
    rounds: u32,
) -> (String, Vec<Player>) {
    let players = server.register_many(14, prefix).await;
    let id = create(server, diplomacy_input(rounds)).await["data"]["createTournament"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for player in &players {
        assert!(enter(server, &player.token, &id, None).await["errors"].is_null());
        check_in(server, player, &id, 1, false).await;
    }
    (id, players)
}

async fn teams_keep_apart_and_every_surface_shows_the_same_team_standings(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (id, players) = checked_in(&server, "Teamed", 2).await;
    for name in ["North", "South"] {
        let made = server.gql(Some(ADMIN), CREATE_TEAM, json!({ "t": id, "n": name })).await;
        assert!(made["errors"].is_null(), "{made}");
    }
    let rules = json!({ "t": id, "r": { "maxSize": 2, "best": 2 } });
    assert!(server.gql(Some(ADMIN), TEAM_RULES, rules).await["errors"].is_null());
    for (team, player) in [(1, 0), (1, 1), (2, 2)] {
        let vars = json!({ "t": id, "n": team, "p": players[player].id });
        let added = server.gql(Some(ADMIN), ADD_MEMBER, vars).await;
        assert!(added["errors"].is_null(), "{added}");
    }
    let cli = &["tournament", "team", "add", "--tournament", &id, "--number", "2"];
    let added = league(&[&cli[..], &["--player", &players[3].id]].concat(), &db);
    assert_eq!(added.status.code(), Some(0), "{}", stdout(&added));
    // North is full (the limit is 2): a third member is refused.
    let vars = json!({ "t": id, "n": 1, "p": players[4].id });
    let full = server.gql(Some(ADMIN), ADD_MEMBER, vars).await;
    assert_eq!(full["errors"][0]["extensions"]["code"], "CONFLICT", "{full}");

    // Round 1 (every round is a team round) keeps team-mates apart.
    assert!(seed(&server, &id, 1).await["errors"].is_null());
    let state = tournament(&server, &id, None, Value::Null).await;
    let board_of = |player: &str| {
        state["rounds"][0]["boards"]
            .as_array()
            .unwrap()
            .iter()
            .position(|board| seat_ids(board).contains(&player))
            .unwrap()
    };
    assert_ne!(board_of(&players[0].id), board_of(&players[1].id));
    assert_ne!(board_of(&players[2].id), board_of(&players[3].id));
    assert_eq!(state["seedingChecks"], json!([{ "round": 1, "verified": true }]));
    let verified = league(&["tournament", "verify-seeding", "--tournament", &id], &db);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));

    report_round(&server, &players, &id, 1).await;
    let state = server.data(None, TEAMS, json!({ "t": id })).await["tournament"].clone();
    assert_eq!(
        state["teamRules"],
        json!({ "maxSize": 2, "teamRounds": null, "basis": "BOARD", "best": 2 })
    );
    let total_of = |player: &str| {
        state["standings"].as_array().unwrap().iter().find(|s| s["player"]["id"] == player).unwrap()
            ["total"]
            .as_f64()
            .unwrap()
    };
    let north: f64 = [0, 1].iter().map(|&p| total_of(&players[p].id)).sum();
    let south: f64 = [2, 3].iter().map(|&p| total_of(&players[p].id)).sum();
    let standings = state["teamStandings"].as_array().unwrap();
    let line = |name: &str| standings.iter().find(|t| t["team"]["name"] == name).unwrap();
    assert!((line("North")["total"].as_f64().unwrap() - north).abs() < 0.001, "{standings:?}");
    assert!((line("South")["total"].as_f64().unwrap() - south).abs() < 0.001);
    assert_eq!(line("North")["scores"].as_array().unwrap().len(), 2);
    assert_eq!(standings[0]["rank"], 1);

    // The JSON export, the CSV tables and the CLI agree with GraphQL.
    let export: Value = serde_json::from_str(state["export"].as_str().unwrap()).unwrap();
    let exported: Vec<(String, f64, u64)> = export["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let name = t["name"].as_str().unwrap().to_owned();
            (name, t["total"].as_f64().unwrap(), t["rank"].as_u64().unwrap())
        })
        .collect();
    let graphql: Vec<(String, f64, u64)> = standings
        .iter()
        .map(|t| {
            let name = t["team"]["name"].as_str().unwrap().to_owned();
            (name, t["total"].as_f64().unwrap(), t["rank"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(exported, graphql);
    let teams_csv = state["teamsCsv"].as_str().unwrap();
    assert!(teams_csv.starts_with("rank,team,total,counted,members\n"), "{teams_csv}");
    assert_eq!(teams_csv.lines().count(), 3, "{teams_csv}");
    let standings_csv = state["standingsCsv"].as_str().unwrap();
    assert!(
        standings_csv.lines().next().unwrap().ends_with(",awards,pools,rulings,team"),
        "{standings_csv}"
    );
    let member_row = standings_csv.lines().find(|l| l.contains(&players[0].id)).unwrap();
    assert!(member_row.ends_with(",North"), "{member_row}");
    let cli = league(&["tournament", "team", "standings", "--tournament", &id], &db);
    assert_eq!(cli.status.code(), Some(0), "{}", stdout(&cli));
    let cli: Value = serde_json::from_str(&stdout(&cli)).unwrap();
    assert_eq!(cli, export["teams"], "the CLI and the export agree");
    // A refusal through the CLI exits non-zero and appends nothing.
    let again =
        league(&["tournament", "team", "create", "--tournament", &id, "--name", "north"], &db);
    assert_ne!(again.status.code(), Some(0), "the name is taken");
}

on_both_databases!(teams_keep_apart_and_every_surface_shows_the_same_team_standings);
