//! Sessions and sign-in links (`docs/sign-in.md`), on SQLite and PostgreSQL: a token or a
//! single-use link is exchanged for an `HttpOnly` session cookie; a cookie-signed mutation
//! needs the session's CSRF token and a form-type body is refused, each appending nothing;
//! signing out everywhere reaches every gateway; links are issued only by those who may,
//! work once, and their secrets are in no event; a tournament's sheet has one link per
//! entrant.

use std::time::{Duration, Instant};

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::tournament::{create, diplomacy_input, enter};
use crate::support::{ADMIN, Player, TestApp, spawn_app};

pub(crate) const ME: &str = "{ me { id name } }";
const ISSUE: &str = "mutation($player: ID) {
    issueSignInLink(playerId: $player, returnTo: \"/tournaments\") { url expiresAt qrSvg player { id } }
}";

/// A browser's session: the cookie's secret and the CSRF token its page holds.
pub(crate) struct Browser {
    cookie: String,
    csrf: String,
}

/// POSTs JSON to an `/auth/…` route; the status, the `Set-Cookie` value and the body.
async fn auth(
    server: &TestApp,
    path: &str,
    body: Value,
    cookie: Option<&Browser>,
) -> (u16, Option<String>, Value) {
    let mut request = server.http.post(server.url(path)).json(&body);
    if let Some(browser) = cookie {
        request = request
            .header("cookie", format!("league_session={}", browser.cookie))
            .header("x-csrf-token", &browser.csrf);
    }
    let response = server.send(request).await.expect("POST /auth");
    let status = response.status().as_u16();
    let set_cookie = response.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_owned());
    (status, set_cookie, response.json().await.unwrap_or(Value::Null))
}

/// Signs in with `body` at `path`; the browser it makes.
pub(crate) async fn sign_in(server: &TestApp, path: &str, body: Value) -> Browser {
    let (status, set_cookie, answer) = auth(server, path, body, None).await;
    assert_eq!(status, 200, "{answer:#}");
    let set_cookie = set_cookie.expect("a session cookie");
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"), "{set_cookie}");
    let secret = set_cookie.split(';').next().unwrap().strip_prefix("league_session=").unwrap();
    Browser { cookie: secret.to_owned(), csrf: answer["csrf"].as_str().expect("csrf").to_owned() }
}

/// A GraphQL POST signed in by `browser`'s cookie, with or without its CSRF token.
pub(crate) async fn cookie_gql(
    server: &TestApp,
    browser: &Browser,
    with_csrf: bool,
    query: &str,
    variables: Value,
) -> Value {
    let mut request = server
        .http
        .post(server.graphql_url())
        .header("cookie", format!("league_session={}", browser.cookie))
        .json(&json!({ "query": query, "variables": variables }));
    if with_csrf {
        request = request.header("x-csrf-token", &browser.csrf);
    }
    server.send(request).await.expect("POST /graphql").json().await.expect("JSON")
}

/// The secret of a sign-in link (after `#`).
fn link_secret(url: &str) -> &str {
    url.split_once('#').expect("the secret is the fragment").1
}

async fn issue(server: &TestApp, token: &str, player: &str) -> Value {
    server.gql(Some(token), ISSUE, json!({ "player": player })).await
}

on_both_databases!(a_token_becomes_a_session_cookie_that_signs_queries_and_mutations_in);

async fn a_token_becomes_a_session_cookie_that_signs_queries_and_mutations_in(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let ada = server.register("Ada").await;
    let browser = sign_in(&server, "/auth/token", json!({ "token": ada.token })).await;
    let me = cookie_gql(&server, &browser, true, ME, json!({})).await;
    assert_eq!(me["data"]["me"]["id"], ada.id.as_str());
    let info = server
        .send(
            server
                .http
                .get(server.url("/auth/session"))
                .header("cookie", format!("league_session={}", browser.cookie)),
        )
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(
        (info["signedIn"].as_bool(), info["player"]["name"].as_str()),
        (Some(true), Some("Ada"))
    );
    let sessions =
        cookie_gql(&server, &browser, true, "{ sessions { method current device } }", json!({}))
            .await;
    assert_eq!(
        sessions["data"]["sessions"],
        json!([{ "method": "TOKEN", "current": true, "device": "A browser" }])
    );
    let (status, _, answer) =
        auth(&server, "/auth/token", json!({ "token": "f".repeat(64) }), None).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (401, Some("UNAUTHENTICATED")));
}

on_both_databases!(a_cookie_signed_mutation_without_its_csrf_token_or_as_a_form_is_refused);

