//! The feeds' HTTP routes (`docs/feeds.md`): a player's calendar at a secret URL, a
//! competition's exports as downloads, and the embeddable standings pages, which alone may
//! be shown in another site's frame.
//!
//! ```text
//! GET /calendar/<secret>.ics                 text/calendar; unknown or rotated secret: 404
//! GET /export/leagues/<id>.csv|json          ?table=results (default) | standings (CSV)
//! GET /export/tournaments/<id>.csv|json      the same for a tournament
//! GET /embed/leagues/<id>, /embed/tournaments/<id>   web/embed.html, framable
//! ```
//!
//! A feed secret is the player's id (32 hex digits) followed by a random token (64 hex
//! digits): the id names the player's calendar stream, and only the SHA-256 of the whole
//! secret is stored there, so the secret is checked against the player's one valid hash
//! without any index of secrets, and a rotation is refused at once by every gateway.

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use league_app::{App, AppError, CompetitionKind, ExportTable, calendar_ics};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::auth::{generate_token, hash_token};
use crate::config::GatewayConfig;

/// What the feed routes share.
#[derive(Clone)]
struct FeedsState {
    app: App,
    /// `Content-Security-Policy` of the embed pages.
    embed_policy: HeaderValue,
}

/// The feed routes over `app`.
pub(crate) fn routes(app: App, config: &GatewayConfig) -> Router {
    let policy = format!("frame-ancestors {}", config.frame_ancestors.join(" "));
    let embed_policy = HeaderValue::from_str(&policy)
        .unwrap_or_else(|_| HeaderValue::from_static("frame-ancestors 'none'"));
    Router::new()
        .route("/calendar/{file}", get(calendar))
        .route("/export/{kind}/{file}", get(export))
        .route("/embed/{kind}/{id}", get(embed))
        .with_state(FeedsState { app, embed_policy })
}

/// A new feed secret for `player` (see the module docs).
pub(crate) fn new_feed_secret(player: Uuid) -> String {
    format!("{}{}", player.simple(), generate_token())
}

/// The stored form of a feed secret: its SHA-256, as for tokens.
pub(crate) fn feed_hash(secret: &str) -> String {
    hash_token(secret)
}

/// The path of a player's feed: `/calendar/<secret>.ics`.
pub(crate) fn feed_path(secret: &str) -> String {
    format!("/calendar/{secret}.ics")
}

/// The player a well-formed feed secret names.
fn feed_owner(secret: &str) -> Option<Uuid> {
    let well_formed = secret.len() == 96 && secret.bytes().all(|b| b.is_ascii_hexdigit());
    well_formed.then(|| Uuid::try_parse(&secret[..32]).ok()).flatten()
}

/// The origin a request was made to (`https://league.example`), to give absolute URLs back:
/// the `X-Forwarded-Proto` and `X-Forwarded-Host` a proxy sets, else plain HTTP to `Host`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequestOrigin(String);

impl RequestOrigin {
    pub(crate) fn of(headers: &HeaderMap) -> Self {
        let first = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .map(str::trim)
                .filter(|v| !v.is_empty())
        };
        let scheme = match first("x-forwarded-proto") {
            Some("https") => "https",
            _ => "http",
        };
        let host = first("x-forwarded-host")
            .or_else(|| first(header::HOST.as_str()))
            .filter(|host| host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b)))
            .unwrap_or("localhost");
        RequestOrigin(format!("{scheme}://{host}"))
    }

    /// Whether the origin is served over https (a session cookie is then `Secure`).
    pub(crate) fn is_https(&self) -> bool {
        self.0.starts_with("https://")
    }

    /// `path` (starting with `/`) at this origin.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.0)
    }
}

/// `GET /calendar/<secret>.ics`: the player's games and boards; 404 for anything but a
/// current secret (no hint whether the player exists).
async fn calendar(
    State(state): State<FeedsState>,
    Path(file): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some(secret) = file.strip_suffix(".ics") else { return not_found() };
    let Some(player) = feed_owner(secret) else { return not_found() };
    let Some(name) = state.app.catalog().player(player).map(|p| p.name.clone()) else {
        return not_found();
    };
    let accepted = match state.app.calendar_feed(player.into()).await {
        Ok(feed) => feed.accepts(&feed_hash(secret)),
        Err(error) => return failed(error),
    };
    if !accepted {
        return not_found();
    }
    match state.app.calendar_entries(player.into()).await {
        Ok(entries) => {
            let body = calendar_ics(&name, &entries, &RequestOrigin::of(&headers).0);
            download(&headers, "text/calendar; charset=utf-8", None, body)
        }
        Err(error) => failed(error),
    }
}

/// The `table` of a CSV export.
#[derive(Debug, serde::Deserialize)]
struct ExportQuery {
    table: Option<String>,
}

/// The kind of competition a path names (`leagues` or `tournaments`).
fn competition_kind(segment: &str) -> Option<CompetitionKind> {
    match segment {
        "leagues" => Some(CompetitionKind::League),
        "tournaments" => Some(CompetitionKind::Tournament),
        _ => None,
    }
}

