//! Power assignment (`docs/tournaments.md#power-assignment`): how the seats (powers) of a
//! round's boards are given — automatically by the seeder (the default and every older log),
//! by the players' preferences (lowest placed choose first, in the seeder), by the directors
//! (the seeder's powers stand until a director sets a board's), or by ordered choice at the
//! board (players in standings order pick in turn, best placed first). Players rank the powers
//! from their page, or an organiser pastes everyone's rankings. A director may set a board's
//! powers under any method before its result. The payloads, commands and decisions live
//! here; the event list is the room's.

use std::collections::BTreeMap;

use league_scheduling::{PlayerPlace, PowerPreferences, SeatRanking};
use serde::{Deserialize, Serialize};

use super::{RoundSeeded, Tournament, TournamentEvent};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, BoardId, PlayerId, TournamentId, player_key};

/// How a tournament gives its boards' powers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PowerAssignment {
    /// The seeder avoids powers a player already had (`docs/tournaments.md#seeding`).
    #[default]
    Automatic,
    /// The seeder gives each player their best free power, the lowest placed choosing first.
    Preferences,
    /// The seeder's powers stand until a director sets a board's.
    Manual,
    /// On each board the players pick in turn, best placed first.
    OrderedChoice,
}

/// The method as it now stands, and whether a round's top board picks by ordered choice
/// whatever the method.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerAssignmentRule {
    pub method: PowerAssignment,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub top_board_ordered_choice: bool,
}

/// A director changed how powers are given; `rule` is the whole of it as it now stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerAssignmentChanged {
    pub tournament_id: TournamentId,
    #[serde(flatten)]
    pub rule: PowerAssignmentRule,
    pub changed_by: Actor,
}

/// A player's ranking of the powers, best first (possibly only some of them; none: the
/// player is indifferent again). The latest one counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerPreferencesSubmitted {
    pub tournament_id: TournamentId,
    pub player_id: PlayerId,
    pub powers: Vec<String>,
    pub submitted_by: Actor,
}

/// A director set every power of a board before its result: `seats[i]` plays seat label i.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardPowersSet {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub seats: Vec<PlayerId>,
    pub set_by: Actor,
}

/// A seeded board's players pick their powers in this order (standings before the round,
/// best first); appended with the `RoundSeeded` it follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardPowerChoiceOpened {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub order: Vec<PlayerId>,
}

/// The player whose turn it was picked a power on a choosing board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerChosen {
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub player_id: PlayerId,
    pub power: String,
    pub chosen_by: Actor,
}

/// One of the tournament's organisers (or the site admin) sets how powers are given.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangePowerAssignment {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub rule: PowerAssignmentRule,
}

/// Players' rankings of the powers, best first: one player's own (or an organiser's for
/// them), or an organiser's pasted list; all or nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct SubmitPowerPreferences {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub rankings: Vec<(PlayerId, Vec<String>)>,
}

/// One of the tournament's organisers sets a board's powers: each power once, each of the
/// board's players once.
#[derive(Debug, Clone, PartialEq)]
pub struct SetBoardPowers {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub seats: Vec<(String, PlayerId)>,
}

/// The player whose turn it is (or an organiser for them) picks a power on a choosing board.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoosePower {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub board_id: BoardId,
    pub player_id: PlayerId,
    pub power: String,
}

/// A board whose players are picking their powers.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerChoice {
    /// Who picks, first to last.
    pub order: Vec<PlayerId>,
    /// The powers picked so far, in `order`.
    pub picked: Vec<String>,
}

impl PowerChoice {
    /// Whose turn it is.
    pub fn next(&self) -> Option<PlayerId> {
        self.order.get(self.picked.len()).copied()
    }
}

impl Powers {
    /// A swap before the round started exchanges the two players in any choosing order too.
    pub(super) fn swap_in_choices(&mut self, swap: &super::RoundPlayersSwapped) {
        for player in self.choosing.values_mut().flat_map(|c| &mut c.order) {
            if *player == swap.first {
                *player = swap.second;
            } else if *player == swap.second {
                *player = swap.first;
            }
        }
    }
}

/// The power-assignment state a tournament folds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Powers {
    rule: PowerAssignmentRule,
    /// Each player's latest ranking (players who cleared theirs are left out).
    preferences: BTreeMap<PlayerId, Vec<String>>,
    /// Boards still choosing.
    choosing: BTreeMap<BoardId, PowerChoice>,
}

impl Tournament {
    /// How powers are given, as it now stands.
    pub fn power_assignment(&self) -> PowerAssignmentRule {
        self.powers.rule
    }

    /// Every player's latest ranking of the powers, best first.
    pub fn power_preferences(&self) -> &BTreeMap<PlayerId, Vec<String>> {
        &self.powers.preferences
    }

    /// The board's ordered choice while its players are still picking.
    pub fn power_choice(&self, board: BoardId) -> Option<&PowerChoice> {
        self.powers.choosing.get(&board)
    }

