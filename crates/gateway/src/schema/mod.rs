//! The GraphQL schema: queries over the in-memory read model, mutations mapped onto
//! domain commands, subscriptions over the application's live feed.
//!
//! One module per feature (leagues, players, tournaments, walk-ins, sign-up and invites,
//! ratings, the scoring catalogue, the audit log's events, feeds, webhooks, sessions,
//! passkeys, the identity provider, series), each with its queries, mutations,
//! subscriptions and object types; the roots below merge them in the order the fields
//! appear in `schema.graphql`. Below the features: the context every resolver reads
//! ([`context`]), shared inputs, pages, results and the live feed.

mod aggregation;
mod catalogue;
mod context;
mod events;
mod feeds;
mod identity;
mod inputs;
mod keep_apart;
mod leagues;
mod live;
mod pagination;
mod passkeys;
mod players;
mod ratings;
mod series;
mod sessions;
mod sign_up;
mod tie_break;
mod tournaments;
mod walk_ins;
mod webhooks;

use async_graphql::{MergedObject, MergedSubscription, Schema};
use league_app::App;

pub use inputs::{AsOf, GameResultInput, ScoringSystemValue};
pub use pagination::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};
pub use ratings::values::GameKindValue;

use crate::Shutdown;
use crate::config::GatewayConfig;
use crate::extension::ErrorCodes;

/// The query root: league and player reads, tournament reads, webhooks.
#[derive(Debug, Default, MergedObject)]
#[graphql(name = "Query")]
pub struct QueryRoot(
    leagues::query::LeagueQuery,
    players::query::PlayerQuery,
    leagues::query::LeagueStandingsQuery,
    ratings::RatingsQuery,
    catalogue::CatalogueQuery,
    events::EventQuery,
    tournaments::query::TournamentQuery,
    walk_ins::WalkInsQuery,
    sign_up::SignUpQuery,
    players::query::AccessQuery,
    webhooks::WebhookQuery,
    passkeys::PasskeyQuery,
    identity::IdentityQuery,
    sessions::SessionQuery,
    series::SeriesQuery,
);

/// The mutation root: each change needs a bearer token; the domain decides whether the
/// caller may.
#[derive(Debug, Default, MergedObject)]
#[graphql(name = "Mutation")]
pub struct MutationRoot(
    players::mutation::PlayerMutation,
    leagues::mutation::LeagueMutation,
    tournaments::mutation::TournamentMutation,
    tournaments::progress::ProgressMutation,
    tournaments::confirmation::ConfirmationMutation,
    walk_ins::WalkInsMutation,
    sign_up::InviteMutation,
    players::mutation::AccessMutation,
    feeds::FeedsMutation,
    webhooks::WebhookMutation,
    passkeys::PasskeyMutation,
    identity::IdentityMutation,
    sessions::SessionMutation,
    tournaments::times::TournamentTimesMutation,
    series::SeriesMutation,
    tournaments::awards::AwardsMutation,
    tournaments::teams::TeamsMutation,
    tournaments::powers::PowersMutation,
    tournaments::pools::PoolsMutation,
    tournaments::rulings::RulingsMutation,
    keep_apart::KeepApartMutation,
);

/// Live updates over `/graphql/ws` (graphql-transport-ws or graphql-ws); authenticate in
/// `connection_init` with `{"authorization": "Bearer <token>"}` (optional: reads are public).
#[derive(Debug, Default, MergedSubscription)]
#[graphql(name = "Subscription")]
pub struct SubscriptionRoot(
    leagues::subscription::LeagueSubscription,
    tournaments::subscription::TournamentSubscription,
    tournaments::progress::ProgressSubscription,
);

/// The gateway's schema type.
pub type GatewaySchema = Schema<QueryRoot, MutationRoot, SubscriptionRoot>;

/// The schema serving `app`, with the configured depth and complexity limits;
/// subscriptions end when `shutdown` fires.
pub fn build_schema(app: App, config: &GatewayConfig, shutdown: Shutdown) -> GatewaySchema {
    builder_for(app, config, shutdown).finish()
}

/// [`build_schema`] before `finish`, for the HTTP side to add its own extensions.
pub(crate) fn builder_for(
    app: App,
    config: &GatewayConfig,
    shutdown: Shutdown,
) -> async_graphql::SchemaBuilder<QueryRoot, MutationRoot, SubscriptionRoot> {
    builder()
        .data(app)
        .data(shutdown)
        .data(config.webhooks.clone().unwrap_or_default())
        .data(crate::passkey::Registrations::new())
        .data(identity::SiteIdentityProvider(config.identity_provider.clone()))
        .data(config.sign_up)
        .data(config.sessions)
        .extension(ErrorCodes::new(
            config.max_depth,
            config.max_introspection_depth,
            config.max_complexity,
        ))
}

/// The exported SDL (what `schema.graphql` holds).
pub fn sdl() -> String {
    builder().finish().sdl()
}

fn builder() -> async_graphql::SchemaBuilder<QueryRoot, MutationRoot, SubscriptionRoot> {
    Schema::build(QueryRoot::default(), MutationRoot::default(), SubscriptionRoot::default())
}
