//! The aggregate contract: `handle` decides (pure), `apply` only folds.

use crate::context::Context;
use crate::error::DomainError;
use crate::events::DomainEvent;

/// An event-sourced aggregate: one stream's state.
pub trait Aggregate: Default {
    type Command;

    /// Decides which events a command produces, or why it is refused. Pure: reads only
    /// `self`, the command and the context. An empty refusal appends nothing.
    fn handle(
        &self,
        command: &Self::Command,
        context: &Context,
    ) -> Result<Vec<DomainEvent>, DomainError>;

    /// Folds one event of this aggregate's stream into the state. Never fails, never
    /// decides: events are facts.
    fn apply(&mut self, event: &DomainEvent);

    /// Number of events folded so far: the stream version to expect when appending.
    fn version(&self) -> u64;

    /// The state after folding a stream's events in order.
    fn from_events<'a>(events: impl IntoIterator<Item = &'a DomainEvent>) -> Self
    where
        Self: Sized,
    {
        let mut state = Self::default();
        for event in events {
            state.apply(event);
        }
        state
    }
}
