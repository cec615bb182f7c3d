//! Result confirmation (`docs/tournaments.md#result-confirmation`): in a tournament that asks
//! for it, a result a seated player reports waits until another player of that board or a
//! director confirms it; a player of the board may dispute it instead, and a director's own
//! report replaces it. Until confirmed it is not the board's result, so the standings do not
//! count it. The payloads, commands and decisions live here; the event list is the room's.

use league_scoring::GameResult;
use serde::{Deserialize, Serialize};

use super::events::{BoardFinished, TournamentEvent};
use super::settings::Replacement;
use super::{Board, Tournament};
use crate::error::DomainError;
use crate::ids::{Actor, BoardId, TournamentId};
use crate::rules::clean_reason;

/// A seated player reported a board's result in a tournament whose player reports need
/// confirming: it waits for another player of the board or a director.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardResultAwaitingConfirmation {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub result: GameResult,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<Replacement>,
    pub reported_by: Actor,
}

/// A player of the board disputed the result awaiting confirmation, with the reason: only a
/// director may now confirm it or report the board's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardResultDisputed {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub reason: String,
    pub disputed_by: Actor,
}

/// A result reported and not yet confirmed, as the board holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingResult {
    pub result: GameResult,
    pub replacements: Vec<Replacement>,
    pub reported_by: Actor,
    /// Who disputed it and why, if anyone did.
    pub dispute: Option<(Actor, String)>,
}

/// Another player of the board, or one of the tournament's organisers (or the site admin),
/// confirms the result awaiting confirmation: it becomes the board's result.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfirmBoardResult {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
}

/// Another player of the board disputes the result awaiting confirmation, giving a reason.
#[derive(Debug, Clone, PartialEq)]
pub struct DisputeBoardResult {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub reason: String,
}

impl Tournament {
    /// Whether `actor` directs the tournament (one of its organisers, or the site admin).
    pub(super) fn directs(&self, actor: Actor, tournament: TournamentId) -> bool {
        self.authorise(actor, tournament, "direct the tournament").is_ok()
    }

    /// Whether a report by `actor` waits for confirmation: the tournament asks for it and the
    /// reporter is a player of the board, not a director.
    pub(super) fn report_awaits_confirmation(
        &self,
        actor: Actor,
        tournament: TournamentId,
    ) -> bool {
        self.settings().is_some_and(|s| s.confirm_player_results)
            && !self.directs(actor, tournament)
    }

    /// The board a confirmation or dispute is about, once `actor` is known to be allowed
    /// (seated on it or directing the tournament), with its pending result.
    fn pending_of(
        &self,
        actor: Actor,
        tournament: TournamentId,
        board_id: BoardId,
        right: &str,
    ) -> Result<(&Board, &PendingResult, bool), DomainError> {
        self.created(tournament)?;
        let board = self.board(board_id).ok_or(DomainError::BoardNotFound(board_id))?;
        let seated = actor.player_id().is_some_and(|p| board.is_seated(p));
        let director = self.directs(actor, tournament);
        if !seated && !director {
            self.authorise(actor, tournament, right)?;
        }
        let pending = board.pending.as_ref().ok_or_else(|| {
            DomainError::conflict(format!("board {board_id} has no result awaiting confirmation"))
        })?;
        if pending.reported_by == actor && !director {
            return Err(DomainError::conflict(
                "another player of the board or a director must confirm or dispute your report",
            ));
        }
        Ok((board, pending, director))
    }

    pub(super) fn confirm(
        &self,
        c: &ConfirmBoardResult,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let right = "confirm the result of a board they are not seated on";
        let (board, pending, director) =
            self.pending_of(c.actor, c.tournament_id, c.board_id, right)?;
        if pending.dispute.is_some() && !director {
            return Err(DomainError::conflict(
                "the result is disputed: a director confirms it or reports the board's result",
            ));
        }
        let finished = BoardFinished {
            tournament_id: c.tournament_id,
            board_id: c.board_id,
            result: pending.result.clone(),
            replacements: pending.replacements.clone(),
            reported_by: pending.reported_by,
            confirmed_by: Some(c.actor),
        };
        Ok(self.finishing(board, finished))
    }

    pub(super) fn dispute(
        &self,
        c: &DisputeBoardResult,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let right = "dispute the result of a board they are not seated on";
        let (_, pending, _) = self.pending_of(c.actor, c.tournament_id, c.board_id, right)?;
        let reason = clean_reason(&c.reason)?;
        if pending.dispute.is_some() {
            return Err(DomainError::conflict("the result is already disputed"));
        }
        Ok(vec![TournamentEvent::BoardResultDisputed(BoardResultDisputed {
            tournament_id: c.tournament_id,
            board_id: c.board_id,
            reason,
            disputed_by: c.actor,
        })])
    }
}
