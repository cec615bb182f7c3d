//! The `Tournament` aggregate (stream `tournament-<uuid>`): a competition played in rounds
//! (`docs/tournaments.md`). Entrants come and go, each round has a roll call, is seeded into
//! boards from it, and its boards' results are reported and corrected like league games.
//! Standings combine the boards' scores with the tournament's round and tournament scoring.
//! Registration controls (closed or open, a window, a cap with a waitlist, approval) decide
//! how an entry is taken (`docs/tournaments.md#registration`).

mod awards;
pub(crate) mod commands;
mod confirmation;
pub(crate) mod events;
mod permanent;
mod pools;
mod powers;
mod progress;
mod rulings;
mod schedule;
mod seeding;
mod settings;
mod standings;
mod teams;
#[cfg(test)]
pub(crate) mod tests;

use std::collections::BTreeMap;

use league_scheduling::{SeatedPlayer, Seeding};
use league_scoring::{GameResult, ScoringError, ScoringSystem, score_game_unexplained};

pub use self::awards::{
    Award, AwardGiven, AwardRevoked, BestCountryRule, BestCountryRuleChanged,
    ChangeBestCountryRule, CountryLeader, GiveAward, PowerBest, RevokeAward,
};
pub use self::commands::*;
pub use self::confirmation::{
    BoardResultAwaitingConfirmation, BoardResultDisputed, ConfirmBoardResult, DisputeBoardResult,
    PendingResult,
};
pub use self::events::*;
pub use self::pools::{
    PoolPlayers, RemoveRoundPool, RoundPool, RoundPoolRemoved, RoundPoolSet, RoundScoringSet,
    ScoreMultiplier, SeatedPool, SetRoundPool, SetRoundScoring, is_pool_note,
};
pub use self::powers::{
    BoardPowerChoiceOpened, BoardPowersSet, ChangePowerAssignment, ChoosePower, PowerAssignment,
    PowerAssignmentChanged, PowerAssignmentRule, PowerChoice, PowerChosen,
    PowerPreferencesSubmitted, SetBoardPowers, SubmitPowerPreferences,
};
pub use self::progress::{BoardProgress, BoardProgressRecorded, ProgressYear, RecordBoardProgress};
pub use self::rulings::{
    AdjustScore, Adjustment, AdjustmentTarget, BreakTopBoardTie, ChangeKeepApart, Handicap,
    MAX_RULING_POINTS, RevokeScoreAdjustment, RulingKind, RulingLine, SetHandicap, SetUnranked,
};
pub use self::schedule::{RoundTimes, Schedule, Venue};
pub use self::seeding::{RollCallProposal, SeedingCheck};
pub use self::settings::{
    Attendance, Registration, RegistrationChange, Replacement, ReplacementScores, SeededBoard,
    TournamentSettings,
};
pub use self::teams::{
    AddTeamMember, ChangeTeamRules, CreateTeam, DissolveTeam, RemoveTeamMember, RenameTeam, Team,
    TeamCreated, TeamDissolved, TeamMemberAdded, TeamMemberRemoved, TeamRenamed, TeamRules,
    TeamRulesChanged, TeamScore, TeamScoreBasis, TeamStanding, rank_teams,
};
use crate::aggregate::{Aggregate, Decision};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, BoardId, PlayerId, TournamentId, board_id};
use crate::rights::{Competition, Organisers, authorise_creation};
use crate::rules::{check_players_per_game, clean_name, clean_reason, validate_result};
use crate::scores::ScoredResult;
use crate::seats::seat_labels;

/// Most rounds a tournament may plan.
pub const MAX_ROUNDS: u32 = 20;

/// Where a tournament is: taking entries and playing rounds, or completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TournamentStatus {
    /// No round seeded yet.
    Open,
    /// At least one round seeded, the last one not completed.
    Running,
    Completed,
}

/// A player who entered, with when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entrant {
    pub player: PlayerId,
    /// Rounds already seeded when they entered (0: from the start; a late entry plays from
    /// the next round).
    pub entered_after_round: u32,
    /// Rounds seeded when they withdrew.
    pub withdrawn_after_round: Option<u32>,
}

impl Entrant {
    pub fn is_active(&self) -> bool {
        self.withdrawn_after_round.is_none()
    }
}

/// One board of a round.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    pub id: BoardId,
    pub round: u32,
    pub number: u32,
    /// `seats[i]` is the player in seat i.
    pub seats: Vec<PlayerId>,
    pub result: Option<GameResult>,
    pub replacements: Vec<Replacement>,
    pub reported_by: Option<Actor>,
    pub corrections: u32,
    /// Each correction's reason, oldest first.
    pub correction_reasons: Vec<String>,
    /// A player's report waiting for confirmation (`docs/tournaments.md#result-confirmation`).
    pub pending: Option<PendingResult>,
}

impl Board {
    pub fn is_seated(&self, player: PlayerId) -> bool {
        self.seats.contains(&player)
    }

    /// The board's result scored under `system`, each row matched to its seat (`None` until
    /// the board has a result), as a league game's is.
    pub fn scored(&self, system: ScoringSystem) -> Result<Option<ScoredResult>, DomainError> {
        let Some(result) = &self.result else { return Ok(None) };
        let scored = score_game_unexplained(system, result)
            .map_err(|error| DomainError::Inconsistent(error.to_string()))?;
        ScoredResult::new(scored, self.seats.iter().copied())
            .map(Some)
            .map_err(|error| DomainError::Inconsistent(error.to_string()))
    }
}

/// One seeded round.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    pub number: u32,
    pub boards: Vec<Board>,
    pub sitting_out: Vec<PlayerId>,
    pub playing_twice: Vec<PlayerId>,
    /// The seeding as recorded (seed, digest, figures).
    pub seeded: RoundSeeded,
    /// Swaps made before the round started, in order.
    pub swaps: Vec<RoundPlayersSwapped>,
    pub completed: bool,
}

