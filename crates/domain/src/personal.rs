//! Personal data in the log, sealed under a per-person key so that it can be erased without
//! touching the hash chain (crypto-shredding, `docs/personal-data.md`).
//!
//! A person's name is stored as [`PersonalText::Sealed`]: XChaCha20-Poly1305 under the
//! person's own 256-bit key, with the person's id as associated data (a sealed name copied
//! into another person's event does not open). The key lives outside the chain, in the
//! store's key table; the chain hashes the sealed bytes, so verifying it never needs a key.
//! Deleting the key (an erasure) leaves the bytes unreadable for good, and the person shows
//! as their [`pseudonym`] from then on. Names registered before sealing existed are
//! [`PersonalText::Plain`].
//!
//! Pure: keys and nonces come from the caller (the application draws them at random).

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};

use crate::ids::PlayerId;

/// Bytes in a person's key.
pub const PERSON_KEY_LEN: usize = 32;
/// Bytes in a seal's nonce (XChaCha20's extended nonce: random nonces never realistically
/// collide).
pub const SEAL_NONCE_LEN: usize = 24;

/// One person's key: whoever holds it can read the person's sealed data.
#[derive(Clone, PartialEq, Eq)]
pub struct PersonKey([u8; PERSON_KEY_LEN]);

impl PersonKey {
    pub fn from_bytes(bytes: [u8; PERSON_KEY_LEN]) -> PersonKey {
        PersonKey(bytes)
    }

    /// A key read back from storage; `None` unless it has exactly [`PERSON_KEY_LEN`] bytes.
    pub fn from_slice(bytes: &[u8]) -> Option<PersonKey> {
        bytes.try_into().ok().map(PersonKey)
    }

    pub fn as_bytes(&self) -> &[u8; PERSON_KEY_LEN] {
        &self.0
    }
}

impl fmt::Debug for PersonKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PersonKey(..)")
    }
}

/// A piece of personal data as the log stores it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PersonalText {
    /// Written before personal data was sealed: plain text in a row that cannot be
    /// rewritten (see the docs for what an operator can do about it).
    Plain(String),
    /// Sealed under the person's key.
    Sealed(SealedText),
}

/// A sealed piece of personal data: `{"xchacha20poly1305": base64(nonce ‖ ciphertext ‖ tag)}`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedText {
    #[serde(rename = "xchacha20poly1305")]
    pub sealed: String,
}

/// Why a sealed text did not open.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("the sealed text is not valid base64 of a nonce and a ciphertext")]
    Malformed,
    #[error("the sealed text does not open with this person's key")]
    WrongKey,
}

impl fmt::Debug for PersonalText {
    /// Never prints a name: debug output ends up in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PersonalText::Plain(_) => f.write_str("Plain(..)"),
            PersonalText::Sealed(_) => f.write_str("Sealed(..)"),
        }
    }
}

impl fmt::Debug for SealedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SealedText(..)")
    }
}

/// The associated data binding a sealed field to its person and to what it holds.
fn associated_data(person: PlayerId, field: &str) -> Vec<u8> {
    format!("league personal data:{person}:{field}").into_bytes()
}

impl PersonalText {
    /// `text` sealed under `key` as `person`'s `field`, with a fresh random `nonce`.
    pub fn seal(
        key: &PersonKey,
        nonce: [u8; SEAL_NONCE_LEN],
        person: PlayerId,
        field: &str,
        text: &str,
    ) -> PersonalText {
        let cipher = XChaCha20Poly1305::new(key.as_bytes().into());
        let aad = associated_data(person, field);
        let ciphertext = cipher
            .encrypt(&XNonce::from(nonce), Payload { msg: text.as_bytes(), aad: &aad })
            // Encryption fails only for inputs of gigabytes.
            .expect("a name seals");
        let mut sealed = nonce.to_vec();
        sealed.extend_from_slice(&ciphertext);
        PersonalText::Sealed(SealedText { sealed: BASE64.encode(sealed) })
    }

    /// Whether the text is sealed (not plain).
    pub fn is_sealed(&self) -> bool {
        matches!(self, PersonalText::Sealed(_))
    }

    /// The text: plain as stored, or opened with the person's key (`None` when the text is
    /// sealed and no key is given: the person was erased, or the key is not at hand).
    pub fn open(
        &self,
        key: Option<&PersonKey>,
        person: PlayerId,
        field: &str,
    ) -> Result<Option<String>, OpenError> {
        match (self, key) {
            (PersonalText::Plain(text), _) => Ok(Some(text.clone())),
            (PersonalText::Sealed(_), None) => Ok(None),
            (PersonalText::Sealed(sealed), Some(key)) => sealed.open(key, person, field).map(Some),
        }
    }
}

