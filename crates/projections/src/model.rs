//! [`ReadModel`]: the in-memory fold of the whole log — leagues, games with their league
//! scores, players (with the token-hash lookup), standings, per-player score history and
//! player activity (for the active-player rule, `docs/scheduling.md#league-life-cycle`).

use std::sync::{Arc, OnceLock};

use chrono::{DateTime, Utc};
use league_domain::{
    DomainEvent, GameFinished, GameResultCorrected, GameStatus, GamesScheduled, LeagueCreated,
    LeagueEvent, LeagueSettings, LeagueStatus, PlayerEvent, PlayerId, ScoredGames, ScoredResult,
    TournamentEvent, rules, seat_labels,
};
use league_scoring::{GameResult, ScoringSystem, score_game_unexplained};
use league_store::RecordedEvent;
use rustc_hash::FxHashMap as HashMap;
use uuid::Uuid;

use crate::decode::{EventMeta, decode};
use crate::error::ProjectionError;
use crate::players::{PersonKeys, PlayerRegistry, PlayerView};

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
    /// Display label ("Seat 1", or the Diplomacy power), shared by every game of the league
    /// rather than copied for each of a long log's millions of seats.
    pub label: Arc<str>,
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
            league: event.league_id().map(Uuid::from),
            tournament: event.tournament_id().map(Uuid::from),
            standings_changed: event.moves_standings(),
            ..Applied::default()
        };
        match event {
            DomainEvent::Player(event) => applied.player = shown_player(event),
            DomainEvent::League(event) => {
                (applied.game, applied.games_scheduled) = league_games(event)
            }
            // Tournaments are watched by their own stream; feeds and webhooks change no standings.
            DomainEvent::Tournament(_)
            | DomainEvent::Calendar(_)
            | DomainEvent::Webhook(_)
            | DomainEvent::Series(_) => {}
        }
        applied
    }
}

/// The player whose name shows differently after `event`: a new registration, or an erasure
/// (the player's name changes to their pseudonym wherever it shows).
fn shown_player(event: &PlayerEvent) -> Option<Uuid> {
    match event {
        PlayerEvent::PlayerRegistered(e) => Some(e.player_id.into()),
        PlayerEvent::PlayerErased(e) => Some(e.player_id.into()),
        PlayerEvent::TokenRotated(_)
        | PlayerEvent::TokenRevoked(_)
        | PlayerEvent::OrganiserAppointed(_)
        | PlayerEvent::OrganiserDismissed(_)
        | PlayerEvent::PasskeyAdded(_)
        | PlayerEvent::PasskeyRemoved(_)
        | PlayerEvent::IdentityLinked(_)
        | PlayerEvent::IdentityUnlinked(_)
        | PlayerEvent::InviteIssued(_)
        | PlayerEvent::InviteRevoked(_)
        | PlayerEvent::SessionStarted(_)
        | PlayerEvent::SessionRenewed(_)
        | PlayerEvent::SessionEnded(_)
        | PlayerEvent::AllSessionsEnded(_)
        | PlayerEvent::SignInLinkIssued(_)
        | PlayerEvent::PermanentKeepApartAdded(_)
        | PlayerEvent::PermanentKeepApartRemoved(_)
        | PlayerEvent::ExternalIdRecorded(_) => None,
    }
}

/// The game whose result `event` changed, and whether it created every game of its league.
fn league_games(event: &LeagueEvent) -> (Option<Uuid>, bool) {
    match event {
        LeagueEvent::GameFinished(e) => (Some(e.game_id.into()), false),
        LeagueEvent::GameResultCorrected(e) => (Some(e.game_id.into()), false),
        LeagueEvent::GamesScheduled(_) => (None, true),
        LeagueEvent::LeagueCreated(_)
        | LeagueEvent::PlayerSubscribed(_)
        | LeagueEvent::PlayerUnsubscribed(_)
        | LeagueEvent::LeagueCompleted(_)
        | LeagueEvent::LeagueCoOrganiserAdded(_) => (None, false),
    }
}

/// A league plus what ranking it needs.
#[derive(Debug, Clone)]
pub(crate) struct LeagueState {
    pub(crate) view: LeagueView,
    /// Each seat's label, made once for the league's games to share.
    seat_labels: Vec<Arc<str>>,
    /// The games, in the order of `view.games` (by number).
    games: Vec<GameView>,
    /// Each game's index in `scored`, in the order of `games` (`NOT_SCORED` until its first
    /// result).
    scored_slot: Vec<u32>,
    /// Every finished game scored under the league's system, in order of first report.
    scored: ScoredGames,
    /// Every change of a player's total, by player in order of their first change: a
    /// league has a few dozen players at most, so a scan finds one faster than hashing.
    history: Vec<(Uuid, Vec<ScoreChange>)>,
    /// Standings ranked on first request after a change.
    standings: OnceLock<Vec<StandingRow>>,
}

