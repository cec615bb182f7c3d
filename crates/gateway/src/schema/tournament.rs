//! Tournaments over GraphQL (`docs/tournaments.md`): the reads (a tournament with its entrants,
//! roll calls, rounds, boards and standings; the tournament and round scorings), the
//! mutations (each one domain command) and the types they answer with. A `Tournament` holds
//! one snapshot of the aggregate folded from its stream, so one request sees one state.

use std::sync::Arc;

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_app::App;
use league_domain::{
    Actor, AnswerRollCall, Attendance, CorrectBoardResult, CreateTournament, EnterTournament,
    ReportBoardResult, SeedRound, SwapRoundPlayers, TournamentSettings, WithdrawFromTournament,
    tournament_id_of_stream,
};
use league_projections::SeatView;
use league_scoring::{GameResult, TournamentScoring};
use uuid::Uuid;

use super::inputs::{AsOf, GameResultInput, ScoringSystemValue, count, parse_id};
use super::mutation::{execute, in_input_terms, subject};
use super::types::{GameResultValue, GameScore, Player, Seat};
use super::{app, caller};
use crate::error::{GatewayError, GatewayResult};

/// `Tournament.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::TournamentStatus")]
pub enum TournamentStatus {
    /// Taking entries; no round seeded yet.
    Open,
    /// Rounds being played.
    Running,
    /// The last round completed.
    Completed,
}

/// A player's round score when they played two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_scoring::RoundScoring")]
pub enum RoundScoring {
    /// The best board counts; the other is dropped.
    BestBoard,
    /// Both boards count.
    SumOfBoards,
}

/// Who scores a seat that a replacement player finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::ReplacementScores")]
pub enum ReplacementScores {
    /// The player the seeding seated scores the seat (the default).
    SeatedPlayer,
    /// The replacement who finished the seat scores it.
    Replacement,
}

/// `createTournament` input. Omitted settings take their defaults (round scoring BEST_BOARD,
/// tournament scoring `sum-all-rounds`, no keep-apart pairs, no sit-out points, no top board,
/// the seated player scores a replaced seat).
#[derive(Debug, InputObject)]
pub struct CreateTournamentInput {
    pub name: String,
    pub game: String,
    pub game_version: Option<String>,
    pub scoring_system: ScoringSystemValue,
    /// Seats per board (Diplomacy: 7).
    pub players_per_board: i32,
    /// Rounds planned.
    pub rounds: i32,
    pub round_scoring: Option<RoundScoring>,
    /// A tournament scoring id from `tournamentScorings` (e.g. `best-rounds-2`, `wdc-2025`).
    pub tournament_scoring: Option<String>,
    /// Pairs of player ids never seated together unless impossible.
    pub keep_apart: Option<Vec<Vec<ID>>>,
    pub sit_out_points: Option<f64>,
    pub sit_out_points_once: Option<bool>,
    pub top_board_last_round: Option<bool>,
    pub replacement_scores: Option<ReplacementScores>,
}

impl CreateTournamentInput {
    fn into_settings(self) -> GatewayResult<TournamentSettings> {
        let mut settings = TournamentSettings::new(
            self.name,
            self.game,
            self.scoring_system.into(),
            count(self.players_per_board, "input.playersPerBoard")?,
            count(self.rounds, "input.rounds")?,
        );
        settings.game_version = self.game_version;
        if let Some(round_scoring) = self.round_scoring {
            settings.round_scoring = round_scoring.into();
        }
        if let Some(id) = &self.tournament_scoring {
            settings.tournament_scoring = TournamentScoring::parse(id).map_err(|error| {
                GatewayError::bad_input("input.tournamentScoring", error.to_string())
            })?;
        }
        for (index, pair) in self.keep_apart.iter().flatten().enumerate() {
            let field = format!("input.keepApart[{index}]");
            let [a, b] = pair.as_slice() else {
                return Err(GatewayError::bad_input(field, "a pair is two player ids"));
            };
            settings.keep_apart.push([parse_id(a, &field)?, parse_id(b, &field)?]);
        }
        if let Some(points) = self.sit_out_points {
            settings.sit_out_points = points;
        }
        if let Some(once) = self.sit_out_points_once {
            settings.sit_out_points_once = once;
        }
        if let Some(top) = self.top_board_last_round {
            settings.top_board_last_round = top;
        }
        if let Some(rule) = self.replacement_scores {
            settings.replacement_scores = rule.into();
        }
        Ok(settings)
    }
}

