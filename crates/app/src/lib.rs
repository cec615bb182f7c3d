//! Application service: runs domain commands against the event store and keeps the read
//! model up to date.
//!
//! ```text
//! App::open(url)          connect, migrate, load the read model, follow the live feed
//! app.execute(cmd, opts)  load aggregate → fill Context from the read model → handle →
//!                         append (expected version; bounded retry on conflict; idempotent)
//!                         → wait until the read model has applied it (read-your-writes)
//! app.read()              the in-memory read model (no IO)
//! app.standings_as_of / score_history_as_of / events / subscribe
//! ```
//!
//! One background task follows `EventStore::subscribe` in position order: it folds each
//! event into the shared [`ReadModel`], publishes the applied position on a `watch` channel
//! (what `execute` waits on) and a [`Notification`] per event on a broadcast channel, then
//! writes the touched read-model rows through the [`league_projections::Projector`].

mod app;
mod error;
mod follow;

pub use app::{App, AppCommand, CommandOptions, Executed, MAX_ATTEMPTS, Notification, ReadGuard};
pub use error::AppError;
pub use league_domain::ErrorCode;
pub use league_projections::{AsOf, ReadModel};