/// Where a game lives: its league, and its index among the league's games.
#[derive(Debug, Clone, Copy)]
struct GameSlot {
    league: Uuid,
    index: u32,
}

/// A game without a scored result yet (see `LeagueState::scored_slot`).
const NOT_SCORED: u32 = u32::MAX;

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
    /// Game → its league and its index among the league's games (the games themselves live
    /// in their league's state, so this index stays small as it grows).
    games: HashMap<Uuid, GameSlot>,
    /// Tournament → the system scoring its boards (what the ratings rebuilt by a replay need;
    /// tournaments themselves are folded from their own streams).
    tournament_systems: HashMap<Uuid, ScoringSystem>,
    /// Only what standings need ([`Self::standings_only`]).
    standings_only: bool,
}

impl ReadModel {
    pub fn new() -> Self {
        Self::default()
    }

    /// A model that folds only what leagues' standings and counts need, for a rebuild that
    /// answers nothing else: no seat labels, results, game scores or score history (games
    /// know their seats and status). Folding less is what makes a rebuild's fold cheap.
    pub(crate) fn standings_only() -> Self {
        ReadModel { standings_only: true, ..Self::default() }
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

    /// Every league ever created here, in creation order (a rebuild's dropped ones too).
    pub(crate) fn league_order(&self) -> &[Uuid] {
        &self.league_order
    }

    /// Every league, in creation order.
    pub fn leagues(&self) -> impl Iterator<Item = &LeagueView> {
        self.league_order.iter().filter_map(|id| self.league(*id))
    }

    pub fn game(&self, id: Uuid) -> Option<&GameView> {
        let slot = self.games.get(&id)?;
        self.leagues.get(&slot.league)?.games.get(slot.index as usize)
    }

    /// A league's games, by number.
    pub fn games_of(&self, league: Uuid) -> impl Iterator<Item = &GameView> {
        self.leagues.get(&league).map(|state| state.games.as_slice()).unwrap_or_default().iter()
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
        self.leagues
            .get(&league)
            .and_then(|state| state.history.iter().find(|(p, _)| *p == player))
            .map(|(_, changes)| changes.clone())
            .unwrap_or_default()
    }

    /// Games with a `GameFinished` event recorded at or after `since`, where the player was
    /// seated (the active-player count, `docs/scheduling.md#league-life-cycle`): a game's
    /// `finished_at` is its `GameFinished` commit time, so the games answer it (a league's
    /// model, which the rule asks, holds a few hundred at most).
    pub fn finished_games_since(&self, player: Uuid, since: DateTime<Utc>) -> usize {
        self.leagues
            .values()
            .flat_map(|state| &state.games)
            .filter(|game| game.finished_at.is_some_and(|at| at >= since))
            .filter(|game| game.seats.iter().any(|seat| seat.player == player))
            .count()
    }

    /// Removes a league with its games (a rebuild drops a completed league's model); its
    /// place in the creation order stays.
    pub(crate) fn take_league(&mut self, league: Uuid) -> Option<LeagueState> {
        let state = self.leagues.remove(&league)?;
        for game in &state.games {
            self.games.remove(&game.id);
        }
        Some(state)
    }

    /// Moves `league` with its games from `from` (its own stream's fold) into this model,
    /// which already knows its place in the creation order. False when `from` lacks it.
    pub(crate) fn adopt_league(&mut self, from: &mut ReadModel, league: Uuid) -> bool {
        let Some(state) = from.take_league(league) else { return false };
        self.index_games(&state);
        self.leagues.insert(league, state);
        true
    }

    fn index_games(&mut self, state: &LeagueState) {
        self.games.reserve(state.games.len());
        for (index, game) in (0u32..).zip(&state.games) {
            self.games.insert(game.id, GameSlot { league: state.view.id, index });
        }
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
            DomainEvent::Player(event) => self.players.apply(meta, &event)?,
            DomainEvent::League(event) => self.apply_league(meta, event)?,
            DomainEvent::Tournament(TournamentEvent::TournamentCreated(e)) => {
                self.tournament_systems.insert(e.tournament_id.into(), e.settings.scoring_system);
            }
            // Tournaments are folded from their own streams (`league_domain::Tournament`): the
            // read model keeps only each one's scoring system. Calendar feeds and webhooks
            // have their own folds.
            DomainEvent::Tournament(_)
            | DomainEvent::Calendar(_)
            | DomainEvent::Webhook(_)
            | DomainEvent::Series(_) => {}
        }
        self.position = meta.position;
        self.last_recorded_at = Some(meta.recorded_at);
        Ok(applied)
    }

