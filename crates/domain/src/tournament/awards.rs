//! Best Country and awards (`docs/tournaments.md#best-country-and-awards`): the tournament's
//! Best Country rule (by score or by centres, with or without top boards), the leaders of
//! each power over the boards finished so far, and the named awards its directors give and
//! revoke. A revoked award stays in the log and the audit, not in the list. The payloads,
//! commands and decisions live here; the event list is the room's.

use league_scoring::{BestCountryCriterion, CountryResult, GameResult, best_countries};
use serde::{Deserialize, Serialize};

use super::{Board, Tournament, TournamentEvent};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, BoardId, PlayerId, TournamentId, player_key};
use crate::rules::{clean_name, clean_reason};

/// How the tournament decides Best Country: the figure compared first, and whether boards
/// seeded as a round's top board count. The default (never changed): by score, every board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BestCountryRule {
    pub criterion: BestCountryCriterion,
    pub exclude_top_boards: bool,
}

/// A director changed the tournament's Best Country rule; `rule` is the whole of it as it
/// now stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BestCountryRuleChanged {
    pub tournament_id: TournamentId,
    #[serde(flatten)]
    pub rule: BestCountryRule,
    pub changed_by: Actor,
}

/// A director gave award number `award` (1, 2, … in the order given) to an entrant,
/// optionally for a power and with a reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AwardGiven {
    pub tournament_id: TournamentId,
    pub award: u32,
    pub name: String,
    pub player_id: PlayerId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub given_by: Actor,
}

/// A director revoked award number `award`, optionally with a reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AwardRevoked {
    pub tournament_id: TournamentId,
    pub award: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub revoked_by: Actor,
}

/// One of the tournament's organisers (or the site admin) sets its Best Country rule.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeBestCountryRule {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub rule: BestCountryRule,
}

/// One of the tournament's organisers (or the site admin) gives an entrant a named award,
/// optionally for one of the board's powers (seat labels) and with a reason.
#[derive(Debug, Clone, PartialEq)]
pub struct GiveAward {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub name: String,
    pub player_id: PlayerId,
    pub power: Option<String>,
    pub reason: Option<String>,
}

/// One of the tournament's organisers (or the site admin) revokes an award still standing.
#[derive(Debug, Clone, PartialEq)]
pub struct RevokeAward {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub award: u32,
    pub reason: Option<String>,
}

/// An award as given, and whether it was revoked since.
#[derive(Debug, Clone, PartialEq)]
pub struct Award {
    pub given: AwardGiven,
    pub revoked: Option<AwardRevoked>,
}

/// A result at the top of a power's Best Country list.
#[derive(Debug, Clone, PartialEq)]
pub struct CountryLeader {
    pub player: PlayerId,
    pub board: BoardId,
    pub round: u32,
    pub board_number: u32,
    pub score: f64,
    pub centres: u32,
    /// Another result is level with this one on both figures: they share it.
    pub tied: bool,
}

/// One power's Best Country: its leaders (none while nobody finished a counted board with it).
#[derive(Debug, Clone, PartialEq)]
pub struct PowerBest {
    pub power: String,
    pub leaders: Vec<CountryLeader>,
}

/// Where a result was played, for a [`CountryLeader`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct Played {
    player: PlayerId,
    board: BoardId,
    round: u32,
    board_number: u32,
}

/// The Best Country state a tournament folds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Awards {
    rule: BestCountryRule,
    given: Vec<Award>,
}

impl Awards {
    pub(super) fn apply(&mut self, event: &TournamentEvent) {
        match event {
            TournamentEvent::BestCountryRuleChanged(e) => self.rule = e.rule,
            TournamentEvent::AwardGiven(e) => {
                self.given.push(Award { given: e.clone(), revoked: None });
            }
            TournamentEvent::AwardRevoked(e) => {
                if let Some(award) = self.given.iter_mut().find(|a| a.given.award == e.award) {
                    award.revoked = Some(e.clone());
                }
            }
            _ => {}
        }
    }
}

impl Tournament {
    /// The Best Country rule as it now stands.
    pub fn best_country_rule(&self) -> BestCountryRule {
        self.awards.rule
    }

    /// Every award ever given, revoked ones included, in the order given.
    pub fn all_awards(&self) -> &[Award] {
        &self.awards.given
    }

    /// The awards standing (not revoked), in the order given.
    pub fn awards(&self) -> impl Iterator<Item = &AwardGiven> {
        self.awards.given.iter().filter(|a| a.revoked.is_none()).map(|a| &a.given)
    }

