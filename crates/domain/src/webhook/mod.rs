//! The `Webhook` aggregate (stream `webhook-<uuid>`): an outbound feed of the log to a URL
//! (`docs/webhooks.md`). Registering, pausing, resuming and removing a webhook are events;
//! what it was sent, its URL and its secret are not (they live beside the log, in the store's
//! own tables: a URL such as a Discord webhook's lets whoever reads it post to the channel).
//! Which events a webhook wants is pure: [`WebhookKind::of_type`]. Events of an older log
//! that still quote a URL are shown redacted ([`redacted_payload`]).
//!
//! Rights: an organiser registers webhooks for the competitions they organise; a site-wide
//! webhook (no competition list) only the site admin. A webhook is managed (paused, resumed,
//! removed) by the site admin, by whoever registered it, or by an organiser of every
//! competition it covers.

pub(crate) mod commands;
pub(crate) mod events;

pub use self::commands::*;
pub use self::events::*;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Decision};
use crate::context::Context;
use crate::error::DomainError;
use crate::events::EventType;
use crate::ids::{Actor, WebhookId};
use crate::rules::clean_reason;

/// Longest accepted webhook URL.
pub const MAX_WEBHOOK_URL_CHARS: usize = 2000;
/// Most competitions one webhook covers.
pub const MAX_WEBHOOK_COMPETITIONS: usize = 100;

impl WebhookKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [WebhookKind] = <WebhookKind as strum::VariantArray>::VARIANTS;

    /// The kinds an event of type `event_type` belongs to (none for most types): as its
    /// room's list of event types says (`notify [...]`).
    pub const fn of_type(event_type: EventType) -> &'static [WebhookKind] {
        event_type.webhook_kinds()
    }

    /// The event types that belong to this kind.
    pub fn event_types(self) -> impl Iterator<Item = EventType> {
        EventType::ALL.iter().copied().filter(move |t| WebhookKind::of_type(*t).contains(&self))
    }
}

/// Where a webhook is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum WebhookStatus {
    /// Delivering.
    Active,
    /// Stopped (by the delivery worker after failing too long, or by a manager) until resumed.
    Paused,
    /// Gone for good.
    Removed,
}

/// A webhook's state, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Webhook {
    version: u64,
    registered: Option<WebhookRegistered>,
    status: Option<WebhookStatus>,
    paused_reason: Option<String>,
}

impl Webhook {
    /// The registration, once registered.
    pub fn registration(&self) -> Option<&WebhookRegistered> {
        self.registered.as_ref()
    }

    /// The competitions it covers (empty: site-wide, or not registered).
    pub fn competitions(&self) -> &[Uuid] {
        self.registered.as_ref().map_or(&[], |r| r.competitions.as_slice())
    }

    /// Where it is (`None` before registration).
    pub fn status(&self) -> Option<WebhookStatus> {
        self.status
    }

    /// Why it is paused, while paused.
    pub fn paused_reason(&self) -> Option<&str> {
        self.paused_reason.as_deref()
    }

