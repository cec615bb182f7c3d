//! The GraphQL schema: queries over the in-memory read model, mutations mapped onto
//! domain commands, subscriptions over the application's live feed.

mod access;
mod aggregation;
mod catalogue;
mod feeds;
mod inputs;
mod mutation;
mod pagination;
mod query;
mod ratings;
mod subscription;
mod tournament;
mod types;
mod webhooks;

use async_graphql::{Context, MergedObject, Schema};
use league_app::App;

pub use inputs::{AsOf, GameResultInput, ScoringSystemValue};
pub use ratings::GameKindValue;
pub use subscription::SubscriptionRoot;

use crate::Shutdown;
use crate::auth::Caller;
use crate::config::GatewayConfig;
use crate::extension::ErrorCodes;

/// The query root: league and player reads, tournament reads, webhooks.
#[derive(Debug, Default, MergedObject)]
#[graphql(name = "Query")]
pub struct QueryRoot(
    query::LeagueQuery,
    tournament::TournamentQuery,
    access::AccessQuery,
    webhooks::WebhookQuery,
);

/// The mutation root: each change needs a bearer token; the domain decides whether the
/// caller may.
#[derive(Debug, Default, MergedObject)]
#[graphql(name = "Mutation")]
pub struct MutationRoot(
    mutation::LeagueMutation,
    tournament::TournamentMutation,
    access::AccessMutation,
    feeds::FeedsMutation,
    webhooks::WebhookMutation,
);

/// The gateway's schema type.
pub type GatewaySchema = Schema<QueryRoot, MutationRoot, SubscriptionRoot>;

/// Largest page any connection serves (`first` above it is `BAD_USER_INPUT`).
pub const MAX_PAGE_SIZE: usize = 100;
/// Page size when `first` is omitted.
pub const DEFAULT_PAGE_SIZE: usize = 20;

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
    builder().data(app).data(shutdown).data(config.webhooks.clone().unwrap_or_default()).extension(
        ErrorCodes::new(config.max_depth, config.max_introspection_depth, config.max_complexity),
    )
}

/// The exported SDL (what `schema.graphql` holds).
pub fn sdl() -> String {
    builder().finish().sdl()
}

fn builder() -> async_graphql::SchemaBuilder<QueryRoot, MutationRoot, SubscriptionRoot> {
    Schema::build(QueryRoot::default(), MutationRoot::default(), SubscriptionRoot)
}

/// The application (schema data, always present in a served schema).
pub(crate) fn app<'a>(ctx: &Context<'a>) -> &'a App {
    ctx.data_unchecked::<App>()
}

/// Who is calling (request or connection data; anonymous when absent).
pub(crate) fn caller(ctx: &Context<'_>) -> Caller {
    ctx.data_opt::<Caller>().copied().unwrap_or(Caller::Anonymous)
}
