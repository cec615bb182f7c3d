//! Exports of a competition (`docs/feeds.md#exports`): its standings and every finished
//! game's (or board's) result and scores, built once here as typed rows and written as JSON
//! (both tables) or CSV (one table). GraphQL and the HTTP download routes serve these same
//! bytes.
//!
//! A result row is one seat of one game: the seat (the power in Diplomacy), the player, what
//! the result says of them (centres for Diplomacy, points for placement and team games, the
//! side for team games), their finishing position in the game and their score. For a
//! Diplomacy competition the CSV has the columns a world rating database imports: round,
//! board, power, player, centres, rank, score.

use league_domain::{PlayerId, ScoredResult, WDR, player_key};
use league_scoring::{GameResult, ResultKind, ScoringSystem, TieBreak, score_game_unexplained};
use serde::Serialize;
use uuid::Uuid;

use crate::app::App;
use crate::error::AppError;

/// The kinds of competition that export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompetitionKind {
    League,
    Tournament,
}

/// Which table a CSV export holds (a JSON export holds both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExportTable {
    /// One row per seat of every finished game or board.
    #[default]
    Results,
    /// One row per player, best first.
    Standings,
    /// A tournament's team standings, one row per team, best first
    /// (`docs/tournaments.md#teams`).
    Teams,
}

impl ExportTable {
    pub fn name(self) -> &'static str {
        match self {
            ExportTable::Results => "results",
            ExportTable::Standings => "standings",
            ExportTable::Teams => "teams",
        }
    }
}

/// A competition's export: what it is, its standings and its results.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompetitionExport {
    pub competition: ExportedCompetition,
    pub standings: Vec<StandingExport>,
    pub results: Vec<ResultExport>,
    /// A tournament's named awards standing, in the order given
    /// (`docs/tournaments.md#best-country-and-awards`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub awards: Vec<AwardExport>,
    /// A tournament's Best Country leaders over the boards finished so far, power by power.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub best_countries: Vec<BestCountryExport>,
    /// A tournament's team standings (`docs/tournaments.md#teams`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<crate::teams::TeamStandingExport>,
    /// A tournament's rounds that have a pool or their own scoring system
    /// (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub round_stages: Vec<crate::pool_exports::RoundStageExport>,
}

/// A named award of a tournament.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AwardExport {
    pub number: u32,
    pub name: String,
    pub player: String,
    pub player_id: Uuid,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A result leading a power's Best Country (several when level: `tied`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BestCountryExport {
    pub power: String,
    pub player: String,
    pub player_id: Uuid,
    pub round: u32,
    pub board: u32,
    pub score: f64,
    pub centres: u32,
    pub tied: bool,
}

/// The competition an export is of.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedCompetition {
    /// `league` or `tournament`.
    pub kind: &'static str,
    pub id: Uuid,
    pub name: String,
    pub game: String,
    /// The scoring system's name (`docs/scoring.md`).
    pub scoring_system: String,
    /// `OPEN`, `RUNNING` or `COMPLETED`.
    pub status: String,
    #[serde(skip)]
    result_kind: Option<ResultKind>,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StandingExport {
    pub rank: u32,
    pub player: String,
    pub player_id: Uuid,
    pub total: f64,
    /// Games (boards) played.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    /// The tie-breaker that split the line from a neighbour level on total, in words
    /// ("more wins"); null when the total alone ranks it.
    pub separated_by: Option<&'static str>,
    /// A tournament entrant's awards: each named award's name, then "Best <power>" for each
    /// power whose Best Country they lead.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub awards: Vec<String>,
    /// A tournament entrant's team, when the tournament has teams.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// A tournament entrant's pools ("round 4 pool ×1.5") and a place a pool decided.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pools: Vec<String>,
    /// A tournament entrant listed without a rank (`rank` 0; `docs/tournaments.md#rulings`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unranked: bool,
    /// The rulings on a tournament entrant's line in words, e.g. "penalty -5 (round 1,
    /// board 2): late to the board".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<String>,
    /// A tournament entrant's World Diplomacy Reference id, when one was recorded
    /// (`docs/feeds.md#exports`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdr: Option<String>,
}

