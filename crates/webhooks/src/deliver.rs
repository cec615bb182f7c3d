//! The delivery worker: a supervisor that follows the webhook registry, and one task per
//! active webhook that reads the log from the webhook's checkpoint and POSTs each wanted
//! event, in log order, moving the checkpoint only after a 2xx and writing it in batches
//! (checkpoint.rs, the crate docs).

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use league_app::App;
use league_domain::{
    Actor, DomainEvent, EventType, PauseWebhook, WebhookKind, WebhookRegistered, WebhookStatus,
    league_id_of_stream, redact_urls, tournament_id_of_stream,
};
use league_store::{RecordedEvent, WebhookCheckpoint, WebhookFailure, WebhookLocks};
use rand::Rng;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use uuid::Uuid;

use crate::address::{GuardedResolver, check_literal};
use crate::checkpoint::Unsaved;
use crate::registry::{WebhookEntry, load_webhooks};
use crate::render::{delivery_id, render, truncate};
use crate::signature::{DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, sign};
use crate::{WebhookError, WebhookSettings};

/// Events read from the log at once by a webhook's task.
const PAGE: u64 = 200;
/// Most bytes of an answer read (and thrown away, so the connection can be reused).
const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// Longest wait a receiver's `429` is taken at its word for (a longer one is waited this long).
const MAX_THROTTLE: Duration = Duration::from_secs(3600);
/// Longest pause reason (the domain's limit on reasons).
const MAX_REASON_CHARS: usize = 1000;
/// How long a stopping webhook task may take to write its checkpoint before it is cut off.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// What every webhook task shares.
struct Worker {
    app: App,
    settings: WebhookSettings,
    client: reqwest::Client,
    locks: WebhookLocks,
    /// Receivers that answered `429`: no webhook POSTs to them before the time they gave.
    throttled: Throttled,
}

/// When each throttled receiver (host and port) takes requests again (`docs/webhooks.md`).
#[derive(Default)]
struct Throttled(std::sync::Mutex<HashMap<String, DateTime<Utc>>>);

impl Throttled {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, DateTime<Utc>>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// When `receiver` takes requests again, if that is later than now.
    fn until(&self, receiver: &str) -> Option<DateTime<Utc>> {
        let now = Utc::now();
        let mut map = self.lock();
        map.retain(|_, until| *until > now);
        map.get(receiver).copied()
    }

    /// `receiver` asked for no requests before `until`.
    fn hold(&self, receiver: &str, until: DateTime<Utc>) {
        let mut map = self.lock();
        let at = map.entry(receiver.to_owned()).or_insert(until);
        *at = (*at).max(until);
    }
}

/// Delivers webhooks until `shutdown` completes (the gateway runs it beside the API), then
/// writes each webhook's checkpoint. A delivery cut short by shutdown is repeated by the next
/// run.
pub async fn run(app: App, settings: WebhookSettings, shutdown: impl Future<Output = ()> + Send) {
    let client = match http_client(&settings) {
        Ok(client) => client,
        Err(error) => {
            tracing::error!(%error, "webhooks: cannot build the HTTP client; no deliveries");
            return;
        }
    };
    let locks = app.store().webhook_locks();
    let worker = Arc::new(Worker { app, settings, client, locks, throttled: Throttled::default() });
    let mut notifications = worker.app.subscribe();
    let mut running: HashMap<Uuid, Task> = HashMap::new();
    tokio::pin!(shutdown);
    loop {
        supervise(&worker, &mut running).await;
        // Wait for a webhook event (or anything missed), the poll interval, or shutdown.
        let wake = async {
            loop {
                match notifications.recv().await {
                    Ok(notification) => {
                        let kind = EventType::parse(&notification.event.event_type).ok();
                        if kind
                            .is_some_and(|k| k.stream_kind() == league_domain::StreamKind::Webhook)
                        {
                            return;
                        }
                    }
                    Err(RecvError::Lagged(_)) => return,
                    Err(RecvError::Closed) => std::future::pending::<()>().await,
                }
            }
        };
        tokio::select! {
            () = &mut shutdown => break,
            () = wake => {}
            () = tokio::time::sleep(worker.settings.poll_interval * 5) => {}
        }
    }
    for task in running.values() {
        let _ = task.stop.send(true);
    }
    let deadline = tokio::time::Instant::now() + STOP_GRACE;
    for (id, task) in running {
        task.stop(&worker, id, deadline).await;
    }
}

