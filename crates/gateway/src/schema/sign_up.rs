//! Sign-up over GraphQL (`docs/operations.md#sign-up`): the site's policy, and an
//! organiser's invites (issued with a code shown only once, revoked by the organiser or the
//! site admin). The sign-up itself is `POST /auth/sign-up` ([`crate::sign_up`]), since it
//! starts the new player's session.

use async_graphql::{Context, Enum, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_app::NewToken;
use league_domain::{RevokeInvite, SignUpPolicy};

use crate::auth::{generate_token, hash_token};
use crate::error::GatewayResult;
use crate::schema::context::{app, caller, execute, subject};
use crate::schema::inputs::parse_id;

/// How long an invite lasts unless the organiser says otherwise.
const DEFAULT_INVITE_DAYS: i32 = 14;

/// Who may register themself on this site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum SignUpPolicyValue {
    /// Nobody: organisers and the site admin register people.
    Closed,
    /// A person with an organiser's invite code or link.
    Invite,
    /// Anyone.
    Open,
}

impl From<SignUpPolicy> for SignUpPolicyValue {
    fn from(policy: SignUpPolicy) -> Self {
        match policy {
            SignUpPolicy::Closed => SignUpPolicyValue::Closed,
            SignUpPolicy::Invite => SignUpPolicyValue::Invite,
            SignUpPolicy::Open => SignUpPolicyValue::Open,
        }
    }
}

/// A new invite: its code is shown only this once (the log keeps its hash).
#[derive(Debug, SimpleObject)]
pub struct Invite {
    pub id: ID,
    pub code: String,
    /// The sign-up page with the code filled in: `/signup?invite=<code>`.
    pub link: String,
    pub expires_at: DateTime<Utc>,
}

/// The site's sign-up policy (merged into the query root).
#[derive(Debug, Default)]
pub struct SignUpQuery;

#[Object]
impl SignUpQuery {
    /// Who may register themself here (`POST /auth/sign-up`).
    async fn sign_up_policy(&self, ctx: &Context<'_>) -> SignUpPolicyValue {
        ctx.data_opt::<SignUpPolicy>().copied().unwrap_or_default().into()
    }
}

/// Invites (merged into the mutation root).
#[derive(Debug, Default)]
pub struct InviteMutation;

#[Object]
impl InviteMutation {
    /// An appointed organiser: an invite code that lets people sign up on an invite-only
    /// site for `days` days (1 to 90; default 14).
    async fn issue_invite(&self, ctx: &Context<'_>, days: Option<i32>) -> GatewayResult<Invite> {
        let days = days.unwrap_or(DEFAULT_INVITE_DAYS);
        let actor = caller(ctx).actor()?;
        let code = generate_token();
        let new = NewToken { hash: hash_token(&code), token: code };
        let issued = app(ctx).issue_invite(actor, i64::from(days), new).await?;
        Ok(Invite {
            id: ID(issued.invite_id.to_string()),
            link: format!("/signup?invite={}", issued.code),
            code: issued.code,
            expires_at: issued.expires_at,
        })
    }

    /// The organiser who issued it (`organiserId` omitted: the caller) or the site admin:
    /// the invite's code signs nobody up any more. Answers with the invite's id.
    async fn revoke_invite(
        &self,
        ctx: &Context<'_>,
        invite_id: ID,
        organiser_id: Option<ID>,
    ) -> GatewayResult<ID> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let organiser = subject(caller, organiser_id)?;
        let invite = parse_id(&invite_id, "inviteId")?;
        let command = RevokeInvite { actor, player_id: organiser.into(), invite_id: invite };
        execute(ctx, command, None).await?;
        Ok(invite_id)
    }
}