/// One seat of a finished game or board.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultExport {
    /// The tournament round (absent for a league game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The league game's number, or the board's number in its round.
    pub game: u32,
    pub game_id: Uuid,
    /// The seat's label: the power in Diplomacy.
    pub seat: String,
    pub player: String,
    pub player_id: Uuid,
    /// Supply centres at the end (Diplomacy).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub centres: Option<u32>,
    /// Points as reported (placement and team games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
    /// The player's side (team games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Finishing position in the game (players level share the best one).
    pub rank: u32,
    /// The competition's score for the game.
    pub score: f64,
    /// Each correction's reason, oldest first, when the tournament board's result was
    /// corrected (`docs/feeds.md#exports`); empty otherwise, and for league games.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<String>,
    /// The tournament player's World Diplomacy Reference id, when one was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdr: Option<String>,
}

/// A finished game as the export needs it: where it was played, its seats and its result.
struct FinishedGame<'a> {
    round: Option<u32>,
    number: u32,
    id: Uuid,
    /// Each seat's label and player, in seat order.
    seats: Vec<(String, Uuid)>,
    result: &'a GameResult,
    /// Each correction's reason, oldest first (tournament boards).
    corrections: &'a [String],
}

impl App {
    /// A league's export (`NOT_FOUND` if there is no such league).
    pub async fn league_export(&self, id: Uuid) -> Result<CompetitionExport, AppError> {
        let model = self.existing_league(id).await?;
        let view = model.league(id).ok_or_else(|| AppError::NotFound(format!("league {id}")))?;
        let settings = &view.settings;
        let system = settings.scoring_system;
        let mut results = Vec::new();
        for game in model.games_of(id) {
            let Some(result) = &game.result else { continue };
            let seats = game.seats.iter().map(|s| (s.label.to_string(), s.player)).collect();
            let game = FinishedGame {
                round: None,
                number: game.number,
                id: game.id,
                seats,
                result,
                corrections: &[],
            };
            results.extend(self.result_rows(system, &game)?);
        }
        let standings = model
            .standings(id)
            .into_iter()
            .map(|r| {
                let counts = [r.played, r.wins, r.draws];
                self.standing(r.rank, r.player.into(), r.total, counts, r.separated_by)
            })
            .collect();
        Ok(CompetitionExport {
            competition: ExportedCompetition {
                kind: "league",
                id,
                name: settings.name.clone(),
                game: settings.game.clone(),
                scoring_system: system.name().to_owned(),
                status: status_name(&view.status),
                result_kind: Some(system.result_kind()),
            },
            standings,
            results,
            awards: Vec::new(),
            best_countries: Vec::new(),
            teams: Vec::new(),
            round_stages: Vec::new(),
        })
    }

