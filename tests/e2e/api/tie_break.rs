//! Standings name the tie-breaker that split equal totals
//! (`docs/scoring.md#standings-and-tie-breakers`): a league's and a tournament's lines carry
//! `separatedBy`, as the scoring crate's ranking computes it, and the standings export a
//! `separatedBy` column.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::tournament::{create, enter, seed};
use crate::support::{ADMIN, Player, TestApp, spawn_app};

const MORE_WINS: &str = "MORE_WINS";

/// A two-player placement result: `first` beats `second`, or a draw.
fn placement(first: &str, second: &str, draw: bool) -> Value {
    let second_points = if draw { 1 } else { 0 };
    json!({ "placement": [
        { "playerId": first, "points": 1 },
        { "playerId": second, "points": second_points },
    ]})
}

/// The line of `player` in `standings`.
fn line<'a>(standings: &'a [Value], player: &str) -> &'a Value {
    standings.iter().find(|s| s["player"]["id"] == player).expect("a line")
}

/// Four players, two-player placement games (win 2, draw 1, loss 0), each player in two games:
/// the first player wins their first game and loses their second, every other game is drawn.
/// Whoever did not meet the first player drew twice: level with them on 2, behind on wins.
async fn a_league_names_the_tie_breaker(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let league = server
        .create_league_with(json!({
            "name": "Go ladder", "game": "Go", "scoringSystem": "PLACEMENT",
            "playersPerGame": 2, "size": 4, "gamesPerSeat": 1,
        }))
        .await;
    let league = league["id"].as_str().expect("league id").to_owned();
    let players = server.register_many(4, "Go").await;
    server.fill(&league, &players).await;
    let first = players[0].id.as_str();
    let mut first_games = 0;
    for game in server.game_infos(&league).await {
        let seats = &game.seats;
        let result = match seats.iter().position(|seat| seat == first) {
            Some(own) => {
                first_games += 1;
                let other = seats[1 - own].as_str();
                if first_games == 1 {
                    placement(first, other, false)
                } else {
                    placement(other, first, false)
                }
            }
            None => placement(&seats[0], &seats[1], true),
        };
        let reported = server.report(ADMIN, &game.id, &result).await;
        assert_eq!(reported["status"], "FINISHED", "{reported}");
    }
    assert_eq!(first_games, 2);
    let data = server
        .data(
            None,
            "query($l: ID!) {
               standings(leagueId: $l) {
                 rank total wins draws player { id } separatedBy { code label }
               }
             }",
            json!({ "l": league }),
        )
        .await;
    let standings = data["standings"].as_array().expect("standings").clone();
    let leader = line(&standings, first);
    assert_eq!((leader["total"].as_f64(), leader["wins"].as_u64()), (Some(2.0), Some(1)));
    assert_eq!(leader["separatedBy"], json!({ "code": MORE_WINS, "label": "more wins" }));
    // Every line level with the first player on total but ranked apart names the same.
    let level: Vec<&Value> = standings
        .iter()
        .filter(|s| s["total"] == leader["total"] && s["rank"] != leader["rank"])
        .collect();
    assert!(!level.is_empty(), "{standings:#?}");
    for s in &level {
        assert_eq!(s["separatedBy"]["code"], MORE_WINS, "{standings:#?}");
        assert!(s["wins"].as_u64() < leader["wins"].as_u64(), "{standings:#?}");
    }
    // A line alone on its total names nothing.
    for s in &standings {
        if standings.iter().filter(|o| o["total"] == s["total"]).count() == 1 {
            assert!(s["separatedBy"].is_null(), "{standings:#?}");
        }
    }
    let csv = server
        .data(
            None,
            "query($l: ID!) { league(id: $l) { export(format: CSV, table: STANDINGS) } }",
            json!({ "l": league }),
        )
        .await;
    let csv = csv["league"]["export"].as_str().expect("csv").to_owned();
    assert!(csv.starts_with("rank,player,playerId,total,games,wins,draws,separatedBy\n"), "{csv}");
    let leader_row = csv.lines().find(|row| row.contains(first)).expect("the leader's row");
    assert!(leader_row.ends_with(",more wins"), "{csv}");
}

