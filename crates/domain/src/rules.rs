//! The league rules, one function per rule (`docs/scheduling.md`, `docs/scoring.md`), used by the
//! aggregates' handlers and available to callers that want to check ahead of time.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};
use league_scheduling::{ScheduleSpec, schedule};
use league_scoring::{GameResult, ResultKind, ScoringError, ScoringSystem, score_game};

use crate::error::DomainError;
use crate::ids::{LeagueId, PlayerId, game_id, player_key};
use crate::league::events::ScheduledGame;
pub use crate::settings::{DEFAULT_LEAGUE_SIZE, default_games_per_seat};

/// Largest league: the scheduler's own limit, so every accepted size can be scheduled.
pub const MAX_LEAGUE_SIZE: u32 = league_scheduling::MAX_PLAYERS as u32;
/// Largest games per seat: the scheduler's own limit, so every accepted league can be filled.
pub const MAX_GAMES_PER_SEAT: u32 = league_scheduling::MAX_GAMES_PER_SEAT as u32;
/// `docs/scheduling.md#games-per-league`: the games each player of a league plays, k·s
/// (every player takes each of the k seats s times).
pub fn games_per_player(players_per_game: u32, games_per_seat: u32) -> u32 {
    players_per_game.saturating_mul(games_per_seat)
}
/// Longest name, game, game version.
pub const MAX_NAME_CHARS: usize = 200;
/// Longest correction reason.
pub const MAX_REASON_CHARS: usize = 1000;
/// `docs/scheduling.md#league-life-cycle`, "active player": "terminated at least 5 games in the
/// last 90 days".
pub const ACTIVE_PLAYER_MIN_FINISHED_GAMES: u32 = 5;
/// `docs/scheduling.md#league-life-cycle`, "active player": the 90-day window.
pub const ACTIVE_PLAYER_WINDOW_DAYS: i64 = 90;
/// Scoring-system / players-per-game compatibility, as the scoring catalogue states it
/// ([`ScoringSystem::players_per_game`]): Diplomacy systems need k = 7; `placement` uses the
/// placement table for 2..8 players (`docs/scoring.md#placement`); team systems need k ≥ 2.
pub fn check_players_per_game(system: ScoringSystem, k: u32) -> Result<(), DomainError> {
    let players = system.players_per_game();
    if players.contains(k) {
        return Ok(());
    }
    Err(DomainError::invalid(
        "playersPerGame",
        format!("{} needs {players} players per game, got {k}", system.name()),
    ))
}

/// League size N: at least one game's worth of players (k) and at most [`MAX_LEAGUE_SIZE`].
pub fn check_league_size(players_per_game: u32, size: u32) -> Result<(), DomainError> {
    if size < players_per_game || size > MAX_LEAGUE_SIZE {
        return Err(DomainError::invalid(
            "size",
            format!(
                "a league of {players_per_game} players per game needs {players_per_game} to \
                 {MAX_LEAGUE_SIZE} players, got {size}"
            ),
        ));
    }
    Ok(())
}

/// Games per seat s: the value of `docs/scheduling.md#games-per-league` for k unless given;
/// 1..=[`MAX_GAMES_PER_SEAT`].
pub fn resolve_games_per_seat(
    players_per_game: u32,
    given: Option<u32>,
) -> Result<u32, DomainError> {
    let s = match given {
        Some(s) => s,
        None => default_games_per_seat(players_per_game).ok_or_else(|| {
            DomainError::invalid(
                "gamesPerSeat",
                format!("no default for {players_per_game} players per game; give it"),
            )
        })?,
    };
    if !(1..=MAX_GAMES_PER_SEAT).contains(&s) {
        return Err(DomainError::invalid(
            "gamesPerSeat",
            format!("must be 1 to {MAX_GAMES_PER_SEAT}, got {s}"),
        ));
    }
    Ok(s)
}

/// A display text (name, game, version): trimmed, non-empty, at most [`MAX_NAME_CHARS`].
pub fn clean_name(field: &str, value: &str) -> Result<String, DomainError> {
    clean_text(field, value, MAX_NAME_CHARS)
}

/// A correction reason: trimmed, non-empty, at most [`MAX_REASON_CHARS`].
pub fn clean_reason(reason: &str) -> Result<String, DomainError> {
    clean_text("reason", reason, MAX_REASON_CHARS)
}

fn clean_text(field: &str, value: &str, max_chars: usize) -> Result<String, DomainError> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    let chars = trimmed.chars().count();
    if chars > max_chars {
        return Err(DomainError::invalid(
            field,
            format!("must be at most {max_chars} characters, got {chars}"),
        ));
    }
    Ok(trimmed.to_owned())
}

/// `docs/scheduling.md#league-life-cycle`, rule "active player": "To be an active player you just
/// need to have terminated at least 5 games in the last 90 days".
pub fn is_active_player(finished_games_in_window: u32) -> bool {
    finished_games_in_window >= ACTIVE_PLAYER_MIN_FINISHED_GAMES
}

