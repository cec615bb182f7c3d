//! Authorisation: every mutation by every kind of caller (anonymous, invalid token, another
//! player, the seated player, the admin); a refusal appends nothing.

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::oracle::{result_for, running_league, small_placement_league};
use crate::support::{ADMIN, TestApp, spawn_app};

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Expect {
    Allowed,
    Refused(&'static str),
}

/// Runs a mutation as `token` and checks the outcome; a refusal must append nothing.
/// Answers with the response.
pub(super) async fn attempt(
    server: &TestApp,
    who: &str,
    token: Option<&str>,
    query: &str,
    variables: Value,
    expect: Expect,
) -> Value {
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
    response
}

async fn every_mutation_by_every_kind_of_caller(db: TestDatabase) {
    use Expect::{Allowed, Refused};
    const UNAUTH: Expect = Refused("UNAUTHENTICATED");
    const FORBIDDEN: Expect = Refused("FORBIDDEN");
    let server = spawn_app(&db.url).await;
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
    let open = small_placement_league(&server).await;
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
