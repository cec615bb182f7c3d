//! The webhooks as the log tells them: each webhook stream folded into the domain's
//! [`Webhook`], with where it was registered in the log (its deliveries start after that
//! position) and when it was last resumed (the pause timer restarts there). Read by the
//! delivery worker and the GraphQL `webhooks` query alike, from the event-type index.

use league_domain::WebhookEvent;
use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use league_domain::{
    Aggregate, DomainEvent, EventType, StreamKind, StreamRef, Webhook, WebhookRegistered,
    WebhookStatus,
};
use league_store::{EventStore, WebhookCheckpoint};
use uuid::Uuid;

use crate::WebhookError;

/// One webhook, folded from its stream.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookEntry {
    pub id: Uuid,
    pub state: Webhook,
    /// The log position of its registration.
    pub registered_at: u64,
    /// When it was last resumed.
    pub resumed_at: Option<DateTime<Utc>>,
}

impl WebhookEntry {
    /// The registration (every entry has one: entries start at their registration).
    pub fn registration(&self) -> &WebhookRegistered {
        self.state.registration().expect("an entry starts at its registration")
    }

    pub fn status(&self) -> WebhookStatus {
        self.state.status().unwrap_or(WebhookStatus::Removed)
    }
}

/// A webhook with its delivery state, as the `webhooks` query shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookView {
    pub entry: WebhookEntry,
    /// Where it delivers: kept beside its secret, or in a version 1 registration event.
    pub url: Option<String>,
    /// `None` until its deliveries start.
    pub checkpoint: Option<WebhookCheckpoint>,
    /// Log positions past its checkpoint (events not yet delivered or passed over).
    pub lag: u64,
}

/// The event types of webhook streams.
pub fn webhook_event_types() -> Vec<&'static str> {
    EventType::ALL
        .iter()
        .filter(|kind| kind.stream_kind() == StreamKind::Webhook)
        .map(|kind| kind.as_str())
        .collect()
}

/// Every webhook registered up to log position `last`, by id.
pub async fn load_webhooks(
    store: &EventStore,
    last: u64,
) -> Result<BTreeMap<Uuid, WebhookEntry>, WebhookError> {
    let mut webhooks: BTreeMap<Uuid, WebhookEntry> = BTreeMap::new();
    let mut rows = std::pin::pin!(store.read_types_until(&webhook_event_types(), last));
    while let Some(row) = rows.try_next().await? {
        let raw = row.event()?;
        let event = DomainEvent::decode(raw.event_type, raw.schema_version.into(), raw.payload)
            .map_err(|error| WebhookError::Decode { position: raw.position, error })?;
        let StreamRef::Webhook(id) = event.stream() else { continue };
        let entry = webhooks.entry(id.into()).or_insert_with(|| WebhookEntry {
            id: id.into(),
            state: Webhook::default(),
            registered_at: raw.position,
            resumed_at: None,
        });
        if matches!(event, DomainEvent::Webhook(WebhookEvent::WebhookResumed(_))) {
            entry.resumed_at = Some(raw.recorded_at);
        }
        entry.state.apply_event(&event);
    }
    Ok(webhooks)
}

/// Every webhook not removed, with its delivery state, as of log position `head`.
pub async fn list_webhooks(
    store: &EventStore,
    head: u64,
) -> Result<Vec<WebhookView>, WebhookError> {
    let webhooks = load_webhooks(store, head).await?;
    let mut urls = store.webhook_urls().await?;
    let mut checkpoints: BTreeMap<Uuid, WebhookCheckpoint> = store
        .webhook_checkpoints()
        .await?
        .into_iter()
        .map(|checkpoint| (checkpoint.webhook_id, checkpoint))
        .collect();
    Ok(webhooks
        .into_values()
        .filter(|entry| entry.status() != WebhookStatus::Removed)
        .map(|entry| {
            let checkpoint = checkpoints.remove(&entry.id);
            let delivered = checkpoint.as_ref().map_or(entry.registered_at, |c| c.position);
            let url = urls.remove(&entry.id).or_else(|| entry.registration().url.clone());
            WebhookView { lag: head.saturating_sub(delivered), checkpoint, url, entry }
        })
        .collect())
}
