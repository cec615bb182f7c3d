//! Webhooks over GraphQL (`docs/webhooks.md`): `registerWebhook` (the answer holds the signing
//! secret, shown this once), `resumeWebhook`, `removeWebhook`, and the `webhooks` query with
//! each webhook's status, pause reason, last error, checkpoint and lag. Rights are the
//! domain's; the address rules are the delivery crate's, checked before anything is kept.

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_domain::{
    RegisterWebhook, RemoveWebhook, ResumeWebhook, check_webhook_url, webhook_id_of_stream,
};
use league_webhooks::{WebhookSettings, WebhookView, check_destination, generate_secret};
use uuid::Uuid;

use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{app, caller, execute};
use crate::schema::inputs::parse_id;

/// What a webhook can ask to be told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::WebhookKind")]
pub enum WebhookKind {
    /// A league game's or tournament board's result was reported.
    ResultReported,
    /// A result was corrected.
    ResultCorrected,
    /// A league filled up and its games were scheduled.
    LeagueStarted,
    /// A league or tournament completed.
    LeagueCompleted,
    /// A tournament round was seeded.
    RoundSeeded,
    /// A result changed the standings (the body carries them).
    StandingsChanged,
    /// A tournament board's centre counts after a game year were recorded (off unless named).
    BoardProgress,
    /// A tournament award was given or revoked (off unless named).
    AwardsChanged,
}

/// How a delivery's body is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::WebhookFormat")]
pub enum WebhookFormat {
    /// The event and what it means, as JSON.
    Json,
    /// A Discord message (`{"content": …}`): paste a Discord channel's webhook URL.
    Discord,
}

/// Where a webhook is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::WebhookStatus")]
pub enum WebhookStatus {
    Active,
    /// Stopped after failing too long (see `pausedReason`), until resumed.
    Paused,
    Removed,
}

/// `registerWebhook` input.
#[derive(Debug, InputObject)]
pub struct RegisterWebhookInput {
    /// Where to POST (http or https, no credentials; private addresses only when the operator
    /// allows them).
    pub url: String,
    pub kinds: Vec<WebhookKind>,
    /// The leagues and tournaments it covers; omitted or empty: every competition (site
    /// admin only).
    pub competition_ids: Option<Vec<ID>>,
    /// JSON when omitted.
    pub format: Option<WebhookFormat>,
}

/// A webhook with its delivery state.
#[derive(Debug, SimpleObject)]
pub struct Webhook {
    pub id: ID,
    /// Where it delivers (shown only here, to those who manage it: the audit log names the
    /// host alone).
    pub url: String,
    pub kinds: Vec<WebhookKind>,
    /// Empty: every competition.
    pub competition_ids: Vec<ID>,
    pub format: WebhookFormat,
    pub status: WebhookStatus,
    /// `admin` or `player:<id>`.
    pub registered_by: String,
    pub paused_reason: Option<String>,
    /// Why the last attempt failed (cleared by a successful delivery).
    pub last_error: Option<String>,
    /// Failed attempts at the delivery in flight.
    pub attempts: i32,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub last_delivered_at: Option<DateTime<Utc>>,
    /// The last log position delivered or passed over (null before deliveries start).
    pub checkpoint_position: Option<u64>,
    /// Log positions past the checkpoint.
    pub lag: u64,
}

impl From<WebhookView> for Webhook {
    fn from(view: WebhookView) -> Self {
        let registration = view.entry.registration().clone();
        let checkpoint = view.checkpoint.as_ref();
        Webhook {
            id: ID(view.entry.id.to_string()),
            url: view.url.clone().unwrap_or_default(),
            kinds: registration.kinds.into_iter().map(Into::into).collect(),
            competition_ids: registration
                .competitions
                .iter()
                .map(|id| ID(id.to_string()))
                .collect(),
            format: registration.format.into(),
            status: view.entry.status().into(),
            registered_by: registration.registered_by.to_string(),
            paused_reason: view.entry.state.paused_reason().map(str::to_owned),
            last_error: checkpoint.and_then(|c| c.last_error.clone()),
            attempts: checkpoint.map_or(0, |c| i32::try_from(c.attempts).unwrap_or(i32::MAX)),
            next_attempt_at: checkpoint.and_then(|c| c.next_attempt_at),
            last_delivered_at: checkpoint.and_then(|c| c.delivered_at),
            checkpoint_position: checkpoint.map(|c| c.position),
            lag: view.lag,
        }
    }
}

/// `registerWebhook`'s answer.
#[derive(Debug, SimpleObject)]
pub struct RegisteredWebhook {
    pub webhook: Webhook,
    /// The signing secret (`X-League-Signature`): shown only in this answer (and to a retry
    /// with the same `idempotencyKey`).
    pub secret: String,
}

#[derive(Debug, Default)]
pub struct WebhookQuery;