    fn register(
        &self,
        c: &RegisterWebhook,
        context: &Context,
    ) -> Result<Vec<WebhookEvent>, DomainError> {
        if self.registered.is_some() {
            return Err(DomainError::conflict(format!("webhook {} already exists", c.webhook_id)));
        }
        // Rights first: a caller who may not register learns nothing about their input.
        match c.actor {
            Actor::Admin => {}
            Actor::Player(player) if c.competitions.is_empty() => {
                return Err(DomainError::forbidden(format!(
                    "player {player} may not register a site-wide webhook: only the site admin \
                     may (name the competitions it covers)"
                )));
            }
            Actor::Player(player) => {
                if let Some(competition) = context.unmanaged_competitions.first() {
                    return Err(DomainError::forbidden(format!(
                        "player {player} does not organise competition {competition}: only its \
                         organisers or the site admin may register webhooks for it"
                    )));
                }
            }
        }
        let url = check_url(&c.url)?;
        let mut kinds = c.kinds.clone();
        kinds.sort();
        kinds.dedup();
        if kinds.is_empty() {
            return Err(DomainError::invalid("kinds", "name at least one kind of event"));
        }
        let mut competitions = Vec::with_capacity(c.competitions.len());
        for competition in &c.competitions {
            if !competitions.contains(competition) {
                competitions.push(*competition);
            }
        }
        if competitions.len() > MAX_WEBHOOK_COMPETITIONS {
            return Err(DomainError::invalid(
                "competitions",
                format!("at most {MAX_WEBHOOK_COMPETITIONS} competitions per webhook"),
            ));
        }
        if let Some(unknown) = context.unknown_competitions.first() {
            return Err(DomainError::invalid(
                "competitions",
                format!("no league or tournament has id {unknown}"),
            ));
        }
        Ok(vec![WebhookEvent::WebhookRegistered(WebhookRegistered {
            webhook_id: c.webhook_id,
            host: url_host(&url),
            url: None,
            kinds,
            competitions,
            format: c.format,
            registered_by: c.actor,
        })])
    }

    /// The webhook as it stands, refusing an unknown or removed one and an actor who may not
    /// manage it (`right` names what they tried).
    fn manageable(
        &self,
        webhook_id: WebhookId,
        actor: Actor,
        context: &Context,
        right: &str,
    ) -> Result<WebhookStatus, DomainError> {
        let (Some(registered), Some(status)) = (&self.registered, self.status) else {
            return Err(DomainError::WebhookNotFound(webhook_id));
        };
        let organises_all =
            !registered.competitions.is_empty() && context.unmanaged_competitions.is_empty();
        let may = actor.is_admin() || actor == registered.registered_by || organises_all;
        if !may {
            return Err(DomainError::forbidden(format!(
                "{actor} may not {right} webhook {webhook_id}: only the site admin, whoever \
                 registered it or an organiser of every competition it covers may"
            )));
        }
        if status == WebhookStatus::Removed {
            return Err(DomainError::conflict(format!("webhook {webhook_id} was removed")));
        }
        Ok(status)
    }

    fn pause(&self, c: &PauseWebhook, context: &Context) -> Result<Vec<WebhookEvent>, DomainError> {
        let status = self.manageable(c.webhook_id, c.actor, context, "pause")?;
        if status == WebhookStatus::Paused {
            return Err(DomainError::conflict(format!(
                "webhook {} is already paused",
                c.webhook_id
            )));
        }
        Ok(vec![WebhookEvent::WebhookPaused(WebhookPaused {
            webhook_id: c.webhook_id,
            reason: redact_urls(&clean_reason(&c.reason)?),
            paused_by: c.actor,
        })])
    }

    fn resume(
        &self,
        c: &ResumeWebhook,
        context: &Context,
    ) -> Result<Vec<WebhookEvent>, DomainError> {
        let status = self.manageable(c.webhook_id, c.actor, context, "resume")?;
        if status != WebhookStatus::Paused {
            return Err(DomainError::conflict(format!("webhook {} is not paused", c.webhook_id)));
        }
        Ok(vec![WebhookEvent::WebhookResumed(WebhookResumed {
            webhook_id: c.webhook_id,
            resumed_by: c.actor,
        })])
    }

    fn remove(
        &self,
        c: &RemoveWebhook,
        context: &Context,
    ) -> Result<Vec<WebhookEvent>, DomainError> {
        self.manageable(c.webhook_id, c.actor, context, "remove")?;
        Ok(vec![WebhookEvent::WebhookRemoved(WebhookRemoved {
            webhook_id: c.webhook_id,
            removed_by: c.actor,
        })])
    }
}

