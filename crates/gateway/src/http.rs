//! The HTTP side: the server loop (header-read timeout, graceful shutdown), routes,
//! authentication of each request or WebSocket connection, rate limits, cacheable GET
//! reads (`ETag` from the log position), CORS, body and time limits, request ids, tracing,
//! metrics, `nosniff` and `no-referrer` on every answer, and framing refused to every page
//! but the embeddable ones ([`crate::feeds`]).

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_graphql::extensions::apollo_persisted_queries::{
    ApolloPersistedQueries, LruCacheStorage,
};
use async_graphql::http::ALL_WEBSOCKET_PROTOCOLS;
use async_graphql::{Data, ErrorExtensions, Pos, ServerError};
use axum::body::Bytes;
use axum::extract::{FromRequestParts, RawQuery, State, WebSocketUpgrade};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use league_app::App;
use sha2::{Digest, Sha256};
use tokio::net::TcpListener;
use tower::ServiceBuilder;
use tower_http::compression::predicate::{Predicate, SizeAbove};
use tower_http::compression::{CompressionLayer, DefaultPredicate};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::auth::{Authenticator, Caller, Credential};
use crate::config::{GatewayConfig, WsLimits};
use crate::error::{GatewayError, METHOD_NOT_ALLOWED, RATE_LIMITED};
use crate::extension::{OperationSlot, Transport, Uncacheable};
use crate::metrics::{Metrics, OperationKind};
use crate::rate_limit::{Limited, RateKey, RateLimiter};
use crate::schema::GatewaySchema;
use crate::session::{CurrentSession, Renewals, SessionConfig, current_session};
use crate::ws::{self, ConnectionCaps};
use crate::{RequestId, Shutdown};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The client's address: the TCP peer (set by [`run`]; unspecified when the router is
/// served some other way). Behind a proxy every client shares the proxy's address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .unwrap_or(ClientAddr(IpAddr::V4(Ipv4Addr::UNSPECIFIED))))
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct GatewayState {
    pub(crate) app: App,
    schema: GatewaySchema,
    pub(crate) auth: Authenticator,
    pub(crate) limiter: RateLimiter,
    /// How long sessions and sign-in links last.
    pub(crate) sessions: SessionConfig,
    /// Sessions this gateway is renewing now.
    pub(crate) renewals: Renewals,
    caps: ConnectionCaps,
    ws_limits: WsLimits,
    /// Largest WebSocket message or frame: the HTTP body limit, so a message holds no more
    /// than a POST may.
    max_message_bytes: usize,
    metrics: Metrics,
    shutdown: Shutdown,
    cache: Option<Arc<ResponseCache>>,
}

/// A request path as the log shows it: a calendar feed's path is its secret
/// (`docs/feeds.md`), so it is logged as `/calendar/[redacted].ics`.
fn logged_path(path: &str) -> &str {
    if path.starts_with("/calendar/") { "/calendar/[redacted].ics" } else { path }
}

/// Answers of queries by entity tag ([`entity_tag`]: the read model's position and the
/// request). Only error-free query answers are kept, and not those a resolver marked
/// [`Uncacheable`] (they change without an append); a tag names one position, and the
/// position moves on every append, so a kept answer is never served once it could differ.
struct ResponseCache {
    entries: Mutex<lru::LruCache<String, Bytes>>,
}

/// Larger answers are not kept (a few of them would crowd out every other entry).
const MAX_CACHED_ANSWER: usize = 256 * 1024;

impl ResponseCache {
    fn new(capacity: usize) -> Option<Arc<Self>> {
        let capacity = std::num::NonZeroUsize::new(capacity)?;
        Some(Arc::new(ResponseCache { entries: Mutex::new(lru::LruCache::new(capacity)) }))
    }

    fn get(&self, tag: &str) -> Option<Bytes> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).get(tag).cloned()
    }

    fn put(&self, tag: String, answer: Bytes) {
        if answer.len() <= MAX_CACHED_ANSWER {
            self.entries.lock().unwrap_or_else(PoisonError::into_inner).put(tag, answer);
        }
    }
}