    /// A tournament's export (`NOT_FOUND` if there is no such tournament).
    pub async fn tournament_export(&self, id: Uuid) -> Result<CompetitionExport, AppError> {
        let tournament = self.existing_tournament(id).await?;
        let settings =
            tournament.settings().ok_or_else(|| AppError::NotFound(format!("tournament {id}")))?;
        let system = settings.scoring_system;
        let labels = tournament.seat_labels();
        let mut results = Vec::new();
        for board in tournament.boards() {
            let Some(result) = &board.result else { continue };
            let seats = board
                .seats
                .iter()
                .enumerate()
                .map(|(seat, player)| {
                    (labels.get(seat).cloned().unwrap_or_default(), player.uuid())
                })
                .collect();
            let game = FinishedGame {
                round: Some(board.round),
                number: board.number,
                id: board.id.into(),
                seats,
                result,
                corrections: &board.correction_reasons,
            };
            results.extend(self.result_rows(tournament.board_system(board), &game)?);
        }
        let awards: Vec<AwardExport> = tournament
            .awards()
            .map(|a| AwardExport {
                number: a.award,
                name: a.name.clone(),
                player: self.player_name(a.player_id.uuid()),
                player_id: a.player_id.uuid(),
                power: a.power.clone(),
                reason: a.reason.clone(),
            })
            .collect();
        let best_countries: Vec<BestCountryExport> = tournament
            .best_countries()?
            .into_iter()
            .flat_map(|power| power.leaders.into_iter().map(move |l| (power.power.clone(), l)))
            .map(|(power, l)| BestCountryExport {
                power,
                player: self.player_name(l.player.uuid()),
                player_id: l.player.uuid(),
                round: l.round,
                board: l.board_number,
                score: l.score,
                centres: l.centres,
                tied: l.tied,
            })
            .collect();
        let entrants: Vec<Uuid> = tournament.entrants().iter().map(|e| e.player.uuid()).collect();
        let wdr_ids = self.external_ids(&entrants).await?;
        let wdr = |player: Uuid| wdr_ids.get(&player).and_then(|ids| ids.get(WDR)).cloned();
        for row in &mut results {
            row.wdr = wdr(row.player_id);
        }
        let standings = tournament
            .standings(None)?
            .into_iter()
            .map(|r| {
                let counts = [r.games, r.wins, r.draws];
                let mut line =
                    self.standing(r.rank, r.player.into(), r.total, counts, r.separated_by);
                let player = line.player_id;
                line.awards = (awards.iter().filter(|a| a.player_id == player))
                    .map(|a| a.name.clone())
                    .chain(
                        (best_countries.iter().filter(|b| b.player_id == player))
                            .map(|b| format!("Best {}", b.power)),
                    )
                    .collect();
                line.team = tournament.team_of(player.into()).map(|t| t.name.clone());
                line.pools = crate::pool_exports::pool_marks(&r.notes);
                line.unranked = r.unranked;
                line.rulings =
                    tournament.rulings_on(r.player).iter().map(|l| l.describe()).collect();
                line.wdr = wdr(player);
                line
            })
            .collect();
        let teams = self.team_exports(&tournament)?;
        Ok(CompetitionExport {
            competition: ExportedCompetition {
                kind: "tournament",
                id,
                name: settings.name.clone(),
                game: settings.game.clone(),
                scoring_system: system.name().to_owned(),
                status: tournament.status().map(|s| status_name(&s)).unwrap_or_default(),
                result_kind: Some(system.result_kind()),
            },
            standings,
            results,
            awards,
            best_countries,
            teams,
            round_stages: crate::pool_exports::round_stages(&tournament),
        })
    }

    /// A competition's export (`NOT_FOUND` if there is no such competition of that kind).
    pub async fn competition_export(
        &self,
        kind: CompetitionKind,
        id: Uuid,
    ) -> Result<CompetitionExport, AppError> {
        match kind {
            CompetitionKind::League => self.league_export(id).await,
            CompetitionKind::Tournament => self.tournament_export(id).await,
        }
    }

    /// A line of the standings: rank, player, total, `[games, wins, draws]` and the
    /// tie-breaker that split it from a neighbour.
    fn standing(
        &self,
        rank: u32,
        player: Uuid,
        total: f64,
        counts: [u32; 3],
        separated_by: Option<TieBreak>,
    ) -> StandingExport {
        let [games, wins, draws] = counts;
        StandingExport {
            rank,
            player: self.player_name(player),
            player_id: player,
            total,
            games,
            wins,
            draws,
            separated_by: separated_by.map(TieBreak::label),
            awards: Vec::new(),
            team: None,
            pools: Vec::new(),
            unranked: false,
            rulings: Vec::new(),
            wdr: None,
        }
    }

    pub(crate) fn player_name(&self, player: Uuid) -> String {
        self.catalog().player(player).map(|p| p.name.clone()).unwrap_or_default()
    }

    /// One row per seat of a finished game, in seat order, scored under `system`.
    fn result_rows(
        &self,
        system: ScoringSystem,
        game: &FinishedGame<'_>,
    ) -> Result<Vec<ResultExport>, AppError> {
        let scored = score_game_unexplained(system, game.result)
            .map_err(|error| AppError::internal(format!("game {}: {error}", game.id)))?;
        let scored =
            ScoredResult::new(scored, game.seats.iter().map(|(_, player)| PlayerId::from(*player)))
                .map_err(|error| AppError::internal(format!("game {}: {error}", game.id)))?;
        let mut rows = Vec::with_capacity(game.seats.len());
        for (label, player) in &game.seats {
            let Some(row) = scored.of((*player).into()) else { continue };
            let key = player_key((*player).into());
            let (centres, points, side) = reported(game.result, &key);
            rows.push(ResultExport {
                round: game.round,
                game: game.number,
                game_id: game.id,
                seat: label.clone(),
                player: self.player_name(*player),
                player_id: *player,
                centres,
                points,
                side,
                rank: row.position,
                score: row.score,
                corrections: game.corrections.to_vec(),
                wdr: None,
            });
        }
        Ok(rows)
    }
}