/// A running webhook task.
struct Task {
    /// The registry entry it was started for.
    entry: WebhookEntry,
    /// Tells it to write its checkpoint and end.
    stop: watch::Sender<bool>,
    handle: JoinHandle<()>,
}

impl Task {
    fn start(worker: &Arc<Worker>, entry: WebhookEntry) -> Task {
        let (stop, stopping) = watch::channel(false);
        let handle = tokio::spawn(deliver_webhook(worker.clone(), entry.clone(), stopping));
        Task { entry, stop, handle }
    }

    /// Stops the task (cut off at `deadline` if it has not ended) and lets go of its lock.
    async fn stop(self, worker: &Worker, id: Uuid, deadline: tokio::time::Instant) {
        let _ = self.stop.send(true);
        let mut handle = self.handle;
        if tokio::time::timeout_at(deadline, &mut handle).await.is_err() {
            handle.abort();
            let _ = handle.await;
        }
        let _ = worker.locks.unlock(id).await;
    }
}

/// Starts a task for each active webhook without one (or whose registry entry changed), and
/// stops the tasks of webhooks paused or removed.
async fn supervise(worker: &Arc<Worker>, running: &mut HashMap<Uuid, Task>) {
    let head = worker.app.applied_position();
    let webhooks = match load_webhooks(worker.app.store(), head).await {
        Ok(webhooks) => webhooks,
        Err(error) => {
            tracing::warn!(%error, "webhooks: cannot read the registry");
            return;
        }
    };
    for (id, entry) in webhooks {
        let active = entry.status() == WebhookStatus::Active;
        let current =
            running.get(&id).is_some_and(|task| task.entry == entry && !task.handle.is_finished());
        if active && current {
            continue;
        }
        if let Some(task) = running.remove(&id) {
            task.stop(worker, id, tokio::time::Instant::now() + STOP_GRACE).await;
        }
        if active {
            running.insert(id, Task::start(worker, entry));
        }
    }
}

