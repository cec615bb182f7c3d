//! How a gateway is configured: the admin token, CORS origins, the identity provider people
//! may sign in with, and the limits that keep abusive requests out (sizes, timeouts,
//! WebSocket caps, rate limits). `league serve`
//! fills it from flags and environment variables ([`GatewayConfig::with_env`]).

use std::time::Duration;

/// Everything [`crate::run`] needs besides the listener and the application.
#[derive(Clone)]
pub struct GatewayConfig {
    /// The bearer token that authenticates the admin.
    pub admin_token: String,
    /// Browser origins allowed by CORS (`["*"]` allows any origin; empty allows none).
    pub cors_origins: Vec<String>,
    /// Sites that may show the embeddable standings pages (`/embed/…`) in a frame: CSP
    /// `frame-ancestors` sources (`["*"]`, the default, allows any site). Every other page
    /// refuses to be framed.
    pub frame_ancestors: Vec<String>,
    /// Largest accepted POST body, in bytes.
    pub max_body_bytes: usize,
    /// Deepest accepted selection nesting.
    pub max_depth: usize,
    /// Deepest accepted nesting of a document that reads only the schema (introspection).
    pub max_introspection_depth: usize,
    /// Largest accepted query complexity (one per field; lists count once per element
    /// they may hold, connections once per node of the page asked for).
    pub max_complexity: usize,
    /// How long graceful shutdown waits for in-flight requests before giving up.
    pub shutdown_grace: Duration,
    /// How long a client may take to send a request's headers before it is disconnected.
    pub header_read_timeout: Duration,
    /// How long one HTTP request (body read and execution) may take before `408`.
    pub request_timeout: Duration,
    /// WebSocket limits.
    pub ws: WsLimits,
    /// Rate limits per token, or per client address for anonymous callers.
    pub rate: RateLimits,
    /// Documents kept by automatic persisted queries (an LRU cache).
    pub persisted_queries: usize,
    /// Answers of queries kept, keyed by the read model's position and the request
    /// (an LRU cache; 0 = off). A key never outlives its position, so no answer is stale.
    pub response_cache: usize,
    /// Webhook deliveries (`docs/webhooks.md`): registration checks addresses with these
    /// settings; whoever serves the gateway runs the delivery worker with them when set
    /// (`league serve`, the test harness), [`crate::run`] serves HTTP only.
    pub webhooks: Option<league_webhooks::WebhookSettings>,
    /// Who may register themself (`docs/operations.md#sign-up`): nobody (the default), a
    /// person with an organiser's invite code, or anyone.
    pub sign_up: SignUpPolicy,
    /// Self-registrations per hour from one client address, and how many at once (`0` per
    /// hour switches the limit off).
    pub sign_ups_per_hour: u32,
    pub sign_ups_burst: u32,
    /// How long browser sessions and sign-in links last (`docs/sign-in.md`).
    pub sessions: crate::session::SessionConfig,
    /// The OpenID Connect provider people may sign in with (`docs/sign-in.md#identity-providers`),
    /// if the operator configured one.
    pub identity_provider: Option<IdentityProviderConfig>,
}

/// An OpenID Connect provider the site's players may sign in with, as registered there:
/// the gateway is a confidential client (authorization code flow with PKCE), its callback
/// address `<site>/auth/oidc/callback`.
#[derive(Clone, PartialEq, Eq)]
pub struct IdentityProviderConfig {
    /// The issuer address (discovery: `<issuer>/.well-known/openid-configuration`).
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
    /// The name people know the provider by ("Sign in with <name>").
    pub name: String,
}

impl IdentityProviderConfig {
    /// The provider from its four settings, all or none: `Ok(None)` when none is set, an
    /// error naming the first one missing (or an issuer that is not an http(s) address)
    /// otherwise. `name` defaults to the issuer's host.
    pub fn from_settings(
        issuer: Option<&str>,
        client_id: Option<&str>,
        client_secret: Option<&str>,
        name: Option<&str>,
    ) -> Result<Option<IdentityProviderConfig>, String> {
        let given = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
        let (issuer, client_id, client_secret, name) =
            (given(issuer), given(client_id), given(client_secret), given(name));
        if issuer.is_none() && client_id.is_none() && client_secret.is_none() {
            return Ok(None);
        }
        let issuer = issuer.ok_or("--oidc-issuer is missing")?;
        let url = url::Url::parse(&issuer)
            .ok()
            .filter(|url| matches!(url.scheme(), "https" | "http") && url.host_str().is_some())
            .ok_or_else(|| format!("--oidc-issuer: {issuer:?} is not an http(s) address"))?;
        let client_id = client_id.ok_or("--oidc-client-id is missing")?;
        let client_secret = client_secret.ok_or("--oidc-client-secret is missing")?;
        let name = name.unwrap_or_else(|| url.host_str().unwrap_or_default().to_owned());
        Ok(Some(IdentityProviderConfig { issuer, client_id, client_secret, name }))
    }
}