/// What a result says of the player with `key`: centres, points and side.
fn reported(result: &GameResult, key: &str) -> (Option<u32>, Option<f64>, Option<String>) {
    match result {
        GameResult::Diplomacy(entries) => {
            (entries.iter().find(|e| e.player == key).map(|e| e.centres), None, None)
        }
        GameResult::Placement(entries) => {
            (None, entries.iter().find(|e| e.player == key).map(|e| e.points), None)
        }
        GameResult::Teams(teams) => teams
            .sides
            .iter()
            .find_map(|side| {
                side.players
                    .iter()
                    .find(|p| p.player == key)
                    .map(|p| (None, Some(p.points), Some(side.name.clone())))
            })
            .unwrap_or_default(),
    }
}

/// A status as the API spells it (`RUNNING`).
fn status_name(status: &impl Serialize) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_default()
}

impl CompetitionExport {
    /// Both tables as pretty JSON.
    pub fn to_json(&self) -> String {
        // Strings, numbers and UUIDs always serialise.
        serde_json::to_string_pretty(self).expect("exports serialise to JSON")
    }

    /// One table as CSV with a header line.
    pub fn to_csv(&self, table: ExportTable) -> Result<String, AppError> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let write = |writer: &mut csv::Writer<Vec<u8>>, record: Vec<String>| {
            writer.write_record(record).map_err(AppError::internal)
        };
        match table {
            ExportTable::Standings => {
                let tournament = self.competition.kind == "tournament";
                let mut header = [
                    "rank",
                    "player",
                    "playerId",
                    "total",
                    "games",
                    "wins",
                    "draws",
                    "separatedBy",
                ]
                .map(str::to_owned)
                .to_vec();
                if tournament {
                    header.push("awards".into());
                    header.push("pools".into());
                    header.push("rulings".into());
                }
                let teams = !self.teams.is_empty();
                if teams {
                    header.push("team".into());
                }
                let wdr = self.has_wdr();
                if wdr {
                    header.push(WDR.into());
                }
                write(&mut writer, header)?;
                for s in &self.standings {
                    let cells = [
                        if s.unranked { String::new() } else { s.rank.to_string() },
                        spreadsheet_text(&s.player),
                        s.player_id.to_string(),
                        s.total.to_string(),
                        s.games.to_string(),
                        s.wins.to_string(),
                        s.draws.to_string(),
                        s.separated_by.unwrap_or_default().to_owned(),
                    ];
                    let mut cells = cells.to_vec();
                    if tournament {
                        cells.push(spreadsheet_text(&s.awards.join("; ")));
                        cells.push(spreadsheet_text(&s.pools.join("; ")));
                        cells.push(spreadsheet_text(&s.rulings.join("; ")));
                    }
                    if teams {
                        cells.push(spreadsheet_text(s.team.as_deref().unwrap_or_default()));
                    }
                    if wdr {
                        cells.push(s.wdr.clone().unwrap_or_default());
                    }
                    write(&mut writer, cells)?;
                }
            }
            ExportTable::Teams => {
                for row in crate::teams::team_rows(&self.teams) {
                    write(&mut writer, row)?;
                }
            }
            ExportTable::Results => {
                let columns = self.result_columns();
                write(&mut writer, columns.iter().map(|c| c.header(self).to_owned()).collect())?;
                for row in &self.results {
                    write(&mut writer, columns.iter().map(|c| c.cell(row)).collect())?;
                }
            }
        }
        let bytes = writer.into_inner().map_err(AppError::internal)?;
        String::from_utf8(bytes).map_err(AppError::internal)
    }

    /// The results table's columns for this competition's result shape.
    fn result_columns(&self) -> Vec<Column> {
        use Column::*;
        let mut columns = Vec::new();
        let tournament = self.competition.kind == "tournament";
        if tournament {
            columns.push(Round);
        }
        columns.push(Game);
        columns.extend(match self.competition.result_kind {
            Some(ResultKind::Diplomacy) => vec![Seat, Player, PlayerId, Centres],
            Some(ResultKind::Teams) => vec![Seat, Side, Player, PlayerId, Points],
            Some(ResultKind::Placement) | None => vec![Seat, Player, PlayerId, Points],
        });
        columns.extend([Rank, Score]);
        if tournament {
            columns.push(Corrections);
        }
        if self.has_wdr() {
            columns.push(Wdr);
        }
        columns
    }

    /// Whether some entrant has a World Diplomacy Reference id: only then do the CSV tables
    /// end with a `wdr` column (`docs/feeds.md#exports`).
    fn has_wdr(&self) -> bool {
        self.standings.iter().any(|s| s.wdr.is_some())
            || self.results.iter().any(|r| r.wdr.is_some())
    }

    /// A download's file name: the competition's name in lower case with dashes, then the
    /// table (CSV), e.g. `autumn-cup-results.csv` or `autumn-cup.json`.
    pub fn file_name(&self, table: Option<ExportTable>) -> String {
        let mut slug = String::new();
        for c in self.competition.name.chars().flat_map(char::to_lowercase) {
            if c.is_ascii_alphanumeric() {
                slug.push(c);
            } else if !slug.ends_with('-') {
                slug.push('-');
            }
        }
        let slug = match slug.trim_matches('-') {
            "" => self.competition.kind,
            trimmed => trimmed,
        };
        match table {
            Some(table) => format!("{slug}-{}.csv", table.name()),
            None => format!("{slug}.json"),
        }
    }
}

