//! Idempotency keys (`docs/api.md#idempotency-keys`): a retried call gets the first call's
//! answer and appends nothing; the same call without its key is a new request. A key answers
//! only the same command by the same caller, after the rights check: a player's key reused on
//! the admin's webhook or on a correction is `FORBIDDEN`, a key reused for another command is
//! `CONFLICT`; every keyed mutation of the schema is walked that way. A key holding a control
//! character (a NUL) is `BAD_USER_INPUT`.

use std::collections::BTreeSet;

use league_domain::{Actor, PauseWebhook};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::api::authorization::{Expect, attempt};
use crate::api::oracle::{result_for, running_league, small_placement_league};
use crate::support::{ADMIN, Player, TestApp, error_of, spawn_app};

const REPORT: &str = "mutation($g: ID!, $r: GameResultInput!, $key: String) {
    reportGameResult(gameId: $g, result: $r, idempotencyKey: $key) { id status scores { player { id } score } }
}";

/// A retried report with the same key gets the identical answer and appends nothing.
async fn a_retried_report_gets_the_first_answer(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let game = &games[0];
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    let vars = json!({ "g": game.id, "r": input, "key": "report-game-1" });
    let first = server.gql(Some(ADMIN), REPORT, vars.clone()).await;
    assert!(first.get("errors").is_none(), "{first:#}");
    let count = server.event_count().await;
    let retry = server.gql(Some(ADMIN), REPORT, vars).await;
    assert_eq!(retry, first);
    assert_eq!(server.event_count().await, count, "the retry appended nothing");
}

/// Without the key, reporting a finished game again is a CONFLICT.
async fn reporting_again_without_the_key_conflicts(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let game = &games[0];
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    let vars = json!({ "g": game.id, "r": input, "key": "report-game-1" });
    server.data(Some(ADMIN), REPORT, vars).await;
    let count = server.event_count().await;
    let response = server.gql(Some(ADMIN), REPORT, json!({ "g": game.id, "r": input })).await;
    assert_eq!(error_of(&response), ("CONFLICT", None));
    assert_eq!(server.event_count().await, count, "a conflict appends nothing");
}

/// createLeague retried with its key returns the same league, created once.
async fn a_retried_create_league_creates_one_league(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let create = "mutation { createLeague(input: {name: \"Once\", game: \"Go\", scoringSystem: PLACEMENT, playersPerGame: 2}, idempotencyKey: \"create-once\") { id } }";
    let a = server.data(Some(ADMIN), create, json!({})).await;
    let b = server.data(Some(ADMIN), create, json!({})).await;
    assert_eq!(a, b);
    assert_eq!(server.event_count().await, 1);
}

/// The refusal of a key used before for another command.
const KEY_REUSED: &str = "was used for another command";

/// A webhook address `check_destination` accepts without a DNS lookup (a public IP literal).
const HOOK_URL: &str = "https://93.184.216.34/hook";

const REGISTER_WEBHOOK: &str = "mutation($input: RegisterWebhookInput!, $key: String) {
    registerWebhook(input: $input, idempotencyKey: $key) { secret webhook { id url status } }
}";

const SUBSCRIBE: &str = "mutation($l: ID!, $p: ID, $key: String) {
    subscribeToLeague(leagueId: $l, playerId: $p, idempotencyKey: $key) { id }
}";

