//! Pools and per-round scoring (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`):
//! a round's pool (the best n·k by standings, or players the director names) seated first on
//! boards 1..n, its score multiplier (an exact decimal, applied in thousandths), the option
//! "this pool decides places 1..n·k", and a round's own scoring system. The payloads,
//! commands, decisions and the standings' steps live here; the event list is the room's.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use league_scoring::{
    ScoredGame, ScoringSystem, TournamentStanding, from_thousandths, thousandths,
};
use serde::{Deserialize, Serialize};

use super::{Board, Tournament, TournamentEvent};
use crate::error::DomainError;
use crate::ids::{Actor, PlayerId, TournamentId};
use crate::rules::check_players_per_game;
use crate::seats::seat_labels;

/// Largest multiplier a pool may have.
pub const MAX_MULTIPLIER_THOUSANDTHS: u32 = 100_000;

/// How every standings note about a pool starts, so each surface can tell them from the
/// scoring's own notes (the exports' pools column).
const POOL_NOTE: &str = "pool: ";

/// Whether a standings note is about a pool ("pool: round 4 ×1.5").
pub fn is_pool_note(note: &str) -> bool {
    note.starts_with(POOL_NOTE)
}

/// Who plays in a round's pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PoolPlayers {
    /// The best this many present players by the standings before the round (a whole number
    /// of boards), chosen when the round is seeded.
    Best(u32),
    /// These players, named by the director (a whole number of boards).
    Named(Vec<PlayerId>),
}

/// A score multiplier as an exact decimal with at most three decimals (`1.5`, `2`, `0.75`),
/// kept in thousandths so a multiplied score is exact in the standings' thousandths. Stored
/// as its decimal text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ScoreMultiplier(u32);

impl ScoreMultiplier {
    /// ×1: scores as they are.
    pub const ONE: ScoreMultiplier = ScoreMultiplier(1000);

    pub fn thousandths(self) -> u32 {
        self.0
    }

    /// `score` multiplied, rounded to the nearest thousandth (halves away from zero).
    pub fn apply(self, score: f64) -> f64 {
        let product = i128::from(thousandths(score)) * i128::from(self.0);
        let rounded = (product.abs() + 500) / 1000 * product.signum();
        from_thousandths(rounded as i64)
    }
}

impl Default for ScoreMultiplier {
    fn default() -> Self {
        ScoreMultiplier::ONE
    }
}

impl fmt::Display for ScoreMultiplier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, part) = (self.0 / 1000, self.0 % 1000);
        if part == 0 {
            return write!(f, "{whole}");
        }
        let decimals = format!("{part:03}");
        write!(f, "{whole}.{}", decimals.trim_end_matches('0'))
    }
}

impl FromStr for ScoreMultiplier {
    type Err = String;

    /// A decimal above 0 and at most 100 with at most three decimals: `1.5`, `2`, `0.875`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let refusal =
            || format!("{text:?} is not a decimal above 0 and at most 100 with at most 3 decimals");
        let text = text.trim();
        let (whole, part) = text.split_once('.').unwrap_or((text, ""));
        if whole.is_empty()
            || part.len() > 3
            || !whole.bytes().chain(part.bytes()).all(|b| b.is_ascii_digit())
            || whole.len() > 3
        {
            return Err(refusal());
        }
        let whole: u32 = whole.parse().map_err(|_| refusal())?;
        let part: u32 = format!("{part:0<3}").parse().map_err(|_| refusal())?;
        let value = whole * 1000 + part;
        if value == 0 || value > MAX_MULTIPLIER_THOUSANDTHS {
            return Err(refusal());
        }
        Ok(ScoreMultiplier(value))
    }
}

impl TryFrom<String> for ScoreMultiplier {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<ScoreMultiplier> for String {
    fn from(multiplier: ScoreMultiplier) -> String {
        multiplier.to_string()
    }
}

/// A round's pool as the director set it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundPool {
    pub players: PoolPlayers,
    /// Every score on the pool's boards is multiplied by it.
    pub multiplier: ScoreMultiplier,
    /// Once every pool board has a result, the pool's players take places 1..n·k by their
    /// pool board score; everyone else follows (only the last round's pool may).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub decides_places: bool,
}

/// A director set round `round`'s pool before it was seeded (the latest setting counts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundPoolSet {
    pub tournament_id: TournamentId,
    pub round: u32,
    #[serde(flatten)]
    pub pool: RoundPool,
    pub set_by: Actor,
}