/// The URL's form (the addresses it may reach are the delivery side's check): `http` or
/// `https`, with a host, without credentials, at most [`MAX_WEBHOOK_URL_CHARS`]. Returns the
/// URL as given, trimmed.
pub fn check_url(url: &str) -> Result<String, DomainError> {
    let url = url.trim();
    let invalid = |message: &str| DomainError::invalid("url", message);
    if url.chars().count() > MAX_WEBHOOK_URL_CHARS {
        return Err(invalid(&format!("at most {MAX_WEBHOOK_URL_CHARS} characters")));
    }
    let parsed = url::Url::parse(url).map_err(|error| invalid(&format!("not a URL: {error}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(invalid("must be an http or https URL"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(invalid("must name a host"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(invalid("must not hold credentials (user or password)"));
    }
    Ok(url.to_owned())
}

/// `text` with every `http://` or `https://` URL in it replaced by its host (an error message
/// or pause reason may quote the URL it failed on).
pub fn redact_urls(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut redacted = String::with_capacity(text.len());
    let mut rest = 0;
    while let Some(found) = ["http://", "https://"]
        .iter()
        .filter_map(|scheme| lower[rest..].find(scheme).map(|at| rest + at))
        .min()
    {
        // Up to the next blank or quote, less the punctuation a sentence puts after it.
        let end = text[found..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>'))
            .map_or(text.len(), |length| found + length);
        let end =
            found + text[found..end].trim_end_matches([')', ',', '.', ';', ':', '!', '?']).len();
        redacted.push_str(&text[rest..found]);
        redacted.push_str(&url_host(&text[found..end]));
        rest = end;
    }
    redacted.push_str(&text[rest..]);
    redacted
}

/// The payload of a stored event as the public views show it (`Event.payload` in the `events`
/// query and the `leagueEvents` subscription): a version 1 `WebhookRegistered` with its `url` replaced by its
/// `host`, and a `WebhookPaused` reason without URLs (`docs/webhooks.md#older-logs`). `None`
/// when the payload is shown as stored. The stored bytes, their hash and `league verify` are
/// untouched: this is a view.
pub fn redacted_payload(
    event_type: &str,
    payload: &serde_json::Value,
) -> Option<serde_json::Value> {
    let registered = EventType::WebhookRegistered.as_str();
    let paused = EventType::WebhookPaused.as_str();
    if event_type == registered {
        let url = payload.get("url")?.as_str()?;
        let mut shown = payload.clone();
        let fields = shown.as_object_mut()?;
        let host = url_host(url);
        fields.remove("url");
        fields.entry("host").or_insert(serde_json::Value::String(host));
        Some(shown)
    } else if event_type == paused {
        let reason = payload.get("reason")?.as_str()?;
        let clean = redact_urls(reason);
        if clean == reason {
            return None;
        }
        let mut shown = payload.clone();
        shown.as_object_mut()?.insert("reason".into(), serde_json::Value::String(clean));
        Some(shown)
    } else {
        None
    }
}

impl Aggregate for Webhook {
    type Command = WebhookCommand;
    type Event = WebhookEvent;

    fn handle(&self, command: &Self::Command, context: &Context) -> Decision<Self::Event> {
        match command {
            WebhookCommand::Register(c) => self.register(c, context),
            WebhookCommand::Pause(c) => self.pause(c, context),
            WebhookCommand::Resume(c) => self.resume(c, context),
            WebhookCommand::Remove(c) => self.remove(c, context),
        }
    }

    fn apply(&mut self, event: &WebhookEvent) {
        self.version += 1;
        match event {
            WebhookEvent::WebhookRegistered(e) => {
                self.registered = Some(e.clone());
                self.status = Some(WebhookStatus::Active);
            }
            WebhookEvent::WebhookPaused(e) => {
                self.status = Some(WebhookStatus::Paused);
                self.paused_reason = Some(e.reason.clone());
            }
            WebhookEvent::WebhookResumed(_) => {
                self.status = Some(WebhookStatus::Active);
                self.paused_reason = None;
            }
            WebhookEvent::WebhookRemoved(_) => {
                self.status = Some(WebhookStatus::Removed);
                self.paused_reason = None;
            }
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}

#[cfg(test)]
pub(crate) mod tests;