impl SealedText {
    /// The plain text, opened with `person`'s `key`.
    pub fn open(
        &self,
        key: &PersonKey,
        person: PlayerId,
        field: &str,
    ) -> Result<String, OpenError> {
        let bytes = BASE64.decode(&self.sealed).map_err(|_| OpenError::Malformed)?;
        if bytes.len() < SEAL_NONCE_LEN {
            return Err(OpenError::Malformed);
        }
        let (nonce, ciphertext) = bytes.split_at(SEAL_NONCE_LEN);
        let nonce: [u8; SEAL_NONCE_LEN] = nonce.try_into().map_err(|_| OpenError::Malformed)?;
        let cipher = XChaCha20Poly1305::new(key.as_bytes().into());
        let aad = associated_data(person, field);
        let plain = cipher
            .decrypt(&XNonce::from(nonce), Payload { msg: ciphertext, aad: &aad })
            .map_err(|_| OpenError::WrongKey)?;
        String::from_utf8(plain).map_err(|_| OpenError::WrongKey)
    }
}

/// The stable name an erased person (or one whose key is not at hand) shows as: "Erased
/// player" and the last eight hex digits of their id, which are random in every id the
/// platform issues (the leading ones of a time-ordered id are its creation time, shared by
/// players registered together).
pub fn pseudonym(person: PlayerId) -> String {
    let hex = person.uuid().simple().to_string();
    format!("Erased player {}", &hex[hex.len() - 8..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> PersonKey {
        PersonKey::from_bytes([byte; PERSON_KEY_LEN])
    }

    #[test]
    fn a_sealed_name_opens_with_its_key_and_person_only() {
        let ann = PlayerId::new(uuid::Uuid::now_v7());
        let bob = PlayerId::new(uuid::Uuid::now_v7());
        let sealed = PersonalText::seal(&key(1), [7; SEAL_NONCE_LEN], ann, "name", "Ann Smith");
        assert!(sealed.is_sealed());
        assert_eq!(sealed.open(Some(&key(1)), ann, "name"), Ok(Some("Ann Smith".to_owned())));
        assert_eq!(sealed.open(Some(&key(2)), ann, "name"), Err(OpenError::WrongKey));
        assert_eq!(sealed.open(Some(&key(1)), bob, "name"), Err(OpenError::WrongKey));
        assert_eq!(sealed.open(Some(&key(1)), ann, "email"), Err(OpenError::WrongKey));
        assert_eq!(sealed.open(None, ann, "name"), Ok(None));
    }

    #[test]
    fn the_stored_form_names_the_algorithm_and_hides_the_name() {
        let ann = PlayerId::new(uuid::Uuid::now_v7());
        let sealed = PersonalText::seal(&key(1), [7; SEAL_NONCE_LEN], ann, "name", "Ann Smith");
        let json = serde_json::to_string(&sealed).unwrap();
        assert!(json.starts_with(r#"{"xchacha20poly1305":""#), "{json}");
        assert!(!json.contains("Ann"));
        let back: PersonalText = serde_json::from_str(&json).unwrap();
        assert_eq!(back, sealed);
        // A plain (pre-sealing) name is a JSON string, as it always was.
        let plain: PersonalText = serde_json::from_str(r#""Ann Smith""#).unwrap();
        assert_eq!(plain, PersonalText::Plain("Ann Smith".to_owned()));
        assert_eq!(serde_json::to_string(&plain).unwrap(), r#""Ann Smith""#);
        assert!(!format!("{plain:?} {sealed:?}").contains("Ann"));
    }

    #[test]
    fn two_seals_of_one_name_differ_by_their_nonce() {
        let ann = PlayerId::new(uuid::Uuid::now_v7());
        let a = PersonalText::seal(&key(1), [1; SEAL_NONCE_LEN], ann, "name", "Ann");
        let b = PersonalText::seal(&key(1), [2; SEAL_NONCE_LEN], ann, "name", "Ann");
        assert_ne!(a, b);
    }

    #[test]
    fn a_pseudonym_is_stable_and_uses_the_random_tail_of_the_id() {
        let id: PlayerId = "0190d2a4-7b1e-7c3a-9f00-12ab34cd56ef".parse().unwrap();
        assert_eq!(pseudonym(id), "Erased player 34cd56ef");
        assert_eq!(pseudonym(id), pseudonym(id));
    }

    #[test]
    fn a_truncated_seal_is_malformed() {
        let sealed = SealedText { sealed: BASE64.encode([0u8; 10]) };
        assert_eq!(
            sealed.open(&key(1), PlayerId::new(uuid::Uuid::nil()), "name"),
            Err(OpenError::Malformed)
        );
    }
}