#[Object]
impl WebhookQuery {
    /// The caller's webhooks: those they registered or that cover only competitions they
    /// organise; the site admin sees every one. Removed webhooks are not listed.
    async fn webhooks(&self, ctx: &Context<'_>) -> GatewayResult<Vec<Webhook>> {
        // Attempts, errors and checkpoints change without an append.
        crate::extension::Uncacheable::mark(ctx);
        let actor = caller(ctx).actor()?;
        let views = views(ctx).await?;
        let shown = app(ctx).webhooks_shown(actor, views, |view| view.entry.registration());
        Ok(shown.into_iter().map(Webhook::from).collect())
    }
}

#[derive(Debug, Default)]
pub struct WebhookMutation;

#[Object]
impl WebhookMutation {
    /// Registers a webhook (an organiser for competitions they organise, the site admin for
    /// any or for all). A retried call with the same `idempotencyKey` answers with the first
    /// call's webhook and secret.
    async fn register_webhook(
        &self,
        ctx: &Context<'_>,
        input: RegisterWebhookInput,
        idempotency_key: Option<String>,
    ) -> GatewayResult<RegisteredWebhook> {
        let actor = caller(ctx).actor()?;
        let competitions = input
            .competition_ids
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, id)| parse_id(id, &format!("competitionIds[{i}]")))
            .collect::<GatewayResult<Vec<Uuid>>>()?;
        let fresh = Uuid::now_v7();
        let mut command = RegisterWebhook {
            actor,
            webhook_id: fresh.into(),
            url: input.url,
            kinds: input.kinds.into_iter().map(Into::into).collect(),
            competitions,
            format: input.format.map_or_else(Default::default, Into::into),
        };
        // Rights first: the address is resolved (a lookup on the caller's behalf) only for a
        // caller who may register this webhook.
        app(ctx).check_rights(&command.clone().into()).await.map_err(GatewayError::App)?;
        let url = check_webhook_url(&command.url).map_err(league_app::AppError::from)?;
        let allow_private = ctx.data_opt::<WebhookSettings>().is_some_and(|s| s.allow_private);
        check_destination(&url, allow_private)
            .await
            .map_err(|error| GatewayError::bad_input("url", error.to_string()))?;
        command.url = url.clone();
        // Kept before the registration is appended, so a registered webhook always has one.
        let store = app(ctx).store();
        store
            .save_webhook_secret(fresh, &generate_secret(), &command.url)
            .await
            .map_err(internal)?;
        let key = idempotency_key.clone();
        let executed = match execute(ctx, command, idempotency_key).await {
            Ok(executed) => executed,
            Err(error) => {
                store.delete_webhook_secret(fresh).await.map_err(internal)?;
                return Err(error);
            }
        };
        let id = executed
            .events
            .first()
            .and_then(|event| webhook_id_of_stream(event.stream_id.as_str()))
            .unwrap_or(fresh.into());
        if id != fresh.into() {
            store.delete_webhook_secret(fresh).await.map_err(internal)?;
        }
        let webhook = webhook(ctx, id.into()).await?;
        // The URL is kept out of the key's command fingerprint (a secret must not be
        // confirmable from the log), so a retry's URL is compared here.
        if executed.deduplicated && webhook.url != url {
            let key = key.unwrap_or_default();
            return Err(GatewayError::App(league_app::AppError::IdempotencyKeyReused { key }));
        }
        let secret = store
            .webhook_secret(id.into())
            .await
            .map_err(internal)?
            .ok_or_else(|| internal(format!("webhook {id} has no secret")))?;
        Ok(RegisteredWebhook { webhook, secret })
    }

    /// Resumes a paused webhook: deliveries start again where they stopped.
    async fn resume_webhook(
        &self,
        ctx: &Context<'_>,
        id: ID,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Webhook> {
        let actor = caller(ctx).actor()?;
        let webhook_id = parse_id(&id, "id")?;
        execute(ctx, ResumeWebhook { actor, webhook_id: webhook_id.into() }, idempotency_key)
            .await?;
        webhook(ctx, webhook_id).await
    }

    /// Removes a webhook for good (its secret is forgotten).
    async fn remove_webhook(
        &self,
        ctx: &Context<'_>,
        id: ID,
        idempotency_key: Option<String>,
    ) -> GatewayResult<ID> {
        let actor = caller(ctx).actor()?;
        let webhook_id = parse_id(&id, "id")?;
        execute(ctx, RemoveWebhook { actor, webhook_id: webhook_id.into() }, idempotency_key)
            .await?;
        app(ctx).store().delete_webhook_secret(webhook_id).await.map_err(internal)?;
        Ok(id)
    }
}

fn internal(error: impl std::fmt::Display) -> GatewayError {
    GatewayError::App(league_app::AppError::internal(error))
}

/// Every webhook not removed, as of the read side's position.
async fn views(ctx: &Context<'_>) -> GatewayResult<Vec<WebhookView>> {
    let app = app(ctx);
    league_webhooks::list_webhooks(app.store(), app.applied_position()).await.map_err(internal)
}

/// One webhook as the answer of a mutation (removed ones are not found).
async fn webhook(ctx: &Context<'_>, id: Uuid) -> GatewayResult<Webhook> {
    views(ctx)
        .await?
        .into_iter()
        .find(|view| view.entry.id == id)
        .map(Webhook::from)
        .ok_or_else(|| GatewayError::NotFound(format!("webhook {id}")))
}