/// Runs a mutation that must be refused as a reuse of its key for another command
/// (`CONFLICT`), appending nothing.
async fn refused_as_reused(server: &TestApp, who: &str, query: &str, variables: Value) {
    let response =
        attempt(server, who, Some(ADMIN), query, variables, Expect::Refused("CONFLICT")).await;
    let message = response["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains(KEY_REUSED), "{who}: {response:#}");
}

/// The attacks on a reused key: a player reuses the key of their own subscription on the
/// admin's webhook (resume, remove) and on a correction. Each is `FORBIDDEN` and appends
/// nothing; the webhook's URL is not shown, its secret stays, it stays active, and the
/// admin's own retry of the registration answers its first outcome.
async fn a_reused_key_never_skips_the_rights_check(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, players, games) = running_league(&server).await;
    let open = small_placement_league(&server).await;
    let player = &players[0];
    let game = games.iter().find(|g| !g.seats.contains(&player.id)).unwrap();
    let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
    server
        .data(
            Some(ADMIN),
            "mutation($g: ID!, $r: GameResultInput!) { reportGameResult(gameId: $g, result: $r) { id } }",
            json!({ "g": game.id, "r": input }),
        )
        .await;
    let registration = json!({
        "input": { "url": HOOK_URL, "kinds": ["RESULT_REPORTED"], "competitionIds": [league] },
        "key": "k",
    });
    let first = server.data(Some(ADMIN), REGISTER_WEBHOOK, registration.clone()).await;
    let webhook = first["registerWebhook"]["webhook"]["id"].as_str().unwrap().to_owned();
    let secret = first["registerWebhook"]["secret"].as_str().unwrap().to_owned();

    // The player's own key, first used for their own subscription.
    let subscribed =
        server.gql(Some(&player.token), SUBSCRIBE, json!({ "l": open, "key": "k" })).await;
    assert!(subscribed.get("errors").is_none(), "{subscribed:#}");
    let forbidden = Expect::Refused("FORBIDDEN");
    let token = Some(player.token.as_str());
    let resume = "mutation($id: ID!) { resumeWebhook(id: $id, idempotencyKey: \"k\") { url } }";
    let response =
        attempt(&server, "resume", token, resume, json!({ "id": webhook }), forbidden).await;
    assert!(!response.to_string().contains(HOOK_URL), "the URL leaked: {response:#}");
    let remove = "mutation($id: ID!) { removeWebhook(id: $id, idempotencyKey: \"k\") }";
    attempt(&server, "remove", token, remove, json!({ "id": webhook }), forbidden).await;
    let (correction, _) = result_for("PLACEMENT", game.number + 1, &game.seats);
    let correct = "mutation($g: ID!, $r: GameResultInput!) {
        correctGameResult(gameId: $g, result: $r, reason: \"mine\", idempotencyKey: \"k\") { id }
    }";
    let vars = json!({ "g": game.id, "r": correction });
    attempt(&server, "correct", token, correct, vars, forbidden).await;

    // The webhook is intact: still active, its secret kept, and the admin's retry answers
    // the first outcome without appending.
    let uuid = Uuid::parse_str(&webhook).unwrap();
    let kept = server.app().store().webhook_secret(uuid).await.unwrap();
    assert_eq!(kept.as_deref(), Some(secret.as_str()));
    let count = server.event_count().await;
    let retry = server.data(Some(ADMIN), REGISTER_WEBHOOK, registration).await;
    assert_eq!(retry, first);
    assert_eq!(retry["registerWebhook"]["webhook"]["status"], "ACTIVE");
    assert_eq!(server.event_count().await, count, "the retry appended nothing");
}

/// The same key on the same mutation with other arguments is another command: refused with
/// `CONFLICT`, appending nothing; the second game keeps no result.
async fn a_key_reused_with_other_arguments_is_refused(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (_league, _players, games) = running_league(&server).await;
    let report = |game: &crate::support::GameInfo| {
        let (input, _) = result_for("PLACEMENT", game.number, &game.seats);
        json!({ "g": game.id, "r": input, "key": "report-1" })
    };
    server.data(Some(ADMIN), REPORT, report(&games[0])).await;
    refused_as_reused(&server, "another game", REPORT, report(&games[1])).await;
    let status = server
        .data(None, "query($id: ID!) { game(id: $id) { status } }", json!({ "id": games[1].id }))
        .await;
    assert_ne!(status["game"]["status"], "FINISHED", "{status}");
    // A registration retried with the same key but another URL is another command too.
    let input = |url: &str| json!({ "url": url, "kinds": ["RESULT_REPORTED"] });
    let vars = |url: &str| json!({ "input": input(url), "key": "hook-1" });
    server.data(Some(ADMIN), REGISTER_WEBHOOK, vars(HOOK_URL)).await;
    refused_as_reused(&server, "another URL", REGISTER_WEBHOOK, vars("https://93.184.216.34/b"))
        .await;
}

/// A key holding a NUL or another control character is `BAD_USER_INPUT` on
/// `idempotencyKey` on both databases, appending nothing.
async fn a_key_with_a_control_character_is_bad_input(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let player = server.register("Nul").await;
    let open = small_placement_league(&server).await;
    let count = server.event_count().await;
    for key in ["k\u{0}", "\u{0}", "line\nbreak", "bell\u{7}"] {
        let vars = json!({ "l": open, "key": key });
        let response = server.gql(Some(&player.token), SUBSCRIBE, vars).await;
        assert_eq!(error_of(&response), ("BAD_USER_INPUT", Some("idempotencyKey")), "{key:?}");
        assert_eq!(server.event_count().await, count, "{key:?} appended");
    }
    let vars = json!({ "l": open, "key": "k" });
    let fine = server.gql(Some(&player.token), SUBSCRIBE, vars).await;
    assert!(fine.get("errors").is_none(), "{fine:#}");
}

/// The mutations that take no `idempotencyKey` (nothing to reuse; `walkIns` is idempotent
/// by its list: docs/tournaments.md#walk-ins-and-bulk-entry).
const WITHOUT_KEY: [&str; 41] = [
    "registerPlayer",
    "endSession",
    "endAllSessions",
    "issueSignInLink",
    "issueSignInSheet",
    "walkIns",
    "issueInvite",
    "revokeInvite",
    "answerRollCall",
    "swapRoundPlayers",
    "rotateToken",
    "revokeToken",
    "erasePlayer",
    "appointOrganiser",
    "dismissOrganiser",
    "addCoOrganiser",
    "rotateCalendarFeed",
    "changeTournamentRegistration",
    "approveTournamentEntry",
    "declineTournamentEntry",
    "undoTournamentWithdrawal",
    "beginAddingPasskey",
    "addPasskey",
    "removePasskey",
    "unlinkIdentity",
    "recordBoardProgress",
    "changeTournamentSchedule",
    "setRoundTimes",
    "changeBestCountryRule",
    "changeTeamRules",
    "setRoundScoring",
    "setHandicap",
    "changeKeepApart",
    "breakTopBoardTie",
    // Power assignment (docs/tournaments.md#power-assignment): a method, a ranking or a
    // board's powers sent again are refused as already recorded (CONFLICT), a pick sent again
    // as taken: nothing is appended twice.
    "changePowerAssignment",
    "submitPowerPreferences",
    "pastePowerPreferences",
    "setBoardPowers",
    "choosePower",
    // A permanent keep-apart change sent again is refused as already so (CONFLICT).
    "changePermanentKeepApart",
    // An external id sent again is recorded again, the same value: a system's latest id is the
    // one shown (docs/tournaments.md#external-ids).
    "recordExternalId",
];

/// Walks one keyed mutation. A player without the right, with their own key first used for
/// their subscription, and with a key only the admin used: `FORBIDDEN`. The admin with a
/// key first used for another command: refused as reused. Each appends nothing. Then the
/// admin with a fresh key: allowed; retried: the same answer, nothing appended.
struct Walk<'a> {
    server: &'a TestApp,
    player: &'a Player,
    walked: BTreeSet<String>,
}

