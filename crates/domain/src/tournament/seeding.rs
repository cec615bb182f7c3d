//! From a tournament's history to the seeder's request (`docs/tournaments.md#seeding`): who
//! is present, who sits out or plays twice, every earlier board, keep-apart pairs, the top
//! board. The same function serves seeding a round and re-running a recorded seeding, so
//! anyone can check a `RoundSeeded` event against the log before it.

use league_scheduling::{Attendee, SeatedPlayer, SeedingRequest, plan_round, seed_round};

use super::commands::SeedRound;
use super::events::{RoundSeeded, TournamentEvent};
use super::{Tournament, seeded_boards};
use crate::aggregate::Aggregate;
use crate::error::DomainError;
use crate::events::{AggregateEvent, DomainEvent};
use crate::ids::{PlayerId, player_key};

/// The outcome of re-running one round's recorded seeding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedingCheck {
    pub round: u32,
    pub algorithm: String,
    pub seed: u64,
    pub recorded_digest: String,
    pub recomputed_digest: String,
    /// The re-run gave the recorded boards, seat for seat.
    pub boards_match: bool,
    /// Why the seeding could not be re-run (another algorithm version, a refusal).
    pub problem: Option<String>,
}

impl SeedingCheck {
    /// The recorded seeding is exactly what its inputs give.
    pub fn verified(&self) -> bool {
        self.problem.is_none()
            && self.boards_match
            && self.recorded_digest == self.recomputed_digest
    }
}

/// The roll call's proposal for a round: who sits out, who plays twice, and why each of them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RollCallProposal {
    pub sitting_out: Vec<PlayerId>,
    pub playing_twice: Vec<PlayerId>,
    /// Each chosen player's reason, e.g. "lowest ranked of those who sat out least (rank 22)".
    pub reasons: Vec<(PlayerId, String)>,
}

impl Tournament {
    /// Round `round`'s present players, in entry order: active entrants whose latest roll-call
    /// answer is present.
    pub fn present(&self, round: u32) -> Vec<PlayerId> {
        let answers = self.roll_call(round);
        self.entrants
            .iter()
            .filter(|e| e.is_active())
            .filter(|e| answers.iter().any(|(p, a)| *p == e.player && a.present))
            .map(|e| e.player)
            .collect()
    }

    /// Who sits out and who plays twice in round `round` if nobody chooses otherwise, and why
    /// (`docs/tournaments.md#rounds-and-roll-call`).
    pub fn proposal(&self, round: u32) -> Result<RollCallProposal, DomainError> {
        let k = self.settings().map_or(0, |s| s.players_per_board) as usize;
        let answers = self.roll_call(round);
        let standings = self.standings(None).unwrap_or_default();
        let attendees: Vec<Attendee> = self
            .present(round)
            .into_iter()
            .map(|player| {
                let attendance =
                    answers.iter().find(|(p, _)| *p == player).map(|(_, a)| *a).unwrap_or_default();
                Attendee {
                    player: player_key(player),
                    standby: attendance.standby,
                    two_boards: attendance.two_boards,
                    times_sat_out: self.times_sat_out(player),
                    rank: standings.iter().find(|s| s.player == player).map(|s| s.rank),
                }
            })
            .collect();
        let plan = plan_round(k, &attendees)
            .map_err(|error| DomainError::CannotSeed(error.to_string()))?;
        let reasons = plan
            .reasons
            .iter()
            .map(|(player, reason)| Ok((parse_player(player)?, reason.clone())))
            .collect::<Result<_, DomainError>>()?;
        Ok(RollCallProposal {
            sitting_out: parse_players(&plan.sitting_out)?,
            playing_twice: parse_players(&plan.playing_twice)?,
            reasons,
        })
    }

    pub(super) fn plan(
        &self,
        c: &SeedRound,
    ) -> Result<(Vec<PlayerId>, Vec<PlayerId>), DomainError> {
        if c.sitting_out.is_none() && c.playing_twice.is_none() {
            let proposal = self.proposal(c.round)?;
            return Ok((proposal.sitting_out, proposal.playing_twice));
        }
        let present = self.present(c.round);
        let sitting_out = c.sitting_out.clone().unwrap_or_default();
        let playing_twice = c.playing_twice.clone().unwrap_or_default();
        for (field, players) in [("sittingOut", &sitting_out), ("playingTwice", &playing_twice)] {
            for player in players {
                if !present.contains(player) {
                    return Err(DomainError::invalid(
                        field,
                        format!("player {player} is not present in round {}'s roll call", c.round),
                    ));
                }
            }
        }
        Ok((sitting_out, playing_twice))
    }

