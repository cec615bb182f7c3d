//! Why a sign-in with the identity provider was refused, as a page the browser shows
//! (`docs/sign-in.md#identity-providers`): a short message that names no secret (no code,
//! token, state or subject), and a way back. Nothing is appended on a refusal.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A refused step of the flow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No identity provider is configured on this site.
    NotConfigured,
    /// The provider's discovery document or keys could not be read.
    ProviderUnreachable,
    /// The callback came without this browser's flow cookie, or after it expired.
    FlowMissing,
    /// The `state` of the callback is not the one this browser's flow sent.
    StateMismatch,
    /// The provider answered with an error (its code: `access_denied`, …).
    ProviderDenied(String),
    /// The authorization code was not exchanged for tokens.
    CodeExchangeFailed,
    /// The token answer held no ID token.
    NoIdToken,
    /// The ID token's `exp` has passed.
    TokenExpired,
    /// The ID token's `nonce` is not the one this browser's flow sent.
    NonceMismatch,
    /// The ID token's signature does not verify with the provider's published keys.
    BadSignature,
    /// The ID token was issued by another issuer, or for another client.
    WrongIssuerOrAudience,
    /// The ID token is not acceptable for another reason.
    InvalidToken,
    /// Nobody linked this identity, and the browser is not signed in to link it.
    NotLinked { provider: String },
    /// Linking was refused (e.g. another identity of the provider is linked already).
    LinkRefused(String),
    /// The session could not begin (e.g. the player was erased meanwhile).
    SessionRefused(String),
}

impl Refusal {
    /// A short, stable code (the page's `data-refusal`, for tests and support).
    pub(crate) fn code(&self) -> &'static str {
        match self {
            Refusal::NotConfigured => "not-configured",
            Refusal::ProviderUnreachable => "provider-unreachable",
            Refusal::FlowMissing => "flow-missing",
            Refusal::StateMismatch => "state-mismatch",
            Refusal::ProviderDenied(_) => "provider-denied",
            Refusal::CodeExchangeFailed => "code-exchange-failed",
            Refusal::NoIdToken => "no-id-token",
            Refusal::TokenExpired => "token-expired",
            Refusal::NonceMismatch => "nonce-mismatch",
            Refusal::BadSignature => "bad-signature",
            Refusal::WrongIssuerOrAudience => "wrong-issuer-or-audience",
            Refusal::InvalidToken => "invalid-token",
            Refusal::NotLinked { .. } => "not-linked",
            Refusal::LinkRefused(_) => "link-refused",
            Refusal::SessionRefused(_) => "session-refused",
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            Refusal::NotConfigured => StatusCode::NOT_FOUND,
            Refusal::ProviderUnreachable | Refusal::CodeExchangeFailed | Refusal::NoIdToken => {
                StatusCode::BAD_GATEWAY
            }
            Refusal::NotLinked { .. } => StatusCode::FORBIDDEN,
            Refusal::LinkRefused(_) | Refusal::SessionRefused(_) => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// What the person reads.
    pub(crate) fn message(&self) -> String {
        let again = "Start again from the sign-in page.";
        match self {
            Refusal::NotConfigured => "This site has no identity provider to sign in with.".into(),
            Refusal::ProviderUnreachable => {
                "The identity provider could not be reached. Try again in a moment.".into()
            }
            Refusal::FlowMissing => format!(
                "This sign-in expired or was started in another browser (sign-ins last {} minutes). {again}",
                super::flow::FLOW_LIFETIME_SECS / 60
            ),
            Refusal::StateMismatch => {
                format!(
                    "The answer from the identity provider does not belong to this sign-in. {again}"
                )
            }
            Refusal::ProviderDenied(code) => {
                format!("The identity provider did not sign you in ({code}). {again}")
            }
            Refusal::CodeExchangeFailed | Refusal::NoIdToken => {
                format!("The identity provider did not confirm the sign-in. {again}")
            }
            Refusal::TokenExpired => format!("The identity provider's answer has expired. {again}"),
            Refusal::NonceMismatch => {
                format!("The identity provider's answer was meant for another sign-in. {again}")
            }
            Refusal::BadSignature => format!(
                "The identity provider's answer is not signed with its published keys. {again}"
            ),
            Refusal::WrongIssuerOrAudience => {
                format!(
                    "The answer comes from another provider, or is meant for another site. {again}"
                )
            }
            Refusal::InvalidToken => {
                format!("The identity provider's answer is not valid. {again}")
            }
            Refusal::NotLinked { provider } => format!(
                "This {provider} account is not linked to a player yet. Sign in once another way \
                 (your token or a sign-in link), then choose \"Link my {provider} account\" on your page."
            ),
            Refusal::LinkRefused(why) => format!("The account was not linked: {why}"),
            Refusal::SessionRefused(why) => format!("You were not signed in: {why}"),
        }
    }
}

/// `text` with HTML's special characters escaped.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let page = format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>Sign-in refused · League</title>\n<link rel=\"stylesheet\" href=\"/app.css\">\n\
             </head>\n<body>\n<main id=\"main\">\n<h1>Sign-in refused</h1>\n\
             <p role=\"alert\" data-refusal=\"{}\">{}</p>\n\
             <p><a href=\"/signin\">Back to sign-in</a> · <a href=\"/\">League</a></p>\n\
             </main>\n</body>\n</html>\n",
            self.code(),
            escaped(&self.message())
        );
        let mut response = (self.status(), page).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}
