//! The commands of the [`crate::Player`] aggregate: what a caller asks of a player's stream.

use crate::ids::{Actor, PlayerId, player_stream_id};

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

/// Commands handled by the [`crate::Player`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerCommand {
    Register(RegisterPlayer),
    RotateToken(RotateToken),
    RevokeToken(RevokeToken),
    AppointOrganiser(AppointOrganiser),
    DismissOrganiser(DismissOrganiser),
    Erase(ErasePlayer),
    LinkIdentity(LinkIdentity),
    UnlinkIdentity(UnlinkIdentity),
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
    LinkIdentity => LinkIdentity,
    UnlinkIdentity => UnlinkIdentity
);

impl PlayerCommand {
    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        player_stream_id(self.player_id())
    }
}