/// A director removed round `round`'s pool before it was seeded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundPoolRemoved {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub removed_by: Actor,
}

/// A director set the system that scores round `round`'s boards before any of them had a
/// result (the tournament's own system puts it back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundScoringSet {
    pub tournament_id: TournamentId,
    pub round: u32,
    pub scoring_system: ScoringSystem,
    pub set_by: Actor,
}

/// One of the tournament's organisers (or the site admin) sets round `round`'s pool.
#[derive(Debug, Clone, PartialEq)]
pub struct SetRoundPool {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
    pub pool: RoundPool,
}

/// One of the tournament's organisers (or the site admin) removes round `round`'s pool.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoveRoundPool {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
}

/// One of the tournament's organisers (or the site admin) sets the system scoring round
/// `round`'s boards.
#[derive(Debug, Clone, PartialEq)]
pub struct SetRoundScoring {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub round: u32,
    pub scoring_system: ScoringSystem,
}

/// The pools and round systems a tournament folds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stages {
    pools: BTreeMap<u32, RoundPool>,
    systems: BTreeMap<u32, ScoringSystem>,
}

impl Stages {
    pub(super) fn apply(&mut self, event: &TournamentEvent) {
        match event {
            TournamentEvent::RoundPoolSet(e) => {
                self.pools.insert(e.round, e.pool.clone());
            }
            TournamentEvent::RoundPoolRemoved(e) => {
                self.pools.remove(&e.round);
            }
            TournamentEvent::RoundScoringSet(e) => {
                self.systems.insert(e.round, e.scoring_system);
            }
            _ => {}
        }
    }
}

/// Where a pool stands in a seeded round: its boards and multiplier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatedPool {
    pub round: u32,
    /// Boards 1..=`boards` are the pool's.
    pub boards: u32,
    pub multiplier: ScoreMultiplier,
    pub decides_places: bool,
}

impl Tournament {
    /// Round `round`'s pool as set (before or after its seeding).
    pub fn round_pool(&self, round: u32) -> Option<&RoundPool> {
        self.stages.pools.get(&round)
    }

    /// The system scoring round `round`'s boards: its own, or the tournament's.
    pub fn round_scoring_system(&self, round: u32) -> Option<ScoringSystem> {
        let own = self.stages.systems.get(&round).copied();
        own.or_else(|| self.settings().map(|s| s.scoring_system))
    }

    /// The system scoring `board`: its round's own, or the tournament's (a board exists only
    /// in a created tournament).
    pub fn board_system(&self, board: &Board) -> ScoringSystem {
        let own = self.stages.systems.get(&board.round).copied();
        own.or_else(|| self.settings().map(|s| s.scoring_system)).unwrap_or(ScoringSystem::Squares)
    }

    /// Round `round`'s pool once seeded: its boards, multiplier and rule.
    pub fn seated_pool(&self, round: u32) -> Option<SeatedPool> {
        let seeded = self.round(round)?;
        let pool = self.round_pool(round)?;
        (seeded.seeded.pool_boards > 0).then_some(SeatedPool {
            round,
            boards: seeded.seeded.pool_boards,
            multiplier: pool.multiplier,
            decides_places: pool.decides_places,
        })
    }

