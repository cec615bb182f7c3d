//! The `League` aggregate (stream `league-<uuid>`): settings, subscriptions, the stored
//! schedule, results and corrections, completion.

pub(crate) mod commands;
pub(crate) mod events;
pub(crate) mod status;

pub use self::commands::*;
pub use self::events::*;
pub use self::status::LeagueStatus;

use league_scoring::{
    Aggregation, ConcessionRule, GameResult, ScoringError, ScoringSystem, score_game_unexplained,
};
use serde::{Deserialize, Serialize};

use crate::aggregate::{Aggregate, Decision};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, GameId, LeagueId, PlayerId, league_stream_id};
use crate::rights::{Competition, Organisers, authorise_creation};
use crate::rules::{
    ACTIVE_PLAYER_MIN_FINISHED_GAMES, check_league_size, check_players_per_game, clean_name,
    clean_reason, default_games_per_seat, games_per_player, is_active_player,
    resolve_games_per_seat, schedule_league_games, validate_result,
};
use crate::scores::{ScoredGames, ScoredResult, StandingRow};
use crate::seats::seat_labels;
use crate::settings::LeagueSettings;

/// Whether a game has a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GameStatus {
    Scheduled,
    Finished,
}

/// One game of a league as the aggregate knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub id: GameId,
    pub number: u32,
    /// `seats[i]` is the player in seat i.
    pub seats: Vec<PlayerId>,
    /// The current result (the latest correction, else as reported).
    pub result: Option<GameResult>,
    pub reported_by: Option<Actor>,
    /// How many times the result was corrected.
    pub corrections: u32,
}

impl Game {
    pub fn status(&self) -> GameStatus {
        if self.result.is_some() { GameStatus::Finished } else { GameStatus::Scheduled }
    }

    pub fn is_seated(&self, player_id: PlayerId) -> bool {
        self.seats.contains(&player_id)
    }
}

/// A league's state, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct League {
    version: u64,
    created: Option<LeagueCreated>,
    players: Vec<PlayerId>,
    games: Vec<Game>,
    completed: bool,
    organisers: Organisers,
}

impl League {
    /// Whether the league has been created.
    pub fn exists(&self) -> bool {
        self.created.is_some()
    }

    /// The league's settings, as created.
    pub fn settings(&self) -> Option<&LeagueSettings> {
        self.created.as_ref().map(|created| &created.settings)
    }

    pub fn id(&self) -> Option<LeagueId> {
        self.created.as_ref().map(|created| created.league_id)
    }

    /// `league-<uuid>`, once created.
    pub fn stream_id(&self) -> Option<String> {
        self.id().map(league_stream_id)
    }

    /// `None` before the league is created.
    pub fn status(&self) -> Option<LeagueStatus> {
        self.created.as_ref()?;
        Some(if self.completed {
            LeagueStatus::Completed
        } else if self.games.is_empty() {
            LeagueStatus::Open
        } else {
            LeagueStatus::Running
        })
    }

    /// Who organises the league besides the site admin.
    pub fn organisers(&self) -> &Organisers {
        &self.organisers
    }

    /// Subscribed players, in subscription order (= schedule index order once running).
    pub fn players(&self) -> &[PlayerId] {
        &self.players
    }

    /// The scheduled games, by number (empty while open).
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    pub fn game(&self, game_id: GameId) -> Option<&Game> {
        self.games.iter().find(|g| g.id == game_id)
    }

    /// Whether every subscription place is taken.
    pub fn is_full(&self) -> bool {
        self.settings().is_some_and(|s| self.players.len() >= s.size as usize)
    }

    /// Display labels of the seats (Diplomacy powers for k = 7 Diplomacy leagues).
    pub fn seat_labels(&self) -> Vec<String> {
        self.settings()
            .map(|s| seat_labels(s.scoring_system, s.players_per_game))
            .unwrap_or_default()
    }

    pub fn scoring_system(&self) -> Option<ScoringSystem> {
        self.settings().map(|s| s.scoring_system)
    }

    /// The league's aggregation of game scores (sum before creation).
    pub fn aggregation(&self) -> Aggregation {
        self.settings().map(|s| s.aggregation).unwrap_or_default()
    }