    pub(super) fn apply_powers(&mut self, event: &TournamentEvent) {
        match event {
            TournamentEvent::PowerAssignmentChanged(e) => self.powers.rule = e.rule,
            TournamentEvent::PowerPreferencesSubmitted(e) if e.powers.is_empty() => {
                self.powers.preferences.remove(&e.player_id);
            }
            TournamentEvent::PowerPreferencesSubmitted(e) => {
                self.powers.preferences.insert(e.player_id, e.powers.clone());
            }
            TournamentEvent::BoardPowersSet(e) => {
                self.powers.choosing.remove(&e.board_id);
                if let Some(board) = self.board_mut(e.board_id) {
                    board.seats.clone_from(&e.seats);
                }
            }
            TournamentEvent::BoardPowerChoiceOpened(e) => {
                let choice = PowerChoice { order: e.order.clone(), picked: Vec::new() };
                self.powers.choosing.insert(e.board_id, choice);
            }
            TournamentEvent::PowerChosen(e) => self.apply_pick(e),
            _ => {}
        }
    }

    /// Records a pick; once one player is left, they get the last power and the board's
    /// seats become the choices.
    fn apply_pick(&mut self, e: &PowerChosen) {
        let labels = self.seat_labels();
        let Some(choice) = self.powers.choosing.get_mut(&e.board_id) else { return };
        choice.picked.push(e.power.clone());
        if choice.picked.len() + 1 < choice.order.len() {
            return;
        }
        let choice = self.powers.choosing.remove(&e.board_id).expect("just found");
        let mut seats = vec![None; labels.len()];
        for (player, power) in choice.order.iter().zip(&choice.picked) {
            if let Some(seat) = labels.iter().position(|l| l == power) {
                seats[seat] = Some(*player);
            }
        }
        if let (Some(last), Some(free)) =
            (choice.order.last(), seats.iter().position(Option::is_none))
        {
            seats[free] = Some(*last);
        }
        if let (Some(board), Some(seats)) =
            (self.board_mut(e.board_id), seats.into_iter().collect::<Option<Vec<_>>>())
        {
            board.seats = seats;
        }
    }

    /// The preferences a round is seeded with under the preferences method: the present
    /// players' rankings and their places in the standings so far.
    pub(super) fn seeding_preferences(&self, present: &[PlayerId]) -> Option<PowerPreferences> {
        if self.powers.rule.method != PowerAssignment::Preferences {
            return None;
        }
        let standings = self.standings(None).unwrap_or_default();
        Some(PowerPreferences {
            rankings: present
                .iter()
                .filter_map(|p| {
                    let seats = self.powers.preferences.get(p)?.clone();
                    Some(SeatRanking { player: player_key(*p), seats })
                })
                .collect(),
            places: standings
                .iter()
                .filter(|s| present.contains(&s.player))
                .map(|s| PlayerPlace { player: player_key(s.player), place: s.rank })
                .collect(),
        })
    }

    /// The choices a just-seeded round opens: every board under ordered choice, else its top
    /// board when that picks by ordered choice. Players pick best placed first (standings
    /// before the round; equal places in seat order).
    pub(super) fn power_choices_opened(&self, seeded: &RoundSeeded) -> Vec<TournamentEvent> {
        let rule = self.powers.rule;
        let standings = self.standings(None).unwrap_or_default();
        let place =
            |p: &PlayerId| standings.iter().find(|s| s.player == *p).map_or(u32::MAX, |s| s.rank);
        seeded
            .boards
            .iter()
            .filter(|board| {
                rule.method == PowerAssignment::OrderedChoice
                    || (rule.top_board_ordered_choice && seeded.top_board && board.number == 1)
            })
            .map(|board| {
                let mut order = board.seats.clone();
                order.sort_by_key(place);
                TournamentEvent::BoardPowerChoiceOpened(BoardPowerChoiceOpened {
                    tournament_id: seeded.tournament_id,
                    board_id: board.board_id,
                    order,
                })
            })
            .collect()
    }

    /// The board is still choosing its powers: no result yet.
    pub(super) fn refuse_while_choosing(&self, board: BoardId) -> Result<(), DomainError> {
        match self.power_choice(board).and_then(PowerChoice::next) {
            Some(next) => Err(DomainError::conflict(format!(
                "board {board} is still choosing its powers (player {next}'s turn)"
            ))),
            None => Ok(()),
        }
    }

