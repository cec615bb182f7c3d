//! Subscriptions over the application's live feed: a league's events as they are
//! appended, and its standings each time they change. Streams end on server shutdown.

use async_graphql::{Context, ID, SimpleObject, Subscription};
use futures::Stream;
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

use super::app;
use super::inputs::parse_id;
use super::types::{Event, League, Standing};
use crate::Shutdown;
use crate::error::{GatewayError, GatewayResult};

/// A league's standings after a change.
#[derive(SimpleObject)]
pub struct StandingsUpdate {
    pub league: League,
    /// Global position of the event that changed them.
    pub position: u64,
    pub standings: Vec<Standing>,
}

/// The subscription root.
#[derive(Debug, Default)]
pub struct SubscriptionRoot;

/// Live updates over `/graphql/ws` (graphql-transport-ws or graphql-ws); authenticate in
/// `connection_init` with `{"authorization": "Bearer <token>"}` (optional: reads are public).
#[Subscription(name = "Subscription")]
impl SubscriptionRoot {
    /// Every event appended to a league's stream from now on.
    async fn league_events(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
    ) -> Result<impl Stream<Item = Event> + use<>, GatewayError> {
        let league = existing_league(ctx, &league_id)?;
        let mut feed = app(ctx).subscribe();
        let mut shutdown = ctx.data_opt::<Shutdown>().cloned().unwrap_or_default();
        Ok(async_stream::stream! {
            loop {
                let notification = tokio::select! {
                    received = feed.recv() => received,
                    () = shutdown.requested() => break,
                };
                match notification {
                    Ok(n) if n.league == Some(league) => yield Event(n.event.clone()),
                    Ok(_) => {}
                    // A slow client missed events; it keeps the later ones (the audit
                    // log has everything).
                    Err(RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "subscriber lagged behind the live feed");
                    }
                    Err(RecvError::Closed) => break,
                }
            }
        })
    }

    /// A league's standings, each time they change: a result, a correction, or a player
    /// joining or leaving (every subscribed player has a line).
    async fn standings_changed(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
    ) -> Result<impl Stream<Item = StandingsUpdate> + use<>, GatewayError> {
        let league = existing_league(ctx, &league_id)?;
        let app = app(ctx).clone();
        let mut feed = app.subscribe();
        let mut shutdown = ctx.data_opt::<Shutdown>().cloned().unwrap_or_default();
        Ok(async_stream::stream! {
            loop {
                let notification = tokio::select! {
                    received = feed.recv() => received,
                    () = shutdown.requested() => break,
                };
                match notification {
                    Ok(n) if n.league == Some(league) && n.standings_changed => {
                        // The model is as of the applied position, which is at or past this
                        // event's: the standings include it.
                        let rows = match app.league(league).await {
                            Ok(Some(model)) => model.standings(league),
                            Ok(None) => continue,
                            Err(error) => {
                                tracing::error!(%error, "standings update not served");
                                continue;
                            }
                        };
                        let standings =
                            rows.into_iter().map(|row| Standing::new(app.clone(), row)).collect();
                        yield StandingsUpdate {
                            league: League::new(app.clone(), league),
                            position: n.event.position,
                            standings,
                        };
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
}

fn existing_league(ctx: &Context<'_>, league_id: &ID) -> GatewayResult<Uuid> {
    let league = parse_id(league_id, "leagueId")?;
    match app(ctx).catalog().league(league) {
        Some(_) => Ok(league),
        None => Err(GatewayError::NotFound(format!("league {league}"))),
    }
}
