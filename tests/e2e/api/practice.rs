//! Tournament practice on every surface, both databases (`docs/tournaments.md`: power
//! assignment, pools, rulings, Best Country and awards, teams; `docs/series.md`): one
//! two-round tournament of 14 with powers by preference, team round 1, a −5 board penalty,
//! an unranked director who plays, round 2's pool of the best 7 ×1.5 and a named award, then
//! a second tournament and a series over both. GraphQL, the `league` CLI's JSON and the
//! exports (JSON and CSV) are compared field by field: standings totals and ranks, unranked
//! lines, adjustments, the pool's multiplied scores, Best Country leaders, awards, team
//! standings and the series standing.

use std::collections::BTreeMap;

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use super::awards::GIVE;
use super::confirmation::{report, seats_of};
use super::pools::SET_POOL;
use super::rulings::{ADJUST, UNRANKED};
use super::teams::{ADD_MEMBER, CREATE_TEAM, TEAM_RULES};
use super::tournament::{check_in, create, diplomacy_input, enter, report_round, seed};
use crate::replay::{league, stdout};
use crate::support::{ADMIN, Player, TestApp, spawn_app};

const POWERS: [&str; 7] = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

const METHOD: &str = "mutation($t: ID!, $m: PowerAssignment!) {
  changePowerAssignment(tournamentId: $t, method: $m) { id } }";
const RANK: &str = "mutation($t: ID!, $w: [String!]!) {
  submitPowerPreferences(tournamentId: $t, powers: $w) { id } }";
const CREATE_SERIES: &str =
    "mutation($input: CreateSeriesInput!) { createSeries(input: $input) { id } }";
const ADD_EVENT: &str =
    "mutation($s: ID!, $c: ID!) { addSeriesEvent(seriesId: $s, competitionId: $c) { id } }";

/// Everything GraphQL shows of the tournament, with its exports as GraphQL serves them (the
/// download routes' bytes).
const TOURNAMENT: &str = "query($t: ID!) {
  tournament(id: $t) {
    standings {
      rank total unranked notes player { id }
      rounds { round score boards { board score } }
      rulings { kind number round board points reason }
    }
    rounds { number boards { number seats { label player { id } } } }
    roundStages { round pool { best multiplier decidesPlaces poolBoards } }
    bestCountries { power leaders { player { id } round boardNumber score centres tied } }
    awards { number name player { id } power }
    teamStandings { rank total team { number name members { id } } scores { counted } }
    json: export(format: JSON)
    standingsCsv: export(format: CSV, table: STANDINGS)
    resultsCsv: export(format: CSV)
    teamsCsv: export(format: CSV, table: TEAMS)
  }
}";

const SERIES: &str = "query($s: ID!) {
  series(id: $s) {
    standings { rank total attended player { id } }
    attendance { player { id } results { eventId rank points counted } }
    exportJson exportCsv
  }
}";

/// Exact thousandths of a number (scores and totals are exact to the thousandth).
fn milli(value: &Value) -> i64 {
    (value.as_f64().unwrap_or_else(|| panic!("a number: {value}")) * 1000.0).round() as i64
}

/// A CSV cell read as a number's thousandths.
fn milli_text(cell: &str) -> i64 {
    (cell.parse::<f64>().unwrap_or_else(|_| panic!("a number: {cell:?}")) * 1000.0).round() as i64
}

/// The rows of a CSV text as maps from its header's names.
fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            header.iter().zip(record.iter()).map(|(k, v)| (k.to_owned(), v.to_owned())).collect()
        })
        .collect()
}

/// The `league` CLI's JSON answer to `args` (exit 0).
fn cli_json(args: &[&str], db: &TestDatabase) -> Value {
    let output = league(args, db);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {}", crate::replay::stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap()
}

/// A Diplomacy result of `seats` holding `centres` in seat order.
fn result(seats: &[String], centres: [u32; 7]) -> Value {
    let entries: Vec<Value> = (seats.iter().zip(centres))
        .map(|(player, centres)| json!({ "playerId": player, "centres": centres }))
        .collect();
    json!({ "diplomacy": entries })
}