/// A replacement player who finished a seated player's seat.
#[derive(Debug, InputObject)]
pub struct ReplacementInput {
    pub seated: ID,
    pub replacement: ID,
}

fn replacements_of(
    input: Option<Vec<ReplacementInput>>,
) -> GatewayResult<Vec<league_domain::Replacement>> {
    input
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(index, r)| {
            Ok(league_domain::Replacement {
                seated: parse_id(&r.seated, &format!("replacements[{index}].seated"))?,
                replacement: parse_id(
                    &r.replacement,
                    &format!("replacements[{index}].replacement"),
                )?,
            })
        })
        .collect()
}

/// A tournament scoring of the catalogue (`docs/tournaments.md#round-and-tournament-scoring`).
#[derive(SimpleObject)]
pub struct TournamentScoringInfo {
    /// The id `createTournament` takes.
    pub id: String,
    pub name: String,
    pub description: String,
    /// Whether it combines round scores (else board scores directly).
    pub uses_round_scores: bool,
}

impl From<league_scoring::TournamentScoringInfo> for TournamentScoringInfo {
    fn from(info: league_scoring::TournamentScoringInfo) -> Self {
        TournamentScoringInfo {
            id: info.id,
            name: info.name,
            description: info.description,
            uses_round_scores: info.uses_round_scores,
        }
    }
}

/// A round scoring (what counts when a player plays two boards in a round).
#[derive(SimpleObject)]
pub struct RoundScoringInfo {
    pub value: RoundScoring,
    pub name: String,
    pub description: String,
}

/// Tournament reads (merged into the query root).
#[derive(Debug, Default)]
pub struct TournamentQuery;

#[Object]
impl TournamentQuery {
    /// A tournament by id (null if there is none).
    async fn tournament(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<Tournament>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.tournament(id).await?.map(|state| Tournament::new(app.clone(), id, state)))
    }

    /// Every tournament, in creation order.
    async fn tournaments(&self, ctx: &Context<'_>) -> GatewayResult<Vec<Tournament>> {
        let app = app(ctx);
        let ids: Vec<Uuid> = app.catalog().tournaments().map(|t| t.id).collect();
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.push(Tournament::new(app.clone(), id, app.existing_tournament(id).await?));
        }
        Ok(out)
    }

    /// The tournament scorings a tournament may use, in a stable order.
    async fn tournament_scorings(&self) -> Vec<TournamentScoringInfo> {
        league_scoring::tournament_scorings().into_iter().map(Into::into).collect()
    }

    /// The round scorings (a player's round score when they played two boards).
    async fn round_scorings(&self) -> Vec<RoundScoringInfo> {
        league_scoring::RoundScoring::ALL
            .into_iter()
            .map(|scoring| {
                let info = scoring.info();
                RoundScoringInfo {
                    value: scoring.into(),
                    name: info.name,
                    description: info.description,
                }
            })
            .collect()
    }
}

/// Tournament changes (merged into the mutation root); the domain decides who may.
#[derive(Debug, Default)]
pub struct TournamentMutation;

// Mutation arguments are the GraphQL API's shape; async-graphql turns each into a parameter.
#[allow(clippy::too_many_arguments)]
#[Object]
impl TournamentMutation {
    /// The site admin or an appointed organiser: creates a tournament. A retried call with the same `idempotencyKey` returns the
    /// tournament the first call created.
    async fn create_tournament(
        &self,
        ctx: &Context<'_>,
        input: CreateTournamentInput,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let command = CreateTournament {
            actor,
            tournament_id: Uuid::now_v7(),
            settings: input.into_settings()?,
        };
        let fresh = command.tournament_id;
        let executed = execute(ctx, command, idempotency_key).await?;
        let id = executed
            .events
            .first()
            .and_then(|event| tournament_id_of_stream(event.stream_id.as_str()))
            .unwrap_or(fresh);
        tournament(ctx, id).await
    }

    /// Enters a player: the player themself (`playerId` omitted or their own), its organisers
    /// or the site admin anyone; open until the last round is seeded (a late entry plays from the next round).
    async fn enter_tournament(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: Option<ID>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let (actor, tournament_id, player_id) = who(ctx, &tournament_id, player_id)?;
        execute(ctx, EnterTournament { actor, tournament_id, player_id }, idempotency_key).await?;
        tournament(ctx, tournament_id).await
    }

