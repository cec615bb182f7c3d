//! Rulings (`docs/tournaments.md#rulings`): what a tournament's directors decide beyond the
//! boards' results, each an event with its reason. Score adjustments (a penalty or a bonus on
//! one player's board, round or tournament score, revocable), handicaps (a player's starting
//! points, set before round 1), unranked entrants (they play, are listed without a rank and are
//! never ranked or awarded), keep-apart pairs added and removed before the seedings that use
//! them, and a director's order for players level on a top board. The payloads, commands and
//! decisions live here; the event list is the room's, the ranking the scoring crate's
//! ([`league_scoring::Rulings`]).

use std::collections::BTreeMap;

use league_scoring::{RoundPoints, Rulings as RankingRulings, ScoredGame, TotalPoints};
use serde::{Deserialize, Serialize};

use super::awards::optional_reason;
use super::{Tournament, TournamentEvent};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, BoardId, PlayerId, TournamentId};
use crate::rules::clean_reason;

/// The largest adjustment or handicap, either way, in points.
pub const MAX_RULING_POINTS: f64 = 10_000.0;

/// What a score adjustment changes: one player's score on a board, in a round, or their
/// tournament total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "level", rename_all = "camelCase")]
pub enum AdjustmentTarget {
    Board {
        #[serde(rename = "boardId")]
        board_id: BoardId,
    },
    Round {
        round: u32,
    },
    Tournament,
}

/// A director added `points` (negative: a penalty) to a player's score, with the reason;
/// adjustments are numbered 1, 2, … in the order given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreAdjusted {
    pub tournament_id: TournamentId,
    pub adjustment: u32,
    pub player_id: PlayerId,
    pub target: AdjustmentTarget,
    pub points: f64,
    pub reason: String,
    pub adjusted_by: Actor,
}

/// A director revoked adjustment number `adjustment`, optionally with a reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreAdjustmentRevoked {
    pub tournament_id: TournamentId,
    pub adjustment: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub revoked_by: Actor,
}

/// A director set a player's handicap (0: none), before round 1 was seeded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HandicapSet {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub points: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub set_by: Actor,
}

/// A director marked an entrant unranked (or ranked again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EntrantRankingChanged {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub unranked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub changed_by: Actor,
}

/// Two players are kept apart by the seedings from now on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeepApartAdded {
    pub tournament_id: TournamentId,
    pub first: PlayerId,
    pub second: PlayerId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub added_by: Actor,
}

/// Two players are no longer kept apart by the seedings from now on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeepApartRemoved {
    pub tournament_id: TournamentId,
    pub first: PlayerId,
    pub second: PlayerId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub removed_by: Actor,
}

/// A director's order (first ahead) for players of round `round`'s top board, used between
/// them when their totals are level; the latest order of a round replaces the one before.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopBoardTieBroken {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub order: Vec<PlayerId>,
    pub reason: String,
    pub broken_by: Actor,
}

/// One of the tournament's organisers (or the site admin) adjusts a player's score.
#[derive(Debug, Clone, PartialEq)]
pub struct AdjustScore {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub target: AdjustmentTarget,
    pub points: f64,
    pub reason: String,
}

/// One of the tournament's organisers (or the site admin) revokes an adjustment still standing.
#[derive(Debug, Clone, PartialEq)]
pub struct RevokeScoreAdjustment {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub adjustment: u32,
    pub reason: Option<String>,
}

/// One of the tournament's organisers (or the site admin) sets an entrant's handicap.
#[derive(Debug, Clone, PartialEq)]
pub struct SetHandicap {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub points: f64,
    pub reason: Option<String>,
}

/// One of the tournament's organisers (or the site admin) marks an entrant unranked or ranked.
#[derive(Debug, Clone, PartialEq)]
pub struct SetUnranked {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub unranked: bool,
    pub reason: Option<String>,
}

/// One of the tournament's organisers (or the site admin) adds (`keep: true`) or removes a
/// keep-apart pair.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeKeepApart {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub first: PlayerId,
    pub second: PlayerId,
    pub keep: bool,
    pub reason: Option<String>,
}

/// One of the tournament's organisers (or the site admin) orders players of a top board.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakTopBoardTie {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
    pub order: Vec<PlayerId>,
    pub reason: String,
}

