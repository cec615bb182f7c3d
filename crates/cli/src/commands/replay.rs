//! `league replay`, `league audit`, `league rescore`: the read side rebuilt from the log —
//! the whole log folded in memory with its hash chain verified, standings at any point in
//! history, how each score came to be, and what-if standings under another scoring system.
//! Each prints what an application use case returns (`league_app::replay`, `App::audit`,
//! `App::rescore`); this module maps arguments and errors and writes the output. Nothing is
//! written to the log.

use league_domain::LeagueEvent;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use league_app::WhatIf;
use league_app::replay::{Rebuild, ReplayError};
use league_app::{App, AppError, AsOf, AuditEntry, ResultAudit};
use league_domain::DomainEvent;
use league_scoring::{ConcessionRule, ScoringSystem};
use league_store::EventStore;
use serde::Serialize;
use uuid::Uuid;

use crate::CliError;
use crate::commands::db::connect;

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
#[command(group(clap::ArgGroup::new("what_if").required(true).multiple(true).args(["system", "concessions"])))]
pub struct RescoreArgs {
    #[command(flatten)]
    pub database: super::DatabaseArgs,
    /// The league to rescore (UUID).
    #[arg(long, value_name = "ID")]
    pub league: String,
    /// The scoring system to apply instead of the league's own (any of its names).
    #[arg(long, value_name = "NAME")]
    pub system: Option<String>,
    /// Score every concession under this rule instead of the rule its result was recorded
    /// under: `solo` scores each as the power conceded to's solo in every system but Baf and
    /// Detour 98f (docs/scoring.md#draws-and-concessions).
    #[arg(long, value_name = "RULE")]
    pub concessions: Option<ConcessionsArg>,
}

/// The concession rules a what-if can apply to every result (`--concessions`).
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ConcessionsArg {
    /// A concession is the conceded-to power's solo in every system but Baf and Detour 98f.
    Solo,
}

impl From<ConcessionsArg> for ConcessionRule {
    fn from(arg: ConcessionsArg) -> Self {
        match arg {
            ConcessionsArg::Solo => ConcessionRule::Solo,
        }
    }
}