async fn a_cookie_signed_mutation_without_its_csrf_token_or_as_a_form_is_refused(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let ada = server.register("Ada").await;
    let browser = sign_in(&server, "/auth/token", json!({ "token": ada.token })).await;
    let before = server.event_count().await;
    let rotate = "mutation { rotateToken { token } }";
    let refused = cookie_gql(&server, &browser, false, rotate, json!({})).await;
    assert_eq!(refused["errors"][0]["extensions"]["code"], "FORBIDDEN", "{refused:#}");
    let mut wrong = Browser { cookie: browser.cookie.clone(), csrf: "0".repeat(64) };
    let refused = cookie_gql(&server, &wrong, true, rotate, json!({})).await;
    assert_eq!(refused["errors"][0]["extensions"]["code"], "FORBIDDEN");
    // What a cross-site HTML form can send: text/plain carrying the cookie.
    let form = server
        .http
        .post(server.graphql_url())
        .header("cookie", format!("league_session={}", browser.cookie))
        .header("content-type", "text/plain")
        .body(json!({ "query": rotate }).to_string());
    let response = server.send(form).await.unwrap();
    assert_eq!(response.status(), 415);
    assert_eq!(server.event_count().await, before, "nothing appended");
    wrong.csrf = browser.csrf.clone();
    let done = cookie_gql(&server, &wrong, true, rotate, json!({})).await;
    assert!(done["errors"].is_null(), "{done:#}");
    assert_eq!(server.event_count().await, before + 1);
}

on_both_databases!(a_sign_in_link_works_once_and_its_secret_is_in_no_event);

async fn a_sign_in_link_works_once_and_its_secret_is_in_no_event(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let ada = server.register("Ada").await;
    let link = issue(&server, ADMIN, &ada.id).await;
    let url = link["data"]["issueSignInLink"]["url"].as_str().expect("url").to_owned();
    assert!(url.contains("/signin/link?to=%2Ftournaments#"), "{url}");
    assert!(link["data"]["issueSignInLink"]["qrSvg"].as_str().unwrap().contains("<svg"));
    let secret = link_secret(&url).to_owned();
    let browser = sign_in(&server, "/auth/link", json!({ "secret": secret })).await;
    let me = cookie_gql(&server, &browser, true, ME, json!({})).await;
    assert_eq!(me["data"]["me"]["id"], ada.id.as_str());
    let (status, _, again) = auth(&server, "/auth/link", json!({ "secret": secret }), None).await;
    assert_eq!((status, again["error"]["code"].as_str()), (401, Some("UNAUTHENTICATED")));
    assert!(!again.to_string().contains(&secret), "the refusal names no secret");
    let events = server.events(None).await;
    let text = serde_json::to_string(&events).unwrap();
    assert!(!text.contains(&secret) && !text.contains(&browser.cookie), "no secret in any event");
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert!(kinds.ends_with(&["SignInLinkIssued", "SessionStarted"]), "{kinds:?}");
}

on_both_databases!(only_the_player_the_site_admin_or_their_competitions_organisers_issue_links);

async fn only_the_player_the_site_admin_or_their_competitions_organisers_issue_links(
    db: TestDatabase,
) {
    let server = spawn_app(&db.url).await;
    let [olga, ada, bob]: [Player; 3] = server.register_many(3, "P").await.try_into().unwrap();
    server
        .data(
            Some(ADMIN),
            "mutation($id: ID!) { appointOrganiser(playerId: $id) { id } }",
            json!({ "id": olga.id }),
        )
        .await;
    let before = server.event_count().await;
    let code =
        |answer: &Value| answer["errors"][0]["extensions"]["code"].as_str().map(str::to_owned);
    assert_eq!(code(&issue(&server, &olga.token, &ada.id).await).as_deref(), Some("FORBIDDEN"));
    assert_eq!(code(&issue(&server, &bob.token, &ada.id).await).as_deref(), Some("FORBIDDEN"));
    // Rights come first: a validity out of range does not tell a stranger anything else.
    let bad_validity =
        "mutation($player: ID) { issueSignInLink(playerId: $player, validForHours: 0) { url } }";
    let answer = server.gql(Some(&bob.token), bad_validity, json!({ "player": ada.id })).await;
    assert_eq!(code(&answer).as_deref(), Some("FORBIDDEN"));
    let answer = server.gql(Some(&ada.token), bad_validity, json!({ "player": ada.id })).await;
    assert_eq!(code(&answer).as_deref(), Some("BAD_USER_INPUT"), "her own, out of range");
    assert_eq!(server.event_count().await, before, "refusals append nothing");
    let created = server
        .data(
            Some(&olga.token),
            "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }",
            json!({ "input": diplomacy_input(1) }),
        )
        .await;
    let tournament = created["createTournament"]["id"].as_str().unwrap();
    enter(&server, &ada.token, tournament, None).await;
    assert_eq!(code(&issue(&server, &olga.token, &ada.id).await), None, "her entrant");
    assert_eq!(code(&issue(&server, &ada.token, &ada.id).await), None, "her own devices");
    let anonymous = server.gql(None, ISSUE, json!({ "player": ada.id })).await;
    assert_eq!(code(&anonymous).as_deref(), Some("UNAUTHENTICATED"));
}