/// An adjustment as given, and whether it was revoked since.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjustment {
    pub given: ScoreAdjusted,
    pub revoked: Option<ScoreAdjustmentRevoked>,
}

/// A player's handicap and its reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Handicap {
    pub points: f64,
    pub reason: Option<String>,
}

/// What a ruling on a standings line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulingKind {
    BoardAdjustment,
    RoundAdjustment,
    TournamentAdjustment,
    Handicap,
    Unranked,
}

/// A ruling as a standings line shows it (GraphQL, the web app, exports).
#[derive(Debug, Clone, PartialEq)]
pub struct RulingLine {
    pub kind: RulingKind,
    /// The adjustment's number (adjustments only).
    pub number: Option<u32>,
    /// The round of a board or round adjustment, and the board's number.
    pub round: Option<u32>,
    pub board: Option<u32>,
    /// Points added (negative: a penalty); `None` for unranked.
    pub points: Option<f64>,
    pub reason: Option<String>,
}

impl RulingLine {
    /// In words, as exports show it: "penalty -5 (round 1, board 2): late to the board",
    /// "handicap +2.5", "unranked: the director plays".
    pub fn describe(&self) -> String {
        let mut text = match (self.kind, self.points) {
            (RulingKind::Unranked, _) | (_, None) => "unranked".to_owned(),
            (RulingKind::Handicap, Some(points)) => format!("handicap {points:+}"),
            (_, Some(points)) if points < 0.0 => format!("penalty {points}"),
            (_, Some(points)) => format!("bonus {points:+}"),
        };
        match (self.round, self.board) {
            (Some(round), Some(board)) => text += &format!(" (round {round}, board {board})"),
            (Some(round), None) => text += &format!(" (round {round})"),
            _ => {}
        }
        if let Some(reason) = &self.reason {
            text += &format!(": {reason}");
        }
        text
    }
}

/// The rulings a tournament folds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RulingsState {
    adjustments: Vec<Adjustment>,
    handicaps: BTreeMap<PlayerId, Handicap>,
    /// Unranked entrants, with the reason given.
    unranked: BTreeMap<PlayerId, Option<String>>,
    /// Round → the director's latest order of its top board.
    tie_breaks: BTreeMap<u32, TopBoardTieBroken>,
}

impl Tournament {
    pub(super) fn apply_ruling(&mut self, event: &TournamentEvent) {
        let state = &mut self.rulings;
        match event {
            TournamentEvent::ScoreAdjusted(e) => {
                state.adjustments.push(Adjustment { given: e.clone(), revoked: None });
            }
            TournamentEvent::ScoreAdjustmentRevoked(e) => {
                if let Some(a) =
                    state.adjustments.iter_mut().find(|a| a.given.adjustment == e.adjustment)
                {
                    a.revoked = Some(e.clone());
                }
            }
            TournamentEvent::HandicapSet(e) => {
                if e.points == 0.0 {
                    state.handicaps.remove(&e.player_id);
                } else {
                    let handicap = Handicap { points: e.points, reason: e.reason.clone() };
                    state.handicaps.insert(e.player_id, handicap);
                }
            }
            TournamentEvent::EntrantRankingChanged(e) => {
                if e.unranked {
                    state.unranked.insert(e.player_id, e.reason.clone());
                } else {
                    state.unranked.remove(&e.player_id);
                }
            }
            TournamentEvent::TopBoardTieBroken(e) => {
                state.tie_breaks.insert(e.round, e.clone());
            }
            TournamentEvent::KeepApartAdded(e) => {
                if let Some(created) = &mut self.created {
                    created.settings.keep_apart.push([e.first, e.second]);
                }
            }
            TournamentEvent::KeepApartRemoved(e) => {
                if let Some(created) = &mut self.created {
                    created.settings.keep_apart.retain(|pair| !same_pair(*pair, e.first, e.second));
                }
            }
            _ => {}
        }
    }

    /// Every score adjustment ever given, revoked ones included, in the order given.
    pub fn all_adjustments(&self) -> &[Adjustment] {
        &self.rulings.adjustments
    }

    /// The adjustments standing (not revoked), in the order given.
    pub fn adjustments(&self) -> impl Iterator<Item = &ScoreAdjusted> {
        self.rulings.adjustments.iter().filter(|a| a.revoked.is_none()).map(|a| &a.given)
    }

