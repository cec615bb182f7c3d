//! The reference web frontend and GraphiQL, served from files embedded in the binary at
//! compile time (`web/`), so `league serve` needs no CDN and no network at run time.
//!
//! `GET /` is the app, `GET /graphiql` is GraphiQL (its React and GraphiQL bundles are
//! vendored under `web/vendor/`), every embedded file is served at its own path, and any
//! other extension-less path falls back to the app, so deep links such as
//! `/leagues/<id>` work after a reload.

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::Embed;

/// The files under `web/` (embedded in debug builds too, so tests see what ships).
#[derive(Embed)]
#[folder = "../../web/"]
struct Assets;

/// The app's entry page, served for `/` and every app path without a file.
const APP_PAGE: &str = "index.html";

/// Routes for the app and GraphiQL, with the app's fallback for unknown paths.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|headers: HeaderMap| async move { file(APP_PAGE, &headers) }))
        .route(
            "/graphiql",
            get(|headers: HeaderMap| async move { file("graphiql.html", &headers) }),
        )
        .fallback(fallback)
}

/// An embedded file by its URI path; an unknown path without a file extension is an app
/// route (the app's router reads the URL), anything else, or any method but GET and HEAD,
/// is a 404.
async fn fallback(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    let path = uri.path().trim_start_matches('/');
    if Assets::get(path).is_some() {
        return file(path, &headers);
    }
    let last = path.rsplit('/').next().unwrap_or_default();
    if last.contains('.') || path.starts_with("graphql") {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    file(APP_PAGE, &headers)
}

/// One embedded file with its content type and an ETag (its SHA-256); a matching
/// `If-None-Match` gets 304. Browsers revalidate every time (`no-cache`), so a new
/// binary's assets are picked up at once.
pub(crate) fn file(path: &str, headers: &HeaderMap) -> Response {
    let Some(asset) = Assets::get(path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let etag = format!("\"{}\"", hex::encode(asset.metadata.sha256_hash()));
    let mut headers_out = HeaderMap::new();
    headers_out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers_out.insert(header::ETAG, value);
    }
    if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v.as_bytes() == etag.as_bytes()) {
        return (StatusCode::NOT_MODIFIED, headers_out).into_response();
    }
    let mime = HeaderValue::from_str(asset.metadata.mimetype())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    headers_out.insert(header::CONTENT_TYPE, mime);
    (StatusCode::OK, headers_out, asset.data).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    async fn get(path: &str, if_none_match: Option<&str>) -> Response {
        let mut request = Request::get(path);
        if let Some(tag) = if_none_match {
            request = request.header(header::IF_NONE_MATCH, tag);
        }
        routes::<()>().oneshot(request.body(Body::empty()).unwrap()).await.unwrap()
    }

    fn content_type(response: &Response) -> &str {
        response.headers()[header::CONTENT_TYPE].to_str().unwrap()
    }

    #[tokio::test]
    async fn serves_the_app_graphiql_and_assets_with_types() {
        let app = get("/", None).await;
        assert_eq!(app.status(), StatusCode::OK);
        assert!(content_type(&app).starts_with("text/html"));
        let graphiql = get("/graphiql", None).await;
        assert_eq!(graphiql.status(), StatusCode::OK);
        assert_ne!(app.headers()[header::ETAG], graphiql.headers()[header::ETAG]);
        let script = get("/js/main.js", None).await;
        assert_eq!(script.status(), StatusCode::OK);
        assert!(content_type(&script).contains("javascript"), "{}", content_type(&script));
        let vendored = get("/vendor/graphiql/graphiql.min.css", None).await;
        assert!(content_type(&vendored).starts_with("text/css"));
    }

    #[tokio::test]
    async fn deep_links_fall_back_to_the_app_but_missing_files_do_not() {
        let app = get("/", None).await;
        let deep = get("/leagues/0195-abc", None).await;
        assert_eq!(deep.status(), StatusCode::OK);
        assert_eq!(deep.headers()[header::ETAG], app.headers()[header::ETAG]);
        assert_eq!(get("/js/missing.js", None).await.status(), StatusCode::NOT_FOUND);
        assert_eq!(get("/graphql/other", None).await.status(), StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn other_methods_on_unknown_paths_are_not_found() {
        let request = Request::post("/leagues/0195-abc").body(Body::empty()).unwrap();
        let response = routes::<()>().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn a_matching_etag_gets_not_modified() {
        let first = get("/", None).await;
        let tag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert_eq!(get("/", Some(&tag)).await.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(get("/", Some("\"other\"")).await.status(), StatusCode::OK);
    }
}
