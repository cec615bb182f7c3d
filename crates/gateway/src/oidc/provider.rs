//! The configured OpenID Connect provider, through the `openidconnect` crate: discovery
//! (kept for [`METADATA_LIFETIME`], read again sooner when an ID token names a key the
//! published set lacks), the authorization request (code flow with PKCE, `state`, `nonce`),
//! the code exchange, and the ID token's verification: signature against the provider's
//! published keys, issuer, audience, expiry and nonce (`docs/sign-in.md#identity-providers`).

use std::time::{Duration, Instant};

use openidconnect::core::{
    CoreAuthenticationFlow, CoreClient, CoreIdToken, CoreIdTokenVerifier, CoreProviderMetadata,
};
use openidconnect::{
    AuthorizationCode, ClaimsVerificationError, ClientId, ClientSecret, CsrfToken,
    EndpointMaybeSet, EndpointNotSet, EndpointSet, IssuerUrl, Nonce, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, Scope, TokenResponse, reqwest,
};
use tokio::sync::Mutex;

use super::flow::Flow;
use super::refusal::Refusal;
use crate::config::IdentityProviderConfig;

/// How long discovered metadata (endpoints and keys) is used before it is read again.
pub(super) const METADATA_LIFETIME: Duration = Duration::from_secs(600);
/// How long one request to the provider may take.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);

/// A client of the discovered provider, with this site's callback address.
type DiscoveredClient = CoreClient<
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

/// Who signed in at the provider: its issuer and its id of the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VerifiedIdentity {
    pub issuer: String,
    pub subject: String,
}

/// The configured provider and what was discovered of it.
pub(crate) struct Provider {
    pub config: IdentityProviderConfig,
    http: reqwest::Client,
    metadata: Mutex<Option<(Instant, CoreProviderMetadata)>>,
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provider").field("config", &self.config).finish_non_exhaustive()
    }
}

impl Provider {
    pub(crate) fn new(config: IdentityProviderConfig) -> Provider {
        // No redirects: a provider's endpoints answer directly (the crate's advice against
        // request forgery through redirects).
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(PROVIDER_TIMEOUT)
            .build()
            .unwrap_or_default();
        Provider { config, http, metadata: Mutex::new(None) }
    }