impl std::fmt::Debug for IdentityProviderConfig {
    /// Never prints the client secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdentityProviderConfig")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("client_secret", &"<redacted>")
            .field("name", &self.name)
            .finish()
    }
}

pub use league_domain::SignUpPolicy;

/// Parses a sign-up policy (`--sign-up`, `LEAGUE_SIGN_UP`): `closed`, `invite` or `open`.
pub fn parse_sign_up(value: &str) -> Result<SignUpPolicy, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "closed" | "" => Ok(SignUpPolicy::Closed),
        "invite" => Ok(SignUpPolicy::Invite),
        "open" => Ok(SignUpPolicy::Open),
        other => Err(format!("{other:?} is not closed, invite or open")),
    }
}

/// Default self-registrations per hour and per burst from one client address.
pub const DEFAULT_SIGN_UPS_PER_HOUR: u32 = 20;
pub const DEFAULT_SIGN_UPS_BURST: u32 = 5;

/// Limits of `/graphql/ws`.
#[derive(Debug, Clone, Copy)]
pub struct WsLimits {
    /// Time a connection has to send `connection_init` before it is closed with 4408.
    pub init_timeout: Duration,
    /// Interval of WebSocket pings; a peer silent for two intervals is disconnected.
    pub keepalive: Duration,
    /// Open connections in total; the next one is closed with 4429.
    pub max_connections: usize,
    /// Open connections per client address; the next one is closed with 4429.
    pub max_connections_per_addr: usize,
    /// Active subscriptions per connection; the next `subscribe` gets an `error` message
    /// (`extensions.code = "TOO_MANY_SUBSCRIPTIONS"`).
    pub max_subscriptions: usize,
}

/// Token-bucket rate limits (`0` per second switches a limit off).
#[derive(Debug, Clone, Copy)]
pub struct RateLimits {
    /// Every GraphQL request (reads and mutations) per second, per key.
    pub requests_per_second: u32,
    /// Requests a key may send at once before the per-second rate applies.
    pub requests_burst: u32,
    /// Mutations per minute, per key (on top of the request limit).
    pub mutations_per_minute: u32,
    /// Mutations a key may send at once before the per-minute rate applies.
    pub mutations_burst: u32,
}

impl RateLimits {
    /// No limit at all (benchmarks measure the server, not the limiter).
    pub const OFF: RateLimits = RateLimits {
        requests_per_second: 0,
        requests_burst: 0,
        mutations_per_minute: 0,
        mutations_burst: 0,
    };
}

impl std::fmt::Debug for GatewayConfig {
    /// Never prints the admin token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayConfig")
            .field("admin_token", &"<redacted>")
            .field("cors_origins", &self.cors_origins)
            .field("frame_ancestors", &self.frame_ancestors)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_depth", &self.max_depth)
            .field("max_introspection_depth", &self.max_introspection_depth)
            .field("max_complexity", &self.max_complexity)
            .field("shutdown_grace", &self.shutdown_grace)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("ws", &self.ws)
            .field("rate", &self.rate)
            .field("persisted_queries", &self.persisted_queries)
            .field("response_cache", &self.response_cache)
            .field("webhooks", &self.webhooks)
            .field("identity_provider", &self.identity_provider)
            .field("sign_up", &self.sign_up)
            .field("sign_ups_per_hour", &self.sign_ups_per_hour)
            .field("sign_ups_burst", &self.sign_ups_burst)
            .field("sessions", &self.sessions)
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
/// Default largest complexity: the web app's league page (players, standings and every
/// game of a largest league, each list weighed by its largest size) stays below it.
pub const DEFAULT_MAX_COMPLEXITY: usize = 5_000;

/// Defaults of the limits set by environment variables (see `docs/operations.md`, Running).
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
pub const DEFAULT_WS: WsLimits = WsLimits {
    init_timeout: Duration::from_secs(10),
    keepalive: Duration::from_secs(15),
    max_connections: 10_000,
    max_connections_per_addr: 64,
    max_subscriptions: 32,
};
pub const DEFAULT_RATE: RateLimits = RateLimits {
    requests_per_second: 200,
    requests_burst: 400,
    mutations_per_minute: 600,
    mutations_burst: 120,
};
pub const DEFAULT_PERSISTED_QUERIES: usize = 1_000;
pub const DEFAULT_RESPONSE_CACHE: usize = 1_024;

/// A setting that could not be read from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The environment variable.
    pub variable: &'static str,
    /// Why its value was refused.
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.variable, self.message)
    }
}

