//! The `Player` aggregate (stream `player-<uuid>`): registration, the bearer token's
//! rotations and revocations, the organiser right, passkeys, identities linked from an
//! identity provider, and erasure.
//!
//! Registration emits the name as [`PersonalText::Plain`]; the application seals it under
//! the player's new key before the event is stored (`docs/personal-data.md`), since keys and
//! nonces are drawn at random, outside this pure crate.

pub(crate) mod commands;
pub(crate) mod events;
pub(crate) mod external_ids;
pub(crate) mod keep_apart;
pub(crate) mod sessions;

pub use self::commands::*;
pub use self::events::*;
pub use self::external_ids::{
    MAX_EXTERNAL_ID_CHARS, RecordExternalId, WDR, check_external_id, check_external_system,
};
pub use self::keep_apart::{
    ChangePermanentKeepApart, KEEP_APART_REASON_FIELD, MAX_PERMANENT_KEEP_APART,
    PermanentKeepApart, PermanentKeepApartAdded, PermanentKeepApartRemoved,
};
pub use self::sessions::{MAX_DEVICE_LABEL_LEN, MAX_SIGN_IN_LINK_DAYS};

use crate::aggregate::{Aggregate, Decision};
use crate::context::{Context, InviteFacts};
use crate::error::DomainError;
use crate::events::EventType;
use crate::ids::{Actor, PlayerId, player_stream_id};
use crate::personal::{PersonalText, pseudonym};
use crate::rules::clean_name;

/// The most characters an identity provider's issuer or subject may have (OpenID Connect
/// Core 1.0 §2: a subject is at most 255 ASCII characters; an issuer is a short URL).
pub const MAX_IDENTITY_LEN: usize = 255;

/// The most characters an erasure's reason may have.
pub const MAX_REASON_LEN: usize = 500;

/// The most passkeys one player may hold at once.
pub const MAX_PASSKEYS: usize = 20;

/// A player's state, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Player {
    version: u64,
    registered: Option<PlayerRegistered>,
    /// The hash of the player's valid token (`None` once revoked, until rotated again).
    token_hash: Option<String>,
    organiser: bool,
    erased: bool,
    /// The ids of the player's passkeys (added and not removed).
    passkeys: Vec<uuid::Uuid>,
    /// The issuers of the identity providers whose identities are linked, in link order.
    identity_issuers: Vec<String>,
    /// Invites this organiser issued, by id: expiry and whether revoked.
    invites: std::collections::BTreeMap<uuid::Uuid, InviteFacts>,
    sign_ins: sessions::SignIns,
    /// The permanent keep-apart list, in the order added.
    keep_apart: Vec<PermanentKeepApart>,
    /// The latest external id recorded of each system, as stored (sealed).
    external_ids: std::collections::BTreeMap<String, PersonalText>,
}

impl Player {
    /// Whether the player has been registered.
    pub fn exists(&self) -> bool {
        self.registered.is_some()
    }

    pub fn id(&self) -> Option<PlayerId> {
        self.registered.as_ref().map(|r| r.player_id)
    }

    /// The name as stored (sealed since names are; see [`PersonalText`]).
    pub fn name(&self) -> Option<&PersonalText> {
        self.registered.as_ref().map(|r| &r.name)
    }

    /// Whether the player's personal data was erased.
    pub fn is_erased(&self) -> bool {
        self.erased
    }

    /// The hash of the player's valid token (`None` while revoked).
    pub fn token_hash(&self) -> Option<&str> {
        self.token_hash.as_deref()
    }

    /// Whether the site admin has appointed the player organiser (and not dismissed them).
    pub fn is_organiser(&self) -> bool {
        self.organiser
    }

    /// The ids of the player's passkeys, in the order they were added.
    pub fn passkeys(&self) -> &[uuid::Uuid] {
        &self.passkeys
    }

    /// The issuers of the identity providers whose identities the player linked.
    pub fn identity_issuers(&self) -> &[String] {
        &self.identity_issuers
    }

    /// How many of the player's sessions are signed in.
    pub fn live_sessions(&self) -> usize {
        self.sign_ins.live_sessions()
    }