    fn apply_league(&mut self, meta: EventMeta, event: LeagueEvent) -> Result<(), ProjectionError> {
        match event {
            LeagueEvent::LeagueCreated(e) => self.create(meta, e)?,
            LeagueEvent::PlayerSubscribed(e) => {
                self.league_state_mut(meta, e.league_id.into())?.subscribe(e.player_id.into());
            }
            LeagueEvent::PlayerUnsubscribed(e) => {
                self.league_state_mut(meta, e.league_id.into())?.unsubscribe(e.player_id.into());
            }
            LeagueEvent::GamesScheduled(e) => self.schedule(meta, e)?,
            LeagueEvent::GameFinished(e) => self.finish(meta, e)?,
            LeagueEvent::GameResultCorrected(e) => self.correct(meta, e)?,
            LeagueEvent::LeagueCompleted(e) => {
                self.league_mut(meta, e.league_id.into())?.status = LeagueStatus::Completed;
            }
            // Co-organisers are the catalog's business (`crate::catalog`).
            LeagueEvent::LeagueCoOrganiserAdded(_) => {}
        }
        Ok(())
    }

    fn create(&mut self, meta: EventMeta, e: LeagueCreated) -> Result<(), ProjectionError> {
        if self.leagues.contains_key(&e.league_id.uuid()) {
            return Err(ProjectionError::inconsistent(
                meta.position,
                format!("league {} created twice", e.league_id),
            ));
        }
        let seat_labels = seat_labels(e.settings.scoring_system, e.settings.players_per_game)
            .into_iter()
            .map(Arc::from)
            .collect();
        let view = LeagueView {
            id: e.league_id.into(),
            status: LeagueStatus::Open,
            players: Vec::with_capacity(e.settings.size as usize),
            games: Vec::new(),
            created_at: meta.recorded_at,
            stream_version: meta.stream_version,
            settings: e.settings,
        };
        self.league_order.push(e.league_id.into());
        self.leagues.insert(
            e.league_id.into(),
            LeagueState {
                view,
                seat_labels,
                games: Vec::new(),
                scored_slot: Vec::new(),
                scored: ScoredGames::default(),
                history: Vec::new(),
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
        let state = self.leagues.get_mut(&e.league_id.uuid()).ok_or_else(|| {
            ProjectionError::inconsistent(meta.position, format!("unknown league {}", e.league_id))
        })?;
        state.view.stream_version = meta.stream_version;
        state.view.status = LeagueStatus::Running;
        state.view.games = e.games.iter().map(|g| g.game_id.uuid()).collect();
        // A second schedule (never written by the domain) replaces the first.
        for game in &state.games {
            self.games.remove(&game.id);
        }
        // A standings-only model shows no seats: it leaves the labels empty.
        let labels = (!self.standings_only).then_some(&state.seat_labels);
        state.games = e
            .games
            .into_iter()
            .map(|game| GameView {
                id: game.game_id.into(),
                league_id: e.league_id.into(),
                number: game.number,
                seats: (1u32..)
                    .zip(game.seats)
                    .map(|(seat, player)| SeatView {
                        seat,
                        label: labels.map_or_else(Arc::default, |labels| {
                            labels
                                .get(seat as usize - 1)
                                .cloned()
                                .unwrap_or_else(|| format!("Seat {seat}").into())
                        }),
                        player: player.into(),
                    })
                    .collect(),
                status: GameStatus::Scheduled,
                result: None,
                scores: Vec::new(),
                finished_at: None,
            })
            .collect();
        state.scored_slot = vec![NOT_SCORED; state.games.len()];
        let state = self.leagues.get(&e.league_id.uuid()).expect("found above");
        let games = &mut self.games;
        games.reserve(state.games.len());
        for (index, game) in (0u32..).zip(&state.games) {
            games.insert(game.id, GameSlot { league: e.league_id.into(), index });
        }
        Ok(())
    }

    /// The index of `game` among `league`'s games.
    fn game_index(
        &self,
        meta: EventMeta,
        league: Uuid,
        game: Uuid,
    ) -> Result<usize, ProjectionError> {
        match self.games.get(&game) {
            Some(slot) if slot.league == league => Ok(slot.index as usize),
            _ => Err(ProjectionError::inconsistent(meta.position, format!("unknown game {game}"))),
        }
    }

    /// Scores a result of `league`'s game at `index` under the league's system.
    fn score(
        state: &LeagueState,
        meta: EventMeta,
        index: usize,
        result: &GameResult,
    ) -> Result<ScoredResult, ProjectionError> {
        let view = &state.games[index];
        let scored = score_game_unexplained(state.view.settings.scoring_system, result)
            .map_err(|error| ProjectionError::inconsistent(meta.position, error.to_string()))?;
        ScoredResult::new(scored, view.seats.iter().map(|seat| PlayerId::from(seat.player)))
            .map_err(|error| {
                ProjectionError::inconsistent(meta.position, format!("game {}: {error}", view.id))
            })
    }

    /// The league a result belongs to and its game's index there; unknown ones are refused.
    fn result_target(
        &mut self,
        meta: EventMeta,
        league: Uuid,
        game: Uuid,
    ) -> Result<(&mut LeagueState, usize), ProjectionError> {
        let unknown =
            || ProjectionError::inconsistent(meta.position, format!("unknown league {league}"));
        if !self.leagues.contains_key(&league) {
            return Err(unknown());
        }
        let index = self.game_index(meta, league, game)?;
        let state = self.leagues.get_mut(&league).ok_or_else(unknown)?;
        Ok((state, index))
    }

    fn finish(&mut self, meta: EventMeta, e: GameFinished) -> Result<(), ProjectionError> {
        let standings_only = self.standings_only;
        let (state, index) = self.result_target(meta, e.league_id.into(), e.game_id.into())?;
        let scored = Self::score(state, meta, index, &e.result)?;
        if !standings_only {
            let scores = scored
                .in_seat_order(state.games[index].seats.iter().map(|s| PlayerId::from(s.player)));
            for (player, score) in &scores {
                state.push_change((*player).into(), meta, e.game_id.into(), *score, None);
            }
            let game = &mut state.games[index];
            game.result = Some(e.result);
            game.scores =
                scores.into_iter().map(|(player, score)| (player.uuid(), score)).collect();
        }
        state.view.stream_version = meta.stream_version;
        let slot = state.scored.push(scored);
        state.scored_slot[index] = u32::try_from(slot).unwrap_or(NOT_SCORED);
        state.standings = OnceLock::new();
        let game = &mut state.games[index];
        game.status = GameStatus::Finished;
        game.finished_at = Some(meta.recorded_at);
        Ok(())
    }

    fn correct(&mut self, meta: EventMeta, e: GameResultCorrected) -> Result<(), ProjectionError> {
        let standings_only = self.standings_only;
        let (state, index) = self.result_target(meta, e.league_id.into(), e.game_id.into())?;
        let scored = Self::score(state, meta, index, &e.result)?;
        let slot = state.scored_slot[index];
        if slot == NOT_SCORED {
            return Err(ProjectionError::inconsistent(
                meta.position,
                format!("correction of game {} which has no result", e.game_id),
            ));
        }
        if !standings_only {
            let scores = scored
                .in_seat_order(state.games[index].seats.iter().map(|s| PlayerId::from(s.player)));
            let old = std::mem::take(&mut state.games[index].scores);
            for (player, score) in &scores {
                let before = old.iter().find(|(p, _)| *p == player.uuid()).map_or(0.0, |(_, s)| *s);
                let reason = Some(e.reason.clone());
                state.push_change((*player).into(), meta, e.game_id.into(), score - before, reason);
            }
            let game = &mut state.games[index];
            game.result = Some(e.result);
            game.scores =
                scores.into_iter().map(|(player, score)| (player.uuid(), score)).collect();
        }
        state.view.stream_version = meta.stream_version;
        state.scored.replace(slot as usize, scored);
        state.standings = OnceLock::new();
        Ok(())
    }
}

impl LeagueState {
    fn push_change(
        &mut self,
        player: Uuid,
        meta: EventMeta,
        game: Uuid,
        delta: f64,
        reason: Option<String>,
    ) {
        let index = match self.history.iter().position(|(p, _)| *p == player) {
            Some(index) => index,
            None => {
                // Sized once for every game of the player, instead of regrown along a replay.
                let settings = &self.view.settings;
                let games =
                    rules::games_per_player(settings.players_per_game, settings.games_per_seat);
                self.history.push((player, Vec::with_capacity((games as usize).min(1024))));
                self.history.len() - 1
            }
        };
        let changes = &mut self.history[index].1;
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
    /// The league's games, by number.
    pub(crate) fn games(&self) -> &[GameView] {
        &self.games
    }

    pub(crate) fn standings(&self) -> &[StandingRow] {
        self.standings.get_or_init(|| {
            let roster: Vec<PlayerId> = self.view.players.iter().map(|&p| p.into()).collect();
            self.scored.standings(&roster, self.view.settings.aggregation)
        })
    }
}
