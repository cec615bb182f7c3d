//! The `person_keys` table: one key per person, outside the hash chain
//! (`docs/personal-data.md`). Read here only by the export, inside its one read transaction;
//! written and deleted by each database's own SQL with the append that stores or erases it.

use std::fmt;

use sea_orm::entity::prelude::*;

#[derive(Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "person_keys")]
pub struct Model {
    /// The person's id as text (the UUID's hyphenated form).
    #[sea_orm(primary_key, auto_increment = false)]
    pub person_id: String,
    /// The key's 32 raw bytes.
    pub key: Vec<u8>,
}

impl fmt::Debug for Model {
    /// Never prints a key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("person_key::Model")
            .field("person_id", &self.person_id)
            .finish_non_exhaustive()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
