//! [`ReadModel`]: the in-memory fold of the whole log — leagues, games with their league
//! scores, players (with the token-hash lookup), standings, per-player score history and
//! player activity (for the active-player rule, `docs/scheduling.md#league-life-cycle`).

use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use league_domain::{
    DomainEvent, GameFinished, GameResultCorrected, GameStatus, GamesScheduled, LeagueCreated,
    LeagueSettings, LeagueStatus, ScoredGames, ScoredResult, rules, seat_labels,
};
use league_scoring::{GameResult, ScoringSystem, score_game_unexplained};
use league_store::RecordedEvent;
use rustc_hash::FxHashMap as HashMap;
use uuid::Uuid;

use crate::decode::decode;
use crate::error::ProjectionError;
use crate::players::{PersonKeys, PlayerRegistry};

/// A registered player.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerView {
    pub id: Uuid,
    /// The name to show: the player's own (opened with their key, or plain as stored before
    /// names were sealed), else their pseudonym (erased, or their key is not at hand).
    pub name: String,
    /// Whether the player's personal data was erased.
    pub erased: bool,
    /// Hash of the player's valid bearer token (the token itself is never stored; empty
    /// while the token is revoked).
    pub token_hash: String,
    pub registered_at: DateTime<Utc>,
}

/// A league with its settings, players and games.
#[derive(Debug, Clone, PartialEq)]
pub struct LeagueView {
    pub id: Uuid,
    /// The settings it was created with.
    pub settings: LeagueSettings,
    pub status: LeagueStatus,
    /// Subscribed players, in subscription order.
    pub players: Vec<Uuid>,
    /// The scheduled games, by number (empty while open).
    pub games: Vec<Uuid>,
    pub created_at: DateTime<Utc>,
    /// Version of the league's stream after the last event folded.
    pub stream_version: u64,
}

/// One seat of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatView {
    /// 1-based seat number.
    pub seat: u32,
    /// Display label ("Seat 1", or the Diplomacy power).
    pub label: String,
    pub player: Uuid,
}

/// One game of a league.
#[derive(Debug, Clone, PartialEq)]
pub struct GameView {
    pub id: Uuid,
    pub league_id: Uuid,
    pub number: u32,
    pub seats: Vec<SeatView>,
    pub status: GameStatus,
    /// The current result (the latest correction, else as reported).
    pub result: Option<GameResult>,
    /// League score of each seated player, in seat order; empty until finished.
    pub scores: Vec<(Uuid, f64)>,
    /// When the result was first reported (corrections do not move it).
    pub finished_at: Option<DateTime<Utc>>,
}

pub use league_domain::StandingRow;

/// One change of a player's league total: a reported result or a correction.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreChange {
    pub game: Uuid,
    /// Global position of the event that made the change.
    pub position: u64,
    pub recorded_at: DateTime<Utc>,
    pub delta: f64,
    /// The player's league total after the change.
    pub total: f64,
    /// The correction's reason; `None` for a first report.
    pub reason: Option<String>,
}

/// Position, stream version and commit time of an event being folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventMeta {
    pub position: u64,
    pub stream_version: u64,
    pub recorded_at: DateTime<Utc>,
}

/// What folding one event changed: which league/player/game, and whether standings moved
/// (for live notifications and for the projector's dirty set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applied {
    pub position: u64,
    pub event_type: &'static str,
    /// The league the event concerns.
    pub league: Option<Uuid>,
    /// The tournament the event concerns.
    pub tournament: Option<Uuid>,
    /// The player registered by the event.
    pub player: Option<Uuid>,
    /// The game whose result changed.
    pub game: Option<Uuid>,
    /// Every game of `league` was created.
    pub games_scheduled: bool,
    /// The league's standings changed: a result, a correction, or the roster.
    pub standings_changed: bool,
}