    /// Withdraws a player (same rights as entering) when not seated in a round being played:
    /// their scores stay; they are never seated again.
    async fn withdraw_from_tournament(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: Option<ID>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let (actor, tournament_id, player_id) = who(ctx, &tournament_id, player_id)?;
        let command = WithdrawFromTournament { actor, tournament_id, player_id };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, tournament_id).await
    }

    /// Answers the roll call of the next round: a player checks themself in (or out), its
    /// organisers or the site admin anyone. A present player may volunteer as a standby (sits out if the count
    /// needs it) or to play two boards.
    async fn answer_roll_call(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        player_id: Option<ID>,
        present: bool,
        #[graphql(default)] standby: bool,
        #[graphql(default)] two_boards: bool,
    ) -> GatewayResult<Tournament> {
        let (actor, tournament_id, player_id) = who(ctx, &tournament_id, player_id)?;
        let command = AnswerRollCall {
            actor,
            tournament_id,
            round: count(round, "round")?,
            player_id,
            attendance: Attendance { present, standby, two_boards },
        };
        execute(ctx, command, None).await?;
        tournament(ctx, tournament_id).await
    }

    /// Its organisers or the site admin: seeds the next round from its roll call (`docs/tournaments.md#seeding`).
    /// `sittingOut`/`playingTwice` override the proposal; `seed` (a decimal u64) fixes the
    /// seeder's random choices (else one is drawn). Refused with `CONFLICT` naming the
    /// shortfall when the present players cannot fill whole boards.
    async fn seed_round(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        seed: Option<String>,
        sitting_out: Option<Vec<ID>>,
        playing_twice: Option<Vec<ID>>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Round> {
        let actor = caller(ctx).actor()?;
        let tournament_id = parse_id(&tournament_id, "tournamentId")?;
        let round = count(round, "round")?;
        let seed = match seed {
            Some(text) => text.trim().parse::<u64>().map_err(|_| {
                GatewayError::bad_input(
                    "seed",
                    format!("{text:?} is not a whole number 0 to 2^64−1"),
                )
            })?,
            None => rand::random(),
        };
        let ids = |list: Option<Vec<ID>>, field: &str| {
            list.map(|ids| {
                ids.iter().map(|id| parse_id(id, field)).collect::<GatewayResult<Vec<_>>>()
            })
            .transpose()
        };
        let command = SeedRound {
            actor,
            tournament_id,
            round,
            seed,
            sitting_out: ids(sitting_out, "sittingOut")?,
            playing_twice: ids(playing_twice, "playingTwice")?,
        };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, tournament_id).await?.round_numbered(round)
    }

    /// Its organisers or the site admin: swaps two players of a seeded round (seats, or a seat and sitting out) before
    /// any of its boards has a result, giving the reason.
    async fn swap_round_players(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        round: i32,
        first: ID,
        second: ID,
        reason: String,
    ) -> GatewayResult<Round> {
        let actor = caller(ctx).actor()?;
        let tournament_id = parse_id(&tournament_id, "tournamentId")?;
        let round = count(round, "round")?;
        let command = SwapRoundPlayers {
            actor,
            tournament_id,
            round,
            first: parse_id(&first, "first")?,
            second: parse_id(&second, "second")?,
            reason,
        };
        execute(ctx, command, None).await?;
        tournament(ctx, tournament_id).await?.round_numbered(round)
    }

    /// Reports a board's result (a player seated on it, its organisers or the site admin), with any replacement
    /// players who finished a seat. Same result shapes and validation as league games.
    async fn report_board_result(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: ID,
        result: GameResultInput,
        replacements: Option<Vec<ReplacementInput>>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Board> {
        let on = BoardInput { tournament_id, board_id, result, replacements, idempotency_key };
        execute_on_board(ctx, on, |actor, tournament_id, board_id, result, replacements| {
            ReportBoardResult { actor, tournament_id, board_id, result, replacements }
        })
        .await
    }

    /// Its organisers or the site admin: replaces a finished board's result, giving the reason.
    async fn correct_board_result(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: ID,
        result: GameResultInput,
        reason: String,
        replacements: Option<Vec<ReplacementInput>>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Board> {
        let on = BoardInput { tournament_id, board_id, result, replacements, idempotency_key };
        execute_on_board(ctx, on, |actor, tournament_id, board_id, result, replacements| {
            CorrectBoardResult { actor, tournament_id, board_id, result, replacements, reason }
        })
        .await
    }
}

/// The arguments every board-result mutation takes.
struct BoardInput {
    tournament_id: ID,
    board_id: ID,
    result: GameResultInput,
    replacements: Option<Vec<ReplacementInput>>,
    idempotency_key: Option<String>,
}

/// Runs the result command `command` builds (from the caller, the tournament and board ids,
/// the result and replacements in domain terms) and answers with the board; errors speak of
/// the input.
async fn execute_on_board<C: Into<league_app::AppCommand>>(
    ctx: &Context<'_>,
    on: BoardInput,
    command: impl FnOnce(Actor, Uuid, Uuid, GameResult, Vec<league_domain::Replacement>) -> C,
) -> GatewayResult<Board> {
    let actor = caller(ctx).actor()?;
    let tournament_id = parse_id(&on.tournament_id, "tournamentId")?;
    let board_id = parse_id(&on.board_id, "boardId")?;
    let result = on.result.to_domain("result")?;
    let command =
        command(actor, tournament_id, board_id, result, replacements_of(on.replacements)?);
    execute(ctx, command, on.idempotency_key).await.map_err(|e| in_input_terms(e, &on.result))?;
    tournament(ctx, tournament_id).await?.board_by_id(board_id)
}

/// The caller, the tournament and the player a membership-like command is about.
fn who(
    ctx: &Context<'_>,
    tournament_id: &ID,
    player_id: Option<ID>,
) -> GatewayResult<(league_domain::Actor, Uuid, Uuid)> {
    let caller = caller(ctx);
    let actor = caller.actor()?;
    Ok((actor, parse_id(tournament_id, "tournamentId")?, subject(caller, player_id)?))
}

/// The tournament after a command (read-your-writes: its stream is read to the end).
async fn tournament(ctx: &Context<'_>, id: Uuid) -> GatewayResult<Tournament> {
    let app = app(ctx);
    Ok(Tournament::new(app.clone(), id, app.existing_tournament(id).await?))
}

/// A tournament: settings, entrants, roll calls, rounds and standings.
#[derive(Clone)]
pub struct Tournament {
    app: App,
    id: Uuid,
    state: Arc<league_domain::Tournament>,
}

impl Tournament {
    pub fn new(app: App, id: Uuid, state: Arc<league_domain::Tournament>) -> Self {
        Tournament { app, id, state }
    }

    fn settings(&self) -> &TournamentSettings {
        self.state.settings().expect("a listed tournament exists")
    }

    fn round_numbered(&self, number: u32) -> GatewayResult<Round> {
        self.state
            .round(number)
            .map(|_| Round { tournament: self.clone(), number })
            .ok_or_else(|| GatewayError::NotFound(format!("round {number}")))
    }

    fn board_by_id(&self, id: Uuid) -> GatewayResult<Board> {
        self.state
            .board(id)
            .map(|_| Board { tournament: self.clone(), id })
            .ok_or_else(|| GatewayError::NotFound(format!("board {id}")))
    }

    fn player(&self, id: Uuid) -> Player {
        Player::new(self.app.clone(), id)
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
        format: super::feeds::ExportFormat,
        #[graphql(default_with = "super::feeds::ExportTableValue::Results")]
        table: super::feeds::ExportTableValue,
    ) -> GatewayResult<String> {
        super::feeds::export(
            &self.app,
            league_app::CompetitionKind::Tournament,
            self.id,
            format,
            table,
        )
        .await
    }

    async fn name(&self) -> &str {
        &self.settings().name
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

    /// Pairs never seated together unless impossible.
    async fn keep_apart(&self) -> Vec<Vec<Player>> {
        self.settings()
            .keep_apart
            .iter()
            .map(|pair| pair.iter().map(|p| self.player(*p)).collect())
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

    async fn replacement_scores(&self) -> ReplacementScores {
        self.settings().replacement_scores.into()
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
            .map(|id| self.player(id))
            .collect()
    }

    /// Every entrant in entry order (withdrawn ones too).
    async fn entrants(&self) -> Vec<Entrant> {
        self.state
            .entrants()
            .iter()
            .map(|e| Entrant {
                player: self.player(e.player),
                entered_after_round: e.entered_after_round,
                withdrawn_after_round: e.withdrawn_after_round,
            })
            .collect()
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
                    player: self.player(e.player),
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
            Ok((sitting_out, playing_twice)) => RoundProposal {
                round,
                present,
                sitting_out: sitting_out.into_iter().map(|p| self.player(p)).collect(),
                playing_twice: playing_twice.into_iter().map(|p| self.player(p)).collect(),
                problem: None,
            },
            Err(error) => RoundProposal {
                round,
                present,
                sitting_out: Vec::new(),
                playing_twice: Vec::new(),
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
        Ok(self.state.board(id).map(|_| Board { tournament: self.clone(), id }))
    }

    /// The boards a player is seated on, in round order (a player's "my board and power").
    async fn boards_of(&self, player_id: ID) -> GatewayResult<Vec<Board>> {
        let player = parse_id(&player_id, "playerId")?;
        Ok(self
            .state
            .boards()
            .filter(|b| b.is_seated(player))
            .map(|b| Board { tournament: self.clone(), id: b.id })
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
        let state = match as_of {
            None => self.state.clone(),
            Some(as_of) => self.app.tournament_as_of(self.id, as_of.to_bound()?).await?,
        };
        let rows = state.standings(after_round).map_err(league_app::AppError::from)?;
        Ok(rows
            .into_iter()
            .map(|row| TournamentStanding {
                rank: row.rank,
                player: self.player(row.player),
                total: row.total,
                games: row.games,
                wins: row.wins,
                draws: row.draws,
                notes: row.notes,
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
                            .map(|b| BoardScore {
                                board: b.board,
                                score: b.score,
                                dropped: b.dropped,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect())
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
    /// Why the round cannot be seeded now (the shortfall), if it cannot.
    pub problem: Option<String>,
}

/// A seeded round.
#[derive(Clone)]
pub struct Round {
    tournament: Tournament,
    number: u32,
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
                .map(|b| Board { tournament: self.tournament.clone(), id: b.id })
                .collect()
        })
    }

    async fn sitting_out(&self) -> Vec<Player> {
        self.with(|r| r.sitting_out.iter().map(|p| self.tournament.player(*p)).collect())
    }

    async fn playing_twice(&self) -> Vec<Player> {
        self.with(|r| r.playing_twice.iter().map(|p| self.tournament.player(*p)).collect())
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
                    first: self.tournament.player(s.first),
                    second: self.tournament.player(s.second),
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
    tournament: Tournament,
    id: Uuid,
}

impl Board {
    fn with<T>(&self, f: impl FnOnce(&league_domain::Board) -> T) -> T {
        f(self.tournament.state.board(self.id).expect("a listed board exists"))
    }

    fn seat_views(&self) -> Vec<SeatView> {
        let labels = self.tournament.state.seat_labels();
        self.with(|b| {
            b.seats
                .iter()
                .zip(labels)
                .enumerate()
                .map(|(index, (player, label))| SeatView {
                    seat: index as u32 + 1,
                    label: label.into(),
                    player: *player,
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
        let system = self.tournament.settings().scoring_system;
        let scored = self.with(|b| b.scored(system)).map_err(league_app::AppError::from)?;
        Ok(scored
            .map(|scored| self.with(|b| scored.in_seat_order(b.seats.iter().copied())))
            .unwrap_or_default()
            .into_iter()
            .map(|(player, score)| GameScore { player: self.tournament.player(player), score })
            .collect())
    }

    /// Replacement players who finished a seat.
    async fn replacements(&self) -> Vec<Replacement> {
        self.with(|b| {
            b.replacements
                .iter()
                .map(|r| Replacement {
                    seated: self.tournament.player(r.seated),
                    replacement: self.tournament.player(r.replacement),
                })
                .collect()
        })
    }

    /// How many times the result was corrected.
    async fn corrections(&self) -> u32 {
        self.with(|b| b.corrections)
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
    /// Competition rank after every tie-breaker (1, 2, 2, 4).
    pub rank: u32,
    pub player: Player,
    pub total: f64,
    /// Boards played.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    /// Rule notes (e.g. the WDC 2025 round-4 bonus).
    pub notes: Vec<String>,
    /// One line per round so far.
    pub rounds: Vec<RoundScore>,
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
