//! The reads the API asks for, decided here so its resolvers only map arguments onto them
//! (README "Where each kind of change goes"): which standings a `standings` query means
//! (the league's own, now or as of a point, or a what-if), a game with its league's model,
//! a player's score history in a league, a tournament's standings now or as of a point, a
//! page of the audit log with the count it pages through, who is told whether a player has
//! a calendar feed, which webhooks a caller is shown, and what a live standings update of a
//! notification holds.

use std::sync::Arc;

use league_domain::{Actor, PlayerId, Tournament, WebhookRegistered};
use league_projections::{AsOf, ReadModel, ScoreChange, StandingRow};
use league_scoring::TournamentStanding;
use league_store::RecordedEvent;
use uuid::Uuid;

use crate::app::App;
use crate::audit::WhatIf;
use crate::error::AppError;
use crate::shared::Notification;

/// Whose events an audit page reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditScope {
    /// Every event of the log.
    Log,
    /// One league's stream.
    League(Uuid),
    /// One tournament's stream.
    Tournament(Uuid),
}

/// One page of the audit log.
#[derive(Debug, Clone)]
pub struct AuditPage {
    /// Up to the page size of events, oldest first.
    pub events: Vec<RecordedEvent>,
    /// Whether events follow the page.
    pub has_next_page: bool,
    /// The number of events of the scope over all pages.
    pub total_count: u64,
}

impl App {
    /// A league's standings as a `standings` query asks for them: the what-if standings
    /// ([`App::standings_if`]) when `what_if` differs from the league's own settings (another
    /// system or aggregation, or a concession rule), else the league's own now or as of
    /// `as_of` ([`App::league_standings`]). A league that does not exist is `NOT_FOUND`.
    pub async fn standings_asked(
        &self,
        league: Uuid,
        what_if: WhatIf,
        as_of: Option<AsOf>,
    ) -> Result<Vec<StandingRow>, AppError> {
        let own = self
            .catalog()
            .league(league)
            .map(|summary| (summary.settings.scoring_system, summary.settings.aggregation));
        let differs = own.is_some_and(|(own_system, own_aggregation)| {
            what_if.system.is_some_and(|s| s != own_system)
                || what_if.aggregation.is_some_and(|a| a != own_aggregation)
                || what_if.concessions.is_some()
        });
        if differs {
            return self.standings_if(league, what_if, as_of).await;
        }
        self.league_standings(league, as_of).await
    }

    /// A league's standings now (from its model) or as of a point (replayed).
    pub async fn league_standings(
        &self,
        league: Uuid,
        as_of: Option<AsOf>,
    ) -> Result<Vec<StandingRow>, AppError> {
        match as_of {
            None => Ok(self.existing_league(league).await?.standings(league)),
            Some(as_of) => self.standings_as_of(league, as_of).await,
        }
    }

    /// The model of a game's league, when there is such a game.
    pub async fn model_of_game(&self, game: Uuid) -> Result<Option<Arc<ReadModel>>, AppError> {
        Ok(self.league_of_game(game).await?.filter(|model| model.game(game).is_some()))
    }

    /// How a player's total in a league came to be, oldest first, with the league's model
    /// it was read from; `NOT_FOUND` for a league or player that does not exist.
    pub async fn score_history(
        &self,
        league: Uuid,
        player: Uuid,
    ) -> Result<(Arc<ReadModel>, Vec<ScoreChange>), AppError> {
        let model = self.existing_league(league).await?;
        if self.catalog().player(player).is_none() {
            return Err(AppError::NotFound(format!("player {player}")));
        }
        let changes = model.score_history(league, player);
        Ok((model, changes))
    }

    /// A tournament's standings after round `after_round` (every round so far when `None`):
    /// of `current` (the tournament as read) or, with `as_of`, of its stream folded up to it.
    pub async fn tournament_standings(
        &self,
        id: Uuid,
        current: &Arc<Tournament>,
        after_round: Option<u32>,
        as_of: Option<AsOf>,
    ) -> Result<Vec<TournamentStanding<PlayerId>>, AppError> {
        let state = match as_of {
            None => current.clone(),
            Some(as_of) => self.tournament_as_of(id, as_of).await?,
        };
        Ok(state.standings(after_round)?)
    }