    /// `player-<uuid>`, once registered.
    pub fn stream_id(&self) -> Option<String> {
        self.id().map(player_stream_id)
    }

    /// Refuses a player who is not registered, or whose data was erased (an erased player
    /// has no token and no rights left to change).
    fn registered(&self, player_id: PlayerId) -> Result<(), DomainError> {
        if !self.exists() {
            return Err(DomainError::PlayerNotFound(player_id));
        }
        if self.erased {
            return Err(DomainError::erased(player_id));
        }
        Ok(())
    }

    /// The site admin and appointed organisers register players (`docs/api.md#roles`).
    fn register(
        &self,
        command: &RegisterPlayer,
        context: &Context,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        if !command.actor.is_admin() && !context.actor_is_organiser {
            return Err(DomainError::forbidden(
                "only the site admin or an appointed organiser may register players",
            ));
        }
        if self.exists() {
            return Err(DomainError::PlayerAlreadyRegistered(command.player_id));
        }
        let name = clean_name("name", &command.name)?;
        let token_hash = check_token_hash(&command.token_hash)?;
        Ok(vec![PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: command.player_id,
            name: PersonalText::Plain(name),
            token_hash,
        })])
    }

    fn rotate_token(&self, c: &RotateToken) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) {
            only_the_site_admin(c.actor, "rotate another player's token")?;
        }
        self.registered(c.player_id)?;
        let token_hash = check_token_hash(&c.token_hash)?;
        Ok(vec![PlayerEvent::TokenRotated(TokenRotated {
            player_id: c.player_id,
            token_hash,
            rotated_by: c.actor,
        })])
    }

    fn revoke_token(&self, c: &RevokeToken) -> Result<Vec<PlayerEvent>, DomainError> {
        only_the_site_admin(c.actor, "revoke tokens")?;
        self.registered(c.player_id)?;
        if self.token_hash.is_none() {
            return Err(DomainError::conflict(format!(
                "player {}'s token is already revoked",
                c.player_id
            )));
        }
        Ok(vec![PlayerEvent::TokenRevoked(TokenRevoked {
            player_id: c.player_id,
            revoked_by: c.actor,
        })])
    }

    fn appoint(&self, c: &AppointOrganiser) -> Result<Vec<PlayerEvent>, DomainError> {
        only_the_site_admin(c.actor, "appoint organisers")?;
        self.registered(c.player_id)?;
        if self.organiser {
            return Err(DomainError::conflict(format!(
                "player {} is already an organiser",
                c.player_id
            )));
        }
        Ok(vec![PlayerEvent::OrganiserAppointed(OrganiserAppointed {
            player_id: c.player_id,
            appointed_by: c.actor,
        })])
    }

    fn erase(&self, c: &ErasePlayer) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) {
            only_the_site_admin(c.actor, "erase another player's data")?;
        }
        self.registered(c.player_id)?;
        let reason = c.reason.trim();
        if reason.is_empty() {
            return Err(DomainError::invalid("reason", "must say why the data is erased"));
        }
        if reason.chars().count() > MAX_REASON_LEN {
            return Err(DomainError::invalid(
                "reason",
                format!("must have at most {MAX_REASON_LEN} characters"),
            ));
        }
        Ok(vec![PlayerEvent::PlayerErased(PlayerErased {
            player_id: c.player_id,
            erased_by: c.actor,
            reason: reason.to_owned(),
        })])
    }

    fn add_passkey(&self, c: &AddPasskey) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) {
            return Err(DomainError::forbidden(
                "only a player may add a passkey, to their own record",
            ));
        }
        self.registered(c.player_id)?;
        if self.passkeys.contains(&c.passkey_id) {
            return Err(DomainError::conflict(format!(
                "passkey {} is already added",
                c.passkey_id
            )));
        }
        if self.passkeys.len() >= MAX_PASSKEYS {
            return Err(DomainError::conflict(format!(
                "a player may have at most {MAX_PASSKEYS} passkeys; remove one first"
            )));
        }
        if c.credential.trim().is_empty() {
            return Err(DomainError::invalid("credential", "must not be empty"));
        }
        let name = clean_name("name", &c.name)?;
        Ok(vec![PlayerEvent::PasskeyAdded(PasskeyAdded {
            player_id: c.player_id,
            passkey_id: c.passkey_id,
            credential: PersonalText::Plain(c.credential.clone()),
            name: PersonalText::Plain(name),
        })])
    }

    fn remove_passkey(&self, c: &RemovePasskey) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) {
            only_the_site_admin(c.actor, "remove another player's passkey")?;
        }
        self.registered(c.player_id)?;
        if !self.passkeys.contains(&c.passkey_id) {
            return Err(DomainError::PasskeyNotFound(c.passkey_id));
        }
        Ok(vec![PlayerEvent::PasskeyRemoved(PasskeyRemoved {
            player_id: c.player_id,
            passkey_id: c.passkey_id,
            removed_by: c.actor,
        })])
    }

    /// One identity per provider: linking another from the same issuer needs an unlink first.
    fn link_identity(&self, c: &LinkIdentity) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) {
            return Err(DomainError::forbidden("only the player themself may link an identity"));
        }
        self.registered(c.player_id)?;
        let issuer = identity_part("issuer", &c.issuer)?;
        let subject = identity_part("subject", &c.subject)?;
        if self.identity_issuers.contains(&issuer) {
            return Err(DomainError::conflict(format!(
                "player {} already has an identity of this provider linked: unlink it first",
                c.player_id
            )));
        }
        Ok(vec![PlayerEvent::IdentityLinked(IdentityLinked {
            player_id: c.player_id,
            issuer,
            subject: PersonalText::Plain(subject),
        })])
    }

    fn unlink_identity(&self, c: &UnlinkIdentity) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) {
            only_the_site_admin(c.actor, "unlink another player's identity")?;
        }
        self.registered(c.player_id)?;
        if !self.identity_issuers.contains(&c.issuer) {
            return Err(DomainError::conflict(format!(
                "player {} has no identity of this provider linked",
                c.player_id
            )));
        }
        Ok(vec![PlayerEvent::IdentityUnlinked(IdentityUnlinked {
            player_id: c.player_id,
            issuer: c.issuer.clone(),
            unlinked_by: c.actor,
        })])
    }

    fn dismiss(&self, c: &DismissOrganiser) -> Result<Vec<PlayerEvent>, DomainError> {
        only_the_site_admin(c.actor, "dismiss organisers")?;
        self.registered(c.player_id)?;
        if !self.organiser {
            return Err(DomainError::conflict(format!(
                "player {} is not an organiser",
                c.player_id
            )));
        }
        Ok(vec![PlayerEvent::OrganiserDismissed(OrganiserDismissed {
            player_id: c.player_id,
            dismissed_by: c.actor,
        })])
    }
}

