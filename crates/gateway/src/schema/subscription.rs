//! Subscriptions over the application's live feed: a league's events as they are
//! appended, and its standings each time they change. Streams end on server shutdown.

use std::future::Future;
use std::sync::Arc;

use async_graphql::{Context, ID, SimpleObject, Subscription};
use futures::Stream;
use league_app::Notification;
use tokio::sync::broadcast::error::RecvError;

use super::app;
use super::inputs::parse_id;
use super::tournament::Tournament;
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
/// A tournament whose standings changed (select `standings` on it), at the log position of
/// the change.
#[derive(SimpleObject)]
pub struct TournamentStandingsUpdate {
    pub tournament: Tournament,
    pub position: u64,
}

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
                if !notification.standings_changed {
                    return None;
                }
                let position = notification.event.position;
                let rows = match &notification.standings {
                    Some(rows) => rows.to_vec(),
                    // Folded before the watch began, or while the model was not cached.
                    None => match app.standings_at(league, position).await {
                        Ok(rows) => rows,
                        Err(error) => {
                            tracing::error!(%error, "standings update not served");
                            return None;
                        }
                    },
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

    /// Every event of a tournament's stream as it is folded (entries, roll-call answers,
    /// seedings, swaps, results…): what a director's page refreshes on.
    async fn tournament_events(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
    ) -> Result<impl Stream<Item = Event> + use<>, GatewayError> {
        let id = parse_id(&tournament_id, "tournamentId")?;
        app(ctx).existing_tournament(id).await?;
        feed(
            ctx,
            move |n| n.applied.tournament == Some(id),
            |notification| std::future::ready(Some(Event(notification.event.clone()))),
        )
    }

    /// A tournament's standings after every change that can move them (an entry, a seeded
    /// round, a swap, a result or a correction): select `standings` on the tournament.
    async fn tournament_standings_changed(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
    ) -> Result<impl Stream<Item = TournamentStandingsUpdate> + use<>, GatewayError> {
        let id = parse_id(&tournament_id, "tournamentId")?;
        let app = app(ctx).clone();
        app.existing_tournament(id).await?;
        feed(
            ctx,
            move |n| n.applied.tournament == Some(id),
            move |notification| {
                let app = app.clone();
                async move {
                    if !notification.standings_changed {
                        return None;
                    }
                    let event = &notification.event;
                    match app.tournament_at(id, event.position, event.stream_version).await {
                        Ok(state) => Some(TournamentStandingsUpdate {
                            tournament: Tournament::new(app.clone(), id, state),
                            position: notification.event.position,
                        }),
                        Err(error) => {
                            tracing::error!(%error, "tournament standings update not served");
                            None
                        }
                    }
                }
            },
        )
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

/// The live feed's notifications that `concerns` keeps, each turned into an item by `item`
/// (`None` skips it), until the server shuts down.
fn feed<T, C, F, Fut>(
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
