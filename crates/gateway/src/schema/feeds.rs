//! The feeds in GraphQL (`docs/feeds.md`): issuing a player's secret calendar feed
//! (`rotateCalendarFeed`), whether one exists (`Player.calendarFeed`), and a competition's
//! export as text (`League.export`, `Tournament.export`), the same bytes the HTTP download
//! routes of [`crate::feeds`] serve.

use async_graphql::{Context, Enum, ID, Object, SimpleObject};
use league_app::{App, CompetitionKind, ExportTable};
use league_domain::RotateCalendarFeed;
use uuid::Uuid;

use super::mutation::{execute, subject};
use super::types::Player;
use super::{app, caller};
use crate::auth::Caller;
use crate::error::GatewayResult;
use crate::feeds::{RequestOrigin, feed_hash, feed_path, new_feed_secret};

/// The calendar feed mutation (merged into the mutation root).
#[derive(Debug, Default)]
pub struct FeedsMutation;

/// A player's new calendar feed, shown only this once.
#[derive(SimpleObject)]
pub struct CalendarFeed {
    pub player: Player,
    /// The feed's address for a calendar application (`…/calendar/<secret>.ics`).
    pub url: String,
    /// The same without the server's origin.
    pub path: String,
}

#[Object]
impl FeedsMutation {
    /// Issues a player's secret calendar feed, or replaces it: their own (`playerId` omitted
    /// or their own), or anyone's by the site admin. Answers with the feed's URL, shown only
    /// this once (only its hash is stored); the previous URL stops working at once.
    async fn rotate_calendar_feed(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<CalendarFeed> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player_id = subject(caller, player_id)?;
        let secret = new_feed_secret(player_id);
        let command = RotateCalendarFeed { actor, player_id, feed_hash: feed_hash(&secret) };
        execute(ctx, command, None).await?;
        let path = feed_path(&secret);
        let origin = ctx.data_opt::<RequestOrigin>().cloned();
        let url = origin.map_or_else(|| path.clone(), |origin| origin.url(&path));
        Ok(CalendarFeed { player: Player::new(app(ctx).clone(), player_id), url, path })
    }
}

/// `Player.calendarFeed`: whether the player has a calendar feed, told only to the player
/// themself and the site admin (`null` for anyone else).
pub(super) async fn calendar_feed_exists(
    ctx: &Context<'_>,
    player: Uuid,
) -> GatewayResult<Option<bool>> {
    match caller(ctx) {
        Caller::Admin => {}
        Caller::Player(id) if id == player => {}
        Caller::Player(_) | Caller::Anonymous => return Ok(None),
    }
    Ok(Some(app(ctx).calendar_feed(player).await?.feed_hash().is_some()))
}

/// How an export is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum ExportFormat {
    /// One table (`table`) with a header line.
    Csv,
    /// The competition, its standings and its results in one document.
    Json,
}

/// Which table a CSV export holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(name = "ExportTable")]
pub enum ExportTableValue {
    /// One row per seat of every finished game or board (Diplomacy: round, board, power,
    /// player, centres, rank, score).
    Results,
    /// One row per player, best first.
    Standings,
}

impl From<ExportTableValue> for ExportTable {
    fn from(value: ExportTableValue) -> Self {
        match value {
            ExportTableValue::Results => ExportTable::Results,
            ExportTableValue::Standings => ExportTable::Standings,
        }
    }
}

/// `League.export` and `Tournament.export`: the competition's export in `format` (`table`
/// for CSV).
pub(super) async fn export(
    app: &App,
    kind: CompetitionKind,
    id: Uuid,
    format: ExportFormat,
    table: ExportTableValue,
) -> GatewayResult<String> {
    let export = app.competition_export(kind, id).await?;
    Ok(match format {
        ExportFormat::Csv => export.to_csv(table.into())?,
        ExportFormat::Json => export.to_json(),
    })
}