impl std::error::Error for ConfigError {}

impl GatewayConfig {
    /// A configuration with the given admin token and the default limits; no CORS origin.
    pub fn new(admin_token: impl Into<String>) -> Self {
        GatewayConfig {
            admin_token: admin_token.into(),
            cors_origins: Vec::new(),
            frame_ancestors: vec!["*".to_owned()],
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_introspection_depth: DEFAULT_MAX_INTROSPECTION_DEPTH,
            max_complexity: DEFAULT_MAX_COMPLEXITY,
            shutdown_grace: Duration::from_secs(10),
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            ws: DEFAULT_WS,
            rate: DEFAULT_RATE,
            persisted_queries: DEFAULT_PERSISTED_QUERIES,
            response_cache: DEFAULT_RESPONSE_CACHE,
            webhooks: None,
            identity_provider: None,
            sign_up: SignUpPolicy::Closed,
            sign_ups_per_hour: DEFAULT_SIGN_UPS_PER_HOUR,
            sign_ups_burst: DEFAULT_SIGN_UPS_BURST,
            sessions: crate::session::SessionConfig::default(),
        }
    }

    /// Parses a comma-separated origin list (`LEAGUE_CORS_ORIGINS`), dropping blanks.
    pub fn parse_origins(list: &str) -> Vec<String> {
        list.split(',').map(str::trim).filter(|o| !o.is_empty()).map(str::to_owned).collect()
    }

    /// Parses the sites allowed to frame the embed pages (`--frame-ancestors`,
    /// `LEAGUE_FRAME_ANCESTORS`): CSP `frame-ancestors` sources separated by commas or
    /// blanks, e.g. `https://club.example https://*.league.example`, `*`, or `'none'`.
    /// A source that would break out of the policy (`;`, quotes around anything but `none`
    /// or `self`, control characters) is refused, naming it; an empty list means `*`.
    pub fn parse_frame_ancestors(list: &str) -> Result<Vec<String>, String> {
        let sources: Vec<String> = list
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        for source in &sources {
            let keyword = matches!(source.as_str(), "'none'" | "'self'");
            let plain =
                source.chars().all(|c| c.is_ascii_graphic() && !matches!(c, ';' | '\'' | '"'));
            if !keyword && !plain {
                return Err(format!("{source:?} is not a frame-ancestors source"));
            }
        }
        Ok(if sources.is_empty() { vec!["*".to_owned()] } else { sources })
    }

    /// This configuration with every limit the process environment sets (variables below;
    /// unset keeps the current value).
    pub fn with_env(self) -> Result<Self, ConfigError> {
        self.with_vars(|name| std::env::var(name).ok())
    }

