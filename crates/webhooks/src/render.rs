//! A delivery's body (`docs/webhooks.md#bodies`): the event with what it means, as JSON, or a
//! Discord message with a readable summary ("Round 2 seeded: board 3 — Ann (France), …";
//! "Result …; standings: 1. …"). Names come from the application's read model; standings are
//! the competition's as of the event's position, so a body re-rendered after a restart says
//! the same.

use std::fmt::Write;

use league_app::{App, points};
use league_domain::{
    DomainEvent, PlayerId, StreamRef, WebhookFormat, WebhookKind, WebhookRegistered,
};
use league_projections::AsOf;
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
    let mut summary = app.describe(decoded).await;
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
            "deliveryId": delivery_id(webhook.webhook_id.into(), event.position),
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
            id: id.into(),
            kind: "LEAGUE",
            name: catalog
                .league(id.into())
                .map_or_else(|| id.to_string(), |l| l.settings.name.clone()),
        }),
        StreamRef::Tournament(id) => Some(CompetitionRef {
            id: id.into(),
            kind: "TOURNAMENT",
            name: catalog
                .tournament(id.into())
                .map_or_else(|| id.to_string(), |t| t.settings.name.clone()),
        }),
        StreamRef::Player(_)
        | StreamRef::Webhook(_)
        | StreamRef::Calendar(_)
        | StreamRef::Series(_) => None,
    }
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
            .standings_as_of(id.into(), AsOf::Position(position))
            .await?
            .into_iter()
            .map(|row| (row.rank, row.player, row.total))
            .collect(),
        StreamRef::Tournament(id) => app
            .tournament_as_of(id.into(), AsOf::Position(position))
            .await?
            .standings(None)
            .map_err(|error| WebhookError::Render(error.to_string()))?
            .into_iter()
            .map(|row| (row.rank, row.player, row.total))
            .collect(),
        StreamRef::Player(_)
        | StreamRef::Webhook(_)
        | StreamRef::Calendar(_)
        | StreamRef::Series(_) => Vec::new(),
    };
    Ok(rows
        .into_iter()
        .map(|(rank, player_id, total)| StandingLine {
            rank,
            player_id,
            name: app.shown_name(player_id.into()),
            total,
        })
        .collect())
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
