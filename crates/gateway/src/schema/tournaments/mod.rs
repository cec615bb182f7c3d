//! Tournaments over GraphQL (`docs/tournaments.md`): the reads (a tournament with its
//! entrants, roll calls, rounds, boards and standings; the tournament and round scorings),
//! the mutations (each one domain command), the live subscriptions and the types they
//! answer with.

pub(super) mod awards;
pub(super) mod confirmation;
mod inputs;
pub(crate) mod mine;
pub(super) mod mutation;
pub(super) mod pools;
pub(super) mod powers;
pub(super) mod progress;
pub(super) mod query;
mod rounds;
pub(super) mod rulings;
pub(super) mod subscription;
pub(super) mod teams;
pub(super) mod times;
pub(super) mod types;
