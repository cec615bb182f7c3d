//! The live feed a subscription streams from: the application's notifications that concern
//! it, each turned into an item, until the server shuts down; and the standings rows a
//! subscription sent last, so that its next update carries only the rows that changed
//! (`docs/api.md#live-updates`).

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

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

/// A subscription's standings as it last stood (its stream's version and rows): the next
/// update names that version and carries only the rows that differ from these.
pub(crate) struct SentRows<R>(Mutex<(u64, Arc<[R]>)>);

impl<R: PartialEq + Clone> SentRows<R> {
    /// The standings a subscription starts from: `rows` at stream version `version`.
    pub(crate) fn new(version: u64, rows: Arc<[R]>) -> Self {
        SentRows(Mutex::new((version, rows)))
    }

    /// The version the rows stood at and the rows of `now` (at `version`) that differ from
    /// them; `now` becomes what was sent. `None` when `version` is not newer (the rows the
    /// subscription started from include it already).
    pub(crate) fn advance(&self, version: u64, now: Arc<[R]>) -> Option<(u64, Vec<R>)> {
        let mut sent = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (previous, rows) = &*sent;
        if version <= *previous {
            return None;
        }
        let changed = now.iter().filter(|row| !rows.contains(row)).cloned().collect();
        let previous = *previous;
        *sent = (version, now);
        Some((previous, changed))
    }
}
