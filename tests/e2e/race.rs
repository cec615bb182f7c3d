//! Races over HTTP against the real server (SQLite and PostgreSQL):
//! - 64 registered players subscribe to one 8-place league at the same moment: exactly 8
//!   are accepted, 56 refused with `CONFLICT`, the games are scheduled exactly once and the
//!   league's stream versions have no gap;
//! - one `reportGameResult` with one idempotency key sent 20 times at once: one
//!   `GameFinished`, 20 identical answers.

use crate::support;

use std::sync::Arc;

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use support::{ADMIN, TestApp, assert_gapless, error_code, placement_result, start_league_serve};
use tokio::sync::Barrier;

const CONTENDERS: usize = 64;
const LEAGUE_SIZE: usize = 8;
const RETRIES: usize = 20;

fn count_of(events: &[Value], event_type: &str) -> usize {
    events.iter().filter(|e| e["type"] == event_type).count()
}

async fn sixty_four_players_race_for_eight_places(db: TestDatabase) {
    let server = start_league_serve(&db.url).await;
    let players = server.register_many(CONTENDERS, "Contender").await;
    let league = server.create_league("PLACEMENT", 4, Some(LEAGUE_SIZE as u32)).await;
    let before = server.event_count().await;

    // Every subscription leaves at the same moment, each on its own connection.
    let barrier = Arc::new(Barrier::new(CONTENDERS));
    let tasks: Vec<_> = players
        .iter()
        .map(|player| {
            let (http, url) = (server.http.clone(), server.graphql_url());
            let (token, league, barrier) = (player.token.clone(), league.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                support::gql(
                    &http,
                    &url,
                    Some(&token),
                    "mutation($l: ID!) { subscribeToLeague(leagueId: $l) { id } }",
                    json!({ "l": league }),
                )
                .await
                .expect("every subscription gets an answer")
            })
        })
        .collect();
    let mut accepted = Vec::new();
    let mut refused = 0;
    for (player, task) in players.iter().zip(tasks) {
        let response = task.await.expect("subscription task");
        match response.get("errors") {
            None => accepted.push(player.id.clone()),
            Some(_) => {
                assert_eq!(error_code(&response), "CONFLICT", "{response:#}");
                refused += 1;
            }
        }
    }
    assert_eq!(accepted.len(), LEAGUE_SIZE, "exactly the league's places are taken");
    assert_eq!(refused, CONTENDERS - LEAGUE_SIZE);

    // The log: the 8 subscriptions and one schedule, nothing from the refused 56.
    let events = server.events(Some(&league)).await;
    assert_gapless(&events);
    assert_eq!(count_of(&events, "LeagueCreated"), 1);
    assert_eq!(count_of(&events, "PlayerSubscribed"), LEAGUE_SIZE);
    assert_eq!(count_of(&events, "GamesScheduled"), 1, "the games are scheduled exactly once");
    assert_eq!(events.len(), 1 + LEAGUE_SIZE + 1);
    let all = server.events(None).await;
    for (i, event) in all.iter().enumerate() {
        assert_eq!(event["position"].as_u64(), Some(i as u64 + 1), "global positions are gapless");
    }
    assert_eq!(all.len() as u64, before + LEAGUE_SIZE as u64 + 1);

    // The served league agrees: running, with exactly the accepted players seated.
    let data = server
        .data(
            None,
            "query($id: ID!) { league(id: $id) { status players { id } games { seats { player { id } } } } }",
            json!({ "id": league }),
        )
        .await;
    assert_eq!(data["league"]["status"], "RUNNING");
    let mut served: Vec<String> = data["league"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    served.sort();
    accepted.sort();
    assert_eq!(served, accepted);
    for game in data["league"]["games"].as_array().unwrap() {
        for seat in game["seats"].as_array().unwrap() {
            assert!(accepted.contains(&seat["player"]["id"].as_str().unwrap().to_owned()));
        }
    }

    one_key_twenty_concurrent_reports(&server, &league).await;
}

/// The retry race, on the league the subscription race filled.
async fn one_key_twenty_concurrent_reports(server: &TestApp, league: &str) {
    let games = server.games(league).await;
    let (game, seats, status) = &games[0];
    assert_eq!(status, "SCHEDULED");
    let before = server.events(Some(league)).await;
    let variables = json!({ "g": game, "r": placement_result(seats), "key": "report-once" });
    let barrier = Arc::new(Barrier::new(RETRIES));
    let tasks: Vec<_> = (0..RETRIES)
        .map(|_| {
            let (http, url) = (server.http.clone(), server.graphql_url());
            let (variables, barrier) = (variables.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                support::gql(
                    &http,
                    &url,
                    Some(ADMIN),
                    "mutation($g: ID!, $r: GameResultInput!, $key: String) {
                       reportGameResult(gameId: $g, result: $r, idempotencyKey: $key) {
                         id status scores { player { id } score }
                       }
                     }",
                    variables,
                )
                .await
                .expect("every retry gets an answer")
            })
        })
        .collect();
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.expect("retry task"));
    }
    assert!(answers[0].get("errors").is_none(), "{:#}", answers[0]);
    assert_eq!(answers[0]["data"]["reportGameResult"]["status"], "FINISHED");
    for answer in &answers {
        assert_eq!(answer, &answers[0], "every retry gets the identical answer");
    }
    let after = server.events(Some(league)).await;
    assert_gapless(&after);
    assert_eq!(after.len(), before.len() + 1, "one event appended for 20 retries");
    let finished: Vec<&Value> = after.iter().filter(|e| e["type"] == "GameFinished").collect();
    assert_eq!(finished.len(), 1, "one GameFinished");
    assert_eq!(finished[0]["payload"]["gameId"].as_str(), Some(game.as_str()), "{finished:?}");
}

on_both_databases!(sixty_four_players_race_for_eight_places);
