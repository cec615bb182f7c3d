//! Series over GraphQL (`docs/series.md`): `series`, `seriesList` and `seriesOf` (the series
//! a league or tournament belongs to); `Series.standings` (each player's best N results) and
//! `Series.attendance` (player × event); the series' export; the mutations `createSeries`,
//! `addSeriesEvent`, `removeSeriesEvent` and `changeSeriesSettings`, each with an
//! idempotency key. Rights and refusals are the domain's.

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use league_app::{App, SeriesSummary, SeriesTable};
use league_domain::{AddSeriesEvent, ChangeSeriesSettings, CreateSeries, RemoveSeriesEvent};
use tokio::sync::OnceCell;
use uuid::Uuid;

use crate::error::GatewayResult;
use crate::schema::context::{app, caller, execute};
use crate::schema::inputs::parse_id;
use crate::schema::players::types::Player;

/// What a player's result in a member event is worth in the series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_scoring::SeriesBasis")]
pub enum SeriesBasis {
    /// Players the event ranks − the player's rank + 1 (1st of 22 → 22 points).
    RankPoints,
    /// The player's total in the event's own standings.
    Score,
}

/// `createSeries` input.
#[derive(Debug, InputObject)]
pub struct CreateSeriesInput {
    pub name: String,
    /// How many of each player's results count (best N, 1 to 100).
    pub best: u32,
    pub basis: SeriesBasis,
}

/// `changeSeriesSettings` input: each field omitted keeps its value.
#[derive(Debug, InputObject)]
pub struct SeriesSettingsInput {
    pub name: Option<String>,
    pub best: Option<u32>,
    pub basis: Option<SeriesBasis>,
}

/// A league or tournament of a series.
#[derive(Debug, SimpleObject)]
pub struct SeriesEvent {
    pub id: ID,
    /// `LEAGUE` or `TOURNAMENT`.
    pub kind: String,
    pub name: String,
}

/// A player's line in a series' standings.
#[derive(SimpleObject)]
pub struct SeriesStanding {
    /// Competition rank: equal totals share it (1, 2, 2, 4).
    pub rank: u32,
    pub player: Player,
    /// The sum of the player's best N results.
    pub total: f64,
    /// Member events the player played in.
    pub attended: u32,
}

/// A player's row of the attendance grid.
#[derive(SimpleObject)]
pub struct SeriesAttendance {
    pub player: Player,
    /// One entry per member event, in the series' order: null where the player was absent.
    pub results: Vec<Option<SeriesResult>>,
}

/// A player's result in one member event.
#[derive(Debug, SimpleObject)]
pub struct SeriesResult {
    pub event_id: ID,
    /// The event's rank of the player.
    pub rank: u32,
    /// What the result is worth in the series.
    pub points: f64,
    /// Whether it is one of the player's best N.
    pub counted: bool,
}

/// A series of tournaments and leagues.
pub struct Series {
    app: App,
    summary: SeriesSummary,
    /// Read once per object: `standings` and `attendance` in one query share it.
    table: OnceCell<SeriesTable>,
}

impl Series {
    fn new(app: &App, summary: SeriesSummary) -> Series {
        Series { app: app.clone(), summary, table: OnceCell::new() }
    }

    async fn table(&self) -> GatewayResult<&SeriesTable> {
        let read = || self.app.series_table(self.summary.id);
        Ok(self.table.get_or_try_init(read).await?)
    }
}

#[Object]
impl Series {
    async fn id(&self) -> ID {
        ID(self.summary.id.to_string())
    }

    async fn name(&self) -> String {
        self.summary.name.clone()
    }

    /// How many of each player's results count.
    async fn best(&self) -> u32 {
        self.summary.best
    }

    async fn basis(&self) -> SeriesBasis {
        self.summary.basis.into()
    }

    /// Who created it: `admin` or `player:<id>`.
    async fn created_by(&self) -> String {
        self.summary.organisers.creator().map_or_else(|| "admin".into(), |p| format!("player:{p}"))
    }

    /// The member leagues and tournaments, in the order they were added.
    async fn events(&self) -> Vec<SeriesEvent> {
        let catalog = self.app.catalog();
        (self.summary.events.iter())
            .map(|id| {
                let league = catalog.league(*id).map(|l| ("LEAGUE", l.settings.name.clone()));
                let tournament =
                    || catalog.tournament(*id).map(|t| ("TOURNAMENT", t.settings.name.clone()));
                let (kind, name) =
                    league.or_else(tournament).unwrap_or(("TOURNAMENT", String::new()));
                SeriesEvent { id: ID(id.to_string()), kind: kind.into(), name }
            })
            .collect()
    }

    /// Each player's best N results now, best first (moves as the member events' results
    /// are recorded).
    async fn standings(&self) -> GatewayResult<Vec<SeriesStanding>> {
        let table = self.table().await?;
        Ok((table.rows.iter())
            .map(|row| SeriesStanding {
                rank: row.rank,
                player: Player::new(self.app.clone(), row.player),
                total: row.total,
                attended: row.attended,
            })
            .collect())
    }

