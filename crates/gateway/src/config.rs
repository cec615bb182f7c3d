//! How a gateway is configured: the admin token, CORS origins and the limits that keep
//! abusive requests out. `league serve` fills it from flags and environment variables.

use std::time::Duration;

/// Everything [`crate::run`] needs besides the listener and the application.
#[derive(Clone)]
pub struct GatewayConfig {
    /// The bearer token that authenticates the admin.
    pub admin_token: String,
    /// Browser origins allowed by CORS (`["*"]` allows any origin; empty allows none).
    pub cors_origins: Vec<String>,
    /// Largest accepted POST body, in bytes.
    pub max_body_bytes: usize,
    /// Deepest accepted selection nesting.
    pub max_depth: usize,
    /// Deepest accepted nesting of a document that reads only the schema (introspection).
    pub max_introspection_depth: usize,
    /// Largest accepted query complexity (one per field, list fields count their page size).
    pub max_complexity: usize,
    /// How long graceful shutdown waits for in-flight requests before giving up.
    pub shutdown_grace: Duration,
}

impl std::fmt::Debug for GatewayConfig {
    /// Never prints the admin token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayConfig")
            .field("admin_token", &"<redacted>")
            .field("cors_origins", &self.cors_origins)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_depth", &self.max_depth)
            .field("max_introspection_depth", &self.max_introspection_depth)
            .field("max_complexity", &self.max_complexity)
            .field("shutdown_grace", &self.shutdown_grace)
            .finish()
    }
}

/// Default largest POST body: 1 MiB is far more than any legitimate query or result.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1024 * 1024;
/// Default deepest nesting: `leagues → edges → node → games → seats → player → …` needs ~8.
pub const DEFAULT_MAX_DEPTH: usize = 12;
/// Default deepest nesting of an introspection-only document: the standard introspection
/// query (graphql-js `getIntrospectionQuery()`) is 15 deep, a few levels spare for variants.
pub const DEFAULT_MAX_INTROSPECTION_DEPTH: usize = 20;
/// Default largest complexity.
pub const DEFAULT_MAX_COMPLEXITY: usize = 5_000;

impl GatewayConfig {
    /// A configuration with the given admin token and the default limits; no CORS origin.
    pub fn new(admin_token: impl Into<String>) -> Self {
        GatewayConfig {
            admin_token: admin_token.into(),
            cors_origins: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_introspection_depth: DEFAULT_MAX_INTROSPECTION_DEPTH,
            max_complexity: DEFAULT_MAX_COMPLEXITY,
            shutdown_grace: Duration::from_secs(10),
        }
    }

    /// Parses a comma-separated origin list (`LEAGUE_CORS_ORIGINS`), dropping blanks.
    pub fn parse_origins(list: &str) -> Vec<String> {
        list.split(',').map(str::trim).filter(|o| !o.is_empty()).map(str::to_owned).collect()
    }
}