/// Seeds `round`, reports board 1 10, 8, 6, 4, 3, 2, 1 and board 2 15, 8, 7, 1, 1, 1, 1
/// centres in seat order; each board's seats (player ids, power order).
async fn play(server: &TestApp, id: &str, round: u32) -> Vec<Vec<String>> {
    let seeded = seed(server, id, round).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
    let centres = [[10, 8, 6, 4, 3, 2, 1], [15, 8, 7, 1, 1, 1, 1]];
    let mut boards = Vec::new();
    for (board, centres) in
        seeded["data"]["seedRound"]["boards"].as_array().unwrap().iter().zip(centres)
    {
        let board_id = board["id"].as_str().unwrap();
        let seats = seats_of(server, id, board_id).await;
        let reported = report(server, ADMIN, id, board_id, result(&seats, centres)).await;
        assert!(reported["errors"].is_null(), "{reported}");
        boards.push(seats);
    }
    boards
}

async fn ok(server: &TestApp, token: &str, query: &str, variables: Value) -> Value {
    let response = server.gql(Some(token), query, variables).await;
    assert!(response["errors"].is_null(), "{query}: {response}");
    response["data"].clone()
}

/// The practice tournament, played: its id, its players, round 1's and round 2's boards,
/// the penalised player and the unranked director.
struct Played {
    id: String,
    players: Vec<Player>,
    round_two: Vec<Vec<String>>,
    penalised: String,
    director: String,
}

async fn practice_tournament(server: &TestApp) -> Played {
    let players = server.register_many(14, "Practice").await;
    let mut input = diplomacy_input(2);
    input["name"] = json!("Practice Open");
    let id =
        create(server, input).await["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    ok(server, ADMIN, METHOD, json!({ "t": id, "m": "PREFERENCES" })).await;
    for (i, player) in players.iter().enumerate() {
        assert!(enter(server, &player.token, &id, None).await["errors"].is_null());
        check_in(server, player, &id, 1, false).await;
        let ranking: Vec<&str> = (0..3).map(|k| POWERS[(i + k) % 7]).collect();
        ok(server, &player.token, RANK, json!({ "t": id, "w": ranking })).await;
    }
    // Two teams of two; round 1 is the team round (round 2 seats its pool together).
    ok(server, ADMIN, TEAM_RULES, json!({ "t": id, "r": { "teamRounds": [1] } })).await;
    for (number, (name, members)) in [("North", [1, 2]), ("South", [3, 4])].into_iter().enumerate()
    {
        ok(server, ADMIN, CREATE_TEAM, json!({ "t": id, "n": name })).await;
        for member in members {
            let vars = json!({ "t": id, "n": number + 1, "p": players[member].id });
            ok(server, ADMIN, ADD_MEMBER, vars).await;
        }
    }
    let round_one = play(server, &id, 1).await;
    let boards = ok(
        server,
        ADMIN,
        "query($t: ID!) { tournament(id: $t) { rounds { boards { id } } } }",
        json!({ "t": id }),
    )
    .await;
    let board_one = boards["tournament"]["rounds"][0]["boards"][0]["id"].clone();
    let penalised = round_one[0][0].clone();
    let vars = json!({ "t": id, "p": penalised, "l": "BOARD", "b": board_one, "x": -5.0, "why": "late to the board" });
    ok(server, ADMIN, ADJUST, vars).await;
    let director = round_one[1][6].clone();
    let vars = json!({ "t": id, "p": director, "u": true, "why": "the director plays" });
    ok(server, ADMIN, UNRANKED, vars).await;

    let vars = json!({ "t": id, "r": 2, "b": 7, "m": "1.5", "k": "pool-2" });
    ok(server, ADMIN, SET_POOL, vars).await;
    for player in &players {
        check_in(server, player, &id, 2, false).await;
    }
    let round_two = play(server, &id, 2).await;
    let vars = json!({ "t": id, "n": "Best Diplomat", "p": round_two[0][2], "w": "France" });
    ok(server, ADMIN, GIVE, vars).await;
    Played { id, players, round_two, penalised, director }
}

/// A line of a list by its player id (GraphQL `player.id`, the exports' `playerId`, the
/// CLI's `player`).
fn by_player<'a>(lines: &'a [Value], player: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| {
            [&l["player"]["id"], &l["playerId"], &l["player"]]
                .iter()
                .any(|id| id.as_str() == Some(player))
        })
        .unwrap_or_else(|| panic!("no line of {player}"))
}

