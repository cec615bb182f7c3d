//! The `idempotency_keys` table: the outcome of each append that carried an idempotency key,
//! written in the same transaction as its events.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub idempotency_key: String,
    pub stream_id: String,
    pub first_position: i64,
    pub last_position: i64,
    pub stream_version: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
