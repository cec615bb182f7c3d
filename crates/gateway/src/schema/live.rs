//! The live feed a subscription streams from: the application's notifications that concern
//! it, each turned into an item, until the server shuts down; and the standings rows a
//! subscription sent last, so that its next update carries only the rows that changed
//! (`docs/api.md#live-updates`).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use async_graphql::Context;
use futures::Stream;
use league_app::Notification;
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

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

/// A line of standings, as [`SentRows`] compares them.
pub(crate) trait RankedRow: Clone + PartialEq {
    fn rank(&self) -> u32;
    fn player(&self) -> Uuid;
    /// The same line with another rank.
    fn with_rank(&self, rank: u32) -> Self;
}

/// [`RankedRow`] for row types with a `rank` and a `player` field.
macro_rules! ranked_row {
    ($($row:ty),+) => {$(
        impl RankedRow for $row {
            fn rank(&self) -> u32 {
                self.rank
            }
            fn player(&self) -> Uuid {
                self.player.into()
            }
            fn with_rank(&self, rank: u32) -> Self {
                Self { rank, ..self.clone() }
            }
        }
    )+};
}

ranked_row!(
    league_projections::StandingRow,
    league_scoring::TournamentStanding<league_domain::PlayerId>
);

/// What changed between a subscription's last standings and the new ones.
pub(crate) struct RowChanges<R> {
    /// The version the last standings stood at.
    pub previous_version: u64,
    /// The new rows that differ from the last ones other than by their rank (a new player's
    /// included).
    pub changed: Vec<R>,
    /// The rank now of each row of the last standings, in their order (0: no longer there).
    pub ranks: Vec<u32>,
}

/// A subscription's standings as it last stood (its stream's version and rows): the next
/// update names that version and carries only what differs from these.
pub(crate) struct SentRows<R>(Mutex<(u64, Arc<[R]>)>);

impl<R: RankedRow> SentRows<R> {
    /// The standings a subscription starts from: `rows` at stream version `version`.
    pub(crate) fn new(version: u64, rows: Arc<[R]>) -> Self {
        SentRows(Mutex::new((version, rows)))
    }

    /// What differs between the last standings and `now` (at `version`); `now` becomes the
    /// last. `None` when `version` is not newer (the rows the subscription started from
    /// include it already).
    pub(crate) fn advance(&self, version: u64, now: Arc<[R]>) -> Option<RowChanges<R>> {
        let mut sent = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (previous_version, last) = &*sent;
        if version <= *previous_version {
            return None;
        }
        let by_player: HashMap<Uuid, &R> = now.iter().map(|row| (row.player(), row)).collect();
        let before: HashMap<Uuid, &R> = last.iter().map(|row| (row.player(), row)).collect();
        let ranks =
            last.iter().map(|row| by_player.get(&row.player()).map_or(0, |r| r.rank())).collect();
        let changed = now
            .iter()
            .filter(|row| {
                before.get(&row.player()).is_none_or(|old| old.with_rank(row.rank()) != **row)
            })
            .cloned()
            .collect();
        let changes = RowChanges { previous_version: *previous_version, changed, ranks };
        *sent = (version, now);
        Some(changes)
    }
}
