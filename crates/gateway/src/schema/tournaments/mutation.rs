//! Tournament changes: creating one, entering and withdrawing, roll calls, seeding and
//! swapping, reporting and correcting a board's result. Each maps its arguments onto one
//! domain command run by the application; the domain decides who may.

use async_graphql::{Context, ID, Object};
use league_domain::{
    Actor, AnswerRollCall, ApproveTournamentEntry, Attendance, ChangeTournamentRegistration,
    CorrectBoardResult, CreateTournament, DeclineTournamentEntry, EnterTournament, PlayerId,
    ReportBoardResult, SeedRound, SwapRoundPlayers, TournamentId, UndoTournamentWithdrawal,
    WithdrawFromTournament, tournament_id_of_stream,
};
use league_scoring::GameResult;
use uuid::Uuid;

use super::inputs::{
    CreateTournamentInput, ReplacementInput, TournamentRegistrationInput, replacements_of,
};
use super::rounds::{Board, Round};
use super::types::Tournament;
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{app, caller, execute, in_input_terms, subject};
use crate::schema::inputs::{GameResultInput, count, parse_id};

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
            tournament_id: Uuid::now_v7().into(),
            settings: input.into_settings()?,
        };
        let fresh = command.tournament_id;
        let executed = execute(ctx, command, idempotency_key).await?;
        let id = executed
            .events
            .first()
            .and_then(|event| tournament_id_of_stream(event.stream_id.as_str()))
            .unwrap_or(fresh);
        tournament(ctx, id.into()).await
    }

    /// Enters a player: the player themself (`playerId` omitted or their own), its organisers
    /// or the site admin anyone; open until the last round is seeded (a late entry plays from the next round).
    /// A player entering themself needs registration open and within its window (else
    /// `CONFLICT`) and, when entries need approval, makes a request; beyond the cap an entry
    /// joins the waitlist (`docs/tournaments.md#registration`).
    async fn enter_tournament(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: Option<ID>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let (actor, tournament_id, player_id) = who(ctx, &tournament_id, player_id)?;
        execute(
            ctx,
            EnterTournament {
                actor,
                tournament_id: tournament_id.into(),
                player_id: player_id.into(),
            },
            idempotency_key,
        )
        .await?;
        tournament(ctx, tournament_id).await
    }

    /// Withdraws a player (same rights as entering) when not seated in a round being played:
    /// their scores stay; they are never seated again (unless an organiser undoes it before
    /// the next round is seeded). The first on the waitlist takes the place freed. A player
    /// on the waitlist or with an entry request gives it up.
    async fn withdraw_from_tournament(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: Option<ID>,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let (actor, tournament_id, player_id) = who(ctx, &tournament_id, player_id)?;
        let command = WithdrawFromTournament {
            actor,
            tournament_id: tournament_id.into(),
            player_id: player_id.into(),
        };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, tournament_id).await
    }

    /// Its organisers or the site admin: changes the registration controls (omitted ones
    /// stay; `null` removes a window end or the cap). Once round 1 is seeded only `closed`
    /// may change (`CONFLICT`). A higher cap promotes the waitlist in order.
    async fn change_tournament_registration(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        registration: TournamentRegistrationInput,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let tournament_id = parse_id(&tournament_id, "tournamentId")?;
        let command = ChangeTournamentRegistration {
            actor,
            tournament_id: tournament_id.into(),
            change: registration.into_change("registration")?,
        };
        execute(ctx, command, None).await?;
        tournament(ctx, tournament_id).await
    }

    /// Its organisers or the site admin: approves a player's entry request (the player
    /// enters, or joins the waitlist when the tournament is full).
    async fn approve_tournament_entry(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: ID,
    ) -> GatewayResult<Tournament> {
        about_player(ctx, &tournament_id, player_id, |actor, tournament_id, player_id| {
            ApproveTournamentEntry { actor, tournament_id, player_id }
        })
        .await
    }

    /// Its organisers or the site admin: declines a player's entry request (the player may
    /// not ask again; an organiser may still enter them).
    async fn decline_tournament_entry(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: ID,
    ) -> GatewayResult<Tournament> {
        about_player(ctx, &tournament_id, player_id, |actor, tournament_id, player_id| {
            DeclineTournamentEntry { actor, tournament_id, player_id }
        })
        .await
    }

    /// Its organisers or the site admin: undoes a player's withdrawal until the next round
    /// is seeded (then `CONFLICT`); the player is an entrant again, even beyond the cap.
    async fn undo_tournament_withdrawal(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: ID,
    ) -> GatewayResult<Tournament> {
        about_player(ctx, &tournament_id, player_id, |actor, tournament_id, player_id| {
            UndoTournamentWithdrawal { actor, tournament_id, player_id }
        })
        .await
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
            tournament_id: tournament_id.into(),
            round: count(round, "round")?,
            player_id: player_id.into(),
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
                ids.iter()
                    .map(|id| parse_id(id, field).map(PlayerId::from))
                    .collect::<GatewayResult<Vec<_>>>()
            })
            .transpose()
        };
        let command = SeedRound {
            actor,
            tournament_id: tournament_id.into(),
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
            tournament_id: tournament_id.into(),
            round,
            first: parse_id(&first, "first")?.into(),
            second: parse_id(&second, "second")?.into(),
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
            ReportBoardResult {
                actor,
                tournament_id: tournament_id.into(),
                board_id: board_id.into(),
                result,
                replacements,
            }
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
            CorrectBoardResult {
                actor,
                tournament_id: tournament_id.into(),
                board_id: board_id.into(),
                result,
                replacements,
                reason,
            }
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

/// Runs an organiser's decision about one player that `command` builds (from the caller,
/// the tournament and the player) and answers with the tournament.
async fn about_player<C: Into<league_app::AppCommand>>(
    ctx: &Context<'_>,
    tournament_id: &ID,
    player_id: ID,
    command: impl FnOnce(Actor, TournamentId, PlayerId) -> C,
) -> GatewayResult<Tournament> {
    let (actor, tournament_id, player_id) = who(ctx, tournament_id, Some(player_id))?;
    execute(ctx, command(actor, tournament_id.into(), player_id.into()), None).await?;
    tournament(ctx, tournament_id).await
}

/// The tournament after a command (read-your-writes: its stream is read to the end).
pub(super) async fn tournament(ctx: &Context<'_>, id: Uuid) -> GatewayResult<Tournament> {
    let app = app(ctx);
    Ok(Tournament::new(app.clone(), id, app.existing_tournament(id).await?))
}
