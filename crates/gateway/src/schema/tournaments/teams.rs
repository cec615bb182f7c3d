//! Teams over GraphQL (`docs/tournaments.md#teams`): `Tournament.teamRules`,
//! `Tournament.teams` (each team standing with its members), `Tournament.teamStandings`
//! (live over the boards finished so far), and the mutations that set the rules, create,
//! rename and dissolve a team and put entrants in and out of it, each one domain command;
//! the domain decides who may.

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use league_app::AppCommand;
use league_domain::{
    Actor, AddTeamMember, ChangeTeamRules, CreateTeam, DissolveTeam, PlayerId, RemoveTeamMember,
    RenameTeam, TeamRules, TournamentId,
};

use super::mutation::tournament;
use super::types::Tournament;
use crate::error::GatewayResult;
use crate::schema::context::{caller, execute};
use crate::schema::inputs::{count, parse_id};
use crate::schema::players::types::Player;

/// Which score of a member counts for their team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::TeamScoreBasis")]
pub enum TeamScoreBasis {
    /// Each board's score (the default).
    Board,
    /// Each round's score under the tournament's round scoring.
    Round,
}

/// `Tournament.teamRules`.
#[derive(SimpleObject)]
#[graphql(name = "TeamRules")]
pub struct TeamRulesValue {
    /// Most members a team may have; null: no limit.
    pub max_size: Option<u32>,
    /// The team rounds (team-mates never share a board, their scores count for the team);
    /// null: every round.
    pub team_rounds: Option<Vec<u32>>,
    pub basis: TeamScoreBasis,
    /// Only the team's best N scores count; null: all of them.
    pub best: Option<u32>,
}

/// The team rules to set (`changeTeamRules`); omitted fields take their defaults.
#[derive(InputObject)]
pub struct TeamRulesInput {
    pub max_size: Option<i32>,
    pub team_rounds: Option<Vec<i32>>,
    pub basis: Option<TeamScoreBasis>,
    pub best: Option<i32>,
}

/// A team of entrants.
#[derive(SimpleObject)]
pub struct TournamentTeam {
    /// 1, 2, … in the order created (never reused).
    pub number: u32,
    pub name: String,
    /// In the order put in.
    pub members: Vec<Player>,
}

/// A member's score that may count for their team.
#[derive(SimpleObject)]
pub struct TeamScoreLine {
    pub player: Player,
    pub round: u32,
    /// The board's number in its round, for a board score; null for a round score.
    pub board: Option<u32>,
    pub score: f64,
    /// Among the scores the team's total adds.
    pub counted: bool,
}

/// A team's line in the team standings.
#[derive(SimpleObject)]
pub struct TeamStandingRow {
    /// Teams level on total share a rank (1, 2, 2, 4).
    pub rank: u32,
    pub team: TournamentTeam,
    pub total: f64,
    /// Every score of its members in team rounds, best first.
    pub scores: Vec<TeamScoreLine>,
}

impl Tournament {
    pub(super) fn team_rules_value(&self) -> TeamRulesValue {
        let rules = self.state.team_rules();
        TeamRulesValue {
            max_size: rules.max_size,
            team_rounds: rules.team_rounds.clone(),
            basis: rules.basis.into(),
            best: rules.best,
        }
    }

    fn team_value(&self, team: &league_domain::Team) -> TournamentTeam {
        TournamentTeam {
            number: team.team,
            name: team.name.clone(),
            members: team.members.iter().map(|p| self.player(p.uuid())).collect(),
        }
    }

    pub(super) fn team_list(&self) -> Vec<TournamentTeam> {
        self.state.teams().map(|team| self.team_value(team)).collect()
    }

    pub(super) fn team_standing_list(&self) -> GatewayResult<Vec<TeamStandingRow>> {
        let lines = self.state.team_standings().map_err(league_app::AppError::from)?;
        Ok(lines
            .into_iter()
            .filter_map(|line| {
                let team = self.state.teams().find(|t| t.team == line.team)?;
                Some(TeamStandingRow {
                    rank: line.rank,
                    team: self.team_value(team),
                    total: line.total,
                    scores: line
                        .scores
                        .into_iter()
                        .map(|s| TeamScoreLine {
                            player: self.player(s.player.uuid()),
                            round: s.round,
                            board: s.board,
                            score: s.score,
                            counted: s.counted,
                        })
                        .collect(),
                })
            })
            .collect())
    }
}