impl Round {
    /// Whether any board of the round has a result (the round has started: no more swaps).
    pub fn started(&self) -> bool {
        self.boards.iter().any(|board| board.result.is_some())
    }

    pub(crate) fn takes_part(&self, player: PlayerId) -> bool {
        self.sitting_out.contains(&player) || self.boards.iter().any(|b| b.is_seated(player))
    }
}

/// A tournament's state, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tournament {
    version: u64,
    created: Option<TournamentCreated>,
    entrants: Vec<Entrant>,
    /// Round → each player's latest answer, in the order first answered.
    roll_calls: BTreeMap<u32, Vec<(PlayerId, Attendance)>>,
    rounds: Vec<Round>,
    completed: bool,
    organisers: Organisers,
    /// Players waiting for a place, first in line first.
    waitlist: Vec<PlayerId>,
    /// Entry requests the organisers have not answered, in the order asked.
    requests: Vec<PlayerId>,
    /// Players whose request the organisers declined (they may not ask again).
    declined: Vec<PlayerId>,
    /// Each board's recorded progress (`docs/tournaments.md#live-progress`).
    progress: BTreeMap<BoardId, progress::BoardProgress>,
    /// Round → when it is played, as last set (`docs/tournaments.md#times`).
    round_times: BTreeMap<u32, RoundTimes>,
    /// The Best Country rule and the awards given (`docs/tournaments.md#best-country-and-awards`).
    awards: awards::Awards,
    /// The team rules and the teams (`docs/tournaments.md#teams`).
    teams: teams::Teams,
    /// How powers are given, the players' rankings, boards still choosing
    /// (`docs/tournaments.md#power-assignment`).
    powers: powers::Powers,
    /// Each round's pool and own scoring system
    /// (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`).
    stages: pools::Stages,
    /// Score adjustments, handicaps, unranked entrants, top-board orders
    /// (`docs/tournaments.md#rulings`).
    rulings: rulings::RulingsState,
}

impl Tournament {
    pub fn exists(&self) -> bool {
        self.created.is_some()
    }

    pub fn id(&self) -> Option<TournamentId> {
        self.created.as_ref().map(|created| created.tournament_id)
    }

    pub fn settings(&self) -> Option<&TournamentSettings> {
        self.created.as_ref().map(|created| &created.settings)
    }

    /// `None` before the tournament is created.
    pub fn status(&self) -> Option<TournamentStatus> {
        self.created.as_ref()?;
        Some(if self.completed {
            TournamentStatus::Completed
        } else if self.rounds.is_empty() {
            TournamentStatus::Open
        } else {
            TournamentStatus::Running
        })
    }

    /// Who organises the tournament besides the site admin.
    pub fn organisers(&self) -> &Organisers {
        &self.organisers
    }

