//! Database migrations for the league platform (sea-orm-migration): the append-only events
//! table with its immutability triggers, PostgreSQL's one-round-trip append function (its
//! lighter second version, and the variant that takes rows the store hashed itself), and the
//! event-type index of the catalog (the read-model tables of an earlier version are dropped),
//! the table of per-person keys that personal data is sealed under, webhooks' secrets and
//! checkpoints (and their URLs), and snapshots of derived state.
//!
//! One file per migration; add a new one at the end of [`Migrator::migrations`] and never edit
//! a migration that has shipped (databases in the field have already run it).

pub use sea_orm_migration::prelude::*;

mod m20261121_000001_create_events;
mod m20261122_000001_create_read_models;
mod m20261123_000001_append_function;
mod m20261123_000002_catalog_index_drop_read_models;
mod m20261123_000003_lighter_append_function;
mod m20261124_000001_client_hashed_append;
mod m20261125_000001_person_keys;
mod m20261125_000002_webhooks;
mod m20261126_000001_snapshots;
mod m20261127_000001_webhook_urls;

#[derive(Debug)]
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_create_events::Migration),
            Box::new(m20261122_000001_create_read_models::Migration),
            Box::new(m20261123_000001_append_function::Migration),
            Box::new(m20261123_000002_catalog_index_drop_read_models::Migration),
            Box::new(m20261123_000003_lighter_append_function::Migration),
            Box::new(m20261124_000001_client_hashed_append::Migration),
            Box::new(m20261125_000001_person_keys::Migration),
            Box::new(m20261125_000002_webhooks::Migration),
            Box::new(m20261126_000001_snapshots::Migration),
            Box::new(m20261127_000001_webhook_urls::Migration),
        ]
    }
}
