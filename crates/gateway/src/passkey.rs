//! Passkeys (WebAuthn, `docs/sign-in.md#passkeys`): the relying party's side of both
//! ceremonies, over the `webauthn_rp` crate (pure Rust; it checks the challenge and its
//! expiry, the origin, the RP ID's hash, the signature, and user presence and
//! verification).
//!
//! - Adding a passkey (GraphQL, signed in: `schema::passkeys`) begins with creation
//!   options for a discoverable credential whose user handle is the player's id, and
//!   finishes with the verified credential sealed into a `PasskeyAdded` event.
//! - Signing in (REST, here, since it sets the session cookie):
//!   `POST /auth/passkey/options` answers request options with no allowed credentials (the
//!   browser offers every passkey it holds for this site: nothing to type);
//!   `POST /auth/passkey/sign-in` takes the assertion, finds the player by its user handle
//!   and the passkey by its credential id in the catalog, verifies it and starts a session.
//!
//! Ceremony state (each challenge with its expiry) is held in memory by the gateway that
//! issued it, for five minutes and one use ([`Ceremonies`]): behind a load balancer both
//! requests of a ceremony must reach the same gateway (sticky sessions), else the second
//! is refused as an unknown challenge.
//!
//! The relying party is the gateway's own origin as the request names it
//! ([`RequestOrigin`]: `Host`, or a proxy's `X-Forwarded-Host` and `-Proto`); its RP ID is
//! that origin's host. A forged header gains nothing: the browser binds each passkey to the
//! RP ID it was made for and signs over it.

