//! The commands of the [`crate::Player`] aggregate: what a caller asks of a player's stream.

use crate::ids::{Actor, PlayerId, player_stream_id};
use crate::player::events::SignInMethod;
use crate::player::external_ids::RecordExternalId;
use crate::player::keep_apart::ChangePermanentKeepApart;

/// Admin registers a player. The token itself never reaches the domain, only its hash.
#[derive(Debug, Clone, PartialEq)]
pub struct RegisterPlayer {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub name: String,
    pub token_hash: String,
}

/// A player replaces their own bearer token, or the site admin replaces anyone's (also one
/// that was revoked). Only the new token's hash reaches the domain.
#[derive(Debug, Clone, PartialEq)]
pub struct RotateToken {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub token_hash: String,
}

/// The site admin revokes a player's token.
#[derive(Debug, Clone, PartialEq)]
pub struct RevokeToken {
    pub actor: Actor,
    pub player_id: PlayerId,
}

/// The site admin appoints a player organiser (may create leagues and tournaments).
#[derive(Debug, Clone, PartialEq)]
pub struct AppointOrganiser {
    pub actor: Actor,
    pub player_id: PlayerId,
}

/// The site admin dismisses an organiser (they may no longer create competitions).
#[derive(Debug, Clone, PartialEq)]
pub struct DismissOrganiser {
    pub actor: Actor,
    pub player_id: PlayerId,
}

/// The site admin, or the player themself, erases the player's personal data
/// (`docs/personal-data.md`), saying why.
#[derive(Debug, Clone, PartialEq)]
pub struct ErasePlayer {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub reason: String,
}

/// A player adds a passkey to their own record (`docs/sign-in.md#passkeys`): the gateway
/// verified the WebAuthn registration and hands in the credential it encoded; the
/// application seals it and the name under the player's key before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct AddPasskey {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub passkey_id: uuid::Uuid,
    pub credential: String,
    pub name: String,
}

/// A player removes one of their passkeys, or the site admin removes anyone's.
#[derive(Debug, Clone, PartialEq)]
pub struct RemovePasskey {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub passkey_id: uuid::Uuid,
}

/// A player links an identity of the site's identity provider (`issuer`, `subject`: the
/// provider's id of the person, from a verified ID token) to their own player record.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkIdentity {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub issuer: String,
    pub subject: String,
}

/// A player (or the site admin) unlinks the player's identity of the provider `issuer`.
#[derive(Debug, Clone, PartialEq)]
pub struct UnlinkIdentity {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub issuer: String,
}

/// Who may register themself on this site (`docs/operations.md#sign-up`): nobody (organisers
/// and the site admin register people), a person holding an organiser's invite code, or
/// anyone. The gateway's configuration says which; the command carries it as the actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SignUpPolicy {
    #[default]
    Closed,
    Invite,
    Open,
}

/// A person registers themself (the actor is the new player), as the site's `policy`
/// allows: on an invite-only site with the hash of an organiser's invite code.
#[derive(Debug, Clone, PartialEq)]
pub struct SignUpPlayer {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub name: String,
    pub token_hash: String,
    pub policy: SignUpPolicy,
    pub invite_hash: Option<String>,
}

/// An appointed organiser issues an invite code (only its hash reaches the domain) that
/// lets people sign up on an invite-only site until `expires_at`.
#[derive(Debug, Clone, PartialEq)]
pub struct IssueInvite {
    pub actor: Actor,
    /// The organiser, whose stream keeps the invite.
    pub player_id: PlayerId,
    pub invite_id: uuid::Uuid,
    pub code_hash: String,
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// The invite's organiser or the site admin revokes it: its code signs nobody up any more.
#[derive(Debug, Clone, PartialEq)]
pub struct RevokeInvite {
    pub actor: Actor,
    /// The organiser who issued it.
    pub player_id: PlayerId,
    pub invite_id: uuid::Uuid,
}

/// A person proved to be the player (token, passkey or identity checked by the gateway, or
/// the sign-in link `link_hash` names, which the player's state checks): a session starts.
#[derive(Debug, Clone, PartialEq)]
pub struct StartSession {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub session_id: uuid::Uuid,
    pub session_hash: String,
    pub method: SignInMethod,
    pub device: String,
    pub link_hash: Option<String>,
}

/// A session in use is renewed (sliding expiry).
#[derive(Debug, Clone, PartialEq)]
pub struct RenewSession {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub session_id: uuid::Uuid,
}

/// The player signs one of their sessions out (or the site admin does).
#[derive(Debug, Clone, PartialEq)]
pub struct EndSession {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub session_id: uuid::Uuid,
}

/// The player signs out everywhere (or the site admin signs them out).
#[derive(Debug, Clone, PartialEq)]
pub struct EndAllSessions {
    pub actor: Actor,
    pub player_id: PlayerId,
}

/// A single-use sign-in link for the player; only the link's hash reaches the domain.
#[derive(Debug, Clone, PartialEq)]
pub struct IssueSignInLink {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub link_hash: String,
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// Commands handled by the [`crate::Player`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerCommand {
    Register(RegisterPlayer),
    RotateToken(RotateToken),
    RevokeToken(RevokeToken),
    AppointOrganiser(AppointOrganiser),
    DismissOrganiser(DismissOrganiser),
    Erase(ErasePlayer),
    AddPasskey(AddPasskey),
    RemovePasskey(RemovePasskey),
    LinkIdentity(LinkIdentity),
    UnlinkIdentity(UnlinkIdentity),
    SignUp(SignUpPlayer),
    IssueInvite(IssueInvite),
    RevokeInvite(RevokeInvite),
    StartSession(StartSession),
    RenewSession(RenewSession),
    EndSession(EndSession),
    EndAllSessions(EndAllSessions),
    IssueSignInLink(IssueSignInLink),
    ChangePermanentKeepApart(ChangePermanentKeepApart),
    RecordExternalId(RecordExternalId),
}

macro_rules! player_commands {
    ($($ty:ident => $variant:ident),*) => {
        impl PlayerCommand {
            pub fn actor(&self) -> Actor {
                match self {
                    $(PlayerCommand::$variant(c) => c.actor,)*
                }
            }

            pub fn player_id(&self) -> PlayerId {
                match self {
                    $(PlayerCommand::$variant(c) => c.player_id,)*
                }
            }
        }

        $(
            impl From<$ty> for PlayerCommand {
                fn from(c: $ty) -> Self {
                    PlayerCommand::$variant(c)
                }
            }
        )*
    };
}

player_commands!(
    RegisterPlayer => Register,
    RotateToken => RotateToken,
    RevokeToken => RevokeToken,
    AppointOrganiser => AppointOrganiser,
    DismissOrganiser => DismissOrganiser,
    ErasePlayer => Erase,
    AddPasskey => AddPasskey,
    RemovePasskey => RemovePasskey,
    LinkIdentity => LinkIdentity,
    UnlinkIdentity => UnlinkIdentity,
    SignUpPlayer => SignUp,
    IssueInvite => IssueInvite,
    RevokeInvite => RevokeInvite,
    StartSession => StartSession,
    RenewSession => RenewSession,
    EndSession => EndSession,
    EndAllSessions => EndAllSessions,
    IssueSignInLink => IssueSignInLink,
    ChangePermanentKeepApart => ChangePermanentKeepApart,
    RecordExternalId => RecordExternalId
);

impl PlayerCommand {
    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        player_stream_id(self.player_id())
    }
}