    /// Scores every result's concession under `rule` from now on, on this copy of the league:
    /// a what-if such as results recorded under the earlier rule rescored as solos
    /// (`docs/scoring.md#draws-and-concessions`). Results without a concession are left as
    /// they are; nothing is appended.
    pub fn set_concession_rule(&mut self, rule: ConcessionRule) {
        for result in self.games.iter_mut().filter_map(|game| game.result.as_mut()) {
            result.set_concession_rule(rule);
        }
    }

    /// Standings of every subscribed player from the finished games scored under `system`
    /// and aggregated the league's way: the league's own system, or another one for a
    /// what-if (`docs/scoring.md`).
    pub fn standings_under(&self, system: ScoringSystem) -> Result<Vec<StandingRow>, DomainError> {
        self.standings_with(system, self.aggregation())
    }

    /// Standings under `system` and `aggregation`, either of which may differ from the
    /// league's own for a what-if (`docs/scoring.md#league-aggregation`). A system that
    /// cannot score this league's games (other players per game, another result shape) is
    /// invalid input on `system`. Empty before the league is created.
    pub fn standings_with(
        &self,
        system: ScoringSystem,
        aggregation: Aggregation,
    ) -> Result<Vec<StandingRow>, DomainError> {
        let Some(settings) = self.settings() else { return Ok(Vec::new()) };
        check_aggregation(aggregation, settings.players_per_game, settings.games_per_seat)?;
        check_players_per_game(system, settings.players_per_game).map_err(|error| {
            DomainError::invalid("system", format!("{system} cannot score this league: {error}"))
        })?;
        let mut scored = ScoredGames::default();
        for game in &self.games {
            let Some(result) = &game.result else { continue };
            if system.result_kind() != result.kind() {
                return Err(DomainError::invalid(
                    "system",
                    format!("{system} cannot score this league's {} results", result.kind()),
                ));
            }
            let game_scores = score_game_unexplained(system, result).map_err(|error| {
                DomainError::invalid(
                    "system",
                    format!("{system} cannot score game {}: {error}", game.number),
                )
            })?;
            let typed = ScoredResult::new(game_scores, game.seats.iter().copied())
                .map_err(|error| DomainError::Inconsistent(error.to_string()))?;
            scored.push(typed);
        }
        Ok(scored.standings(&self.players, aggregation))
    }

    /// Standings under the league's own system and aggregation (empty before creation).
    pub fn standings(&self) -> Result<Vec<StandingRow>, DomainError> {
        match self.scoring_system() {
            Some(system) => self.standings_under(system),
            None => Ok(Vec::new()),
        }
    }

    fn created(&self, league_id: LeagueId) -> Result<&LeagueSettings, DomainError> {
        self.settings().ok_or(DomainError::LeagueNotFound(league_id))
    }

    fn create(&self, c: &CreateLeague, context: &Context) -> Result<Vec<LeagueEvent>, DomainError> {
        let created_by = authorise_creation(c.actor, context, "leagues")?;
        if self.exists() {
            return Err(DomainError::LeagueAlreadyExists(c.league_id));
        }
        let settings = validate_settings(&c.settings)?;
        Ok(vec![LeagueEvent::LeagueCreated(LeagueCreated {
            league_id: c.league_id,
            settings,
            created_by,
        })])
    }

    fn add_co_organiser(
        &self,
        c: &AddLeagueCoOrganiser,
        context: &Context,
    ) -> Result<Vec<LeagueEvent>, DomainError> {
        self.created(c.league_id)?;
        let league = Competition::League(c.league_id);
        self.organisers.check_new_co_organiser(c.actor, c.player_id, league, context)?;
        Ok(vec![LeagueEvent::LeagueCoOrganiserAdded(LeagueCoOrganiserAdded {
            league_id: c.league_id,
            player_id: c.player_id,
            added_by: c.actor,
        })])
    }