/// The longest an invite may stay valid.
pub const MAX_INVITE_DAYS: i64 = 90;

/// Sign-up and invites (`docs/operations.md#sign-up`).
impl Player {
    /// Invites this organiser issued, by id.
    pub fn invites(&self) -> &std::collections::BTreeMap<uuid::Uuid, InviteFacts> {
        &self.invites
    }

    /// A person registers themself, as the site allows: rights first (the site's policy,
    /// the invite), then the same checks as a registration.
    fn sign_up(
        &self,
        c: &SignUpPlayer,
        context: &Context,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor != Actor::Player(c.player_id) {
            return Err(DomainError::forbidden("a person signs up only themself"));
        }
        match (c.policy, &c.invite_hash, context.invite) {
            (SignUpPolicy::Open, _, _) => {}
            (SignUpPolicy::Closed, _, _) => {
                return Err(DomainError::forbidden(
                    "this site does not let people sign up: an organiser registers you",
                ));
            }
            (SignUpPolicy::Invite, None, _) => {
                return Err(DomainError::forbidden(
                    "this site lets people sign up with an invite code only",
                ));
            }
            (SignUpPolicy::Invite, Some(_), None) => {
                return Err(DomainError::forbidden("this invite code is not known"));
            }
            (SignUpPolicy::Invite, Some(_), Some(invite)) if invite.revoked => {
                return Err(DomainError::forbidden("this invite was revoked"));
            }
            (SignUpPolicy::Invite, Some(_), Some(invite)) if invite.expires_at <= context.now => {
                return Err(DomainError::forbidden("this invite has expired"));
            }
            (SignUpPolicy::Invite, Some(_), Some(_)) => {}
        }
        let register = RegisterPlayer {
            actor: Actor::Admin,
            player_id: c.player_id,
            name: c.name.clone(),
            token_hash: c.token_hash.clone(),
        };
        self.register(&register, context)
    }