impl Applied {
    /// What folding `event` at `position` changes, known from the event alone (so every
    /// process can notify without holding the league's model).
    pub fn of(position: u64, event: &DomainEvent) -> Applied {
        let mut applied = Applied {
            position,
            event_type: event.event_type(),
            league: event.league_id(),
            tournament: event.tournament_id(),
            ..Applied::default()
        };
        match event {
            DomainEvent::PlayerRegistered(e) => applied.player = Some(e.player_id),
            // The player's name changes to their pseudonym wherever it shows.
            DomainEvent::PlayerErased(e) => applied.player = Some(e.player_id),
            DomainEvent::LeagueCreated(_) | DomainEvent::LeagueCompleted(_) => {}
            // Standings list every subscribed player, so the roster changes them too.
            DomainEvent::PlayerSubscribed(_) | DomainEvent::PlayerUnsubscribed(_) => {
                applied.standings_changed = true;
            }
            DomainEvent::GamesScheduled(_) => applied.games_scheduled = true,
            DomainEvent::GameFinished(e) => {
                applied.game = Some(e.game_id);
                applied.standings_changed = true;
            }
            DomainEvent::GameResultCorrected(e) => {
                applied.game = Some(e.game_id);
                applied.standings_changed = true;
            }
            // Tournament standings list every entrant, count sitting out and every result.
            DomainEvent::TournamentPlayerEntered(_)
            | DomainEvent::RoundSeeded(_)
            | DomainEvent::RoundPlayersSwapped(_)
            | DomainEvent::BoardFinished(_)
            | DomainEvent::BoardResultCorrected(_)
            | DomainEvent::WebhookRegistered(_)
            | DomainEvent::WebhookPaused(_)
            | DomainEvent::WebhookResumed(_)
            | DomainEvent::WebhookRemoved(_) => applied.standings_changed = true,
            DomainEvent::TournamentCreated(_)
            | DomainEvent::TournamentPlayerWithdrawn(_)
            | DomainEvent::RollCallAnswered(_)
            | DomainEvent::RoundCompleted(_)
            | DomainEvent::TournamentCompleted(_)
            | DomainEvent::TokenRotated(_)
            | DomainEvent::TokenRevoked(_)
            | DomainEvent::OrganiserAppointed(_)
            | DomainEvent::OrganiserDismissed(_)
            | DomainEvent::LeagueCoOrganiserAdded(_)
            | DomainEvent::TournamentCoOrganiserAdded(_)
            | DomainEvent::CalendarFeedIssued(_)
            | DomainEvent::CalendarFeedRotated(_) => {}
        }
        applied
    }
}

/// A league plus what ranking it needs.
#[derive(Debug, Clone)]
pub(crate) struct LeagueState {
    pub(crate) view: LeagueView,
    seat_labels: Vec<String>,
    /// Every finished game scored under the league's system, in order of first report.
    scored: ScoredGames,
    /// Game id → index in `scored`.
    scored_slot: HashMap<Uuid, usize>,
    /// Standings ranked on first request after a change.
    standings: OnceLock<Vec<StandingRow>>,
}

/// The whole platform as of the last folded event. Pure: no IO.
///
/// Maps use the Fx hash: keys are UUIDs chosen by this platform (v7 and v5), not attacker
/// controlled, and hashing them is a large share of a replay's time with SipHash.
#[derive(Debug, Clone, Default)]
pub struct ReadModel {
    position: u64,
    last_recorded_at: Option<DateTime<Utc>>,
    players: PlayerRegistry,
    pub(crate) leagues: HashMap<Uuid, LeagueState>,
    league_order: Vec<Uuid>,
    pub(crate) games: HashMap<Uuid, GameView>,
    /// (league, player) → every change of the player's total in that league.
    pub(crate) history: HashMap<(Uuid, Uuid), Vec<ScoreChange>>,
    /// Player → commit times of every `GameFinished` where the player was seated.
    activity: HashMap<Uuid, Vec<DateTime<Utc>>>,
    /// Tournament → the system scoring its boards (what the ratings rebuilt by a replay need;
    /// tournaments themselves are folded from their own streams).
    tournament_systems: HashMap<Uuid, ScoringSystem>,
}

impl ReadModel {
    pub fn new() -> Self {
        Self::default()
    }

    /// Global position of the last folded event (0 before any).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Commit time of the last folded event.
    pub fn last_recorded_at(&self) -> Option<DateTime<Utc>> {
        self.last_recorded_at
    }

    pub fn league(&self, id: Uuid) -> Option<&LeagueView> {
        self.leagues.get(&id).map(|state| &state.view)
    }

    /// The scoring system of a league or tournament.
    pub fn scoring_system_of(&self, competition: Uuid) -> Option<ScoringSystem> {
        self.league(competition)
            .map(|view| view.settings.scoring_system)
            .or_else(|| self.tournament_systems.get(&competition).copied())
    }

    /// Every league, in creation order.
    pub fn leagues(&self) -> impl Iterator<Item = &LeagueView> {
        self.league_order.iter().filter_map(|id| self.league(*id))
    }