    fn subscribe(&self, c: &Subscribe, context: &Context) -> Result<Vec<LeagueEvent>, DomainError> {
        let settings = self.created(c.league_id)?;
        let league = Competition::League(c.league_id);
        self.organisers.authorise_for_player(c.actor, c.player_id, league, "subscribe")?;
        let subscriber = context.subscriber.ok_or(DomainError::PlayerNotFound(c.player_id))?;
        context.refuse_erased(c.player_id)?;
        let status = self.status().unwrap_or(LeagueStatus::Open);
        if status != LeagueStatus::Open {
            return Err(DomainError::LeagueNotOpen(status));
        }
        if self.players.contains(&c.player_id) {
            return Err(DomainError::AlreadySubscribed(c.player_id));
        }
        if self.is_full() {
            return Err(DomainError::LeagueFull);
        }
        if settings.require_active_players && !is_active_player(subscriber.finished_games_in_window)
        {
            return Err(DomainError::PlayerNotActive {
                player_id: c.player_id,
                finished_games: subscriber.finished_games_in_window,
                required: ACTIVE_PLAYER_MIN_FINISHED_GAMES,
            });
        }
        let mut events = vec![LeagueEvent::PlayerSubscribed(PlayerSubscribed {
            league_id: c.league_id,
            player_id: c.player_id,
        })];
        if self.players.len() + 1 == settings.size as usize {
            // docs/scheduling.md#league-life-cycle: the subscription that fills the league creates
            // every game, in the
            // same append, so a league is never full without games.
            let mut players = self.players.clone();
            players.push(c.player_id);
            let games = schedule_league_games(
                c.league_id,
                &players,
                settings.players_per_game,
                settings.games_per_seat,
            )?;
            events.push(LeagueEvent::GamesScheduled(GamesScheduled {
                league_id: c.league_id,
                games,
            }));
        }
        Ok(events)
    }

    fn unsubscribe(&self, c: &Unsubscribe) -> Result<Vec<LeagueEvent>, DomainError> {
        self.created(c.league_id)?;
        let league = Competition::League(c.league_id);
        self.organisers.authorise_for_player(c.actor, c.player_id, league, "unsubscribe")?;
        let status = self.status().unwrap_or(LeagueStatus::Open);
        if status != LeagueStatus::Open {
            return Err(DomainError::LeagueNotOpen(status));
        }
        if !self.players.contains(&c.player_id) {
            return Err(DomainError::NotSubscribed(c.player_id));
        }
        Ok(vec![LeagueEvent::PlayerUnsubscribed(PlayerUnsubscribed {
            league_id: c.league_id,
            player_id: c.player_id,
        })])
    }

    fn report(&self, c: &ReportResult) -> Result<Vec<LeagueEvent>, DomainError> {
        let settings = self.created(c.league_id)?;
        let game = self.game(c.game_id).ok_or(DomainError::GameNotFound(c.game_id))?;
        let seated = c.actor.player_id().is_some_and(|p| game.is_seated(p));
        if !seated {
            self.organisers.authorise(
                c.actor,
                Competition::League(c.league_id),
                "report the result of a game they are not seated in",
            )?;
        }
        if game.result.is_some() {
            return Err(DomainError::GameAlreadyFinished(c.game_id));
        }
        let result = validate_result(settings.scoring_system, &game.seats, &c.result)?;
        let mut events = vec![LeagueEvent::GameFinished(GameFinished {
            league_id: c.league_id,
            game_id: c.game_id,
            result,
            reported_by: c.actor,
        })];
        let others_finished =
            self.games.iter().filter(|g| g.id != c.game_id).all(|g| g.result.is_some());
        if others_finished {
            events.push(LeagueEvent::LeagueCompleted(LeagueCompleted { league_id: c.league_id }));
        }
        Ok(events)
    }

    fn correct(&self, c: &CorrectResult) -> Result<Vec<LeagueEvent>, DomainError> {
        let settings = self.created(c.league_id)?;
        self.organisers.authorise(c.actor, Competition::League(c.league_id), "correct results")?;
        let game = self.game(c.game_id).ok_or(DomainError::GameNotFound(c.game_id))?;
        if game.result.is_none() {
            return Err(DomainError::GameNotFinished(c.game_id));
        }
        let reason = clean_reason(&c.reason)?;
        let result = validate_result(settings.scoring_system, &game.seats, &c.result)?;
        Ok(vec![LeagueEvent::GameResultCorrected(GameResultCorrected {
            league_id: c.league_id,
            game_id: c.game_id,
            result,
            reason,
            corrected_by: c.actor,
        })])
    }

