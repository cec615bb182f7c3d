//! A board's live progress (`docs/tournaments.md#live-progress`): during play a director or a
//! player seated on the board records the supply-centre counts after a game year, one per
//! seat. Recording a year again is a correction (latest wins), never an edit; a power is
//! eliminated in the first year it is counted at 0. The latest counts give each seat a
//! provisional score in the systems that can score an unfinished game, and the tournament
//! "if every board ended now" standings.

use std::collections::BTreeMap;

use league_scoring::{
    GameResult, ScoringError, YearCounts, check_year_counts, provisional_result, scores_unfinished,
};
use serde::{Deserialize, Serialize};

use super::{Board, Tournament, TournamentEvent};
use crate::error::DomainError;
use crate::ids::{Actor, BoardId, PlayerId, TournamentId, player_key};
use crate::rules::clean_reason;
use crate::scores::ScoredResult;

/// The supply-centre counts of a board after a game year, one per seat (seat 1 first), as a
/// director or a seated player recorded them; a second record of the same year corrects the
/// first, with an optional reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardProgressRecorded {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub round: u32,
    pub year: i32,
    pub centres: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub recorded_by: Actor,
}

/// A director (the tournament's organisers or the site admin) or a player seated on the board
/// records its centre counts after game year `year`, one per seat in seat order, as typed (a
/// negative count is refused after the rights); recording a year again corrects it (`reason`
/// optional).
#[derive(Debug, Clone, PartialEq)]
pub struct RecordBoardProgress {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub year: i32,
    pub centres: Vec<i32>,
    pub reason: Option<String>,
}

/// One game year of a board as it now stands: the latest record of the year, and how many
/// earlier records of it were corrected.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressYear {
    pub year: i32,
    pub centres: Vec<u32>,
    pub recorded_by: Actor,
    /// Records of this year before the latest (0: never corrected).
    pub corrections: u32,
    /// The latest correction's reason, if given.
    pub reason: Option<String>,
}

/// A board's progress: every record in log order, read as years.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoardProgress {
    records: Vec<BoardProgressRecorded>,
}

impl BoardProgress {
    /// Every record in the order it was made, corrections included.
    pub fn records(&self) -> &[BoardProgressRecorded] {
        &self.records
    }

    /// Each recorded year as it now stands, in year order.
    pub fn years(&self) -> Vec<ProgressYear> {
        let mut years: BTreeMap<i32, ProgressYear> = BTreeMap::new();
        for record in &self.records {
            let corrections = years.get(&record.year).map_or(0, |y| y.corrections + 1);
            years.insert(
                record.year,
                ProgressYear {
                    year: record.year,
                    centres: record.centres.clone(),
                    recorded_by: record.recorded_by,
                    corrections,
                    reason: record.reason.clone(),
                },
            );
        }
        years.into_values().collect()
    }

    /// The year seat `seat` (0-based) was eliminated: the first year it was counted at 0.
    pub fn eliminated_year(&self, seat: usize) -> Option<i32> {
        self.years().into_iter().find(|y| y.centres.get(seat) == Some(&0)).map(|y| y.year)
    }

    /// The board's result "if it ended now" for `seats` (`None` before any year is recorded).
    pub fn provisional_result(&self, seats: &[PlayerId]) -> Option<GameResult> {
        let years = self.years();
        let counts: Vec<YearCounts<'_>> =
            years.iter().map(|y| YearCounts { year: y.year, centres: &y.centres }).collect();
        let players: Vec<String> = seats.iter().map(|p| player_key(*p)).collect();
        provisional_result(&players, &counts)
    }
}

impl Board {
    /// The board's provisional scores under `system`, each matched to its seat: `None` when
    /// the system cannot score an unfinished game, the board is finished or no year is
    /// recorded.
    pub fn provisional(
        &self,
        tournament: &Tournament,
        system: league_scoring::ScoringSystem,
    ) -> Result<Option<ScoredResult>, DomainError> {
        if self.result.is_some() || !scores_unfinished(system) {
            return Ok(None);
        }
        let Some(result) = tournament.progress(self.id).provisional_result(&self.seats) else {
            return Ok(None);
        };
        Board { result: Some(result), ..self.clone() }.scored(system)
    }
}

