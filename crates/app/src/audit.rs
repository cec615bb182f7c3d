//! Audit use cases: how each score of a league came to be (every event of its stream with
//! each result's scoring explanation), the explanation of one score change, and what-if
//! standings under another scoring system (`docs/architecture.md#audit-and-time-travel`).

use league_domain::LeagueEvent;
use league_domain::{Aggregate, DomainEvent, League, ScoredResult, league_stream_id};
use league_projections::{AsOf, ReadModel, StandingRow};
use league_scoring::{Aggregation, ConcessionRule, GameResult, ScoringSystem, score_game};
use league_store::{RecordedEvent, StreamId};
use uuid::Uuid;

use crate::App;
use crate::error::AppError;

/// One event of a league's stream, as an auditor reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    pub event: RecordedEvent,
    pub decoded: DomainEvent,
    /// For a result or a correction: how it changed each seated player's score.
    pub result: Option<ResultAudit>,
}

/// A reported or corrected result and what it did to each seated player's score.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultAudit {
    pub game: Uuid,
    /// 1-based game number in the league.
    pub number: u32,
    /// The league's scoring system, which scored it.
    pub system: ScoringSystem,
    /// The correction's reason; `None` for a first report.
    pub reason: Option<String>,
    /// Every seated player, in seat order.
    pub players: Vec<PlayerAudit>,
}

/// One seated player's part of a result.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerAudit {
    pub player: Uuid,
    /// The seat's label ("Seat 1", or the Diplomacy power).
    pub seat_label: String,
    /// The player's score for this game before a correction (`None` for a first report).
    pub before: Option<f64>,
    /// The player's score for this game after the event.
    pub score: f64,
    /// The player's league total after the event.
    pub total: f64,
    /// The scoring system's explanation lines (`docs/scoring.md`).
    pub explanation: Vec<String>,
}

/// A result scored with its explanation lines, each row matched to its seated player.
fn explained(
    system: ScoringSystem,
    result: &GameResult,
    seats: &[Uuid],
) -> Result<ScoredResult, AppError> {
    let scored = score_game(system, result).map_err(AppError::internal)?;
    ScoredResult::new(scored, seats.iter().map(|&seat| league_domain::PlayerId::from(seat)))
        .map_err(AppError::internal)
}

/// The game a result or correction is about, and the result and correction reason it holds.
fn result_of(event: &DomainEvent) -> Option<(Uuid, &GameResult, Option<&str>)> {
    match event {
        DomainEvent::League(LeagueEvent::GameFinished(e)) => {
            Some((e.game_id.into(), &e.result, None))
        }
        DomainEvent::League(LeagueEvent::GameResultCorrected(e)) => {
            Some((e.game_id.into(), &e.result, Some(e.reason.as_str())))
        }
        _ => None,
    }
}

fn decode(event: &RecordedEvent) -> Result<DomainEvent, AppError> {
    league_projections::decode(event).map(|(_, domain)| domain).map_err(AppError::internal)
}

impl App {
    /// Reads a league's stream, or `NOT_FOUND` if there is no such league.
    async fn league_stream(&self, league: Uuid) -> Result<Vec<RecordedEvent>, AppError> {
        self.require_league(league)?;
        let stream = StreamId::new(league_stream_id(league.into())).map_err(AppError::internal)?;
        Ok(self.reads().read_stream(&stream, 1).await?)
    }

    /// Every event of a league's stream, oldest first, each result and correction with the
    /// change it made to each seated player's score and the scoring explanation.
    pub async fn audit(&self, league: Uuid) -> Result<Vec<AuditEntry>, AppError> {
        let mut model = ReadModel::new();
        let mut entries = Vec::new();
        for event in self.league_stream(league).await? {
            let decoded = decode(&event)?;
            let before = result_of(&decoded)
                .and_then(|(game, ..)| model.game(game))
                .map(|game| game.scores.clone())
                .unwrap_or_default();
            model.apply(&event)?;
            let result = match result_of(&decoded) {
                Some((game, result, reason)) => {
                    Some(result_audit(&model, league, game, result, reason, &before)?)
                }
                None => None,
            };
            entries.push(AuditEntry { event, decoded, result });
        }
        Ok(entries)
    }

    /// The explanation lines of the score change a league's event at `position` made to
    /// `player`'s score (empty if that event did not score the player).
    pub async fn score_explanation(
        &self,
        league: Uuid,
        position: u64,
        player: Uuid,
    ) -> Result<Vec<String>, AppError> {
        let model = self.existing_league(league).await?;
        let Some(system) = model.league(league).map(|view| view.settings.scoring_system) else {
            return Err(AppError::internal(format!("league {league} has a model without it")));
        };
        let Some(event) = self.reads().read_all(position, 1).await?.into_iter().next() else {
            return Ok(Vec::new());
        };
        if event.position != position || event.stream_id.as_str() != league_stream_id(league.into())
        {
            return Ok(Vec::new());
        }
        let decoded = decode(&event)?;
        let Some((game, result, _)) = result_of(&decoded) else { return Ok(Vec::new()) };
        let Some(view) = model.game(game) else { return Ok(Vec::new()) };
        let seats: Vec<Uuid> = view.seats.iter().map(|seat| seat.player).collect();
        let scored = explained(system, result, &seats)?;
        Ok(scored.of(player.into()).map(|row| row.explanation.clone()).unwrap_or_default())
    }