use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::{Extension, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as BASE64URL;
use league_domain::SignInMethod;
use uuid::Uuid;
use webauthn_rp::bin::{Decode, Encode};
use webauthn_rp::request::auth::AuthenticationVerificationOptions;
use webauthn_rp::request::register::{
    CredProtect, Nickname, PublicKeyCredentialUserEntity, RegistrationVerificationOptions,
    UserHandle16, Username,
};
use webauthn_rp::request::{
    AsciiDomain, ExtensionInfo, FixedCapHashSet, InsertResult, PublicKeyCredentialDescriptor, RpId,
    TimedCeremony,
};
use webauthn_rp::response::auth::ser_relaxed::AuthenticationRelaxed;
use webauthn_rp::response::register::ser_relaxed::RegistrationRelaxed;
use webauthn_rp::response::register::{DynamicState, StaticState};
use webauthn_rp::response::{AuthTransports, CredentialId, SentChallenge};
use webauthn_rp::{
    AuthenticatedCredential, DiscoverableAuthenticationServerState,
    DiscoverableCredentialRequestOptions, PublicKeyCredentialCreationOptions,
    RegistrationServerState,
};

use crate::error::GatewayError;
use crate::feeds::RequestOrigin;
use crate::http::GatewayState;
use crate::session::{begin_session, refusal};

/// Ceremonies one gateway holds at once, per kind; a full set first drops the expired ones,
/// then refuses new ceremonies until some finish or expire.
const MAX_CEREMONIES: usize = 10_000;

/// The length of a user handle: a player's id (16 bytes, not personal: it names nobody
/// outside the platform).
const USER_HANDLE_LEN: usize = 16;

/// Ceremonies begun and not finished, each taken by its challenge once (a replayed or
/// unknown challenge finds none) and refused by `webauthn_rp` once expired.
#[derive(Debug)]
pub(crate) struct Ceremonies<T>(Arc<Mutex<FixedCapHashSet<T>>>);

impl<T> Clone for Ceremonies<T> {
    fn clone(&self) -> Self {
        Ceremonies(self.0.clone())
    }
}

impl<T> Ceremonies<T>
where
    T: Eq + std::hash::Hash + TimedCeremony + std::borrow::Borrow<SentChallenge>,
{
    pub(crate) fn new() -> Self {
        Ceremonies(Arc::new(Mutex::new(FixedCapHashSet::new(MAX_CEREMONIES))))
    }

    fn begin(&self, ceremony: T) -> Result<(), GatewayError> {
        let mut set = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match set.insert_or_replace_all_expired(ceremony) {
            InsertResult::Success => Ok(()),
            InsertResult::CapacityFull | InsertResult::Duplicate => Err(GatewayError::App(
                league_app::AppError::internal("too many passkey ceremonies"),
            )),
        }
    }

    /// The ceremony begun with `challenge`, removed: it is used at most once.
    fn finish(&self, challenge: &SentChallenge) -> Result<T, GatewayError> {
        let mut set = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        set.take(challenge).ok_or_else(|| {
            GatewayError::bad_input("response", "unknown, used or expired passkey challenge")
        })
    }
}

/// The passkey ceremonies of adding a passkey (schema data).
pub(crate) type Registrations = Ceremonies<RegistrationServerState<USER_HANDLE_LEN>>;

/// The relying party a request speaks to: the origin the browser must report and the RP ID
/// passkeys are bound to.
#[derive(Debug)]
pub(crate) struct RelyingParty {
    origin: String,
    rp_id: RpId,
}

impl RelyingParty {
    pub(crate) fn of(origin: &RequestOrigin) -> Result<RelyingParty, GatewayError> {
        let origin = origin.url("");
        let host = url::Url::parse(&origin)
            .ok()
            .and_then(|url| url.host_str().map(str::to_owned))
            .ok_or_else(|| GatewayError::bad_input("origin", "not a web origin"))?;
        let rp_id = AsciiDomain::try_from(host)
            .map(RpId::Domain)
            .map_err(|_| GatewayError::bad_input("origin", "passkeys need a domain name"))?;
        Ok(RelyingParty { origin, rp_id })
    }
}

/// A player's user handle: their id's bytes.
fn user_handle(player: Uuid) -> UserHandle16 {
    match UserHandle16::decode(*player.as_bytes()) {
        Ok(handle) => handle,
        Err(never) => match never {},
    }
}

/// A verification refusal, in words that say which check failed (no secret is in them).
fn refused(what: &str, why: impl std::fmt::Debug) -> GatewayError {
    tracing::debug!(?why, "a passkey {what} was refused");
    GatewayError::bad_input("response", format!("the passkey's {what} did not verify: {why:?}"))
}

/// A credential as the log keeps it (sealed, in `PasskeyAdded`): its id, its public key
/// and its registration state, each base64url, joined by dots.
fn encode_credential(id: &[u8], static_state: &[u8], dynamic_state: &[u8]) -> String {
    [id, static_state, dynamic_state].map(|part| BASE64URL.encode(part)).join(".")
}

/// The parts of [`encode_credential`]'s text.
fn decode_credential(text: &str) -> Option<(Vec<u8>, Vec<u8>, [u8; 7])> {
    let mut parts = text.split('.').map(|part| BASE64URL.decode(part).ok());
    let (Some(Some(id)), Some(Some(key)), Some(Some(state)), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    Some((id, key, state.try_into().ok()?))
}

/// Begins adding a passkey for `player` (named `name` on the authenticator): the creation
/// options for the browser, as `PublicKeyCredentialCreationOptionsJSON` text. The player's
/// passkeys (`existing`, as [`league_app::App::passkey_credentials`] answers them) are excluded, so
/// one authenticator does not hold two of theirs.
pub(crate) fn begin_registration(
    ceremonies: &Registrations,
    party: &RelyingParty,
    player: Uuid,
    name: &str,
    existing: Vec<(Uuid, String)>,
) -> Result<String, GatewayError> {
    let handle = user_handle(player);
    let shown = |text: &str| text.chars().take(64).collect::<String>();
    let user = PublicKeyCredentialUserEntity {
        name: Username::try_from(shown(name))
            .or_else(|_| Username::try_from(player.to_string()))
            .map_err(|error| refused("user name", error))?,
        id: &handle,
        display_name: Nickname::try_from(shown(name)).ok(),
    };
    let exclude = existing
        .into_iter()
        .filter_map(|(_, credential)| decode_credential(&credential))
        .filter_map(|(id, _, _)| CredentialId::decode(id).ok())
        .filter_map(|id| {
            let transports = AuthTransports::decode(0).ok()?;
            Some(PublicKeyCredentialDescriptor { id, transports })
        })
        .collect();
    let mut options = PublicKeyCredentialCreationOptions::passkey(&party.rp_id, user, exclude);
    // Ask for credProtect without enforcing it: an authenticator that lacks the extension
    // (Chromium's virtual one, many security keys) would refuse to make the passkey at all.
    // Every ceremony requires user verification anyway.
    options.extensions.cred_protect =
        CredProtect::UserVerificationRequired(ExtensionInfo::AllowDontEnforceValue);
    let (server, client) =
        options.start_ceremony().map_err(|error| refused("creation options", error))?;
    let options = serde_json::to_string(&client).map_err(league_app::AppError::internal)?;
    ceremonies.begin(server)?;
    Ok(options)
}

/// Finishes adding a passkey: verifies the browser's `RegistrationResponseJSON` text against
/// the ceremony its challenge names (made for this `player`), and answers the credential as
/// the log keeps it.
pub(crate) fn finish_registration(
    ceremonies: &Registrations,
    party: &RelyingParty,
    player: Uuid,
    response: &str,
) -> Result<String, GatewayError> {
    let RegistrationRelaxed(registration) =
        serde_json::from_str(response).map_err(|error| refused("registration", error))?;
    let challenge =
        registration.challenge_relaxed().map_err(|error| refused("registration", error))?;
    let ceremony = ceremonies.finish(&challenge)?;
    let origins = [party.origin.as_str()];
    let options = RegistrationVerificationOptions::<&str, &str> {
        allowed_origins: &origins,
        ..RegistrationVerificationOptions::default()
    };
    let credential = ceremony
        .verify(&party.rp_id, &registration, &options)
        .map_err(|error| refused("registration", error))?;
    if *credential.user_id() != user_handle(player) {
        return Err(GatewayError::bad_input("response", "the passkey was made for someone else"));
    }
    let id = credential.id();
    let Ok(id) = id.encode();
    let Ok(key) = credential.static_state().encode();
    let Ok(state) = credential.dynamic_state().encode();
    Ok(encode_credential(id, &key, &state))
}

/// `POST /auth/passkey/options` and `POST /auth/passkey/sign-in`, with this gateway's
/// sign-in ceremonies.
pub(crate) fn routes() -> Router<GatewayState> {
    Router::new()
        .route("/auth/passkey/options", post(sign_in_options))
        .route("/auth/passkey/sign-in", post(sign_in))
        .layer(Extension(SignInCeremonies::new()))
}

/// The request options of a passkey sign-in (`PublicKeyCredentialRequestOptionsJSON`): a
/// fresh challenge, no allowed credentials, user verification required.
async fn sign_in_options(
    Extension(ceremonies): Extension<SignInCeremonies>,
    headers: HeaderMap,
) -> Response {
    match request_options(&ceremonies, &headers) {
        Ok(options) => Json(options).into_response(),
        Err(error) => refusal(error),
    }
}

/// Begins a sign-in ceremony: its request options.
fn request_options(
    ceremonies: &SignInCeremonies,
    headers: &HeaderMap,
) -> Result<serde_json::Value, GatewayError> {
    json_only(headers)?;
    let party = RelyingParty::of(&RequestOrigin::of(headers))?;
    let (server, client) = DiscoverableCredentialRequestOptions::passkey(&party.rp_id)
        .start_ceremony()
        .map_err(|error| refused("request options", error))?;
    let options = serde_json::to_value(&client).map_err(league_app::AppError::internal)?;
    ceremonies.begin(server)?;
    Ok(options)
}

/// Verifies a passkey assertion (`AuthenticationResponseJSON`) and starts a session for the
/// player whose passkey it is: `{ "signedIn": true }` with the session cookie.
async fn sign_in(
    State(state): State<GatewayState>,
    Extension(ceremonies): Extension<SignInCeremonies>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let credentials = |player| state.app.passkey_credentials(player);
    let player = match verify_assertion(&ceremonies, &headers, credentials, &body) {
        Ok(player) => player,
        Err(error) => return refusal(error),
    };
    let method = SignInMethod::Passkey;
    match begin_session(&state.app, &state.sessions, player, method, &headers, None).await {
        Ok(started) => {
            ([(header::SET_COOKIE, started.cookie)], Json(serde_json::json!({ "signedIn": true })))
                .into_response()
        }
        Err(error) => refusal(error),
    }
}

/// The ceremonies of signing in (one gateway's).
type SignInCeremonies = Ceremonies<DiscoverableAuthenticationServerState>;

/// The player an assertion (`body`) signs in, once every check passed; `credentials` answers
/// a player's passkeys as [`league_app::App::passkey_credentials`] does.
fn verify_assertion(
    ceremonies: &SignInCeremonies,
    headers: &HeaderMap,
    credentials: impl Fn(Uuid) -> Vec<(Uuid, String)>,
    body: &str,
) -> Result<Uuid, GatewayError> {
    json_only(headers)?;
    let party = RelyingParty::of(&RequestOrigin::of(headers))?;
    let AuthenticationRelaxed::<USER_HANDLE_LEN, true>(assertion) =
        serde_json::from_str(body).map_err(|error| refused("assertion", error))?;
    let challenge = assertion.challenge_relaxed().map_err(|error| refused("assertion", error))?;
    let ceremony = ceremonies.finish(&challenge)?;
    let handle = *assertion.response().user_handle();
    let Ok(player) = handle.encode();
    let player = Uuid::from_bytes(player);
    let unknown = || GatewayError::Unauthenticated("this passkey is not known here");
    let (id, key, dynamic) = credentials(player)
        .into_iter()
        .filter_map(|(_, credential)| decode_credential(&credential))
        .find(|(id, _, _)| id.as_slice() == assertion.raw_id().as_ref())
        .ok_or_else(unknown)?;
    let key = StaticState::decode(key.as_slice()).map_err(|_| unknown())?;
    let dynamic = DynamicState::decode(dynamic).map_err(|_| unknown())?;
    let id = CredentialId::decode(id.as_slice()).map_err(|_| unknown())?;
    let mut credential =
        AuthenticatedCredential::new(id, &handle, key, dynamic).map_err(|_| unknown())?;
    let origins = [party.origin.as_str()];
    let options = AuthenticationVerificationOptions::<&str, &str> {
        allowed_origins: &origins,
        // Synced passkeys report no counter (always 0); the log keeps no per-sign-in state
        // (`docs/sign-in.md#passkeys`).
        sig_counter_enforcement: webauthn_rp::request::auth::SignatureCounterEnforcement::Ignore,
        ..AuthenticationVerificationOptions::default()
    };
    ceremony
        .verify(&party.rp_id, &assertion, &mut credential, &options)
        .map_err(|error| refused("assertion", error))?;
    Ok(player)
}

/// Refuses a body that is not declared JSON: a cross-site form cannot send JSON without the
/// browser asking first (CORS), so no other site signs a visitor in as someone else.
fn json_only(headers: &HeaderMap) -> Result<(), GatewayError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/json"));
    if json {
        Ok(())
    } else {
        Err(GatewayError::bad_input("content-type", "must be application/json"))
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;
    use league_testkit::passkey::SoftPasskey;
    use serde_json::Value;

    use super::*;

    const ORIGIN: &str = "http://localhost:8000";

    fn headers() -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("localhost:8000"));
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers
    }

    fn party() -> RelyingParty {
        RelyingParty::of(&RequestOrigin::of(&headers())).unwrap()
    }

    fn creation_options(ceremonies: &Registrations, player: Uuid) -> Value {
        let options = begin_registration(ceremonies, &party(), player, "Ann", Vec::new());
        serde_json::from_str(&options.unwrap()).unwrap()
    }

    /// A player with a passkey added: the player, the authenticator, what the log keeps.
    fn registered() -> (Uuid, SoftPasskey, String) {
        let (ceremonies, player) = (Registrations::new(), Uuid::now_v7());
        let mut passkey = SoftPasskey::new(1, ORIGIN);
        let response = passkey.register(&creation_options(&ceremonies, player)).to_string();
        let credential = finish_registration(&ceremonies, &party(), player, &response).unwrap();
        (player, passkey, credential)
    }

    /// Signs in with `passkey` (its assertion changed by `forge`), answering the player.
    fn sign_in_with(
        passkey: &mut SoftPasskey,
        player: Uuid,
        credential: &str,
        forge: impl FnOnce(&mut Value),
    ) -> Result<Uuid, GatewayError> {
        let ceremonies = SignInCeremonies::new();
        let mut assertion = passkey.assert(&request_options(&ceremonies, &headers()).unwrap());
        forge(&mut assertion);
        let credentials =
            |p| if p == player { vec![(Uuid::nil(), credential.to_owned())] } else { vec![] };
        verify_assertion(&ceremonies, &headers(), credentials, &assertion.to_string())
    }

    fn message(result: Result<impl std::fmt::Debug, GatewayError>) -> String {
        result.expect_err("refused").message()
    }

    #[test]
    fn a_passkey_added_signs_its_player_in_with_nothing_else() {
        let (player, mut passkey, credential) = registered();
        assert_eq!(sign_in_with(&mut passkey, player, &credential, |_| {}).unwrap(), player);
        // The stored credential carries the credential id; nothing of it is the player's.
        let (id, _, _) = decode_credential(&credential).unwrap();
        assert_eq!(id, passkey.credential_id);
    }

    #[test]
    fn the_creation_options_ask_for_a_discoverable_credential_and_user_verification() {
        let options = creation_options(&Registrations::new(), Uuid::now_v7());
        let selection = &options["authenticatorSelection"];
        assert_eq!(selection["residentKey"], "required", "{options}");
        assert_eq!(selection["userVerification"], "required", "{options}");
        assert_eq!(options["rp"]["id"], "localhost");
    }

    #[test]
    fn a_challenge_is_used_once_and_one_never_issued_is_refused() {
        let (ceremonies, player) = (Registrations::new(), Uuid::now_v7());
        let mut passkey = SoftPasskey::new(2, ORIGIN);
        let response = passkey.register(&creation_options(&ceremonies, player)).to_string();
        assert!(finish_registration(&ceremonies, &party(), player, &response).is_ok());
        let replayed = message(finish_registration(&ceremonies, &party(), player, &response));
        assert!(replayed.contains("unknown, used or expired passkey challenge"), "{replayed}");

        let mut forged = creation_options(&Registrations::new(), player);
        forged["challenge"] = Value::from(BASE64URL.encode([7u8; 16]));
        let response = passkey.register(&forged).to_string();
        let unknown = message(finish_registration(&ceremonies, &party(), player, &response));
        assert!(unknown.contains("unknown, used or expired"), "{unknown}");

        // A sign-in's challenge too: the same assertion twice signs in once.
        let (player, mut passkey, credential) = registered();
        let sign_ins = SignInCeremonies::new();
        let assertion = passkey.assert(&request_options(&sign_ins, &headers()).unwrap());
        let credentials = |_| vec![(Uuid::nil(), credential.clone())];
        let body = assertion.to_string();
        assert_eq!(verify_assertion(&sign_ins, &headers(), credentials, &body).unwrap(), player);
        let again = message(verify_assertion(&sign_ins, &headers(), credentials, &body));
        assert!(again.contains("unknown, used or expired"), "{again}");
    }

    #[test]
    fn another_origin_is_refused_when_adding_and_when_signing_in() {
        let (ceremonies, player) = (Registrations::new(), Uuid::now_v7());
        let mut phished = SoftPasskey::new(3, "http://evil.example:8000");
        let response = phished.register(&creation_options(&ceremonies, player)).to_string();
        let refused = message(finish_registration(&ceremonies, &party(), player, &response));
        assert!(refused.contains("registration did not verify"), "{refused}");

        let (player, mut passkey, credential) = registered();
        passkey.origin = "https://localhost:8000".into();
        let refused = message(sign_in_with(&mut passkey, player, &credential, |_| {}));
        assert!(refused.contains("assertion did not verify"), "{refused}");
    }

    #[test]
    fn another_rp_id_a_bad_signature_or_no_user_verification_is_refused() {
        let (player, mut passkey, credential) = registered();
        // Signed for another site's RP ID.
        let ceremonies = SignInCeremonies::new();
        let mut options = request_options(&ceremonies, &headers()).unwrap();
        options["rpId"] = Value::from("evil.example");
        let body = passkey.assert(&options).to_string();
        let credentials = |_| vec![(Uuid::nil(), credential.clone())];
        let refusals =
            [(verify_assertion(&ceremonies, &headers(), credentials, &body), "RpIdHashMismatch")];
        // Signed by another key under the same credential id.
        let mut impostor = SoftPasskey::new(9, ORIGIN);
        impostor.credential_id = passkey.credential_id.clone();
        impostor.user_handle = passkey.user_handle.clone();
        let refusals = refusals.into_iter().chain([(
            sign_in_with(&mut impostor, player, &credential, |_| {}),
            "AssertionSignature",
        )]);
        // A changed client data breaks the signature.
        let tampered = sign_in_with(&mut passkey, player, &credential, |assertion| {
            let data = assertion["response"]["clientDataJSON"].as_str().unwrap();
            let text = String::from_utf8(BASE64URL.decode(data).unwrap()).unwrap();
            let text = text.replace("\"crossOrigin\":false", "\"crossOrigin\":false ");
            assertion["response"]["clientDataJSON"] = Value::from(BASE64URL.encode(text));
        });
        // The screen lock was not used.
        passkey.user_verified = false;
        let unverified = sign_in_with(&mut passkey, player, &credential, |_| {});
        for (refusal, why) in
            refusals.chain([(tampered, "AssertionSignature"), (unverified, "UserNotVerified")])
        {
            let refusal = message(refusal);
            assert!(refusal.contains("assertion did not verify"), "{refusal}");
            assert!(refusal.contains(why), "{why}: {refusal}");
        }
    }

    #[test]
    fn a_passkey_of_nobody_here_or_made_for_another_player_is_refused() {
        let (player, mut passkey, credential) = registered();
        let unknown = sign_in_with(&mut passkey, Uuid::now_v7(), &credential, |_| {});
        assert_eq!(unknown.unwrap_err().code(), "UNAUTHENTICATED");
        let _ = player;

        let (ceremonies, ann, bob) = (Registrations::new(), Uuid::now_v7(), Uuid::now_v7());
        let response = SoftPasskey::new(4, ORIGIN).register(&creation_options(&ceremonies, ann));
        let refused =
            message(finish_registration(&ceremonies, &party(), bob, &response.to_string()));
        assert!(refused.contains("made for someone else"), "{refused}");
    }

    #[test]
    fn a_sign_in_body_must_be_declared_json() {
        let mut plain = headers();
        plain.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        let refused = request_options(&SignInCeremonies::new(), &plain).unwrap_err();
        assert_eq!(refused.code(), "BAD_USER_INPUT");
    }
}