    /// The attendance grid: a row per player (in standings order), a result or null per
    /// member event.
    async fn attendance(&self) -> GatewayResult<Vec<SeriesAttendance>> {
        let table = self.table().await?;
        let members = &table.members;
        Ok((table.rows.iter())
            .map(|row| SeriesAttendance {
                player: Player::new(self.app.clone(), row.player),
                results: (row.cells.iter().zip(members))
                    .map(|(cell, member)| {
                        cell.map(|cell| SeriesResult {
                            event_id: ID(member.id.to_string()),
                            rank: cell.rank,
                            points: cell.points,
                            counted: cell.counted,
                        })
                    })
                    .collect(),
            })
            .collect())
    }

    /// The standings with the grid as CSV (`docs/series.md#exports`).
    async fn export_csv(&self) -> GatewayResult<String> {
        Ok(self.app.series_export(self.summary.id).await?.to_csv()?)
    }

    /// The standings with the grid as JSON.
    async fn export_json(&self) -> GatewayResult<String> {
        Ok(self.app.series_export(self.summary.id).await?.to_json())
    }
}

#[derive(Debug, Default)]
pub struct SeriesQuery;

#[Object]
impl SeriesQuery {
    /// A series by id (null if there is none).
    async fn series(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<Series>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.series(id).ok().map(|summary| Series::new(app, summary)))
    }

    /// Every series, in creation order.
    async fn series_list(&self, ctx: &Context<'_>) -> Vec<Series> {
        let app = app(ctx);
        app.series_list().into_iter().map(|summary| Series::new(app, summary)).collect()
    }

    /// The series a league or tournament belongs to.
    async fn series_of(&self, ctx: &Context<'_>, competition_id: ID) -> GatewayResult<Vec<Series>> {
        let id = parse_id(&competition_id, "competitionId")?;
        let app = app(ctx);
        Ok(app.series_of(id).into_iter().map(|summary| Series::new(app, summary)).collect())
    }
}

#[derive(Debug, Default)]
pub struct SeriesMutation;

#[Object]
impl SeriesMutation {
    /// The site admin or an appointed organiser creates a series. A retried call with the
    /// same `idempotencyKey` returns the series the first call created.
    async fn create_series(
        &self,
        ctx: &Context<'_>,
        input: CreateSeriesInput,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Series> {
        let command = CreateSeries {
            actor: caller(ctx).actor()?,
            series_id: Uuid::now_v7().into(),
            name: input.name,
            best: input.best,
            basis: input.basis.into(),
        };
        let fresh = command.series_id;
        let executed = execute(ctx, command, idempotency_key).await?;
        let id = (executed.events.first())
            .and_then(|event| league_domain::series_id_of_stream(event.stream_id.as_str()))
            .unwrap_or(fresh);
        series(ctx, id.into())
    }

    /// Adds a league or tournament to a series (its organisers or the site admin): unknown
    /// → `NOT_FOUND`, already a member → `CONFLICT`.
    async fn add_series_event(
        &self,
        ctx: &Context<'_>,
        series_id: ID,
        competition_id: ID,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Series> {
        change_members(ctx, &series_id, &competition_id, idempotency_key, true).await
    }

    /// Takes a league or tournament out of a series: not a member → `NOT_FOUND`.
    async fn remove_series_event(
        &self,
        ctx: &Context<'_>,
        series_id: ID,
        competition_id: ID,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Series> {
        change_members(ctx, &series_id, &competition_id, idempotency_key, false).await
    }

    /// Changes a series' name, count or basis: nothing changed → `CONFLICT`.
    async fn change_series_settings(
        &self,
        ctx: &Context<'_>,
        series_id: ID,
        input: SeriesSettingsInput,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Series> {
        let (actor, id) = (caller(ctx).actor()?, parse_id(&series_id, "seriesId")?);
        let command = ChangeSeriesSettings {
            actor,
            series_id: id.into(),
            name: input.name,
            best: input.best,
            basis: input.basis.map(Into::into),
        };
        execute(ctx, command, idempotency_key).await?;
        series(ctx, id)
    }
}

/// Adds (`add`) or removes a member event, then reads the series.
async fn change_members(
    ctx: &Context<'_>,
    series_id: &ID,
    competition_id: &ID,
    idempotency_key: Option<String>,
    add: bool,
) -> GatewayResult<Series> {
    let (actor, id) = (caller(ctx).actor()?, parse_id(series_id, "seriesId")?);
    let competition = parse_id(competition_id, "competitionId")?;
    let series_id = id.into();
    let command: league_app::AppCommand = if add {
        AddSeriesEvent { actor, series_id, competition }.into()
    } else {
        RemoveSeriesEvent { actor, series_id, competition }.into()
    };
    execute(ctx, command, idempotency_key).await?;
    series(ctx, id)
}

/// The series `id` as the read side has it after a command.
fn series(ctx: &Context<'_>, id: Uuid) -> GatewayResult<Series> {
    let app = app(ctx);
    Ok(Series::new(app, app.series(id)?))
}