    /// Entrants in entry order (withdrawn ones included).
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    pub fn entrant(&self, player: PlayerId) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.player == player)
    }

    /// The registration controls as they now stand (`docs/tournaments.md#registration`).
    pub fn registration(&self) -> Registration {
        self.settings().map(|s| s.registration).unwrap_or_default()
    }

    /// Dates, venue, time zone and check-in window as they now stand.
    pub fn schedule(&self) -> Schedule {
        self.settings().map(|s| s.schedule.clone()).unwrap_or_default()
    }

    /// When round `round` is played, if an organiser set it.
    pub fn round_times(&self, round: u32) -> Option<RoundTimes> {
        self.round_times.get(&round).copied()
    }

    /// When a player's own check-in for round `round` opens, if it waits for a set time
    /// (the round has a start time and the tournament a check-in window).
    pub fn check_in_opens_at(&self, round: u32) -> Option<chrono::DateTime<chrono::Utc>> {
        self.schedule().check_in_opens_at(self.round_times(round)?.starts_at)
    }

    /// Players waiting for a place, first in line first.
    pub fn waitlist(&self) -> &[PlayerId] {
        &self.waitlist
    }

    /// Entry requests awaiting the organisers' answer, in the order asked.
    pub fn requests(&self) -> &[PlayerId] {
        &self.requests
    }

    /// Entrants who have not withdrawn (the ones the cap counts).
    pub fn active_entrants(&self) -> usize {
        self.entrants.iter().filter(|e| e.is_active()).count()
    }

    /// The seeded rounds, in order.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    pub fn round(&self, number: u32) -> Option<&Round> {
        self.rounds.get(number.checked_sub(1)? as usize)
    }

    /// The round whose roll call is open: the next one to seed (`None` once every round is
    /// seeded).
    pub fn next_round(&self) -> Option<u32> {
        let next = self.rounds.len() as u32 + 1;
        self.settings().filter(|s| next <= s.rounds).map(|_| next)
    }

    /// A round's roll call: each answering player's latest answer, in first-answer order.
    pub fn roll_call(&self, round: u32) -> &[(PlayerId, Attendance)] {
        self.roll_calls.get(&round).map(Vec::as_slice).unwrap_or_default()
    }

    pub fn board(&self, id: BoardId) -> Option<&Board> {
        self.rounds.iter().flat_map(|r| &r.boards).find(|b| b.id == id)
    }

    /// Every board of every round, in round and board order.
    pub fn boards(&self) -> impl Iterator<Item = &Board> {
        self.rounds.iter().flat_map(|r| &r.boards)
    }

    /// Seat labels of a board (the seven powers for Diplomacy).
    pub fn seat_labels(&self) -> Vec<String> {
        self.settings()
            .map(|s| seat_labels(s.scoring_system, s.players_per_board))
            .unwrap_or_default()
    }

    /// How many earlier rounds each player sat out.
    fn times_sat_out(&self, player: PlayerId) -> u32 {
        self.rounds.iter().filter(|r| r.sitting_out.contains(&player)).count() as u32
    }

    fn created(&self, id: TournamentId) -> Result<&TournamentSettings, DomainError> {
        self.settings().ok_or(DomainError::TournamentNotFound(id))
    }

    fn active_entrant(&self, player: PlayerId) -> Result<&Entrant, DomainError> {
        match self.entrant(player) {
            Some(entrant) if entrant.is_active() => Ok(entrant),
            Some(_) => Err(DomainError::conflict(format!("player {player} has withdrawn"))),
            None => Err(DomainError::conflict(format!("player {player} has not entered"))),
        }
    }

    fn create(
        &self,
        c: &CreateTournament,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let created_by = authorise_creation(c.actor, context, "tournaments")?;
        if self.exists() {
            return Err(DomainError::conflict(format!(
                "tournament {} already exists",
                c.tournament_id
            )));
        }
        let settings = validate_settings(&c.settings)?;
        Ok(vec![TournamentEvent::TournamentCreated(TournamentCreated {
            tournament_id: c.tournament_id,
            settings,
            created_by,
        })])
    }

    fn add_co_organiser(
        &self,
        c: &AddTournamentCoOrganiser,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        let tournament = Competition::Tournament(c.tournament_id);
        self.organisers.check_new_co_organiser(c.actor, c.player_id, tournament, context)?;
        Ok(vec![TournamentEvent::TournamentCoOrganiserAdded(TournamentCoOrganiserAdded {
            tournament_id: c.tournament_id,
            player_id: c.player_id,
            added_by: c.actor,
        })])
    }

    /// `actor` may act for `player` in this tournament (themself, or as an organiser).
    fn authorise_for_player(
        &self,
        actor: Actor,
        player: PlayerId,
        tournament: TournamentId,
        right: &str,
    ) -> Result<(), DomainError> {
        let competition = Competition::Tournament(tournament);
        self.organisers.authorise_for_player(actor, player, competition, right)
    }

    /// `actor` may `right` only as one of the tournament's organisers or the site admin.
    fn authorise(
        &self,
        actor: Actor,
        tournament: TournamentId,
        right: &str,
    ) -> Result<(), DomainError> {
        self.organisers.authorise(actor, Competition::Tournament(tournament), right)
    }

    fn enter(
        &self,
        c: &EnterTournament,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise_for_player(c.actor, c.player_id, c.tournament_id, "enter")?;
        if context.unknown_players.contains(&c.player_id) {
            return Err(DomainError::PlayerNotFound(c.player_id));
        }
        context.refuse_erased(c.player_id)?;
        let organiser = self.organisers.may_manage(c.actor);
        self.refuse_second_entry(c.player_id, organiser)?;
        self.refuse_after_last_round()?;
        let registration = self.registration();
        if !organiser {
            // Organisers enter anyone at any time, a walk-in at the venue included
            // (`docs/tournaments.md#registration`).
            if let Some(refusal) = registration.refusal(context.now) {
                return Err(DomainError::conflict(refusal));
            }
            if registration.approval {
                return Ok(vec![TournamentEvent::TournamentEntryRequested(
                    TournamentEntryRequested {
                        tournament_id: c.tournament_id,
                        player_id: c.player_id,
                        requested_by: c.actor,
                    },
                )]);
            }
        }
        Ok(vec![self.place(c.tournament_id, c.player_id, c.actor)])
    }

    /// `CONFLICT` when `player` already entered, withdrew, waits on the waitlist or for an
    /// answer, or (unless an organiser enters them) was declined.
    fn refuse_second_entry(&self, player: PlayerId, organiser: bool) -> Result<(), DomainError> {
        let refusal = if let Some(entrant) = self.entrant(player) {
            if entrant.is_active() {
                format!("player {player} has already entered")
            } else {
                format!(
                    "player {player} has withdrawn and cannot enter again (an organiser may \
                     undo the withdrawal until the next round is seeded)"
                )
            }
        } else if let Some(place) = self.waitlist.iter().position(|p| *p == player) {
            format!("player {player} is already on the waitlist (place {})", place + 1)
        } else if self.requests.contains(&player) {
            format!("player {player} has already asked to enter: the organisers will answer")
        } else if self.declined.contains(&player) && !organiser {
            format!("the organisers declined player {player}'s entry")
        } else {
            return Ok(());
        };
        Err(DomainError::conflict(refusal))
    }

    fn refuse_after_last_round(&self) -> Result<(), DomainError> {
        if self.next_round().is_none() {
            return Err(DomainError::conflict(
                "the last round is already seeded: entries are closed",
            ));
        }
        Ok(())
    }

    /// The entry of `player`: into the tournament, or onto the waitlist when the cap is
    /// reached.
    fn place(
        &self,
        tournament_id: TournamentId,
        player_id: PlayerId,
        by: Actor,
    ) -> TournamentEvent {
        if self.registration().is_full(self.active_entrants()) {
            TournamentEvent::TournamentPlayerWaitlisted(TournamentPlayerWaitlisted {
                tournament_id,
                player_id,
                waitlisted_by: by,
            })
        } else {
            TournamentEvent::TournamentPlayerEntered(TournamentPlayerEntered {
                tournament_id,
                player_id,
                entered_by: by,
            })
        }
    }

    /// The waitlist's first players promoted into the places free under `registration` with
    /// `active` entrants, while entries are still taken; erased players wait unpromoted.
    fn promotions(
        &self,
        tournament_id: TournamentId,
        registration: Registration,
        active: usize,
        context: &Context,
    ) -> Vec<TournamentEvent> {
        if self.next_round().is_none() {
            return Vec::new();
        }
        self.waitlist
            .iter()
            .filter(|p| !context.erased_players.contains(p))
            .take(registration.places_left(active))
            .map(|&player_id| {
                TournamentEvent::TournamentPlayerPromoted(TournamentPlayerPromoted {
                    tournament_id,
                    player_id,
                })
            })
            .collect()
    }

    fn withdraw(
        &self,
        c: &WithdrawFromTournament,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise_for_player(c.actor, c.player_id, c.tournament_id, "withdraw")?;
        if self.completed {
            return Err(DomainError::conflict(format!(
                "tournament {} has completed: its entrants can no longer withdraw",
                c.tournament_id
            )));
        }
        if self.waitlist.contains(&c.player_id) || self.requests.contains(&c.player_id) {
            return Ok(vec![TournamentEvent::TournamentEntryCancelled(TournamentEntryCancelled {
                tournament_id: c.tournament_id,
                player_id: c.player_id,
                cancelled_by: c.actor,
            })]);
        }
        self.active_entrant(c.player_id)?;
        if let Some(round) = self.rounds.last()
            && !round.completed
            && round.boards.iter().any(|b| b.is_seated(c.player_id))
        {
            return Err(DomainError::conflict(format!(
                "player {} is seated in round {}, which is still being played: withdraw after it",
                c.player_id, round.number
            )));
        }
        let mut events =
            vec![TournamentEvent::TournamentPlayerWithdrawn(TournamentPlayerWithdrawn {
                tournament_id: c.tournament_id,
                player_id: c.player_id,
                after_round: self.rounds.len() as u32,
                withdrawn_by: c.actor,
            })];
        let active = self.active_entrants() - 1;
        events.extend(self.promotions(c.tournament_id, self.registration(), active, context));
        Ok(events)
    }

    fn undo_withdrawal(
        &self,
        c: &UndoTournamentWithdrawal,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "undo a withdrawal")?;
        let Some(withdrawn_after) = self.entrant(c.player_id).and_then(|e| e.withdrawn_after_round)
        else {
            return Err(DomainError::conflict(format!(
                "player {} has not withdrawn: nothing to undo",
                c.player_id
            )));
        };
        if self.completed {
            return Err(DomainError::conflict(format!(
                "tournament {} has completed: its withdrawals stand",
                c.tournament_id
            )));
        }
        let seeded = self.rounds.len() as u32;
        if seeded > withdrawn_after {
            return Err(DomainError::conflict(format!(
                "round {seeded} was seeded after player {} withdrew: the withdrawal stands",
                c.player_id
            )));
        }
        context.refuse_erased(c.player_id)?;
        Ok(vec![TournamentEvent::TournamentWithdrawalUndone(TournamentWithdrawalUndone {
            tournament_id: c.tournament_id,
            player_id: c.player_id,
            undone_by: c.actor,
        })])
    }

    fn change_registration(
        &self,
        c: &ChangeTournamentRegistration,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "change registration")?;
        let current = self.registration();
        let registration = c.change.applied_to(current);
        if registration == current {
            return Err(DomainError::conflict("the registration controls are already so"));
        }
        let beyond_opening = Registration { closed: current.closed, ..registration } != current;
        if !self.rounds.is_empty() && beyond_opening {
            return Err(DomainError::conflict(
                "round 1 is seeded: only opening or closing registration may change now",
            ));
        }
        validate_registration(&registration)?;
        let mut events =
            vec![TournamentEvent::TournamentRegistrationChanged(TournamentRegistrationChanged {
                tournament_id: c.tournament_id,
                registration,
                changed_by: c.actor,
            })];
        events.extend(self.promotions(
            c.tournament_id,
            registration,
            self.active_entrants(),
            context,
        ));
        Ok(events)
    }

    fn approve(
        &self,
        c: &ApproveTournamentEntry,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "approve entries")?;
        self.pending_request(c.player_id)?;
        context.refuse_erased(c.player_id)?;
        self.refuse_after_last_round()?;
        Ok(vec![
            TournamentEvent::TournamentEntryApproved(TournamentEntryApproved {
                tournament_id: c.tournament_id,
                player_id: c.player_id,
                approved_by: c.actor,
            }),
            self.place(c.tournament_id, c.player_id, c.actor),
        ])
    }

    fn decline(&self, c: &DeclineTournamentEntry) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "decline entries")?;
        self.pending_request(c.player_id)?;
        Ok(vec![TournamentEvent::TournamentEntryDeclined(TournamentEntryDeclined {
            tournament_id: c.tournament_id,
            player_id: c.player_id,
            declined_by: c.actor,
        })])
    }

    fn pending_request(&self, player: PlayerId) -> Result<(), DomainError> {
        if self.requests.contains(&player) {
            Ok(())
        } else {
            Err(DomainError::conflict(format!(
                "player {player} has no entry request waiting for an answer"
            )))
        }
    }

    fn answer_roll_call(
        &self,
        c: &AnswerRollCall,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise_for_player(c.actor, c.player_id, c.tournament_id, "answer the roll call")?;
        self.active_entrant(c.player_id)?;
        context.refuse_erased(c.player_id)?;
        match self.next_round() {
            Some(next) if next == c.round => {}
            Some(next) => {
                return Err(DomainError::invalid(
                    "round",
                    format!("the roll call open is round {next}'s, not round {}'s", c.round),
                ));
            }
            None => return Err(DomainError::conflict("every round is already seeded")),
        }
        if !self.organisers.may_manage(c.actor)
            && let Some(opens_at) = self.check_in_opens_at(c.round)
            && context.now < opens_at
        {
            // Organisers record anyone's answer at any time (`docs/tournaments.md#times`).
            return Err(DomainError::conflict(format!(
                "check-in for round {} opens at {}",
                c.round,
                self.schedule().local_time(opens_at)
            )));
        }
        let attendance = if c.attendance.present {
            c.attendance
        } else {
            // An absent player offers nothing.
            Attendance::default()
        };
        Ok(vec![TournamentEvent::RollCallAnswered(RollCallAnswered {
            tournament_id: c.tournament_id,
            round: c.round,
            player_id: c.player_id,
            attendance,
            answered_by: c.actor,
        })])
    }

    fn seed_round(
        &self,
        c: &SeedRound,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "seed a round")?;
        match self.next_round() {
            Some(next) if next == c.round => {}
            Some(next) => {
                return Err(DomainError::invalid(
                    "round",
                    format!("the next round to seed is {next}, not {}", c.round),
                ));
            }
            None => return Err(DomainError::conflict("every round is already seeded")),
        }
        if let Some(previous) = self.rounds.last()
            && !previous.completed
        {
            let waiting = previous.boards.iter().filter(|b| b.result.is_none()).count();
            return Err(DomainError::conflict(format!(
                "round {} still has {waiting} board(s) without a result",
                previous.number
            )));
        }
        // A present player erased since answering would be seated (or sit out) anew: the
        // organisers withdraw them first (`docs/personal-data.md#erasure`).
        if let Some(erased) =
            self.present(c.round).into_iter().find(|p| context.erased_players.contains(p))
        {
            return Err(DomainError::conflict(format!(
                "player {erased} was erased: withdraw them before seeding round {}",
                c.round
            )));
        }
        // Permanent keep-apart lists: recorded before the seeding that uses them.
        let carried = self.permanent_pairs_carried(c, context);
        if !carried.is_empty() {
            let mut carrying = self.clone();
            carried.iter().for_each(|event| carrying.apply(event));
            return Ok(carried.into_iter().chain(carrying.seed_round(c, context)?).collect());
        }
        let plan = self.plan(c)?;
        let request = self.seeding_request(c.round, c.seed, &plan.0, &plan.1)?;
        let seeding = league_scheduling::seed_round(&request)
            .map_err(|error| DomainError::CannotSeed(error.to_string()))?;
        let boards = seeded_boards(c.tournament_id, c.round, &seeding)?;
        let seeded = RoundSeeded {
            tournament_id: c.tournament_id,
            round: c.round,
            boards,
            sitting_out: plan.0,
            playing_twice: plan.1,
            top_board: !request.top_board.is_empty(),
            algorithm: request.algorithm().to_owned(),
            seed: c.seed,
            inputs_digest: request.digest(),
            repeat_score: seeding.repeat_score,
            seat_repeats: seeding.seat_repeats,
            keep_apart_met: seeding.keep_apart_met,
            seeded_by: c.actor,
            pool_boards: (request.pool.len() / request.board_size.max(1)) as u32,
        };
        let choices = self.power_choices_opened(&seeded);
        Ok([TournamentEvent::RoundSeeded(seeded)].into_iter().chain(choices).collect())
    }

    fn swap(
        &self,
        c: &SwapRoundPlayers,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "swap players")?;
        let round = self.round(c.round).ok_or_else(|| {
            DomainError::invalid("round", format!("round {} is not seeded", c.round))
        })?;
        if round.started() {
            return Err(DomainError::conflict(format!(
                "round {} has started (a board has a result): players can no longer be swapped",
                c.round
            )));
        }
        if c.first == c.second {
            return Err(DomainError::invalid("second", "swap two different players"));
        }
        for (field, player) in [("first", c.first), ("second", c.second)] {
            if !round.takes_part(player) {
                return Err(DomainError::invalid(
                    field,
                    format!(
                        "player {player} is neither seated nor sitting out in round {}",
                        c.round
                    ),
                ));
            }
        }
        if round.sitting_out.contains(&c.first) && round.sitting_out.contains(&c.second) {
            return Err(DomainError::invalid("second", "both players sit out: nothing to swap"));
        }
        context.refuse_erased(c.first)?;
        context.refuse_erased(c.second)?;
        let reason = clean_reason(&c.reason)?;
        Ok(vec![TournamentEvent::RoundPlayersSwapped(RoundPlayersSwapped {
            tournament_id: c.tournament_id,
            round: c.round,
            first: c.first,
            second: c.second,
            reason,
            swapped_by: c.actor,
        })])
    }

    fn report(
        &self,
        c: &ReportBoardResult,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let (_, board) = self.board_for(
            c.actor,
            c.tournament_id,
            c.board_id,
            "report the result of a board they are not seated on",
        )?;
        self.refuse_while_choosing(c.board_id)?;
        if board.result.is_some() {
            return Err(DomainError::conflict(format!(
                "board {} already has a result; use a correction",
                c.board_id
            )));
        }
        let awaits = self.report_awaits_confirmation(c.actor, c.tournament_id);
        if awaits && board.pending.is_some() {
            return Err(DomainError::conflict(format!(
                "board {} has a result awaiting confirmation: confirm or dispute it",
                c.board_id
            )));
        }
        let result = validate_result(self.board_system(board), &board.seats, &c.result)?;
        check_replacements(board, &c.replacements, context)?;
        if awaits {
            return Ok(vec![TournamentEvent::BoardResultAwaitingConfirmation(
                BoardResultAwaitingConfirmation {
                    tournament_id: c.tournament_id,
                    board_id: c.board_id,
                    result,
                    replacements: c.replacements.clone(),
                    reported_by: c.actor,
                },
            )]);
        }
        let finished = BoardFinished {
            tournament_id: c.tournament_id,
            board_id: c.board_id,
            result,
            replacements: c.replacements.clone(),
            reported_by: c.actor,
            confirmed_by: None,
        };
        Ok(self.finishing(board, finished))
    }

    /// `finished`, with the round's and the tournament's completion when it is the last
    /// board without a result.
    fn finishing(&self, board: &Board, finished: BoardFinished) -> Vec<TournamentEvent> {
        let tournament_id = finished.tournament_id;
        let mut events = vec![TournamentEvent::BoardFinished(finished)];
        let round = self.round(board.round).expect("a board belongs to a seeded round");
        if round.boards.iter().filter(|b| b.id != board.id).all(|b| b.result.is_some()) {
            events.push(TournamentEvent::RoundCompleted(RoundCompleted {
                tournament_id,
                round: board.round,
            }));
            if self.settings().is_some_and(|s| board.round == s.rounds) {
                events.push(TournamentEvent::TournamentCompleted(TournamentCompleted {
                    tournament_id,
                }));
            }
        }
        events
    }

    fn correct(
        &self,
        c: &CorrectBoardResult,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "correct results")?;
        let board = self.board(c.board_id).ok_or(DomainError::BoardNotFound(c.board_id))?;
        if board.result.is_none() {
            return Err(DomainError::conflict(format!(
                "board {} has no result yet; report it instead of correcting",
                c.board_id
            )));
        }
        let reason = clean_reason(&c.reason)?;
        let result = validate_result(self.board_system(board), &board.seats, &c.result)?;
        check_replacements(board, &c.replacements, context)?;
        Ok(vec![TournamentEvent::BoardResultCorrected(BoardResultCorrected {
            tournament_id: c.tournament_id,
            board_id: c.board_id,
            result,
            replacements: c.replacements.clone(),
            reason,
            corrected_by: c.actor,
        })])
    }

    /// The tournament's settings and board `board`, which `actor` may act on as a player
    /// seated on it or as a director (its organisers, the site admin); else `right` is
    /// refused.
    fn board_for(
        &self,
        actor: Actor,
        tournament: TournamentId,
        board: BoardId,
        right: &str,
    ) -> Result<(&TournamentSettings, &Board), DomainError> {
        let settings = self.created(tournament)?;
        let board = self.board(board).ok_or(DomainError::BoardNotFound(board))?;
        if !actor.player_id().is_some_and(|p| board.is_seated(p)) {
            self.authorise(actor, tournament, right)?;
        }
        Ok((settings, board))
    }

    fn change_schedule(
        &self,
        c: &ChangeTournamentSchedule,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "change the schedule")?;
        let schedule = c.schedule.validated()?;
        if schedule == self.schedule() {
            return Err(DomainError::conflict("the schedule is already so"));
        }
        Ok(vec![TournamentEvent::TournamentScheduleChanged(TournamentScheduleChanged {
            tournament_id: c.tournament_id,
            schedule,
            changed_by: c.actor,
        })])
    }

    fn set_round_times(&self, c: &SetRoundTimes) -> Result<Vec<TournamentEvent>, DomainError> {
        let settings = self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "set a round's times")?;
        if !(1..=settings.rounds).contains(&c.round) {
            return Err(DomainError::invalid(
                "round",
                format!("the tournament plans rounds 1 to {}, not {}", settings.rounds, c.round),
            ));
        }
        c.times.validate()?;
        if self.round_times(c.round) == Some(c.times) {
            return Err(DomainError::conflict(format!("round {}'s times are already so", c.round)));
        }
        Ok(vec![TournamentEvent::RoundTimesSet(RoundTimesSet {
            tournament_id: c.tournament_id,
            round: c.round,
            times: c.times,
            set_by: c.actor,
        })])
    }

    fn board_mut(&mut self, id: BoardId) -> Option<&mut Board> {
        self.rounds.iter_mut().flat_map(|r| &mut r.boards).find(|b| b.id == id)
    }
}