    pub(super) fn set_round_pool(
        &self,
        c: &SetRoundPool,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let settings = self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "set a round's pool")?;
        self.check_unseeded_round(c.round)?;
        let k = settings.players_per_board;
        let size = match &c.pool.players {
            PoolPlayers::Best(size) => *size,
            PoolPlayers::Named(players) => {
                for (index, player) in players.iter().enumerate() {
                    if players[..index].contains(player) {
                        return Err(DomainError::invalid(
                            "players",
                            format!("player {player} is named twice"),
                        ));
                    }
                    self.active_entrant(*player)?;
                }
                players.len() as u32
            }
        };
        if size == 0 || !size.is_multiple_of(k) {
            return Err(DomainError::invalid(
                "players",
                format!("a pool is a whole number of boards of {k} players, not {size}"),
            ));
        }
        if c.pool.decides_places && c.round != settings.rounds {
            return Err(DomainError::invalid(
                "decidesPlaces",
                format!("only the last round's pool (round {}) decides places", settings.rounds),
            ));
        }
        if self.round_pool(c.round) == Some(&c.pool) {
            return Err(DomainError::conflict(format!("round {}'s pool is already so", c.round)));
        }
        Ok(vec![TournamentEvent::RoundPoolSet(RoundPoolSet {
            tournament_id: c.tournament_id,
            round: c.round,
            pool: c.pool.clone(),
            set_by: c.actor,
        })])
    }

    pub(super) fn remove_round_pool(
        &self,
        c: &RemoveRoundPool,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "remove a round's pool")?;
        self.check_unseeded_round(c.round)?;
        if self.round_pool(c.round).is_none() {
            return Err(DomainError::conflict(format!("round {} has no pool", c.round)));
        }
        Ok(vec![TournamentEvent::RoundPoolRemoved(RoundPoolRemoved {
            tournament_id: c.tournament_id,
            round: c.round,
            removed_by: c.actor,
        })])
    }

    pub(super) fn set_round_scoring(
        &self,
        c: &SetRoundScoring,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let settings = self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "set a round's scoring system")?;
        self.check_planned_round(c.round)?;
        let k = settings.players_per_board;
        check_players_per_game(c.scoring_system, k).map_err(|_| {
            DomainError::invalid(
                "scoringSystem",
                format!("{} does not score boards of {k}", c.scoring_system.name()),
            )
        })?;
        if seat_labels(c.scoring_system, k) != seat_labels(settings.scoring_system, k) {
            return Err(DomainError::invalid(
                "scoringSystem",
                format!(
                    "{} scores another game than {}",
                    c.scoring_system.name(),
                    settings.scoring_system.name()
                ),
            ));
        }
        if let Some(round) = self.round(c.round)
            && round.started()
        {
            return Err(DomainError::conflict(format!(
                "round {} already has a result: correct results instead",
                c.round
            )));
        }
        if self.round_scoring_system(c.round) == Some(c.scoring_system) {
            return Err(DomainError::conflict(format!(
                "round {} is already scored by {}",
                c.round,
                c.scoring_system.name()
            )));
        }
        Ok(vec![TournamentEvent::RoundScoringSet(RoundScoringSet {
            tournament_id: c.tournament_id,
            round: c.round,
            scoring_system: c.scoring_system,
            set_by: c.actor,
        })])
    }

    /// `BAD_USER_INPUT` for a round the tournament does not plan.
    fn check_planned_round(&self, round: u32) -> Result<(), DomainError> {
        let rounds = self.settings().map_or(0, |s| s.rounds);
        if (1..=rounds).contains(&round) {
            return Ok(());
        }
        Err(DomainError::invalid(
            "round",
            format!("the tournament plans rounds 1 to {rounds}, not {round}"),
        ))
    }

    /// A planned round not seeded yet (`CONFLICT` once seeded).
    fn check_unseeded_round(&self, round: u32) -> Result<(), DomainError> {
        self.check_planned_round(round)?;
        if self.round(round).is_some() {
            return Err(DomainError::conflict(format!("round {round} is already seeded")));
        }
        Ok(())
    }

    /// The pool's players for seeding round `round` (empty without a pool): the best n·k
    /// present players by the standings so far who neither sit out nor play twice, or the
    /// named ones, who must be present and play once.
    pub(super) fn pool_for_seeding(
        &self,
        round: u32,
        present: &[PlayerId],
        sitting_out: &[PlayerId],
        playing_twice: &[PlayerId],
    ) -> Result<Vec<PlayerId>, DomainError> {
        let Some(pool) = self.round_pool(round) else { return Ok(Vec::new()) };
        let plays_once = |p: &PlayerId| {
            present.contains(p) && !sitting_out.contains(p) && !playing_twice.contains(p)
        };
        match &pool.players {
            PoolPlayers::Best(size) => {
                let standings = self.standings(None)?;
                let best: Vec<PlayerId> = standings
                    .iter()
                    .map(|s| s.player)
                    .filter(plays_once)
                    .take(*size as usize)
                    .collect();
                if best.len() < *size as usize {
                    return Err(DomainError::CannotSeed(format!(
                        "the pool needs {size} players playing one board; only {} are",
                        best.len()
                    )));
                }
                Ok(best)
            }
            PoolPlayers::Named(players) => {
                if let Some(player) = players.iter().find(|p| !plays_once(p)) {
                    return Err(DomainError::CannotSeed(format!(
                        "pool player {player} is not present to play one board in round {round}"
                    )));
                }
                Ok(players.clone())
            }
        }
    }

    /// A board's scores multiplied when it is one of its round's pool boards.
    pub(super) fn pool_multiplied(
        &self,
        round: u32,
        board: u32,
        mut game: ScoredGame,
    ) -> ScoredGame {
        if let Some(pool) = self.seated_pool(round)
            && board <= pool.boards
            && pool.multiplier != ScoreMultiplier::ONE
        {
            for row in &mut game.players {
                row.score = pool.multiplier.apply(row.score);
            }
        }
        game
    }

    /// The standings with each pool's players marked, and, once a pool that decides places
    /// has every board's result, its players in places 1..n·k by their pool board score (then
    /// by the standings' own order), the others after them in their order.
    pub(super) fn pool_places(
        &self,
        mut standings: Vec<TournamentStanding<PlayerId>>,
        last: u32,
    ) -> Vec<TournamentStanding<PlayerId>> {
        let seated: Vec<SeatedPool> =
            (1..=last.min(self.rounds.len() as u32)).filter_map(|r| self.seated_pool(r)).collect();
        for pool in &seated {
            let Some(round) = self.round(pool.round) else { continue };
            let note = format!("{POOL_NOTE}round {} ×{}", pool.round, pool.multiplier);
            for board in round.boards.iter().filter(|b| b.number <= pool.boards) {
                for line in standings.iter_mut().filter(|s| board.seats.contains(&s.player)) {
                    line.notes.push(note.clone());
                }
            }
        }
        let Some(deciding) = seated.iter().find(|p| p.decides_places) else { return standings };
        let Some(round) = self.round(deciding.round) else { return standings };
        let pool_boards: Vec<_> =
            round.boards.iter().filter(|b| b.number <= deciding.boards).collect();
        if pool_boards.iter().any(|b| b.result.is_none()) {
            return standings;
        }
        let mut pool_scores: Vec<(PlayerId, i64)> = Vec::new();
        for board in &pool_boards {
            let system = self.round_scoring_system(deciding.round);
            let Some(scored) = system.and_then(|s| board.scored(s).ok().flatten()) else {
                return standings;
            };
            for (player, row) in scored.rows() {
                pool_scores.push((player, thousandths(deciding.multiplier.apply(row.score))));
            }
        }
        let score_of =
            |player: PlayerId| pool_scores.iter().find(|(p, _)| *p == player).map(|s| s.1);
        let (mut pool, rest): (Vec<_>, Vec<_>) =
            standings.drain(..).partition(|s| score_of(s.player).is_some());
        // A stable sort keeps the standings' order among equal pool scores.
        pool.sort_by_key(|s| std::cmp::Reverse(score_of(s.player)));
        let mut placed = Vec::with_capacity(pool.len() + rest.len());
        let mut previous: Option<(i64, u32, u32)> = None;
        for (index, mut line) in pool.into_iter().enumerate() {
            let score = score_of(line.player).unwrap_or_default();
            let rank = match previous {
                Some((s, old, new)) if s == score && old == line.rank => new,
                _ => index as u32 + 1,
            };
            previous = Some((score, line.rank, rank));
            line.rank = rank;
            line.separated_by = None;
            line.notes.push(format!(
                "{POOL_NOTE}place decided in round {}, {} there",
                deciding.round,
                from_thousandths(score)
            ));
            placed.push(line);
        }
        let offset = placed.len() as u32;
        let mut previous: Option<(u32, u32)> = None;
        for (index, mut line) in rest.into_iter().enumerate() {
            let rank = match previous {
                Some((old, new)) if old == line.rank => new,
                _ => offset + index as u32 + 1,
            };
            previous = Some((line.rank, rank));
            line.rank = rank;
            placed.push(line);
        }
        placed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multiplier_reads_and_prints_as_its_decimal() {
        for (text, thousandths, printed) in
            [("1.5", 1500, "1.5"), ("2", 2000, "2"), ("0.875", 875, "0.875"), ("1.50", 1500, "1.5")]
        {
            let multiplier: ScoreMultiplier = text.parse().unwrap();
            assert_eq!(multiplier.thousandths(), thousandths);
            assert_eq!(multiplier.to_string(), printed);
        }
        for bad in ["0", "-1", "1.2345", "abc", "", "101", ".5", "1e3"] {
            assert!(bad.parse::<ScoreMultiplier>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_multiplied_score_is_exact_in_thousandths() {
        let half = ScoreMultiplier(1500);
        assert_eq!(half.apply(33.333), 50.0);
        assert_eq!(half.apply(0.1), 0.15);
        assert_eq!(ScoreMultiplier(1333).apply(10.001), 13.331);
        assert_eq!(half.apply(-2.001), -3.002);
    }
}
