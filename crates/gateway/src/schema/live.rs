//! The live feed a subscription streams from: the application's notifications that concern
//! it, each turned into an item, until the server shuts down.

use std::future::Future;
use std::sync::Arc;

use async_graphql::Context;
use futures::Stream;
use league_app::Notification;
use tokio::sync::broadcast::error::RecvError;

use crate::Shutdown;
use crate::error::GatewayResult;
use crate::schema::context::app;

/// The live feed's notifications that `concerns` keeps, each turned into an item by `item`
/// (`None` skips it), until the server shuts down.
pub(crate) fn feed<T, C, F, Fut>(
    ctx: &Context<'_>,
    concerns: C,
    mut item: F,
) -> GatewayResult<impl Stream<Item = T> + use<T, C, F, Fut>>
where
    C: Fn(&Notification) -> bool + Send + 'static,
    F: FnMut(Arc<Notification>) -> Fut + Send + 'static,
    Fut: Future<Output = Option<T>> + Send,
    T: Send + 'static,
{
    let app = app(ctx);
    let mut feed = app.subscribe();
    let mut shutdown = ctx.data_opt::<Shutdown>().cloned().unwrap_or_default();
    Ok(async_stream::stream! {
        loop {
            let notification = tokio::select! {
                received = feed.recv() => received,
                () = shutdown.requested() => break,
            };
            match notification {
                Ok(n) if concerns(&n) => {
                    if let Some(value) = item(n).await {
                        yield value;
                    }
                }
                Ok(_) => {}
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "subscriber lagged behind the live feed");
                }
                Err(RecvError::Closed) => break,
            }
        }
    })
}
