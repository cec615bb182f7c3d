//! Browser sessions (`docs/sign-in.md`): a person proves who they are once (their token, a
//! sign-in link, a passkey or an identity provider) and gets a session cookie
//! (`HttpOnly`, `SameSite=Lax`, `Secure` behind https) that lasts the configured lifetime,
//! renewed while it is used. Only the SHA-256 of the cookie's secret is stored (in the
//! player's `SessionStarted` event); every gateway folds it from the live feed, so a session
//! ended on one gateway is refused by all of them at once.
//!
//! A request authenticated by the cookie must also prove that it comes from the platform's
//! own pages: mutations carry the session's CSRF token in `x-csrf-token` (a page of another
//! site cannot read it), and WebSocket connections must come from the gateway's own origin.
//! Bearer tokens stay for API clients and need neither.
//!
//! The routes under `/auth/` are plain JSON over HTTP because they set or clear the cookie.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Utc;
use league_app::{App, CommandOptions};
use league_domain::{Actor, EndSession, IssueSignInLink, RenewSession, SignInMethod, StartSession};
use league_projections::SessionView;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::auth::{Caller, Credential, generate_token, hash_token};
use crate::error::GatewayError;
use crate::feeds::RequestOrigin;
use crate::http::{ClientAddr, GatewayState};
use crate::rate_limit::RateKey;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "league_session";
/// The header a cookie-authenticated mutation carries its CSRF token in.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// Default lifetime of a session since it was started or last renewed.
pub const DEFAULT_SESSION_LIFETIME: Duration = Duration::from_secs(90 * 24 * 3600);
/// Default time a sign-in link stays valid.
pub const DEFAULT_LINK_LIFETIME: Duration = Duration::from_secs(7 * 24 * 3600);

/// How long sessions and sign-in links last (`LEAGUE_SESSION_DAYS`, `LEAGUE_SIGN_IN_LINK_HOURS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionConfig {
    /// A session lasts this long since it was started or last renewed.
    pub lifetime: Duration,
    /// A sign-in link is valid this long after it is issued, unless the issuer says less.
    pub link_lifetime: Duration,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig { lifetime: DEFAULT_SESSION_LIFETIME, link_lifetime: DEFAULT_LINK_LIFETIME }
    }
}

impl SessionConfig {
    /// Whether `session` has outlived its lifetime now.
    fn expired(&self, session: &SessionView) -> bool {
        Utc::now() - session.renewed_at > chrono_duration(self.lifetime)
    }

    /// Whether `session` should be renewed now: a third of its lifetime has passed since it
    /// was started or last renewed (so a session used every day is renewed about monthly).
    fn due_for_renewal(&self, session: &SessionView) -> bool {
        Utc::now() - session.renewed_at > chrono_duration(self.lifetime / 3)
    }
}

fn chrono_duration(duration: Duration) -> chrono::Duration {
    chrono::Duration::from_std(duration).unwrap_or(chrono::Duration::MAX)
}

/// The session cookie's secret in a request's `Cookie` headers.
pub(crate) fn session_secret(headers: &HeaderMap) -> Option<&str> {
    cookie_value(headers, SESSION_COOKIE).map(str::trim).filter(|value| !value.is_empty())
}

/// The value of the cookie `name` among a request's `Cookie` headers.
pub(crate) fn cookie_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find_map(|(key, value)| (key == name).then_some(value))
}

/// The CSRF token of the session whose secret is `secret`: derived, so nothing more is
/// stored, and unguessable without the secret (which the page never sees: the cookie is
/// `HttpOnly`).
pub(crate) fn csrf_token(secret: &str) -> String {
    hex::encode(Sha256::digest(format!("csrf:{secret}").as_bytes()))
}

/// The signed-in session named by the request's cookie: not ended and not expired.
pub(crate) fn current_session(
    app: &App,
    sessions: &SessionConfig,
    headers: &HeaderMap,
) -> Option<(String, SessionView)> {
    let secret = session_secret(headers)?;
    let hash = hash_token(secret);
    let session = app.catalog().sign_ins().session(&hash).cloned()?;
    (!sessions.expired(&session)).then(|| (secret.to_owned(), session))
}

