//! Passkeys of a signed-in player (`docs/sign-in.md#passkeys`): listing them, adding one
//! (a WebAuthn registration begun and finished here, verified by [`crate::passkey`]) and
//! removing one. Signing in with a passkey is REST (`/auth/passkey/…`), since it sets the
//! session cookie.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_app::PasskeyData;
use league_domain::{AddPasskey, RemovePasskey};
use uuid::Uuid;

use crate::auth::Caller;
use crate::error::{GatewayError, GatewayResult};
use crate::feeds::RequestOrigin;
use crate::passkey::{Registrations, RelyingParty, begin_registration, finish_registration};
use crate::schema::context::{app, caller, execute, subject};
use crate::schema::inputs::parse_id;

/// One of a player's passkeys.
#[derive(Debug, SimpleObject)]
pub struct Passkey {
    pub id: ID,
    /// What the player called it ("My phone").
    pub name: Option<String>,
    pub added_at: DateTime<Utc>,
}

impl From<PasskeyData> for Passkey {
    fn from(data: PasskeyData) -> Passkey {
        Passkey { id: ID(data.passkey_id.to_string()), name: data.name, added_at: data.added_at }
    }
}

/// Passkey reads (merged into the query root).
#[derive(Debug, Default)]
pub struct PasskeyQuery;

#[Object]
impl PasskeyQuery {
    /// A player's passkeys, in the order added: the calling player's own (`playerId`
    /// omitted or their own), or anyone's for the site admin.
    async fn passkeys(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<Vec<Passkey>> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        Ok(app(ctx).passkeys(actor, player)?.into_iter().map(Passkey::from).collect())
    }
}

/// Passkey changes (merged into the mutation root).
#[derive(Debug, Default)]
pub struct PasskeyMutation;

#[Object]
impl PasskeyMutation {
    /// A signed-in player begins adding a passkey: the options to hand to
    /// `navigator.credentials.create` (`PublicKeyCredentialCreationOptionsJSON` as text),
    /// valid for five minutes, once.
    async fn begin_adding_passkey(&self, ctx: &Context<'_>) -> GatewayResult<String> {
        let player = calling_player(ctx)?;
        let app = app(ctx);
        let name = app.catalog().player(player).map(|p| p.name.clone()).unwrap_or_default();
        let existing = app.passkey_credentials(player);
        begin_registration(registrations(ctx), &relying_party(ctx)?, player, &name, existing)
    }

    /// Finishes adding a passkey: `response` is the new credential as
    /// `PublicKeyCredential.toJSON()` gives it (`RegistrationResponseJSON` as text), `name`
    /// what the player calls the passkey. Refused (`BAD_USER_INPUT`, field `response`) when
    /// the challenge is unknown, used or expired, or the origin, RP ID, signature or user
    /// verification does not check out.
    async fn add_passkey(
        &self,
        ctx: &Context<'_>,
        name: String,
        response: String,
    ) -> GatewayResult<Passkey> {
        let player = calling_player(ctx)?;
        let credential =
            finish_registration(registrations(ctx), &relying_party(ctx)?, player, &response)?;
        let passkey_id = Uuid::now_v7();
        let actor = caller(ctx).actor()?;
        execute(
            ctx,
            AddPasskey { actor, player_id: player.into(), passkey_id, credential, name },
            None,
        )
        .await?;
        app(ctx)
            .passkeys(actor, player)?
            .into_iter()
            .find(|passkey| passkey.passkey_id == passkey_id)
            .map(Passkey::from)
            .ok_or_else(|| GatewayError::NotFound(format!("passkey {passkey_id}")))
    }

    /// Removes a passkey: one of the calling player's own (`playerId` omitted or their own),
    /// or anyone's for the site admin. It signs in no more, on any gateway.
    async fn remove_passkey(
        &self,
        ctx: &Context<'_>,
        passkey_id: ID,
        player_id: Option<ID>,
    ) -> GatewayResult<bool> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        let passkey_id = parse_id(&passkey_id, "passkeyId")?;
        execute(ctx, RemovePasskey { actor, player_id: player.into(), passkey_id }, None).await?;
        Ok(true)
    }
}

/// The calling player: passkeys are added by players to their own record.
fn calling_player(ctx: &Context<'_>) -> GatewayResult<Uuid> {
    match caller(ctx) {
        Caller::Player(id) => Ok(id),
        Caller::Admin => Err(GatewayError::App(league_app::AppError::from(
            league_domain::DomainError::Forbidden(
                "only a player may add a passkey, to their own record".into(),
            ),
        ))),
        Caller::Anonymous => Err(GatewayError::Unauthenticated("sign in to add a passkey")),
    }
}

fn registrations<'a>(ctx: &Context<'a>) -> &'a Registrations {
    ctx.data_unchecked::<Registrations>()
}

/// The relying party of the request (its origin); a passkey is added over HTTP.
fn relying_party(ctx: &Context<'_>) -> GatewayResult<RelyingParty> {
    let origin = ctx
        .data_opt::<RequestOrigin>()
        .ok_or_else(|| GatewayError::bad_input("response", "passkeys are added over HTTP"))?;
    RelyingParty::of(origin)
}
