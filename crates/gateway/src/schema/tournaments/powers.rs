//! Power assignment over GraphQL (`docs/tournaments.md#power-assignment`):
//! `Tournament.powerAssignment`, `Tournament.powerPreferences` (every ranking for the
//! organisers, the caller's own for a player), `Tournament.powerPreferencesCsv`,
//! `Board.powerChoice`, and the mutations that set the method, record rankings (one player's
//! or an organiser's pasted list), set a board's powers and pick a power in turn; each is one
//! domain command and the domain decides who may.

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use league_domain::{
    ChangePowerAssignment, ChoosePower, PowerAssignmentRule, SetBoardPowers, SubmitPowerPreferences,
};

use super::mutation::tournament;
use super::types::Tournament;
use crate::auth::Caller;
use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::{app, caller, execute};
use crate::schema::inputs::parse_id;
use crate::schema::players::types::Player;

/// How a tournament gives its boards' powers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::PowerAssignment")]
pub enum PowerAssignment {
    /// The seeder avoids powers a player already had (the default).
    Automatic,
    /// The seeder gives each player their best free power, the lowest placed choosing first.
    Preferences,
    /// The seeder's powers stand until a director sets a board's.
    Manual,
    /// On each board the players pick in turn, best placed first.
    OrderedChoice,
}

/// `Tournament.powerAssignment`.
#[derive(SimpleObject)]
#[graphql(name = "PowerAssignmentRule")]
pub struct PowerAssignmentValue {
    pub method: PowerAssignment,
    /// A round's top board picks by ordered choice whatever the method.
    pub top_board_ordered_choice: bool,
}

/// A player's ranking of the powers, best first.
#[derive(SimpleObject)]
pub struct PowerPreference {
    pub player: Player,
    pub powers: Vec<String>,
}

/// A board whose players are picking their powers in turn.
#[derive(SimpleObject)]
pub struct PowerChoice {
    /// Who picks, first to last.
    pub order: Vec<Player>,
    /// The powers picked so far, in that order.
    pub picked: Vec<String>,
    /// Whose turn it is.
    pub next: Option<Player>,
}

/// One seat of `setBoardPowers`.
#[derive(InputObject)]
pub struct PowerSeatInput {
    /// A seat label (e.g. "France"; case and a unique prefix aside).
    pub power: String,
    pub player_id: ID,
}

impl Tournament {
    pub(super) fn power_assignment_value(&self) -> PowerAssignmentValue {
        let rule = self.state.power_assignment();
        PowerAssignmentValue {
            method: rule.method.into(),
            top_board_ordered_choice: rule.top_board_ordered_choice,
        }
    }

    /// The caller may see every ranking: the site admin or one of the organisers.
    fn sees_all_preferences(&self, caller: Caller) -> bool {
        match caller {
            Caller::Admin => true,
            Caller::Player(id) => self.state.organisers().includes(id.into()),
            Caller::Anonymous => false,
        }
    }

    pub(super) fn power_preference_list(&self, caller: Caller) -> Vec<PowerPreference> {
        let all = self.sees_all_preferences(caller);
        self.app
            .power_preference_rows(&self.state)
            .into_iter()
            .filter(|row| all || caller == Caller::Player(row.player_id))
            .map(|row| PowerPreference { player: self.player(row.player_id), powers: row.powers })
            .collect()
    }

    pub(super) fn power_preference_csv(&self, caller: Caller) -> GatewayResult<String> {
        if !self.sees_all_preferences(caller) {
            return Err(GatewayError::Forbidden(
                "only the tournament's organisers export the rankings",
            ));
        }
        let rows = self.app.power_preference_rows(&self.state);
        Ok(league_app::power_preferences_csv(&rows, self.state.seat_labels().len())?)
    }

    pub(super) fn power_choice_of(&self, board: uuid::Uuid) -> Option<PowerChoice> {
        let choice = self.state.power_choice(board.into())?;
        Some(PowerChoice {
            order: choice.order.iter().map(|p| self.player(p.uuid())).collect(),
            picked: choice.picked.clone(),
            next: choice.next().map(|p| self.player(p.uuid())),
        })
    }
}

/// Setting the method, recording rankings, setting and choosing powers (merged into the
/// mutation root).
#[derive(Debug, Default)]
pub struct PowersMutation;

#[Object]
impl PowersMutation {
    /// The tournament's organisers or the site admin: sets how powers are given
    /// (`CONFLICT` when already so). No idempotency key, like the other settings.
    async fn change_power_assignment(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        method: PowerAssignment,
        #[graphql(desc = "A round's top board picks by ordered choice (omitted: false).")]
        top_board_ordered_choice: Option<bool>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let rule = PowerAssignmentRule {
            method: method.into(),
            top_board_ordered_choice: top_board_ordered_choice.unwrap_or(false),
        };
        execute(ctx, ChangePowerAssignment { actor, tournament_id: id.into(), rule }, None).await?;
        tournament(ctx, id).await
    }

    /// An entrant ranks the powers, best first (all seven or only some; an empty list
    /// clears the ranking); an organiser may do it for them. Omitting `playerId` means the
    /// caller.
    async fn submit_power_preferences(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        player_id: Option<ID>,
        powers: Vec<String>,
    ) -> GatewayResult<Tournament> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let player = crate::schema::context::subject(caller, player_id)?;
        let command = SubmitPowerPreferences {
            actor,
            tournament_id: id.into(),
            rankings: vec![(player.into(), powers)],
        };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers: records a pasted list of rankings, one line per entrant
    /// (name or id, then the powers best first, separated by commas, semicolons or tabs). Any
    /// bad line refuses the whole list and nothing is recorded.
    async fn paste_power_preferences(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        list: String,
    ) -> GatewayResult<Tournament> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let before = tournament(ctx, id).await?;
        if !before.sees_all_preferences(caller) {
            return Err(GatewayError::Forbidden(
                "only the tournament's organisers record a list of rankings",
            ));
        }
        let rankings = app(ctx).read_power_preference_list(&before.state, &list)?;
        let command = SubmitPowerPreferences { actor, tournament_id: id.into(), rankings };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers: sets every power of a board before its result (each
    /// power once, each of the board's players once); ends an ordered choice still running.
    async fn set_board_powers(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: ID,
        seats: Vec<PowerSeatInput>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let board_id = parse_id(&board_id, "boardId")?.into();
        let seats = seats
            .into_iter()
            .map(|seat| Ok((seat.power, parse_id(&seat.player_id, "playerId")?.into())))
            .collect::<GatewayResult<Vec<_>>>()?;
        let command = SetBoardPowers { actor, tournament_id: id.into(), board_id, seats };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }

    /// On a board choosing its powers: the player whose turn it is (or an organiser for
    /// them) picks a power still free. Omitting `playerId` means the caller.
    async fn choose_power(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        board_id: ID,
        player_id: Option<ID>,
        power: String,
    ) -> GatewayResult<Tournament> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let board_id = parse_id(&board_id, "boardId")?.into();
        let player_id = crate::schema::context::subject(caller, player_id)?.into();
        let command = ChoosePower { actor, tournament_id: id.into(), board_id, player_id, power };
        execute(ctx, command, None).await?;
        tournament(ctx, id).await
    }
}
