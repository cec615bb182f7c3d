//! A tournament as the API shows it: settings, entrants, roll calls, rounds, boards and
//! standings. A `Tournament` holds one snapshot of the aggregate folded from its stream,
//! so one request sees one state; its rounds and boards are in [`super::rounds`].

use std::sync::Arc;

use async_graphql::{ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_app::App;
use league_domain::TournamentSettings;
use uuid::Uuid;

use super::inputs::{ReplacementScores, RoundScoring, TournamentScoringInfo, TournamentStatus};
use super::rounds::{
    Board, BoardScore, Entrant, ProposalReason, RollCallEntry, Round, RoundProposal, RoundScore,
    SeedingCheck, TournamentStanding,
};
use crate::error::{GatewayError, GatewayResult};
use crate::schema::feeds::fields::{ExportFormat, ExportTableValue, export};
use crate::schema::inputs::{AsOf, ScoringSystemValue, count, parse_id};
use crate::schema::players::types::Player;
use crate::schema::tie_break::TieBreakValue;

/// A tournament's registration controls (`docs/tournaments.md#registration`).
#[derive(SimpleObject)]
pub struct TournamentRegistration {
    /// Players cannot enter themselves (organisers still enter anyone).
    pub closed: bool,
    pub opens_at: Option<DateTime<Utc>>,
    pub closes_at: Option<DateTime<Utc>>,
    /// Most entrants (null: no cap); later entries join the waitlist.
    pub max_entrants: Option<u32>,
    /// A player's own entry is a request the organisers approve or decline.
    pub approval: bool,
    /// Entrants who have not withdrawn (what the cap counts).
    pub entrants: u32,
    /// Whether a player may enter themself now.
    pub open_now: bool,
    /// Why a player may not enter themself now (null when they may).
    pub refusal: Option<String>,
}

/// A tournament: settings, entrants, roll calls, rounds and standings.
#[derive(Clone)]
pub struct Tournament {
    pub(super) app: App,
    pub(super) id: Uuid,
    pub(super) state: Arc<league_domain::Tournament>,
}

impl Tournament {
    pub fn new(app: App, id: Uuid, state: Arc<league_domain::Tournament>) -> Self {
        Tournament { app, id, state }
    }

    pub(super) fn settings(&self) -> &TournamentSettings {
        self.state.settings().expect("a listed tournament exists")
    }

    pub(super) fn round_numbered(&self, number: u32) -> GatewayResult<Round> {
        self.state
            .round(number)
            .map(|_| Round { tournament: self.clone(), number })
            .ok_or_else(|| GatewayError::NotFound(format!("round {number}")))
    }

    pub(super) fn board_by_id(&self, id: Uuid) -> GatewayResult<Board> {
        self.state
            .board(id.into())
            .map(|_| Board { tournament: self.clone(), id })
            .ok_or_else(|| GatewayError::NotFound(format!("board {id}")))
    }

    pub(super) fn player(&self, id: Uuid) -> Player {
        Player::new(self.app.clone(), id)
    }

    /// Standings rows as the API shows them.
    fn standing_lines(
        &self,
        rows: Vec<league_scoring::TournamentStanding<league_domain::PlayerId>>,
    ) -> Vec<TournamentStanding> {
        rows.into_iter().map(|row| self.standing(row)).collect()
    }

    /// A line of the standings as the API shows it.
    pub(super) fn standing(
        &self,
        row: league_scoring::TournamentStanding<league_domain::PlayerId>,
    ) -> TournamentStanding {
        TournamentStanding {
            rank: row.rank,
            player: self.player(row.player.into()),
            total: row.total,
            games: row.games,
            wins: row.wins,
            draws: row.draws,
            notes: row.notes,
            separated_by: row.separated_by.map(TieBreakValue::from),
            unranked: row.unranked,
            rulings: self.standing_rulings(row.player),
            rounds: row
                .rounds
                .into_iter()
                .map(|r| RoundScore {
                    round: r.round,
                    score: r.score,
                    sat_out: r.sat_out,
                    dropped: r.dropped,
                    boards: r
                        .boards
                        .into_iter()
                        .map(|b| BoardScore { board: b.board, score: b.score, dropped: b.dropped })
                        .collect(),
                })
                .collect(),
        }
    }
}

#[Object]
impl Tournament {
    async fn id(&self) -> ID {
        ID(self.id.to_string())
    }

    /// The tournament's standings or every finished board's result and scores, as CSV (one
    /// `table`; Diplomacy: the columns a world rating database imports) or JSON (both), as
    /// `GET /export/tournaments/<id>.csv|json` serves them (`docs/feeds.md#exports`).
    async fn export(
        &self,
        format: ExportFormat,
        #[graphql(default_with = "ExportTableValue::Results")] table: ExportTableValue,
    ) -> GatewayResult<String> {
        export(&self.app, league_app::CompetitionKind::Tournament, self.id, format, table).await
    }

    async fn name(&self) -> &str {
        &self.settings().name
    }

    /// How Best Country is decided (`docs/tournaments.md#best-country-and-awards`).
    async fn best_country_rule(&self) -> super::awards::BestCountryRuleValue {
        self.best_country_rule_value()
    }

    /// Each power's Best Country over the boards finished so far (the live leaders while the
    /// tournament runs).
    async fn best_countries(&self) -> GatewayResult<Vec<super::awards::PowerBest>> {
        self.best_country_list()
    }

    /// The named awards standing, in the order given.
    async fn awards(&self) -> Vec<super::awards::TournamentAward> {
        self.award_list()
    }

    /// The team rules (`docs/tournaments.md#teams`).
    async fn team_rules(&self) -> super::teams::TeamRulesValue {
        self.team_rules_value()
    }

    /// The teams standing, in the order created, with their members.
    async fn teams(&self) -> Vec<super::teams::TournamentTeam> {
        self.team_list()
    }

    /// The team standings over the boards finished so far (live while the tournament runs).
    async fn team_standings(&self) -> GatewayResult<Vec<super::teams::TeamStandingRow>> {
        self.team_standing_list()
    }

    /// How powers are given (`docs/tournaments.md#power-assignment`).
    async fn power_assignment(&self) -> super::powers::PowerAssignmentValue {
        self.power_assignment_value()
    }

    /// The rankings of the powers recorded: every one for the organisers and the site
    /// admin, the caller's own for a player, none for an anonymous reader.
    async fn power_preferences(
        &self,
        ctx: &async_graphql::Context<'_>,
    ) -> Vec<super::powers::PowerPreference> {
        self.power_preference_list(crate::schema::context::caller(ctx))
    }

    /// The organisers' export of the rankings: CSV `player,playerId,1,2,…`.
    async fn power_preferences_csv(
        &self,
        ctx: &async_graphql::Context<'_>,
    ) -> GatewayResult<String> {
        self.power_preference_csv(crate::schema::context::caller(ctx))
    }

    /// The score adjustments standing, in the order given (`docs/tournaments.md#rulings`).
    async fn score_adjustments(&self) -> Vec<super::rulings::ScoreAdjustment> {
        self.score_adjustment_list()
    }

    /// Each entrant's handicap (entrants without one are not listed).
    async fn handicaps(&self) -> Vec<super::rulings::PlayerHandicap> {
        self.handicap_list()
    }

    /// The directors' orders of top boards, by round.
    async fn top_board_orders(&self) -> Vec<super::rulings::TopBoardOrder> {
        self.top_board_order_list()
    }

    /// The board game played (e.g. "Diplomacy").
    async fn game(&self) -> &str {
        &self.settings().game
    }

    async fn game_version(&self) -> Option<&str> {
        self.settings().game_version.as_deref()
    }

    /// Scores each board.
    async fn scoring_system(&self) -> ScoringSystemValue {
        self.settings().scoring_system.into()
    }

    /// Seats per board.
    async fn players_per_board(&self) -> u32 {
        self.settings().players_per_board
    }

    /// Rounds planned.
    async fn round_count(&self) -> u32 {
        self.settings().rounds
    }

    async fn round_scoring(&self) -> RoundScoring {
        self.settings().round_scoring.into()
    }

    /// The tournament scoring (`tournamentScorings` describes each).
    async fn tournament_scoring(&self) -> TournamentScoringInfo {
        self.settings().tournament_scoring.info().into()
    }

    /// Pairs never seated together unless impossible, as they stand for the next seeding
    /// (`docs/tournaments.md#rulings`).
    async fn keep_apart(&self) -> Vec<Vec<Player>> {
        self.settings()
            .keep_apart
            .iter()
            .map(|pair| pair.iter().map(|p| self.player((*p).into())).collect())
            .collect()
    }

    /// Points for sitting a round out.
    async fn sit_out_points(&self) -> f64 {
        self.settings().sit_out_points
    }

    async fn sit_out_points_once(&self) -> bool {
        self.settings().sit_out_points_once
    }

    async fn top_board_last_round(&self) -> bool {
        self.settings().top_board_last_round
    }

    /// Each planned round's pool and scoring system
    /// (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`), round 1 first.
    async fn round_stages(&self) -> Vec<super::pools::RoundStage> {
        self.stages_of_rounds()
    }

    async fn replacement_scores(&self) -> ReplacementScores {
        self.settings().replacement_scores.into()
    }

    /// Whether a result a seated player reports waits for confirmation
    /// (`docs/tournaments.md#result-confirmation`).
    async fn confirm_player_results(&self) -> bool {
        self.settings().confirm_player_results
    }

    /// Seat labels of a board, seat 1 first (the seven powers for Diplomacy).
    async fn seat_labels(&self) -> Vec<String> {
        self.state.seat_labels()
    }

    async fn status(&self) -> TournamentStatus {
        self.state.status().expect("a listed tournament exists").into()
    }

    async fn created_at(&self) -> Option<DateTime<Utc>> {
        self.app.catalog().tournament(self.id).map(|t| t.created_at)
    }

    /// Number of events in the tournament's stream.
    async fn version(&self) -> u64 {
        league_domain::Aggregate::version(self.state.as_ref())
    }

    /// Who manages the tournament besides the site admin: its creator (when an organiser
    /// created it) and its co-organisers (docs/api.md#roles).
    async fn organisers(&self) -> Vec<Player> {
        let catalog = self.app.catalog();
        let Some(summary) = catalog.tournament(self.id) else { return Vec::new() };
        let organisers = &summary.organisers;
        organisers
            .creator()
            .into_iter()
            .chain(organisers.co_organisers().iter().copied())
            .map(|id| self.player(id.into()))
            .collect()
    }

    /// Every entrant in entry order (withdrawn ones too).
    async fn entrants(&self) -> Vec<Entrant> {
        self.state
            .entrants()
            .iter()
            .map(|e| Entrant {
                player: self.player(e.player.into()),
                entered_after_round: e.entered_after_round,
                withdrawn_after_round: e.withdrawn_after_round,
            })
            .collect()
    }

    /// The registration controls and what they mean now (`docs/tournaments.md#registration`).
    async fn registration(&self) -> TournamentRegistration {
        let registration = self.state.registration();
        let now = Utc::now();
        TournamentRegistration {
            closed: registration.closed,
            opens_at: registration.opens_at,
            closes_at: registration.closes_at,
            max_entrants: registration.max_entrants,
            approval: registration.approval,
            entrants: self.state.active_entrants() as u32,
            open_now: self.state.next_round().is_some() && registration.refusal(now).is_none(),
            refusal: match self.state.next_round() {
                None => Some("the last round is already seeded: entries are closed".to_owned()),
                Some(_) => registration.refusal(now),
            },
        }
    }

    /// Dates, venue, time zone and check-in window (`docs/tournaments.md#times`).
    async fn schedule(&self) -> super::times::TournamentSchedule {
        (&self.state.schedule()).into()
    }

    /// The rounds with a start time, in order (`docs/tournaments.md#times`).
    async fn round_times(&self) -> Vec<super::times::RoundTimesInfo> {
        super::times::round_times(&self.state)
    }

    /// Players waiting for a place, first in line first (`docs/tournaments.md#registration`).
    async fn waitlist(&self) -> Vec<Player> {
        self.state.waitlist().iter().map(|p| self.player((*p).into())).collect()
    }

    /// Entry requests awaiting the organisers' answer, in the order asked.
    async fn entry_requests(&self) -> Vec<Player> {
        self.state.requests().iter().map(|p| self.player((*p).into())).collect()
    }

    /// The round whose roll call is open (null once every round is seeded).
    async fn next_round(&self) -> Option<u32> {
        self.state.next_round()
    }

    /// A round's roll call: every active entrant with their answer (the open round's when
    /// `round` is omitted).
    async fn roll_call(&self, round: Option<i32>) -> GatewayResult<Vec<RollCallEntry>> {
        let round = match round {
            Some(round) => count(round, "round")?,
            None => match self.state.next_round() {
                Some(round) => round,
                None => return Ok(Vec::new()),
            },
        };
        let answers = self.state.roll_call(round);
        Ok(self
            .state
            .entrants()
            .iter()
            .filter(|e| e.is_active())
            .map(|e| {
                let answer = answers.iter().find(|(p, _)| *p == e.player).map(|(_, a)| *a);
                let attendance = answer.unwrap_or_default();
                RollCallEntry {
                    player: self.player(e.player.into()),
                    answered: answer.is_some(),
                    present: attendance.present,
                    standby: attendance.standby,
                    two_boards: attendance.two_boards,
                }
            })
            .collect())
    }

    /// Who would sit out or play twice if the open round were seeded now, or why it cannot
    /// be (`docs/tournaments.md#rounds-and-roll-call`).
    async fn proposal(&self) -> Option<RoundProposal> {
        let round = self.state.next_round()?;
        let present = self.state.present(round).len() as u32;
        Some(match self.state.proposal(round) {
            Ok(proposal) => RoundProposal {
                round,
                present,
                sitting_out: proposal
                    .sitting_out
                    .iter()
                    .map(|p| self.player((*p).into()))
                    .collect(),
                playing_twice: proposal
                    .playing_twice
                    .iter()
                    .map(|p| self.player((*p).into()))
                    .collect(),
                reasons: proposal
                    .reasons
                    .into_iter()
                    .map(|(p, reason)| ProposalReason { player: self.player(p.into()), reason })
                    .collect(),
                problem: None,
            },
            Err(error) => RoundProposal {
                round,
                present,
                sitting_out: Vec::new(),
                playing_twice: Vec::new(),
                reasons: Vec::new(),
                problem: Some(error.to_string()),
            },
        })
    }

    /// The seeded rounds, in order.
    async fn rounds(&self) -> Vec<Round> {
        self.state
            .rounds()
            .iter()
            .map(|r| Round { tournament: self.clone(), number: r.number })
            .collect()
    }

    async fn round(&self, number: i32) -> GatewayResult<Option<Round>> {
        let number = count(number, "number")?;
        Ok(self.state.round(number).map(|_| Round { tournament: self.clone(), number }))
    }

    async fn board(&self, id: ID) -> GatewayResult<Option<Board>> {
        let id = parse_id(&id, "id")?;
        Ok(self.state.board(id.into()).map(|_| Board { tournament: self.clone(), id }))
    }

    /// The boards a player is seated on, in round order (a player's "my board and power").
    async fn boards_of(&self, player_id: ID) -> GatewayResult<Vec<Board>> {
        let player = parse_id(&player_id, "playerId")?;
        Ok(self
            .state
            .boards()
            .filter(|b| b.is_seated(player.into()))
            .map(|b| Board { tournament: self.clone(), id: b.id.into() })
            .collect())
    }

    /// Standings after round `afterRound` (every round so far when omitted), now or as of a
    /// point in history: round scores with dropped ones marked, total, rank with the DAANZ
    /// tie-breakers.
    async fn standings(
        &self,
        after_round: Option<i32>,
        as_of: Option<AsOf>,
    ) -> GatewayResult<Vec<TournamentStanding>> {
        let after_round = after_round.map(|r| count(r, "afterRound")).transpose()?;
        let as_of = as_of.map(|as_of| as_of.to_bound()).transpose()?;
        let rows = self.app.tournament_standings(self.id, &self.state, after_round, as_of).await?;
        Ok(self.standing_lines(rows))
    }

    /// Provisional standings "if every board ended now": every unfinished board scored from
    /// its latest centre counts (`docs/tournaments.md#live-progress`), beside the official
    /// `standings`; the same as them while no unfinished board has counts.
    async fn provisional_standings(&self) -> GatewayResult<Vec<TournamentStanding>> {
        let rows = self.state.as_if_every_board_ended_now().standings(None);
        Ok(self.standing_lines(rows.map_err(league_app::AppError::from)?))
    }

    /// Re-runs every recorded seeding from the log and says whether it gives the same boards
    /// (`docs/tournaments.md#seeding`).
    async fn seeding_checks(&self) -> GatewayResult<Vec<SeedingCheck>> {
        Ok(self
            .app
            .verify_seeding(self.id)
            .await?
            .into_iter()
            .map(|check| SeedingCheck {
                verified: check.verified(),
                round: check.round,
                algorithm: check.algorithm,
                seed: check.seed.to_string(),
                recorded_digest: check.recorded_digest,
                recomputed_digest: check.recomputed_digest,
                boards_match: check.boards_match,
                problem: check.problem,
            })
            .collect())
    }
}