    /// Each power's Best Country over the boards finished so far under the tournament's rule
    /// (the live leaders while it runs; the awards once it is completed).
    pub fn best_countries(&self) -> Result<Vec<PowerBest>, DomainError> {
        if !self.exists() {
            return Ok(Vec::new());
        }
        let powers = self.seat_labels();
        let mut results: Vec<Vec<CountryResult<Played>>> = vec![Vec::new(); powers.len()];
        for round in &self.rounds {
            for board in &round.boards {
                if self.awards.rule.exclude_top_boards
                    && round.seeded.top_board
                    && board.number == 1
                {
                    continue;
                }
                let Some(scored) = board.scored(self.board_system(board))? else { continue };
                for (seat, player) in board.seats.iter().enumerate() {
                    if self.is_unranked(*player) {
                        continue;
                    }
                    let (Some(power), Some(row)) = (results.get_mut(seat), scored.of(*player))
                    else {
                        continue;
                    };
                    let who = Played {
                        player: *player,
                        board: board.id,
                        round: board.round,
                        board_number: board.number,
                    };
                    power.push(CountryResult {
                        who,
                        score: row.score,
                        centres: centres(board, *player),
                    });
                }
            }
        }
        let best = best_countries(self.awards.rule.criterion, &results);
        Ok(powers
            .into_iter()
            .zip(best)
            .map(|(power, leaders)| {
                let tied = leaders.len() > 1;
                let leaders = leaders
                    .into_iter()
                    .map(|r| CountryLeader {
                        player: r.who.player,
                        board: r.who.board,
                        round: r.who.round,
                        board_number: r.who.board_number,
                        score: r.score,
                        centres: r.centres,
                        tied,
                    })
                    .collect();
                PowerBest { power, leaders }
            })
            .collect())
    }

    pub(super) fn change_best_country_rule(
        &self,
        c: &ChangeBestCountryRule,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "change the Best Country rule")?;
        if self.awards.rule == c.rule {
            return Err(DomainError::conflict("the Best Country rule is already that"));
        }
        Ok(vec![TournamentEvent::BestCountryRuleChanged(BestCountryRuleChanged {
            tournament_id: c.tournament_id,
            rule: c.rule,
            changed_by: c.actor,
        })])
    }

    pub(super) fn give_award(
        &self,
        c: &GiveAward,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "give awards")?;
        let name = clean_name("name", &c.name)?;
        if context.unknown_players.contains(&c.player_id) {
            return Err(DomainError::PlayerNotFound(c.player_id));
        }
        context.refuse_erased(c.player_id)?;
        if self.is_unranked(c.player_id) {
            return Err(DomainError::conflict(format!(
                "player {} is unranked: never awarded",
                c.player_id
            )));
        }
        if self.entrant(c.player_id).is_none() {
            return Err(DomainError::invalid(
                "playerId",
                format!("player {} has not entered the tournament", c.player_id),
            ));
        }
        let power = c.power.as_deref().map(str::trim).filter(|p| !p.is_empty());
        let power = power
            .map(|power| {
                self.seat_labels()
                    .into_iter()
                    .find(|label| label.eq_ignore_ascii_case(power))
                    .ok_or_else(|| {
                        DomainError::invalid(
                            "power",
                            format!("{power:?} is none of {}", self.seat_labels().join(", ")),
                        )
                    })
            })
            .transpose()?;
        let reason = optional_reason(c.reason.as_deref())?;
        Ok(vec![TournamentEvent::AwardGiven(AwardGiven {
            tournament_id: c.tournament_id,
            award: self.awards.given.len() as u32 + 1,
            name,
            player_id: c.player_id,
            power,
            reason,
            given_by: c.actor,
        })])
    }

    pub(super) fn revoke_award(
        &self,
        c: &RevokeAward,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "revoke awards")?;
        let award = self
            .awards
            .given
            .iter()
            .find(|a| a.given.award == c.award)
            .ok_or(DomainError::AwardNotFound(c.award))?;
        if award.revoked.is_some() {
            return Err(DomainError::conflict(format!("award {} is already revoked", c.award)));
        }
        Ok(vec![TournamentEvent::AwardRevoked(AwardRevoked {
            tournament_id: c.tournament_id,
            award: c.award,
            reason: optional_reason(c.reason.as_deref())?,
            revoked_by: c.actor,
        })])
    }
}

/// A reason that may be left out (blank counts as left out).
pub(super) fn optional_reason(reason: Option<&str>) -> Result<Option<String>, DomainError> {
    reason.filter(|r| !r.trim().is_empty()).map(clean_reason).transpose()
}

/// The centres `player` held at the end of `board` (0 for a game without centres).
fn centres(board: &Board, player: PlayerId) -> u32 {
    let key = player_key(player);
    match &board.result {
        Some(GameResult::Diplomacy(entries)) => {
            entries.iter().find(|e| e.player == key).map_or(0, |e| e.centres)
        }
        _ => 0,
    }
}