    /// The seeder's request for round `round` from the history so far.
    pub fn seeding_request(
        &self,
        round: u32,
        seed: u64,
        sitting_out: &[PlayerId],
        playing_twice: &[PlayerId],
    ) -> Result<SeedingRequest, DomainError> {
        let settings = self.settings().ok_or_else(|| DomainError::conflict("no tournament"))?;
        let labels = self.seat_labels();
        let present = self.present(round);
        let earlier_boards = self
            .boards()
            .map(|board| {
                board
                    .seats
                    .iter()
                    .zip(&labels)
                    .map(|(player, seat)| SeatedPlayer {
                        player: player_key(*player),
                        seat: seat.clone(),
                    })
                    .collect()
            })
            .collect();
        let keep_apart = settings
            .keep_apart
            .iter()
            .filter(|pair| pair.iter().all(|p| present.contains(p)))
            .map(|[a, b]| [player_key(*a), player_key(*b)])
            .collect();
        let pool = self.pool_for_seeding(round, &present, sitting_out, playing_twice)?;
        let top_board = if pool.is_empty()
            && settings.top_board_last_round
            && round == settings.rounds
            && round > 1
        {
            self.top_board(settings.players_per_board as usize, &present, sitting_out)
        } else {
            Vec::new()
        };
        Ok(SeedingRequest {
            board_size: settings.players_per_board as usize,
            seats: Some(labels),
            players: present.iter().copied().map(player_key).collect(),
            earlier_boards,
            keep_apart,
            sitting_out: sitting_out.iter().copied().map(player_key).collect(),
            playing_twice: playing_twice.iter().copied().map(player_key).collect(),
            top_board: top_board.into_iter().map(player_key).collect(),
            teams: self.teams_kept_apart(round, &present, sitting_out),
            seed,
            power_preferences: self.seeding_preferences(&present),
            pool: pool.into_iter().map(player_key).collect(),
        })
    }

    /// The best k present players by the standings so far (not sitting out), when there are k.
    fn top_board(&self, k: usize, present: &[PlayerId], sitting_out: &[PlayerId]) -> Vec<PlayerId> {
        let Ok(standings) = self.standings(None) else { return Vec::new() };
        let top: Vec<PlayerId> = standings
            .iter()
            .map(|s| s.player)
            .filter(|p| present.contains(p) && !sitting_out.contains(p))
            .take(k)
            .collect();
        if top.len() == k { top } else { Vec::new() }
    }

    /// Re-runs every recorded seeding of a tournament's stream from the events before it.
    pub fn verify_seeding<'a>(
        events: impl IntoIterator<Item = &'a DomainEvent>,
    ) -> Vec<SeedingCheck> {
        let mut state = Tournament::default();
        let mut checks = Vec::new();
        for event in events.into_iter().filter_map(TournamentEvent::of) {
            if let TournamentEvent::RoundSeeded(recorded) = event {
                checks.push(state.check_seeding(recorded));
            }
            state.apply(event);
        }
        checks
    }

    fn check_seeding(&self, recorded: &RoundSeeded) -> SeedingCheck {
        let mut check = SeedingCheck {
            round: recorded.round,
            algorithm: recorded.algorithm.clone(),
            seed: recorded.seed,
            recorded_digest: recorded.inputs_digest.clone(),
            recomputed_digest: String::new(),
            boards_match: false,
            problem: None,
        };
        let request = match self.seeding_request(
            recorded.round,
            recorded.seed,
            &recorded.sitting_out,
            &recorded.playing_twice,
        ) {
            Ok(request) => request,
            Err(error) => {
                check.problem = Some(error.to_string());
                return check;
            }
        };
        if recorded.algorithm != request.algorithm() {
            check.problem = Some(format!(
                "recorded with {}, this build seeds it with {}",
                recorded.algorithm,
                request.algorithm()
            ));
            return check;
        }
        check.recomputed_digest = request.digest();
        match seed_round(&request) {
            Ok(seeding) => {
                check.boards_match =
                    seeded_boards(recorded.tournament_id, recorded.round, &seeding)
                        .is_ok_and(|boards| boards == recorded.boards);
            }
            Err(error) => check.problem = Some(error.to_string()),
        }
        check
    }
}

fn parse_players(players: &[String]) -> Result<Vec<PlayerId>, DomainError> {
    players.iter().map(|p| parse_player(p)).collect()
}

fn parse_player(player: &str) -> Result<PlayerId, DomainError> {
    player
        .parse()
        .map_err(|_| DomainError::Inconsistent(format!("the planner returned {player:?}")))
}