    /// Each player's handicap (players without one are not listed).
    pub fn handicaps(&self) -> &BTreeMap<PlayerId, Handicap> {
        &self.rulings.handicaps
    }

    /// Whether a director marked `player` unranked.
    pub fn is_unranked(&self, player: PlayerId) -> bool {
        self.rulings.unranked.contains_key(&player)
    }

    /// The unranked entrants, with the reason given.
    pub fn unranked(&self) -> &BTreeMap<PlayerId, Option<String>> {
        &self.rulings.unranked
    }

    /// The directors' top-board orders, by round.
    pub fn top_board_tie_breaks(&self) -> impl Iterator<Item = &TopBoardTieBroken> {
        self.rulings.tie_breaks.values()
    }

    /// A standing adjustment as a standings line shows it.
    pub fn adjustment_line(&self, adjustment: &ScoreAdjusted) -> RulingLine {
        let (kind, round, board) = match adjustment.target {
            AdjustmentTarget::Board { board_id } => {
                let board = self.board(board_id);
                (RulingKind::BoardAdjustment, board.map(|b| b.round), board.map(|b| b.number))
            }
            AdjustmentTarget::Round { round } => (RulingKind::RoundAdjustment, Some(round), None),
            AdjustmentTarget::Tournament => (RulingKind::TournamentAdjustment, None, None),
        };
        RulingLine {
            kind,
            number: Some(adjustment.adjustment),
            round,
            board,
            points: Some(adjustment.points),
            reason: Some(adjustment.reason.clone()),
        }
    }

    /// The rulings on `player`'s standings line: their standing adjustments in the order
    /// given, their handicap, and whether they are unranked.
    pub fn rulings_on(&self, player: PlayerId) -> Vec<RulingLine> {
        let mut lines: Vec<RulingLine> = self
            .adjustments()
            .filter(|a| a.player_id == player)
            .map(|a| self.adjustment_line(a))
            .collect();
        let plain = |kind, points, reason: &Option<String>| RulingLine {
            kind,
            number: None,
            round: None,
            board: None,
            points,
            reason: reason.clone(),
        };
        if let Some(h) = self.rulings.handicaps.get(&player) {
            lines.push(plain(RulingKind::Handicap, Some(h.points), &h.reason));
        }
        if let Some(reason) = self.rulings.unranked.get(&player) {
            lines.push(plain(RulingKind::Unranked, None, reason));
        }
        lines
    }

    /// The keep-apart pairs in force for the next seeding.
    pub fn keep_apart(&self) -> &[[PlayerId; 2]] {
        self.settings().map(|s| s.keep_apart.as_slice()).unwrap_or_default()
    }

    /// Adds the standing board adjustments of `board` to its rows (`players[i]` scores row i).
    pub(super) fn adjust_board(&self, board: BoardId, players: &[PlayerId], game: &mut ScoredGame) {
        for adjustment in self.adjustments() {
            if adjustment.target != (AdjustmentTarget::Board { board_id: board }) {
                continue;
            }
            if let Some(i) = players.iter().position(|p| *p == adjustment.player_id)
                && let Some(row) = game.players.get_mut(i)
            {
                row.score += adjustment.points;
            }
        }
    }

    /// What the ranking applies after round `last`: round adjustments of rounds up to it,
    /// tournament adjustments and handicaps, unranked entrants, and the director's order of
    /// the latest top board up to it.
    pub(super) fn ranking_rulings(&self, last: u32) -> RankingRulings<PlayerId> {
        let mut rulings = RankingRulings::default();
        for adjustment in self.adjustments() {
            let (player, points) = (adjustment.player_id, adjustment.points);
            match adjustment.target {
                AdjustmentTarget::Round { round } if round <= last => {
                    rulings.round_points.push(RoundPoints { round, player, points });
                }
                AdjustmentTarget::Tournament => {
                    rulings.total_points.push(TotalPoints { player, points });
                }
                AdjustmentTarget::Round { .. } | AdjustmentTarget::Board { .. } => {}
            }
        }
        rulings.total_points.extend(
            self.rulings
                .handicaps
                .iter()
                .map(|(&player, h)| TotalPoints { player, points: h.points }),
        );
        rulings.unranked = self.rulings.unranked.keys().copied().collect();
        if let Some(order) = self.rulings.tie_breaks.range(..=last).next_back() {
            rulings.tie_break_order = order.1.order.clone();
        }
        rulings
    }

