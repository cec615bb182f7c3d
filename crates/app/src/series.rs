//! Reading series (`docs/series.md`): a series' standings and attendance grid, computed from
//! its member leagues' and tournaments' current standings each time they are read, so the
//! series moves as soon as a member's result is recorded; and their export as JSON or CSV.

use league_projections::SeriesSummary;
use league_scoring::{EventPlacing, SeriesStanding, series_standings};
use serde::Serialize;
use uuid::Uuid;

use crate::app::App;
use crate::error::AppError;
use crate::exports::{CompetitionKind, spreadsheet_text};

/// A member league or tournament of a series, in the series' order.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesMember {
    pub id: Uuid,
    pub kind: CompetitionKind,
    pub name: String,
}

/// A series with its standings: one row per player who played in a member event, best
/// first, each with its row of the attendance grid (one cell per member).
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesTable {
    pub series: SeriesSummary,
    pub members: Vec<SeriesMember>,
    pub rows: Vec<SeriesStanding<Uuid>>,
}

impl App {
    /// Every series, in creation order.
    pub fn series_list(&self) -> Vec<SeriesSummary> {
        self.catalog().series_list().to_vec()
    }

    /// A series, or `NOT_FOUND`.
    pub fn series(&self, id: Uuid) -> Result<SeriesSummary, AppError> {
        self.catalog().series(id).cloned().ok_or_else(|| AppError::NotFound(format!("series {id}")))
    }

    /// The series a league or tournament belongs to.
    pub fn series_of(&self, competition: Uuid) -> Vec<SeriesSummary> {
        self.catalog().series_of(competition).cloned().collect()
    }

    /// A series' standings and attendance grid now, or `NOT_FOUND`.
    pub async fn series_table(&self, id: Uuid) -> Result<SeriesTable, AppError> {
        let series = self.series(id)?;
        let mut members = Vec::with_capacity(series.events.len());
        let mut placings = Vec::with_capacity(series.events.len());
        for competition in &series.events {
            let (member, lines) = self.member_placings(*competition).await?;
            members.push(member);
            placings.push(lines);
        }
        let rows = series_standings(&placings, series.basis, series.best);
        Ok(SeriesTable { series, members, rows })
    }

    /// A member's kind and name and each player's line of its current standings.
    async fn member_placings(
        &self,
        id: Uuid,
    ) -> Result<(SeriesMember, Vec<EventPlacing<Uuid>>), AppError> {
        let placing = |player: league_domain::PlayerId, rank, total, played| EventPlacing {
            player: player.into(),
            rank,
            total,
            played,
        };
        let league = self.catalog().league(id).map(|league| league.settings.name.clone());
        if let Some(name) = league {
            let lines = (self.league_standings(id, None).await?.into_iter())
                .map(|row| placing(row.player, row.rank, row.total, row.played > 0))
                .collect();
            return Ok((SeriesMember { id, kind: CompetitionKind::League, name }, lines));
        }
        let tournament = self.existing_tournament(id).await?;
        let name = tournament.settings().map(|s| s.name.clone()).unwrap_or_default();
        let lines = (tournament.standings(None)?.into_iter())
            // An unranked entrant has no place to carry (`docs/tournaments.md#rulings`).
            .filter(|row| !row.unranked)
            .map(|row| placing(row.player, row.rank, row.total, row.games > 0))
            .collect();
        Ok((SeriesMember { id, kind: CompetitionKind::Tournament, name }, lines))
    }

    /// A series' export: its standings with the attendance grid.
    pub async fn series_export(&self, id: Uuid) -> Result<SeriesExport, AppError> {
        let table = self.series_table(id).await?;
        let events = (table.members.iter())
            .map(|member| ExportedSeriesEvent {
                id: member.id,
                kind: match member.kind {
                    CompetitionKind::League => "league",
                    CompetitionKind::Tournament => "tournament",
                },
                name: member.name.clone(),
            })
            .collect();
        let standings = (table.rows.iter())
            .map(|row| SeriesStandingExport {
                rank: row.rank,
                player: self.shown_name(row.player),
                player_id: row.player,
                total: row.total,
                attended: row.attended,
                results: (row.cells.iter())
                    .map(|cell| {
                        cell.map(|cell| SeriesResultExport {
                            rank: cell.rank,
                            points: cell.points,
                            counted: cell.counted,
                        })
                    })
                    .collect(),
            })
            .collect();
        Ok(SeriesExport {
            series: ExportedSeries {
                id: table.series.id,
                name: table.series.name.clone(),
                best: table.series.best,
                basis: table.series.basis.name(),
            },
            events,
            standings,
        })
    }
}

/// A series' export (`docs/series.md#exports`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesExport {
    pub series: ExportedSeries,
    /// The member events, in the series' order (the grid's columns).
    pub events: Vec<ExportedSeriesEvent>,
    pub standings: Vec<SeriesStandingExport>,
}

/// The series an export is of, with its rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedSeries {
    pub id: Uuid,
    pub name: String,
    pub best: u32,
    /// `rank-points` or `score`.
    pub basis: &'static str,
}

/// A member event: a column of the attendance grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedSeriesEvent {
    pub id: Uuid,
    /// `league` or `tournament`.
    pub kind: &'static str,
    pub name: String,
}

/// A player's line: rank, total, and a result per member event (`null`: absent).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesStandingExport {
    pub rank: u32,
    pub player: String,
    pub player_id: Uuid,
    pub total: f64,
    pub attended: u32,
    pub results: Vec<Option<SeriesResultExport>>,
}

/// A player's result in one member event.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesResultExport {
    /// The event's rank of the player.
    pub rank: u32,
    /// What it is worth in the series.
    pub points: f64,
    /// Whether it is one of the player's best N.
    pub counted: bool,
}

impl SeriesExport {
    /// The export as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("exports serialise to JSON")
    }

    /// The standings with the grid as CSV: rank, player, playerId, total, attended, then one
    /// column per member event (named by the event) holding the result's points, `*` after a
    /// counted one, empty where the player was absent.
    pub fn to_csv(&self) -> Result<String, AppError> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let mut header: Vec<String> =
            ["rank", "player", "playerId", "total", "attended"].map(str::to_owned).to_vec();
        header.extend(self.events.iter().map(|event| spreadsheet_text(&event.name)));
        writer.write_record(header).map_err(AppError::internal)?;
        for row in &self.standings {
            let mut cells = vec![
                row.rank.to_string(),
                spreadsheet_text(&row.player),
                row.player_id.to_string(),
                row.total.to_string(),
                row.attended.to_string(),
            ];
            cells.extend(row.results.iter().map(|result| match result {
                Some(result) if result.counted => format!("{}*", result.points),
                Some(result) => result.points.to_string(),
                None => String::new(),
            }));
            writer.write_record(cells).map_err(AppError::internal)?;
        }
        let bytes = writer.into_inner().map_err(AppError::internal)?;
        String::from_utf8(bytes).map_err(AppError::internal)
    }
}
