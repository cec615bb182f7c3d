//! The events of a player's stream (`player-<uuid>`): registration, tokens, the organiser
//! right, sessions and sign-in links, passkeys, identities linked from an identity provider,
//! erasure.

use serde::{Deserialize, Serialize};

use crate::event_enum::aggregate_enum;
use crate::ids::{Actor, PlayerId};
use crate::personal::PersonalText;
pub use crate::player::keep_apart::{PermanentKeepApartAdded, PermanentKeepApartRemoved};

/// A player joined the platform. The gateway stores only a hash of the player's bearer token.
/// Since version 2 the name is sealed under the player's own key ([`PersonalText`]); version
/// 1 names are plain text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerRegistered {
    pub player_id: PlayerId,
    pub name: PersonalText,
    pub token_hash: String,
}

/// A player's personal data was erased on request: their key was deleted in the same
/// transaction, so their sealed name can never be read again, and they show as their
/// pseudonym from then on. Their results, scores and ratings stay (under their id), so no
/// one else's standing changes. The event's commit time is when; `reason` is why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerErased {
    pub player_id: PlayerId,
    pub erased_by: Actor,
    pub reason: String,
}

/// A player's bearer token was replaced (by the player or the site admin): only the new
/// token's hash is stored, and the old token stops working.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenRotated {
    pub player_id: PlayerId,
    pub token_hash: String,
    pub rotated_by: Actor,
}

/// The site admin revoked a player's token: the player has no valid token until the admin
/// rotates one for them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenRevoked {
    pub player_id: PlayerId,
    pub revoked_by: Actor,
}

/// The site admin granted a player the right to create leagues and tournaments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrganiserAppointed {
    pub player_id: PlayerId,
    pub appointed_by: Actor,
}

/// The site admin withdrew a player's right to create leagues and tournaments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrganiserDismissed {
    pub player_id: PlayerId,
    pub dismissed_by: Actor,
}

/// The player added a passkey (WebAuthn, `docs/sign-in.md#passkeys`): `credential` is the
/// credential's id, public key and registration state as the gateway encodes them, and
/// `name` what the player calls it ("My phone"); both are personal data, sealed under the
/// player's key, so an erasure leaves neither readable and the passkey signs in no more.
/// `passkey_id` names it to its owner (to list and remove it); the event's commit time is
/// when it was added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyAdded {
    pub player_id: PlayerId,
    pub passkey_id: uuid::Uuid,
    pub credential: PersonalText,
    pub name: PersonalText,
}

/// A passkey was removed (by its player or the site admin): it signs in no more.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyRemoved {
    pub player_id: PlayerId,
    pub passkey_id: uuid::Uuid,
    pub removed_by: Actor,
}

/// A player linked an identity of the site's OpenID Connect provider to their player record
/// (`docs/sign-in.md#identity-providers`): from then on, signing in there signs them in here.
/// The subject (the provider's id of the person) is personal data, sealed under the player's
/// key ([`PersonalText`]); the issuer is the provider's address, the site's configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdentityLinked {
    pub player_id: PlayerId,
    pub issuer: String,
    pub subject: PersonalText,
}

/// The player (or the site admin) unlinked the player's identity of the provider `issuer`:
/// it no longer signs them in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdentityUnlinked {
    pub player_id: PlayerId,
    pub issuer: String,
    pub unlinked_by: Actor,
}

/// The id the player has in another system (`system`: `wdr` for the World Diplomacy
/// Reference, `docs/tournaments.md#external-ids`) was recorded; a later one of the same
/// system replaces it. The id is personal data, sealed under the player's key
/// ([`PersonalText`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExternalIdRecorded {
    pub player_id: PlayerId,
    pub system: String,
    pub id: PersonalText,
    pub recorded_by: Actor,
}

/// An organiser issued an invite code: on an invite-only site it lets people sign up until
/// `expiresAt` (`docs/operations.md#sign-up`). Only the code's SHA-256 is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InviteIssued {
    /// The organiser who issued it.
    pub player_id: PlayerId,
    pub invite_id: uuid::Uuid,
    pub code_hash: String,
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// An invite was revoked (by its organiser or the site admin): its code signs nobody up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InviteRevoked {
    pub player_id: PlayerId,
    pub invite_id: uuid::Uuid,
    pub revoked_by: Actor,
}

/// How a person proved who they are when a session started (`docs/sign-in.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SignInMethod {
    /// The player's bearer token, typed or pasted once.
    Token,
    /// A single-use sign-in link (or its QR code).
    Link,
    /// A passkey (WebAuthn).
    Passkey,
    /// An OpenID Connect identity provider the site configured.
    Identity,
}

