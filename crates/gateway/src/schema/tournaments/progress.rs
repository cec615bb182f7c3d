//! A board's live progress over GraphQL (`docs/tournaments.md#live-progress`): recording the
//! centre counts after a game year, `Board.progress` (per year and per power: the centre
//! chart), provisional board scores, the tournament's "if every board ended now" standings,
//! and the subscription that pushes each record with the progress it leaves.

use async_graphql::{Context, ID, Object, SimpleObject, Subscription};
use futures::Stream;
use league_domain::{Actor, RecordBoardProgress};

use super::rounds::Board;
use super::types::Tournament;
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{app, caller, execute};
use crate::schema::inputs::parse_id;
use crate::schema::leagues::types::GameScore;
use crate::schema::live::feed;
use crate::schema::players::types::Player;

/// Progress mutations (merged into the mutation root); the domain decides who may.
#[derive(Debug, Default)]
pub struct ProgressMutation;

#[Object]
impl ProgressMutation {
    /// A director (the tournament's organisers, the site admin) or a player seated on the
    /// board records its supply-centre counts after game year `year`, one per seat in seat
    /// order (0: eliminated). Recording a year again corrects it (the latest counts; `reason`
    /// optional, only for a correction). `FORBIDDEN` for anyone else; `BAD_USER_INPUT`
    /// (`field`: `year`, `centres`, `centres[i]`, `reason`) for a year before 1901, a count
    /// per seat missing, a total over the board's 34 centres or an eliminated power holding
    /// centres again; `CONFLICT` once the board is finished or for a game not counted in
    /// centres. Answers with the board.
    async fn record_board_progress(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: ID,
        year: i32,
        centres: Vec<i32>,
        reason: Option<String>,
    ) -> GatewayResult<Board> {
        let actor: Actor = caller(ctx).actor()?;
        let tournament_id = parse_id(&tournament_id, "tournamentId")?;
        let board_id = parse_id(&board_id, "boardId")?;
        let command = RecordBoardProgress {
            actor,
            tournament_id: tournament_id.into(),
            board_id: board_id.into(),
            year,
            centres,
            reason,
        };
        execute(ctx, command, None).await?;
        let app = app(ctx);
        let state = app.existing_tournament(tournament_id).await?;
        Tournament::new(app.clone(), tournament_id, state).board_by_id(board_id)
    }
}

/// A board's progress: the centre counts recorded after each game year.
pub struct BoardProgress {
    pub(super) board: Board,
}

impl BoardProgress {
    fn labels(&self) -> Vec<String> {
        self.board.tournament.state.seat_labels()
    }

    fn progress(&self) -> &league_domain::BoardProgress {
        self.board.tournament.state.progress(self.board.id.into())
    }

    fn recorder(&self, actor: Actor) -> Option<Player> {
        actor.player_id().map(|player| self.board.tournament.player(player.into()))
    }
}

#[Object]
impl BoardProgress {
    /// Supply centres on the board: a year's counts total at most this.
    async fn supply_centres(&self) -> u32 {
        league_scoring::TOTAL_CENTRES
    }

    /// Each recorded game year as it now stands (the latest record of the year), in year
    /// order.
    async fn years(&self) -> Vec<ProgressYear> {
        let seats = self.board.seat_players();
        let labels = self.labels();
        self.progress()
            .years()
            .into_iter()
            .map(|year| ProgressYear {
                year: year.year,
                total: year.centres.iter().sum(),
                centres: year
                    .centres
                    .iter()
                    .enumerate()
                    .map(|(seat, &centres)| PowerCentres {
                        seat: seat as u32 + 1,
                        power: labels.get(seat).cloned().unwrap_or_default(),
                        player: seats.get(seat).cloned(),
                        centres,
                        eliminated: centres == 0,
                    })
                    .collect(),
                recorded_by: self.recorder(year.recorded_by),
                corrections: year.corrections,
                reason: year.reason,
            })
            .collect()
    }

    /// The centre chart: one line per power, its count after each recorded year (the
    /// Diplomacy Broadcast Network's feed).
    async fn powers(&self) -> Vec<PowerProgress> {
        let seats = self.board.seat_players();
        let labels = self.labels();
        let progress = self.progress();
        let years = progress.years();
        labels
            .iter()
            .enumerate()
            .map(|(seat, label)| PowerProgress {
                seat: seat as u32 + 1,
                power: label.clone(),
                player: seats.get(seat).cloned(),
                counts: years
                    .iter()
                    .map(|y| YearCount {
                        year: y.year,
                        centres: y.centres.get(seat).copied().unwrap_or(0),
                    })
                    .collect(),
                eliminated_year: progress.eliminated_year(seat),
            })
            .collect()
    }

