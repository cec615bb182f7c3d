//! Webhook URLs beside their signing secrets (`docs/webhooks.md#older-logs`): a URL such as a
//! Discord channel's webhook lets whoever reads it post to the channel, so it is kept like the
//! secret, outside the hash chain, and a `WebhookRegistered` event names only its host. The
//! column is empty for webhooks registered before: their URL is in their (version 1) event.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

const UP: &str = "ALTER TABLE webhook_secrets ADD COLUMN url TEXT";
const DOWN: &str = "ALTER TABLE webhook_secrets DROP COLUMN url";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(UP).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(DOWN).await?;
        Ok(())
    }
}