    pub(super) fn change_power_assignment(
        &self,
        c: &ChangePowerAssignment,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "change how powers are assigned")?;
        if self.powers.rule == c.rule {
            return Err(DomainError::conflict("powers are already assigned that way"));
        }
        Ok(vec![TournamentEvent::PowerAssignmentChanged(PowerAssignmentChanged {
            tournament_id: c.tournament_id,
            rule: c.rule,
            changed_by: c.actor,
        })])
    }

    pub(super) fn submit_power_preferences(
        &self,
        c: &SubmitPowerPreferences,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        for (player, _) in &c.rankings {
            self.authorise_for_player(c.actor, *player, c.tournament_id, "rank the powers")?;
        }
        if self.completed {
            return Err(DomainError::conflict("the tournament is completed"));
        }
        if c.rankings.is_empty() {
            return Err(DomainError::invalid("rankings", "give at least one player's ranking"));
        }
        let mut events = Vec::new();
        for (line, (player, powers)) in c.rankings.iter().enumerate() {
            if context.unknown_players.contains(player) {
                return Err(DomainError::PlayerNotFound(*player));
            }
            context.refuse_erased(*player)?;
            self.active_entrant(*player)?;
            if c.rankings[..line].iter().any(|(p, _)| p == player) {
                return Err(DomainError::invalid(
                    "rankings",
                    format!("player {player} is ranked twice"),
                ));
            }
            let powers = self.ranked_powers(powers)?;
            if self.powers.preferences.get(player).map_or(powers.is_empty(), |p| *p == powers) {
                continue;
            }
            events.push(TournamentEvent::PowerPreferencesSubmitted(PowerPreferencesSubmitted {
                tournament_id: c.tournament_id,
                player_id: *player,
                powers,
                submitted_by: c.actor,
            }));
        }
        if events.is_empty() {
            return Err(DomainError::conflict("every ranking given is already recorded"));
        }
        Ok(events)
    }

    /// The powers of a ranking as the seat labels spell them, each at most once.
    fn ranked_powers(&self, powers: &[String]) -> Result<Vec<String>, DomainError> {
        let mut ranked: Vec<String> = Vec::with_capacity(powers.len());
        for power in powers {
            let label = self.power_label(power)?;
            if ranked.contains(&label) {
                return Err(DomainError::invalid("powers", format!("{label} is ranked twice")));
            }
            ranked.push(label);
        }
        Ok(ranked)
    }

    /// One of the seat labels, matched case-blind (a unique prefix such as "Eng" counts).
    fn power_label(&self, power: &str) -> Result<String, DomainError> {
        let labels = self.seat_labels();
        let wanted = power.trim().to_lowercase();
        let exact = labels.iter().find(|l| l.to_lowercase() == wanted);
        let prefixed: Vec<&String> = labels
            .iter()
            .filter(|l| !wanted.is_empty() && l.to_lowercase().starts_with(&wanted))
            .collect();
        exact
            .or(if prefixed.len() == 1 { prefixed.first().copied() } else { None })
            .cloned()
            .ok_or_else(|| {
                DomainError::invalid(
                    "powers",
                    format!("{:?} is none of {}", power.trim(), labels.join(", ")),
                )
            })
    }

    pub(super) fn set_board_powers(
        &self,
        c: &SetBoardPowers,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "set a board's powers")?;
        let board = self.board(c.board_id).ok_or(DomainError::BoardNotFound(c.board_id))?;
        if board.result.is_some() || board.pending.is_some() {
            return Err(DomainError::conflict(format!(
                "board {} already has a result: its powers stay",
                c.board_id
            )));
        }
        let labels = self.seat_labels();
        let mut seats: Vec<Option<PlayerId>> = vec![None; labels.len()];
        for (power, player) in &c.seats {
            let label = self.power_label(power)?;
            let seat = labels.iter().position(|l| *l == label).expect("a label");
            if seats[seat].is_some() {
                return Err(DomainError::invalid("seats", format!("{label} is given twice")));
            }
            if !board.is_seated(*player) {
                return Err(DomainError::invalid(
                    "seats",
                    format!("player {player} does not play on board {}", c.board_id),
                ));
            }
            if seats.contains(&Some(*player)) {
                return Err(DomainError::invalid(
                    "seats",
                    format!("player {player} is given two powers"),
                ));
            }
            seats[seat] = Some(*player);
        }
        let Some(seats) = seats.into_iter().collect::<Option<Vec<_>>>() else {
            return Err(DomainError::invalid(
                "seats",
                format!("give each of the {} powers once", labels.len()),
            ));
        };
        if seats == board.seats && self.power_choice(c.board_id).is_none() {
            return Err(DomainError::conflict("the board already has those powers"));
        }
        Ok(vec![TournamentEvent::BoardPowersSet(BoardPowersSet {
            tournament_id: c.tournament_id,
            board_id: c.board_id,
            seats,
            set_by: c.actor,
        })])
    }

    pub(super) fn choose_power(
        &self,
        c: &ChoosePower,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise_for_player(c.actor, c.player_id, c.tournament_id, "choose a power")?;
        self.board(c.board_id).ok_or(DomainError::BoardNotFound(c.board_id))?;
        let Some(choice) = self.power_choice(c.board_id) else {
            return Err(DomainError::conflict(format!(
                "board {} is not choosing its powers",
                c.board_id
            )));
        };
        if choice.next() != Some(c.player_id) {
            return Err(DomainError::conflict(format!(
                "it is not player {}'s turn to choose",
                c.player_id
            )));
        }
        let power = self.power_label(&c.power)?;
        if choice.picked.contains(&power) {
            return Err(DomainError::conflict(format!("{power} is already taken")));
        }
        Ok(vec![TournamentEvent::PowerChosen(PowerChosen {
            tournament_id: c.tournament_id,
            board_id: c.board_id,
            player_id: c.player_id,
            power,
            chosen_by: c.actor,
        })])
    }
}
