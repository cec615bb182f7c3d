//! A delivery's body (`docs/webhooks.md#bodies`): the event with what it means, as JSON, or a
//! Discord message with a readable summary ("Round 2 seeded: board 3 — Ann (France), …";
//! "Result …; standings: 1. …"). Names come from the application's read model; standings are
//! the competition's as of the event's position, so a body re-rendered after a restart says
//! the same.

use league_domain::{LeagueEvent, TournamentEvent};
use std::fmt::Write;

use league_app::App;
use league_domain::{
    DomainEvent, PlayerId, StreamRef, WebhookFormat, WebhookKind, WebhookRegistered, seat_label,
};
use league_projections::AsOf;
use league_scoring::{GameResult, ScoringSystem};
use league_store::RecordedEvent;
use serde::Serialize;
use serde_json::json;
use uuid::Uuid;

use crate::WebhookError;

/// Discord refuses message contents longer than this.
const DISCORD_MAX_CHARS: usize = 2000;
/// Standings lines in a summary (the JSON body lists every player).
const SUMMARY_STANDINGS: usize = 10;

/// One line of the standings in a body.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StandingLine {
    pub rank: u32,
    pub player_id: PlayerId,
    pub name: String,
    pub total: f64,
}

/// The competition an event is about, as a body names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct CompetitionRef {
    id: Uuid,
    kind: &'static str,
    name: String,
}

/// The body of the delivery of `event` to `webhook`, which wants it as `kinds`.
pub async fn render(
    app: &App,
    webhook: &WebhookRegistered,
    event: &RecordedEvent,
    decoded: &DomainEvent,
    kinds: &[WebhookKind],
) -> Result<Vec<u8>, WebhookError> {
    let competition = competition_of(app, decoded);
    let standings = if kinds.contains(&WebhookKind::StandingsChanged) {
        Some(standings(app, decoded, event.position).await?)
    } else {
        None
    };
    let mut summary = describe(app, decoded).await?;
    if let Some(competition) = &competition {
        summary = format!("{} — {summary}", competition.name);
    }
    if let Some(lines) = standings.as_deref().filter(|lines| !lines.is_empty()) {
        let top: Vec<String> = lines
            .iter()
            .take(SUMMARY_STANDINGS)
            .map(|line| format!("{}. {} {}", line.rank, line.name, points(line.total)))
            .collect();
        let _ = write!(summary, "; standings: {}", top.join(", "));
        if lines.len() > SUMMARY_STANDINGS {
            summary.push_str(", …");
        }
    }
    let body = match webhook.format {
        WebhookFormat::Json => json!({
            "deliveryId": delivery_id(webhook.webhook_id, event.position),
            "webhookId": webhook.webhook_id,
            "position": event.position,
            "recordedAt": event.recorded_at,
            "kinds": kinds,
            "eventType": event.event_type,
            "competition": competition,
            "summary": summary,
            "standings": standings,
            "event": event.payload,
        }),
        // Names are the players' own: never let one ping a channel (`@everyone`).
        WebhookFormat::Discord => json!({
            "content": truncate(&summary, DISCORD_MAX_CHARS),
            "allowed_mentions": { "parse": [] },
        }),
    };
    Ok(serde_json::to_vec(&body).expect("JSON values serialise"))
}

/// The de-duplication id of a delivery: `<webhook id>:<log position>`.
pub fn delivery_id(webhook: Uuid, position: u64) -> String {
    format!("{webhook}:{position}")
}

fn competition_of(app: &App, event: &DomainEvent) -> Option<CompetitionRef> {
    let catalog = app.catalog();
    match event.stream() {
        StreamRef::League(id) => Some(CompetitionRef {
            id,
            kind: "LEAGUE",
            name: catalog.league(id).map_or_else(|| id.to_string(), |l| l.settings.name.clone()),
        }),
        StreamRef::Tournament(id) => Some(CompetitionRef {
            id,
            kind: "TOURNAMENT",
            name: catalog
                .tournament(id)
                .map_or_else(|| id.to_string(), |t| t.settings.name.clone()),
        }),
        StreamRef::Player(_) | StreamRef::Webhook(_) | StreamRef::Calendar(_) => None,
    }
}

fn name(app: &App, player: PlayerId) -> String {
    app.catalog().player(player).map_or_else(|| player.to_string(), |p| p.name.clone())
}