impl Walk<'_> {
    async fn mutation(
        &mut self,
        name: &str,
        query: &str,
        as_player: Value,
        as_admin: Value,
    ) -> Value {
        let with_key = |vars: &Value, key: &str| {
            let mut vars = vars.clone();
            vars["key"] = json!(key);
            vars
        };
        let forbidden = Expect::Refused("FORBIDDEN");
        let token = Some(self.player.token.as_str());
        for key in ["k", "admin-only"] {
            let who = format!("{name}: player, key {key}");
            attempt(self.server, &who, token, query, with_key(&as_player, key), forbidden).await;
        }
        let who = format!("{name}: admin, key k");
        refused_as_reused(self.server, &who, query, with_key(&as_admin, "k")).await;
        let fresh = with_key(&as_admin, &format!("{name}-1"));
        let who = format!("{name}: admin, fresh key");
        let first =
            attempt(self.server, &who, Some(ADMIN), query, fresh.clone(), Expect::Allowed).await;
        let count = self.server.event_count().await;
        let retry = self.server.gql(Some(ADMIN), query, fresh).await;
        assert_eq!(retry, first, "{name}: a retry answers the first outcome");
        assert_eq!(self.server.event_count().await, count, "{name}: the retry appended");
        assert!(self.walked.insert(name.to_owned()), "{name} walked twice");
        first["data"][name].clone()
    }
}

