//! What a sign-in with the identity provider keeps between `/auth/oidc/start` and
//! `/auth/oidc/callback` (`docs/sign-in.md#identity-providers`): the `state`, the `nonce`,
//! the PKCE verifier, the page to return to and when the flow expires, sealed
//! (XChaCha20-Poly1305) into a short-lived cookie scoped to `/auth/oidc`. The key is derived
//! from the client secret, which every gateway of the site holds, so a callback may reach
//! another gateway than the start did; nothing is stored server side, and the browser can
//! neither read nor change what the cookie holds.

use axum::http::{HeaderMap, HeaderValue};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as BASE64;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::session::{cookie_value, is_local_path};

/// The flow cookie's name.
pub(super) const FLOW_COOKIE: &str = "league_oidc";
/// How long a person has at the provider before the flow expires.
pub(super) const FLOW_LIFETIME_SECS: i64 = 600;
/// Bytes of an XChaCha20 nonce.
const NONCE_LEN: usize = 24;

/// One sign-in in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Flow {
    pub state: String,
    pub nonce: String,
    pub pkce_verifier: String,
    /// The path the person started from, where they land once signed in.
    pub return_to: String,
    /// Unix seconds after which the flow is refused.
    pub expires_at: i64,
}

/// Seals flows into cookies and opens them again.
#[derive(Clone)]
pub(super) struct FlowSealer {
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for FlowSealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlowSealer").finish_non_exhaustive()
    }
}

impl FlowSealer {
    /// A sealer whose key is derived from the client secret.
    pub(super) fn new(client_secret: &str) -> FlowSealer {
        let key = Sha256::new()
            .chain_update(b"league identity-provider flow cookie\0")
            .chain_update(client_secret.as_bytes())
            .finalize();
        FlowSealer { cipher: XChaCha20Poly1305::new(&key) }
    }

    /// The `Set-Cookie` value carrying `flow` (`Secure` when the site is served over https).
    pub(super) fn cookie(&self, flow: &Flow, secure: bool) -> Option<HeaderValue> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).ok()?;
        let plain = serde_json::to_vec(flow).ok()?;
        let sealed = self.cipher.encrypt(&XNonce::from(nonce), plain.as_slice()).ok()?;
        let mut bytes = nonce.to_vec();
        bytes.extend_from_slice(&sealed);
        let value = format!(
            "{FLOW_COOKIE}={}; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age={FLOW_LIFETIME_SECS}{}",
            BASE64.encode(bytes),
            if secure { "; Secure" } else { "" }
        );
        HeaderValue::from_str(&value).ok()
    }

    /// The `Set-Cookie` value that removes the flow cookie (each callback uses it once).
    pub(super) fn removal(secure: bool) -> HeaderValue {
        let secure = if secure { "; Secure" } else { "" };
        HeaderValue::from_str(&format!(
            "{FLOW_COOKIE}=; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0{secure}"
        ))
        .unwrap_or(HeaderValue::from_static("league_oidc=; Path=/auth/oidc; Max-Age=0"))
    }

    /// The flow the request's cookie carries, if it opens and has not expired at `now`
    /// (Unix seconds).
    pub(super) fn open(&self, headers: &HeaderMap, now: i64) -> Option<Flow> {
        let value = cookie_value(headers, FLOW_COOKIE)?;
        let bytes = BASE64.decode(value).ok()?;
        if bytes.len() <= NONCE_LEN {
            return None;
        }
        let (nonce, sealed) = bytes.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().ok()?;
        let plain = self.cipher.decrypt(&XNonce::from(nonce), sealed).ok()?;
        let flow: Flow = serde_json::from_slice(&plain).ok()?;
        (flow.expires_at > now).then_some(flow)
    }
}

/// The page to return to: a path of this site ([`is_local_path`], at most 512 bytes, no
/// control characters), else the start page.
pub(super) fn return_path(requested: Option<&str>) -> String {
    requested
        .filter(|path| is_local_path(path) && path.len() <= 512)
        .filter(|path| !path.chars().any(char::is_control))
        .unwrap_or("/")
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(expires_at: i64) -> Flow {
        Flow {
            state: "s".into(),
            nonce: "n".into(),
            pkce_verifier: "v".into(),
            return_to: "/tournaments/1".into(),
            expires_at,
        }
    }

    fn request_with(cookie: &HeaderValue) -> HeaderMap {
        let pair = cookie.to_str().unwrap().split(';').next().unwrap().to_owned();
        let mut headers = HeaderMap::new();
        headers.insert(
            axum::http::header::COOKIE,
            HeaderValue::from_str(&format!("a=b; {pair}")).unwrap(),
        );
        headers
    }

    #[test]
    fn a_sealed_flow_opens_until_it_expires_and_only_with_the_same_secret() {
        let sealer = FlowSealer::new("secret");
        let cookie = sealer.cookie(&flow(100), false).unwrap();
        let text = cookie.to_str().unwrap();
        assert!(text.contains("HttpOnly") && text.contains("SameSite=Lax"), "{text}");
        assert!(!text.contains("tournaments"), "sealed: {text}");
        let headers = request_with(&cookie);
        assert_eq!(sealer.open(&headers, 99), Some(flow(100)));
        assert_eq!(sealer.open(&headers, 100), None);
        assert_eq!(FlowSealer::new("other").open(&headers, 99), None);
        let secure = FlowSealer::new("s").cookie(&flow(1), true).unwrap();
        assert!(secure.to_str().unwrap().ends_with("; Secure"));
    }

    #[test]
    fn only_a_path_of_this_site_is_returned_to() {
        assert_eq!(return_path(Some("/leagues/1?x=2")), "/leagues/1?x=2");
        for elsewhere in ["https://evil.example", "//evil.example", "/\\evil.example", "x"] {
            assert_eq!(return_path(Some(elsewhere)), "/", "{elsewhere}");
        }
        assert_eq!(return_path(None), "/");
    }
}
