//! The site's identity provider in GraphQL (`docs/sign-in.md#identity-providers`): how one
//! may sign in here (`signInMethods`: the provider's name, and whether the calling player
//! linked an identity of it), and unlinking (`unlinkIdentity`). Linking itself happens in
//! the provider's callback (`/auth/oidc/callback`, [`crate::oidc`]), which alone holds a
//! verified ID token.

use async_graphql::{Context, ID, Object, SimpleObject};
use league_domain::UnlinkIdentity;

use crate::auth::Caller;
use crate::config::IdentityProviderConfig;
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{app, caller, execute, subject};
use crate::schema::players::types::Player;

/// The configured identity provider (schema data; `None` when there is none).
#[derive(Debug, Clone, Default)]
pub(crate) struct SiteIdentityProvider(pub Option<IdentityProviderConfig>);

/// The ways to sign in on this site besides a token.
#[derive(Debug, SimpleObject)]
pub struct SignInMethods {
    /// The OpenID Connect provider one may sign in with, if the site has one.
    identity_provider: Option<IdentityProvider>,
}

/// An identity provider, as a sign-in page shows it.
#[derive(Debug, SimpleObject)]
pub struct IdentityProvider {
    /// The name people know it by ("Sign in with <name>").
    name: String,
    /// Whether the calling player linked an identity of it (false for anyone else).
    linked: bool,
}

fn site_provider<'a>(ctx: &Context<'a>) -> Option<&'a IdentityProviderConfig> {
    ctx.data_opt::<SiteIdentityProvider>().and_then(|site| site.0.as_ref())
}

/// The sign-in methods query (merged into the query root).
#[derive(Debug, Default)]
pub struct IdentityQuery;

#[Object]
impl IdentityQuery {
    /// How one may sign in here besides a token: the site's identity provider, if any.
    async fn sign_in_methods(&self, ctx: &Context<'_>) -> SignInMethods {
        let identity_provider = site_provider(ctx).map(|provider| {
            let linked = match caller(ctx) {
                Caller::Player(id) => app(ctx)
                    .catalog()
                    .identities(id)
                    .iter()
                    .any(|identity| identity.issuer == provider.issuer),
                _ => false,
            };
            IdentityProvider { name: provider.name.clone(), linked }
        });
        SignInMethods { identity_provider }
    }
}

/// Unlinking an identity (merged into the mutation root).
#[derive(Debug, Default)]
pub struct IdentityMutation;

#[Object]
impl IdentityMutation {
    /// Unlinks the player's identity of the site's provider: their own (`playerId` omitted
    /// or their own), or anyone's by the site admin. It no longer signs them in.
    async fn unlink_identity(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<Player> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player_id = subject(caller, player_id)?;
        let issuer =
            site_provider(ctx).map(|provider| provider.issuer.clone()).ok_or_else(|| {
                GatewayError::bad_input("identity", "this site has no identity provider")
            })?;
        execute(ctx, UnlinkIdentity { actor, player_id: player_id.into(), issuer }, None).await?;
        Ok(Player::new(app(ctx).clone(), player_id))
    }
}