/// The delivery client: no redirects, no proxy, names resolved through the address rules,
/// the settings' timeouts.
pub fn http_client(settings: &WebhookSettings) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        // A proxy would connect on our behalf to addresses we never checked.
        .no_proxy()
        .dns_resolver(Arc::new(GuardedResolver { allow_private: settings.allow_private }))
        .connect_timeout(settings.request_timeout.min(Duration::from_secs(5)))
        .timeout(settings.request_timeout)
        .user_agent(concat!("league-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// One webhook's task: hold its lock, then deliver until it is paused or told to stop; a
/// stopped task writes its checkpoint (a delivery in flight is cut short, and repeated later).
async fn deliver_webhook(
    worker: Arc<Worker>,
    entry: WebhookEntry,
    mut stopping: watch::Receiver<bool>,
) {
    let mut delivery = Delivery {
        worker: &worker,
        webhook: entry.registration().clone(),
        registered_at: entry.registered_at,
        resumed_at: entry.resumed_at,
        checkpoint: None,
        unsaved: Unsaved::at(0),
        buffer: VecDeque::new(),
        secret: None,
        url: None,
    };
    let poll = || tokio::time::sleep(worker.settings.poll_interval);
    loop {
        if !worker.locks.holds(entry.id).await {
            match worker.locks.try_lock(entry.id).await {
                Ok(true) => delivery.checkpoint = None,
                Ok(false) => {
                    if unless_stopped(&mut stopping, poll()).await.is_none() {
                        return;
                    }
                    continue;
                }
                Err(error) => {
                    tracing::warn!(webhook = %entry.id, %error, "webhooks: cannot take the lock");
                    if unless_stopped(&mut stopping, poll()).await.is_none() {
                        return;
                    }
                    continue;
                }
            }
        }
        let Some(step) = unless_stopped(&mut stopping, delivery.step()).await else { break };
        let waited = match step {
            Ok(Step::Again) => Some(()),
            Ok(Step::Idle(after)) => {
                let applied = worker.app.wait_applied(after + 1);
                let wait = async {
                    let _ = tokio::time::timeout(worker.settings.poll_interval, applied).await;
                };
                unless_stopped(&mut stopping, wait).await
            }
            Ok(Step::RetryAt(at)) => {
                let wait = (at - Utc::now()).to_std().unwrap_or_default();
                unless_stopped(&mut stopping, tokio::time::sleep(wait)).await
            }
            Ok(Step::Paused) => return,
            Err(error) => {
                tracing::warn!(webhook = %entry.id, %error, "webhooks: delivery stalled");
                delivery.save_or_warn().await;
                delivery.checkpoint = None;
                delivery.buffer.clear();
                unless_stopped(&mut stopping, poll()).await
            }
        };
        if waited.is_none() {
            break;
        }
    }
    delivery.save_or_warn().await;
}

/// `work`'s output, or `None` when the task is told to stop first (`work` is dropped).
async fn unless_stopped<T>(
    stopping: &mut watch::Receiver<bool>,
    work: impl Future<Output = T>,
) -> Option<T> {
    tokio::select! {
        biased;
        // An error: the supervisor is gone, stop too.
        _ = stopping.wait_for(|stop| *stop) => None,
        output = work => Some(output),
    }
}

/// What a step of a webhook's task did.
enum Step {
    /// Delivered, or passed over events not wanted: go on.
    Again,
    /// Nothing to deliver after this log position yet.
    Idle(u64),
    /// The last attempt failed: try again then.
    RetryAt(DateTime<Utc>),
    /// The webhook was paused after failing too long.
    Paused,
}

/// One webhook's delivery state, in memory (the checkpoint is also in the database, written
/// in batches).
struct Delivery<'a> {
    worker: &'a Worker,
    webhook: WebhookRegistered,
    registered_at: u64,
    resumed_at: Option<DateTime<Utc>>,
    checkpoint: Option<WebhookCheckpoint>,
    /// How far `checkpoint` is past the database's copy.
    unsaved: Unsaved,
    /// Events after the checkpoint read but not yet handled, in order.
    buffer: VecDeque<RecordedEvent>,
    secret: Option<String>,
    /// Where to POST: kept beside the secret, or (an older log) in the registration event.
    url: Option<String>,
}

impl Delivery<'_> {
    async fn step(&mut self) -> Result<Step, WebhookError> {
        let store = self.worker.app.store();
        let id = self.webhook.webhook_id;
        let checkpoint = match self.checkpoint.take() {
            Some(checkpoint) => checkpoint,
            None => {
                self.buffer.clear();
                let checkpoint =
                    store.start_webhook_checkpoint(id.into(), self.registered_at).await?;
                self.unsaved = Unsaved::at(checkpoint.position);
                checkpoint
            }
        };
        let position = checkpoint.position;
        self.checkpoint = Some(checkpoint.clone());
        if let Some(at) = checkpoint.next_attempt_at
            && at > Utc::now()
        {
            return Ok(Step::RetryAt(at));
        }
        // Only what the read side has applied: the body's names and standings are there.
        let head = self.worker.app.applied_position();
        if self.buffer.is_empty() && head > position {
            let page = store.read_all(position + 1, PAGE.min(head - position)).await?;
            self.buffer.extend(page.into_iter().filter(|event| event.position <= head));
        }
        let Some(last_read) = self.buffer.back().map(|event| event.position) else {
            // Caught up: the database's copy follows before waiting.
            self.save().await?;
            return Ok(Step::Idle(position));
        };
        let wanted = self.buffer.iter().position(|event| !self.kinds_of(event).is_empty());
        let Some(index) = wanted else {
            self.buffer.clear();
            self.advance(last_read, false).await?;
            return Ok(Step::Again);
        };
        // A receiver that asked to wait (`429`) gets nothing from any webhook until then; other
        // receivers' webhooks go on.
        if let Some(until) =
            self.receiver().and_then(|receiver| self.worker.throttled.until(&receiver))
        {
            self.save().await?;
            return Ok(Step::RetryAt(until));
        }
        let event = self.buffer[index].clone();
        let kinds = self.kinds_of(&event);
        let decoded =
            DomainEvent::decode(&event.event_type, event.schema_version.into(), &event.payload)
                .map_err(|error| WebhookError::Decode { position: event.position, error })?;
        let body = render(&self.worker.app, &self.webhook, &event, &decoded, &kinds).await?;
        match self.post(event.position, body).await {
            Ok(()) => {
                self.buffer.drain(..=index);
                self.advance(event.position, true).await?;
                Ok(Step::Again)
            }
            // Not a failure: the receiver is well and says when to come back.
            Err(Refused::Throttled(wait)) => {
                let until = Utc::now() + chrono_wait(wait.min(MAX_THROTTLE));
                if let Some(receiver) = self.receiver() {
                    self.worker.throttled.hold(&receiver, until);
                }
                let host = &self.webhook.host;
                tracing::info!(webhook = %self.webhook.webhook_id, %host, wait_ms = wait.as_millis(), "webhooks: the receiver asked to wait (429)");
                self.save().await?;
                Ok(Step::RetryAt(until))
            }
            Err(Refused::Failed(error)) => self.failed(checkpoint, error).await,
        }
    }

    /// The receiver a throttle applies to: the host and port of the webhook's URL, once known.
    fn receiver(&self) -> Option<String> {
        let url = url::Url::parse(self.url.as_deref()?).ok()?;
        Some(format!("{}:{}", url.host_str()?, url.port_or_known_default()?))
    }

    /// The kinds `event` is wanted as (none: not for this webhook).
    fn kinds_of(&self, event: &RecordedEvent) -> Vec<WebhookKind> {
        let Ok(event_type) = EventType::parse(&event.event_type) else { return Vec::new() };
        let covered = self.webhook.competitions.is_empty() || {
            let stream = event.stream_id.as_str();
            let competition = league_id_of_stream(stream)
                .map(Uuid::from)
                .or_else(|| tournament_id_of_stream(stream).map(Uuid::from));
            competition.is_some_and(|id| self.webhook.competitions.contains(&id))
        };
        if !covered {
            return Vec::new();
        }
        WebhookKind::of_type(event_type)
            .iter()
            .copied()
            .filter(|kind| self.webhook.kinds.contains(kind))
            .collect()
    }

    /// Moves the checkpoint to `to` (after a delivery, or past events not wanted) and clears
    /// its retry state; writes it when due, or at once when it ends a failure (so the
    /// `webhooks` query stops showing the error).
    async fn advance(&mut self, to: u64, delivered: bool) -> Result<(), WebhookError> {
        let Some(checkpoint) = &mut self.checkpoint else { return Ok(()) };
        let recovered = checkpoint.attempts > 0
            || checkpoint.failing_since.is_some()
            || checkpoint.last_error.is_some();
        checkpoint.position = to;
        checkpoint.attempts = 0;
        checkpoint.next_attempt_at = None;
        checkpoint.failing_since = None;
        checkpoint.last_error = None;
        let now = Instant::now();
        self.unsaved.moved(delivered, now);
        if recovered || self.unsaved.due(&self.worker.settings, now) {
            self.save().await?;
        }
        Ok(())
    }

    /// Writes the checkpoint if it moved past the database's copy.
    async fn save(&mut self) -> Result<(), WebhookError> {
        let Some(position) = self.checkpoint.as_ref().map(|checkpoint| checkpoint.position) else {
            return Ok(());
        };
        if self.unsaved.is_empty() {
            return Ok(());
        }
        let store = self.worker.app.store();
        let id = self.webhook.webhook_id.into();
        let delivered = self.unsaved.deliveries > 0;
        if store.advance_webhook_checkpoint(id, self.unsaved.saved, position, delivered).await? {
            self.unsaved = Unsaved::at(position);
        } else {
            // Someone else moved it (a gateway that held the lock before us): re-read it.
            self.checkpoint = None;
        }
        Ok(())
    }

    /// [`Self::save`] before stopping or starting afresh: what cannot be written is repeated.
    async fn save_or_warn(&mut self) {
        if let Err(error) = self.save().await {
            let webhook = self.webhook.webhook_id;
            tracing::warn!(%webhook, %error, "webhooks: cannot write the checkpoint");
        }
    }

    /// Signs and POSTs one body; `Err` says why it did not get a 2xx.
    async fn post(&mut self, position: u64, body: Vec<u8>) -> Result<(), Refused> {
        let id = self.webhook.webhook_id;
        let secret = match &self.secret {
            Some(secret) => secret.clone(),
            None => {
                let kept = self.worker.app.store().webhook_secret(id.into()).await;
                let secret = kept
                    .map_err(|error| format!("cannot read the signing secret: {error}"))?
                    .ok_or("no signing secret is kept for this webhook")?;
                self.secret = Some(secret.clone());
                secret
            }
        };
        let url = match &self.url {
            Some(url) => url.clone(),
            None => {
                let kept = self.worker.app.store().webhook_url(id.into()).await;
                let url = kept
                    .map_err(|error| format!("cannot read the webhook's URL: {error}"))?
                    .or_else(|| self.webhook.url.clone())
                    .ok_or("no URL is kept for this webhook")?;
                self.url = Some(url.clone());
                url
            }
        };
        check_literal(&url, self.worker.settings.allow_private)
            .map_err(|error| error.to_string())?;
        if let Some(until) =
            self.receiver().and_then(|receiver| self.worker.throttled.until(&receiver))
        {
            return Err(Refused::Throttled((until - Utc::now()).to_std().unwrap_or_default()));
        }
        let timestamp = Utc::now().timestamp();
        let signature = sign(&secret, timestamp, &body);
        let response = self
            .worker
            .client
            .post(&url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(SIGNATURE_HEADER, signature)
            .header(TIMESTAMP_HEADER, timestamp.to_string())
            .header(DELIVERY_HEADER, delivery_id(id.into(), position))
            .body(body)
            .send()
            .await
            .map_err(|error| self.send_error(error))?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let header = retry_after(response.headers());
            let body = drain(response).await;
            // Discord's body gives the wait to the millisecond; the header in whole seconds.
            let wait = discord_retry_after(&body).or(header);
            return Err(Refused::Throttled(wait.unwrap_or(self.worker.settings.retry_base)));
        }
        drain(response).await;
        if status.is_success() { Ok(()) } else { Err(format!("HTTP {status}").into()) }
    }

    /// Why a POST got no answer, naming the webhook's host but never its URL (reqwest puts
    /// the URL in its messages; the path and query may be the capability itself).
    fn send_error(&self, error: reqwest::Error) -> String {
        let text = error_chain(&error.without_url());
        format!("{}: {}", self.webhook.host, redact_urls(&text))
    }

    /// Records a failed attempt; pauses the webhook once it has failed for `pause_after`.
    async fn failed(
        &mut self,
        checkpoint: WebhookCheckpoint,
        error: String,
    ) -> Result<Step, WebhookError> {
        // The failure is recorded at the database's checkpoint: bring it to this one first.
        self.save().await?;
        if self.checkpoint.is_none() {
            return Ok(Step::Again);
        }
        let now = Utc::now();
        let settings = &self.worker.settings;
        let attempts = checkpoint.attempts.saturating_add(1);
        // A resumed webhook's timer starts again at its resumption.
        let failing_since = checkpoint
            .failing_since
            .filter(|since| self.resumed_at.is_none_or(|resumed| *since >= resumed))
            .unwrap_or(now);
        let failing_for = (now - failing_since).to_std().unwrap_or_default();
        // The error names the host, never the URL (`send_error`): the log is no place for it.
        let host = &self.webhook.host;
        tracing::info!(webhook = %self.webhook.webhook_id, %host, attempts, %error, "webhooks: delivery failed");
        if failing_for >= settings.pause_after {
            let reason = truncate(
                &format!(
                    "deliveries failed for {}s ({attempts} attempts); last error: {error}",
                    failing_for.as_secs()
                ),
                MAX_REASON_CHARS,
            );
            let pause =
                PauseWebhook { actor: Actor::Admin, webhook_id: self.webhook.webhook_id, reason };
            match self.worker.app.execute(pause, Default::default()).await {
                Ok(_) => return Ok(Step::Paused),
                // Paused or removed meanwhile: the supervisor stops this task.
                Err(refusal) if refusal.code() == league_app::ErrorCode::Conflict => {
                    return Ok(Step::Paused);
                }
                Err(other) => return Err(other.into()),
            }
        }
        let failure = WebhookFailure {
            attempts,
            next_attempt_at: now + backoff(settings, attempts),
            failing_since,
            error: truncate(&error, MAX_REASON_CHARS),
        };
        let store = self.worker.app.store();
        store
            .record_webhook_failure(self.webhook.webhook_id.into(), checkpoint.position, &failure)
            .await?;
        self.checkpoint = Some(WebhookCheckpoint {
            attempts,
            next_attempt_at: Some(failure.next_attempt_at),
            failing_since: Some(failing_since),
            last_error: Some(failure.error),
            ..checkpoint
        });
        Ok(Step::RetryAt(failure.next_attempt_at))
    }
}