/// `GET /export/leagues|tournaments/<id>.csv|json`: the export as a download.
async fn export(
    State(state): State<FeedsState>,
    Path((kind, file)): Path<(String, String)>,
    query: Result<Query<ExportQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let Some(kind) = competition_kind(&kind) else { return not_found() };
    let Some((id, format)) = file.rsplit_once('.') else { return not_found() };
    let Ok(id) = Uuid::try_parse(id) else { return not_found() };
    // The answer names what is wrong, never the request's text (it would be reflected).
    let bad_table = || (StatusCode::BAD_REQUEST, "table: must be results, standings or teams");
    let Ok(Query(query)) = query else { return bad_table().into_response() };
    let table = match query.table.as_deref() {
        None | Some("results") => ExportTable::Results,
        Some("standings") => ExportTable::Standings,
        Some("teams") => ExportTable::Teams,
        Some(_) => return bad_table().into_response(),
    };
    if !matches!(format, "csv" | "json") {
        return not_found();
    }
    let export = match state.app.competition_export(kind, id).await {
        Ok(export) => export,
        Err(error) => return failed(error),
    };
    let (content_type, name, body) = match format {
        "csv" => match export.to_csv(table) {
            Ok(csv) => ("text/csv; charset=utf-8", export.file_name(Some(table)), csv),
            Err(error) => return failed(error),
        },
        _ => ("application/json", export.file_name(None), export.to_json()),
    };
    download(&headers, content_type, Some(&name), body)
}

/// `GET /embed/leagues|tournaments/<id>`: the embeddable standings page (it reads the
/// competition from its URL), framable by the configured sites.
async fn embed(
    State(state): State<FeedsState>,
    Path((kind, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let exists = match (competition_kind(&kind), Uuid::try_parse(&id)) {
        (Some(CompetitionKind::League), Ok(id)) => state.app.catalog().league(id).is_some(),
        (Some(CompetitionKind::Tournament), Ok(id)) => state.app.catalog().tournament(id).is_some(),
        _ => false,
    };
    if !exists {
        return not_found();
    }
    let mut response = crate::web::file("embed.html", &headers);
    response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, state.embed_policy.clone());
    response
}

/// Middleware: a response that sets no `Content-Security-Policy` of its own (every one but
/// the embed pages') refuses to be shown in a frame, by CSP for today's browsers and by
/// `X-Frame-Options` for older ones, so no page of the app can be clickjacked.
pub(crate) async fn refuse_framing(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("frame-ancestors 'none'"),
        );
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

/// A body with its type, an ETag (its SHA-256; a matching `If-None-Match` gets 304, which
/// calendar applications polling the feed use) and, with `file_name`, as an attachment.
fn download(
    headers: &HeaderMap,
    content_type: &'static str,
    file_name: Option<&str>,
    body: String,
) -> Response {
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(body.as_bytes())[..16]));
    let mut out = HeaderMap::new();
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, value);
    }
    if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v.as_bytes() == etag.as_bytes()) {
        return (StatusCode::NOT_MODIFIED, out).into_response();
    }
    out.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Some(name) = file_name
        && let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
    {
        out.insert(header::CONTENT_DISPOSITION, value);
    }
    (StatusCode::OK, out, body).into_response()
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

/// An application error as an HTTP answer: a missing competition is a 404, anything else a
/// 500 (the cause is logged under the error's reference).
fn failed(error: AppError) -> Response {
    match error {
        AppError::NotFound(_) => not_found(),
        other => {
            // The cause is logged; the answer says no more than a GraphQL error would.
            let error = crate::error::GatewayError::App(other);
            tracing::error!(error = ?error, "internal error while serving a download");
            (StatusCode::INTERNAL_SERVER_ERROR, error.message()).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_names_its_player_and_nothing_else_does() {
        let player = Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0001);
        let secret = new_feed_secret(player);
        assert_eq!(feed_owner(&secret), Some(player));
        assert_ne!(new_feed_secret(player), secret);
        assert_eq!(feed_owner(&secret[..95]), None);
        assert_eq!(feed_owner(&format!("{}z", &secret[..95])), None);
        assert_eq!(feed_path(&secret), format!("/calendar/{secret}.ics"));
    }

    #[test]
    fn the_origin_follows_the_proxy_headers_and_refuses_odd_hosts() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("league.example:8000"));
        assert_eq!(RequestOrigin::of(&headers).url("/x"), "http://league.example:8000/x");
        headers.insert("x-forwarded-proto", HeaderValue::from_static("https, http"));
        headers.insert("x-forwarded-host", HeaderValue::from_static("club.example"));
        assert_eq!(RequestOrigin::of(&headers).url("/x"), "https://club.example/x");
        headers.insert("x-forwarded-host", HeaderValue::from_static("evil.example/<script>"));
        assert_eq!(RequestOrigin::of(&headers).url("/x"), "https://localhost/x");
    }
}
