//! Live tournament updates: a tournament's events as they are folded, and the tournament
//! after every change that can move its standings. Streams end on server shutdown.

use std::sync::Arc;

use async_graphql::{Context, ID, SimpleObject, Subscription};
use futures::Stream;

use super::rounds::TournamentStanding;
use super::types::Tournament;
use crate::error::GatewayError;
use crate::schema::context::app;
use crate::schema::events::Event;
use crate::schema::inputs::parse_id;
use crate::schema::live::{SentRows, feed};

/// The subscription root.
/// A tournament whose standings changed (select `standings` on it), at the log position of
/// the change.
#[derive(SimpleObject)]
pub struct TournamentStandingsUpdate {
    pub tournament: Tournament,
    pub position: u64,
    /// The tournament stream's version after the change (`Tournament.version`).
    pub version: u64,
    /// The tournament stream's version of the standings `changed` is measured against: the
    /// subscription's previous update, or the tournament as it stood when it subscribed
    /// (`docs/api.md#live-updates`).
    pub previous_version: u64,
    /// Only the lines of `tournament.standings` that differ from those of
    /// `previousVersion` other than by their rank (a new entrant's included).
    pub changed: Vec<TournamentStanding>,
    /// The rank now of each line of `previousVersion`'s standings, in their order (0: the
    /// player is no longer in them).
    pub ranks: Vec<u32>,
    /// How many lines the standings have now.
    pub row_count: usize,
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
        let state = app.existing_tournament(id).await?;
        let sent = Arc::new(SentRows::new(
            league_domain::Aggregate::version(state.as_ref()),
            state.standings(None).map_err(league_app::AppError::from)?.into(),
        ));
        feed(
            ctx,
            move |n| n.applied.tournament == Some(id),
            move |notification| {
                let (app, sent) = (app.clone(), sent.clone());
                async move {
                    let state = match app.tournament_update(id, &notification).await {
                        Ok(state) => state?,
                        Err(error) => {
                            tracing::error!(%error, "tournament standings update not served");
                            return None;
                        }
                    };
                    let rows: Arc<[_]> = match state.standings(None) {
                        Ok(rows) => rows.into(),
                        Err(error) => {
                            tracing::error!(%error, "tournament standings update not served");
                            return None;
                        }
                    };
                    let version = notification.event.stream_version;
                    let changes = sent.advance(version, rows.clone())?;
                    let tournament = Tournament::new(app.clone(), id, state);
                    Some(TournamentStandingsUpdate {
                        changed: changes
                            .changed
                            .into_iter()
                            .map(|row| tournament.standing(row))
                            .collect(),
                        tournament,
                        position: notification.event.position,
                        version,
                        previous_version: changes.previous_version,
                        ranks: changes.ranks,
                        row_count: rows.len(),
                    })
                }
            },
        )
    }
}