    /// A league's standings if its results were scored under `system` (now, or as of a point
    /// in history): the domain's what-if ranking over the league's stream. A system that
    /// cannot score the league is invalid input on `system`. Appends nothing.
    pub async fn standings_under(
        &self,
        league: Uuid,
        system: ScoringSystem,
        as_of: Option<AsOf>,
    ) -> Result<Vec<StandingRow>, AppError> {
        self.standings_what_if(league, Some(system), None, as_of).await
    }

    /// A league's standings under another system and/or another aggregation
    /// (`docs/scoring.md#league-aggregation`); `None` keeps the league's own. Invalid input
    /// on `system` or `aggregation.n` when the league cannot be ranked that way. Appends
    /// nothing.
    pub async fn standings_what_if(
        &self,
        league: Uuid,
        system: Option<ScoringSystem>,
        aggregation: Option<Aggregation>,
        as_of: Option<AsOf>,
    ) -> Result<Vec<StandingRow>, AppError> {
        self.standings_if(league, WhatIf { system, aggregation, concessions: None }, as_of).await
    }

    /// A league's standings under a [`WhatIf`]: another system, another aggregation, and/or
    /// every concession scored under one rule (`docs/scoring.md#draws-and-concessions`).
    /// Invalid input on `system` or `aggregation.n` when the league cannot be ranked that
    /// way. Appends nothing.
    pub async fn standings_if(
        &self,
        league: Uuid,
        what_if: WhatIf,
        as_of: Option<AsOf>,
    ) -> Result<Vec<StandingRow>, AppError> {
        let mut state = League::default();
        for event in self.league_stream(league).await? {
            if as_of.is_some_and(|as_of| !as_of.includes(event.position, event.recorded_at)) {
                break;
            }
            state.apply_event(&decode(&event)?);
        }
        let Some(own) = state.scoring_system() else { return Ok(Vec::new()) };
        if let Some(rule) = what_if.concessions {
            state.set_concession_rule(rule);
        }
        let aggregation = what_if.aggregation.unwrap_or_else(|| state.aggregation());
        Ok(state.standings_with(what_if.system.unwrap_or(own), aggregation)?)
    }
}

/// How a what-if ranks a league differently from its own standings; `None` keeps the
/// league's own way (the default: the league as recorded).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WhatIf {
    /// Score every result under this system instead of the league's.
    pub system: Option<ScoringSystem>,
    /// Total the game scores this way instead of the league's.
    pub aggregation: Option<Aggregation>,
    /// Score every result's concession under this rule instead of the rule it was recorded
    /// under (`ConcessionRule::Solo`: results recorded before concessions were solos
    /// rescored as they would be now).
    pub concessions: Option<ConcessionRule>,
}

/// What a folded result or correction did to each seated player.
fn result_audit(
    model: &ReadModel,
    league: Uuid,
    game: Uuid,
    result: &GameResult,
    reason: Option<&str>,
    before: &[(Uuid, f64)],
) -> Result<ResultAudit, AppError> {
    let view = model
        .game(game)
        .ok_or_else(|| AppError::internal(format!("game {game} was folded but is unknown")))?;
    let system = model
        .league(league)
        .map(|view| view.settings.scoring_system)
        .ok_or_else(|| AppError::internal(format!("league {league} was folded but is unknown")))?;
    let seats: Vec<Uuid> = view.seats.iter().map(|seat| seat.player).collect();
    let scored = explained(system, result, &seats)?;
    let players = view
        .seats
        .iter()
        .map(|seat| {
            let score = view.scores.iter().find(|(p, _)| *p == seat.player).map_or(0.0, |s| s.1);
            let total = model
                .score_history(league, seat.player)
                .last()
                .map_or(score, |change| change.total);
            PlayerAudit {
                player: seat.player,
                seat_label: seat.label.to_string(),
                before: before.iter().find(|(p, _)| *p == seat.player).map(|(_, old)| *old),
                score,
                total,
                explanation: scored
                    .of(seat.player.into())
                    .map(|row| row.explanation.clone())
                    .unwrap_or_default(),
            }
        })
        .collect();
    Ok(ResultAudit {
        game,
        number: view.number,
        system,
        reason: reason.map(str::to_owned),
        players,
    })
}