on_both_databases!(one_link_used_at_once_on_two_gateways_signs_in_once);

async fn one_link_used_at_once_on_two_gateways_signs_in_once(db: TestDatabase) {
    let (first, second) = (spawn_app(&db.url).await, spawn_app(&db.url).await);
    let ada = first.register("Ada").await;
    let link = issue(&first, ADMIN, &ada.id).await;
    let url = link["data"]["issueSignInLink"]["url"].as_str().expect("url").to_owned();
    let secret = link_secret(&url).to_owned();
    // A session started after the link: once the second gateway knows it, it knows the link.
    let phone = sign_in(&first, "/auth/token", json!({ "token": ada.token })).await;
    loop_until(&second, &phone, true).await;
    let before = first.event_count().await;
    let body = json!({ "secret": secret });
    let (a, b) = tokio::join!(
        auth(&first, "/auth/link", body.clone(), None),
        auth(&second, "/auth/link", body, None)
    );
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses[0], 200, "one of them signs in: {a:?} {b:?}");
    assert!((400..500).contains(&statuses[1]), "the other is refused: {a:?} {b:?}");
    // The session may have started on the second gateway: the first reads it from the log.
    let start = Instant::now();
    while first.event_count().await < before + 1 && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(first.event_count().await, before + 1, "one session started, nothing else");
}

on_both_databases!(signing_out_everywhere_signs_out_every_browser_on_every_gateway);

async fn signing_out_everywhere_signs_out_every_browser_on_every_gateway(db: TestDatabase) {
    let (first, second) = (spawn_app(&db.url).await, spawn_app(&db.url).await);
    let ada = first.register("Ada").await;
    let phone = sign_in(&first, "/auth/token", json!({ "token": ada.token })).await;
    // The second gateway learns of the new session from the log.
    let laptop = loop_until(&second, &phone, true).await;
    let done = cookie_gql(&second, &laptop, true, "mutation { endAllSessions }", json!({})).await;
    assert!(done["errors"].is_null(), "{done:#}");
    loop_until(&first, &phone, false).await;
    let sessions = first.data(Some(&ada.token), "{ sessions { id } }", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]));
}

/// Waits until `server` signs `browser` in (`true`) or no longer does (`false`); the browser.
async fn loop_until(server: &TestApp, browser: &Browser, signed_in: bool) -> Browser {
    let start = Instant::now();
    loop {
        let me = cookie_gql(server, browser, true, ME, json!({})).await;
        if me["data"]["me"].is_object() == signed_in {
            return Browser { cookie: browser.cookie.clone(), csrf: browser.csrf.clone() };
        }
        assert!(start.elapsed() < Duration::from_secs(10), "still {me:#}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

on_both_databases!(a_tournaments_sign_in_sheet_has_a_link_per_entrant_for_its_organisers_only);

async fn a_tournaments_sign_in_sheet_has_a_link_per_entrant_for_its_organisers_only(
    db: TestDatabase,
) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(3, "Entrant").await;
    let created = create(&server, diplomacy_input(1)).await;
    let tournament = created["data"]["createTournament"]["id"].as_str().unwrap();
    for player in &players {
        enter(&server, &player.token, tournament, None).await;
    }
    let query = "mutation($t: ID!) { issueSignInSheet(tournamentId: $t) {
        links { url player { id } } skipped { reason } } }";
    let refused = server.gql(Some(&players[0].token), query, json!({ "t": tournament })).await;
    assert_eq!(refused["errors"][0]["extensions"]["code"], "FORBIDDEN");
    let sheet = server.data(Some(ADMIN), query, json!({ "t": tournament })).await;
    let links = sheet["issueSignInSheet"]["links"].as_array().unwrap();
    let ids: Vec<&str> = links.iter().map(|l| l["player"]["id"].as_str().unwrap()).collect();
    assert_eq!(ids, players.iter().map(|p| p.id.as_str()).collect::<Vec<_>>());
    let secret = link_secret(links[1]["url"].as_str().unwrap());
    let browser = sign_in(&server, "/auth/link", json!({ "secret": secret })).await;
    let me = cookie_gql(&server, &browser, true, ME, json!({})).await;
    assert_eq!(me["data"]["me"]["id"], players[1].id.as_str());
}