    pub(super) fn adjust_score(
        &self,
        c: &AdjustScore,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "adjust scores")?;
        let points = ruling_points(c.points, false)?;
        let reason = clean_reason(&c.reason)?;
        self.known_player(c.player_id, context)?;
        match c.target {
            AdjustmentTarget::Board { board_id } => {
                let board = self.board(board_id).ok_or(DomainError::BoardNotFound(board_id))?;
                let replaced = board.replacements.iter().any(|r| r.replacement == c.player_id);
                if !board.is_seated(c.player_id) && !replaced {
                    return Err(not_there(c.player_id, format!("board {board_id}")));
                }
                if board.result.is_none() {
                    return Err(DomainError::conflict(format!(
                        "board {board_id} has no result yet"
                    )));
                }
            }
            AdjustmentTarget::Round { round } => {
                let seeded = self.round(round).ok_or_else(|| {
                    DomainError::invalid("round", format!("round {round} is not seeded"))
                })?;
                if !seeded.takes_part(c.player_id) {
                    return Err(not_there(c.player_id, format!("round {round}")));
                }
            }
            AdjustmentTarget::Tournament => self.ruled_entrant(c.player_id)?,
        }
        Ok(vec![TournamentEvent::ScoreAdjusted(ScoreAdjusted {
            tournament_id: c.tournament_id,
            adjustment: self.rulings.adjustments.len() as u32 + 1,
            player_id: c.player_id,
            target: c.target,
            points,
            reason,
            adjusted_by: c.actor,
        })])
    }

    pub(super) fn revoke_adjustment(
        &self,
        c: &RevokeScoreAdjustment,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "revoke score adjustments")?;
        let adjustment = self
            .rulings
            .adjustments
            .iter()
            .find(|a| a.given.adjustment == c.adjustment)
            .ok_or(DomainError::AdjustmentNotFound(c.adjustment))?;
        if adjustment.revoked.is_some() {
            return Err(DomainError::conflict(format!(
                "adjustment {} is already revoked",
                c.adjustment
            )));
        }
        Ok(vec![TournamentEvent::ScoreAdjustmentRevoked(ScoreAdjustmentRevoked {
            tournament_id: c.tournament_id,
            adjustment: c.adjustment,
            reason: optional_reason(c.reason.as_deref())?,
            revoked_by: c.actor,
        })])
    }

    pub(super) fn set_handicap(
        &self,
        c: &SetHandicap,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "set handicaps")?;
        let points = ruling_points(c.points, true)?;
        let reason = optional_reason(c.reason.as_deref())?;
        self.known_player(c.player_id, context)?;
        self.ruled_entrant(c.player_id)?;
        if !self.rounds.is_empty() {
            return Err(DomainError::conflict(
                "handicaps are set before round 1 is seeded: adjust the tournament score instead",
            ));
        }
        let current = self.rulings.handicaps.get(&c.player_id).map_or(0.0, |h| h.points);
        if current == points {
            return Err(DomainError::conflict(format!(
                "player {}'s handicap is already {points}",
                c.player_id
            )));
        }
        Ok(vec![TournamentEvent::HandicapSet(HandicapSet {
            tournament_id: c.tournament_id,
            player_id: c.player_id,
            points,
            reason,
            set_by: c.actor,
        })])
    }

    pub(super) fn set_unranked(
        &self,
        c: &SetUnranked,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "mark entrants unranked")?;
        let reason = optional_reason(c.reason.as_deref())?;
        self.known_player(c.player_id, context)?;
        self.ruled_entrant(c.player_id)?;
        if self.is_unranked(c.player_id) == c.unranked {
            let state = if c.unranked { "unranked" } else { "ranked" };
            return Err(DomainError::conflict(format!(
                "player {} is already {state}",
                c.player_id
            )));
        }
        if c.unranked && self.awards().any(|award| award.player_id == c.player_id) {
            return Err(DomainError::conflict(format!(
                "player {} holds an award: revoke it before marking them unranked",
                c.player_id
            )));
        }
        Ok(vec![TournamentEvent::EntrantRankingChanged(EntrantRankingChanged {
            tournament_id: c.tournament_id,
            player_id: c.player_id,
            unranked: c.unranked,
            reason,
            changed_by: c.actor,
        })])
    }

    pub(super) fn change_keep_apart(
        &self,
        c: &ChangeKeepApart,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "change keep-apart pairs")?;
        let reason = optional_reason(c.reason.as_deref())?;
        if c.first == c.second {
            return Err(DomainError::invalid("second", "a player is not kept apart from themself"));
        }
        for player in [c.first, c.second] {
            self.known_player(player, context)?;
        }
        if self.next_round().is_none() {
            return Err(DomainError::conflict(
                "every round is already seeded: no seeding would use the pair",
            ));
        }
        let listed = self.keep_apart().iter().any(|pair| same_pair(*pair, c.first, c.second));
        let (first, second) = (c.first, c.second);
        if c.keep {
            if listed {
                return Err(DomainError::conflict(format!(
                    "players {first} and {second} are already kept apart"
                )));
            }
            Ok(vec![TournamentEvent::KeepApartAdded(KeepApartAdded {
                tournament_id: c.tournament_id,
                first,
                second,
                reason,
                added_by: c.actor,
            })])
        } else {
            if !listed {
                return Err(DomainError::conflict(format!(
                    "players {first} and {second} are not kept apart"
                )));
            }
            Ok(vec![TournamentEvent::KeepApartRemoved(KeepApartRemoved {
                tournament_id: c.tournament_id,
                first,
                second,
                reason,
                removed_by: c.actor,
            })])
        }
    }

    pub(super) fn break_top_board_tie(
        &self,
        c: &BreakTopBoardTie,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "break top-board ties")?;
        let reason = clean_reason(&c.reason)?;
        let round = self.round(c.round).ok_or_else(|| {
            DomainError::invalid("round", format!("round {} is not seeded", c.round))
        })?;
        let top = round.boards.first().filter(|_| round.seeded.top_board).ok_or_else(|| {
            DomainError::invalid("round", format!("round {} has no top board", c.round))
        })?;
        if c.order.len() < 2 {
            return Err(DomainError::invalid("order", "name at least two players, first ahead"));
        }
        for (index, player) in c.order.iter().enumerate() {
            if !top.is_seated(*player) {
                return Err(not_there(*player, format!("round {}'s top board", c.round)));
            }
            if c.order[..index].contains(player) {
                return Err(DomainError::invalid(
                    "order",
                    format!("player {player} is named twice"),
                ));
            }
        }
        if self.rulings.tie_breaks.get(&c.round).is_some_and(|t| t.order == c.order) {
            return Err(DomainError::conflict("the top board's order is already that"));
        }
        Ok(vec![TournamentEvent::TopBoardTieBroken(TopBoardTieBroken {
            tournament_id: c.tournament_id,
            round: c.round,
            order: c.order.clone(),
            reason,
            broken_by: c.actor,
        })])
    }

    /// Refuses a player the platform does not know or erased.
    fn known_player(&self, player: PlayerId, context: &Context) -> Result<(), DomainError> {
        if context.unknown_players.contains(&player) {
            return Err(DomainError::PlayerNotFound(player));
        }
        context.refuse_erased(player)
    }

    /// Refuses a player who has not entered the tournament.
    fn ruled_entrant(&self, player: PlayerId) -> Result<(), DomainError> {
        match self.entrant(player) {
            Some(_) => Ok(()),
            None => Err(not_there(player, "the tournament".to_owned())),
        }
    }
}

/// `points` checked: finite, within [`MAX_RULING_POINTS`], and not zero unless `zero_clears`.
fn ruling_points(points: f64, zero_clears: bool) -> Result<f64, DomainError> {
    if !points.is_finite() || points.abs() > MAX_RULING_POINTS {
        return Err(DomainError::invalid(
            "points",
            format!("must be a number between -{MAX_RULING_POINTS} and {MAX_RULING_POINTS}"),
        ));
    }
    if points == 0.0 && !zero_clears {
        return Err(DomainError::invalid("points", "must not be zero"));
    }
    Ok(points)
}

fn not_there(player: PlayerId, place: String) -> DomainError {
    DomainError::invalid("playerId", format!("player {player} is not in {place}"))
}

fn same_pair([a, b]: [PlayerId; 2], first: PlayerId, second: PlayerId) -> bool {
    (a == first && b == second) || (a == second && b == first)
}
