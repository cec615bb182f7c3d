//! An async-graphql extension that gives every error an `extensions.code`, enforces the
//! depth and complexity limits with a clear code of its own, and, once the document shows
//! a mutation, refuses it over `GET` and draws it from the caller's mutation rate limit.
//!
//! async-graphql's own `limit_depth`/`limit_complexity` refuse with a bare message
//! ("Query is nested too deep."); here the limits are checked on the validation result
//! instead, so the refusal says `QUERY_TOO_COMPLEX` and which limit was hit.
//!
//! A document that reads only the schema (`__schema`, `__type`, `__typename` at the top of
//! every operation) gets its own depth limit: the standard introspection query nests
//! `ofType` nine times (depth 15), and it reads static schema data, not the league.
//!
//! [`Uncacheable`] is the flag a resolver sets when its answer does not follow the log
//! position (the response cache and entity tags are keyed by it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use async_graphql::extensions::{
    Extension, ExtensionContext, ExtensionFactory, NextParseQuery, NextPrepareRequest, NextRequest,
    NextSubscribe, NextValidation,
};
use async_graphql::parser::types::{ExecutableDocument, OperationType, Selection};
use async_graphql::{
    Pos, Request, Response, ServerError, ServerResult, ValidationResult, Variables,
};
use futures::StreamExt;
use futures::stream::BoxStream;

use crate::error::{
    FALLBACK_CODE, METHOD_NOT_ALLOWED, PARSE_FAILED, QUERY_TOO_COMPLEX, VALIDATION_FAILED,
};
use crate::metrics::OperationKind;
use crate::rate_limit::{RateKey, RateLimiter};

/// How a request arrived (request or connection data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Post,
    /// A cacheable read: mutations are refused.
    Get,
    WebSocket,
}

/// Filled with the kind of the operation a request runs, once its document is parsed
/// (request data; the HTTP side reads it for the metrics).
#[derive(Debug, Clone, Default)]
pub struct OperationSlot(Arc<Mutex<Option<OperationKind>>>);

impl OperationSlot {
    pub fn get(&self) -> OperationKind {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).unwrap_or(OperationKind::Unknown)
    }

    fn set(&self, kind: OperationKind) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(kind);
    }
}

/// Set by a resolver whose answer can change without an append (the `webhooks` query's
/// attempts, errors and checkpoints): the answer is then neither kept in the response cache
/// nor given an entity tag, both of which are keyed by the log position (request data).
#[derive(Debug, Clone, Default)]
pub struct Uncacheable(Arc<AtomicBool>);

impl Uncacheable {
    /// Marks the request `ctx` belongs to as uncacheable (a no-op where the HTTP side set no
    /// flag, e.g. over a WebSocket).
    pub fn mark(ctx: &async_graphql::Context<'_>) {
        if let Some(flag) = ctx.data_opt::<Uncacheable>() {
            flag.0.store(true, Ordering::Relaxed);
        }
    }