    fn game_mut(&mut self, game_id: GameId) -> Option<&mut Game> {
        self.games.iter_mut().find(|g| g.id == game_id)
    }
}

/// The settings a league is created with, checked against every rule and with its texts
/// trimmed. Games per seat 0 is what [`LeagueSettings::new`] leaves where the league rules'
/// table has no default for k: refused as missing, not as out of range.
fn validate_settings(requested: &LeagueSettings) -> Result<LeagueSettings, DomainError> {
    let k = requested.players_per_game;
    let name = clean_name("name", &requested.name)?;
    let game = clean_name("game", &requested.game)?;
    let game_version =
        requested.game_version.as_deref().map(|v| clean_name("gameVersion", v)).transpose()?;
    check_players_per_game(requested.scoring_system, k)?;
    check_league_size(k, requested.size)?;
    let given =
        Some(requested.games_per_seat).filter(|s| *s != 0 || default_games_per_seat(k).is_some());
    let games_per_seat = resolve_games_per_seat(k, given)?;
    check_aggregation(requested.aggregation, k, games_per_seat)?;
    Ok(LeagueSettings { name, game, game_version, games_per_seat, ..requested.clone() })
}

/// `docs/scoring.md#league-aggregation`: best N needs 1 ≤ N ≤ the games each player plays
/// ([`games_per_player`]); refused under field `aggregation.n`.
pub fn check_aggregation(
    aggregation: Aggregation,
    players_per_game: u32,
    games_per_seat: u32,
) -> Result<(), DomainError> {
    aggregation.check(games_per_player(players_per_game, games_per_seat)).map_err(|error| {
        let field = error.field().to_owned();
        let message = match error {
            ScoringError::Invalid { message, .. } | ScoringError::Impossible { message, .. } => {
                message
            }
            other => other.to_string(),
        };
        DomainError::InvalidInput { field, message }
    })
}

impl Aggregate for League {
    type Command = LeagueCommand;
    type Event = LeagueEvent;

    fn handle(&self, command: &Self::Command, context: &Context) -> Decision<Self::Event> {
        match command {
            LeagueCommand::Create(c) => self.create(c, context),
            LeagueCommand::Subscribe(c) => self.subscribe(c, context),
            LeagueCommand::Unsubscribe(c) => self.unsubscribe(c),
            LeagueCommand::ReportResult(c) => self.report(c),
            LeagueCommand::CorrectResult(c) => self.correct(c),
            LeagueCommand::AddCoOrganiser(c) => self.add_co_organiser(c, context),
        }
    }

    fn apply(&mut self, event: &LeagueEvent) {
        self.version += 1;
        match event {
            LeagueEvent::LeagueCreated(e) => {
                self.organisers = Organisers::created_by(e.created_by);
                self.created = Some(e.clone());
            }
            LeagueEvent::LeagueCoOrganiserAdded(e) => self.organisers.add(e.player_id),
            LeagueEvent::PlayerSubscribed(e) => self.players.push(e.player_id),
            LeagueEvent::PlayerUnsubscribed(e) => self.players.retain(|p| *p != e.player_id),
            LeagueEvent::GamesScheduled(e) => {
                self.games = e.games.iter().map(scheduled_to_game).collect();
            }
            LeagueEvent::GameFinished(e) => {
                if let Some(game) = self.game_mut(e.game_id) {
                    game.result = Some(e.result.clone());
                    game.reported_by = Some(e.reported_by);
                }
            }
            LeagueEvent::GameResultCorrected(e) => {
                if let Some(game) = self.game_mut(e.game_id) {
                    game.result = Some(e.result.clone());
                    game.corrections += 1;
                }
            }
            LeagueEvent::LeagueCompleted(_) => self.completed = true,
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}

fn scheduled_to_game(scheduled: &ScheduledGame) -> Game {
    Game {
        id: scheduled.game_id,
        number: scheduled.number,
        seats: scheduled.seats.clone(),
        result: None,
        reported_by: None,
        corrections: 0,
    }
}