/// The settings checked against every rule, texts trimmed.
fn validate_settings(requested: &TournamentSettings) -> Result<TournamentSettings, DomainError> {
    let name = clean_name("name", &requested.name)?;
    let game = clean_name("game", &requested.game)?;
    let game_version =
        requested.game_version.as_deref().map(|v| clean_name("gameVersion", v)).transpose()?;
    check_players_per_game(requested.scoring_system, requested.players_per_board).map_err(
        |error| match error {
            DomainError::InvalidInput { message, .. } => {
                DomainError::invalid("playersPerBoard", message)
            }
            other => other,
        },
    )?;
    if !(1..=MAX_ROUNDS).contains(&requested.rounds) {
        return Err(DomainError::invalid(
            "rounds",
            format!("must be 1 to {MAX_ROUNDS}, got {}", requested.rounds),
        ));
    }
    requested
        .tournament_scoring
        .check(requested.rounds)
        .map_err(|error| DomainError::invalid("tournamentScoring", scoring_message(error)))?;
    validate_registration(&requested.registration)?;
    let schedule = requested.schedule.validated()?;
    if !requested.sit_out_points.is_finite() || requested.sit_out_points < 0.0 {
        return Err(DomainError::invalid(
            "sitOutPoints",
            format!("must be a number ≥ 0, got {}", requested.sit_out_points),
        ));
    }
    for (index, [a, b]) in requested.keep_apart.iter().enumerate() {
        if a == b {
            return Err(DomainError::invalid(
                format!("keepApart[{index}]"),
                "a pair needs two different players",
            ));
        }
    }
    Ok(TournamentSettings { name, game, game_version, schedule, ..requested.clone() })
}

