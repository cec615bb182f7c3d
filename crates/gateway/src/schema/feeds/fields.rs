//! The fields of other objects that point at feeds: `Player.calendarFeed` (whether a feed
//! exists) and `League.export` / `Tournament.export` (a competition's export as text, the
//! same bytes the HTTP download routes of [`crate::feeds`] serve).

use async_graphql::{Context, Enum};
use league_app::{App, CompetitionKind, ExportTable};
use uuid::Uuid;

use crate::error::GatewayResult;
use crate::schema::context::{app, caller};

/// `Player.calendarFeed`: whether the player has a calendar feed, told only to the player
/// themself and the site admin (`null` for anyone else).
pub(crate) async fn calendar_feed_exists(
    ctx: &Context<'_>,
    player: Uuid,
) -> GatewayResult<Option<bool>> {
    let viewer = caller(ctx).actor().ok();
    Ok(app(ctx).calendar_feed_shown(viewer, player).await?)
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
    /// A tournament's team standings, one row per team, best first.
    Teams,
}

impl From<ExportTableValue> for ExportTable {
    fn from(value: ExportTableValue) -> Self {
        match value {
            ExportTableValue::Results => ExportTable::Results,
            ExportTableValue::Standings => ExportTable::Standings,
            ExportTableValue::Teams => ExportTable::Teams,
        }
    }
}

/// `League.export` and `Tournament.export`: the competition's export in `format` (`table`
/// for CSV).
pub(crate) async fn export(
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
