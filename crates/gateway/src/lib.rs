//! GraphQL gateway: the platform's public API for web frontends and admins, async-graphql on
//! axum + tokio.
//!
//! Resolvers are thin: reads come from the application's in-memory read model, mutations
//! become domain commands run by [`league_app::App`]; every rule (including who may do
//! what) lives in the domain. The gateway authenticates callers (bearer tokens, see
//! [`auth`], or a browser's session cookie, see [`session`]) and maps errors onto `extensions.code` (see [`error`]).
//!
//! Routes: `POST /graphql`, `GET /graphql?query=…` (cacheable reads), `GET /graphql/ws`
//! (graphql-transport-ws and graphql-ws, limits in [`ws`]), `GET /healthz`, `GET /metrics`
//! (Prometheus, see [`metrics`]), and the embedded web app (`GET /`, deep links) and GraphiQL
//! (`GET /graphiql`), see [`web`]; a player's calendar feed, competition exports and the
//! embeddable standings pages (`/calendar/…`, `/export/…`, `/embed/…`), see [`feeds`]; a
//! person signing up where the site allows it (`/auth/sign-up`), see [`sign_up`].
//! embeddable standings pages (`/calendar/…`, `/export/…`, `/embed/…`), see [`feeds`];
//! signing in and out with a session cookie (`/auth/…`), see [`session`]; sign-in with the
//! site's identity provider (`/auth/oidc/…`), see [`oidc`].

pub mod auth;
pub mod config;
pub mod error;
mod extension;
mod feeds;
mod http;
pub mod metrics;
mod oidc;
mod passkey;
pub mod rate_limit;
pub mod schema;
pub mod session;
mod shutdown;
pub mod sign_up;
mod web;
pub mod ws;

pub use auth::{Caller, generate_token, hash_token};
pub use config::GatewayConfig;
pub use error::GatewayError;
pub use http::{ClientAddr, router, run};
pub use schema::{GatewaySchema, build_schema, sdl};
pub use shutdown::Shutdown;

/// The id of the HTTP request being served (`x-request-id`), used as the correlation id
/// of the events a mutation appends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestId(pub uuid::Uuid);