/// The window opens before it closes; a cap is at least one entrant.
fn validate_registration(registration: &Registration) -> Result<(), DomainError> {
    if let (Some(opens_at), Some(closes_at)) = (registration.opens_at, registration.closes_at)
        && opens_at >= closes_at
    {
        return Err(DomainError::invalid(
            "registration.closesAt",
            format!(
                "the window must close after it opens ({} is not after {})",
                closes_at.to_rfc3339(),
                opens_at.to_rfc3339()
            ),
        ));
    }
    if registration.max_entrants == Some(0) {
        return Err(DomainError::invalid("registration.maxEntrants", "must be at least 1"));
    }
    Ok(())
}

fn scoring_message(error: ScoringError) -> String {
    match error {
        ScoringError::Invalid { message, .. } | ScoringError::Impossible { message, .. } => message,
        other => other.to_string(),
    }
}

/// Replacements name a seated player of the board (each once, erased or not) and a
/// registered player who is not on it and not erased.
fn check_replacements(
    board: &Board,
    replacements: &[Replacement],
    context: &Context,
) -> Result<(), DomainError> {
    for (index, replacement) in replacements.iter().enumerate() {
        let field = format!("replacements[{index}]");
        if !board.is_seated(replacement.seated) {
            return Err(DomainError::invalid(
                field,
                format!("player {} is not seated on this board", replacement.seated),
            ));
        }
        if board.is_seated(replacement.replacement) {
            return Err(DomainError::invalid(
                field,
                format!("player {} already plays on this board", replacement.replacement),
            ));
        }
        if replacements[..index]
            .iter()
            .any(|r| r.seated == replacement.seated || r.replacement == replacement.replacement)
        {
            return Err(DomainError::invalid(field, "each seat and replacement at most once"));
        }
        if context.unknown_players.contains(&replacement.replacement) {
            return Err(DomainError::PlayerNotFound(replacement.replacement));
        }
        context.refuse_erased(replacement.replacement)?;
    }
    Ok(())
}

