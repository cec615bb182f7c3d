//! When a webhook's checkpoint is written (`docs/webhooks.md#delivery`): a delivery moves the
//! checkpoint in memory at once, and the database's copy follows in batches, so deliveries are
//! not bounded by the database's commit rate. What a restart repeats is what the database's
//! copy does not cover: at most [`WebhookSettings::checkpoint_every`] deliveries, made within
//! [`WebhookSettings::checkpoint_interval`] before the delivery in flight.

use std::time::Instant;

use crate::WebhookSettings;

/// How far a webhook's checkpoint moved in memory past its copy in the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unsaved {
    /// The position the database holds.
    pub saved: u64,
    /// Deliveries made past it (events passed over are not counted: they are never repeated).
    pub deliveries: u32,
    /// When the checkpoint first moved past it.
    pub since: Option<Instant>,
}

impl Unsaved {
    /// Nothing unsaved: the database holds `position`.
    pub fn at(position: u64) -> Unsaved {
        Unsaved { saved: position, deliveries: 0, since: None }
    }

    /// The checkpoint moved in memory at `now`, after a delivery or past events not wanted.
    pub fn moved(&mut self, delivered: bool, now: Instant) {
        self.deliveries += u32::from(delivered);
        self.since.get_or_insert(now);
    }

    /// Whether the checkpoint moved past the database's copy.
    pub fn is_empty(&self) -> bool {
        self.since.is_none()
    }

    /// Whether the database's copy must be written now: enough deliveries, or the oldest
    /// move is old enough.
    pub fn due(&self, settings: &WebhookSettings, now: Instant) -> bool {
        self.deliveries >= settings.checkpoint_every.max(1)
            || self
                .since
                .is_some_and(|since| now.duration_since(since) >= settings.checkpoint_interval)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn settings() -> WebhookSettings {
        WebhookSettings {
            checkpoint_every: 3,
            checkpoint_interval: Duration::from_millis(100),
            ..WebhookSettings::default()
        }
    }

    #[test]
    fn the_checkpoint_is_written_after_enough_deliveries() {
        let now = Instant::now();
        let mut unsaved = Unsaved::at(10);
        assert!(unsaved.is_empty());
        assert!(!unsaved.due(&settings(), now));
        for _ in 0..2 {
            unsaved.moved(true, now);
            assert!(!unsaved.due(&settings(), now));
        }
        // Events passed over are not deliveries: a restart does not repeat them.
        unsaved.moved(false, now);
        assert!(!unsaved.due(&settings(), now));
        unsaved.moved(true, now);
        assert!(unsaved.due(&settings(), now));
        assert_eq!(unsaved.saved, 10);
    }

    #[test]
    fn the_checkpoint_is_written_once_its_oldest_move_is_old_enough() {
        let start = Instant::now();
        let mut unsaved = Unsaved::at(10);
        unsaved.moved(false, start);
        assert!(!unsaved.is_empty());
        unsaved.moved(true, start + Duration::from_millis(60));
        assert!(!unsaved.due(&settings(), start + Duration::from_millis(99)));
        assert!(unsaved.due(&settings(), start + Duration::from_millis(100)));
    }
}
