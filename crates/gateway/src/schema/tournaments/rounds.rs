//! A tournament's parts as the API shows them: entrants, roll-call lines, the proposal
//! for the open round, rounds with their swaps and seeding, boards with their seats,
//! results and replacements, and the lines of its standings.

use async_graphql::{ID, Object, SimpleObject};
use league_projections::SeatView;
use uuid::Uuid;

use super::confirmation::PendingResult;
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::leagues::types::{GameResultValue, GameScore, Seat};
use crate::schema::players::types::Player;
use crate::schema::tie_break::TieBreakValue;

/// An entrant and when they entered and withdrew.
#[derive(SimpleObject)]
pub struct Entrant {
    pub player: Player,
    /// Rounds already seeded when they entered (0: from the start).
    pub entered_after_round: u32,
    /// Rounds seeded when they withdrew (null: still in).
    pub withdrawn_after_round: Option<u32>,
}

/// One line of a roll call.
#[derive(SimpleObject)]
pub struct RollCallEntry {
    pub player: Player,
    /// Whether the player (or the admin for them) answered this round's roll call.
    pub answered: bool,
    pub present: bool,
    pub standby: bool,
    pub two_boards: bool,
}

/// What seeding the open round now would do with the numbers.
#[derive(SimpleObject)]
pub struct RoundProposal {
    pub round: u32,
    /// Players present.
    pub present: u32,
    pub sitting_out: Vec<Player>,
    pub playing_twice: Vec<Player>,
    /// Why each player sitting out or playing twice was chosen
    /// (`docs/tournaments.md#rounds-and-roll-call`).
    pub reasons: Vec<ProposalReason>,
    /// Why the round cannot be seeded now (the shortfall), if it cannot.
    pub problem: Option<String>,
}

/// Why the proposal has a player sit out or play twice, e.g. "volunteered (standby)" or
/// "lowest ranked of those who sat out least (rank 22)".
#[derive(SimpleObject)]
pub struct ProposalReason {
    pub player: Player,
    pub reason: String,
}

/// A seeded round.
#[derive(Clone)]
pub struct Round {
    pub(super) tournament: Tournament,
    pub(super) number: u32,
}

impl Round {
    fn with<T>(&self, f: impl FnOnce(&league_domain::Round) -> T) -> T {
        f(self.tournament.state.round(self.number).expect("a listed round exists"))
    }
}

#[Object]
impl Round {
    async fn number(&self) -> u32 {
        self.number
    }

    async fn boards(&self) -> Vec<Board> {
        self.with(|r| {
            r.boards
                .iter()
                .map(|b| Board { tournament: self.tournament.clone(), id: b.id.into() })
                .collect()
        })
    }

    async fn sitting_out(&self) -> Vec<Player> {
        self.with(|r| r.sitting_out.iter().map(|p| self.tournament.player((*p).into())).collect())
    }

    async fn playing_twice(&self) -> Vec<Player> {
        self.with(|r| r.playing_twice.iter().map(|p| self.tournament.player((*p).into())).collect())
    }

    /// Some board has a result (players can no longer be swapped).
    async fn started(&self) -> bool {
        self.with(|r| r.started())
    }

    /// Every board has a result.
    async fn completed(&self) -> bool {
        self.with(|r| r.completed)
    }

    /// Board 1 seats the best players by standings.
    async fn top_board(&self) -> bool {
        self.with(|r| r.seeded.top_board)
    }

    /// The swaps made before the round started, in order, with their reasons.
    async fn swaps(&self) -> Vec<Swap> {
        self.with(|r| {
            r.swaps
                .iter()
                .map(|s| Swap {
                    first: self.tournament.player(s.first.into()),
                    second: self.tournament.player(s.second.into()),
                    reason: s.reason.clone(),
                })
                .collect()
        })
    }

    /// How the round was seeded: what anyone needs to re-run it.
    async fn seeding(&self) -> SeedingRecord {
        self.with(|r| SeedingRecord {
            algorithm: r.seeded.algorithm.clone(),
            seed: r.seeded.seed.to_string(),
            inputs_digest: r.seeded.inputs_digest.clone(),
            repeat_score: r.seeded.repeat_score,
            seat_repeats: r.seeded.seat_repeats,
            keep_apart_met: r.seeded.keep_apart_met,
        })
    }
}

/// Two players of a round who exchanged places, and why.
#[derive(SimpleObject)]
pub struct Swap {
    pub first: Player,
    pub second: Player,
    pub reason: String,
}

/// A round's seeding as recorded in `RoundSeeded`.
#[derive(SimpleObject)]
pub struct SeedingRecord {
    pub algorithm: String,
    /// The seeder's random seed (a decimal u64).
    pub seed: String,
    /// SHA-256 of the seeder's inputs.
    pub inputs_digest: String,
    /// Σ over boards of Σ over ordered pairs of (earlier shared boards)².
    pub repeat_score: u64,
    /// Players given a seat they had before.
    pub seat_repeats: u32,
    /// Keep-apart pairs seated together.
    pub keep_apart_met: u32,
}

/// The outcome of re-running one recorded seeding.
#[derive(SimpleObject)]
pub struct SeedingCheck {
    pub round: u32,
    /// Same digest and same boards.
    pub verified: bool,
    pub algorithm: String,
    pub seed: String,
    pub recorded_digest: String,
    pub recomputed_digest: String,
    pub boards_match: bool,
    pub problem: Option<String>,
}

/// One board of a round.
#[derive(Clone)]
pub struct Board {
    pub(super) tournament: Tournament,
    pub(super) id: Uuid,
}