/// Standings: GraphQL, `league tournament standings`, `league tournament ruling list`, the
/// JSON export and the standings CSV give the same ranks, totals, round and board scores,
/// unranked lines, rulings, pools, awards and teams, line by line in the same order.
fn standings_agree(shown: &Value, export: &Value, csv: &str, cli: &Value, cli_rulings: &Value) {
    let graphql = shown["standings"].as_array().unwrap();
    let exported = export["standings"].as_array().unwrap();
    let cli = cli.as_array().unwrap();
    let rows = csv_rows(csv);
    assert_eq!(cli_rulings, &export["standings"], "`ruling list` prints the export's lines");
    assert_eq!(
        (exported.len(), cli.len(), rows.len()),
        (graphql.len(), graphql.len(), graphql.len())
    );
    for (((line, exported), cli), row) in graphql.iter().zip(exported).zip(cli).zip(&rows) {
        let player = line["player"]["id"].as_str().unwrap();
        assert_eq!(
            (exported["playerId"].as_str(), cli["player"].as_str()),
            (Some(player), Some(player))
        );
        assert_eq!(row["playerId"], player);
        assert_eq!((&exported["rank"], &cli["rank"]), (&line["rank"], &line["rank"]), "{player}");
        let unranked = line["unranked"].as_bool().unwrap();
        assert_eq!(exported["unranked"].as_bool().unwrap_or(false), unranked);
        assert_eq!(cli["unranked"].as_bool().unwrap_or(false), unranked);
        let rank = if unranked { String::new() } else { line["rank"].to_string() };
        assert_eq!(row["rank"], rank, "an unranked line's rank cell is empty");
        let total = milli(&line["total"]);
        assert_eq!((milli(&exported["total"]), milli(&cli["total"])), (total, total), "{player}");
        assert_eq!(milli_text(&row["total"]), total);
        assert_eq!(cli["notes"], line["notes"]);
        for (round, cli_round) in
            line["rounds"].as_array().unwrap().iter().zip(cli["rounds"].as_array().unwrap())
        {
            assert_eq!(cli_round["round"], round["round"]);
            assert_eq!(milli(&cli_round["score"]), milli(&round["score"]), "{player} {round}");
            let boards: Vec<i64> =
                round["boards"].as_array().unwrap().iter().map(|b| milli(&b["score"])).collect();
            let cli_boards: Vec<i64> = cli_round["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| milli(&b["score"]))
                .collect();
            assert_eq!(cli_boards, boards);
        }
        // Rulings: GraphQL's points and reasons are the export's words, which the CSV joins.
        let words: Vec<&str> = exported["rulings"]
            .as_array()
            .map_or(vec![], |r| r.iter().map(|w| w.as_str().unwrap()).collect());
        assert_eq!(row["rulings"], words.join("; "));
        assert_eq!(words.len(), line["rulings"].as_array().unwrap().len(), "{player}");
        for (ruling, words) in line["rulings"].as_array().unwrap().iter().zip(&words) {
            assert!(words.contains(ruling["reason"].as_str().unwrap()), "{words}");
            if let Some(points) = ruling["points"].as_f64() {
                assert!(words.contains(&format!("{points}")), "{words} shows {points}");
            }
        }
        let pools: Vec<&str> = exported["pools"]
            .as_array()
            .map_or(vec![], |p| p.iter().map(|w| w.as_str().unwrap()).collect());
        assert_eq!(row["pools"], pools.join("; "));
        let awards: Vec<&str> = exported["awards"]
            .as_array()
            .map_or(vec![], |a| a.iter().map(|w| w.as_str().unwrap()).collect());
        assert_eq!(row["awards"], awards.join("; "));
        assert_eq!(row["team"], exported["team"].as_str().unwrap_or(""));
    }
}

/// Best Country and awards: GraphQL, `league tournament best-countries` and `award list`, the
/// JSON export and the standings CSV's `awards` column name the same leaders and awards.
fn awards_agree(shown: &Value, export: &Value, csv: &str, cli_best: &Value, cli_awards: &Value) {
    assert_eq!(cli_best, &export["bestCountries"]);
    assert_eq!(cli_awards, &export["awards"]);
    let mut leaders = Vec::new();
    for power in shown["bestCountries"].as_array().unwrap() {
        for leader in power["leaders"].as_array().unwrap() {
            leaders.push((
                power["power"].as_str().unwrap().to_owned(),
                leader["player"]["id"].as_str().unwrap().to_owned(),
                leader["round"].as_u64().unwrap(),
                leader["boardNumber"].as_u64().unwrap(),
                milli(&leader["score"]),
                leader["centres"].as_u64().unwrap(),
                leader["tied"].as_bool().unwrap(),
            ));
        }
    }
    let exported: Vec<_> = (export["bestCountries"].as_array().unwrap().iter())
        .map(|l| {
            (
                l["power"].as_str().unwrap().to_owned(),
                l["playerId"].as_str().unwrap().to_owned(),
                l["round"].as_u64().unwrap(),
                l["board"].as_u64().unwrap(),
                milli(&l["score"]),
                l["centres"].as_u64().unwrap(),
                l["tied"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(exported, leaders);
    let awards: Vec<_> = (shown["awards"].as_array().unwrap().iter())
        .map(|a| {
            (a["number"].clone(), a["name"].clone(), a["player"]["id"].clone(), a["power"].clone())
        })
        .collect();
    let exported: Vec<_> = (export["awards"].as_array().unwrap().iter())
        .map(|a| {
            (a["number"].clone(), a["name"].clone(), a["playerId"].clone(), a["power"].clone())
        })
        .collect();
    assert_eq!(exported, awards);
    // The standings CSV's `awards` cell: the named awards, then "Best <power>" for each lead.
    for row in csv_rows(csv) {
        let mut want: Vec<String> = (shown["awards"].as_array().unwrap().iter())
            .filter(|a| a["player"]["id"] == row["playerId"].as_str())
            .map(|a| a["name"].as_str().unwrap().to_owned())
            .collect();
        want.extend(
            leaders.iter().filter(|l| l.1 == row["playerId"]).map(|l| format!("Best {}", l.0)),
        );
        assert_eq!(row["awards"], want.join("; "), "{}", row["playerId"]);
    }
}

/// Team standings: GraphQL, `league tournament team standings`, the JSON export's `teams`
/// and the teams CSV.
fn teams_agree(shown: &Value, export: &Value, csv: &str, cli: &Value) {
    assert_eq!(cli, &export["teams"]);
    let graphql = shown["teamStandings"].as_array().unwrap();
    let exported = export["teams"].as_array().unwrap();
    let rows = csv_rows(csv);
    assert_eq!((exported.len(), rows.len()), (graphql.len(), graphql.len()));
    for ((line, exported), row) in graphql.iter().zip(exported).zip(&rows) {
        let counted =
            line["scores"].as_array().unwrap().iter().filter(|s| s["counted"] == true).count();
        assert_eq!(exported["rank"], line["rank"]);
        assert_eq!(exported["team"], line["team"]["number"]);
        assert_eq!(exported["name"], line["team"]["name"]);
        assert_eq!(milli(&exported["total"]), milli(&line["total"]));
        assert_eq!(exported["counted"], counted);
        let members: Vec<Value> =
            (line["team"]["members"].as_array().unwrap().iter()).map(|m| m["id"].clone()).collect();
        assert_eq!(exported["memberIds"].as_array().unwrap(), &members);
        assert_eq!(row["rank"], line["rank"].to_string());
        assert_eq!(row["team"], line["team"]["name"].as_str().unwrap());
        assert_eq!(milli_text(&row["total"]), milli(&line["total"]));
        assert_eq!(row["counted"], counted.to_string());
    }
}

async fn graphql_the_cli_and_the_exports_show_the_same_tournament_practice(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let played = practice_tournament(&server).await;
    let id = played.id.as_str();
    let shown = server.data(None, TOURNAMENT, json!({ "t": id })).await["tournament"].clone();
    let export: Value = serde_json::from_str(shown["json"].as_str().unwrap()).unwrap();
    let of = |command: &[&str]| -> Vec<String> {
        let mut args: Vec<String> =
            ["tournament"].iter().chain(command).map(|s| (*s).to_owned()).collect();
        args.extend(["--tournament".to_owned(), id.to_owned()]);
        args
    };
    let cli = |command: &[&str]| {
        let args = of(command);
        cli_json(&args.iter().map(String::as_str).collect::<Vec<_>>(), &db)
    };

    standings_agree(
        &shown,
        &export,
        shown["standingsCsv"].as_str().unwrap(),
        &cli(&["standings"]),
        &cli(&["ruling", "list"]),
    );
    awards_agree(
        &shown,
        &export,
        shown["standingsCsv"].as_str().unwrap(),
        &cli(&["best-countries"]),
        &cli(&["award", "list"]),
    );
    teams_agree(&shown, &export, shown["teamsCsv"].as_str().unwrap(), &cli(&["team", "standings"]));
    assert_eq!(cli(&["pool", "list"]), export["roundStages"]);
    assert_eq!(
        shown["roundStages"][1]["pool"],
        json!({ "best": 7, "multiplier": "1.5", "decidesPlaces": false, "poolBoards": 1 })
    );
    assert_eq!(
        export["roundStages"],
        json!([{ "round": 2, "scoringSystem": "squares", "poolBest": 7, "multiplier": "1.5", "poolBoards": 1 }])
    );

    // What each number is, once (the surfaces agreeing, each is checked on GraphQL).
    let standings = shown["standings"].as_array().unwrap();
    // The unranked director: listed last, rank 0, never a Best Country leader.
    let last = standings.last().unwrap();
    assert_eq!(
        (last["player"]["id"].as_str(), &last["rank"], &last["unranked"]),
        (Some(played.director.as_str()), &json!(0), &json!(true))
    );
    assert_eq!(last["rulings"][0]["reason"], "the director plays");
    assert!(standings[..standings.len() - 1].iter().all(|l| l["rank"].as_u64().unwrap() >= 1));
    let leads = shown["bestCountries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["leaders"].as_array().unwrap().clone());
    assert!(leads.clone().all(|l| l["player"]["id"] != played.director.as_str()));
    // The penalty: board 1's Austria's round 1 board score is 5 below the system's.
    let penalised = by_player(standings, &played.penalised);
    assert_eq!(milli(&penalised["rounds"][0]["boards"][0]["score"]), 43_478 - 5_000);
    assert_eq!(
        penalised["rulings"],
        json!([{ "kind": "BOARD_ADJUSTMENT", "number": 1, "round": 1, "board": 1, "points": -5.0, "reason": "late to the board" }])
    );
    let words = &by_player(export["standings"].as_array().unwrap(), &played.penalised)["rulings"];
    assert_eq!(words, &json!(["penalty -5 (round 1, board 1): late to the board"]));
    // The pool: round 2's board 1 seats the best 7 and scores ×1.5 (43.478 → 65.217).
    let squares = [43_478, 27_826, 15_652, 6_957, 3_913, 1_739, 435];
    for (seat, player) in played.round_two[0].iter().enumerate() {
        let line = by_player(standings, player);
        assert_eq!(milli(&line["rounds"][1]["score"]), (squares[seat] * 3 + 1) / 2, "{line}");
        assert_eq!(line["notes"], json!(["pool: round 2 ×1.5"]));
    }
    let board_two = by_player(standings, &played.round_two[1][0]);
    assert_eq!(board_two["notes"], json!([]));
    // The award, in the standings CSV after the player's name.
    assert_eq!(shown["awards"][0]["player"]["id"], played.round_two[0][2].as_str());
    // Team totals add their members' round 1 (team round) board scores.
    for team in shown["teamStandings"].as_array().unwrap() {
        let sum: i64 = (team["team"]["members"].as_array().unwrap().iter())
            .map(|m| milli(&by_player(standings, m["id"].as_str().unwrap())["rounds"][0]["score"]))
            .sum();
        assert_eq!(milli(&team["total"]), sum, "{team}");
    }
    // Results: the CSV and JSON rows agree, the rating-database columns first.
    let results = csv_rows(shown["resultsCsv"].as_str().unwrap());
    let exported = export["results"].as_array().unwrap();
    assert_eq!(results.len(), exported.len());
    assert_eq!(results.len(), 4 * 7);
    for (row, exported) in results.iter().zip(exported) {
        assert_eq!(row["playerId"], exported["playerId"].as_str().unwrap());
        assert_eq!(row["power"], exported["seat"].as_str().unwrap());
        assert_eq!(row["centres"], exported["centres"].to_string());
        assert_eq!(row["rank"], exported["rank"].to_string());
        assert_eq!(milli_text(&row["score"]), milli(&exported["score"]));
    }

    // A result row holds the board's score under the system, as a rating database imports
    // it: neither the pool's multiplier nor a ruling (the standings hold those).
    let row_of = |round: u64, player: &str| {
        exported.iter().find(|r| r["round"] == round && r["playerId"] == player).unwrap()
    };
    assert_eq!(milli(&row_of(2, &played.round_two[0][0])["score"]), 43_478);
    assert_eq!(milli(&row_of(1, &played.penalised)["score"]), 43_478);

    // A second tournament of seven, the director among them, and a series over both.
    let mut input = diplomacy_input(1);
    input["name"] = json!("Practice Close");
    let second =
        create(&server, input).await["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    let director = played.players.iter().find(|p| p.id == played.director).unwrap();
    let mut seven: Vec<Player> =
        played.players.iter().filter(|p| p.id != played.director).take(6).cloned().collect();
    seven.push(director.clone());
    for player in &seven {
        assert!(enter(&server, &player.token, &second, None).await["errors"].is_null());
        check_in(&server, player, &second, 1, false).await;
    }
    assert!(seed(&server, &second, 1).await["errors"].is_null());
    report_round(&server, &seven, &second, 1).await;
    let input = json!({ "name": "Practice Circuit", "best": 2, "basis": "RANK_POINTS" });
    let series = ok(&server, ADMIN, CREATE_SERIES, json!({ "input": input })).await["createSeries"]
        ["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for event in [id, second.as_str()] {
        ok(&server, ADMIN, ADD_EVENT, json!({ "s": series, "c": event })).await;
    }
    let shown = server.data(None, SERIES, json!({ "s": series })).await["series"].clone();
    let export: Value = serde_json::from_str(shown["exportJson"].as_str().unwrap()).unwrap();
    let cli = cli_json(&["series", "standings", "--series", &series], &db);
    assert_eq!(cli, export, "the CLI prints the export");
    let csv = league(&["series", "standings", "--series", &series, "--csv"], &db);
    assert_eq!(stdout(&csv), shown["exportCsv"].as_str().unwrap());
    let rows = csv_rows(shown["exportCsv"].as_str().unwrap());
    let graphql = shown["standings"].as_array().unwrap();
    let exported = export["standings"].as_array().unwrap();
    assert_eq!((exported.len(), rows.len()), (graphql.len(), graphql.len()));
    assert_eq!(graphql.len(), 14, "every player of either tournament");
    for (((line, exported), row), grid) in
        graphql.iter().zip(exported).zip(&rows).zip(shown["attendance"].as_array().unwrap())
    {
        let player = line["player"]["id"].as_str().unwrap();
        assert_eq!(
            (exported["playerId"].as_str(), row["playerId"].as_str()),
            (Some(player), player)
        );
        assert_eq!(grid["player"]["id"], player);
        assert_eq!((&exported["rank"], &exported["attended"]), (&line["rank"], &line["attended"]));
        assert_eq!(
            (row["rank"].clone(), row["attended"].clone()),
            (line["rank"].to_string(), line["attended"].to_string())
        );
        assert_eq!(milli(&exported["total"]), milli(&line["total"]));
        assert_eq!(milli_text(&row["total"]), milli(&line["total"]));
        for (result, shown) in
            exported["results"].as_array().unwrap().iter().zip(grid["results"].as_array().unwrap())
        {
            assert_eq!(result.is_null(), shown.is_null());
            if !result.is_null() {
                assert_eq!(
                    (&result["rank"], &result["counted"]),
                    (&shown["rank"], &shown["counted"])
                );
                assert_eq!(milli(&result["points"]), milli(&shown["points"]));
            }
        }
    }
    // The unranked director carries no result of the first tournament into the series.
    let grid = shown["attendance"].as_array().unwrap();
    let row = grid.iter().find(|r| r["player"]["id"] == played.director.as_str()).unwrap();
    assert!(row["results"][0].is_null(), "{row}");
    assert!(!row["results"][1].is_null(), "{row}");
}

on_both_databases!(graphql_the_cli_and_the_exports_show_the_same_tournament_practice);
