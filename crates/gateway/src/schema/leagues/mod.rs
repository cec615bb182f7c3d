//! Leagues over GraphQL: the `League` and `Game` objects, league reads (standings, what-if
//! standings, score histories), league changes (each one domain command) and the live
//! league subscriptions.

pub(super) mod mutation;
pub(super) mod query;
pub(super) mod subscription;
pub(super) mod types;
mod values;