/// Why a POST did not get a 2xx.
enum Refused {
    /// `429`: the receiver asks for no requests for this long.
    Throttled(Duration),
    /// Anything else: a failed attempt, retried with backoff.
    Failed(String),
}

impl From<String> for Refused {
    fn from(error: String) -> Self {
        Refused::Failed(error)
    }
}

impl From<&str> for Refused {
    fn from(error: &str) -> Self {
        Refused::Failed(error.to_owned())
    }
}

fn chrono_wait(wait: Duration) -> chrono::Duration {
    chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::MAX)
}

/// A `Retry-After` header: seconds, or an HTTP date (RFC 9110), as a wait from now.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds.max(0.0)).ok();
    }
    let at = DateTime::parse_from_rfc2822(value).ok()?.with_timezone(&Utc);
    Some((at - Utc::now()).to_std().unwrap_or_default())
}

/// Discord's wait in a `429` body: `{"retry_after": seconds, …}`.
fn discord_retry_after(body: &[u8]) -> Option<Duration> {
    let json: serde_json::Value = serde_json::from_slice(body).ok()?;
    Duration::try_from_secs_f64(json.get("retry_after")?.as_f64()?.max(0.0)).ok()
}

/// The wait before retry `attempts` (1-based): the base doubled per earlier attempt, capped,
/// and drawn uniformly from its upper half so failing webhooks do not retry in step.
fn backoff(settings: &WebhookSettings, attempts: u32) -> chrono::Duration {
    let doubled = settings.retry_base.saturating_mul(1u32 << attempts.saturating_sub(1).min(20));
    let ceiling = doubled.min(settings.retry_max).max(Duration::from_millis(1));
    let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
    let drawn = rand::rng().random_range(millis / 2..=millis);
    chrono::Duration::milliseconds(i64::try_from(drawn).unwrap_or(i64::MAX))
}

