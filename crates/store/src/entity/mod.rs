//! sea-orm entities for the store's tables (one code base for SQLite and PostgreSQL; the
//! tables themselves are created by `league-migration`).

pub(crate) mod event;
pub(crate) mod idempotency_key;
pub(crate) mod person_key;
