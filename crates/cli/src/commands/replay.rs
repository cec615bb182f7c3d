//! `league replay`, `league audit`, `league rescore`: the read side rebuilt from the log —
//! the whole log folded in memory with its hash chain verified, standings at any point in
//! history, how each score came to be, and what-if standings under another scoring system.
//! Audit and rescore print what the application's use cases return (`App::audit`,
//! `App::standings_under`). Nothing is written: every read model is a fold of the log
//! (README "Architecture").

use std::fmt::Write as _;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use league_app::{App, AppError, AuditEntry, ResultAudit};
use league_domain::DomainEvent;
use league_projections::{
    AsOf, GameKind, RatingsModel, ReadModel, StandingRow, load_model, load_ratings,
};
use league_scoring::ScoringSystem;
use league_store::EventStore;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::CliError;
use crate::commands::db::connect;

/// Logs shorter than this replay too fast for a progress bar to be worth drawing.
const PROGRESS_FROM_EVENTS: u64 = 50_000;

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// Only this league's standings (UUID).
    #[arg(long, value_name = "ID")]
    pub league: Option<String>,
    /// Standings as of this global position (prints JSON; rebuilds nothing).
    #[arg(long, value_name = "P", conflicts_with = "at", allow_hyphen_values = true)]
    pub to_position: Option<String>,
    /// Standings as of this instant, RFC 3339 (prints JSON; rebuilds nothing).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    pub at: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The league to explain (UUID).
    #[arg(long, value_name = "ID")]
    pub league: String,
    /// Only the events that changed this player's score (UUID).
    #[arg(long, value_name = "ID")]
    pub player: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct RescoreArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The league to rescore (UUID).
    #[arg(long, value_name = "ID")]
    pub league: String,
    /// The scoring system to apply instead of the league's own.
    #[arg(long, value_name = "NAME")]
    pub system: String,
}

fn parse_uuid(flag: &str, text: &str) -> Result<Uuid, CliError> {
    Uuid::parse_str(text.trim())
        .map_err(|_| CliError::BadInput(format!("{flag}: {text:?} is not a UUID")))
}

fn parse_bound(args: &ReplayArgs) -> Result<Option<AsOf>, CliError> {
    if let Some(text) = &args.to_position {
        let position = text.trim().parse::<u64>().map_err(|_| {
            CliError::BadInput(format!(
                "--to-position: {text:?} is not a log position (0, 1, 2, …)"
            ))
        })?;
        return Ok(Some(AsOf::Position(position)));
    }
    if let Some(text) = &args.at {
        let time = DateTime::parse_from_rfc3339(text.trim()).map_err(|_| {
            CliError::BadInput(format!(
                "--at: {text:?} is not an RFC 3339 time (e.g. 2026-11-22T10:00:00Z)"
            ))
        })?;
        return Ok(Some(AsOf::Time(time.with_timezone(&Utc))));
    }
    Ok(None)
}

async fn open(url: &str) -> Result<EventStore, CliError> {
    let store = connect(url).await?;
    store.migrate().await.context("cannot migrate the database")?;
    Ok(store)
}

