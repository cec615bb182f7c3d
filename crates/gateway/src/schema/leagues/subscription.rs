//! Live league updates: a league's events as they are appended, and its standings each
//! time they change. Streams end on server shutdown.

use std::future::Future;
use std::sync::Arc;

use async_graphql::{Context, ID, SimpleObject, Subscription};
use futures::Stream;
use league_app::Notification;

use super::types::{League, Standing};
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::app;
use crate::schema::events::Event;
use crate::schema::inputs::parse_id;
use crate::schema::live::feed;

/// A league's standings after a change.
#[derive(SimpleObject)]
pub struct StandingsUpdate {
    pub league: League,
    /// Global position of the event that changed them.
    pub position: u64,
    pub standings: Vec<Standing>,
}

/// League subscriptions (merged into the subscription root).
#[derive(Debug, Default)]
pub struct LeagueSubscription;

#[Subscription]
impl LeagueSubscription {
    /// Every event appended to a league's stream from now on.
    async fn league_events(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
    ) -> Result<impl Stream<Item = Event> + use<>, GatewayError> {
        league_feed(ctx, &league_id, |notification| {
            std::future::ready(Some(Event(notification.event.clone())))
        })
    }

    /// A league's standings, each time they change: a result, a correction, or a player
    /// joining or leaving (every subscribed player has a line). Each update's standings are
    /// exactly `standings(asOf: {position})` of the position it names.
    async fn standings_changed(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
    ) -> Result<impl Stream<Item = StandingsUpdate> + use<>, GatewayError> {
        let app = app(ctx).clone();
        let league = parse_id(&league_id, "leagueId")?;
        // Watched before the feed is joined: the follower then ranks this league's standings
        // right after each change, once for every subscriber.
        let watch = app.watch_standings(league).await?;
        league_feed(ctx, &league_id, move |notification| {
            // The stream owns the watch: it ends with the subscription.
            let _watching = &watch;
            let app = app.clone();
            async move {
                let position = notification.event.position;
                let rows = match app.standings_update(league, &notification).await {
                    Ok(rows) => rows?,
                    Err(error) => {
                        tracing::error!(%error, "standings update not served");
                        return None;
                    }
                };
                let standings =
                    rows.into_iter().map(|row| Standing::new(app.clone(), row)).collect();
                Some(StandingsUpdate {
                    league: League::new(app.clone(), league),
                    position,
                    standings,
                })
            }
        })
    }
}

/// The live feed of an existing league (`NOT_FOUND` otherwise): each notification about it
/// is turned into an item by `item` (`None` skips it), until the server shuts down. A slow
/// client that misses notifications keeps the later ones (the audit log has everything).
fn league_feed<T, F, Fut>(
    ctx: &Context<'_>,
    league_id: &ID,
    item: F,
) -> GatewayResult<impl Stream<Item = T> + use<T, F, Fut>>
where
    F: FnMut(Arc<Notification>) -> Fut + Send + 'static,
    Fut: Future<Output = Option<T>> + Send,
    T: Send + 'static,
{
    let league = parse_id(league_id, "leagueId")?;
    app(ctx).require_league(league)?;
    feed(ctx, move |n| n.league == Some(league), item)
}