/// `docs/scheduling.md#league-life-cycle`, "active player": the start of the 90-day window ending
/// at `now`.
pub fn activity_window_start(now: DateTime<Utc>) -> DateTime<Utc> {
    now - Duration::days(ACTIVE_PLAYER_WINDOW_DAYS)
}

/// The scheduler seed of a league: the first 8 bytes of its id, big-endian.
pub fn schedule_seed(league_id: LeagueId) -> u64 {
    let uuid = league_id.uuid();
    let bytes = uuid.as_bytes();
    u64::from_be_bytes([
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
    ])
}

/// `docs/scheduling.md#league-life-cycle`, rule "automatic games": "When the 8th player subscribe
/// to
/// the league, the system automatically creates all the games that are part of the league and
/// automatically subscribe all the players to those games in a way that ensure an equal
/// distribution of games and starting situation." Players are given in subscription order (schedule
/// index = position); games are numbered from 1 in schedule order, with ids from [`game_id`].
pub fn schedule_league_games(
    league_id: LeagueId,
    players: &[PlayerId],
    players_per_game: u32,
    games_per_seat: u32,
) -> Result<Vec<ScheduledGame>, DomainError> {
    let spec = ScheduleSpec {
        players: players.len(),
        per_game: players_per_game as usize,
        games_per_seat: Some(games_per_seat as usize),
        seed: schedule_seed(league_id),
    };
    let plan = schedule(&spec).map_err(|e| DomainError::Scheduling(e.to_string()))?;
    plan.games
        .iter()
        .enumerate()
        .map(|(index, seats)| {
            let number = u32::try_from(index + 1)
                .map_err(|_| DomainError::Scheduling("too many games".into()))?;
            if seats.len() != players_per_game as usize {
                return Err(DomainError::Scheduling(format!(
                    "game {number} has {} seats, expected {players_per_game}",
                    seats.len()
                )));
            }
            let seats = seats
                .iter()
                .map(|&i| {
                    players.get(i).copied().ok_or_else(|| {
                        DomainError::Scheduling(format!("game {number} seats unknown player {i}"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ScheduledGame { game_id: game_id(league_id, number), number, seats })
        })
        .collect()
}

/// A result must name exactly the game's seated players (each once), have the shape of
/// the league's system, and be scorable by it. Returns the result with every player
/// string in canonical UUID form, ready to be stored.
pub fn validate_result(
    system: ScoringSystem,
    seats: &[PlayerId],
    result: &GameResult,
) -> Result<GameResult, DomainError> {
    if system.result_kind() != result.kind() {
        return Err(DomainError::invalid(
            "result",
            format!("{} takes {} results", system.name(), expected_shape(system)),
        ));
    }
    let mut normalised = result.clone();
    let mut named = BTreeSet::new();
    for player in player_names_mut(&mut normalised) {
        let id: PlayerId = player.trim().parse().map_err(|_| {
            DomainError::invalid("result", format!("{player:?} is not a player id"))
        })?;
        if !named.insert(id) {
            return Err(DomainError::invalid("result", format!("player {id} appears twice")));
        }
        if !seats.contains(&id) {
            return Err(DomainError::invalid(
                "result",
                format!("player {id} is not seated in this game"),
            ));
        }
        *player = player_key(id);
    }
    if let Some(missing) = seats.iter().find(|id| !named.contains(id)) {
        return Err(DomainError::invalid(
            "result",
            format!("seated player {missing} is missing from the result"),
        ));
    }
    score_game(system, &normalised).map_err(scoring_error)?;
    Ok(normalised)
}

/// Wraps a scoring refusal as invalid input under `result`: the scoring crate names the
/// offending field as a path into the result (`players[3].centres`), which becomes
/// `result.players[3].centres`; the message is the refusal without its field.
fn scoring_error(error: ScoringError) -> DomainError {
    let path = error.field().to_owned();
    let message = match error {
        ScoringError::Invalid { message, .. } => message,
        ScoringError::Impossible { message, .. } => format!("impossible result: {message}"),
        ScoringError::WrongResultKind { system, expected, got } => {
            format!("{system} scores a {expected} result, got a {got} result")
        }
        ScoringError::UnknownSystem { name } => format!("unknown scoring system `{name}`"),
    };
    let field = if path == "result" { path } else { format!("result.{path}") };
    DomainError::InvalidInput { field, message }
}

/// Every player string in a result, for rewriting in place.
fn player_names_mut(result: &mut GameResult) -> Vec<&mut String> {
    match result {
        GameResult::Placement(entries) => entries.iter_mut().map(|e| &mut e.player).collect(),
        GameResult::Diplomacy(entries) => entries.iter_mut().map(|e| &mut e.player).collect(),
        GameResult::Teams(teams) => teams
            .sides
            .iter_mut()
            .flat_map(|side| side.players.iter_mut().map(|p| &mut p.player))
            .collect(),
    }
}

/// The input shape a system's results take (`diplomacy`, `teams`, `placement`).
fn expected_shape(system: ScoringSystem) -> &'static str {
    match system.result_kind() {
        ResultKind::Diplomacy => "diplomacy",
        ResultKind::Teams => "teams",
        ResultKind::Placement => "placement",
    }
}