    /// A page of up to `size` events of `scope` after global position `after`, with the
    /// number of events of the scope: positions are gapless from 1, so the log's head
    /// position counts every event (read from the store, so the count never lags behind an
    /// append); a league's or tournament's stream version counts its own. `NOT_FOUND` for
    /// a league or tournament that does not exist.
    pub async fn audit_page(
        &self,
        scope: AuditScope,
        after: Option<u64>,
        size: usize,
    ) -> Result<AuditPage, AppError> {
        let total_count = match scope {
            AuditScope::League(league) => {
                let model = self.existing_league(league).await?;
                model.league(league).map_or(0, |view| view.stream_version)
            }
            AuditScope::Tournament(tournament) => league_domain::Aggregate::version(
                self.existing_tournament(tournament).await?.as_ref(),
            ),
            AuditScope::Log => self.store().head_position().await?,
        };
        // One more than the page tells whether there is a next page.
        let mut events = match (size, scope) {
            (0, _) => Vec::new(),
            (_, AuditScope::Tournament(tournament)) => {
                self.tournament_events_page(tournament, after, size + 1).await?
            }
            (_, AuditScope::League(league)) => self.events(Some(league), after, size + 1).await?,
            (_, AuditScope::Log) => self.events(None, after, size + 1).await?,
        };
        let has_next_page = events.len() > size;
        events.truncate(size);
        Ok(AuditPage { events, has_next_page, total_count })
    }

    /// Whether `player` has a calendar feed, told only to the player themself and the site
    /// admin (`None` for anyone else, `viewer` `None` being an anonymous caller).
    pub async fn calendar_feed_shown(
        &self,
        viewer: Option<Actor>,
        player: Uuid,
    ) -> Result<Option<bool>, AppError> {
        match viewer {
            Some(Actor::Admin) => {}
            Some(Actor::Player(id)) if id == player.into() => {}
            Some(Actor::Player(_)) | None => return Ok(None),
        }
        Ok(Some(self.calendar_feed(player.into()).await?.feed_hash().is_some()))
    }

    /// The webhooks of `webhooks` that `actor` is shown (`Query.webhooks`): every one to the
    /// site admin; to a player those they registered or that cover only competitions they
    /// organise. `registration` reads a webhook's registration.
    pub fn webhooks_shown<T>(
        &self,
        actor: Actor,
        webhooks: Vec<T>,
        registration: impl Fn(&T) -> &WebhookRegistered,
    ) -> Vec<T> {
        let catalog = self.catalog();
        webhooks
            .into_iter()
            .filter(|webhook| match actor {
                Actor::Admin => true,
                Actor::Player(player) => {
                    let registration = registration(webhook);
                    registration.registered_by == actor
                        || (!registration.competitions.is_empty()
                            && registration
                                .competitions
                                .iter()
                                .all(|c| catalog.organises(player.into(), *c)))
                }
            })
            .collect()
    }

    /// The standings a live update of `league` sends for `notification`: `None` when its
    /// event did not change them; the rows the follower ranked with it, else (folded before
    /// the watch began, or while the model was not cached) the standings as of its position.
    pub async fn standings_update(
        &self,
        league: Uuid,
        notification: &Notification,
    ) -> Result<Option<Vec<StandingRow>>, AppError> {
        if !notification.standings_changed {
            return Ok(None);
        }
        match &notification.standings {
            Some(rows) => Ok(Some(rows.to_vec())),
            None => Ok(Some(self.standings_at(league, notification.event.position).await?)),
        }
    }

    /// The tournament and board a live progress update sends for `notification`: `None`
    /// unless its event recorded a board's progress, else the tournament as of that event
    /// (`docs/tournaments.md#live-progress`).
    pub async fn tournament_progress_update(
        &self,
        id: Uuid,
        notification: &Notification,
    ) -> Result<Option<(Arc<Tournament>, Uuid)>, AppError> {
        let event = &notification.event;
        let decoded = league_domain::DomainEvent::decode(
            &event.event_type,
            i64::from(event.schema_version),
            &event.payload,
        );
        let Ok(league_domain::DomainEvent::Tournament(
            league_domain::TournamentEvent::BoardProgressRecorded(recorded),
        )) = decoded
        else {
            return Ok(None);
        };
        let state = self.tournament_at(id, event.position, event.stream_version).await?;
        Ok(Some((state, recorded.board_id.into())))
    }

    /// The tournament a live standings update sends for `notification`: `None` when its
    /// event did not change the standings, else the tournament as of that event
    /// ([`App::tournament_at`]).
    pub async fn tournament_update(
        &self,
        id: Uuid,
        notification: &Notification,
    ) -> Result<Option<Arc<Tournament>>, AppError> {
        if !notification.standings_changed {
            return Ok(None);
        }
        let event = &notification.event;
        Ok(Some(self.tournament_at(id, event.position, event.stream_version).await?))
    }
}
