//! Roles and tokens (`docs/api.md#roles`): a player rotates their own token, the site admin
//! revokes any; a rotated or revoked token stops working on every gateway over the same
//! database and closes the WebSocket subscriptions opened with it (code 4403). Organisers
//! create competitions and manage only those they created or co-organise: every rights
//! mutation, and the competition mutations an organiser gains, by every role.

use std::time::{Duration, Instant};

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::api::authorization::{Expect, attempt};
use crate::support::{ADMIN, TestApp, spawn_app_on_port, ws_frame, ws_next, ws_send};

/// How long another gateway may take to see a token change (it follows the live feed).
const PROPAGATION: Duration = Duration::from_secs(10);

/// Waits until `server` answers a request with `token` with (`true`) or without (`false`)
/// an `UNAUTHENTICATED` error.
async fn until_unauthenticated(server: &TestApp, token: &str, refused: bool) {
    let start = Instant::now();
    loop {
        let response = server.gql(Some(token), "{ __typename }", json!({})).await;
        let code = &response["errors"][0]["extensions"]["code"];
        if (code == "UNAUTHENTICATED") == refused {
            return;
        }
        assert!(start.elapsed() < PROPAGATION, "token still {code}: {response:#}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until `server` serves `league` (another gateway's command reaches it through the
/// log, a moment later).
async fn until_league_known(server: &TestApp, league: &str) {
    let start = Instant::now();
    loop {
        let response = server
            .gql(Some(ADMIN), "query($id: ID!) { league(id: $id) { id } }", json!({ "id": league }))
            .await;
        if response["data"]["league"]["id"] == league {
            return;
        }
        assert!(start.elapsed() < PROPAGATION, "league not served: {response:#}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A graphql-transport-ws connection to `server` authenticated with `token`, with one
/// active subscription.
async fn subscribed(server: &TestApp, token: &str, league: &str) -> crate::support::Socket {
    let mut socket = server.ws_connect("graphql-transport-ws").await;
    let init = json!({ "authorization": format!("Bearer {token}") });
    ws_send(&mut socket, json!({ "type": "connection_init", "payload": init })).await;
    assert_eq!(ws_next(&mut socket).await.expect("open")["type"], "connection_ack");
    ws_send(
        &mut socket,
        json!({ "id": "s", "type": "subscribe", "payload": {
            "query": "subscription($id: ID!) { leagueEvents(leagueId: $id) { position } }",
            "variables": { "id": league },
        }}),
    )
    .await;
    ws_send(&mut socket, json!({ "type": "ping" })).await;
    // The subscription may already deliver events of the league before the pong.
    loop {
        let frame = ws_next(&mut socket).await.expect("open");
        match frame["type"].as_str() {
            Some("pong") => return socket,
            Some("next") => continue,
            _ => panic!("expected pong, got {frame}"),
        }
    }
}

/// The next frame is a close with `code`.
async fn closed_with(socket: &mut crate::support::Socket, code: u16) {
    match ws_frame(socket).await {
        Message::Close(Some(frame)) => assert_eq!(u16::from(frame.code), code, "{frame:?}"),
        other => panic!("expected a close frame {code}, got {other:?}"),
    }
}

const ROTATE: &str = "mutation($p: ID) { rotateToken(playerId: $p) { token player { id } } }";

async fn tokens_rotate_and_revoke_on_every_gateway(db: TestDatabase) {
    let first = spawn_app_on_port(&db.url, |_| {}).await;
    let second = spawn_app_on_port(&db.url, |_| {}).await;
    let player = first.register("Ada").await;
    let league = first.create_league("PLACEMENT", 2, Some(4)).await;
    until_unauthenticated(&second, &player.token, false).await;
    until_league_known(&second, &league).await;

    // The player rotates their own token through the first gateway: the second closes the
    // subscription opened with the old token and refuses it; the new one works everywhere.
    let mut socket = subscribed(&second, &player.token, &league).await;
    let data = first.data(Some(&player.token), ROTATE, json!({})).await;
    let token = data["rotateToken"]["token"].as_str().expect("a new token").to_owned();
    assert_eq!(data["rotateToken"]["player"]["id"], player.id);
    assert_ne!(token, player.token);
    closed_with(&mut socket, 4403).await;
    until_unauthenticated(&first, &player.token, true).await;
    until_unauthenticated(&second, &player.token, true).await;
    until_unauthenticated(&second, &token, false).await;

    // The log holds the hash only, and who rotated.
    let events = first.events(None).await;
    let rotated = events.iter().find(|e| e["type"] == "TokenRotated").expect("TokenRotated");
    let payload: Value = rotated["payload"].clone();
    let payload = match payload.as_str() {
        Some(text) => serde_json::from_str(text).expect("JSON payload"),
        None => payload,
    };
    assert_eq!(payload["rotatedBy"], format!("player:{}", player.id));
    assert!(!payload.to_string().contains(&token), "the token itself is never stored");
    assert_eq!(payload["tokenHash"].as_str().map(str::len), Some(64));

    // A player may not rotate someone else's token, nor revoke one.
    let other = first.register("Grace").await;
    let response = first.gql(Some(&token), ROTATE, json!({ "p": other.id })).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "FORBIDDEN", "{response:#}");
    let revoke = "mutation($p: ID!) { revokeToken(playerId: $p) { id } }";
    let response = first.gql(Some(&token), revoke, json!({ "p": other.id })).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "FORBIDDEN", "{response:#}");

    // The site admin revokes through the second gateway: the first stops accepting it and
    // closes its subscription; the player cannot rotate it back.
    let mut socket = subscribed(&first, &token, &league).await;
    second.data(Some(ADMIN), revoke, json!({ "p": player.id })).await;
    closed_with(&mut socket, 4403).await;
    until_unauthenticated(&first, &token, true).await;
    let response = first.gql(Some(&token), ROTATE, json!({})).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "UNAUTHENTICATED");
    // Revoking again is a conflict; the admin rotates one for the player.
    let response = second.gql(Some(ADMIN), revoke, json!({ "p": player.id })).await;
    assert_eq!(response["errors"][0]["extensions"]["code"], "CONFLICT", "{response:#}");
    let data = second.data(Some(ADMIN), ROTATE, json!({ "p": player.id })).await;
    let fresh = data["rotateToken"]["token"].as_str().expect("a new token").to_owned();
    until_unauthenticated(&first, &fresh, false).await;
}

on_both_databases!(tokens_rotate_and_revoke_on_every_gateway);

async fn every_rights_mutation_by_every_role(db: TestDatabase) {
    use Expect::{Allowed, Refused};
    const UNAUTH: Expect = Refused("UNAUTHENTICATED");
    const FORBIDDEN: Expect = Refused("FORBIDDEN");
    let server = spawn_app_on_port(&db.url, |_| {}).await;
    let [organiser, other_organiser, co, player, target] =
        ["Organiser", "Other organiser", "Co-organiser", "Player", "Target"];
    let mut people = Vec::new();
    for name in [organiser, other_organiser, co, player, target] {
        people.push(server.register(name).await);
    }
    let (organiser, other_organiser, co, player, target) =
        (&people[0], &people[1], &people[2], &people[3], &people[4]);
    let appoint = "mutation($p: ID!) { appointOrganiser(playerId: $p) { id } }";
    let dismiss = "mutation($p: ID!) { dismissOrganiser(playerId: $p) { id } }";

    // appointOrganiser / dismissOrganiser: the site admin only.
    let roles = |expect: [Expect; 4]| {
        [
            ("anonymous", None, expect[0]),
            ("player", Some(player.token.clone()), expect[1]),
            ("organiser", Some(organiser.token.clone()), expect[2]),
            ("admin", Some(ADMIN.to_owned()), expect[3]),
        ]
    };
    for (who, token, expect) in roles([UNAUTH, FORBIDDEN, FORBIDDEN, Allowed]) {
        let vars = json!({ "p": target.id });
        attempt(&server, who, token.as_deref(), appoint, vars.clone(), expect).await;
        attempt(&server, who, token.as_deref(), dismiss, vars, expect).await;
    }
    for organiser in [organiser, other_organiser] {
        attempt(&server, "admin", Some(ADMIN), appoint, json!({ "p": organiser.id }), Allowed)
            .await;
    }

    // createLeague / createTournament: organisers and the site admin.
    let create_league = "mutation { createLeague(input: {name: \"L\", game: \"Go\", scoringSystem: PLACEMENT, playersPerGame: 2, size: 2}) { id } }";
    let create_tournament = "mutation { createTournament(input: {name: \"T\", game: \"Diplomacy\", scoringSystem: SQUARES, playersPerBoard: 7, rounds: 1, tournamentScoring: \"sum-all-rounds\"}) { id } }";
    for (who, token, expect) in roles([UNAUTH, FORBIDDEN, Allowed, Allowed]) {
        let response =
            attempt(&server, who, token.as_deref(), create_league, json!({}), expect).await;
        if expect == FORBIDDEN {
            let message = response["errors"][0]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("only organisers or the site admin may create leagues"),
                "{message}"
            );
        }
        attempt(&server, who, token.as_deref(), create_tournament, json!({}), expect).await;
    }
    let league =
        attempt(&server, "organiser", Some(&organiser.token), create_league, json!({}), Allowed)
            .await;
    let league = league["data"]["createLeague"]["id"].as_str().expect("league id").to_owned();
    let tournament = attempt(
        &server,
        "organiser",
        Some(&organiser.token),
        create_tournament,
        json!({}),
        Allowed,
    )
    .await;
    let tournament = tournament["data"]["createTournament"]["id"].as_str().expect("id").to_owned();

    // addCoOrganiser: the competition's organisers and the site admin.
    let add = "mutation($c: ID!, $p: ID!) { addCoOrganiser(competitionId: $c, playerId: $p) }";
    for competition in [&league, &tournament] {
        for (who, token, expect) in [
            ("anonymous", None, UNAUTH),
            ("player", Some(&player.token), FORBIDDEN),
            ("another competition's organiser", Some(&other_organiser.token), FORBIDDEN),
            ("its organiser", Some(&organiser.token), Allowed),
        ] {
            let response = attempt(
                &server,
                who,
                token.map(String::as_str),
                add,
                json!({ "c": competition, "p": co.id }),
                expect,
            )
            .await;
            if expect == FORBIDDEN {
                let message = response["errors"][0]["message"].as_str().unwrap_or_default();
                assert!(
                    message.contains("does not organise") && message.contains(competition.as_str()),
                    "{message}"
                );
            }
        }
        // Already an organiser of it; the admin adds another.
        attempt(
            &server,
            "admin",
            Some(ADMIN),
            add,
            json!({ "c": competition, "p": co.id }),
            Refused("CONFLICT"),
        )
        .await;
        attempt(
            &server,
            "admin",
            Some(ADMIN),
            add,
            json!({ "c": competition, "p": target.id }),
            Allowed,
        )
        .await;
    }

    // Subscribing another player to the league: its organisers, co-organisers and the admin.
    let subscribe =
        "mutation($l: ID!, $p: ID) { subscribeToLeague(leagueId: $l, playerId: $p) { id } }";
    let unsubscribe =
        "mutation($l: ID!, $p: ID) { unsubscribeFromLeague(leagueId: $l, playerId: $p) { id } }";
    for (who, token, expect) in [
        ("player", player.token.as_str(), FORBIDDEN),
        ("another competition's organiser", other_organiser.token.as_str(), FORBIDDEN),
        ("its organiser", organiser.token.as_str(), Allowed),
        ("co-organiser", co.token.as_str(), Allowed),
        ("admin", ADMIN, Allowed),
    ] {
        let vars = json!({ "l": league, "p": target.id });
        attempt(&server, who, Some(token), subscribe, vars.clone(), expect).await;
        if expect == Allowed {
            attempt(&server, who, Some(token), unsubscribe, vars, Allowed).await;
        }
    }

    // Roll call for another entrant: the tournament's organisers and the admin.
    let enter =
        "mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }";
    attempt(
        &server,
        "co-organiser",
        Some(&co.token),
        enter,
        json!({ "t": tournament, "p": player.id }),
        Allowed,
    )
    .await;
    let roll_call = "mutation($t: ID!, $p: ID) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }";
    for (who, token, expect) in [
        ("another competition's organiser", other_organiser.token.as_str(), FORBIDDEN),
        ("its organiser", organiser.token.as_str(), Allowed),
        ("co-organiser", co.token.as_str(), Allowed),
        ("the player themself", player.token.as_str(), Allowed),
        ("admin", ADMIN, Allowed),
    ] {
        attempt(
            &server,
            who,
            Some(token),
            roll_call,
            json!({ "t": tournament, "p": player.id }),
            expect,
        )
        .await;
    }
    // Seeding (too few players here): an outsider is refused for the right, an organiser
    // gets past it to the roll call's shortfall.
    let seed = "mutation($t: ID!) { seedRound(tournamentId: $t, round: 1) { number } }";
    attempt(
        &server,
        "other organiser",
        Some(&other_organiser.token),
        seed,
        json!({ "t": tournament }),
        FORBIDDEN,
    )
    .await;
    attempt(
        &server,
        "co-organiser",
        Some(&co.token),
        seed,
        json!({ "t": tournament }),
        Refused("CONFLICT"),
    )
    .await;

    // Corrections: a league game's result, by its organisers and the site admin only.
    for (who, token) in [("co-organiser", co.token.as_str()), ("admin", ADMIN)] {
        let vars =
            json!({ "l": league, "p": if who == "admin" { &player.id } else { &target.id } });
        attempt(&server, who, Some(token), subscribe, vars, Allowed).await;
    }
    let game = server.game_infos(&league).await.into_iter().next().expect("a scheduled game");
    let report = "mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }";
    let result = crate::support::placement_result(&game.seats);
    attempt(&server, "admin", Some(ADMIN), report, json!({ "g": game.id, "r": result }), Allowed)
        .await;
    let correct = "mutation($g: ID!, $r: GameResultInput!) { correctGameResult(gameId: $g, result: $r, reason: \"recount\") { id } }";
    let mut reversed = game.seats.clone();
    reversed.reverse();
    let corrected = json!({ "g": game.id, "r": crate::support::placement_result(&reversed) });
    for (who, token, expect) in [
        ("a seated player", player.token.as_str(), FORBIDDEN),
        ("another competition's organiser", other_organiser.token.as_str(), FORBIDDEN),
        ("its organiser", organiser.token.as_str(), Allowed),
        ("co-organiser", co.token.as_str(), Allowed),
    ] {
        attempt(&server, who, Some(token), correct, corrected.clone(), expect).await;
    }

    // A tournament round: swaps and board corrections by its organisers and the admin only.
    for newcomer in server.register_many(7, "Entrant").await {
        let vars = json!({ "t": tournament, "p": newcomer.id });
        attempt(&server, "co-organiser", Some(&co.token), enter, vars.clone(), Allowed).await;
        attempt(&server, "its organiser", Some(&organiser.token), roll_call, vars, Allowed).await;
    }
    attempt(
        &server,
        "its organiser",
        Some(&organiser.token),
        seed,
        json!({ "t": tournament }),
        Allowed,
    )
    .await;
    let round = server
        .data(
            None,
            "query($t: ID!) { tournament(id: $t) { rounds { sittingOut { id } boards { id seats { player { id } } } } } }",
            json!({ "t": tournament }),
        )
        .await;
    let round = &round["tournament"]["rounds"][0];
    let board = &round["boards"][0];
    let seats: Vec<String> = board["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["id"].as_str().unwrap().to_owned())
        .collect();
    let swap = "mutation($t: ID!, $a: ID!, $b: ID!) { swapRoundPlayers(tournamentId: $t, round: 1, first: $a, second: $b, reason: \"seat request\") { number } }";
    let swap_vars = json!({ "t": tournament, "a": seats[0], "b": seats[1] });
    for (who, token, expect) in [
        ("an entrant", player.token.as_str(), FORBIDDEN),
        ("another competition's organiser", other_organiser.token.as_str(), FORBIDDEN),
        ("co-organiser", co.token.as_str(), Allowed),
    ] {
        attempt(&server, who, Some(token), swap, swap_vars.clone(), expect).await;
    }
    let board_result = |seats: &[String]| {
        let entries: Vec<Value> = seats
            .iter()
            .zip([10, 8, 6, 4, 3, 2, 1])
            .map(|(p, c)| json!({ "playerId": p, "centres": c }))
            .collect();
        json!({ "diplomacy": entries })
    };
    let report_board = "mutation($t: ID!, $b: ID!, $r: GameResultInput!) { reportBoardResult(tournamentId: $t, boardId: $b, result: $r) { finished } }";
    let vars = json!({ "t": tournament, "b": board["id"], "r": board_result(&seats) });
    attempt(&server, "admin", Some(ADMIN), report_board, vars, Allowed).await;
    let correct_board = "mutation($t: ID!, $b: ID!, $r: GameResultInput!) { correctBoardResult(tournamentId: $t, boardId: $b, result: $r, reason: \"recount\") { finished } }";
    let mut reversed = seats.clone();
    reversed.reverse();
    let vars = json!({ "t": tournament, "b": board["id"], "r": board_result(&reversed) });
    for (who, token, expect) in [
        ("an entrant", player.token.as_str(), FORBIDDEN),
        ("another competition's organiser", other_organiser.token.as_str(), FORBIDDEN),
        ("its organiser", organiser.token.as_str(), Allowed),
    ] {
        attempt(&server, who, Some(token), correct_board, vars.clone(), expect).await;
    }

    // A dismissed organiser creates nothing more, and still manages what they organise.
    attempt(&server, "admin", Some(ADMIN), dismiss, json!({ "p": organiser.id }), Allowed).await;
    attempt(
        &server,
        "dismissed organiser",
        Some(&organiser.token),
        create_league,
        json!({}),
        FORBIDDEN,
    )
    .await;
    attempt(
        &server,
        "dismissed organiser",
        Some(&organiser.token),
        add,
        json!({ "c": league, "p": player.id }),
        Allowed,
    )
    .await;
}

on_both_databases!(every_rights_mutation_by_every_role);