/// A browser signed in as the player: the session's secret lives only in the browser's
/// cookie; the log keeps its SHA-256. The session lasts the configured lifetime from this
/// event's commit time or its last renewal. `session_id` names it to its owner (the list of
/// signed-in devices); `device` is a coarse label ("Chrome on Android"), never the full
/// user agent. `link_hash` is the sign-in link this session used up, if any.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionStarted {
    pub player_id: PlayerId,
    pub session_id: uuid::Uuid,
    pub session_hash: String,
    pub method: SignInMethod,
    pub device: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_hash: Option<String>,
}

/// A session was used after a good part of its lifetime had passed: it lasts the configured
/// lifetime again from this event's commit time (a sliding expiry, renewed at most once in a
/// third of the lifetime so the log does not grow with every request).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRenewed {
    pub player_id: PlayerId,
    pub session_id: uuid::Uuid,
}

/// A session was ended: signed out on its device, or from another of the player's devices,
/// or by the site admin. Its cookie no longer signs in on any gateway.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionEnded {
    pub player_id: PlayerId,
    pub session_id: uuid::Uuid,
    pub ended_by: Actor,
}

/// Every session of the player was ended at once ("sign out everywhere").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AllSessionsEnded {
    pub player_id: PlayerId,
    pub ended_by: Actor,
}

/// A single-use sign-in link was issued for the player (by an organiser, the site admin,
/// or the player for another of their own devices). Only the link secret's SHA-256 is kept;
/// the link works once, until `expires_at`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignInLinkIssued {
    pub player_id: PlayerId,
    pub link_hash: String,
    pub expires_at: chrono::DateTime<chrono::Utc>,
    pub issued_by: Actor,
}

/// The player's event types, one line each (stored name, the schema version this code writes,
/// and the webhook kinds it is sent to, `notify [...]`, if any), passed on to the next aggregate's list and at last to `domain_events!` (`crate::events`).
/// Registrations are at version 2 since names are sealed; a version 1 name reads as plain
/// text, as written.
macro_rules! player_events {
    ([$next:ident $(, $rest:ident)*] $($groups:tt)*) => {
        $next! { [$($rest),*] $($groups)*
            Player(PlayerEvent, player_id) {
                PlayerRegistered = "PlayerRegistered" version 2 in catalog,
                TokenRotated = "TokenRotated" version 1 in catalog,
                TokenRevoked = "TokenRevoked" version 1 in catalog,
                OrganiserAppointed = "OrganiserAppointed" version 1 in catalog,
                OrganiserDismissed = "OrganiserDismissed" version 1 in catalog,
                PlayerErased = "PlayerErased" version 1 in catalog,
                PasskeyAdded = "PasskeyAdded" version 1 in catalog,
                PasskeyRemoved = "PasskeyRemoved" version 1 in catalog,
                IdentityLinked = "IdentityLinked" version 1 in catalog,
                IdentityUnlinked = "IdentityUnlinked" version 1 in catalog,
                InviteIssued = "InviteIssued" version 1,
                InviteRevoked = "InviteRevoked" version 1,
                SessionStarted = "SessionStarted" version 1 in catalog,
                SessionRenewed = "SessionRenewed" version 1 in catalog,
                SessionEnded = "SessionEnded" version 1 in catalog,
                AllSessionsEnded = "AllSessionsEnded" version 1 in catalog,
                SignInLinkIssued = "SignInLinkIssued" version 1 in catalog,
                PermanentKeepApartAdded = "PermanentKeepApartAdded" version 1,
                PermanentKeepApartRemoved = "PermanentKeepApartRemoved" version 1,
                ExternalIdRecorded = "ExternalIdRecorded" version 1,
            }
        }
    };
}
pub(crate) use player_events;
player_events! { [aggregate_enum] }

impl PlayerEvent {
    /// The steps of [`crate::upcast`] for a player's events: none so far (a version 1
    /// registration's name is plain text, which [`PersonalText`] reads as written).
    pub(crate) fn upcast(&mut self, _schema_version: i64) {
        match self {
            PlayerEvent::PlayerRegistered(_)
            | PlayerEvent::TokenRotated(_)
            | PlayerEvent::TokenRevoked(_)
            | PlayerEvent::OrganiserAppointed(_)
            | PlayerEvent::OrganiserDismissed(_)
            | PlayerEvent::PlayerErased(_)
            | PlayerEvent::PasskeyAdded(_)
            | PlayerEvent::PasskeyRemoved(_)
            | PlayerEvent::IdentityLinked(_)
            | PlayerEvent::IdentityUnlinked(_)
            | PlayerEvent::InviteIssued(_)
            | PlayerEvent::InviteRevoked(_)
            | PlayerEvent::SessionStarted(_)
            | PlayerEvent::SessionRenewed(_)
            | PlayerEvent::SessionEnded(_)
            | PlayerEvent::AllSessionsEnded(_)
            | PlayerEvent::SignInLinkIssued(_)
            | PlayerEvent::PermanentKeepApartAdded(_)
            | PlayerEvent::PermanentKeepApartRemoved(_)
            | PlayerEvent::ExternalIdRecorded(_) => {}
        }
    }
}
