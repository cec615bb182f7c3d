//! The HTTP side: routes, authentication of each request or WebSocket connection, CORS,
//! body limit, request ids and tracing, and graceful shutdown.

use std::future::{Future, IntoFuture};
use std::time::Duration;

use async_graphql::http::{ALL_WEBSOCKET_PROTOCOLS, GraphiQLSource};
use async_graphql::{Data, ErrorExtensions, Pos};
use async_graphql_axum::{GraphQLProtocol, GraphQLRequest, GraphQLResponse, GraphQLWebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use league_app::App;
use tokio::net::TcpListener;
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::auth::{Authenticator, Caller};
use crate::config::GatewayConfig;
use crate::error::GatewayError;
use crate::schema::{GatewaySchema, build_schema};
use crate::{RequestId, Shutdown};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// What every handler shares.
#[derive(Clone)]
struct GatewayState {
    app: App,
    schema: GatewaySchema,
    auth: Authenticator,
}

/// The gateway's routes and middleware over `app`. `shutdown` ends open subscriptions.
pub fn router(app: App, config: &GatewayConfig, shutdown: Shutdown) -> Router {
    let schema = build_schema(app.clone(), config, shutdown);
    let state = GatewayState { app, schema, auth: Authenticator::new(&config.admin_token) };
    let middleware = ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request<_>| {
                    let request_id = request
                        .headers()
                        .get(REQUEST_ID)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %request.uri().path(),
                        request_id,
                    )
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(RequestBodyLimitLayer::new(config.max_body_bytes));
    let mut router = Router::new()
        .route("/graphql", get(graphiql).post(graphql))
        .route("/graphql/ws", get(graphql_ws))
        .route("/healthz", get(healthz))
        .with_state(state)
        .merge(crate::web::routes())
        .layer(middleware);
    if let Some(cors) = cors_layer(&config.cors_origins) {
        router = router.layer(cors);
    }
    router
}

/// Serves the gateway on `listener` until `shutdown` completes, then stops accepting,
/// ends subscriptions and lets in-flight requests finish (at most
/// [`GatewayConfig::shutdown_grace`]).
pub async fn run(
    listener: TcpListener,
    app: App,
    config: GatewayConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (trigger, handle) = Shutdown::channel();
    let mut started = handle.clone();
    let router = router(app, &config, handle);
    let signal = async move {
        shutdown.await;
        tracing::info!("shutting down: finishing in-flight requests");
        let _ = trigger.send(true);
    };
    let server = axum::serve(listener, router).with_graceful_shutdown(signal).into_future();
    let grace = config.shutdown_grace;
    tokio::select! {
        outcome = server => outcome,
        () = async move {
            started.requested().await;
            tokio::time::sleep(grace).await;
        } => {
            tracing::warn!(?grace, "in-flight requests outlived the shutdown grace period");
            Ok(())
        }
    }
}

fn cors_layer(origins: &[String]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()))
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
            .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE, REQUEST_ID])
            .expose_headers([REQUEST_ID])
            .max_age(Duration::from_secs(3600)),
    )
}

async fn graphiql() -> Html<String> {
    Html(
        GraphiQLSource::build()
            .endpoint("/graphql")
            .subscription_endpoint("/graphql/ws")
            .title("league GraphiQL")
            .finish(),
    )
}

/// `POST /graphql`: authenticates the bearer token, then executes the request.
async fn graphql(
    State(state): State<GatewayState>,
    headers: HeaderMap,
    request: GraphQLRequest,
) -> GraphQLResponse {
    let authorization = match headers.get(header::AUTHORIZATION).map(|v| v.to_str()) {
        None => None,
        Some(Ok(value)) => Some(value),
        Some(Err(_)) => {
            return refused(GatewayError::Unauthenticated("the Authorization header is not text"));
        }
    };
    let caller = match state.auth.authenticate(&state.app, authorization) {
        Ok(caller) => caller,
        Err(error) => return refused(error),
    };
    let mut request = request.into_inner().data(caller);
    let request_id = headers
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| uuid::Uuid::parse_str(v).ok());
    if let Some(id) = request_id {
        request = request.data(RequestId(id));
    }
    state.schema.execute(request).await.into()
}

/// A request refused before execution (bad credentials): a GraphQL error response.
fn refused(error: GatewayError) -> GraphQLResponse {
    let error = error.extend().into_server_error(Pos::default());
    async_graphql::Response::from_errors(vec![error]).into()
}

/// `GET /graphql/ws`: subscriptions. The connection authenticates in `connection_init`
/// (`{"authorization": "Bearer …"}`); without it the connection is anonymous (reads are
/// public), with a bad token it is closed.
async fn graphql_ws(
    State(state): State<GatewayState>,
    protocol: GraphQLProtocol,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        .protocols(ALL_WEBSOCKET_PROTOCOLS)
        .on_upgrade(move |stream| {
            let GatewayState { app, schema, auth } = state;
            GraphQLWebSocket::new(stream, schema, protocol)
                .on_connection_init(move |payload| async move {
                    let caller = connection_caller(&auth, &app, &payload)?;
                    let mut data = Data::default();
                    data.insert(caller);
                    Ok(data)
                })
                .serve()
        })
        .into_response()
}

/// The caller named by a `connection_init` payload's `authorization` (any case) entry.
fn connection_caller(
    auth: &Authenticator,
    app: &App,
    payload: &serde_json::Value,
) -> async_graphql::Result<Caller> {
    let authorization = payload.as_object().and_then(|entries| {
        entries
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case("authorization"))
            .map(|(_, value)| value.as_str().unwrap_or_default())
    });
    auth.authenticate(app, authorization)
        .map_err(|error| async_graphql::Error::new(error.message()))
}

/// `GET /healthz`: 200 with the log's head position when the database answers and the
/// read side follows the log, else 503.
async fn healthz(State(state): State<GatewayState>) -> Response {
    if let Some(reason) = state.app.failure() {
        // The read side stopped on an event it cannot fold: its answers would be stale.
        let body = serde_json::json!({ "status": "unavailable", "reason": reason });
        return (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
    }
    match state.app.store().head_position().await {
        Ok(position) => {
            Json(serde_json::json!({ "status": "ok", "position": position })).into_response()
        }
        Err(error) => {
            tracing::error!(%error, "health check: the database does not answer");
            (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({ "status": "unavailable" })))
                .into_response()
        }
    }
}