/// Team rules, teams and their members (merged into the mutation root).
#[derive(Debug, Default)]
pub struct TeamsMutation;

#[Object]
impl TeamsMutation {
    /// The tournament's organisers or the site admin: sets the team rules as a whole (a size
    /// limit, the team rounds, what a team scores). Like the other settings it takes no
    /// idempotency key: a retry is refused as a change to the same rules.
    async fn change_team_rules(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        rules: TeamRulesInput,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let rules = TeamRules {
            max_size: rules.max_size.map(|n| count(n, "maxSize")).transpose()?,
            team_rounds: rules
                .team_rounds
                .map(|rounds| rounds.into_iter().map(|r| count(r, "teamRounds")).collect())
                .transpose()?,
            basis: rules.basis.map(Into::into).unwrap_or_default(),
            best: rules.best.map(|n| count(n, "best")).transpose()?,
        };
        execute(ctx, ChangeTeamRules { actor, tournament_id: id.into(), rules }, None).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: creates a team (names are unique in
    /// the tournament, letter case aside).
    async fn create_team(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        name: String,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let actor = caller(ctx).actor()?;
        let id = parse_id(&tournament_id, "tournamentId")?;
        let command = CreateTeam { actor, tournament_id: id.into(), name };
        execute(ctx, command, idempotency_key).await?;
        tournament(ctx, id).await
    }

    /// The tournament's organisers or the site admin: renames team `number`.
    async fn rename_team(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        number: i32,
        name: String,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        on_team(ctx, tournament_id, number, idempotency_key, |actor, tournament_id, team| {
            Ok(RenameTeam { actor, tournament_id, team, name }.into())
        })
        .await
    }

    /// The tournament's organisers or the site admin: dissolves team `number` (its members
    /// are in no team from then on; the audit keeps it).
    async fn dissolve_team(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        number: i32,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        on_team(ctx, tournament_id, number, idempotency_key, |actor, tournament_id, team| {
            Ok(DissolveTeam { actor, tournament_id, team }.into())
        })
        .await
    }

    /// The tournament's organisers or the site admin: puts an entrant in team `number` (an
    /// entrant is in at most one team).
    async fn add_team_member(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        number: i32,
        player_id: ID,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let make = |actor, tournament_id, team, player_id| {
            AddTeamMember { actor, tournament_id, team, player_id }.into()
        };
        on_member(ctx, [tournament_id, player_id], number, idempotency_key, make).await
    }

    /// The tournament's organisers or the site admin: takes a member out of team `number`.
    async fn remove_team_member(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        number: i32,
        player_id: ID,
        idempotency_key: Option<String>,
    ) -> GatewayResult<Tournament> {
        let make = |actor, tournament_id, team, player_id| {
            RemoveTeamMember { actor, tournament_id, team, player_id }.into()
        };
        on_member(ctx, [tournament_id, player_id], number, idempotency_key, make).await
    }
}

/// A change to team `number`: the caller, the tournament's id and the number checked, then
/// the command `make` builds of them executed; answers the tournament.
async fn on_team(
    ctx: &Context<'_>,
    tournament_id: ID,
    number: i32,
    idempotency_key: Option<String>,
    make: impl FnOnce(Actor, TournamentId, u32) -> GatewayResult<AppCommand>,
) -> GatewayResult<Tournament> {
    let actor = caller(ctx).actor()?;
    let id = parse_id(&tournament_id, "tournamentId")?;
    let team = count(number, "number")?;
    execute(ctx, make(actor, id.into(), team)?, idempotency_key).await?;
    tournament(ctx, id).await
}

/// A change to a member of team `number`: `[tournamentId, playerId]` checked after the
/// team's, then as [`on_team`].
async fn on_member(
    ctx: &Context<'_>,
    [tournament_id, player_id]: [ID; 2],
    number: i32,
    idempotency_key: Option<String>,
    make: impl FnOnce(Actor, TournamentId, u32, PlayerId) -> AppCommand,
) -> GatewayResult<Tournament> {
    on_team(ctx, tournament_id, number, idempotency_key, |actor, tournament_id, team| {
        Ok(make(actor, tournament_id, team, parse_id(&player_id, "playerId")?.into()))
    })
    .await
}