fn points(total: f64) -> String {
    // Totals are exact thousandths: print them without trailing zeros.
    let text = format!("{total:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// `text` cut to at most `max_chars` characters, the last one `…` when cut.
pub(crate) fn truncate(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max_chars - 1).collect();
    cut.push('…');
    cut
}

/// The standings of the event's competition as of `position`, best first.
async fn standings(
    app: &App,
    event: &DomainEvent,
    position: u64,
) -> Result<Vec<StandingLine>, WebhookError> {
    let rows: Vec<(u32, PlayerId, f64)> = match event.stream() {
        StreamRef::League(id) => app
            .standings_as_of(id, AsOf::Position(position))
            .await?
            .into_iter()
            .map(|row| (row.rank, row.player, row.total))
            .collect(),
        StreamRef::Tournament(id) => app
            .tournament_as_of(id, AsOf::Position(position))
            .await?
            .standings(None)
            .map_err(|error| WebhookError::Render(error.to_string()))?
            .into_iter()
            .map(|row| (row.rank, row.player, row.total))
            .collect(),
        StreamRef::Player(_) | StreamRef::Webhook(_) | StreamRef::Calendar(_) => Vec::new(),
    };
    Ok(rows
        .into_iter()
        .map(|(rank, player_id, total)| StandingLine {
            rank,
            player_id,
            name: name(app, player_id),
            total,
        })
        .collect())
}

/// Each player of a result with their score under the competition's system, best first.
fn scored(app: &App, competition: Uuid, result: &GameResult) -> String {
    let system: Option<ScoringSystem> = app.catalog().scoring_system_of(competition);
    let scored =
        system.and_then(|system| league_scoring::score_game_unexplained(system, result).ok());
    let Some(mut scored) = scored else { return "scores unavailable".into() };
    scored.players.sort_by(|a, b| b.score.total_cmp(&a.score));
    scored
        .players
        .iter()
        .map(|row| {
            let player = Uuid::parse_str(&row.player)
                .map_or_else(|_| row.player.clone(), |id| name(app, id));
            format!("{player} {}", points(row.score))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line saying what happened.
async fn describe(app: &App, event: &DomainEvent) -> Result<String, WebhookError> {
    Ok(match event {
        DomainEvent::League(LeagueEvent::GameFinished(e)) => {
            format!("Result: {}", scored(app, e.league_id, &e.result))
        }
        DomainEvent::League(LeagueEvent::GameResultCorrected(e)) => {
            format!("Result corrected ({}): {}", e.reason, scored(app, e.league_id, &e.result))
        }
        DomainEvent::Tournament(TournamentEvent::BoardFinished(e)) => format!(
            "Result{}: {}",
            board_label(app, e.tournament_id, e.board_id).await?,
            scored(app, e.tournament_id, &e.result)
        ),
        DomainEvent::Tournament(TournamentEvent::BoardResultCorrected(e)) => format!(
            "Result corrected{} ({}): {}",
            board_label(app, e.tournament_id, e.board_id).await?,
            e.reason,
            scored(app, e.tournament_id, &e.result)
        ),
        DomainEvent::League(LeagueEvent::GamesScheduled(e)) => {
            format!("League started: {} games scheduled", e.games.len())
        }
        DomainEvent::League(LeagueEvent::LeagueCompleted(_)) => {
            "League completed: every game has a result".into()
        }
        DomainEvent::Tournament(TournamentEvent::TournamentCompleted(_)) => {
            "Tournament completed".into()
        }
        DomainEvent::Tournament(TournamentEvent::RoundSeeded(e)) => {
            let settings = app.catalog().tournament(e.tournament_id).map(|t| t.settings.clone());
            let boards: Vec<String> = e
                .boards
                .iter()
                .map(|board| {
                    let seats: Vec<String> = board
                        .seats
                        .iter()
                        .enumerate()
                        .map(|(seat, player)| match &settings {
                            Some(s) => format!(
                                "{} ({})",
                                name(app, *player),
                                seat_label(s.scoring_system, s.players_per_board, seat)
                            ),
                            None => name(app, *player),
                        })
                        .collect();
                    format!("board {} — {}", board.number, seats.join(", "))
                })
                .collect();
            format!("Round {} seeded: {}", e.round, boards.join("; "))
        }
        other => other.event_type().to_owned(),
    })
}

/// ` (round R, board B)` for a tournament board, or nothing if it is unknown.
async fn board_label(app: &App, tournament: Uuid, board: Uuid) -> Result<String, WebhookError> {
    let tournament = app.tournament(tournament).await?;
    Ok(tournament
        .and_then(|t| t.board(board).map(|b| format!(" (round {}, board {})", b.round, b.number)))
        .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_without_trailing_zeros_and_long_texts_are_cut() {
        assert_eq!(points(21.0), "21");
        assert_eq!(points(18.5), "18.5");
        assert_eq!(points(3.125), "3.125");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
