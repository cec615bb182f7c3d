//! Sign-in with an identity provider (`docs/sign-in.md#identity-providers`) on SQLite and
//! PostgreSQL, against a tiny OpenID Connect provider run here (discovery, keys, a token
//! endpoint answering the ID token each test asks for): a forged `state`, a wrong `nonce`,
//! an expired ID token and one signed by another key are each refused with a page naming
//! the reason and no secret, and nothing is appended; an identity linked to nobody is told
//! to link it first; a browser signed in as a player links it; a linked one signs its player
//! in and returns to the page the flow started from. (The real provider, `oidc-provider`,
//! drives the browser test `tests/browser/oidc.spec.js`.)

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{Duration, Utc};
use league_domain::{Actor, LinkIdentity};
use league_gateway::config::IdentityProviderConfig;
use league_testkit::{TestDatabase, on_both_databases};
use openidconnect::core::{
    CoreIdToken, CoreIdTokenClaims, CoreJsonWebKeySet, CoreJwsSigningAlgorithm,
    CoreRsaPrivateSigningKey,
};
use openidconnect::{
    Audience, EmptyAdditionalClaims, IssuerUrl, JsonWebKeyId, Nonce, PrivateSigningKey,
    StandardClaims, SubjectIdentifier,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestApp, spawn_app_with};

const CLIENT_ID: &str = "league-e2e";
const CLIENT_SECRET: &str = "e2e-client-secret-0123456789";
const SUBJECT: &str = "ann-at-the-club";
const PROVIDER_KEY: &str = include_str!("../../crates/gateway/src/oidc/testdata/provider-key.pem");
const OTHER_KEY: &str = include_str!("../../crates/gateway/src/oidc/testdata/other-key.pem");

/// What the token endpoint answers next.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Answer {
    Valid,
    WrongNonce,
    Expired,
    OtherKey,
}

#[derive(Clone)]
struct Fake {
    issuer: String,
    answer: Arc<Mutex<(Answer, String)>>,
}

fn signer(pem: &str) -> CoreRsaPrivateSigningKey {
    CoreRsaPrivateSigningKey::from_pem(pem, Some(JsonWebKeyId::new("provider".into()))).unwrap()
}

/// The provider on `127.0.0.1:0`; answers its issuer address and the answer to give.
async fn fake_provider() -> Fake {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}", listener.local_addr().unwrap());
    let fake = Fake { issuer, answer: Arc::new(Mutex::new((Answer::Valid, String::new()))) };
    let router = Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route(
            "/jwks",
            get(|| async {
                Json(CoreJsonWebKeySet::new(vec![signer(PROVIDER_KEY).as_verification_key()]))
            }),
        )
        .route("/token", post(token))
        .with_state(fake.clone());
    tokio::spawn(async move { axum::serve(listener, router).await });
    fake
}

async fn discovery(State(fake): State<Fake>) -> Json<Value> {
    let issuer = &fake.issuer;
    Json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
    }))
}

async fn token(State(fake): State<Fake>) -> Json<Value> {
    let (answer, nonce) = fake.answer.lock().unwrap().clone();
    let now = Utc::now();
    let expires = if answer == Answer::Expired {
        now - Duration::minutes(2)
    } else {
        now + Duration::minutes(5)
    };
    let nonce = if answer == Answer::WrongNonce { "another-flow".to_owned() } else { nonce };
    let claims = CoreIdTokenClaims::new(
        IssuerUrl::new(fake.issuer.clone()).unwrap(),
        vec![Audience::new(CLIENT_ID.into())],
        expires,
        now - Duration::minutes(3),
        StandardClaims::new(SubjectIdentifier::new(SUBJECT.into())),
        EmptyAdditionalClaims {},
    )
    .set_nonce(Some(Nonce::new(nonce)));
    let key = signer(if answer == Answer::OtherKey { OTHER_KEY } else { PROVIDER_KEY });
    let id_token =
        CoreIdToken::new(claims, &key, CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256, None, None)
            .unwrap();
    Json(json!({ "access_token": "at", "token_type": "Bearer", "id_token": id_token.to_string() }))
}

async fn gateway(db: &TestDatabase, fake: &Fake) -> TestApp {
    let provider = IdentityProviderConfig {
        issuer: fake.issuer.clone(),
        client_id: CLIENT_ID.into(),
        client_secret: CLIENT_SECRET.into(),
        name: "Club ID".into(),
    };
    spawn_app_with(&db.url, |config| config.identity_provider = Some(provider)).await
}

/// A started flow: the flow cookie, and the `state` and `nonce` sent to the provider.
struct Started {
    cookie: String,
    state: String,
    nonce: String,
}

