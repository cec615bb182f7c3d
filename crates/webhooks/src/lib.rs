//! Webhooks delivered from the log (`docs/webhooks.md`): each webhook is a reader of the event
//! log with its own checkpoint in the database.
//!
//! ```text
//! run(app, settings, shutdown)   the delivery worker `league serve` runs beside the API:
//!   supervisor                   folds the webhook streams (registry.rs), starts a task per
//!                                active webhook, stops it when paused or removed
//!   one task per webhook         lock (one gateway per webhook on PostgreSQL) → checkpoint →
//!                                next wanted event after it → body (render.rs) → signed POST
//!                                (signature.rs) to a checked address (address.rs) → 2xx moves
//!                                the checkpoint, written in batches (checkpoint.rs); a failure
//!                                is retried with backoff and jitter, and after `pause_after`
//!                                the webhook is paused (an event)
//! check_destination(url, allow)  the address rules at registration
//! generate_secret / sign / verify
//! list_webhooks(store, head)     webhooks with status and checkpoint (the GraphQL query)
//! ```
//!
//! Delivery is at least once, in log order per webhook: the checkpoint moves only after a 2xx,
//! and is written to the database at least every `checkpoint_every` deliveries and
//! `checkpoint_interval`, when the webhook is idle, fails, is throttled or stops; so a crash
//! repeats at most those unwritten deliveries and the one in flight, which the receiver
//! recognises by their `X-League-Delivery` ids. A slow or failing endpoint holds up only its
//! own webhook.

mod address;
mod checkpoint;
mod deliver;
#[cfg(feature = "receiver")]
pub mod receiver;
mod registry;
mod render;
mod signature;

use std::time::Duration;

pub use address::{AddressError, check_destination, refused_range};
pub use deliver::{http_client, run};
pub use registry::{WebhookEntry, WebhookView, list_webhooks, load_webhooks, webhook_event_types};
pub use render::{StandingLine, delivery_id};
pub use signature::{
    DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, generate_secret, sign, verify,
};

/// Environment variable allowing webhooks to private addresses (`1` or `true`).
pub const ALLOW_PRIVATE_ENV: &str = "LEAGUE_WEBHOOKS_ALLOW_PRIVATE";
/// Environment variable: the first retry's delay, in milliseconds.
pub const RETRY_BASE_ENV: &str = "LEAGUE_WEBHOOK_RETRY_BASE_MS";

/// How webhooks are delivered (`league serve` flags and environment).
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookSettings {
    /// Allow loopback, private and link-local addresses (a receiver on the operator's own
    /// network, and tests).
    pub allow_private: bool,
    /// A webhook whose deliveries keep failing this long is paused.
    pub pause_after: Duration,
    /// The delay before the first retry; each further retry doubles it (with jitter), up to
    /// `retry_max`.
    pub retry_base: Duration,
    pub retry_max: Duration,
    /// How long one delivery (connect, send, answer) may take.
    pub request_timeout: Duration,
    /// How often idle webhooks look at the log without a wake-up, and a gateway that could
    /// not take a webhook's lock tries again.
    pub poll_interval: Duration,
    /// A webhook's checkpoint is written to the database at least every this many deliveries
    /// (the most a crash can make a webhook repeat, besides the delivery in flight).
    pub checkpoint_every: u32,
    /// … and at least this soon after the first delivery the database's copy does not cover.
    pub checkpoint_interval: Duration,
}

/// Defaults: 24 hours before pausing, retries from 1 s to 10 min, 10 s per request, the
/// checkpoint written every 50 deliveries or 100 ms.
impl Default for WebhookSettings {
    fn default() -> Self {
        WebhookSettings {
            allow_private: false,
            pause_after: Duration::from_secs(24 * 3600),
            retry_base: Duration::from_secs(1),
            retry_max: Duration::from_secs(600),
            request_timeout: Duration::from_secs(10),
            poll_interval: Duration::from_secs(2),
            checkpoint_every: 50,
            checkpoint_interval: Duration::from_millis(100),
        }
    }
}

impl WebhookSettings {
    /// These settings with what the environment sets ([`ALLOW_PRIVATE_ENV`],
    /// [`RETRY_BASE_ENV`]); a value that cannot be read is an error naming the variable.
    pub fn with_env(mut self) -> Result<Self, String> {
        if let Ok(value) = std::env::var(ALLOW_PRIVATE_ENV) {
            self.allow_private = match value.trim() {
                "1" | "true" | "yes" => true,
                "" | "0" | "false" | "no" => false,
                other => return Err(format!("{ALLOW_PRIVATE_ENV}: {other:?} is not 1 or 0")),
            };
        }
        if let Ok(value) = std::env::var(RETRY_BASE_ENV) {
            let millis: u64 = value.trim().parse().map_err(|_| {
                format!("{RETRY_BASE_ENV}: {value:?} is not a whole number of milliseconds")
            })?;
            self.retry_base = Duration::from_millis(millis.max(1));
        }
        Ok(self)
    }
}

/// Parses a duration such as `90`, `90s`, `15m`, `24h` or `7d` (seconds when unitless).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) =
        text.split_at(text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len()));
    let scale = match unit {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        _ => return Err(format!("{text:?}: use a number with s, m, h or d")),
    };
    match number.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(Duration::from_secs_f64(value * scale)),
        _ => Err(format!("{text:?} is not a positive duration (e.g. 90s, 15m, 24h)")),
    }
}

/// What can stop a delivery or a registry read.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    #[error(transparent)]
    Store(#[from] league_store::StoreError),
    #[error(transparent)]
    App(#[from] league_app::AppError),
    #[error("undecodable event at position {position}: {error}")]
    Decode { position: u64, error: league_domain::EventDecodeError },
    #[error("cannot render the delivery: {0}")]
    Render(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_their_units() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("15m"), Ok(Duration::from_secs(900)));
        assert_eq!(parse_duration("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("3w").is_err());
    }
}