    fn issue_invite(
        &self,
        c: &IssueInvite,
        context: &Context,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor != Actor::Player(c.player_id) || !context.actor_is_organiser {
            return Err(DomainError::forbidden(
                "only an appointed organiser issues invites, their own",
            ));
        }
        self.registered(c.player_id)?;
        let code_hash = check_token_hash(&c.code_hash)?;
        if c.expires_at <= context.now
            || c.expires_at > context.now + chrono::Duration::days(MAX_INVITE_DAYS)
        {
            return Err(DomainError::invalid(
                "expiresAt",
                format!("must be in the next {MAX_INVITE_DAYS} days"),
            ));
        }
        if self.invites.contains_key(&c.invite_id) {
            return Err(DomainError::conflict(format!("invite {} exists already", c.invite_id)));
        }
        Ok(vec![PlayerEvent::InviteIssued(InviteIssued {
            player_id: c.player_id,
            invite_id: c.invite_id,
            code_hash,
            expires_at: c.expires_at,
        })])
    }

    fn revoke_invite(&self, c: &RevokeInvite) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor != Actor::Player(c.player_id) {
            only_the_site_admin(c.actor, "revoke another organiser's invite")?;
        }
        self.registered(c.player_id)?;
        match self.invites.get(&c.invite_id) {
            None => Err(DomainError::invalid(
                "inviteId",
                format!("player {} issued no invite {}", c.player_id, c.invite_id),
            )),
            Some(invite) if invite.revoked => {
                Err(DomainError::conflict(format!("invite {} is already revoked", c.invite_id)))
            }
            Some(_) => Ok(vec![PlayerEvent::InviteRevoked(InviteRevoked {
                player_id: c.player_id,
                invite_id: c.invite_id,
                revoked_by: c.actor,
            })]),
        }
    }
}

/// Refuses anyone but the site admin, naming the right.
fn only_the_site_admin(actor: Actor, right: &str) -> Result<(), DomainError> {
    if actor.is_admin() {
        Ok(())
    } else {
        Err(DomainError::forbidden(format!("only the site admin may {right}")))
    }
}

/// An issuer or subject: not blank, at most [`MAX_IDENTITY_LEN`] characters, as given.
fn identity_part(field: &str, value: &str) -> Result<String, DomainError> {
    if value.trim().is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    if value.chars().count() > MAX_IDENTITY_LEN {
        return Err(DomainError::invalid(
            field,
            format!("must have at most {MAX_IDENTITY_LEN} characters"),
        ));
    }
    Ok(value.to_owned())
}

fn check_token_hash(token_hash: &str) -> Result<String, DomainError> {
    if token_hash.trim().is_empty() {
        return Err(DomainError::invalid("tokenHash", "must not be empty"));
    }
    Ok(token_hash.to_owned())
}

impl Aggregate for Player {
    type Command = PlayerCommand;
    type Event = PlayerEvent;

