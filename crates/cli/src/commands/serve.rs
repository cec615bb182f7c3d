//! `league serve`: runs the GraphQL gateway and the webhook deliveries (`docs/webhooks.md`)
//! over the database until SIGTERM or ctrl-c, then shuts down gracefully (in-flight requests
//! finish).
//!
//! With `--read-database` (a PostgreSQL hot standby of `--database`) it is a reading
//! gateway: queries, subscriptions and start-up read the standby, commands append to the
//! primary and answer `REPLICA_LAG` when the standby has not replayed them within
//! `--replica-lag-timeout` (`docs/operations.md`).
//!
//! Prints one line `listening on http://ADDR` on stdout once the socket is bound (port 0
//! picks a free port; scripts and tests read the line), and, when `LEAGUE_ADMIN_TOKEN` is
//! not set, the generated admin token once.

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::Context;
use league_app::ErrorCode;
use league_gateway::{GatewayConfig, Shutdown, generate_token};

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    #[command(flatten)]
    pub read_database: super::ReadDatabaseArgs,
    /// With `--read-database`: how long a command waits for the standby to replay it before
    /// answering REPLICA_LAG (its write is committed either way; e.g. 500ms, 5s, 1m).
    #[arg(long, env = "LEAGUE_REPLICA_LAG_TIMEOUT", default_value = "5s", value_parser = league_webhooks::parse_duration)]
    pub replica_lag_timeout: std::time::Duration,
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "LEAGUE_LISTEN", default_value = "127.0.0.1:8000")]
    pub listen: String,
    /// The admin's bearer token; generated and printed once when unset or empty.
    #[arg(long, env = "LEAGUE_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Comma-separated browser origins allowed by CORS (`*` for any; empty for none).
    #[arg(long, env = "LEAGUE_CORS_ORIGINS", default_value = "")]
    pub cors_origins: String,
    /// Sites that may show the embeddable standings pages (`/embed/…`) in a frame:
    /// `frame-ancestors` sources separated by commas or blanks (empty: any site). Every
    /// other page refuses to be framed.
    #[arg(long, env = "LEAGUE_FRAME_ANCESTORS", default_value = "*")]
    pub frame_ancestors: String,
    /// Who may register themself at /signup: `closed` (organisers and the site admin
    /// register people), `invite` (with an organiser's invite code) or `open` (anyone).
    #[arg(long, env = "LEAGUE_SIGN_UP", default_value = "closed", value_parser = league_gateway::config::parse_sign_up)]
    pub sign_up: league_gateway::config::SignUpPolicy,
    /// Deepest accepted query nesting (deeper queries get QUERY_TOO_COMPLEX).
    #[arg(long, env = "LEAGUE_MAX_QUERY_DEPTH", default_value_t = league_gateway::config::DEFAULT_MAX_DEPTH)]
    pub max_query_depth: usize,
    /// Largest accepted query complexity (fields, times the page size of connections).
    #[arg(long, env = "LEAGUE_MAX_QUERY_COMPLEXITY", default_value_t = league_gateway::config::DEFAULT_MAX_COMPLEXITY)]
    pub max_query_complexity: usize,
    /// Let webhooks reach loopback, private and link-local addresses (a receiver on this
    /// machine or network); also `LEAGUE_WEBHOOKS_ALLOW_PRIVATE=1`.
    #[arg(long)]
    pub webhooks_allow_private: bool,
    /// Pause a webhook whose deliveries have failed this long (e.g. 90s, 15m, 24h, 7d).
    #[arg(long, env = "LEAGUE_WEBHOOK_PAUSE_AFTER", default_value = "24h", value_parser = league_webhooks::parse_duration)]
    pub webhook_pause_after: std::time::Duration,
    /// The issuer address of an OpenID Connect provider players may sign in with
    /// (docs/sign-in.md#identity-providers); with --oidc-client-id and --oidc-client-secret.
    #[arg(long, env = "LEAGUE_OIDC_ISSUER")]
    pub oidc_issuer: Option<String>,
    /// This site's client id at the identity provider.
    #[arg(long, env = "LEAGUE_OIDC_CLIENT_ID")]
    pub oidc_client_id: Option<String>,
    /// This site's client secret at the identity provider (prefer the variable).
    #[arg(long, env = "LEAGUE_OIDC_CLIENT_SECRET", hide_env_values = true)]
    pub oidc_client_secret: Option<String>,
    /// The provider's name as people know it ("Sign in with NAME"; default: its host).
    #[arg(long, env = "LEAGUE_OIDC_NAME")]
    pub oidc_name: Option<String>,
}

