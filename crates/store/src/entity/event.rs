//! The `events` table: one row per event, append-only (triggers refuse UPDATE and DELETE).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i64,
    pub stream_id: String,
    pub stream_version: i64,
    #[sea_orm(unique)]
    pub event_id: Uuid,
    pub event_type: String,
    pub schema_version: i32,
    /// Canonical JSON text (never `jsonb`: the hashed bytes must survive the round trip).
    #[sea_orm(column_type = "Text")]
    pub payload: String,
    #[sea_orm(column_type = "Text")]
    pub metadata: String,
    pub recorded_at: DateTimeUtc,
    pub prev_hash: String,
    pub hash: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