/// Checks `players` in for `round` (the admin marks them) and seeds it; returns the round's
/// boards as their seated player ids.
async fn seeded(
    server: &TestApp,
    id: &str,
    players: &[Player],
    round: u32,
) -> Vec<(String, Vec<String>)> {
    for player in players {
        let response = server
            .gql(
                Some(ADMIN),
                "mutation($t: ID!, $r: Int!, $p: ID) {
                   answerRollCall(tournamentId: $t, round: $r, playerId: $p, present: true) { id }
                 }",
                json!({ "t": id, "r": round, "p": player.id }),
            )
            .await;
        assert!(response["errors"].is_null(), "{response}");
    }
    let seeded = seed(server, id, round).await;
    assert!(seeded["errors"].is_null(), "{seeded}");
    let data = server
        .data(
            None,
            "query($t: ID!) { tournament(id: $t) { rounds { boards { id seats { player { id } } } } } }",
            json!({ "t": id }),
        )
        .await;
    data["tournament"]["rounds"][round as usize - 1]["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|board| {
            let seats = board["seats"].as_array().expect("seats");
            let ids = seats.iter().map(|s| s["player"]["id"].as_str().unwrap().to_owned());
            (board["id"].as_str().unwrap().to_owned(), ids.collect())
        })
        .collect()
}

/// Four entrants on two-player placement boards, two rounds summed: the first entrant wins
/// in round 1 and loses in round 2, every other board is drawn. On 2 points (one win), the
/// first entrant is level with whoever drew twice, and ahead of them on wins.
async fn a_tournament_names_the_tie_breaker(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let created = create(
        &server,
        json!({
            "name": "Go Cup", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerBoard": 2,
            "rounds": 2, "tournamentScoring": "sum-all-rounds",
        }),
    )
    .await;
    let id = created["data"]["createTournament"]["id"].as_str().expect("id").to_owned();
    let players = server.register_many(4, "Cup").await;
    for player in &players {
        let response = enter(&server, ADMIN, &id, Some(&player.id)).await;
        assert!(response["errors"].is_null(), "{response}");
    }
    let first = players[0].id.as_str();
    for round in 1..=2 {
        for (board, seats) in seeded(&server, &id, &players, round).await {
            let result = match seats.iter().position(|seat| seat == first) {
                Some(own) if round == 1 => placement(first, &seats[1 - own], false),
                Some(own) => placement(&seats[1 - own], first, false),
                None => placement(&seats[0], &seats[1], true),
            };
            let response = server
                .gql(
                    Some(ADMIN),
                    "mutation($t: ID!, $b: ID!, $r: GameResultInput!) {
                       reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished }
                     }",
                    json!({ "t": id, "b": board, "r": result }),
                )
                .await;
            assert_eq!(response["data"]["reportBoardResult"]["finished"], true, "{response}");
        }
    }
    let data = server
        .data(
            None,
            "query($t: ID!) {
               tournament(id: $t) {
                 standings { rank total wins player { id } separatedBy { code label } }
               }
             }",
            json!({ "t": id }),
        )
        .await;
    let standings = data["tournament"]["standings"].as_array().expect("standings").clone();
    let leader = line(&standings, first);
    assert_eq!((leader["total"].as_f64(), leader["wins"].as_u64()), (Some(2.0), Some(1)));
    assert_eq!(leader["separatedBy"], json!({ "code": MORE_WINS, "label": "more wins" }));
    let behind: Vec<&Value> = standings
        .iter()
        .filter(|s| s["total"] == leader["total"] && s["rank"].as_u64() > leader["rank"].as_u64())
        .collect();
    assert!(!behind.is_empty(), "{standings:#?}");
    for s in behind {
        assert_eq!(s["separatedBy"]["code"], MORE_WINS, "{standings:#?}");
    }
}

on_both_databases!(a_league_names_the_tie_breaker, a_tournament_names_the_tie_breaker);