/// A text cell of a CSV export (a name, a seat, a side: text people chose) as a spreadsheet
/// takes it literally: one starting with `=`, `+`, `-`, `@`, a tab or a carriage return
/// would be read as a formula (CSV injection; OWASP's list), so it gets a leading `'`,
/// so the cell reads as text (the quote shows). Numbers are written by the export itself and
/// never pass here, so a negative score stays a number (`docs/feeds.md#exports`).
pub(crate) fn spreadsheet_text(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// A column of the results CSV.
#[derive(Debug, Clone, Copy)]
enum Column {
    Round,
    Game,
    Seat,
    Side,
    Player,
    PlayerId,
    Centres,
    Points,
    Rank,
    Score,
    Corrections,
    Wdr,
}

impl Column {
    /// The header: tournaments play boards, Diplomacy seats are powers.
    fn header(self, export: &CompetitionExport) -> &'static str {
        let tournament = export.competition.kind == "tournament";
        let diplomacy = export.competition.result_kind == Some(ResultKind::Diplomacy);
        match self {
            Column::Round => "round",
            Column::Game if tournament => "board",
            Column::Game => "game",
            Column::Seat if diplomacy => "power",
            Column::Seat => "seat",
            Column::Side => "side",
            Column::Player => "player",
            Column::PlayerId => "playerId",
            Column::Centres => "centres",
            Column::Points => "points",
            Column::Rank => "rank",
            Column::Score => "score",
            Column::Corrections => "corrections",
            Column::Wdr => WDR,
        }
    }

    fn cell(self, row: &ResultExport) -> String {
        let optional = |value: Option<String>| value.unwrap_or_default();
        match self {
            Column::Round => optional(row.round.map(|r| r.to_string())),
            Column::Game => row.game.to_string(),
            Column::Seat => spreadsheet_text(&row.seat),
            Column::Side => optional(row.side.as_deref().map(spreadsheet_text)),
            Column::Player => spreadsheet_text(&row.player),
            Column::PlayerId => row.player_id.to_string(),
            Column::Centres => optional(row.centres.map(|c| c.to_string())),
            Column::Points => optional(row.points.map(|p| p.to_string())),
            Column::Rank => row.rank.to_string(),
            Column::Score => row.score.to_string(),
            // One cell: the reasons in order, each text as typed (so no formulas).
            Column::Corrections => spreadsheet_text(&row.corrections.join("; ")),
            // A positive number, checked when recorded.
            Column::Wdr => optional(row.wdr.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(kind: &'static str, result_kind: ResultKind) -> CompetitionExport {
        let player_id = Uuid::from_u128(1);
        CompetitionExport {
            competition: ExportedCompetition {
                kind,
                id: Uuid::from_u128(9),
                name: "Autumn Cup, 2026!".into(),
                game: "Diplomacy".into(),
                scoring_system: "squares".into(),
                status: "RUNNING".into(),
                result_kind: Some(result_kind),
            },
            standings: vec![StandingExport {
                rank: 1,
                player: "Ada \"the\" Great".into(),
                player_id,
                total: 33.5,
                games: 1,
                wins: 0,
                draws: 1,
                separated_by: Some("more draws"),
                awards: if kind == "tournament" {
                    vec!["Best Diplomat".into(), "Best France".into()]
                } else {
                    Vec::new()
                },
                team: None,
                pools: Vec::new(),
                unranked: false,
                rulings: if kind == "tournament" {
                    vec!["penalty -5 (round 1, board 1): late".into()]
                } else {
                    Vec::new()
                },
                wdr: None,
            }],
            results: vec![ResultExport {
                round: (kind == "tournament").then_some(2),
                game: 1,
                game_id: Uuid::from_u128(5),
                seat: "France".into(),
                player: "Ada \"the\" Great".into(),
                player_id,
                centres: Some(12),
                points: None,
                side: None,
                rank: 1,
                score: 33.5,
                corrections: Vec::new(),
                wdr: None,
            }],
            awards: Vec::new(),
            best_countries: Vec::new(),
            teams: Vec::new(),
            round_stages: Vec::new(),
        }
    }

    #[test]
    fn a_wdr_column_ends_both_tables_only_when_some_entrant_has_an_id() {
        let mut export = export("tournament", ResultKind::Diplomacy);
        let without = export.to_csv(ExportTable::Results).unwrap();
        assert!(!without.lines().next().unwrap().contains("wdr"), "{without}");
        assert!(!export.to_json().contains("wdr"));
        export.standings[0].wdr = Some("1234".into());
        export.results[0].wdr = Some("1234".into());
        let results = export.to_csv(ExportTable::Results).unwrap();
        let header = results.lines().next().unwrap();
        assert_eq!(header, format!("{},wdr", without.lines().next().unwrap()));
        assert!(results.lines().nth(1).unwrap().ends_with(",1234"), "{results}");
        let standings = export.to_csv(ExportTable::Standings).unwrap();
        assert!(standings.lines().next().unwrap().ends_with(",rulings,wdr"), "{standings}");
        assert!(standings.lines().nth(1).unwrap().ends_with(",1234"), "{standings}");
        assert!(export.to_json().contains("\"wdr\": \"1234\""));
    }

    #[test]
    fn a_tournament_with_teams_has_a_team_column_and_a_team_table() {
        let mut export = export("tournament", ResultKind::Diplomacy);
        export.standings[0].team = Some("=North".into());
        export.teams = vec![crate::teams::TeamStandingExport {
            rank: 1,
            team: 1,
            name: "=North".into(),
            total: 33.5,
            members: vec!["Ada \"the\" Great".into()],
            member_ids: vec![export.standings[0].player_id],
            counted: 1,
        }];
        let standings = export.to_csv(ExportTable::Standings).unwrap();
        assert!(
            standings.lines().next().unwrap().ends_with(",awards,pools,rulings,team"),
            "{standings}"
        );
        assert!(standings.lines().nth(1).unwrap().ends_with(",'=North"), "{standings}");
        let teams = export.to_csv(ExportTable::Teams).unwrap();
        assert_eq!(
            teams,
            "rank,team,total,counted,members\n1,'=North,33.5,1,\"Ada \"\"the\"\" Great\"\n"
        );
    }

    #[test]
    fn a_tournament_s_standings_end_with_each_entrant_s_awards() {
        let csv =
            export("tournament", ResultKind::Diplomacy).to_csv(ExportTable::Standings).unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("rank,player,playerId,total,games,wins,draws,separatedBy,awards,pools,rulings")
        );
        let line = lines.next().unwrap();
        assert!(
            line.ends_with(
                ",more draws,Best Diplomat; Best France,,\"penalty -5 (round 1, board 1): late\""
            ),
            "{csv}"
        );
    }

    /// An unranked entrant's rank cell is empty (`docs/tournaments.md#rulings`).
    #[test]
    fn an_unranked_entrant_has_no_rank_in_the_csv() {
        let mut export = export("tournament", ResultKind::Diplomacy);
        export.standings[0].unranked = true;
        let csv = export.to_csv(ExportTable::Standings).unwrap();
        assert!(csv.lines().nth(1).unwrap().starts_with(",\"Ada"), "{csv}");
    }

    #[test]
    fn a_diplomacy_tournament_has_the_rating_database_columns() {
        let csv = export("tournament", ResultKind::Diplomacy).to_csv(ExportTable::Results).unwrap();
        let id = Uuid::from_u128(1);
        assert_eq!(
            csv,
            format!(
                "round,board,power,player,playerId,centres,rank,score,corrections\n\
                 2,1,France,\"Ada \"\"the\"\" Great\",{id},12,1,33.5,\n"
            )
        );
        let league = export("league", ResultKind::Placement).to_csv(ExportTable::Results).unwrap();
        assert!(league.starts_with("game,seat,player,playerId,points,rank,score\n"), "{league}");
    }

    /// A corrected board's rows carry its reasons, oldest first: one CSV cell, a JSON list;
    /// an uncorrected one has an empty cell and no key.
    #[test]
    fn a_corrected_board_carries_its_reasons() {
        let mut export = export("tournament", ResultKind::Diplomacy);
        let json: serde_json::Value = serde_json::from_str(&export.to_json()).unwrap();
        assert!(json["results"][0].get("corrections").is_none());
        export.results[0].corrections = vec!["-France had 12".into(), "recount".into()];
        let csv = export.to_csv(ExportTable::Results).unwrap();
        assert!(csv.lines().nth(1).unwrap().ends_with(",33.5,'-France had 12; recount"), "{csv}");
        let json: serde_json::Value = serde_json::from_str(&export.to_json()).unwrap();
        assert_eq!(
            json["results"][0]["corrections"],
            serde_json::json!(["-France had 12", "recount"])
        );
    }

    #[test]
    fn standings_and_json_hold_every_line() {
        let export = export("league", ResultKind::Diplomacy);
        let csv = export.to_csv(ExportTable::Standings).unwrap();
        assert_eq!(
            csv.lines().next(),
            Some("rank,player,playerId,total,games,wins,draws,separatedBy")
        );
        assert_eq!(csv.lines().count(), 2);
        let json: serde_json::Value = serde_json::from_str(&export.to_json()).unwrap();
        assert_eq!(json["competition"]["kind"], "league");
        assert_eq!(json["results"][0]["centres"], 12);
        assert!(json["results"][0].get("round").is_none());
        assert_eq!(json["standings"][0]["total"], 33.5);
        assert_eq!(json["standings"][0]["separatedBy"], "more draws");
        assert_eq!(csv.lines().nth(1).map(|line| line.ends_with(",1,more draws")), Some(true));
    }

    /// Names, seats and sides a reporter typed must not become formulas in the organiser's
    /// spreadsheet; numbers (a negative score too) stay numbers and JSON keeps the text.
    #[test]
    fn csv_text_cells_cannot_be_formulas() {
        let mut export = export("league", ResultKind::Teams);
        let hyperlink = r#"=HYPERLINK("http://x","y")"#;
        let row = &mut export.results[0];
        row.seat = "-Seat".into();
        row.side = Some(hyperlink.into());
        row.player = "@SUM(A1)".into();
        row.points = Some(-3.5);
        row.score = -3.5;
        export.standings[0].player = "+Ann".into();
        export.standings[0].total = -3.5;
        let results = export.to_csv(ExportTable::Results).unwrap();
        let id = Uuid::from_u128(1);
        assert_eq!(
            results.lines().nth(1),
            Some(
                format!(r#"1,'-Seat,"'=HYPERLINK(""http://x"",""y"")",'@SUM(A1),{id},-3.5,1,-3.5"#)
                    .as_str()
            )
        );
        let standings = export.to_csv(ExportTable::Standings).unwrap();
        assert_eq!(
            standings.lines().nth(1),
            Some(format!("1,'+Ann,{id},-3.5,1,0,1,more draws").as_str())
        );
        for cell in ["\tTab", "\rReturn", "=1+1"] {
            assert_eq!(spreadsheet_text(cell), format!("'{cell}"));
        }
        for cell in ["Ann", "O'Neil", "a=b", " =1", ""] {
            assert_eq!(spreadsheet_text(cell), cell);
        }
        let json: serde_json::Value = serde_json::from_str(&export.to_json()).unwrap();
        assert_eq!(json["results"][0]["side"], hyperlink);
        assert_eq!(json["results"][0]["player"], "@SUM(A1)");
    }

    #[test]
    fn file_names_are_slugs_of_the_competition() {
        let export = export("league", ResultKind::Diplomacy);
        assert_eq!(export.file_name(Some(ExportTable::Results)), "autumn-cup-2026-results.csv");
        assert_eq!(export.file_name(None), "autumn-cup-2026.json");
    }
}