/// An error with its causes (reqwest's own message hides e.g. the address refusal).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Reads at most [`MAX_ANSWER_BYTES`] of an answer (so the connection can be reused); the
/// bytes read, for a `429`'s wait.
async fn drain(mut response: reqwest::Response) -> Vec<u8> {
    let mut read = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        if read.len() + chunk.len() > MAX_ANSWER_BYTES {
            break;
        }
        read.extend_from_slice(&chunk);
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_429_says_how_long_to_wait_in_seconds_a_date_or_discords_body() {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(reqwest::header::RETRY_AFTER, "2".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(2)));
        let later = (Utc::now() + chrono::Duration::seconds(30)).to_rfc2822();
        headers.insert(reqwest::header::RETRY_AFTER, later.parse().unwrap());
        let wait = retry_after(&headers).unwrap();
        assert!((Duration::from_secs(28)..=Duration::from_secs(30)).contains(&wait), "{wait:?}");
        headers.insert(reqwest::header::RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
        let body =
            br#"{"message": "You are being rate limited.", "retry_after": 0.25, "global": false}"#;
        assert_eq!(discord_retry_after(body), Some(Duration::from_millis(250)));
        assert_eq!(discord_retry_after(b"<html>"), None);
    }

    #[test]
    fn backoff_doubles_with_jitter_up_to_the_cap() {
        let settings = WebhookSettings {
            retry_base: Duration::from_millis(100),
            retry_max: Duration::from_millis(1000),
            ..WebhookSettings::default()
        };
        for _ in 0..50 {
            let first = backoff(&settings, 1).num_milliseconds();
            assert!((50..=100).contains(&first), "{first}");
            let third = backoff(&settings, 3).num_milliseconds();
            assert!((200..=400).contains(&third), "{third}");
            let late = backoff(&settings, 40).num_milliseconds();
            assert!((500..=1000).contains(&late), "{late}");
        }
    }
}
