//! Live league updates: a league's events as they are appended, and its standings each
//! time they change. Streams end on server shutdown.

use std::future::Future;
use std::sync::Arc;

use async_graphql::{Context, ID, SimpleObject, Subscription};
use futures::Stream;
use league_app::Notification;
use league_projections::StandingRow;

use super::types::{League, Standing};
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::app;
use crate::schema::events::Event;
use crate::schema::inputs::parse_id;
use crate::schema::live::{SentRows, feed};

/// A league's standings after a change.
#[derive(SimpleObject)]
pub struct StandingsUpdate {
    pub league: League,
    /// Global position of the event that changed them.
    pub position: u64,
    pub standings: Vec<Standing>,
    /// The league stream's version after the change (`League.version`).
    pub version: u64,
    /// The league stream's version of the standings `changed` is measured against: the
    /// subscription's previous update, or the league as it stood when it subscribed. A page
    /// whose standings are of another version reads them again (`docs/api.md#live-updates`).
    pub previous_version: u64,
    /// Only the rows that differ from those of `previousVersion` other than by their rank (a
    /// new player's included): what a page holding those applies, instead of every row.
    pub changed: Vec<Standing>,
    /// The rank now of each row of `previousVersion`'s standings, in their order (0: the
    /// player left).
    pub ranks: Vec<u32>,
    /// How many rows the standings have now (a player who left has none).
    pub row_count: usize,
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
        let model = app.existing_league(league).await?;
        let sent = Arc::new(SentRows::new(
            model.league(league).map_or(0, |l| l.stream_version),
            model.standings(league).into(),
        ));
        league_feed(ctx, &league_id, move |notification| {
            // The stream owns the watch: it ends with the subscription.
            let _watching = &watch;
            let (app, sent) = (app.clone(), sent.clone());
            async move {
                let position = notification.event.position;
                let version = notification.event.stream_version;
                let rows: Arc<[StandingRow]> =
                    match app.standings_update(league, &notification).await {
                        Ok(rows) => rows?.into(),
                        Err(error) => {
                            tracing::error!(%error, "standings update not served");
                            return None;
                        }
                    };
                let changes = sent.advance(version, rows.clone())?;
                let standing = |row: &StandingRow| Standing::new(app.clone(), row.clone());
                Some(StandingsUpdate {
                    league: League::new(app.clone(), league),
                    position,
                    standings: rows.iter().map(standing).collect(),
                    version,
                    previous_version: changes.previous_version,
                    changed: changes.changed.iter().map(standing).collect(),
                    ranks: changes.ranks,
                    row_count: rows.len(),
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