/// The session a request was authenticated by (request data for the resolvers that list or
/// end sessions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurrentSession(pub Uuid);

/// Sessions being renewed by this gateway now, so concurrent requests renew once.
#[derive(Debug, Clone, Default)]
pub(crate) struct Renewals(Arc<Mutex<HashSet<Uuid>>>);

impl Renewals {
    /// Renews `session` in the background when it is due ([`SessionConfig::due_for_renewal`]).
    pub(crate) fn renew_if_due(&self, app: &App, sessions: &SessionConfig, session: &SessionView) {
        if !sessions.due_for_renewal(session)
            || !self.0.lock().unwrap_or_else(PoisonError::into_inner).insert(session.id)
        {
            return;
        }
        let (app, renewals, session) = (app.clone(), self.clone(), session.clone());
        tokio::spawn(async move {
            let player = session.player.into();
            let command = RenewSession {
                actor: Actor::Player(player),
                player_id: player,
                session_id: session.id,
            };
            if let Err(error) = app.execute(command, CommandOptions::default()).await {
                tracing::warn!(session = %session.id, %error, "a session could not be renewed");
            }
            renewals.0.lock().unwrap_or_else(PoisonError::into_inner).remove(&session.id);
        });
    }
}

/// Starts a session for `player`, who proved who they are by `method`, and returns the
/// `Set-Cookie` value that hands it to the browser. `link_hash` is the sign-in link it uses
/// up (for [`SignInMethod::Link`]).
pub(crate) async fn begin_session(
    app: &App,
    sessions: &SessionConfig,
    player: Uuid,
    method: SignInMethod,
    headers: &HeaderMap,
    link_hash: Option<String>,
) -> Result<StartedSession, GatewayError> {
    let secret = generate_token();
    let command = StartSession {
        actor: Actor::Player(player.into()),
        player_id: player.into(),
        session_id: Uuid::now_v7(),
        session_hash: hash_token(&secret),
        method,
        device: device_label(headers),
        link_hash,
    };
    app.execute(command, CommandOptions::default()).await?;
    Ok(StartedSession {
        cookie: session_cookie(headers, &secret, sessions.lifetime),
        csrf: csrf_token(&secret),
    })
}

/// A session just started: the cookie that carries its secret, and the CSRF token the page
/// sends with its mutations.
pub(crate) struct StartedSession {
    pub cookie: HeaderValue,
    pub csrf: String,
}