/// The seeder's boards as stored: ids derived from the round and number, seats by player id.
fn seeded_boards(
    tournament: TournamentId,
    round: u32,
    seeding: &Seeding,
) -> Result<Vec<SeededBoard>, DomainError> {
    seeding
        .boards
        .iter()
        .enumerate()
        .map(|(index, seats)| {
            let number = index as u32 + 1;
            let seats = seats
                .iter()
                .map(|SeatedPlayer { player, .. }| {
                    player.parse().map_err(|_| {
                        DomainError::Inconsistent(format!("the seeder returned {player:?}"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(SeededBoard { board_id: board_id(tournament, round, number), number, seats })
        })
        .collect()
}

impl Aggregate for Tournament {
    type Command = TournamentCommand;
    type Event = TournamentEvent;

    fn handle(&self, command: &Self::Command, context: &Context) -> Decision<Self::Event> {
        match command {
            TournamentCommand::Create(c) => self.create(c, context),
            TournamentCommand::Enter(c) => self.enter(c, context),
            TournamentCommand::Withdraw(c) => self.withdraw(c, context),
            TournamentCommand::AnswerRollCall(c) => self.answer_roll_call(c, context),
            TournamentCommand::SeedRound(c) => self.seed_round(c, context),
            TournamentCommand::Swap(c) => self.swap(c, context),
            TournamentCommand::ReportResult(c) => self.report(c, context),
            TournamentCommand::CorrectResult(c) => self.correct(c, context),
            TournamentCommand::AddCoOrganiser(c) => self.add_co_organiser(c, context),
            TournamentCommand::ChangeRegistration(c) => self.change_registration(c, context),
            TournamentCommand::ApproveEntry(c) => self.approve(c, context),
            TournamentCommand::DeclineEntry(c) => self.decline(c),
            TournamentCommand::UndoWithdrawal(c) => self.undo_withdrawal(c, context),
            TournamentCommand::RecordProgress(c) => self.record_progress(c),
            TournamentCommand::ChangeSchedule(c) => self.change_schedule(c),
            TournamentCommand::SetRoundTimes(c) => self.set_round_times(c),
            TournamentCommand::ConfirmResult(c) => self.confirm(c),
            TournamentCommand::DisputeResult(c) => self.dispute(c),
            TournamentCommand::ChangeBestCountryRule(c) => self.change_best_country_rule(c),
            TournamentCommand::GiveAward(c) => self.give_award(c, context),
            TournamentCommand::RevokeAward(c) => self.revoke_award(c),
            TournamentCommand::ChangeTeamRules(c) => self.change_team_rules(c),
            TournamentCommand::CreateTeam(c) => self.create_team(c),
            TournamentCommand::RenameTeam(c) => self.rename_team(c),
            TournamentCommand::DissolveTeam(c) => self.dissolve_team(c),
            TournamentCommand::AddTeamMember(c) => self.add_team_member(c, context),
            TournamentCommand::RemoveTeamMember(c) => self.remove_team_member(c),
            TournamentCommand::ChangePowerAssignment(c) => self.change_power_assignment(c),
            TournamentCommand::SubmitPowerPreferences(c) => {
                self.submit_power_preferences(c, context)
            }
            TournamentCommand::SetBoardPowers(c) => self.set_board_powers(c),
            TournamentCommand::ChoosePower(c) => self.choose_power(c),
            TournamentCommand::SetRoundPool(c) => self.set_round_pool(c),
            TournamentCommand::RemoveRoundPool(c) => self.remove_round_pool(c),
            TournamentCommand::SetRoundScoring(c) => self.set_round_scoring(c),
            TournamentCommand::AdjustScore(c) => self.adjust_score(c, context),
            TournamentCommand::RevokeScoreAdjustment(c) => self.revoke_adjustment(c),
            TournamentCommand::SetHandicap(c) => self.set_handicap(c, context),
            TournamentCommand::SetUnranked(c) => self.set_unranked(c, context),
            TournamentCommand::ChangeKeepApart(c) => self.change_keep_apart(c, context),
            TournamentCommand::BreakTopBoardTie(c) => self.break_top_board_tie(c),
        }
    }

    fn apply(&mut self, event: &TournamentEvent) {
        self.version += 1;
        match event {
            TournamentEvent::TournamentCreated(e) => {
                self.organisers = Organisers::created_by(e.created_by);
                self.created = Some(e.clone());
            }
            TournamentEvent::TournamentCoOrganiserAdded(e) => self.organisers.add(e.player_id),
            TournamentEvent::TournamentPlayerEntered(TournamentPlayerEntered {
                player_id, ..
            })
            | TournamentEvent::TournamentPlayerPromoted(TournamentPlayerPromoted {
                player_id,
                ..
            }) => {
                self.waitlist.retain(|p| p != player_id);
                self.declined.retain(|p| p != player_id);
                self.entrants.push(Entrant {
                    player: *player_id,
                    entered_after_round: self.rounds.len() as u32,
                    withdrawn_after_round: None,
                });
            }
            TournamentEvent::TournamentPlayerWithdrawn(e) => {
                if let Some(entrant) = self.entrants.iter_mut().find(|x| x.player == e.player_id) {
                    entrant.withdrawn_after_round = Some(e.after_round);
                }
            }
            TournamentEvent::TournamentWithdrawalUndone(e) => {
                if let Some(entrant) = self.entrants.iter_mut().find(|x| x.player == e.player_id) {
                    entrant.withdrawn_after_round = None;
                }
            }
            TournamentEvent::TournamentRegistrationChanged(e) => {
                if let Some(created) = &mut self.created {
                    created.settings.registration = e.registration;
                }
            }
            TournamentEvent::TournamentEntryRequested(e) => self.requests.push(e.player_id),
            TournamentEvent::TournamentEntryApproved(e) => {
                self.requests.retain(|p| *p != e.player_id);
            }
            TournamentEvent::TournamentEntryDeclined(e) => {
                self.requests.retain(|p| *p != e.player_id);
                self.declined.push(e.player_id);
            }
            TournamentEvent::TournamentPlayerWaitlisted(e) => {
                self.declined.retain(|p| *p != e.player_id);
                self.waitlist.push(e.player_id);
            }
            TournamentEvent::TournamentEntryCancelled(e) => {
                self.waitlist.retain(|p| *p != e.player_id);
                self.requests.retain(|p| *p != e.player_id);
            }
            TournamentEvent::RollCallAnswered(e) => {
                let answers = self.roll_calls.entry(e.round).or_default();
                match answers.iter_mut().find(|(player, _)| *player == e.player_id) {
                    Some(answer) => answer.1 = e.attendance,
                    None => answers.push((e.player_id, e.attendance)),
                }
            }
            TournamentEvent::RoundSeeded(e) => self.rounds.push(Round {
                number: e.round,
                boards: e
                    .boards
                    .iter()
                    .map(|b| Board {
                        id: b.board_id,
                        round: e.round,
                        number: b.number,
                        seats: b.seats.clone(),
                        result: None,
                        replacements: Vec::new(),
                        reported_by: None,
                        corrections: 0,
                        correction_reasons: Vec::new(),
                        pending: None,
                    })
                    .collect(),
                sitting_out: e.sitting_out.clone(),
                playing_twice: e.playing_twice.clone(),
                seeded: e.clone(),
                swaps: Vec::new(),
                completed: false,
            }),
            TournamentEvent::RoundPlayersSwapped(e) => {
                if let Some(round) = self.rounds.get_mut(e.round.saturating_sub(1) as usize) {
                    let swap = |player: &mut PlayerId| {
                        if *player == e.first {
                            *player = e.second;
                        } else if *player == e.second {
                            *player = e.first;
                        }
                    };
                    round.boards.iter_mut().flat_map(|b| &mut b.seats).for_each(swap);
                    round.sitting_out.iter_mut().for_each(swap);
                    round.playing_twice.iter_mut().for_each(swap);
                    round.swaps.push(e.clone());
                }
                self.powers.swap_in_choices(e);
            }
            TournamentEvent::BoardFinished(e) => {
                if let Some(board) = self.board_mut(e.board_id) {
                    board.result = Some(e.result.clone());
                    board.replacements = e.replacements.clone();
                    board.reported_by = Some(e.reported_by);
                    board.pending = None;
                }
            }
            TournamentEvent::BoardResultAwaitingConfirmation(e) => {
                if let Some(board) = self.board_mut(e.board_id) {
                    board.pending = Some(PendingResult {
                        result: e.result.clone(),
                        replacements: e.replacements.clone(),
                        reported_by: e.reported_by,
                        dispute: None,
                    });
                }
            }
            TournamentEvent::BoardResultDisputed(e) => {
                if let Some(pending) = self.board_mut(e.board_id).and_then(|b| b.pending.as_mut()) {
                    pending.dispute = Some((e.disputed_by, e.reason.clone()));
                }
            }
            TournamentEvent::BoardResultCorrected(e) => {
                if let Some(board) = self.board_mut(e.board_id) {
                    board.result = Some(e.result.clone());
                    board.replacements = e.replacements.clone();
                    board.corrections += 1;
                    board.correction_reasons.push(e.reason.clone());
                }
            }
            TournamentEvent::RoundCompleted(e) => {
                if let Some(round) = self.rounds.get_mut(e.round.saturating_sub(1) as usize) {
                    round.completed = true;
                }
            }
            TournamentEvent::TournamentCompleted(_) => self.completed = true,
            TournamentEvent::BoardProgressRecorded(e) => self.apply_progress(e),
            TournamentEvent::TournamentScheduleChanged(e) => {
                if let Some(created) = &mut self.created {
                    created.settings.schedule = e.schedule.clone();
                }
            }
            TournamentEvent::RoundTimesSet(e) => {
                self.round_times.insert(e.round, e.times);
            }
            TournamentEvent::BestCountryRuleChanged(_)
            | TournamentEvent::AwardGiven(_)
            | TournamentEvent::AwardRevoked(_) => self.awards.apply(event),
            TournamentEvent::TeamRulesChanged(_)
            | TournamentEvent::TeamCreated(_)
            | TournamentEvent::TeamRenamed(_)
            | TournamentEvent::TeamDissolved(_)
            | TournamentEvent::TeamMemberAdded(_)
            | TournamentEvent::TeamMemberRemoved(_) => self.teams.apply(event),
            TournamentEvent::PowerAssignmentChanged(_)
            | TournamentEvent::PowerPreferencesSubmitted(_)
            | TournamentEvent::BoardPowersSet(_)
            | TournamentEvent::BoardPowerChoiceOpened(_)
            | TournamentEvent::PowerChosen(_) => self.apply_powers(event),
            TournamentEvent::RoundPoolSet(_)
            | TournamentEvent::RoundPoolRemoved(_)
            | TournamentEvent::RoundScoringSet(_) => self.stages.apply(event),
            TournamentEvent::ScoreAdjusted(_)
            | TournamentEvent::ScoreAdjustmentRevoked(_)
            | TournamentEvent::HandicapSet(_)
            | TournamentEvent::EntrantRankingChanged(_)
            | TournamentEvent::KeepApartAdded(_)
            | TournamentEvent::KeepApartRemoved(_)
            | TournamentEvent::TopBoardTieBroken(_) => self.apply_ruling(event),
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}
