//! A software passkey authenticator (feature `app`): it answers a relying party's creation
//! and request options (`PublicKeyCredential{Creation,Request}OptionsJSON`) with the JSON a
//! browser's `PublicKeyCredential.toJSON()` gives, as a platform authenticator holding a
//! discoverable ES256 credential does (`none` attestation, user present and verified), so
//! the API's passkey ceremonies run in tests without a browser. Its fields are public so a
//! test can forge what a browser would not send (another origin, a replayed challenge).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as BASE64URL;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{DerSignature, SigningKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// One discoverable credential on a software authenticator.
#[derive(Debug, Clone)]
pub struct SoftPasskey {
    key: SigningKey,
    pub credential_id: Vec<u8>,
    /// The user handle the relying party gave at registration (set by [`Self::register`]).
    pub user_handle: Vec<u8>,
    /// The origin the "browser" reports in its client data.
    pub origin: String,
    /// The signature counter the next assertion reports.
    pub counter: u32,
    /// Whether the person unlocked the authenticator (the UV flag; presence is always set).
    pub user_verified: bool,
}

/// Authenticator data flags: user present, user verified, attested credential data.
const UP: u8 = 0x01;
const UV: u8 = 0x04;
const AT: u8 = 0x40;

impl SoftPasskey {
    /// A credential whose key and id derive from `seed` (distinct seeds, distinct
    /// credentials), used from `origin`.
    pub fn new(seed: u8, origin: &str) -> SoftPasskey {
        let secret: [u8; 32] = Sha256::digest([b"soft passkey", &[seed][..]].concat()).into();
        let key = SigningKey::from_bytes(&secret.into()).expect("a hash is a valid P-256 key");
        SoftPasskey {
            key,
            credential_id: Sha256::digest([b"credential", &[seed][..]].concat())[..16].to_vec(),
            user_handle: Vec::new(),
            origin: origin.to_owned(),
            counter: 0,
            user_verified: true,
        }
    }

    /// The registration response (`RegistrationResponseJSON`) to `options`, remembering the
    /// user handle they name.
    pub fn register(&mut self, options: &Value) -> Value {
        let options = options.get("publicKey").unwrap_or(options);
        let rp_id = options["rp"]["id"].as_str().expect("options name the RP ID");
        self.user_handle = decode(&options["user"]["id"]);
        let client_data = self.client_data("webauthn.create", &options["challenge"]);
        let mut auth_data = self.auth_data(rp_id, AT);
        auth_data.extend_from_slice(&[0; 16]); // AAGUID
        auth_data.extend_from_slice(&(self.credential_id.len() as u16).to_be_bytes());
        auth_data.extend_from_slice(&self.credential_id);
        auth_data.extend_from_slice(&self.cose_key());
        let mut attestation = cbor_map(3);
        cbor_text(&mut attestation, "fmt");
        cbor_text(&mut attestation, "none");
        cbor_text(&mut attestation, "attStmt");
        attestation.extend_from_slice(&cbor_map(0));
        cbor_text(&mut attestation, "authData");
        cbor_bytes(&mut attestation, &auth_data);
        self.credential(json!({
            "clientDataJSON": encode(client_data.as_bytes()),
            "attestationObject": encode(&attestation),
            "transports": ["internal"],
        }))
    }

    /// The assertion (`AuthenticationResponseJSON`) answering request `options`.
    pub fn assert(&mut self, options: &Value) -> Value {
        let options = options.get("publicKey").unwrap_or(options);
        let rp_id = options["rpId"].as_str().expect("options name the RP ID");
        self.counter += 1;
        let client_data = self.client_data("webauthn.get", &options["challenge"]);
        let auth_data = self.auth_data(rp_id, 0);
        let signed = [auth_data.as_slice(), &Sha256::digest(client_data.as_bytes())].concat();
        let signature: DerSignature = self.key.sign(&signed);
        self.credential(json!({
            "clientDataJSON": encode(client_data.as_bytes()),
            "authenticatorData": encode(&auth_data),
            "signature": encode(signature.as_bytes()),
            "userHandle": encode(&self.user_handle),
        }))
    }

    /// The credential's `PublicKeyCredential.toJSON()` around an authenticator `response`.
    fn credential(&self, response: Value) -> Value {
        json!({
            "id": encode(&self.credential_id),
            "rawId": encode(&self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "response": response,
            "clientExtensionResults": {},
        })
    }

    fn client_data(&self, kind: &str, challenge: &Value) -> String {
        json!({
            "type": kind,
            "challenge": challenge.as_str().expect("options carry a challenge"),
            "origin": self.origin,
            "crossOrigin": false,
        })
        .to_string()
    }

    fn auth_data(&self, rp_id: &str, flags: u8) -> Vec<u8> {
        let mut data = Sha256::digest(rp_id.as_bytes()).to_vec();
        data.push(flags | UP | if self.user_verified { UV } else { 0 });
        data.extend_from_slice(&self.counter.to_be_bytes());
        data
    }

    /// The public key as a COSE key: EC2 (1: 2), ES256 (3: -7), P-256 (-1: 1), x (-2), y (-3).
    fn cose_key(&self) -> Vec<u8> {
        let point = self.key.verifying_key().to_encoded_point(false);
        let mut key = cbor_map(5);
        key.extend_from_slice(&[0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21]);
        cbor_bytes(&mut key, point.x().expect("an uncompressed point"));
        key.push(0x22);
        cbor_bytes(&mut key, point.y().expect("an uncompressed point"));
        key
    }
}

fn encode(bytes: &[u8]) -> String {
    BASE64URL.encode(bytes)
}

fn decode(text: &Value) -> Vec<u8> {
    BASE64URL.decode(text.as_str().expect("base64url text")).expect("base64url")
}

/// A CBOR map head of `len` (< 24) entries.
fn cbor_map(len: u8) -> Vec<u8> {
    vec![0xa0 | len]
}

fn cbor_text(out: &mut Vec<u8>, text: &str) {
    cbor_head(out, 3, text.len());
    out.extend_from_slice(text.as_bytes());
}

fn cbor_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    cbor_head(out, 2, bytes.len());
    out.extend_from_slice(bytes);
}

fn cbor_head(out: &mut Vec<u8>, major: u8, len: usize) {
    let major = major << 5;
    match len {
        0..24 => out.push(major | len as u8),
        24..256 => out.extend_from_slice(&[major | 24, len as u8]),
        _ => {
            out.push(major | 25);
            out.extend_from_slice(&(len as u16).to_be_bytes());
        }
    }
}
