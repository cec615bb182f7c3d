//! The gateway's error boundary: every failure becomes a GraphQL error whose
//! `extensions.code` is one of `UNAUTHENTICATED`, `FORBIDDEN`, `BAD_USER_INPUT` (with
//! `extensions.field`), `NOT_FOUND`, `CONFLICT`, `INTERNAL`, `QUERY_TOO_COMPLEX`,
//! `RATE_LIMITED`, `METHOD_NOT_ALLOWED`, `REPLICA_LAG` (a gateway reading a replica: the
//! command is committed at `extensions.position`, the replica has not replayed it yet) or
//! `UNAVAILABLE` (the database is out of reach for a moment, a failover: `extensions.retryable`
//! is `true`, and a retry with the same idempotency key is safe).
//! Internal causes are logged, never sent.

use async_graphql::ErrorExtensions;
use league_app::AppError;
use league_domain::ErrorCode;

/// Why the gateway refuses or fails a request.
///
/// Deliberately not `Display`: async-graphql turns every `Display` error into a GraphQL
/// error *without* extensions, so a stray `?` would silently drop the code. Resolvers
/// return [`GatewayResult`], whose only way out is [`ErrorExtensions::extend`].
#[derive(Debug, Clone)]
pub enum GatewayError {
    /// No token where one is needed, or a token that is not valid.
    Unauthenticated(&'static str),
    /// An input the gateway itself cannot map (a malformed id, a page too large…).
    BadUserInput { field: String, message: String },
    /// A looked-up object does not exist.
    NotFound(String),
    /// A request the gateway refuses before any rule is asked (a cookie-authenticated
    /// request without its same-origin proof, `docs/sign-in.md#cross-site-requests`).
    Forbidden(&'static str),
    /// The application refused (domain rules) or failed the command.
    App(AppError),
}

/// Result type of resolvers.
pub type GatewayResult<T> = Result<T, GatewayError>;

/// `extensions.code` of an unauthenticated request.
pub const UNAUTHENTICATED: &str = "UNAUTHENTICATED";
/// `extensions.code` of errors that carry no code of their own: argument coercion done by
/// async-graphql before a resolver runs (every resolver error of ours has a code).
pub const FALLBACK_CODE: &str = "BAD_USER_INPUT";
/// `extensions.code` of a query refused for its depth or complexity.
pub const QUERY_TOO_COMPLEX: &str = "QUERY_TOO_COMPLEX";
/// `extensions.code` of a document that does not parse.
pub const PARSE_FAILED: &str = "GRAPHQL_PARSE_FAILED";
/// `extensions.code` of a document that does not fit the schema.
pub const VALIDATION_FAILED: &str = "GRAPHQL_VALIDATION_FAILED";

/// `extensions.code` of a request refused by a rate limit (HTTP 429 with `Retry-After`;
/// `extensions.retryAfter` holds the same seconds).
pub const RATE_LIMITED: &str = "RATE_LIMITED";
/// `extensions.code` of a mutation sent over `GET` (HTTP 405): GET is for cacheable reads.
pub const METHOD_NOT_ALLOWED: &str = "METHOD_NOT_ALLOWED";

impl From<AppError> for GatewayError {
    fn from(error: AppError) -> Self {
        GatewayError::App(error)
    }
}

impl GatewayError {
    pub fn bad_input(field: impl Into<String>, message: impl Into<String>) -> Self {
        GatewayError::BadUserInput { field: field.into(), message: message.into() }
    }

    /// The `extensions.code` string.
    pub fn code(&self) -> &'static str {
        match self.error_code() {
            Some(code) => code.as_str(),
            None => UNAUTHENTICATED,
        }
    }

    /// The domain's error class (`None` for unauthenticated, which the domain never sees).
    fn error_code(&self) -> Option<ErrorCode> {
        match self {
            GatewayError::Unauthenticated(_) => None,
            GatewayError::BadUserInput { field, .. } => {
                Some(ErrorCode::BadUserInput { field: field.clone() })
            }
            GatewayError::NotFound(_) => Some(ErrorCode::NotFound),
            GatewayError::Forbidden(_) => Some(ErrorCode::Forbidden),
            GatewayError::App(error) => Some(error.code()),
        }
    }

    /// The message sent to the client: never an internal cause.
    pub fn message(&self) -> String {
        match self {
            GatewayError::Unauthenticated(why) => format!("unauthenticated: {why}"),
            GatewayError::BadUserInput { field, message } => format!("{field}: {message}"),
            GatewayError::NotFound(what) => format!("{what} not found"),
            GatewayError::Forbidden(why) => format!("forbidden: {why}"),
            // The app's own internal error shows only a reference to its log entry.
            GatewayError::App(error @ AppError::Internal { .. }) => error.to_string(),
            // Any other internal failure (e.g. the scheduler refusing a shape the domain
            // accepted) may describe internals: say nothing but that it failed.
            GatewayError::App(error) if matches!(error.code(), ErrorCode::Internal) => {
                "internal error".to_owned()
            }
            GatewayError::App(error) => error.to_string(),
        }
    }
}

impl ErrorExtensions for GatewayError {
    fn extend(&self) -> async_graphql::Error {
        let code = self.error_code();
        if matches!(code, Some(ErrorCode::Internal)) {
            tracing::error!(error = ?self, "internal error while handling a request");
        }
        async_graphql::Error::new(self.message()).extend_with(|_, e| {
            e.set("code", self.code());
            if let Some(ErrorCode::BadUserInput { field }) = &code {
                e.set("field", field.as_str());
            }
            if let GatewayError::App(AppError::ReplicaLag { position, .. }) = self {
                // Where the write is: a client may read again once the gateway reached it.
                e.set("position", *position);
            }
            if matches!(code, Some(ErrorCode::Unavailable)) {
                // A failover: the same request, with its idempotency key, may be sent again.
                e.set("retryable", true);
            }
        })
    }
}

impl From<GatewayError> for async_graphql::Error {
    fn from(error: GatewayError) -> Self {
        error.extend()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extensions(error: GatewayError) -> serde_json::Value {
        let error: async_graphql::Error = error.into();
        let server = error.into_server_error(async_graphql::Pos::default());
        serde_json::to_value(&server).unwrap()
    }

    #[test]
    fn bad_input_names_the_field() {
        let json = extensions(GatewayError::bad_input("first", "at most 100"));
        assert_eq!(json["extensions"]["code"], "BAD_USER_INPUT");
        assert_eq!(json["extensions"]["field"], "first");
        assert_eq!(json["message"], "first: at most 100");
    }

    #[test]
    fn internal_errors_show_only_a_reference() {
        let reference = uuid::Uuid::from_u128(7);
        let json = extensions(GatewayError::App(AppError::Internal { reference }));
        assert_eq!(json["extensions"]["code"], "INTERNAL");
        assert_eq!(json["message"], format!("internal error (reference {reference})"));
        let scheduling = league_domain::DomainError::Scheduling("seat table 3x7 broke".into());
        let json = extensions(GatewayError::App(AppError::Domain(scheduling)));
        assert_eq!(json["extensions"]["code"], "INTERNAL");
        assert_eq!(json["message"], "internal error");
    }

    #[test]
    fn unavailable_is_retryable_and_shows_only_a_reference() {
        let reference = uuid::Uuid::from_u128(9);
        let json = extensions(GatewayError::App(AppError::Unavailable { reference }));
        assert_eq!(json["extensions"]["code"], "UNAVAILABLE");
        assert_eq!(json["extensions"]["retryable"], true);
        assert!(json["message"].as_str().unwrap().contains("same idempotency key"), "{json}");
    }

    #[test]
    fn unauthenticated_and_not_found_have_their_codes() {
        let json = extensions(GatewayError::Unauthenticated("no token"));
        assert_eq!(json["extensions"]["code"], "UNAUTHENTICATED");
        assert!(json["extensions"].get("field").is_none());
        let json = extensions(GatewayError::NotFound("game x".into()));
        assert_eq!(json["extensions"]["code"], "NOT_FOUND");
    }
}