    /// Every record in the order made, corrections included.
    async fn records(&self) -> Vec<ProgressRecord> {
        let mut seen = std::collections::BTreeSet::new();
        self.progress()
            .records()
            .iter()
            .map(|record| ProgressRecord {
                year: record.year,
                centres: record.centres.clone(),
                correction: !seen.insert(record.year),
                reason: record.reason.clone(),
                recorded_by: self.recorder(record.recorded_by),
            })
            .collect()
    }
}

/// One game year's counts as they now stand.
#[derive(SimpleObject)]
pub struct ProgressYear {
    pub year: i32,
    /// One per seat, seat 1 first.
    pub centres: Vec<PowerCentres>,
    pub total: u32,
    /// Who recorded the counts that stand (null: the site admin).
    pub recorded_by: Option<Player>,
    /// Earlier records of this year that were corrected.
    pub corrections: u32,
    /// The standing correction's reason, if given.
    pub reason: Option<String>,
}

/// A power's centres after a year.
#[derive(SimpleObject)]
pub struct PowerCentres {
    pub seat: u32,
    pub power: String,
    pub player: Option<Player>,
    pub centres: u32,
    /// No centres: out of the game.
    pub eliminated: bool,
}

/// One power's line of the centre chart.
#[derive(SimpleObject)]
pub struct PowerProgress {
    pub seat: u32,
    pub power: String,
    pub player: Option<Player>,
    /// Its centres after each recorded year, in year order.
    pub counts: Vec<YearCount>,
    /// The first year it was counted at 0 (null: still in the game).
    pub eliminated_year: Option<i32>,
}

/// A count after a year.
#[derive(SimpleObject)]
pub struct YearCount {
    pub year: i32,
    pub centres: u32,
}

/// One record as made.
#[derive(SimpleObject)]
pub struct ProgressRecord {
    pub year: i32,
    pub centres: Vec<u32>,
    /// The year was recorded before: this record corrects it.
    pub correction: bool,
    pub reason: Option<String>,
    /// Null: the site admin.
    pub recorded_by: Option<Player>,
}

impl Board {
    /// The player in each seat, seat 1 first.
    fn seat_players(&self) -> Vec<Player> {
        let state = &self.tournament.state;
        let board = state.board(self.id.into()).expect("a listed board exists");
        board.seats.iter().map(|p| self.tournament.player((*p).into())).collect()
    }

    /// The board's progress (`Board.progress`).
    pub(super) fn progress_view(&self) -> BoardProgress {
        BoardProgress { board: self.clone() }
    }

    /// Each seat's provisional score "if the board ended now" (`Board.provisionalScores`):
    /// empty when finished, before any year is recorded, or when the system cannot score an
    /// unfinished game.
    pub(super) fn provisional_score_rows(&self) -> GatewayResult<Vec<GameScore>> {
        let tournament = &self.tournament;
        let state = &tournament.state;
        let board = state.board(self.id.into()).expect("a listed board exists");
        let system = tournament.settings().scoring_system;
        let scored = board.provisional(state, system).map_err(league_app::AppError::from)?;
        Ok(scored
            .map(|scored| scored.in_seat_order(board.seats.iter().copied()))
            .unwrap_or_default()
            .into_iter()
            .map(|(player, score)| GameScore { player: tournament.player(player.into()), score })
            .collect())
    }
}

/// A board's progress was recorded: the tournament as of that record (select
/// `provisionalStandings`) and the board (select `progress` and `provisionalScores`).
#[derive(SimpleObject)]
pub struct BoardProgressUpdate {
    pub tournament: Tournament,
    pub board: Board,
    pub position: u64,
}

/// Progress subscriptions (merged into the subscription root).
#[derive(Debug, Default)]
pub struct ProgressSubscription;

#[Subscription]
impl ProgressSubscription {
    /// Every progress record of a tournament's boards (of one board when `boardId` is
    /// given), carrying the progress and provisional scores it leaves: pages apply it without
    /// refetching.
    async fn board_progress_recorded(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: Option<ID>,
    ) -> Result<impl Stream<Item = BoardProgressUpdate> + use<>, GatewayError> {
        let id = parse_id(&tournament_id, "tournamentId")?;
        let only = board_id.map(|board| parse_id(&board, "boardId")).transpose()?;
        let app = app(ctx).clone();
        app.existing_tournament(id).await?;
        feed(
            ctx,
            move |n| n.applied.tournament == Some(id),
            move |notification| {
                let app = app.clone();
                async move {
                    match app.tournament_progress_update(id, &notification).await {
                        Ok(Some((state, board))) if only.is_none_or(|only| only == board) => {
                            let tournament = Tournament::new(app.clone(), id, state);
                            Some(BoardProgressUpdate {
                                board: tournament.board_by_id(board).ok()?,
                                tournament,
                                position: notification.event.position,
                            })
                        }
                        Ok(_) => None,
                        Err(error) => {
                            tracing::error!(%error, "board progress update not served");
                            None
                        }
                    }
                }
            },
        )
    }
}