/// Every mutation of the schema (from introspection, so a new one cannot be forgotten) has
/// a case: walked with reused keys ([`Walk`]) if it takes an `idempotencyKey`, else listed
/// in [`WITHOUT_KEY`].
async fn every_mutation_refuses_a_key_reused_by_another_caller_or_command(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let (league, players, games) = running_league(&server).await;
    let player = players.iter().find(|p| !games[0].seats.contains(&p.id)).unwrap().clone();
    let other = players.iter().find(|p| p.id != player.id).unwrap().clone();
    let create_league = "mutation($input: CreateLeagueInput!, $key: String) {
        createLeague(input: $input, idempotencyKey: $key) { id }
    }";
    let league_input = |name: &str| json!({ "name": name, "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 4, "gamesPerSeat": 1 });
    // A key only the admin uses, and "k": the admin's for a webhook, the player's for their
    // own subscription.
    let vars = json!({ "input": league_input("Open"), "key": "admin-only" });
    let open = server.data(Some(ADMIN), create_league, vars).await["createLeague"]["id"].clone();
    let registration = json!({
        "input": { "url": HOOK_URL, "kinds": ["RESULT_REPORTED"], "competitionIds": [league] },
        "key": "k",
    });
    let registered = server.data(Some(ADMIN), REGISTER_WEBHOOK, registration).await;
    let webhook = registered["registerWebhook"]["webhook"]["id"].clone();
    server.data(Some(&player.token), SUBSCRIBE, json!({ "l": open, "key": "k" })).await;
    // A tournament of four entrants on two-player boards, checked in for round 1.
    let tournament_input = |name: &str| {
        json!({
            "name": name, "game": "Go", "scoringSystem": "PLACEMENT", "playersPerBoard": 2, "rounds": 1,
        })
    };
    // The Cup asks for confirmation of players' reports: board 2's waits for it.
    let mut cup = tournament_input("Cup");
    cup["confirmPlayerResults"] = json!(true);
    let created = server
        .data(
            Some(ADMIN),
            "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }",
            json!({ "input": cup }),
        )
        .await;
    let tournament = created["createTournament"]["id"].clone();
    let entrants: Vec<&Player> =
        players.iter().filter(|p| p.id != player.id && p.id != other.id).take(4).collect();
    for entrant in &entrants {
        server
            .data(
                Some(ADMIN),
                "mutation($t: ID!, $p: ID) { enterTournament(tournamentId: $t, playerId: $p) { id } }",
                json!({ "t": tournament, "p": entrant.id }),
            )
            .await;
        server
            .data(
                Some(ADMIN),
                "mutation($t: ID!, $p: ID) { answerRollCall(tournamentId: $t, round: 1, playerId: $p, present: true) { id } }",
                json!({ "t": tournament, "p": entrant.id }),
            )
            .await;
    }

    let mut walk = Walk { server: &server, player: &player, walked: BTreeSet::new() };
    let vars = json!({ "input": league_input("Walked") });
    walk.mutation("createLeague", create_league, vars.clone(), vars).await;
    // (Un)subscribing, entering and withdrawing another player: the player may not.
    let vars = json!({ "l": open, "p": other.id });
    walk.mutation("subscribeToLeague", SUBSCRIBE, vars.clone(), vars.clone()).await;
    let unsubscribe = "mutation($l: ID!, $p: ID, $key: String) {
        unsubscribeFromLeague(leagueId: $l, playerId: $p, idempotencyKey: $key) { id }
    }";
    walk.mutation("unsubscribeFromLeague", unsubscribe, vars.clone(), vars).await;
    // A game the player is not seated in.
    let game = &games[0];
    let (result, _) = result_for("PLACEMENT", game.number, &game.seats);
    let vars = json!({ "g": game.id, "r": result });
    walk.mutation("reportGameResult", REPORT, vars.clone(), vars).await;
    let correct = "mutation($g: ID!, $r: GameResultInput!, $key: String) {
        correctGameResult(gameId: $g, result: $r, reason: \"fix\", idempotencyKey: $key) { id status }
    }";
    let (result, _) = result_for("PLACEMENT", game.number + 1, &game.seats);
    let vars = json!({ "g": game.id, "r": result });
    walk.mutation("correctGameResult", correct, vars.clone(), vars).await;
    let create_tournament = "mutation($input: CreateTournamentInput!, $key: String) {
        createTournament(input: $input, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "input": tournament_input("Walked cup") });
    walk.mutation("createTournament", create_tournament, vars.clone(), vars).await;
    let vars = json!({ "t": tournament, "p": other.id });
    let enter = "mutation($t: ID!, $p: ID, $key: String) {
        enterTournament(tournamentId: $t, playerId: $p, idempotencyKey: $key) { id }
    }";
    walk.mutation("enterTournament", enter, vars.clone(), vars.clone()).await;
    let withdraw = "mutation($t: ID!, $p: ID, $key: String) {
        withdrawFromTournament(tournamentId: $t, playerId: $p, idempotencyKey: $key) { id }
    }";
    walk.mutation("withdrawFromTournament", withdraw, vars.clone(), vars).await;
    let pool = "mutation($t: ID!, $key: String) {
        setRoundPool(tournamentId: $t, round: 1, best: 2, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament });
    walk.mutation("setRoundPool", pool, vars.clone(), vars).await;
    let unpool = "mutation($t: ID!, $key: String) {
        removeRoundPool(tournamentId: $t, round: 1, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament });
    walk.mutation("removeRoundPool", unpool, vars.clone(), vars).await;
    let seed = "mutation($t: ID!, $key: String) {
        seedRound(tournamentId: $t, round: 1, seed: \"42\", idempotencyKey: $key) {
            number boards { id seats { player { id } } }
        }
    }";
    let vars = json!({ "t": tournament });
    let round = walk.mutation("seedRound", seed, vars.clone(), vars).await;
    let board = &round["boards"][0];
    let seats: Vec<String> = board["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seat| seat["player"]["id"].as_str().unwrap().to_owned())
        .collect();
    let (result, _) = result_for("PLACEMENT", 1, &seats);
    let vars = json!({ "t": tournament, "b": board["id"], "r": result });
    let report_board = "mutation($t: ID!, $b: ID!, $r: GameResultInput!, $key: String) {
        reportBoardResult(tournamentId: $t, boardId: $b, result: $r, idempotencyKey: $key) { id finished }
    }";
    walk.mutation("reportBoardResult", report_board, vars.clone(), vars).await;
    let (result, _) = result_for("PLACEMENT", 2, &seats);
    let vars = json!({ "t": tournament, "b": board["id"], "r": result });
    let correct_board = "mutation($t: ID!, $b: ID!, $r: GameResultInput!, $key: String) {
        correctBoardResult(tournamentId: $t, boardId: $b, result: $r, reason: \"fix\", idempotencyKey: $key) { id finished }
    }";
    walk.mutation("correctBoardResult", correct_board, vars.clone(), vars).await;
    // Board 2's result reported by one of its players, disputed and confirmed by the admin.
    let other_board = &round["boards"][1];
    let seats: Vec<String> = other_board["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seat| seat["player"]["id"].as_str().unwrap().to_owned())
        .collect();
    let reporter = entrants.iter().find(|p| p.id == seats[0]).unwrap();
    let (result, _) = result_for("PLACEMENT", 1, &seats);
    let vars = json!({ "t": tournament, "b": other_board["id"], "r": result });
    server.data(Some(&reporter.token), report_board, vars).await;
    let vars = json!({ "t": tournament, "b": other_board["id"] });
    let dispute = "mutation($t: ID!, $b: ID!, $key: String) {
        disputeBoardResult(tournamentId: $t, boardId: $b, reason: \"recount\", idempotencyKey: $key) { id }
    }";
    walk.mutation("disputeBoardResult", dispute, vars.clone(), vars.clone()).await;
    let confirm = "mutation($t: ID!, $b: ID!, $key: String) {
        confirmBoardResult(tournamentId: $t, boardId: $b, idempotencyKey: $key) { id finished }
    }";
    walk.mutation("confirmBoardResult", confirm, vars.clone(), vars).await;
    let give = "mutation($t: ID!, $p: ID!, $key: String) {
        giveAward(tournamentId: $t, name: \"Best Diplomat\", playerId: $p, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament, "p": entrants[0].id });
    walk.mutation("giveAward", give, vars.clone(), vars).await;
    let revoke = "mutation($t: ID!, $key: String) {
        revokeAward(tournamentId: $t, number: 1, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament });
    walk.mutation("revokeAward", revoke, vars.clone(), vars).await;
    teams_walk(&mut walk, &tournament, &entrants[0].id).await;
    // Rulings (docs/tournaments.md#rulings): a tournament bonus, revoked; an entrant unranked.
    let adjust = "mutation($t: ID!, $p: ID!, $key: String) {
        adjustScore(tournamentId: $t, playerId: $p, level: TOURNAMENT, points: 1.5, reason: \"fair play\", idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament, "p": entrants[0].id });
    walk.mutation("adjustScore", adjust, vars.clone(), vars).await;
    let revoke_adjustment = "mutation($t: ID!, $key: String) {
        revokeScoreAdjustment(tournamentId: $t, number: 1, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament });
    walk.mutation("revokeScoreAdjustment", revoke_adjustment, vars.clone(), vars).await;
    let unrank = "mutation($t: ID!, $p: ID!, $key: String) {
        setEntrantUnranked(tournamentId: $t, playerId: $p, unranked: true, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament, "p": entrants[1].id });
    walk.mutation("setEntrantUnranked", unrank, vars.clone(), vars).await;
    // Another webhook for a league the player does not organise.
    let input =
        json!({ "url": HOOK_URL, "kinds": ["LEAGUE_COMPLETED"], "competitionIds": [league] });
    let vars = json!({ "input": input });
    walk.mutation("registerWebhook", REGISTER_WEBHOOK, vars.clone(), vars).await;
    // The admin's first webhook, paused (deliveries pause it; no mutation does).
    let webhook_id = Uuid::parse_str(webhook.as_str().unwrap()).unwrap();
    let reason = "paused for the test".to_owned();
    let pause = PauseWebhook { actor: Actor::Admin, webhook_id: webhook_id.into(), reason };
    server.app().execute(pause, league_app::CommandOptions::default()).await.unwrap();
    let vars = json!({ "id": webhook });
    let resume = "mutation($id: ID!, $key: String) { resumeWebhook(id: $id, idempotencyKey: $key) { id status } }";
    walk.mutation("resumeWebhook", resume, vars.clone(), vars.clone()).await;
    let remove =
        "mutation($id: ID!, $key: String) { removeWebhook(id: $id, idempotencyKey: $key) }";
    walk.mutation("removeWebhook", remove, vars.clone(), vars).await;

    // A series (docs/series.md) of the admin's, over the league.
    let create_series = "mutation($input: CreateSeriesInput!, $key: String) {
        createSeries(input: $input, idempotencyKey: $key) { id }
    }";
    let vars = json!({ "input": { "name": "Circuit", "best": 2, "basis": "RANK_POINTS" } });
    let series =
        walk.mutation("createSeries", create_series, vars.clone(), vars).await["id"].clone();
    let vars = json!({ "s": series, "c": league });
    let add = "mutation($s: ID!, $c: ID!, $key: String) {
        addSeriesEvent(seriesId: $s, competitionId: $c, idempotencyKey: $key) { id }
    }";
    walk.mutation("addSeriesEvent", add, vars.clone(), vars.clone()).await;
    let change = json!({ "s": series, "input": { "best": 3 } });
    let settings = "mutation($s: ID!, $input: SeriesSettingsInput!, $key: String) {
        changeSeriesSettings(seriesId: $s, input: $input, idempotencyKey: $key) { id best }
    }";
    walk.mutation("changeSeriesSettings", settings, change.clone(), change).await;
    let remove = "mutation($s: ID!, $c: ID!, $key: String) {
        removeSeriesEvent(seriesId: $s, competitionId: $c, idempotencyKey: $key) { id }
    }";
    walk.mutation("removeSeriesEvent", remove, vars.clone(), vars).await;

    // Every mutation of the schema has its case: walked if it takes a key, else listed.
    let schema = server
        .data(None, "{ __schema { mutationType { fields { name args { name } } } } }", json!({}))
        .await;
    let fields = schema["__schema"]["mutationType"]["fields"].as_array().unwrap();
    for field in fields {
        let name = field["name"].as_str().unwrap();
        let keyed = field["args"].as_array().unwrap().iter().any(|a| a["name"] == "idempotencyKey");
        if keyed {
            assert!(walk.walked.contains(name), "mutation {name} takes a key but has no case");
        } else {
            assert!(WITHOUT_KEY.contains(&name), "mutation {name} has no case");
        }
    }
    assert_eq!(walk.walked.len() + WITHOUT_KEY.len(), fields.len(), "a case of no mutation");
}