async fn start(server: &TestApp, fake: &Fake) -> Started {
    let response = server
        .send(server.http.get(server.url("/auth/oidc/start?return=/tournaments/x")))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.starts_with(&format!("{}/authorize?", fake.issuer)), "{location}");
    let url = reqwest::Url::parse(&location).unwrap();
    let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).unwrap().1.into_owned();
    assert_eq!(param("code_challenge_method"), "S256");
    assert_eq!(param("client_id"), CLIENT_ID);
    let set_cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"), "{set_cookie}");
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    Started { cookie, state: param("state"), nonce: param("nonce") }
}

/// The provider's answer to `flow` with `state`, `answer` given by the token endpoint.
async fn callback(
    server: &TestApp,
    fake: &Fake,
    flow: &Started,
    state: &str,
    answer: Answer,
) -> reqwest::Response {
    *fake.answer.lock().unwrap() = (answer, flow.nonce.clone());
    let address = server.url(&format!("/auth/oidc/callback?code=the-code&state={state}"));
    server.send(server.http.get(address).header("cookie", &flow.cookie)).await.unwrap()
}

/// The refusal page's reason, checking it names no secret of the flow.
async fn refusal(response: reqwest::Response, flow: &Started) -> (StatusCode, String) {
    let status = response.status();
    let page = response.text().await.unwrap();
    for secret in [flow.state.as_str(), flow.nonce.as_str(), CLIENT_SECRET, SUBJECT, "the-code"] {
        assert!(!page.contains(secret), "the page names a secret: {page}");
    }
    let code = page.split("data-refusal=\"").nth(1).and_then(|rest| rest.split('"').next());
    (status, code.expect("a refusal page").to_owned())
}

/// `player` links the identity `subject` of the provider (as the callback does once the
/// provider vouched for it).
async fn link(server: &TestApp, fake: &Fake, player: &str, subject: &str) {
    let id = player.parse::<uuid::Uuid>().unwrap();
    let command = LinkIdentity {
        actor: Actor::Player(id.into()),
        player_id: id.into(),
        issuer: fake.issuer.clone(),
        subject: subject.into(),
    };
    server.app().execute(command, Default::default()).await.unwrap();
}

async fn head(server: &TestApp) -> u64 {
    server.app().store().head_position().await.unwrap()
}

async fn forged_or_invalid_answers_are_refused_and_append_nothing(db: TestDatabase) {
    let fake = fake_provider().await;
    let server = gateway(&db, &fake).await;
    let ann = server.register("Ann").await;
    link(&server, &fake, &ann.id, SUBJECT).await;
    let before = head(&server).await;
    let cases = [
        ("forged state", false, Answer::Valid, "state-mismatch"),
        ("wrong nonce", true, Answer::WrongNonce, "nonce-mismatch"),
        ("expired ID token", true, Answer::Expired, "token-expired"),
        ("ID token signed by another key", true, Answer::OtherKey, "bad-signature"),
    ];
    for (case, own_state, answer, expected) in cases {
        let flow = start(&server, &fake).await;
        let state = if own_state { flow.state.clone() } else { "forged-state".to_owned() };
        let response = callback(&server, &fake, &flow, &state, answer).await;
        let removal = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(
            removal.starts_with("league_oidc=;") && removal.contains("Max-Age=0"),
            "{case}: {removal}"
        );
        assert!(response.headers().get("location").is_none(), "{case}: not signed in");
        let (status, code) = refusal(response, &flow).await;
        assert_eq!((status, code.as_str()), (StatusCode::BAD_REQUEST, expected), "{case}");
        assert_eq!(head(&server).await, before, "{case}: nothing appended");
    }
    // Without the flow cookie (another browser, or expired): refused the same way.
    let flow = start(&server, &fake).await;
    let address = server.url(&format!("/auth/oidc/callback?code=c&state={}", flow.state));
    let response = server.send(server.http.get(address)).await.unwrap();
    assert_eq!(refusal(response, &flow).await.1, "flow-missing");
    assert_eq!(head(&server).await, before);
}

async fn an_identity_linked_to_nobody_is_told_to_link_it_first(db: TestDatabase) {
    let fake = fake_provider().await;
    let server = gateway(&db, &fake).await;
    server.register("Ann").await;
    let before = head(&server).await;
    let flow = start(&server, &fake).await;
    let response = callback(&server, &fake, &flow, &flow.state.clone(), Answer::Valid).await;
    let (status, code) = refusal(response, &flow).await;
    assert_eq!((status, code.as_str()), (StatusCode::FORBIDDEN, "not-linked"));
    assert_eq!(head(&server).await, before);
}

/// The `league_session=…` pair of a `Set-Cookie` value.
fn session_pair(set_cookie: &str) -> String {
    let pair = set_cookie.split(';').next().unwrap();
    assert!(pair.starts_with("league_session=") && pair.len() > 20, "{set_cookie}");
    pair.to_owned()
}

/// The player the session `cookie` signs in (`GET /auth/session`).
async fn signed_in_as(server: &TestApp, cookie: &str) -> Value {
    let request = server.http.get(server.url("/auth/session")).header("cookie", cookie);
    let session: Value = server.send(request).await.unwrap().json().await.unwrap();
    session["player"]["id"].clone()
}