pub async fn run(args: ServeArgs) -> Result<ExitCode, CliError> {
    let address: SocketAddr = args.listen.parse().map_err(|_| {
        CliError::BadInput(format!(
            "--listen: {:?} is not an address like 127.0.0.1:8000",
            args.listen
        ))
    })?;
    let (admin_token, generated) = match args.admin_token.filter(|t| !t.trim().is_empty()) {
        Some(token) => (token.trim().to_owned(), false),
        None => (generate_token(), true),
    };
    let mut config = GatewayConfig::new(admin_token.clone())
        .with_env()
        .map_err(|error| CliError::BadInput(error.to_string()))?;
    config.cors_origins = GatewayConfig::parse_origins(&args.cors_origins);
    config.frame_ancestors = GatewayConfig::parse_frame_ancestors(&args.frame_ancestors)
        .map_err(|error| CliError::BadInput(format!("--frame-ancestors: {error}")))?;
    config.sign_up = args.sign_up;
    config.max_depth = args.max_query_depth;
    config.max_complexity = args.max_query_complexity;
    config.identity_provider = league_gateway::config::IdentityProviderConfig::from_settings(
        args.oidc_issuer.as_deref(),
        args.oidc_client_id.as_deref(),
        args.oidc_client_secret.as_deref(),
        args.oidc_name.as_deref(),
    )
    .map_err(CliError::BadInput)?;
    let mut webhooks =
        league_webhooks::WebhookSettings::default().with_env().map_err(CliError::BadInput)?;
    webhooks.allow_private |= args.webhooks_allow_private;
    webhooks.pause_after = args.webhook_pause_after;
    config.webhooks = Some(webhooks);

    let settings = league_app::AppSettings {
        replica_lag_timeout: args.replica_lag_timeout,
        ..league_app::AppSettings::from_env()
            .map_err(|error| CliError::BadInput(error.to_string()))?
    };
    let read_database = args.read_database.url();
    let app = match league_app::App::connect(&args.database.url, read_database, settings).await {
        Ok(app) => app,
        // An unsupported URL is the user's mistake; anything else is a failure.
        Err(error) if matches!(error.code(), ErrorCode::BadUserInput { .. }) => {
            return Err(CliError::BadInput(error.to_string()));
        }
        Err(error) => {
            return Err(anyhow::Error::new(error).context("cannot open the database").into());
        }
    };
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {address}"))?;
    let bound = listener.local_addr().context("cannot read the bound address")?;
    tracing::info!(
        %bound,
        cors = ?config.cors_origins,
        reads_replica = app.reads_replica(),
        "serving the web app at /, GraphQL at /graphql, GraphiQL at /graphiql"
    );
    {
        let mut out = std::io::stdout().lock();
        if generated {
            writeln!(out, "admin token (generated, shown once): {admin_token}").ok();
        }
        writeln!(out, "listening on http://{bound}").ok();
        out.flush().ok();
    }
    // The composition root: the gateway serves HTTP; the webhook deliveries run beside it,
    // both until the signal.
    let (trigger, stop) = Shutdown::channel();
    let deliveries = config.webhooks.clone().map(|settings| {
        tokio::spawn(league_webhooks::run(app.clone(), settings, stop.requested_owned()))
    });
    let shutdown = async move {
        shutdown_signal().await;
        let _ = trigger.send(true);
    };
    league_gateway::run(listener, app, config, shutdown).await.context("the server failed")?;
    // The deliveries write their checkpoints as they stop (`docs/webhooks.md#delivery`).
    if let Some(deliveries) = deliveries {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), deliveries).await;
    }
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// Completes on ctrl-c or (on Unix) SIGTERM, as sent by `docker stop` and process managers.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
