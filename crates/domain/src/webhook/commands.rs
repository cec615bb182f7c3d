//! The commands of the [`crate::Webhook`] aggregate.

use super::{Webhook, WebhookFormat, WebhookKind};
use crate::ids::{Actor, WebhookId, webhook_stream_id};
use uuid::Uuid;

/// An organiser (for competitions they organise) or the site admin registers a webhook.
#[derive(Debug, Clone, PartialEq)]
pub struct RegisterWebhook {
    pub actor: Actor,
    pub webhook_id: WebhookId,
    pub url: String,
    pub kinds: Vec<WebhookKind>,
    pub competitions: Vec<Uuid>,
    pub format: WebhookFormat,
}

/// Stops deliveries (the delivery worker, as the site admin, when an endpoint failed too long).
#[derive(Debug, Clone, PartialEq)]
pub struct PauseWebhook {
    pub actor: Actor,
    pub webhook_id: WebhookId,
    pub reason: String,
}

/// Starts a paused webhook's deliveries again.
#[derive(Debug, Clone, PartialEq)]
pub struct ResumeWebhook {
    pub actor: Actor,
    pub webhook_id: WebhookId,
}

/// Removes a webhook for good.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoveWebhook {
    pub actor: Actor,
    pub webhook_id: WebhookId,
}

/// Commands handled by the [`Webhook`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum WebhookCommand {
    Register(RegisterWebhook),
    Pause(PauseWebhook),
    Resume(ResumeWebhook),
    Remove(RemoveWebhook),
}

impl WebhookCommand {
    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        webhook_stream_id(self.webhook_id())
    }

    /// The competitions whose organisers the [`Context`] must describe
    /// ([`Context::unknown_competitions`], [`Context::unmanaged_competitions`]): the ones a
    /// registration names, else those of the webhook as it stands.
    pub fn competitions_to_check(&self, webhook: &Webhook) -> Vec<Uuid> {
        match self {
            WebhookCommand::Register(c) => c.competitions.clone(),
            WebhookCommand::Pause(_) | WebhookCommand::Resume(_) | WebhookCommand::Remove(_) => {
                webhook.competitions().to_vec()
            }
        }
    }
}

macro_rules! webhook_commands {
    ($($ty:ident => $variant:ident),*) => {
        impl WebhookCommand {
            pub fn actor(&self) -> Actor {
                match self {
                    $(WebhookCommand::$variant(c) => c.actor,)*
                }
            }

            pub fn webhook_id(&self) -> WebhookId {
                match self {
                    $(WebhookCommand::$variant(c) => c.webhook_id,)*
                }
            }
        }

        $(
            impl From<$ty> for WebhookCommand {
                fn from(c: $ty) -> Self {
                    WebhookCommand::$variant(c)
                }
            }
        )*
    };
}

webhook_commands!(
    RegisterWebhook => Register,
    PauseWebhook => Pause,
    ResumeWebhook => Resume,
    RemoveWebhook => Remove
);
