//! Sign-up over HTTP (`docs/operations.md#sign-up`): `GET /auth/sign-up` says the site's
//! policy (`{"policy": "closed" | "invite" | "open"}`), `POST /auth/sign-up` with
//! `{"name": …, "invite": …}` registers the person as a new player acting for themself
//! ([`App::sign_up`]), rate-limited per client address, signs them in (a session cookie, as
//! if they had typed their new token: `docs/sign-in.md`) and answers `200` with their id,
//! name and bearer token (shown only this once). A JSON body is required, so a cross-site
//! form cannot post one. A refusal is, as in GraphQL, `200` with `{"error": {"code",
//! "message", "field"?}}` (`FORBIDDEN`, `BAD_USER_INPUT`…): a browser logs no failed request
//! for a person's typing mistake. Too many sign-ups from one address are `429` with
//! `Retry-After`.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use league_app::{App, AppError, ErrorCode, NewToken};
use serde::Deserialize;
use serde_json::json;

use crate::auth::{generate_token, hash_token};
use crate::config::{GatewayConfig, SignUpPolicy};
use crate::http::ClientAddr;
use crate::rate_limit::SignUpLimiter;
use crate::session::{SessionConfig, begin_session};
use league_domain::SignInMethod;

#[derive(Clone)]
struct SignUpState {
    app: App,
    policy: SignUpPolicy,
    limiter: SignUpLimiter,
    sessions: SessionConfig,
}

/// `POST /auth/sign-up`'s body.
#[derive(Debug, Deserialize)]
struct SignUpBody {
    name: String,
    #[serde(default)]
    invite: Option<String>,
}

/// The sign-up routes.
pub(crate) fn routes(app: App, config: &GatewayConfig) -> Router {
    let limiter = SignUpLimiter::new(config.sign_ups_per_hour, config.sign_ups_burst);
    Router::new().route("/auth/sign-up", get(policy).post(sign_up)).with_state(SignUpState {
        app,
        policy: config.sign_up,
        limiter,
        sessions: config.sessions,
    })
}

/// The word a policy is written as (configuration, `GET /auth/sign-up`).
pub fn policy_name(policy: SignUpPolicy) -> &'static str {
    match policy {
        SignUpPolicy::Closed => "closed",
        SignUpPolicy::Invite => "invite",
        SignUpPolicy::Open => "open",
    }
}

async fn policy(State(state): State<SignUpState>) -> Json<serde_json::Value> {
    Json(json!({ "policy": policy_name(state.policy) }))
}

async fn sign_up(
    State(state): State<SignUpState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Json(body): Json<SignUpBody>,
) -> Response {
    if let Err(limited) = state.limiter.check(addr) {
        let seconds = limited.retry_after_secs();
        let body = json!({ "error": {
            "code": crate::error::RATE_LIMITED,
            "message": format!("too many sign-ups from this address: retry after {seconds} s"),
        }});
        let mut response = (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response();
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        return response;
    }
    let token = generate_token();
    let new_token = NewToken { hash: hash_token(&token), token };
    let signed_up = state
        .app
        .sign_up(state.policy, &body.name, body.invite.as_deref(), new_token, hash_token)
        .await;
    let signed_up = match signed_up {
        Ok(signed_up) => signed_up,
        Err(error) => return refused(&error),
    };
    // Signed in at once: a session as if the new token had been typed (docs/sign-in.md).
    let player = signed_up.player_id;
    let cookie =
        begin_session(&state.app, &state.sessions, player, SignInMethod::Token, &headers, None)
            .await;
    let name = state.app.catalog().player(player).map(|p| p.name.clone());
    let body = json!({ "player": { "id": player, "name": name }, "token": signed_up.token });
    let mut response = Json(body).into_response();
    match cookie {
        Ok(started) => {
            response.headers_mut().insert(header::SET_COOKIE, started.cookie);
        }
        // Registered all the same: the token in the answer signs them in.
        Err(error) => tracing::warn!(?error, "a session for a new player could not start"),
    }
    response
}

/// A refusal as JSON (an internal error is `500`).
fn refused(error: &AppError) -> Response {
    let code = error.code();
    let status = match code {
        ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::OK,
    };
    let mut body = json!({ "code": code.as_str(), "message": error.to_string() });
    if let Some((field, _)) = error.invalid_input() {
        body["field"] = json!(field);
    }
    (status, Json(json!({ "error": body }))).into_response()
}