    pub fn is_marked(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The type of the operation `operation_name` selects (the only one when unnamed).
fn operation_type(
    document: &ExecutableDocument,
    operation_name: Option<&str>,
) -> Option<OperationType> {
    let mut operations = document.operations.iter();
    let selected = match operation_name {
        Some(name) => operations.find(|(n, _)| n.map(|n| n.as_str()) == Some(name)),
        None => {
            let first = operations.next();
            if operations.next().is_some() { None } else { first }
        }
    };
    selected.map(|(_, operation)| operation.node.ty)
}

/// Factory of [`ErrorCodesExtension`].
#[derive(Debug, Clone, Copy)]
pub struct ErrorCodes {
    max_depth: usize,
    max_introspection_depth: usize,
    max_complexity: usize,
}

impl ErrorCodes {
    pub fn new(max_depth: usize, max_introspection_depth: usize, max_complexity: usize) -> Self {
        ErrorCodes { max_depth, max_introspection_depth, max_complexity }
    }
}

impl ExtensionFactory for ErrorCodes {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(ErrorCodesExtension {
            limits: *self,
            introspection_only: AtomicBool::new(false),
            operation_name: Mutex::default(),
        })
    }
}

/// One request's instance of the extension.
#[derive(Debug)]
pub struct ErrorCodesExtension {
    limits: ErrorCodes,
    /// Set by parsing: the document reads nothing but the schema.
    introspection_only: AtomicBool,
    /// The request's `operationName`, kept to find the operation in the parsed document.
    operation_name: Mutex<Option<String>>,
}

/// Whether every operation of `document` selects only introspection fields at its top.
fn is_introspection_only(document: &ExecutableDocument) -> bool {
    document.operations.iter().all(|(_, operation)| {
        operation.node.selection_set.node.items.iter().all(|selection| match &selection.node {
            Selection::Field(field) => {
                matches!(field.node.name.node.as_str(), "__schema" | "__type" | "__typename")
            }
            // A spread could hide data fields behind a fragment: judged as a data query.
            Selection::FragmentSpread(_) | Selection::InlineFragment(_) => false,
        })
    })
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

    async fn prepare_request(
        &self,
        ctx: &ExtensionContext<'_>,
        request: Request,
        next: NextPrepareRequest<'_>,
    ) -> ServerResult<Request> {
        self.operation_name
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone_from(&request.operation_name);
        next.run(ctx, request).await
    }

    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        let document =
            next.run(ctx, query, variables).await.map_err(|e| with_code(e, PARSE_FAILED))?;
        self.introspection_only.store(is_introspection_only(&document), Ordering::Relaxed);
        let name = self.operation_name.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let ty = operation_type(&document, name.as_deref());
        if let Some(slot) = ctx.data_opt::<OperationSlot>() {
            slot.set(match ty {
                Some(OperationType::Query) => OperationKind::Query,
                Some(OperationType::Mutation) => OperationKind::Mutation,
                Some(OperationType::Subscription) | None => OperationKind::Unknown,
            });
        }
        // HTTP requests draw from the request bucket before they are read; an operation
        // sent over a WebSocket draws here, so one connection cannot run unlimited queries.
        if ctx.data_opt::<Transport>() == Some(&Transport::WebSocket)
            && let (Some(limiter), Some(key)) =
                (ctx.data_opt::<RateLimiter>(), ctx.data_opt::<RateKey>())
            && let Err(limited) = limiter.check_request(key)
        {
            return Err(limited.error().into_server_error(Pos::default()));
        }
        if ty == Some(OperationType::Mutation) {
            if ctx.data_opt::<Transport>() == Some(&Transport::Get) {
                let mut error =
                    ServerError::new("mutations are sent with POST; GET is for reads", None);
                error
                    .extensions
                    .get_or_insert_with(Default::default)
                    .set("code", METHOD_NOT_ALLOWED);
                return Err(error);
            }
            if let (Some(limiter), Some(key)) =
                (ctx.data_opt::<RateLimiter>(), ctx.data_opt::<RateKey>())
                && let Err(limited) = limiter.check_mutation(key)
            {
                return Err(limited.error().into_server_error(Pos::default()));
            }
        }
        Ok(document)
    }

    async fn validation(
        &self,
        ctx: &ExtensionContext<'_>,
        next: NextValidation<'_>,
    ) -> Result<ValidationResult, Vec<ServerError>> {
        let result = next.run(ctx).await.map_err(|errors| {
            errors.into_iter().map(|e| with_code(e, VALIDATION_FAILED)).collect::<Vec<_>>()
        })?;
        let max_depth = if self.introspection_only.load(Ordering::Relaxed) {
            self.limits.max_introspection_depth
        } else {
            self.limits.max_depth
        };
        if result.depth > max_depth {
            return Err(vec![too_complex("depth", max_depth, result.depth)]);
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