/// A progress bar on stderr for long logs (hidden for short ones and when stderr is not a
/// terminal).
fn progress_bar(total: u64) -> ProgressBar {
    if total < PROGRESS_FROM_EVENTS {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} replaying [{bar:40}] {pos}/{len} events ({per_sec}, eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// `league replay`: fold the whole log in memory and verify its hash chain (no bound), or
/// print standings at a point in history as JSON (with `--to-position` or `--at`).
pub async fn replay(args: ReplayArgs) -> Result<ExitCode, CliError> {
    let league = args.league.as_deref().map(|text| parse_uuid("--league", text)).transpose()?;
    let bound = parse_bound(&args)?;
    let store = open(&args.database.url).await?;
    let head = store.head_position().await.context("cannot read the event log")?;
    let bar = progress_bar(head);
    let started = Instant::now();
    let model = match bound {
        None => {
            // The fold and the hash-chain walk are two scans of the log, run side by side.
            let (model, verified) = tokio::join!(
                load_model(&store, None, |position| bar.set_position(position)),
                store.verify()
            );
            let model = model.context("replay failed")?;
            let verified = verified.context("cannot verify the hash chain")?;
            bar.finish_and_clear();
            let seconds = started.elapsed().as_secs_f64();
            if let Some(bad) = &verified.first_bad {
                eprintln!(
                    "replay: the hash chain breaks at position {}: {:?}",
                    bad.position, bad.problem
                );
                return Ok(ExitCode::FAILURE);
            }
            eprintln!(
                "replayed {} events in {seconds:.3} s ({:.0} events/s); hash chain intact \
                 ({} events)",
                model.position(),
                model.position() as f64 / seconds.max(1e-9),
                verified.events_verified
            );
            model
        }
        Some(as_of) => {
            let model = load_model(&store, Some(as_of), |position| bar.set_position(position))
                .await
                .context("replay failed")?;
            bar.finish_and_clear();
            model
        }
    };
    // Ratings across leagues (docs/ratings.md) are rebuilt from the same log; a result that
    // does not fit (unknown league, a second first report, a correction of nothing) fails
    // the replay like any other fold error.
    let ratings = load_ratings(&store, model.position(), |league| {
        model.league(league).map(|view| view.settings.scoring_system)
    })
    .await
    .context("ratings replay failed")?;
    if bound.is_none() {
        eprintln!("{}", ratings_summary(&ratings));
    }
    if bound.is_none() && league.is_none() {
        return Ok(ExitCode::SUCCESS);
    }
    let leagues: Vec<Value> = match league {
        Some(id) => {
            if model.league(id).is_none() {
                return Err(CliError::BadInput(missing_league(&store, id, bound).await?));
            }
            vec![league_json(&model, id)]
        }
        None => model.leagues().map(|view| league_json(&model, view.id)).collect(),
    };
    if bound.is_some() {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "replayed {} events in {seconds:.3} s ({:.0} events/s)",
            model.position(),
            model.position() as f64 / seconds.max(1e-9)
        );
    }
    let output = json!({
        "position": model.position(),
        "recordedAt": model.last_recorded_at(),
        "leagues": leagues,
        "ratings": ratings_json(&ratings),
    });
    println!("{}", serde_json::to_string_pretty(&output).context("JSON output")?);
    Ok(ExitCode::SUCCESS)
}

/// Why `--league` names nothing: no such league at all, or not yet at the bound.
async fn missing_league(
    store: &EventStore,
    league: Uuid,
    bound: Option<AsOf>,
) -> Result<String, CliError> {
    let exists_later = bound.is_some()
        && load_model(store, None, |_| {}).await.context("replay failed")?.league(league).is_some();
    Ok(if exists_later {
        format!("--league: league {league} did not exist yet at that point")
    } else {
        format!("--league: no league {league} in this log")
    })
}

fn standings_json(model: &ReadModel, rows: &[StandingRow]) -> Vec<Value> {
    rows.iter()
        .map(|row| {
            json!({
                "rank": row.rank,
                "player": row.player,
                "name": model.player(row.player).map(|p| p.name.as_str()),
                "total": row.total,
                "played": row.played,
                "wins": row.wins,
                "draws": row.draws,
            })
        })
        .collect()
}

fn league_json(model: &ReadModel, league: Uuid) -> Value {
    let view = model.league(league).expect("checked by the caller");
    let finished = model.games_of(league).filter(|game| game.result.is_some()).count();
    json!({
        "league": view.id,
        "name": view.settings.name,
        "status": view.status,
        "scoringSystem": view.settings.scoring_system,
        "gamesFinished": finished,
        "games": view.games.len(),
        "standings": standings_json(model, &model.standings(league)),
    })
}

/// A player as the audit names them: "Name (id)", or the id of a player the catalog lacks.
fn name(app: &App, player: Uuid) -> String {
    app.catalog()
        .player(player)
        .map_or_else(|| player.to_string(), |p| format!("{} ({player})", p.name))
}

/// Opens the application over the database (migrated; the catalog folded).
async fn open_app(url: &str) -> Result<App, CliError> {
    let store = open(url).await?;
    App::from_store(store).await.map_err(|error| CliError::Failed(error.into()))
}

/// `league audit`: every event of a league, in order, with how each score came to be.
pub async fn audit(args: AuditArgs) -> Result<ExitCode, CliError> {
    let league = parse_uuid("--league", &args.league)?;
    let only = args.player.as_deref().map(|text| parse_uuid("--player", text)).transpose()?;
    let app = open_app(&args.database.url).await?;
    let entries = match app.audit(league).await {
        Err(AppError::NotFound(_)) => {
            return Err(CliError::BadInput(format!("--league: no league {league} in this log")));
        }
        other => other.map_err(|error| CliError::Failed(error.into()))?,
    };
    if let Some(player) = only
        && app.catalog().league(league).is_some_and(|view| !view.players.contains(&player))
    {
        return Err(CliError::BadInput(format!(
            "--player: player {player} is not in league {league}"
        )));
    }
    let mut text = String::new();
    for entry in &entries {
        let line = Line {
            head: format!(
                "#{} {} {}",
                entry.event.position,
                entry.event.recorded_at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
                entry.event.event_type
            ),
            actor: entry.event.metadata.actor.clone().unwrap_or_else(|| "unknown".into()),
            only,
        };
        line.describe(&mut text, &app, entry);
    }
    let standings = match app.league(league).await {
        Ok(Some(model)) => model.standings(league),
        Ok(None) => Vec::new(),
        Err(error) => return Err(CliError::Failed(error.into())),
    };
    let _ = writeln!(text, "\nStandings now:");
    for row in standings.iter().filter(|row| only.is_none_or(|p| p == row.player)) {
        let _ = writeln!(
            text,
            "  {:>2}. {}  {}  ({} played, {} wins, {} draws)",
            row.rank,
            name(&app, row.player),
            row.total,
            row.played,
            row.wins,
            row.draws
        );
    }
    super::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// What every audit line starts with, and whose lines to keep.
struct Line {
    head: String,
    actor: String,
    only: Option<Uuid>,
}

impl Line {
    fn concerns(&self, player: Uuid) -> bool {
        self.only.is_none_or(|p| p == player)
    }

    /// One league event in human words.
    fn describe(&self, text: &mut String, app: &App, entry: &AuditEntry) {
        let (head, actor) = (&self.head, &self.actor);
        match &entry.decoded {
            DomainEvent::LeagueCreated(e) if self.only.is_none() => {
                let _ = writeln!(
                    text,
                    "{head} by {actor}: \"{}\" ({}), scoring system {}, {} players per game, \
                     {} players, {} games per seat{}",
                    e.settings.name,
                    e.settings.game,
                    e.settings.scoring_system,
                    e.settings.players_per_game,
                    e.settings.size,
                    e.settings.games_per_seat,
                    if e.settings.require_active_players { ", active players only" } else { "" }
                );
            }
            DomainEvent::PlayerSubscribed(e) if self.concerns(e.player_id) => {
                let _ = writeln!(text, "{head} by {actor}: {}", name(app, e.player_id));
            }
            DomainEvent::PlayerUnsubscribed(e) if self.concerns(e.player_id) => {
                let _ = writeln!(text, "{head} by {actor}: {}", name(app, e.player_id));
            }
            DomainEvent::GamesScheduled(e) if self.only.is_none() => {
                let _ = writeln!(text, "{head} by {actor}: {} games", e.games.len());
            }
            DomainEvent::GameFinished(_) | DomainEvent::GameResultCorrected(_) => {
                if let Some(result) = &entry.result {
                    self.scores(text, app, result);
                }
            }
            DomainEvent::LeagueCompleted(_) if self.only.is_none() => {
                let _ = writeln!(text, "{head}: every game has a result");
            }
            // Lines about other players (`--player`), and registrations, which are not
            // league events. Listed by name so a new event type must be described here.
            DomainEvent::LeagueCreated(_)
            | DomainEvent::PlayerSubscribed(_)
            | DomainEvent::PlayerUnsubscribed(_)
            | DomainEvent::GamesScheduled(_)
            | DomainEvent::LeagueCompleted(_)
            | DomainEvent::PlayerRegistered(_) => {}
        }
    }

    /// A result or correction: the system, each seated player's explanation lines, the
    /// change of their league score and their new total.
    fn scores(&self, text: &mut String, app: &App, result: &ResultAudit) {
        if !result.players.iter().any(|seat| self.concerns(seat.player)) {
            return;
        }
        let _ = write!(
            text,
            "{} by {}: game {} ({})",
            self.head, self.actor, result.number, result.game
        );
        match &result.reason {
            Some(reason) => {
                let _ = writeln!(text, " corrected, reason: {reason:?}");
            }
            None => {
                let _ = writeln!(text, " finished");
            }
        }
        let _ = writeln!(text, "    scoring system: {}", result.system);
        for seat in result.players.iter().filter(|seat| self.concerns(seat.player)) {
            let now = seat.score;
            let change = match seat.before {
                Some(old) => format!("{old} -> {now} ({:+})", now - old),
                None => format!("{now:+}"),
            };
            let _ = writeln!(
                text,
                "    {} [{}]: {change}, league total {}",
                name(app, seat.player),
                seat.seat_label,
                seat.total
            );
            for line in &seat.explanation {
                let _ = writeln!(text, "        {line}");
            }
        }
    }
}

/// `league rescore`: standings of a league if its results were scored under another
/// system. Reads the log; appends nothing.
pub async fn rescore(args: RescoreArgs) -> Result<ExitCode, CliError> {
    let league = parse_uuid("--league", &args.league)?;
    let system = ScoringSystem::from_str(args.system.trim())
        .map_err(|error| CliError::BadInput(format!("--system: {error}")))?;
    let app = open_app(&args.database.url).await?;
    let what_if = match app.standings_under(league, system, None).await {
        Ok(rows) => rows,
        Err(AppError::NotFound(_)) => {
            return Err(CliError::BadInput(format!("--league: no league {league} in this log")));
        }
        Err(error) => match error.invalid_input() {
            Some((_, message)) => return Err(CliError::BadInput(format!("--system: {message}"))),
            None => return Err(CliError::Failed(error.into())),
        },
    };
    let model =
        app.league(league).await.map_err(|error| CliError::Failed(error.into()))?.ok_or_else(
            || CliError::BadInput(format!("--league: no league {league} in this log")),
        )?;
    let view = model.league(league).expect("the app returned this league's model");
    let actual = model.standings(league);
    // The rescore lists the players who have played (the league's table also lists the
    // others, last).
    let rows: Vec<Value> = what_if
        .iter()
        .filter(|row| row.played > 0)
        .map(|row| {
            let mut json = standing_json(&app, row);
            let rank = actual.iter().find(|a| a.player == row.player).map(|a| a.rank);
            json["rankUnderLeagueSystem"] = json!(rank);
            json
        })
        .collect();
    let output = json!({
        "league": league,
        "name": view.settings.name,
        "leagueSystem": view.settings.scoring_system,
        "system": system,
        "position": app.applied_position(),
        "standings": rows,
    });
    println!("{}", serde_json::to_string_pretty(&output).context("JSON output")?);
    Ok(ExitCode::SUCCESS)
}

/// One standings row as the rescore prints it.
fn standing_json(app: &App, row: &StandingRow) -> Value {
    json!({
        "rank": row.rank,
        "player": row.player,
        "name": app.catalog().player(row.player).map(|p| p.name.clone()),
        "total": row.total,
        "played": row.played,
        "wins": row.wins,
        "draws": row.draws,
    })
}

/// One line per game kind with rated games: games, players and the leader (replay's summary).
fn ratings_summary(model: &RatingsModel) -> String {
    let ratings = model.ratings();
    let mut lines = vec![format!("ratings rebuilt from {} results", model.results_folded())];
    for kind in GameKind::ALL {
        let board = ratings.leaderboard(kind, None);
        if let Some(top) = board.first() {
            lines.push(format!(
                "  {kind}: {} games rated, {} players; top {} (display {:.3}, mu {:.3}, sigma {:.3})",
                ratings.games_rated(kind),
                board.len(),
                top.player,
                top.rating.display(),
                top.rating.mu,
                top.rating.sigma,
            ));
        }
    }
    lines.join("\n")
}

/// Every game kind's leaderboard as of the model's position (replay's JSON output).
fn ratings_json(model: &RatingsModel) -> Value {
    let ratings = model.ratings();
    let kinds = GameKind::ALL.into_iter().map(|kind| {
        let rows: Vec<Value> = ratings
            .leaderboard(kind, None)
            .into_iter()
            .map(|row| {
                json!({
                    "rank": row.rank,
                    "player": row.player,
                    "mu": row.rating.mu,
                    "sigma": row.rating.sigma,
                    "display": row.rating.display(),
                    "games": row.rating.games,
                })
            })
            .collect();
        (kind.name().to_owned(), Value::Array(rows))
    });
    Value::Object(kinds.collect())
}