on_both_databases!(
    a_retried_report_gets_the_first_answer,
    reporting_again_without_the_key_conflicts,
    a_retried_create_league_creates_one_league,
    a_reused_key_never_skips_the_rights_check,
    a_key_reused_with_other_arguments_is_refused,
    a_key_with_a_control_character_is_bad_input,
    every_mutation_refuses_a_key_reused_by_another_caller_or_command,
);

/// The keyed team mutations (`docs/tournaments.md#teams`): team 1 created, renamed, given a
/// member who is taken out again, dissolved.
async fn teams_walk(walk: &mut Walk<'_>, tournament: &Value, entrant: &str) {
    let create = "mutation($t: ID!, $key: String) {
        createTeam(tournamentId: $t, name: \"North\", idempotencyKey: $key) { id }
    }";
    let vars = json!({ "t": tournament });
    walk.mutation("createTeam", create, vars.clone(), vars.clone()).await;
    let rename = "mutation($t: ID!, $key: String) {
        renameTeam(tournamentId: $t, number: 1, name: \"Nord\", idempotencyKey: $key) { id }
    }";
    walk.mutation("renameTeam", rename, vars.clone(), vars.clone()).await;
    let member = json!({ "t": tournament, "p": entrant });
    let add = "mutation($t: ID!, $p: ID!, $key: String) {
        addTeamMember(tournamentId: $t, number: 1, playerId: $p, idempotencyKey: $key) { id }
    }";
    walk.mutation("addTeamMember", add, member.clone(), member.clone()).await;
    let remove = "mutation($t: ID!, $p: ID!, $key: String) {
        removeTeamMember(tournamentId: $t, number: 1, playerId: $p, idempotencyKey: $key) { id }
    }";
    walk.mutation("removeTeamMember", remove, member.clone(), member).await;
    let dissolve = "mutation($t: ID!, $key: String) {
        dissolveTeam(tournamentId: $t, number: 1, idempotencyKey: $key) { id }
    }";
    walk.mutation("dissolveTeam", dissolve, vars.clone(), vars).await;
}