/// The gateway's routes and middleware over `app`. `shutdown` ends open subscriptions
/// and WebSocket connections.
pub fn router(app: App, config: &GatewayConfig, shutdown: Shutdown) -> Router {
    let feeds = crate::feeds::routes(app.clone(), config);
    let identity_provider = crate::oidc::routes(app.clone(), config);
    let app_for_sign_up = app.clone();
    let schema = crate::schema::builder_for(app.clone(), config, shutdown.clone())
        .extension(ApolloPersistedQueries::new(LruCacheStorage::new(config.persisted_queries)))
        .finish();
    let state = GatewayState {
        app,
        schema,
        auth: Authenticator::new(&config.admin_token),
        limiter: RateLimiter::new(&config.rate),
        sessions: config.sessions,
        renewals: Renewals::default(),
        caps: ConnectionCaps::new(config.ws),
        ws_limits: config.ws,
        max_message_bytes: config.max_body_bytes,
        metrics: Metrics::new(),
        shutdown,
        cache: ResponseCache::new(config.response_cache),
    };
    let middleware = ServiceBuilder::new()
        .layer(axum::middleware::map_request(keep_well_formed_request_id))
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
                        path = %logged_path(request.uri().path()),
                        request_id,
                    )
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(compression())
        .layer(RequestBodyLimitLayer::new(config.max_body_bytes))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout));
    let mut router = Router::new()
        .route("/graphql", get(graphql_get).post(graphql_post))
        .route("/graphql/ws", get(graphql_ws))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .merge(crate::session::routes())
        .merge(crate::passkey::routes())
        .with_state(state)
        .merge(feeds)
        .merge(identity_provider)
        .merge(crate::sign_up::routes(app_for_sign_up, config))
        .merge(crate::web::routes())
        .layer(axum::middleware::from_fn(crate::feeds::refuse_framing))
        .layer(middleware);
    if let Some(cors) = cors_layer(&config.cors_origins) {
        router = router.layer(cors);
    }
    // Outermost, so every answer carries them: pages, API answers, downloads, errors,
    // CORS preflights.
    router.layer(
        ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::overriding(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ))
            // Calendar addresses are secrets in the path: a link followed from any page
            // must not carry the page's address to another site.
            .layer(SetResponseHeaderLayer::if_not_present(
                header::REFERRER_POLICY,
                HeaderValue::from_static("no-referrer"),
            )),
    )
}

/// Smallest answer body worth compressing: below it, gzip's and brotli's framing costs
/// about what they save (`docs/performance.md#compression`).
pub const COMPRESS_ABOVE_BYTES: u16 = 512;

/// gzip or brotli, as the client's `Accept-Encoding` prefers, for GraphQL answers, feeds and
/// the web app's files (`docs/performance.md#compression`): not for bodies under
/// [`COMPRESS_ABOVE_BYTES`], images (already compressed; SVG is text and is compressed),
/// event streams or WebSocket upgrades (which have no body).
fn compression() -> CompressionLayer<impl Predicate> {
    let predicate = DefaultPredicate::new().and(SizeAbove::new(COMPRESS_ABOVE_BYTES));
    CompressionLayer::new().gzip(true).br(true).compress_when(predicate)
}

/// Keeps a client's `x-request-id` only when it is a UUID, rewritten in its hyphenated
/// lower-case form; any other value is dropped, so [`SetRequestIdLayer`] makes a fresh one
/// (`docs/operations.md`). The id is logged, sent back and is the correlation id of the
/// events a mutation appends, so a client cannot put arbitrary text in any of them.
async fn keep_well_formed_request_id(
    mut request: Request<axum::body::Body>,
) -> Request<axum::body::Body> {
    let headers = request.headers_mut();
    let mut values = headers.get_all(REQUEST_ID).iter();
    let kept = match (values.next(), values.next()) {
        (Some(value), None) => value
            .to_str()
            .ok()
            .and_then(|v| uuid::Uuid::try_parse(v).ok())
            .and_then(|id| HeaderValue::from_str(&id.hyphenated().to_string()).ok()),
        _ => None,
    };
    headers.remove(REQUEST_ID);
    if let Some(value) = kept {
        headers.insert(REQUEST_ID, value);
    }
    request
}