    /// The provider's metadata: kept, or discovered again when older than
    /// [`METADATA_LIFETIME`] or when `fresh`.
    async fn metadata(&self, fresh: bool) -> Result<CoreProviderMetadata, Refusal> {
        let mut kept = self.metadata.lock().await;
        if let Some((at, metadata)) = kept.as_ref()
            && !fresh
            && at.elapsed() < METADATA_LIFETIME
        {
            return Ok(metadata.clone());
        }
        let issuer =
            IssuerUrl::new(self.config.issuer.clone()).map_err(|_| Refusal::ProviderUnreachable)?;
        let metadata =
            CoreProviderMetadata::discover_async(issuer, &self.http).await.map_err(|error| {
                tracing::warn!(%error, "identity provider discovery failed");
                Refusal::ProviderUnreachable
            })?;
        *kept = Some((Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    async fn client(&self, callback: &str, fresh: bool) -> Result<DiscoveredClient, Refusal> {
        let metadata = self.metadata(fresh).await?;
        let redirect = RedirectUrl::new(callback.to_owned()).map_err(|_| Refusal::InvalidToken)?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(self.config.client_id.clone()),
            Some(ClientSecret::new(self.config.client_secret.clone())),
        )
        .set_redirect_uri(redirect))
    }

    /// The provider's authorization address for a new flow returning to `return_to`, and
    /// the flow to keep (expiring at `expires_at`, Unix seconds).
    pub(crate) async fn start(
        &self,
        callback: &str,
        return_to: String,
        expires_at: i64,
    ) -> Result<(String, Flow), Refusal> {
        let client = self.client(callback, false).await?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scope(Scope::new("openid".to_owned()))
            .set_pkce_challenge(challenge)
            .url();
        let flow = Flow {
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            pkce_verifier: verifier.secret().clone(),
            return_to,
            expires_at,
        };
        Ok((url.to_string(), flow))
    }

    /// Exchanges `code` (with the flow's PKCE verifier) and verifies the ID token against
    /// the flow's nonce; keys are read again once if the token names a key not published.
    pub(crate) async fn finish(
        &self,
        callback: &str,
        code: String,
        flow: &Flow,
    ) -> Result<VerifiedIdentity, Refusal> {
        let client = self.client(callback, false).await?;
        let request =
            client.exchange_code(AuthorizationCode::new(code)).map_err(|_| Refusal::NoIdToken)?;
        let answer = request
            .set_pkce_verifier(PkceCodeVerifier::new(flow.pkce_verifier.clone()))
            .request_async(&self.http)
            .await
            .map_err(|error| {
                tracing::warn!(%error, "identity provider code exchange failed");
                Refusal::CodeExchangeFailed
            })?;
        let id_token = answer.id_token().ok_or(Refusal::NoIdToken)?;
        let nonce = Nonce::new(flow.nonce.clone());
        match verify_id_token(id_token, &client.id_token_verifier(), &nonce) {
            Err(Refusal::BadSignature) => {
                let client = self.client(callback, true).await?;
                verify_id_token(id_token, &client.id_token_verifier(), &nonce)
            }
            verified => verified,
        }
    }
}

/// The identity an ID token vouches for, if `verifier` (the provider's keys, issuer and this
/// client) accepts its signature, issuer, audience and expiry, and its nonce is `nonce`.
pub(crate) fn verify_id_token(
    id_token: &CoreIdToken,
    verifier: &CoreIdTokenVerifier<'_>,
    nonce: &Nonce,
) -> Result<VerifiedIdentity, Refusal> {
    let claims = id_token.claims(verifier, nonce).map_err(|error| match error {
        ClaimsVerificationError::Expired(_) => Refusal::TokenExpired,
        ClaimsVerificationError::InvalidNonce(_) => Refusal::NonceMismatch,
        ClaimsVerificationError::InvalidIssuer(_) | ClaimsVerificationError::InvalidAudience(_) => {
            Refusal::WrongIssuerOrAudience
        }
        ClaimsVerificationError::SignatureVerification(_) => Refusal::BadSignature,
        _ => Refusal::InvalidToken,
    })?;
    Ok(VerifiedIdentity {
        issuer: claims.issuer().to_string(),
        subject: claims.subject().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use chrono::{Duration as Span, Utc};
    use openidconnect::core::{
        CoreIdTokenClaims, CoreJsonWebKeySet, CoreJwsSigningAlgorithm, CoreRsaPrivateSigningKey,
    };
    use openidconnect::{
        Audience, EmptyAdditionalClaims, JsonWebKeyId, PrivateSigningKey, StandardClaims,
        SubjectIdentifier,
    };

    use super::*;

    const ISSUER: &str = "https://id.club.example";
    const CLIENT: &str = "league";

    fn key(pem: &str, kid: &str) -> CoreRsaPrivateSigningKey {
        CoreRsaPrivateSigningKey::from_pem(pem, Some(JsonWebKeyId::new(kid.into()))).unwrap()
    }

    fn provider_key() -> CoreRsaPrivateSigningKey {
        key(include_str!("testdata/provider-key.pem"), "provider")
    }

    /// What the site trusts: the provider's published key, its issuer, this client.
    fn verifier() -> CoreIdTokenVerifier<'static> {
        let keys = CoreJsonWebKeySet::new(vec![provider_key().as_verification_key()]);
        CoreIdTokenVerifier::new_confidential_client(
            ClientId::new(CLIENT.into()),
            ClientSecret::new("secret".into()),
            IssuerUrl::new(ISSUER.into()).unwrap(),
            keys,
        )
    }

    /// An ID token for subject `ann`, issued by `issuer` for `audience` with `nonce`,
    /// expiring in `expires_in`, signed with `signer`.
    fn token(
        signer: &CoreRsaPrivateSigningKey,
        issuer: &str,
        audience: &str,
        nonce: &str,
        expires_in: Span,
    ) -> CoreIdToken {
        let now = Utc::now();
        let claims = CoreIdTokenClaims::new(
            IssuerUrl::new(issuer.into()).unwrap(),
            vec![Audience::new(audience.into())],
            now + expires_in,
            now - Span::minutes(1),
            StandardClaims::new(SubjectIdentifier::new("ann".into())),
            EmptyAdditionalClaims {},
        )
        .set_nonce(Some(Nonce::new(nonce.into())));
        CoreIdToken::new(claims, signer, CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256, None, None)
            .unwrap()
    }

    fn verify(token: &CoreIdToken) -> Result<VerifiedIdentity, Refusal> {
        verify_id_token(token, &verifier(), &Nonce::new("n-1".into()))
    }

    #[test]
    fn a_token_signed_by_the_provider_for_this_client_and_flow_names_the_person() {
        let good = token(&provider_key(), ISSUER, CLIENT, "n-1", Span::minutes(5));
        assert_eq!(
            verify(&good),
            Ok(VerifiedIdentity { issuer: ISSUER.into(), subject: "ann".into() })
        );
    }

    #[test]
    fn an_expired_token_is_refused() {
        let expired = token(&provider_key(), ISSUER, CLIENT, "n-1", Span::minutes(-1));
        assert_eq!(verify(&expired), Err(Refusal::TokenExpired));
    }

    #[test]
    fn a_token_of_another_flow_is_refused_by_its_nonce() {
        let other_flow = token(&provider_key(), ISSUER, CLIENT, "n-2", Span::minutes(5));
        assert_eq!(verify(&other_flow), Err(Refusal::NonceMismatch));
    }

    #[test]
    fn a_token_signed_by_another_key_is_refused_even_under_the_providers_key_id() {
        let forged_signer = key(include_str!("testdata/other-key.pem"), "provider");
        let forged = token(&forged_signer, ISSUER, CLIENT, "n-1", Span::minutes(5));
        assert_eq!(verify(&forged), Err(Refusal::BadSignature));
        let unknown_key = key(include_str!("testdata/other-key.pem"), "elsewhere");
        let forged = token(&unknown_key, ISSUER, CLIENT, "n-1", Span::minutes(5));
        assert_eq!(verify(&forged), Err(Refusal::BadSignature));
    }

    #[test]
    fn a_token_of_another_issuer_or_for_another_client_is_refused() {
        let elsewhere =
            token(&provider_key(), "https://evil.example", CLIENT, "n-1", Span::minutes(5));
        assert_eq!(verify(&elsewhere), Err(Refusal::WrongIssuerOrAudience));
        let other_client = token(&provider_key(), ISSUER, "another-site", "n-1", Span::minutes(5));
        assert_eq!(verify(&other_client), Err(Refusal::WrongIssuerOrAudience));
    }
}
