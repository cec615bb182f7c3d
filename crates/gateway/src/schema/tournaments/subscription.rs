//! Live tournament updates: a tournament's events as they are folded, and the tournament
//! after every change that can move its standings. Streams end on server shutdown.

use async_graphql::{Context, ID, SimpleObject, Subscription};
use futures::Stream;

use super::types::Tournament;
use crate::error::GatewayError;
use crate::schema::context::app;
use crate::schema::events::Event;
use crate::schema::inputs::parse_id;
use crate::schema::live::feed;

/// The subscription root.
/// A tournament whose standings changed (select `standings` on it), at the log position of
/// the change.
#[derive(SimpleObject)]
pub struct TournamentStandingsUpdate {
    pub tournament: Tournament,
    pub position: u64,
}

/// Tournament subscriptions (merged into the subscription root).
#[derive(Debug, Default)]
pub struct TournamentSubscription;

#[Subscription]
impl TournamentSubscription {
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
                    match app.tournament_update(id, &notification).await {
                        Ok(state) => Some(TournamentStandingsUpdate {
                            tournament: Tournament::new(app.clone(), id, state?),
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