    pub fn game(&self, id: Uuid) -> Option<&GameView> {
        self.games.get(&id)
    }

    /// A league's games, by number.
    pub fn games_of(&self, league: Uuid) -> impl Iterator<Item = &GameView> {
        self.league(league)
            .map(|view| view.games.as_slice())
            .unwrap_or_default()
            .iter()
            .filter_map(|id| self.games.get(id))
    }

    pub fn player(&self, id: Uuid) -> Option<&PlayerView> {
        self.players.get(id)
    }

    /// Opens the sealed names whose keys are in `keys` ([`PlayerRegistry::open_names`]).
    pub fn open_names(&mut self, keys: &PersonKeys) {
        self.players.open_names(keys);
    }

    /// Shows `ids` as their pseudonyms ([`PlayerRegistry::forget_names`]).
    pub fn forget_names(&mut self, ids: impl IntoIterator<Item = Uuid>) {
        self.players.forget_names(ids);
    }

    /// Every player, in registration order.
    pub fn players(&self) -> impl Iterator<Item = &PlayerView> {
        self.players.iter()
    }

    /// The player whose bearer token hashes to `token_hash`.
    pub fn player_by_token_hash(&self, token_hash: &str) -> Option<&PlayerView> {
        self.players.by_token_hash(token_hash)
    }

    /// A league's standings under its own system, best first (empty for an unknown league
    /// or before any result). Ranked once per change, on first request.
    pub fn standings(&self, league: Uuid) -> Vec<StandingRow> {
        self.leagues.get(&league).map(|state| state.standings().to_vec()).unwrap_or_default()
    }

    /// The scored games of a league under its own system, in order of first report, each
    /// row with its player's id.
    pub fn scored_games(&self, league: Uuid) -> &[ScoredResult] {
        self.leagues.get(&league).map(|state| state.scored.as_slice()).unwrap_or_default()
    }

    /// Every change of a player's total in a league, oldest first.
    pub fn score_history(&self, league: Uuid, player: Uuid) -> Vec<ScoreChange> {
        self.history.get(&(league, player)).cloned().unwrap_or_default()
    }

    /// Games with a `GameFinished` event recorded at or after `since`, where the player was
    /// seated (the active-player count, `docs/scheduling.md#league-life-cycle`).
    pub fn finished_games_since(&self, player: Uuid, since: DateTime<Utc>) -> usize {
        self.activity.get(&player).map_or(0, |times| {
            // Commit times never decrease along positions, so the list is sorted.
            times.len() - times.partition_point(|time| *time < since)
        })
    }

    /// Decodes and folds one stored event. Events must come in increasing position order.
    pub fn apply(&mut self, recorded: &RecordedEvent) -> Result<Applied, ProjectionError> {
        let (meta, event) = decode(recorded)?;
        self.apply_event(meta, event)
    }

    /// Folds one decoded event.
    pub fn apply_event(
        &mut self,
        meta: EventMeta,
        event: DomainEvent,
    ) -> Result<Applied, ProjectionError> {
        if meta.position <= self.position {
            return Err(ProjectionError::OutOfOrder { after: self.position, got: meta.position });
        }
        let applied = Applied::of(meta.position, &event);
        match event {
            DomainEvent::PlayerRegistered(_)
            | DomainEvent::TokenRotated(_)
            | DomainEvent::TokenRevoked(_)
            | DomainEvent::OrganiserAppointed(_)
            | DomainEvent::OrganiserDismissed(_)
            | DomainEvent::PlayerErased(_) => self.players.apply(meta, &event)?,
            DomainEvent::LeagueCreated(e) => self.create(meta, e)?,
            DomainEvent::PlayerSubscribed(e) => {
                self.league_state_mut(meta, e.league_id)?.subscribe(e.player_id);
            }
            DomainEvent::PlayerUnsubscribed(e) => {
                self.league_state_mut(meta, e.league_id)?.unsubscribe(e.player_id);
            }
            DomainEvent::GamesScheduled(e) => self.schedule(meta, e)?,
            DomainEvent::GameFinished(e) => self.finish(meta, e)?,
            DomainEvent::GameResultCorrected(e) => self.correct(meta, e)?,
            DomainEvent::LeagueCompleted(e) => {
                self.league_mut(meta, e.league_id)?.status = LeagueStatus::Completed;
            }
            DomainEvent::TournamentCreated(e) => {
                self.tournament_systems.insert(e.tournament_id, e.settings.scoring_system);
            }
            // Tournaments are folded from their own streams (`league_domain::Tournament`).
            DomainEvent::TournamentPlayerEntered(_)
            | DomainEvent::TournamentPlayerWithdrawn(_)
            | DomainEvent::RollCallAnswered(_)
            | DomainEvent::RoundSeeded(_)
            | DomainEvent::RoundPlayersSwapped(_)
            | DomainEvent::BoardFinished(_)
            | DomainEvent::BoardResultCorrected(_)
            | DomainEvent::RoundCompleted(_)
            | DomainEvent::TournamentCompleted(_)
            | DomainEvent::LeagueCoOrganiserAdded(_)
            | DomainEvent::TournamentCoOrganiserAdded(_)
            | DomainEvent::CalendarFeedIssued(_)
            | DomainEvent::CalendarFeedRotated(_)
            | DomainEvent::WebhookRegistered(_)
            | DomainEvent::WebhookPaused(_)
            | DomainEvent::WebhookResumed(_)
            | DomainEvent::WebhookRemoved(_) => {}
        }
        self.position = meta.position;
        self.last_recorded_at = Some(meta.recorded_at);
        Ok(applied)
    }