/// Serves the gateway's HTTP on `listener` until `shutdown` completes, then stops
/// accepting, ends subscriptions and lets in-flight requests finish (at most
/// [`GatewayConfig::shutdown_grace`]). A client that does not send a request's headers
/// within [`GatewayConfig::header_read_timeout`] is disconnected. Only HTTP: what runs
/// beside it (the webhook deliveries) is started by the `league` binary, its composition
/// root.
pub async fn run(
    listener: TcpListener,
    app: App,
    config: GatewayConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (trigger, handle) = Shutdown::channel();
    let router = router(app, &config, handle);
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(config.header_read_timeout);
    builder.http2().timer(TokioTimer::new());
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(connection) => connection,
                Err(error) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service =
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ClientAddr(peer.ip()));
                tower::ServiceExt::oneshot(router.clone(), request)
            });
        let connection =
            builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection ended with an error");
            }
        });
    }
    drop(listener);
    tracing::info!("shutting down: finishing in-flight requests");
    let _ = trigger.send(true);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(config.shutdown_grace) => {
            tracing::warn!(grace = ?config.shutdown_grace, "in-flight requests outlived the shutdown grace period");
        }
    }
    Ok(())
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
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                header::IF_NONE_MATCH,
                REQUEST_ID,
            ])
            .expose_headers([REQUEST_ID, header::ETAG, header::RETRY_AFTER])
            .max_age(Duration::from_secs(3600)),
    )
}

/// `POST /graphql`: queries and mutations. A body a plain HTML form (or a "simple" cross-site
/// request) can send, `text/plain`, `application/x-www-form-urlencoded` or
/// `multipart/form-data`, is refused with 415 before it is read: only JSON is GraphQL here
/// (`docs/sign-in.md#cross-site-requests`).
async fn graphql_post(
    State(state): State<GatewayState>,
    addr: ClientAddr,
    headers: HeaderMap,
    request: Request<axum::body::Body>,
) -> Response {
    if is_form_content(&headers) {
        let error = GatewayError::bad_input(
            "content-type",
            "a GraphQL request is JSON: send it as application/json",
        );
        let mut http = graphql_answer(refused(error));
        *http.status_mut() = StatusCode::UNSUPPORTED_MEDIA_TYPE;
        return http;
    }
    match post_request(request).await {
        Ok(request) => execute(&state, addr, &headers, Transport::Post, request).await,
        Err(refusal) => refusal,
    }
}

/// A POST body as one GraphQL request (JSON; a batch is not taken). A body past the size
/// limit answers 413, anything that is not one request 400, with a fixed message: the input
/// is not echoed.
async fn post_request(
    request: Request<axum::body::Body>,
) -> Result<async_graphql::Request, Response> {
    let body = axum::body::to_bytes(request.into_body(), usize::MAX).await.map_err(|error| {
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&error);
        let too_large = std::iter::from_fn(|| {
            let this = cause?;
            cause = this.source();
            Some(this)
        })
        .any(|cause| cause.is::<http_body_util::LengthLimitError>());
        match too_large {
            true => {
                (StatusCode::PAYLOAD_TOO_LARGE, "the request body is too large").into_response()
            }
            false => {
                (StatusCode::BAD_REQUEST, "the request body could not be read").into_response()
            }
        }
    })?;
    serde_json::from_slice(&body).map_err(|_| {
        (StatusCode::BAD_REQUEST, "the body is not one GraphQL request in JSON").into_response()
    })
}

/// A GraphQL response as HTTP: JSON, with the headers resolvers set.
fn graphql_answer(response: async_graphql::Response) -> Response {
    let headers = response.http_headers.clone();
    let mut http = Json(response).into_response();
    http.headers_mut().extend(headers);
    http
}

/// Whether a request's body is of a type an HTML form can send across sites.
fn is_form_content(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let media = value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    matches!(
        media.as_str(),
        "text/plain" | "application/x-www-form-urlencoded" | "multipart/form-data"
    )
}

