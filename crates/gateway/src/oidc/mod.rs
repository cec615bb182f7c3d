//! Sign-in with the site's OpenID Connect provider (`docs/sign-in.md#identity-providers`).
//!
//! ```text
//! GET /auth/oidc/start?return=/path   303 to the provider (flow cookie set: flow.rs)
//! GET /auth/oidc/callback?code&state  checks, then 303 to the return path, or a refusal page
//! ```
//!
//! The callback checks the flow cookie and its `state`, exchanges the code with the PKCE
//! verifier, verifies the ID token ([`provider`]), then: an identity linked to a player
//! begins a session for them; an identity linked to nobody is linked to the player the
//! browser is signed in as (`IdentityLinked`); otherwise the person is told to sign in once
//! another way and link it. Every refusal is a page ([`refusal`]) and appends nothing.

mod flow;
mod provider;
mod refusal;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use league_app::{App, CommandOptions};
use league_domain::{Actor, LinkIdentity, SignInMethod};
use serde::Deserialize;

use self::flow::{FlowSealer, return_path};
use self::provider::Provider;
pub(crate) use self::refusal::Refusal;
use crate::config::GatewayConfig;
use crate::feeds::RequestOrigin;
use crate::session::{SessionConfig, begin_session, current_session};

/// The path the provider sends people back to.
const CALLBACK_PATH: &str = "/auth/oidc/callback";

/// What the identity-provider routes share.
#[derive(Clone)]
struct OidcState {
    app: App,
    sessions: SessionConfig,
    /// `None` when no provider is configured: every route answers [`Refusal::NotConfigured`].
    provider: Option<Arc<(Provider, FlowSealer)>>,
}

/// The identity-provider routes over `app`.
pub(crate) fn routes(app: App, config: &GatewayConfig) -> Router {
    let provider = config.identity_provider.clone().map(|provider| {
        let sealer = FlowSealer::new(&provider.client_secret);
        Arc::new((Provider::new(provider), sealer))
    });
    Router::new()
        .route("/auth/oidc/start", get(start))
        .route(CALLBACK_PATH, get(callback))
        .with_state(OidcState { app, sessions: config.sessions, provider })
}

#[derive(Debug, Deserialize)]
struct StartQuery {
    #[serde(rename = "return")]
    return_to: Option<String>,
}

/// `GET /auth/oidc/start`: a new flow, and off to the provider.
async fn start(
    State(state): State<OidcState>,
    Query(query): Query<StartQuery>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (provider, sealer) = state.provider.as_deref().ok_or(Refusal::NotConfigured)?;
    let origin = RequestOrigin::of(&headers);
    let expires_at = chrono::Utc::now().timestamp() + flow::FLOW_LIFETIME_SECS;
    let return_to = return_path(query.return_to.as_deref());
    let (address, flow) = provider.start(&origin.url(CALLBACK_PATH), return_to, expires_at).await?;
    let cookie = sealer.cookie(&flow, origin.is_https()).ok_or(Refusal::ProviderUnreachable)?;
    Ok(see_other(&address, [cookie]))
}

#[derive(Debug, Deserialize)]
struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// `GET /auth/oidc/callback`: the provider's answer. The flow cookie is removed whatever
/// the outcome (each flow is answered once).
async fn callback(
    State(state): State<OidcState>,
    Query(query): Query<CallbackQuery>,
    headers: HeaderMap,
) -> Response {
    let secure = RequestOrigin::of(&headers).is_https();
    let mut response = match signed_in_or_linked(&state, query, &headers).await {
        Ok(response) => response,
        Err(refusal) => refusal.into_response(),
    };
    response.headers_mut().append(header::SET_COOKIE, FlowSealer::removal(secure));
    response
}

async fn signed_in_or_linked(
    state: &OidcState,
    query: CallbackQuery,
    headers: &HeaderMap,
) -> Result<Response, Refusal> {
    let (provider, sealer) = state.provider.as_deref().ok_or(Refusal::NotConfigured)?;
    let flow = sealer.open(headers, chrono::Utc::now().timestamp()).ok_or(Refusal::FlowMissing)?;
    if query.state.as_deref() != Some(flow.state.as_str()) {
        return Err(Refusal::StateMismatch);
    }
    if let Some(error) = query.error {
        // Only the error code's own characters: the provider's words are not repeated.
        let code: String =
            error.chars().filter(|c| c.is_ascii_lowercase() || *c == '_').take(40).collect();
        return Err(Refusal::ProviderDenied(code));
    }
    let code = query.code.filter(|code| !code.is_empty()).ok_or(Refusal::CodeExchangeFailed)?;
    let callback = RequestOrigin::of(headers).url(CALLBACK_PATH);
    let identity = provider.finish(&callback, code, &flow).await?;
    let linked = state
        .app
        .catalog()
        .player_by_identity(&identity.issuer, &identity.subject)
        .map(|player| player.id);
    if let Some(player) = linked {
        let (app, sessions) = (&state.app, &state.sessions);
        let started = begin_session(app, sessions, player, SignInMethod::Identity, headers, None)
            .await
            .map_err(|error| Refusal::SessionRefused(error.message()))?;
        return Ok(see_other(&flow.return_to, [started.cookie]));
    }
    let signed_in = current_session(&state.app, &state.sessions, headers);
    let Some(player) = signed_in.map(|(_, session)| session.player) else {
        return Err(Refusal::NotLinked { provider: provider.config.name.clone() });
    };
    let command = LinkIdentity {
        actor: Actor::Player(player.into()),
        player_id: player.into(),
        issuer: identity.issuer,
        subject: identity.subject,
    };
    state
        .app
        .execute(command, CommandOptions::default())
        .await
        .map_err(|error| Refusal::LinkRefused(error.to_string()))?;
    Ok(see_other(&flow.return_to, []))
}

/// `303 See Other` to `location`, setting `cookies`.
fn see_other<const N: usize>(location: &str, cookies: [HeaderValue; N]) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    if let Ok(location) = HeaderValue::from_str(location) {
        headers.insert(header::LOCATION, location);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    for cookie in cookies {
        headers.append(header::SET_COOKIE, cookie);
    }
    response
}