    fn create(&mut self, meta: EventMeta, e: LeagueCreated) -> Result<(), ProjectionError> {
        if self.leagues.contains_key(&e.league_id) {
            return Err(ProjectionError::inconsistent(
                meta.position,
                format!("league {} created twice", e.league_id),
            ));
        }
        let seat_labels = seat_labels(e.settings.scoring_system, e.settings.players_per_game);
        let view = LeagueView {
            id: e.league_id,
            status: LeagueStatus::Open,
            players: Vec::with_capacity(e.settings.size as usize),
            games: Vec::new(),
            created_at: meta.recorded_at,
            stream_version: meta.stream_version,
            settings: e.settings,
        };
        self.league_order.push(e.league_id);
        self.leagues.insert(
            e.league_id,
            LeagueState {
                view,
                seat_labels,
                scored: ScoredGames::default(),
                scored_slot: HashMap::default(),
                standings: OnceLock::new(),
            },
        );
        Ok(())
    }

    /// The league an event belongs to, with its stream version moved to the event's.
    fn league_mut(
        &mut self,
        meta: EventMeta,
        league: Uuid,
    ) -> Result<&mut LeagueView, ProjectionError> {
        Ok(&mut self.league_state_mut(meta, league)?.view)
    }

    fn league_state_mut(
        &mut self,
        meta: EventMeta,
        league: Uuid,
    ) -> Result<&mut LeagueState, ProjectionError> {
        let state = self.leagues.get_mut(&league).ok_or_else(|| {
            ProjectionError::inconsistent(meta.position, format!("unknown league {league}"))
        })?;
        state.view.stream_version = meta.stream_version;
        Ok(state)
    }

    fn schedule(&mut self, meta: EventMeta, e: GamesScheduled) -> Result<(), ProjectionError> {
        let state = self.leagues.get_mut(&e.league_id).ok_or_else(|| {
            ProjectionError::inconsistent(meta.position, format!("unknown league {}", e.league_id))
        })?;
        state.view.stream_version = meta.stream_version;
        state.view.status = LeagueStatus::Running;
        state.view.games = e.games.iter().map(|g| g.game_id).collect();
        for game in e.games {
            let seats = game
                .seats
                .iter()
                .zip(1u32..)
                .map(|(player, seat)| SeatView {
                    seat,
                    label: state
                        .seat_labels
                        .get(seat as usize - 1)
                        .cloned()
                        .unwrap_or_else(|| format!("Seat {seat}")),
                    player: *player,
                })
                .collect();
            self.games.insert(
                game.game_id,
                GameView {
                    id: game.game_id,
                    league_id: e.league_id,
                    number: game.number,
                    seats,
                    status: GameStatus::Scheduled,
                    result: None,
                    scores: Vec::new(),
                    finished_at: None,
                },
            );
        }
        Ok(())
    }

