//! An async-graphql extension that gives every error an `extensions.code` and enforces the
//! depth and complexity limits with a clear code of its own.
//!
//! async-graphql's own `limit_depth`/`limit_complexity` refuse with a bare message
//! ("Query is nested too deep."); here the limits are checked on the validation result
//! instead, so the refusal says `QUERY_TOO_COMPLEX` and which limit was hit.

use std::sync::Arc;

use async_graphql::extensions::{
    Extension, ExtensionContext, ExtensionFactory, NextParseQuery, NextRequest, NextSubscribe,
    NextValidation,
};
use async_graphql::parser::types::ExecutableDocument;
use async_graphql::{Response, ServerError, ServerResult, ValidationResult, Variables};
use futures::StreamExt;
use futures::stream::BoxStream;

use crate::error::{
    BAD_USER_INPUT, FALLBACK_CODE, PARSE_FAILED, QUERY_TOO_COMPLEX, VALIDATION_FAILED,
};

/// Factory of [`ErrorCodesExtension`].
#[derive(Debug, Clone, Copy)]
pub struct ErrorCodes {
    max_depth: usize,
    max_complexity: usize,
}

impl ErrorCodes {
    pub fn new(max_depth: usize, max_complexity: usize) -> Self {
        ErrorCodes { max_depth, max_complexity }
    }
}

impl ExtensionFactory for ErrorCodes {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(ErrorCodesExtension { limits: *self })
    }
}

/// One request's instance of the extension.
#[derive(Debug)]
pub struct ErrorCodesExtension {
    limits: ErrorCodes,
}

/// Sets `code` on an error that has none.
fn with_code(mut error: ServerError, code: &str) -> ServerError {
    let extensions = error.extensions.get_or_insert_with(Default::default);
    if extensions.get("code").is_none() {
        extensions.set("code", code);
    }
    error
}

fn with_codes(mut response: Response, code: &str) -> Response {
    response.errors = response.errors.into_iter().map(|e| with_code(e, code)).collect();
    response
}

/// The argument named by async-graphql's "Invalid value for argument \"input.size\", …"
/// message: a value of the wrong type or shape (a oneOf input with two fields, an unknown
/// enum value), found while validating the document.
fn invalid_argument(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("Invalid value for argument \"")?;
    rest.split_once('"').map(|(argument, _)| argument)
}

/// A validation error: `BAD_USER_INPUT` with the argument for a bad argument value,
/// `GRAPHQL_VALIDATION_FAILED` for anything else (unknown fields, missing arguments…).
fn validation_error(mut error: ServerError) -> ServerError {
    if let Some(argument) = invalid_argument(&error.message).map(str::to_owned) {
        let extensions = error.extensions.get_or_insert_with(Default::default);
        if extensions.get("code").is_none() {
            extensions.set("code", BAD_USER_INPUT);
            extensions.set("field", argument);
        }
        return error;
    }
    with_code(error, VALIDATION_FAILED)
}

fn too_complex(limit: &str, max: usize, actual: usize) -> ServerError {
    let mut error =
        ServerError::new(format!("query {limit} {actual} exceeds the limit of {max}"), None);
    let extensions = error.extensions.get_or_insert_with(Default::default);
    extensions.set("code", QUERY_TOO_COMPLEX);
    extensions.set("limit", limit);
    extensions.set("max", max as u64);
    extensions.set("actual", actual as u64);
    error
}

#[async_trait::async_trait]
impl Extension for ErrorCodesExtension {
    async fn request(&self, ctx: &ExtensionContext<'_>, next: NextRequest<'_>) -> Response {
        with_codes(next.run(ctx).await, FALLBACK_CODE)
    }

    fn subscribe<'s>(
        &self,
        ctx: &ExtensionContext<'_>,
        stream: BoxStream<'s, Response>,
        next: NextSubscribe<'_>,
    ) -> BoxStream<'s, Response> {
        next.run(ctx, stream).map(|response| with_codes(response, FALLBACK_CODE)).boxed()
    }

    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        next.run(ctx, query, variables).await.map_err(|e| with_code(e, PARSE_FAILED))
    }

    async fn validation(
        &self,
        ctx: &ExtensionContext<'_>,
        next: NextValidation<'_>,
    ) -> Result<ValidationResult, Vec<ServerError>> {
        let result = next
            .run(ctx)
            .await
            .map_err(|errors| errors.into_iter().map(validation_error).collect::<Vec<_>>())?;
        if result.depth > self.limits.max_depth {
            return Err(vec![too_complex("depth", self.limits.max_depth, result.depth)]);
        }
        if result.complexity > self.limits.max_complexity {
            return Err(vec![too_complex(
                "complexity",
                self.limits.max_complexity,
                result.complexity,
            )]);
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_argument_values_are_bad_user_input_naming_the_argument() {
        let error = validation_error(ServerError::new(
            "Invalid value for argument \"input.scoringSystem\", enumeration type \"ScoringSystem\" \
             does not contain the value \"FOO\"",
            None,
        ));
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(json["extensions"]["code"], "BAD_USER_INPUT");
        assert_eq!(json["extensions"]["field"], "input.scoringSystem");
        let error = validation_error(ServerError::new("Unknown field \"colour\"", None));
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(json["extensions"]["code"], "GRAPHQL_VALIDATION_FAILED");
        assert!(json["extensions"].get("field").is_none());
    }
}