    /// [`Self::with_env`] over any source of variables (tests pass a map).
    pub fn with_vars(mut self, var: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let number = |variable: &'static str| -> Result<Option<u64>, ConfigError> {
            match var(variable).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) {
                None => Ok(None),
                Some(value) => value.parse::<u64>().map(Some).map_err(|_| ConfigError {
                    variable,
                    message: format!("{value:?} is not a whole number"),
                }),
            }
        };
        let seconds = |variable: &'static str| -> Result<Option<Duration>, ConfigError> {
            match var(variable).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) {
                None => Ok(None),
                Some(value) => match value.parse::<f64>() {
                    Ok(s) if s.is_finite() && s > 0.0 => Ok(Some(Duration::from_secs_f64(s))),
                    _ => Err(ConfigError {
                        variable,
                        message: format!("{value:?} is not a positive number of seconds"),
                    }),
                },
            }
        };
        let positive = |variable: &'static str| -> Result<Option<u64>, ConfigError> {
            match number(variable)? {
                Some(0) => Err(ConfigError { variable, message: "must be at least 1".to_owned() }),
                other => Ok(other),
            }
        };
        let as_u32 = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        let as_usize = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        if let Some(v) = seconds("LEAGUE_HEADER_READ_TIMEOUT_SECS")? {
            self.header_read_timeout = v;
        }
        if let Some(v) = seconds("LEAGUE_REQUEST_TIMEOUT_SECS")? {
            self.request_timeout = v;
        }
        if let Some(v) = seconds("LEAGUE_WS_INIT_TIMEOUT_SECS")? {
            self.ws.init_timeout = v;
        }
        if let Some(v) = seconds("LEAGUE_WS_KEEPALIVE_SECS")? {
            self.ws.keepalive = v;
        }
        if let Some(v) = number("LEAGUE_WS_MAX_CONNECTIONS")? {
            self.ws.max_connections = as_usize(v);
        }
        if let Some(v) = number("LEAGUE_WS_MAX_CONNECTIONS_PER_ADDR")? {
            self.ws.max_connections_per_addr = as_usize(v);
        }
        if let Some(v) = number("LEAGUE_WS_MAX_SUBSCRIPTIONS")? {
            self.ws.max_subscriptions = as_usize(v);
        }
        if let Some(v) = number("LEAGUE_RATE_REQUESTS_PER_SEC")? {
            self.rate.requests_per_second = as_u32(v);
        }
        if let Some(v) = number("LEAGUE_RATE_REQUESTS_BURST")? {
            self.rate.requests_burst = as_u32(v);
        }
        if let Some(v) = number("LEAGUE_RATE_MUTATIONS_PER_MIN")? {
            self.rate.mutations_per_minute = as_u32(v);
        }
        if let Some(v) = number("LEAGUE_RATE_MUTATIONS_BURST")? {
            self.rate.mutations_burst = as_u32(v);
        }
        if let Some(v) = number("LEAGUE_PERSISTED_QUERIES")? {
            self.persisted_queries = as_usize(v).max(1);
        }
        if let Some(v) = number("LEAGUE_RESPONSE_CACHE")? {
            self.response_cache = as_usize(v);
        }
        if let Some(v) = number("LEAGUE_SIGN_UPS_PER_HOUR")? {
            self.sign_ups_per_hour = as_u32(v);
        }
        if let Some(v) = number("LEAGUE_SIGN_UPS_BURST")? {
            self.sign_ups_burst = as_u32(v);
        }
        if let Some(days) = positive("LEAGUE_SESSION_DAYS")? {
            self.sessions.lifetime = Duration::from_secs(days.saturating_mul(24 * 3600));
        }
        if let Some(hours) = positive("LEAGUE_SIGN_IN_LINK_HOURS")? {
            let most = u64::try_from(league_domain::MAX_SIGN_IN_LINK_DAYS).unwrap_or(30) * 24;
            if hours > most {
                return Err(ConfigError {
                    variable: "LEAGUE_SIGN_IN_LINK_HOURS",
                    message: format!("{hours} is more than {most} hours"),
                });
            }
            self.sessions.link_lifetime = Duration::from_secs(hours * 3600);
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_override_defaults_and_bad_values_name_the_variable() {
        let vars = |name: &str| match name {
            "LEAGUE_WS_INIT_TIMEOUT_SECS" => Some("0.5".to_owned()),
            "LEAGUE_RATE_MUTATIONS_PER_MIN" => Some("3".to_owned()),
            _ => None,
        };
        let config = GatewayConfig::new("a").with_vars(vars).unwrap();
        assert_eq!(config.ws.init_timeout, Duration::from_millis(500));
        assert_eq!(config.rate.mutations_per_minute, 3);
        assert_eq!(config.rate.requests_per_second, DEFAULT_RATE.requests_per_second);
        let error = GatewayConfig::new("a")
            .with_vars(|name| (name == "LEAGUE_WS_MAX_SUBSCRIPTIONS").then(|| "many".to_owned()))
            .unwrap_err();
        assert_eq!(error.variable, "LEAGUE_WS_MAX_SUBSCRIPTIONS");
        let error = GatewayConfig::new("a")
            .with_vars(|name| (name == "LEAGUE_REQUEST_TIMEOUT_SECS").then(|| "0".to_owned()))
            .unwrap_err();
        assert_eq!(error.variable, "LEAGUE_REQUEST_TIMEOUT_SECS");
    }

    #[test]
    fn an_identity_provider_needs_its_issuer_client_and_secret_and_never_prints_the_secret() {
        let from = IdentityProviderConfig::from_settings;
        assert_eq!(from(None, None, None, Some("Club")), Ok(None));
        let provider = from(Some("https://id.club.example"), Some("league"), Some("s3cret"), None)
            .unwrap()
            .unwrap();
        assert_eq!(provider.name, "id.club.example");
        assert!(!format!("{provider:?}").contains("s3cret"));
        let missing = from(Some("https://id.club.example"), Some("league"), None, None);
        assert_eq!(missing, Err("--oidc-client-secret is missing".to_owned()));
        assert!(from(Some("id.club.example"), Some("a"), Some("b"), None).is_err());
    }

    #[test]
    fn frame_ancestors_are_sources_separated_by_commas_or_blanks() {
        let parse = GatewayConfig::parse_frame_ancestors;
        assert_eq!(parse("").unwrap(), ["*"]);
        assert_eq!(
            parse("https://club.example, https://*.league.example 'self'").unwrap(),
            ["https://club.example", "https://*.league.example", "'self'"]
        );
        assert!(parse("https://club.example; script-src *").is_err());
        assert!(parse("'unsafe-inline'").is_err());
    }
}
