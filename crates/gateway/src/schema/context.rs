//! What every resolver reads from its context: the application, the caller, and the
//! running of a command with the request's id as correlation id (plus the two argument
//! mappings commands share: the player a command is about, and a result refusal in the
//! terms of the input sent).

use async_graphql::{Context, ID};
use league_app::{App, CommandOptions, Executed};
use uuid::Uuid;

use crate::RequestId;
use crate::auth::Caller;
use crate::error::{GatewayError, GatewayResult};
use crate::schema::inputs::{GameResultInput, parse_id};

/// The application (schema data, always present in a served schema).
pub(crate) fn app<'a>(ctx: &Context<'a>) -> &'a App {
    ctx.data_unchecked::<App>()
}

/// Who is calling (request or connection data; anonymous when absent).
pub(crate) fn caller(ctx: &Context<'_>) -> Caller {
    ctx.data_opt::<Caller>().copied().unwrap_or(Caller::Anonymous)
}

/// Runs a command with the request's id as correlation id.
pub(crate) async fn execute(
    ctx: &Context<'_>,
    command: impl Into<league_app::AppCommand>,
    idempotency_key: Option<String>,
) -> GatewayResult<Executed> {
    let app: &App = app(ctx);
    let options = CommandOptions {
        idempotency_key,
        correlation_id: ctx.data_opt::<RequestId>().map(|id| id.0),
    };
    Ok(app.execute(command, options).await?)
}

/// The player a (un)subscription is about: the named one, else the calling player.
pub(crate) fn subject(caller: Caller, player_id: Option<ID>) -> GatewayResult<Uuid> {
    match (player_id, caller) {
        (Some(id), _) => parse_id(&id, "playerId"),
        (None, Caller::Player(id)) => Ok(id),
        (None, _) => Err(GatewayError::bad_input("playerId", "the admin must name the player")),
    }
}

/// A domain refusal of a result names the field in the scoring crate's terms; say it in
/// the terms of the `GameResultInput` the caller sent.
pub(crate) fn in_input_terms(error: GatewayError, input: &GameResultInput) -> GatewayError {
    let GatewayError::App(app_error) = &error else {
        return error;
    };
    match app_error.invalid_input() {
        Some((field, message)) => GatewayError::bad_input(input.input_field(field), message),
        None => error,
    }
}