/// `Set-Cookie` for a session secret (`Max-Age` 0 with an empty secret clears it).
fn session_cookie(headers: &HeaderMap, secret: &str, max_age: Duration) -> HeaderValue {
    let secure = if RequestOrigin::of(headers).is_https() { "; Secure" } else { "" };
    let cookie = format!(
        "{SESSION_COOKIE}={secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        max_age.as_secs()
    );
    HeaderValue::from_str(&cookie).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A coarse, one-line label of the browser from its `User-Agent` ("Firefox on Android"):
/// enough for a person to recognise their devices, too coarse to single anyone out.
fn device_label(headers: &HeaderMap) -> String {
    let agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("");
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    .iter()
    .find(|(mark, _)| agent.contains(mark))
    .map_or("A browser", |(_, name)| name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(mark, _)| agent.contains(mark))
    .map(|(_, name)| *name);
    match system {
        Some(system) => format!("{browser} on {system}"),
        None => browser.to_owned(),
    }
}

/// A sign-in link just issued: the secret exists only in `url`.
#[derive(Debug, Clone)]
pub(crate) struct IssuedLink {
    pub url: String,
    pub expires_at: chrono::DateTime<Utc>,
}

/// Issues a single-use sign-in link for `player` by `actor`, valid for `valid_for` (at most
/// the domain's limit), landing on `return_to` (a path of this site) once used.
pub(crate) async fn issue_link(
    app: &App,
    options: CommandOptions,
    actor: Actor,
    player: Uuid,
    valid_for: Result<Duration, GatewayError>,
    origin: &RequestOrigin,
    return_to: Option<&str>,
) -> Result<IssuedLink, GatewayError> {
    let secret = generate_token();
    let mut command = IssueSignInLink {
        actor,
        player_id: player.into(),
        link_hash: hash_token(&secret),
        expires_at: Utc::now(),
    };
    let valid_for = match valid_for {
        Ok(valid_for) => valid_for,
        Err(bad_input) => {
            // Rights first (docs/api.md#idempotency-keys): a caller who may not issue the
            // link learns that, not what was wrong with the validity.
            app.check_rights(&command.into()).await?;
            return Err(bad_input);
        }
    };
    command.expires_at += chrono_duration(valid_for);
    let expires_at = command.expires_at;
    app.execute(command, options).await?;
    // The secret travels in the fragment, which browsers never send to a server, so it is in
    // no access log or `Referer`; the sign-in page posts it to `/auth/link`.
    let to = return_to
        .filter(|path| is_local_path(path))
        .map(|path| {
            let path =
                percent_encoding::utf8_percent_encode(path, percent_encoding::NON_ALPHANUMERIC);
            format!("?to={path}")
        })
        .unwrap_or_default();
    Ok(IssuedLink { url: origin.url(&format!("/signin/link{to}#{secret}")), expires_at })
}

/// Whether `path` is a path of this site (not `//host` or a scheme), so returning to it
/// after signing in cannot send anyone elsewhere.
pub(crate) fn is_local_path(path: &str) -> bool {
    path.starts_with('/') && !path.starts_with("//") && !path.contains('\\')
}

/// The routes under `/auth/`.
pub(crate) fn routes() -> Router<GatewayState> {
    Router::new()
        .route("/auth/session", get(session_info))
        .route("/auth/token", post(sign_in_with_token))
        .route("/auth/link", post(sign_in_with_link))
        .route("/auth/sign-out", post(sign_out))
}

/// `GET /auth/session`: who the cookie signs in, and the CSRF token the page sends with its
/// mutations. Never cached.
async fn session_info(State(state): State<GatewayState>, headers: HeaderMap) -> Response {
    let body = match current_session(&state.app, &state.sessions, &headers) {
        Some((secret, session)) => {
            state.renewals.renew_if_due(&state.app, &state.sessions, &session);
            let name = state.app.catalog().player(session.player).map(|p| p.name.clone());
            serde_json::json!({
                "signedIn": true,
                "admin": false,
                "player": { "id": session.player, "name": name },
                "csrf": csrf_token(&secret),
                "expiresAt": session.renewed_at + chrono_duration(state.sessions.lifetime),
            })
        }
        None => {
            serde_json::json!({ "signedIn": false, "admin": false, "player": null, "csrf": null })
        }
    };
    ([(header::CACHE_CONTROL, "no-store")], Json(body)).into_response()
}

#[derive(serde::Deserialize)]
struct TokenSignIn {
    token: String,
}

/// `POST /auth/token` `{"token": …}`: a player's bearer token for a session cookie.
async fn sign_in_with_token(
    State(state): State<GatewayState>,
    addr: ClientAddr,
    headers: HeaderMap,
    body: Result<Json<TokenSignIn>, axum::extract::rejection::JsonRejection>,
) -> Response {
    if let Some(refusal) = limit_guessing(&state, addr) {
        return refusal;
    }
    let Ok(Json(body)) = body else { return bad_body("token") };
    let credential =
        state.auth.authenticate(&state.app, Some(&format!("Bearer {}", body.token.trim())));
    let player = match credential {
        Ok(Caller::Player(player)) => player,
        Ok(Caller::Admin) => {
            return refusal(GatewayError::bad_input(
                "token",
                "the admin token is not exchanged for a session: the web app keeps it for the \
                 browser session only",
            ));
        }
        Ok(Caller::Anonymous) | Err(_) => {
            return refusal(GatewayError::Unauthenticated("unknown or revoked token"));
        }
    };
    signed_in(&state, player, SignInMethod::Token, &headers, None).await
}

#[derive(serde::Deserialize)]
struct LinkSignIn {
    secret: String,
}

/// `POST /auth/link` `{"secret": …}`: a sign-in link's secret (the part after `#`) for a
/// session cookie. The link is used up.
async fn sign_in_with_link(
    State(state): State<GatewayState>,
    addr: ClientAddr,
    headers: HeaderMap,
    body: Result<Json<LinkSignIn>, axum::extract::rejection::JsonRejection>,
) -> Response {
    if let Some(refusal) = limit_guessing(&state, addr) {
        return refusal;
    }
    let Ok(Json(body)) = body else { return bad_body("secret") };
    let hash = hash_token(body.secret.trim());
    let Some(link) = state.app.catalog().sign_ins().link(&hash) else {
        return refusal(GatewayError::Unauthenticated(
            "this sign-in link is not valid: it expired, was used already, replaced, or never issued",
        ));
    };
    signed_in(&state, link.player, SignInMethod::Link, &headers, Some(hash)).await
}

/// Starts the session and answers as `GET /auth/session` would, with the cookie set.
async fn signed_in(
    state: &GatewayState,
    player: Uuid,
    method: SignInMethod,
    headers: &HeaderMap,
    link_hash: Option<String>,
) -> Response {
    match begin_session(&state.app, &state.sessions, player, method, headers, link_hash).await {
        Ok(started) => {
            let name = state.app.catalog().player(player).map(|p| p.name.clone());
            let body = serde_json::json!({
                "signedIn": true,
                "admin": false,
                "player": { "id": player, "name": name },
                "csrf": started.csrf,
            });
            (
                [
                    (header::SET_COOKIE, started.cookie),
                    (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
                ],
                Json(body),
            )
                .into_response()
        }
        Err(error) => refusal(error),
    }
}

/// `POST /auth/sign-out`: ends this browser's session (with its CSRF token) and clears the
/// cookie.
async fn sign_out(State(state): State<GatewayState>, headers: HeaderMap) -> Response {
    let clear = [(header::SET_COOKIE, session_cookie(&headers, "", Duration::ZERO))];
    let Some((secret, session)) = current_session(&state.app, &state.sessions, &headers) else {
        return (clear, Json(serde_json::json!({ "signedIn": false }))).into_response();
    };
    if let Err(error) = check_csrf(&headers, &secret) {
        return refusal(error);
    }
    let player = session.player.into();
    let command =
        EndSession { actor: Actor::Player(player), player_id: player, session_id: session.id };
    match state.app.execute(command, CommandOptions::default()).await {
        Ok(_) => (clear, Json(serde_json::json!({ "signedIn": false }))).into_response(),
        Err(error) => refusal(error.into()),
    }
}

/// Refuses a cookie-authenticated change without the session's CSRF token.
pub(crate) fn check_csrf(headers: &HeaderMap, secret: &str) -> Result<(), GatewayError> {
    let sent = headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
    let expected = csrf_token(secret);
    // Both are hex digests of equal length; compare without an early exit.
    let same = sent.len() == expected.len()
        && sent.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0;
    if same {
        Ok(())
    } else {
        Err(GatewayError::Forbidden(
            "a request signed in by the session cookie must carry the session's x-csrf-token \
             header (the platform's own pages send it)",
        ))
    }
}

/// Sign-in attempts count as mutations of the client's address, so guessing is limited:
/// the refusal when the address is over its limit.
fn limit_guessing(state: &GatewayState, ClientAddr(addr): ClientAddr) -> Option<Response> {
    let limited = state.limiter.check_mutation(&RateKey::Addr(addr)).err()?;
    let body = serde_json::json!({ "error": {
        "code": crate::error::RATE_LIMITED,
        "message": "too many sign-in attempts from this address: try again later",
    }});
    let retry_after = [(header::RETRY_AFTER, HeaderValue::from(limited.retry_after_secs()))];
    Some((StatusCode::TOO_MANY_REQUESTS, retry_after, Json(body)).into_response())
}

fn bad_body(field: &'static str) -> Response {
    refusal(GatewayError::bad_input(field, "the body must be a JSON object with this field"))
}

/// A refusal as JSON: `{"error": {"code", "message", "field"?}}`, with the HTTP status of
/// its code.
pub(crate) fn refusal(error: GatewayError) -> Response {
    let code = error.code();
    let status = match code {
        "UNAUTHENTICATED" => StatusCode::UNAUTHORIZED,
        "FORBIDDEN" => StatusCode::FORBIDDEN,
        "NOT_FOUND" => StatusCode::NOT_FOUND,
        "CONFLICT" => StatusCode::CONFLICT,
        "RATE_LIMITED" => StatusCode::TOO_MANY_REQUESTS,
        "INTERNAL" | "REPLICA_LAG" | "UNAVAILABLE" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    };
    let mut body = serde_json::json!({ "code": code, "message": error.message() });
    if let GatewayError::BadUserInput { field, .. } = &error {
        body["field"] = serde_json::Value::from(field.as_str());
    }
    (status, [(header::CACHE_CONTROL, "no-store")], Json(serde_json::json!({ "error": body })))
        .into_response()
}

/// The credential of a request's session cookie, for a connection or request that has no
/// bearer token.
pub(crate) fn session_credential(
    app: &App,
    sessions: &SessionConfig,
    headers: &HeaderMap,
) -> Option<(Credential, String)> {
    let (secret, session) = current_session(app, sessions, headers)?;
    let credential = Credential {
        caller: Caller::Player(session.player),
        token_hash: None,
        session_hash: Some(hash_token(&secret)),
    };
    Some((credential, secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn the_session_secret_is_read_from_any_cookie_header() {
        let map = headers(&[("cookie", "a=1; league_session=abc ; b=2")]);
        assert_eq!(session_secret(&map), Some("abc"));
        let map = headers(&[("cookie", "a=1"), ("cookie", "league_session=xyz")]);
        assert_eq!(session_secret(&map), Some("xyz"));
        assert_eq!(session_secret(&headers(&[("cookie", "league_sessionx=1")])), None);
        assert_eq!(session_secret(&headers(&[("cookie", "league_session=")])), None);
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_behind_https() {
        let plain = session_cookie(&headers(&[("host", "x.test")]), "s", Duration::from_secs(60));
        assert_eq!(
            plain.to_str().unwrap(),
            "league_session=s; Path=/; HttpOnly; SameSite=Lax; Max-Age=60"
        );
        let https = headers(&[("host", "x.test"), ("x-forwarded-proto", "https")]);
        let secure = session_cookie(&https, "s", Duration::from_secs(60));
        assert!(secure.to_str().unwrap().ends_with("; Secure"));
    }

    #[test]
    fn csrf_tokens_differ_per_session_and_are_checked_exactly() {
        let (a, b) = (csrf_token("one"), csrf_token("two"));
        assert_ne!(a, b);
        assert!(check_csrf(&headers(&[(CSRF_HEADER, &a)]), "one").is_ok());
        assert!(check_csrf(&headers(&[(CSRF_HEADER, &b)]), "one").is_err());
        assert!(check_csrf(&HeaderMap::new(), "one").is_err());
    }

    #[test]
    fn device_labels_are_coarse() {
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
        assert_eq!(device_label(&headers(&[("user-agent", android)])), "Chrome on Android");
        assert_eq!(device_label(&HeaderMap::new()), "A browser");
    }

    #[test]
    fn only_paths_of_this_site_are_returned_to() {
        assert!(is_local_path("/tournaments/1"));
        assert!(!is_local_path("//evil.example/"));
        assert!(!is_local_path("https://evil.example/"));
        assert!(!is_local_path("/\\evil.example"));
    }
}