    /// Scores a result of `game` in `league`, returning the scored game and each seated
    /// player's score in seat order.
    fn score(
        &self,
        meta: EventMeta,
        league: Uuid,
        game: Uuid,
        result: &GameResult,
    ) -> Result<(ScoredResult, Vec<(Uuid, f64)>), ProjectionError> {
        let state = self.leagues.get(&league).ok_or_else(|| {
            ProjectionError::inconsistent(meta.position, format!("unknown league {league}"))
        })?;
        let view = self.games.get(&game).filter(|g| g.league_id == league).ok_or_else(|| {
            ProjectionError::inconsistent(meta.position, format!("unknown game {game}"))
        })?;
        let scored = score_game_unexplained(state.view.settings.scoring_system, result)
            .map_err(|error| ProjectionError::inconsistent(meta.position, error.to_string()))?;
        let seats = view.seats.iter().map(|seat| seat.player);
        let scored = ScoredResult::new(scored, seats.clone()).map_err(|error| {
            ProjectionError::inconsistent(meta.position, format!("game {game}: {error}"))
        })?;
        let scores = scored.in_seat_order(seats);
        Ok((scored, scores))
    }

    fn finish(&mut self, meta: EventMeta, e: GameFinished) -> Result<(), ProjectionError> {
        let (scored, scores) = self.score(meta, e.league_id, e.game_id, &e.result)?;
        for (player, score) in &scores {
            self.push_change(e.league_id, *player, meta, e.game_id, *score, None);
            self.activity.entry(*player).or_default().push(meta.recorded_at);
        }
        let game = self.games.get_mut(&e.game_id).expect("checked by score()");
        game.status = GameStatus::Finished;
        game.result = Some(e.result);
        game.scores = scores;
        game.finished_at = Some(meta.recorded_at);
        let state = self.leagues.get_mut(&e.league_id).expect("checked by score()");
        state.view.stream_version = meta.stream_version;
        let slot = state.scored.push(scored);
        state.scored_slot.insert(e.game_id, slot);
        state.standings = OnceLock::new();
        Ok(())
    }

    fn correct(&mut self, meta: EventMeta, e: GameResultCorrected) -> Result<(), ProjectionError> {
        let (scored, scores) = self.score(meta, e.league_id, e.game_id, &e.result)?;
        let old = std::mem::take(&mut self.games.get_mut(&e.game_id).expect("scored").scores);
        if old.is_empty() {
            return Err(ProjectionError::inconsistent(
                meta.position,
                format!("correction of game {} which has no result", e.game_id),
            ));
        }
        for (player, score) in &scores {
            let before = old.iter().find(|(p, _)| p == player).map_or(0.0, |(_, s)| *s);
            let reason = Some(e.reason.clone());
            self.push_change(e.league_id, *player, meta, e.game_id, score - before, reason);
        }
        let game = self.games.get_mut(&e.game_id).expect("scored");
        game.result = Some(e.result);
        game.scores = scores;
        let state = self.leagues.get_mut(&e.league_id).expect("scored");
        state.view.stream_version = meta.stream_version;
        let slot = match state.scored_slot.get(&e.game_id) {
            Some(slot) => state.scored.replace(*slot, scored),
            None => state.scored.push(scored),
        };
        state.scored_slot.insert(e.game_id, slot);
        state.standings = OnceLock::new();
        Ok(())
    }

    fn push_change(
        &mut self,
        league: Uuid,
        player: Uuid,
        meta: EventMeta,
        game: Uuid,
        delta: f64,
        reason: Option<String>,
    ) {
        // Sized once for every game of the player, instead of regrown along a replay.
        let leagues = &self.leagues;
        let changes = self.history.entry((league, player)).or_insert_with(|| {
            let games = leagues.get(&league).map_or(0, |state| {
                let settings = &state.view.settings;
                rules::games_per_player(settings.players_per_game, settings.games_per_seat)
            });
            Vec::with_capacity((games as usize).min(1024))
        });
        let total = changes.last().map_or(0.0, |last| last.total) + delta;
        changes.push(ScoreChange {
            game,
            position: meta.position,
            recorded_at: meta.recorded_at,
            delta,
            total,
            reason,
        });
    }
}

impl LeagueState {
    fn subscribe(&mut self, player: Uuid) {
        self.view.players.push(player);
        self.standings = OnceLock::new();
    }

    fn unsubscribe(&mut self, player: Uuid) {
        self.view.players.retain(|p| *p != player);
        self.standings = OnceLock::new();
    }

    /// Every subscribed player, ranked under the league's aggregation (unplayed players
    /// last: see [`ScoredGames::standings`]), cached until the next change.
    fn standings(&self) -> &[StandingRow] {
        self.standings.get_or_init(|| {
            self.scored.standings(&self.view.players, self.view.settings.aggregation)
        })
    }
}