/// `GET /graphql`: without a query string, a redirect to the built-in GraphiQL at `/graphiql`
/// (served from this binary, no script from elsewhere); with one (`query`, `variables`,
/// `operationName`, `extensions`), a cacheable query (mutations are refused).
async fn graphql_get(
    State(state): State<GatewayState>,
    addr: ClientAddr,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let Some(query) = query.filter(|q| !q.is_empty()) else {
        return axum::response::Redirect::temporary("/graphiql").into_response();
    };
    match get_request(&query) {
        Ok(request) => execute(&state, addr, &headers, Transport::Get, request).await,
        Err(why) => (StatusCode::BAD_REQUEST, why).into_response(),
    }
}

/// The parameters of a GraphQL request over GET (GraphQL over HTTP): `variables` and
/// `extensions` are JSON text.
#[derive(serde::Deserialize)]
struct GetParams {
    #[serde(default)]
    query: String,
    /// `operationName`, as the GraphQL over HTTP spec names it (async-graphql's own parser
    /// reads `operation_name`, still accepted).
    #[serde(rename = "operationName", alias = "operation_name")]
    operation_name: Option<String>,
    variables: Option<String>,
    extensions: Option<String>,
}

/// A GraphQL request from a GET query string, or what is wrong with it (a fixed message:
/// the input is not echoed).
fn get_request(query_string: &str) -> Result<async_graphql::Request, &'static str> {
    let uri: axum::http::Uri = format!("/graphql?{query_string}")
        .parse()
        .map_err(|_| "the query string is not a GraphQL request")?;
    let axum::extract::Query(params) = axum::extract::Query::<GetParams>::try_from_uri(&uri)
        .map_err(|_| "the query string is not a GraphQL request")?;
    let mut request = async_graphql::Request::new(params.query);
    request.operation_name = params.operation_name;
    if let Some(variables) = params.variables {
        request.variables =
            serde_json::from_str(&variables).map_err(|_| "variables: not a JSON object")?;
    }
    if let Some(extensions) = params.extensions {
        request.extensions =
            serde_json::from_str(&extensions).map_err(|_| "extensions: not a JSON object")?;
    }
    Ok(request)
}

/// The entity tag of a query's answer (sent with GET answers, and the key of the response
/// cache): the read model's position and a digest of
/// everything else the answer depends on (the document, variables, operation,
/// extensions and the caller's credentials). Every append moves the position, so a tag
/// never matches an answer that would differ.
fn entity_tag(
    position: u64,
    request: &async_graphql::Request,
    headers: &HeaderMap,
    caller: Caller,
) -> String {
    let mut digest = Sha256::new();
    digest.update(request.query.as_bytes());
    digest.update([0]);
    digest.update(request.operation_name.as_deref().unwrap_or_default().as_bytes());
    digest.update([0]);
    digest.update(serde_json::to_vec(&request.variables).unwrap_or_default());
    digest.update([0]);
    digest.update(serde_json::to_vec(&request.extensions).unwrap_or_default());
    digest.update([0]);
    if let Some(authorization) = headers.get(header::AUTHORIZATION) {
        digest.update(authorization.as_bytes());
    }
    // A session cookie authenticates too, and answers depend on who asks.
    digest.update([0]);
    digest.update(format!("{caller:?}").as_bytes());
    let digest = digest.finalize();
    format!("\"{position}-{}\"", hex::encode(&digest[..12]))
}

/// Whether `If-None-Match` names `tag` (or is `*`).
fn not_modified(headers: &HeaderMap, tag: &str) -> bool {
    headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).any(|list| {
        list.split(',').map(|t| t.trim().trim_start_matches("W/")).any(|t| t == tag || t == "*")
    })
}