async fn a_signed_in_player_links_their_identity_which_then_signs_them_in(db: TestDatabase) {
    let fake = fake_provider().await;
    let server = gateway(&db, &fake).await;
    let ann = server.register("Ann").await;
    let request = server.http.post(server.url("/auth/token")).json(&json!({ "token": ann.token }));
    let response = server.send(request).await.unwrap();
    let token_session = session_pair(response.headers()["set-cookie"].to_str().unwrap());

    // Signed in with her token, Ann comes back from the provider: her identity is linked.
    let before = head(&server).await;
    let flow = start(&server, &fake).await;
    *fake.answer.lock().unwrap() = (Answer::Valid, flow.nonce.clone());
    let address = server.url(&format!("/auth/oidc/callback?code=c&state={}", flow.state));
    let cookies = format!("{}; {token_session}", flow.cookie);
    let response = server.send(server.http.get(address).header("cookie", cookies)).await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/tournaments/x");
    assert_eq!(head(&server).await, before + 1, "one IdentityLinked");
    let events = server.events(None).await;
    let linked = events.last().unwrap();
    assert_eq!(linked["type"], "IdentityLinked");
    assert!(!linked.to_string().contains(SUBJECT), "the subject is sealed: {linked}");

    // A fresh browser signs in through the provider and lands where it started.
    let flow = start(&server, &fake).await;
    let response = callback(&server, &fake, &flow, &flow.state.clone(), Answer::Valid).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/tournaments/x");
    let cookies: Vec<&str> =
        response.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap()).collect();
    let session = cookies.iter().find(|c| c.starts_with("league_session=")).expect("a session");
    assert!(session.contains("HttpOnly") && session.contains("SameSite=Lax"), "{session}");
    assert_eq!(signed_in_as(&server, &session_pair(session)).await, ann.id.as_str());
    let events = server.events(None).await;
    let started = events.last().unwrap();
    assert_eq!(
        (started["type"].as_str(), started["payload"]["method"].as_str()),
        (Some("SessionStarted"), Some("identity"))
    );
}

const METHODS: &str = "{ signInMethods { identityProvider { name linked } } }";
const UNLINK: &str = "mutation($p: ID) { unlinkIdentity(playerId: $p) { id } }";

async fn a_player_unlinks_their_identity_and_nobody_else_may_but_the_site_admin(db: TestDatabase) {
    let fake = fake_provider().await;
    let server = gateway(&db, &fake).await;
    let (ann, bob) = (server.register("Ann").await, server.register("Bob").await);
    link(&server, &fake, &ann.id, SUBJECT).await;
    let methods = server.data(Some(&ann.token), METHODS, json!({})).await;
    assert_eq!(
        methods["signInMethods"]["identityProvider"],
        json!({ "name": "Club ID", "linked": true })
    );
    let theirs = server.data(Some(&bob.token), METHODS, json!({})).await;
    assert_eq!(theirs["signInMethods"]["identityProvider"]["linked"], false);

    let before = head(&server).await;
    let refused = server.gql(Some(&bob.token), UNLINK, json!({ "p": ann.id })).await;
    assert_eq!(crate::support::error_code(&refused), "FORBIDDEN", "{refused}");
    let none = server.gql(Some(&bob.token), UNLINK, json!({})).await;
    assert_eq!(crate::support::error_code(&none), "CONFLICT", "{none}");
    assert_eq!(head(&server).await, before, "a refused unlink appended");

    server.data(Some(&ann.token), UNLINK, json!({})).await;
    let methods = server.data(Some(&ann.token), METHODS, json!({})).await;
    assert_eq!(methods["signInMethods"]["identityProvider"]["linked"], false);
    assert!(server.app().catalog().player_by_identity(&fake.issuer, SUBJECT).is_none());

    link(&server, &fake, &bob.id, "bob-at-the-club").await;
    server.data(Some(crate::support::ADMIN), UNLINK, json!({ "p": bob.id })).await;
    assert!(server.app().catalog().identities(bob.id.parse().unwrap()).is_empty());
}

async fn the_site_without_a_provider_offers_none(db: TestDatabase) {
    let server = crate::support::spawn_app(&db.url).await;
    let data =
        server.data(None, "{ signInMethods { identityProvider { name } } }", json!({})).await;
    assert_eq!(data["signInMethods"]["identityProvider"], Value::Null);
    let response = server.send(server.http.get(server.url("/auth/oidc/start"))).await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

on_both_databases!(
    forged_or_invalid_answers_are_refused_and_append_nothing,
    an_identity_linked_to_nobody_is_told_to_link_it_first,
    a_signed_in_player_links_their_identity_which_then_signs_them_in,
    a_player_unlinks_their_identity_and_nobody_else_may_but_the_site_admin,
    the_site_without_a_provider_offers_none,
);