impl Tournament {
    /// A board's progress (empty when nothing is recorded).
    pub fn progress(&self, board: BoardId) -> &BoardProgress {
        static EMPTY: BoardProgress = BoardProgress { records: Vec::new() };
        self.progress.get(&board).unwrap_or(&EMPTY)
    }

    /// The tournament "if every board ended now": each unfinished board with recorded
    /// progress given its provisional result (when the scoring system can score an
    /// unfinished game), so [`Tournament::standings`] of it are the provisional standings.
    pub fn as_if_every_board_ended_now(&self) -> Tournament {
        let mut provisional = self.clone();
        let Some(system) = self.settings().map(|s| s.scoring_system) else { return provisional };
        if !scores_unfinished(system) {
            return provisional;
        }
        for board in provisional.rounds.iter_mut().flat_map(|r| &mut r.boards) {
            if board.result.is_none() {
                board.result = self.progress(board.id).provisional_result(&board.seats);
            }
        }
        provisional
    }

    pub(super) fn record_progress(
        &self,
        c: &RecordBoardProgress,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let (settings, board) = self.board_for(
            c.actor,
            c.tournament_id,
            c.board_id,
            "record the progress of a board they are not seated on",
        )?;
        if !scores_unfinished(settings.scoring_system) {
            return Err(DomainError::conflict(format!(
                "{} games are not counted in supply centres: progress is recorded for \
                 Diplomacy boards",
                settings.scoring_system.info().display_name
            )));
        }
        if board.result.is_some() {
            return Err(DomainError::conflict(format!(
                "board {} is finished: its result is final (correct the result instead)",
                c.board_id
            )));
        }
        let centres = c
            .centres
            .iter()
            .enumerate()
            .map(|(seat, &count)| {
                u32::try_from(count).map_err(|_| {
                    DomainError::invalid(format!("centres[{seat}]"), "must be 0 or more")
                })
            })
            .collect::<Result<Vec<u32>, _>>()?;
        check_year_counts(c.year, &centres, board.seats.len()).map_err(progress_error)?;
        let progress = self.progress(c.board_id);
        refuse_revival(progress, c.year, &centres)?;
        let recorded = progress.years().iter().any(|y| y.year == c.year);
        let reason = match c.reason.as_deref() {
            Some(reason) if recorded => Some(clean_reason(reason)?),
            Some(_) => {
                return Err(DomainError::invalid(
                    "reason",
                    format!("{} is not recorded yet: a reason is for a correction", c.year),
                ));
            }
            None => None,
        };
        Ok(vec![TournamentEvent::BoardProgressRecorded(BoardProgressRecorded {
            tournament_id: c.tournament_id,
            board_id: c.board_id,
            round: board.round,
            year: c.year,
            centres,
            reason,
            recorded_by: c.actor,
        })])
    }

    pub(super) fn apply_progress(&mut self, e: &BoardProgressRecorded) {
        self.progress.entry(e.board_id).or_default().records.push(e.clone());
    }
}

/// A power counted at 0 in an earlier year was eliminated: it cannot hold centres later.
fn refuse_revival(progress: &BoardProgress, year: i32, centres: &[u32]) -> Result<(), DomainError> {
    for (seat, &count) in centres.iter().enumerate() {
        if count == 0 {
            continue;
        }
        if let Some(fallen) = progress.eliminated_year(seat).filter(|&fallen| fallen < year) {
            return Err(DomainError::invalid(
                format!("centres[{seat}]"),
                format!("seat {} was eliminated in {fallen}: it has no centres after", seat + 1),
            ));
        }
    }
    Ok(())
}

/// A refused count as invalid input under the command's own field names.
fn progress_error(error: ScoringError) -> DomainError {
    let field = error.field().to_owned();
    let message = match error {
        ScoringError::Invalid { message, .. } | ScoringError::Impossible { message, .. } => message,
        other => other.to_string(),
    };
    DomainError::invalid(field, message)
}