/// Authenticates, rate-limits and executes one GraphQL request.
async fn execute(
    state: &GatewayState,
    ClientAddr(addr): ClientAddr,
    headers: &HeaderMap,
    transport: Transport,
    request: async_graphql::Request,
) -> Response {
    let started = Instant::now();
    let authorization = match headers.get(header::AUTHORIZATION).map(|v| v.to_str()) {
        None => Ok(None),
        Some(Ok(value)) => Ok(Some(value)),
        Some(Err(_)) => Err(GatewayError::Unauthenticated("the Authorization header is not text")),
    };
    let mut session = None;
    let caller = authorization.and_then(|a| match a {
        Some(_) => state.auth.authenticate(&state.app, a),
        None => Ok(match current_session(&state.app, &state.sessions, headers) {
            Some((secret, view)) => {
                state.renewals.renew_if_due(&state.app, &state.sessions, &view);
                let caller = Caller::Player(view.player);
                session = Some((secret, view.id));
                caller
            }
            None => Caller::Anonymous,
        }),
    });
    // A request the cookie signs in must come from the platform's own pages (GET
    // answers only queries, which change nothing).
    let caller = match (&session, transport) {
        (Some((secret, _)), Transport::Post) => {
            caller.and_then(|c| crate::session::check_csrf(headers, secret).map(|()| c))
        }
        _ => caller,
    };
    // Bad credentials are counted against the address, so guessing tokens is limited too.
    let key = RateKey::of(*caller.as_ref().unwrap_or(&Caller::Anonymous), addr);
    if let Err(limited) = state.limiter.check_request(&key) {
        state.metrics.request(OperationKind::Unknown, RATE_LIMITED, started.elapsed());
        return rate_limited(limited);
    }
    let caller = match caller {
        Ok(caller) => caller,
        Err(error) => {
            state.metrics.request(OperationKind::Unknown, error.code(), started.elapsed());
            return graphql_answer(refused(error));
        }
    };
    let get = transport == Transport::Get;
    let tag = (get || state.cache.is_some())
        .then(|| entity_tag(state.app.applied_position(), &request, headers, caller));
    if get
        && let Some(tag) = &tag
        && not_modified(headers, tag)
    {
        state.metrics.request(OperationKind::Query, "not_modified", started.elapsed());
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, tag.as_str())]).into_response();
    }
    if let (Some(cache), Some(tag)) = (&state.cache, &tag)
        && let Some(answer) = cache.get(tag)
    {
        state.metrics.request(OperationKind::Query, "ok", started.elapsed());
        return json_answer(answer, get.then_some(tag.as_str()));
    }
    let slot = OperationSlot::default();
    let uncacheable = Uncacheable::default();
    let mut request = request
        .data(uncacheable.clone())
        .data(caller)
        .data(key)
        .data(state.limiter.clone())
        .data(transport)
        .data(crate::feeds::RequestOrigin::of(headers))
        .data(slot.clone());
    if let Some((_, id)) = session {
        request = request.data(CurrentSession(id));
    }
    let request_id = headers
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| uuid::Uuid::parse_str(v).ok());
    if let Some(id) = request_id {
        request = request.data(RequestId(id));
    }
    let response = state.schema.execute(request).await;
    let kind = slot.get();
    let first_code = response.errors.first().map(error_code);
    state.metrics.request(kind, first_code.as_deref().unwrap_or("ok"), started.elapsed());
    if response.errors.is_empty()
        && kind == OperationKind::Query
        && !uncacheable.is_marked()
        && let Some(tag) = tag
        && let Ok(answer) = serde_json::to_vec(&response)
    {
        let answer = Bytes::from(answer);
        if let Some(cache) = &state.cache {
            cache.put(tag.clone(), answer.clone());
        }
        return json_answer(answer, get.then_some(tag.as_str()));
    }
    let retry_after = response.errors.first().and_then(|e| {
        e.extensions.as_ref().and_then(|x| x.get("retryAfter")).and_then(|v| match v {
            async_graphql::Value::Number(n) => n.as_u64(),
            _ => None,
        })
    });
    let mut http = graphql_answer(response);
    match first_code.as_deref() {
        Some(RATE_LIMITED) => {
            *http.status_mut() = StatusCode::TOO_MANY_REQUESTS;
            if let Some(seconds) = retry_after {
                http.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            }
        }
        Some(METHOD_NOT_ALLOWED) => {
            *http.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
            http.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
        }
        _ => {}
    }
    http
}

/// An error-free query answer; with `tag` (GET), its cache validators.
fn json_answer(answer: Bytes, tag: Option<&str>) -> Response {
    let mut http = ([(header::CONTENT_TYPE, "application/json")], answer).into_response();
    if let Some(tag) = tag
        && let Ok(value) = HeaderValue::from_str(tag)
    {
        let headers = http.headers_mut();
        headers.insert(header::ETAG, value);
        // Caches may keep the answer but must ask again (a 304 is cheap).
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(header::VARY, HeaderValue::from_static("Authorization, Cookie"));
    }
    http
}