pub(crate) fn parse_uuid(flag: &str, text: &str) -> Result<Uuid, CliError> {
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

/// `league replay`: read the whole log once, verifying its hash chain and rebuilding the
/// read side and the ratings (no bound), or print standings at a point in history as JSON
/// (with `--to-position` or `--at`).
pub async fn replay(args: ReplayArgs) -> Result<ExitCode, CliError> {
    let league = args.league.as_deref().map(|text| parse_uuid("--league", text)).transpose()?;
    let bound = parse_bound(&args)?;
    let store = open(&args.database.url).await?;
    let head = store.head_position().await.context("cannot read the event log")?;
    let bar = super::progress_bar(head, "replaying");
    let started = Instant::now();
    let progress = |position| bar.set_position(position);
    let replay = match bound {
        None => match league_app::replay::rebuild(&store, league, progress).await {
            Ok(Rebuild::ChainBroken(bad)) => {
                bar.finish_and_clear();
                eprintln!(
                    "replay: the hash chain breaks at position {}: {:?}",
                    bad.position, bad.problem
                );
                return Ok(ExitCode::FAILURE);
            }
            Ok(Rebuild::Intact(replay)) => {
                bar.finish_and_clear();
                let seconds = replay.fold_time.as_secs_f64();
                let events = replay.position();
                eprintln!(
                    "replayed {events} events in {seconds:.3} s ({:.0} events/s); hash chain \
                     intact ({} events)",
                    events as f64 / seconds.max(1e-9),
                    replay.events_verified.unwrap_or_default()
                );
                eprintln!("{}", replay.ratings_summary());
                *replay
            }
            Err(error) => return Err(replay_error(error)),
        },
        Some(as_of) => {
            let replay = league_app::replay::fold_as_of(&store, as_of, league, progress).await;
            bar.finish_and_clear();
            replay.map_err(replay_error)?
        }
    };
    if bound.is_none() && league.is_none() {
        return Ok(ExitCode::SUCCESS);
    }
    let report = replay.report(&store, league).await.map_err(replay_error)?;
    if bound.is_some() {
        let seconds = started.elapsed().as_secs_f64();
        let events = replay.position();
        eprintln!(
            "replayed {events} events in {seconds:.3} s ({:.0} events/s)",
            events as f64 / seconds.max(1e-9)
        );
    }
    print_json(&report)?;
    Ok(ExitCode::SUCCESS)
}

/// A league the replay lacks is bad input on `--league`; anything else is a failure.
fn replay_error(error: ReplayError) -> CliError {
    match error {
        ReplayError::UnknownLeague(_) | ReplayError::LeagueNotYet(_) => {
            CliError::BadInput(format!("--league: {error}"))
        }
        other => CliError::Failed(other.into()),
    }
}

/// Prints a report as pretty JSON. It goes through a JSON value, whose object keys are
/// sorted: the field order of the report's types does not change the output.
pub(crate) fn print_json(report: &impl Serialize) -> Result<(), CliError> {
    let value = serde_json::to_value(report).context("JSON output")?;
    let text = serde_json::to_string_pretty(&value).context("JSON output")?;
    super::write_stdout(&format!("{text}\n"))
}

/// A player as the audit names them: "Name (id)", or the id of a player the catalog lacks.
pub(crate) fn name(app: &App, player: Uuid) -> String {
    app.catalog()
        .player(player)
        .map_or_else(|| player.to_string(), |p| format!("{} ({player})", p.name))
}

/// Opens the application over the database (migrated; the catalog folded).
pub(crate) async fn open_app(url: &str) -> Result<App, CliError> {
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
        line.describe(&mut text, &app, entry).await;
    }
    let standings = match app.league(league).await {
        Ok(Some(model)) => model.standings(league),
        Ok(None) => Vec::new(),
        Err(error) => return Err(CliError::Failed(error.into())),
    };
    let _ = writeln!(text, "\nStandings now:");
    for row in standings.iter().filter(|row| only.is_none_or(|p| p == row.player.uuid())) {
        let _ = writeln!(
            text,
            "  {:>2}. {}  {}  ({} played, {} wins, {} draws)",
            row.rank,
            name(&app, row.player.into()),
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

    /// One league event: its sentence (`App::describe`), or for a result the audit of its
    /// scores; with `--player`, only the lines about that player.
    async fn describe(&self, text: &mut String, app: &App, entry: &AuditEntry) {
        let (head, actor) = (&self.head, &self.actor);
        let shown = match &entry.decoded {
            DomainEvent::League(event) => match event {
                LeagueEvent::GameFinished(_) | LeagueEvent::GameResultCorrected(_) => {
                    if let Some(result) = &entry.result {
                        self.scores(text, app, result);
                    }
                    return;
                }
                LeagueEvent::PlayerSubscribed(e) => self.concerns(e.player_id.into()),
                LeagueEvent::PlayerUnsubscribed(e) => self.concerns(e.player_id.into()),
                LeagueEvent::LeagueCreated(_)
                | LeagueEvent::GamesScheduled(_)
                | LeagueEvent::LeagueCompleted(_)
                | LeagueEvent::LeagueCoOrganiserAdded(_) => self.only.is_none(),
            },
            // A league's audit reads its own stream, which holds only league events.
            DomainEvent::Player(_)
            | DomainEvent::Tournament(_)
            | DomainEvent::Calendar(_)
            | DomainEvent::Webhook(_)
            | DomainEvent::Series(_) => false,
        };
        if shown {
            let sentence = app.describe_naming(&entry.decoded, &|player| name(app, player)).await;
            let _ = writeln!(text, "{head} by {actor}: {sentence}");
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
/// system and/or with every concession under one rule. Reads the log; appends nothing.
pub async fn rescore(args: RescoreArgs) -> Result<ExitCode, CliError> {
    let league = parse_uuid("--league", &args.league)?;
    let system = args
        .system
        .as_deref()
        .map(|name| {
            ScoringSystem::from_str(name)
                .map_err(|error| CliError::BadInput(format!("--system: {error}")))
        })
        .transpose()?;
    let what_if =
        WhatIf { system, aggregation: None, concessions: args.concessions.map(Into::into) };
    let app = open_app(&args.database.url).await?;
    let report = match app.rescore(league, what_if).await {
        Ok(report) => report,
        Err(AppError::NotFound(_)) => {
            return Err(CliError::BadInput(format!("--league: no league {league} in this log")));
        }
        Err(error) => match error.invalid_input() {
            Some((_, message)) => return Err(CliError::BadInput(format!("--system: {message}"))),
            None => return Err(CliError::Failed(error.into())),
        },
    };
    print_json(&report)?;
    Ok(ExitCode::SUCCESS)
}
