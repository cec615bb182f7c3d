//! Sign-up (`docs/operations.md#sign-up`): a person registers themself where the site's
//! policy allows it, on an invite-only site with an organiser's invite code; organisers issue
//! and revoke invites. The codes are secrets: only their SHA-256 reaches the log, and an
//! invite is found by that hash among the log's `InviteIssued` events when someone signs up
//! with it (rare, and rate-limited by the gateway), so no read model keeps invites.

use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use league_domain::{
    Actor, Context, DomainEvent, EventType, InviteFacts, IssueInvite, PlayerCommand, PlayerEvent,
    PlayerId, SignUpPlayer, SignUpPolicy,
};
use uuid::Uuid;

use crate::walk_ins::NewToken;
use crate::{App, AppError, CommandOptions};

/// A new invite: its id (to revoke it), its code (shown only this once) and its expiry.
#[derive(Debug, Clone)]
pub struct IssuedInvite {
    pub invite_id: Uuid,
    pub code: String,
    pub expires_at: DateTime<Utc>,
}

/// A person who signed up: their new id and their bearer token (shown only this once).
#[derive(Debug, Clone)]
pub struct SignedUp {
    pub player_id: Uuid,
    pub token: String,
}

impl App {
    /// Registers `name` as a new player who acts for themself, as `policy` allows
    /// (`FORBIDDEN` on a closed site, without a valid invite code on an invite-only one).
    pub async fn sign_up(
        &self,
        policy: SignUpPolicy,
        name: &str,
        invite_code: Option<&str>,
        new_token: NewToken,
        code_hash: impl Fn(&str) -> String,
    ) -> Result<SignedUp, AppError> {
        let player_id = PlayerId::from(Uuid::now_v7());
        let command = SignUpPlayer {
            actor: Actor::Player(player_id),
            player_id,
            name: name.to_owned(),
            token_hash: new_token.hash,
            policy,
            invite_hash: invite_code.map(str::trim).filter(|c| !c.is_empty()).map(code_hash),
        };
        self.execute(command, CommandOptions::default()).await?;
        Ok(SignedUp { player_id: player_id.uuid(), token: new_token.token })
    }

    /// An appointed organiser's new invite, valid for `days` days; `code` is its secret.
    pub async fn issue_invite(
        &self,
        actor: Actor,
        days: i64,
        code: NewToken,
    ) -> Result<IssuedInvite, AppError> {
        let Some(organiser) = actor.player_id() else {
            return Err(league_domain::DomainError::Forbidden(
                "only an appointed organiser issues invites, their own".into(),
            )
            .into());
        };
        let invite_id = Uuid::now_v7();
        let expires_at = Utc::now() + chrono::Duration::days(days);
        let command = IssueInvite {
            actor,
            player_id: organiser,
            invite_id,
            code_hash: code.hash,
            expires_at,
        };
        self.execute(command, CommandOptions::default()).await?;
        Ok(IssuedInvite { invite_id, code: code.token, expires_at })
    }

    /// `context` told what the log says of the invite a sign-up names (by its code's hash).
    pub(crate) async fn with_invite(
        &self,
        context: Context,
        command: &PlayerCommand,
    ) -> Result<Context, AppError> {
        let PlayerCommand::SignUp(SignUpPlayer { invite_hash: Some(hash), .. }) = command else {
            return Ok(context);
        };
        let types = [EventType::InviteIssued.as_str(), EventType::InviteRevoked.as_str()];
        let mut rows = self.store().read_types_until(&types, u64::MAX);
        let mut found: Option<(Uuid, InviteFacts)> = None;
        while let Some(row) = rows.try_next().await? {
            let raw = row.event()?;
            let event = league_projections::decode_event(
                raw.event_type,
                raw.schema_version.into(),
                raw.payload,
            )
            .map_err(AppError::internal)?;
            match event {
                DomainEvent::Player(PlayerEvent::InviteIssued(e)) if e.code_hash == *hash => {
                    found = Some((
                        e.invite_id,
                        InviteFacts { expires_at: e.expires_at, revoked: false },
                    ));
                }
                DomainEvent::Player(PlayerEvent::InviteRevoked(e)) => {
                    if let Some((id, facts)) = &mut found
                        && *id == e.invite_id
                    {
                        facts.revoked = true;
                    }
                }
                _ => {}
            }
        }
        Ok(Context { invite: found.map(|(_, facts)| facts), ..context })
    }
}