impl Board {
    pub(super) fn with<T>(&self, f: impl FnOnce(&league_domain::Board) -> T) -> T {
        f(self.tournament.state.board(self.id.into()).expect("a listed board exists"))
    }

    pub(super) fn seat_views(&self) -> Vec<SeatView> {
        let labels = self.tournament.state.seat_labels();
        self.with(|b| {
            b.seats
                .iter()
                .zip(labels)
                .enumerate()
                .map(|(index, (player, label))| SeatView {
                    seat: index as u32 + 1,
                    label: label.into(),
                    player: (*player).into(),
                })
                .collect()
        })
    }
}

#[Object]
impl Board {
    async fn id(&self) -> ID {
        ID(self.id.to_string())
    }

    async fn round(&self) -> u32 {
        self.with(|b| b.round)
    }

    /// 1-based number within the round.
    async fn number(&self) -> u32 {
        self.with(|b| b.number)
    }

    /// Who sits where (seat 1 first; the label is the power for Diplomacy).
    async fn seats(&self) -> Vec<Seat> {
        self.seat_views()
            .into_iter()
            .map(|seat| Seat {
                seat: seat.seat,
                label: seat.label.to_string(),
                player: self.tournament.player(seat.player),
            })
            .collect()
    }

    async fn finished(&self) -> bool {
        self.with(|b| b.result.is_some())
    }

    /// While the board's players pick their powers in turn (`docs/tournaments.md#power-assignment`):
    /// the order, the picks so far and whose turn it is; null otherwise.
    async fn power_choice(&self) -> Option<super::powers::PowerChoice> {
        self.tournament.power_choice_of(self.id)
    }

    /// The result as reported (or last corrected); null until finished.
    async fn result(&self) -> GatewayResult<Option<GameResultValue>> {
        let seats = self.seat_views();
        self.with(|b| {
            b.result.as_ref().map(|r| GameResultValue::new(&self.tournament.app, r, &seats))
        })
        .transpose()
    }

    /// Each seated player's board score (before round and tournament scoring); empty until
    /// finished.
    async fn scores(&self) -> GatewayResult<Vec<GameScore>> {
        let state = &self.tournament.state;
        let scored =
            self.with(|b| b.scored(state.board_system(b))).map_err(league_app::AppError::from)?;
        Ok(scored
            .map(|scored| self.with(|b| scored.in_seat_order(b.seats.iter().copied())))
            .unwrap_or_default()
            .into_iter()
            .map(|(player, score)| GameScore {
                player: self.tournament.player(player.into()),
                score,
            })
            .collect())
    }

    /// Replacement players who finished a seat.
    async fn replacements(&self) -> Vec<Replacement> {
        self.with(|b| {
            b.replacements
                .iter()
                .map(|r| Replacement {
                    seated: self.tournament.player(r.seated.into()),
                    replacement: self.tournament.player(r.replacement.into()),
                })
                .collect()
        })
    }

    /// How many times the result was corrected.
    async fn corrections(&self) -> u32 {
        self.with(|b| b.corrections)
    }

    /// The centre counts recorded after each game year during play, per year and per power
    /// (`docs/tournaments.md#live-progress`).
    async fn progress(&self) -> super::progress::BoardProgress {
        self.progress_view()
    }

    /// Each seat's provisional score if the board ended now, from the latest counts; empty
    /// once finished, before any count, or when the system cannot score an unfinished game.
    async fn provisional_scores(&self) -> GatewayResult<Vec<GameScore>> {
        self.provisional_score_rows()
    }

    /// Each correction's reason, oldest first (`docs/tournaments.md#the-audit-page`).
    async fn correction_reasons(&self) -> Vec<String> {
        self.with(|b| b.correction_reasons.clone())
    }

    /// A player's report waiting for confirmation (`docs/tournaments.md#result-confirmation`):
    /// not the board's result yet, and not in the standings.
    async fn awaiting_confirmation(&self) -> GatewayResult<Option<PendingResult>> {
        PendingResult::of(self)
    }
}

/// A replacement player who finished a seat.
#[derive(SimpleObject)]
pub struct Replacement {
    pub seated: Player,
    pub replacement: Player,
}

/// A player's line in a tournament's standings.
#[derive(SimpleObject)]
pub struct TournamentStanding {
    /// Competition rank after every tie-breaker (1, 2, 2, 4); 0 for an unranked entrant.
    pub rank: u32,
    pub player: Player,
    pub total: f64,
    /// Boards played.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    /// Rule notes (e.g. the WDC 2025 round-4 bonus).
    pub notes: Vec<String>,
    /// When this line's total equals a neighbour's but the rank differs: the DAANZ
    /// tie-breaker that split them (from the line above, or else the line below); null when
    /// the total alone ranks it or nothing split the level lines.
    pub separated_by: Option<TieBreakValue>,
    /// One line per round so far.
    pub rounds: Vec<RoundScore>,
    /// Listed without a rank (`rank` is 0), never ranked or awarded
    /// (`docs/tournaments.md#rulings`).
    pub unranked: bool,
    /// The rulings on this line: adjustments, handicap, unranked, each with its reason.
    pub rulings: Vec<super::rulings::StandingRuling>,
}

/// A player's score for one round.
#[derive(SimpleObject)]
pub struct RoundScore {
    pub round: u32,
    /// Null: neither played nor sat out.
    pub score: Option<f64>,
    pub sat_out: bool,
    /// Does not count in the total.
    pub dropped: bool,
    pub boards: Vec<BoardScore>,
}

/// A player's score on one board of a round.
#[derive(SimpleObject)]
pub struct BoardScore {
    pub board: u32,
    pub score: f64,
    pub dropped: bool,
}
