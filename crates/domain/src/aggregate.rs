//! The aggregate contract: `handle` decides (pure), `apply` only folds, each over the
//! aggregate's own event enum.

use crate::context::Context;
use crate::error::DomainError;
use crate::events::{AggregateEvent, DomainEvent};

/// What `handle` answers: the events a command produces, or why it is refused.
pub type Decision<E> = Result<Vec<E>, DomainError>;

/// An event-sourced aggregate: one stream's state.
pub trait Aggregate: Default {
    type Command;
    /// The aggregate's own events (its room's enum): what `handle` emits and `apply` folds.
    type Event: AggregateEvent + Into<DomainEvent>;

    /// Decides which events a command produces, or why it is refused. Pure: reads only
    /// `self`, the command and the context. An empty refusal appends nothing.
    fn handle(&self, command: &Self::Command, context: &Context) -> Decision<Self::Event>;

    /// [`Self::handle`]'s events in the log's envelope, as they are appended.
    fn decide(
        &self,
        command: &Self::Command,
        context: &Context,
    ) -> Result<Vec<DomainEvent>, DomainError> {
        Ok(self.handle(command, context)?.into_iter().map(Into::into).collect())
    }

    /// Folds one event of this aggregate's stream into the state. Never fails, never
    /// decides: events are facts.
    fn apply(&mut self, event: &Self::Event);

    /// Number of events folded so far: the stream version to expect when appending.
    fn version(&self) -> u64;

    /// Folds one event read from the log, which belongs to this aggregate's stream (a
    /// stream only ever holds its own aggregate's events: the stream is derived from the
    /// event, [`DomainEvent::stream`]).
    fn apply_event(&mut self, event: &DomainEvent) {
        if let Some(event) = Self::Event::of(event) {
            self.apply(event);
        } else {
            debug_assert!(false, "{} is not an event of this stream", event.event_type());
        }
    }

    /// The state after folding a stream's events in order.
    fn from_events<'a>(events: impl IntoIterator<Item = &'a DomainEvent>) -> Self
    where
        Self: Sized,
    {
        let mut state = Self::default();
        for event in events {
            state.apply_event(event);
        }
        state
    }
}