fn error_code(error: &ServerError) -> String {
    match error.extensions.as_ref().and_then(|x| x.get("code")) {
        Some(async_graphql::Value::String(code)) => code.clone(),
        _ => crate::error::FALLBACK_CODE.to_owned(),
    }
}

/// `429` with `Retry-After` and a GraphQL error body (`extensions.code = "RATE_LIMITED"`).
fn rate_limited(limited: Limited) -> Response {
    let error = limited.error().into_server_error(Pos::default());
    let body = async_graphql::Response::from_errors(vec![error]);
    let mut http = graphql_answer(body);
    *http.status_mut() = StatusCode::TOO_MANY_REQUESTS;
    http.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(limited.retry_after_secs()));
    http
}

/// A request refused before execution (bad credentials): a GraphQL error response.
fn refused(error: GatewayError) -> async_graphql::Response {
    let error = error.extend().into_server_error(Pos::default());
    async_graphql::Response::from_errors(vec![error])
}

/// `GET /graphql/ws`: subscriptions. The connection authenticates in `connection_init`
/// (`{"authorization": "Bearer …"}`); without it the connection is anonymous (reads are
/// public), with a bad token it is closed. See [`crate::ws`] for the limits.
async fn graphql_ws(
    State(state): State<GatewayState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(protocol) = ws::protocol(&headers) else {
        return (StatusCode::BAD_REQUEST, "unsupported Sec-WebSocket-Protocol").into_response();
    };
    let permit = state.caps.acquire(addr);
    // The session cookie signs a connection in only from the gateway's own pages: a page of
    // another site can open a WebSocket carrying the cookie (`docs/sign-in.md`).
    let cookie = same_origin(&headers)
        .then(|| crate::session::session_credential(&state.app, &state.sessions, &headers))
        .flatten()
        .map(|(credential, _)| credential);
    upgrade
        .protocols(ALL_WEBSOCKET_PROTOCOLS)
        .max_message_size(state.max_message_bytes)
        .max_frame_size(state.max_message_bytes)
        .on_upgrade(move |socket| async move {
            let permit = match permit {
                Ok(permit) => permit,
                Err(why) => return ws::refuse(socket, why).await,
            };
            let GatewayState { app, schema, auth, limiter, ws_limits, metrics, shutdown, .. } =
                state;
            let credential = ws::ConnectionCredential::new(app.clone());
            let authenticated = credential.clone();
            let on_init = move |payload: serde_json::Value| async move {
                let credential = match (connection_credential(&auth, &app, &payload)?, cookie) {
                    (Credential { caller: Caller::Anonymous, .. }, Some(cookie)) => cookie,
                    (credential, _) => credential,
                };
                let caller = credential.caller;
                authenticated.set(credential);
                let mut data = Data::default();
                data.insert(caller);
                data.insert(RateKey::of(caller, addr));
                data.insert(limiter);
                data.insert(Transport::WebSocket);
                Ok(data)
            };
            ws::serve(
                socket, schema, protocol, on_init, ws_limits, metrics, shutdown, permit, credential,
            )
            .await;
        })
        .into_response()
}

/// Whether a request comes from a page of the gateway's own origin (its `Origin` header
/// names the host it was sent to).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest);
    !host.is_empty() && origin_host.eq_ignore_ascii_case(host)
}

/// The credential named by a `connection_init` payload's `authorization` (any case) entry.
fn connection_credential(
    auth: &Authenticator,
    app: &App,
    payload: &serde_json::Value,
) -> async_graphql::Result<Credential> {
    let authorization = payload.as_object().and_then(|entries| {
        entries
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case("authorization"))
            .map(|(_, value)| value.as_str().unwrap_or_default())
    });
    auth.credential(app, authorization).map_err(|error| async_graphql::Error::new(error.message()))
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

/// `GET /metrics`: Prometheus text format.
async fn metrics(State(state): State<GatewayState>) -> Response {
    let body = state.metrics.render(&state.app).await;
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], body).into_response()
}
