//! The events of a webhook's stream (`webhook-<uuid>`): registration, pauses, resumptions, removal.

use serde::{Deserialize, Serialize};

use crate::event_enum::aggregate_enum;
use uuid::Uuid;

use crate::ids::{Actor, WebhookId};

/// A webhook was registered: deliver the events of `kinds` about `competitions` (empty: every
/// competition, a site-wide webhook) to a URL on `host`, written in `format`. The URL itself is
/// kept with the webhook's signing secret, outside the log (schema version 2); a version 1
/// event, written before, still holds it in `url` (its host is filled in when decoded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookRegistered {
    pub webhook_id: WebhookId,
    /// The host the URL names (what an auditor needs; the URL is a capability).
    #[serde(default)]
    pub host: String,
    /// Only in version 1 events: the full URL, as written then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub kinds: Vec<WebhookKind>,
    pub competitions: Vec<Uuid>,
    pub format: WebhookFormat,
    pub registered_by: Actor,
}

/// Deliveries stopped, with the reason (the delivery worker's last error when it gave up; a
/// URL in it is replaced by its host, [`redact_urls`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookPaused {
    pub webhook_id: WebhookId,
    pub reason: String,
    pub paused_by: Actor,
}

/// Deliveries start again from where they stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookResumed {
    pub webhook_id: WebhookId,
    pub resumed_by: Actor,
}

/// The webhook is gone: nothing more is delivered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookRemoved {
    pub webhook_id: WebhookId,
    pub removed_by: Actor,
}

/// The webhook's event types, one line each, like `player_events!`. Registrations are at
/// version 2 since the URL is kept outside the log (the event names its host).
macro_rules! webhook_events {
    ([$next:ident $(, $rest:ident)*] $($groups:tt)*) => {
        $next! { [$($rest),*] $($groups)*
            Webhook(WebhookEvent, webhook_id) {
                WebhookRegistered = "WebhookRegistered" version 2,
                WebhookPaused = "WebhookPaused" version 1,
                WebhookResumed = "WebhookResumed" version 1,
                WebhookRemoved = "WebhookRemoved" version 1,
            }
        }
    };
}
pub(crate) use webhook_events;
webhook_events! { [aggregate_enum] }

impl WebhookEvent {
    /// The steps of [`crate::upcast`] for a webhook's events: a version 1 `WebhookRegistered`
    /// holds the URL itself: its host is filled in from it, and the URL stays in memory for
    /// delivery (`docs/webhooks.md#older-logs`).
    pub(crate) fn upcast(&mut self, schema_version: i64) {
        match self {
            WebhookEvent::WebhookRegistered(registered) => {
                if schema_version == 1 {
                    registered.host = registered.url.as_deref().map(url_host).unwrap_or_default();
                }
            }
            WebhookEvent::WebhookPaused(_)
            | WebhookEvent::WebhookResumed(_)
            | WebhookEvent::WebhookRemoved(_) => {}
        }
    }
}

/// The host a URL names (lower case, as parsed), or `"[unreadable URL]"` for text that is not
/// one; never the path or query, which may be the capability (a Discord webhook's token).
pub fn url_host(url: &str) -> String {
    url::Url::parse(url.trim())
        .ok()
        .and_then(|parsed| parsed.host_str().map(str::to_owned))
        .filter(|host| !host.is_empty())
        .unwrap_or_else(|| "[unreadable URL]".to_owned())
}

/// What a webhook can ask to be told about.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum WebhookKind {
    /// A league game's or tournament board's result was reported.
    ResultReported,
    /// A reported result was corrected.
    ResultCorrected,
    /// A league filled up and its games were scheduled (a tournament starts with its first
    /// seeded round).
    LeagueStarted,
    /// A league or tournament completed.
    LeagueCompleted,
    /// A tournament round was seeded into boards.
    RoundSeeded,
    /// A result (reported or corrected) changed the competition's standings; the delivery
    /// carries the standings after it.
    StandingsChanged,
    /// A tournament board's centre counts after a game year were recorded or corrected
    /// (`docs/tournaments.md#live-progress`); a webhook gets it only when it names it.
    BoardProgress,
    /// A tournament award was given or revoked (`docs/tournaments.md#best-country-and-awards`);
    /// a webhook gets it only when it names it.
    AwardsChanged,
}

/// How a delivery's body is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum WebhookFormat {
    /// The event and what it means, as JSON (`docs/webhooks.md#json-body`).
    #[default]
    Json,
    /// A Discord-compatible message: `{"content": "<readable summary>"}`.
    Discord,
}
