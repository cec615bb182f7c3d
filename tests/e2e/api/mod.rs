//! API tests: the gateway in-process over a fresh database per test (SQLite and
//! PostgreSQL), talked to like a web frontend with GraphQL requests (`POST /graphql`)
//! through its router, without a socket, and over WebSocket (`/graphql/ws`, the
//! subscriptions, on port 0). One module per feature, one behaviour per test. What only the
//! real binary shows (banner, signals, flags) is in [`crate::serve_binary`].
//!
//! Expected scores and standings come from `league_scoring` (the [`oracle`]), so these tests
//! check that the gateway carries results to the scoring rules and back intact; the rules
//! themselves are tested against their sources' worked examples in the scoring crate.

mod aggregation;
mod authorization;
mod awards;
mod catalogue;
mod confirmation;
mod errors;
mod external_ids;
mod history;
mod idempotency;
mod keep_apart;
mod life_cycle;
mod limits;
mod live_pages;
mod oracle;
mod pagination;
mod pools;
mod powers;
mod practice;
mod progress;
mod ratings;
mod refusals;
mod registration;
mod results;
mod roles;
mod rulings;
mod series;
pub(crate) mod sessions;
mod sign_up;
pub(crate) mod subscriptions;
mod teams;
mod tie_break;
mod times;
pub(crate) mod tournament;
mod walk_ins;
mod whatif;