    fn handle(&self, command: &Self::Command, context: &Context) -> Decision<Self::Event> {
        match command {
            PlayerCommand::Register(c) => self.register(c, context),
            PlayerCommand::RotateToken(c) => self.rotate_token(c),
            PlayerCommand::RevokeToken(c) => self.revoke_token(c),
            PlayerCommand::AppointOrganiser(c) => self.appoint(c),
            PlayerCommand::DismissOrganiser(c) => self.dismiss(c),
            PlayerCommand::Erase(c) => self.erase(c),
            PlayerCommand::AddPasskey(c) => self.add_passkey(c),
            PlayerCommand::RemovePasskey(c) => self.remove_passkey(c),
            PlayerCommand::LinkIdentity(c) => self.link_identity(c),
            PlayerCommand::UnlinkIdentity(c) => self.unlink_identity(c),
            PlayerCommand::SignUp(c) => self.sign_up(c, context),
            PlayerCommand::IssueInvite(c) => self.issue_invite(c, context),
            PlayerCommand::RevokeInvite(c) => self.revoke_invite(c),
            PlayerCommand::StartSession(c) => self.start_session(c, context),
            PlayerCommand::RenewSession(c) => self.renew_session(c),
            PlayerCommand::EndSession(c) => self.end_session(c),
            PlayerCommand::EndAllSessions(c) => self.end_all_sessions(c),
            PlayerCommand::IssueSignInLink(c) => self.issue_sign_in_link(c, context),
            PlayerCommand::ChangePermanentKeepApart(c) => {
                self.change_permanent_keep_apart(c, context)
            }
            PlayerCommand::RecordExternalId(c) => self.record_external_id(c, context),
        }
    }

    fn apply(&mut self, event: &PlayerEvent) {
        self.version += 1;
        self.sign_ins.apply(event);
        self.apply_keep_apart(event);
        self.apply_external_id(event);
        match event {
            PlayerEvent::PlayerRegistered(e) => {
                self.token_hash = Some(e.token_hash.clone());
                self.registered = Some(e.clone());
            }
            PlayerEvent::TokenRotated(e) => self.token_hash = Some(e.token_hash.clone()),
            PlayerEvent::TokenRevoked(_) => self.token_hash = None,
            PlayerEvent::OrganiserAppointed(_) => self.organiser = true,
            PlayerEvent::OrganiserDismissed(_) => self.organiser = false,
            PlayerEvent::InviteIssued(e) => {
                let facts = InviteFacts { expires_at: e.expires_at, revoked: false };
                self.invites.insert(e.invite_id, facts);
            }
            PlayerEvent::InviteRevoked(e) => {
                if let Some(invite) = self.invites.get_mut(&e.invite_id) {
                    invite.revoked = true;
                }
            }
            PlayerEvent::PlayerErased(e) => {
                // The stored event keeps its (sealed) bytes; the state keeps no name at all,
                // not even a plain one from before sealing.
                if let Some(registered) = &mut self.registered {
                    registered.name = PersonalText::Plain(pseudonym(e.player_id));
                }
                self.erased = true;
                self.token_hash = None;
                self.organiser = false;
                self.passkeys.clear();
                self.identity_issuers.clear();
            }
            PlayerEvent::PasskeyAdded(e) => self.passkeys.push(e.passkey_id),
            PlayerEvent::PasskeyRemoved(e) => self.passkeys.retain(|id| *id != e.passkey_id),
            PlayerEvent::IdentityLinked(e) => self.identity_issuers.push(e.issuer.clone()),
            PlayerEvent::IdentityUnlinked(e) => self.identity_issuers.retain(|i| *i != e.issuer),
            PlayerEvent::SessionStarted(_)
            | PlayerEvent::SessionRenewed(_)
            | PlayerEvent::SessionEnded(_)
            | PlayerEvent::AllSessionsEnded(_)
            | PlayerEvent::SignInLinkIssued(_)
            | PlayerEvent::PermanentKeepApartAdded(_)
            | PlayerEvent::PermanentKeepApartRemoved(_)
            | PlayerEvent::ExternalIdRecorded(_) => {}
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}

/// The person whose key is stored with an event of `event_type` in `stream_id`, if any: a
/// registration (`PlayerRegistered` in `player-<id>`) seals the name under a new key that
/// commits with it. An import accepts a key only with its person's registration
/// (`docs/personal-data.md#backups`).
pub fn key_owner(stream_id: &str, event_type: &str) -> Option<PlayerId> {
    if event_type != EventType::PlayerRegistered.as_str() {
        return None;
    }
    crate::ids::player_id_of_stream(stream_id)
}
