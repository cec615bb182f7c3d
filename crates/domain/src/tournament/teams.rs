//! Teams of entrants (`docs/tournaments.md#teams`): the tournament's team rules (a size
//! limit, which rounds are team rounds, what a team scores), teams a director creates,
//! renames and dissolves, and the entrants put in and taken out of them, each an event. In a
//! team round team-mates never share a board (the seeder's hard constraint); a team's score
//! is the sum of its members' board or round scores in team rounds, or the best N of them.
//! The payloads, commands, decisions and the pure team ranking live here; the event list is
//! the room's.

use league_scoring::{TournamentStanding, thousandths};
use serde::{Deserialize, Serialize};

use super::{Tournament, TournamentEvent};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, PlayerId, TournamentId, player_key};
use crate::rules::clean_name;

/// Which score of a member counts for the team: each board's score, or each round's score
/// under the tournament's round scoring (a member who played two boards counts once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TeamScoreBasis {
    #[default]
    Board,
    Round,
}

/// The tournament's team rules. The default (never changed): no size limit, every round a
/// team round, a team scores the sum of its members' board scores.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamRules {
    /// Most members a team may have (none: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_size: Option<u32>,
    /// The team rounds, ascending (none: every round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_rounds: Option<Vec<u32>>,
    pub basis: TeamScoreBasis,
    /// Only the team's best N scores count (none: all of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<u32>,
}

impl TeamRules {
    /// Whether round `round` is a team round.
    pub fn is_team_round(&self, round: u32) -> bool {
        self.team_rounds.as_ref().is_none_or(|rounds| rounds.contains(&round))
    }
}

/// A director changed the team rules; `rules` is the whole of them as they now stand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamRulesChanged {
    pub tournament_id: TournamentId,
    #[serde(flatten)]
    pub rules: TeamRules,
    pub changed_by: Actor,
}

/// A director created team number `team` (1, 2, … in the order created).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamCreated {
    pub tournament_id: TournamentId,
    pub team: u32,
    pub name: String,
    pub created_by: Actor,
}

/// A director renamed team `team`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamRenamed {
    pub tournament_id: TournamentId,
    pub team: u32,
    pub name: String,
    pub renamed_by: Actor,
}

/// A director dissolved team `team`: its members are in no team from then on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamDissolved {
    pub tournament_id: TournamentId,
    pub team: u32,
    pub dissolved_by: Actor,
}

/// A director put an entrant in team `team`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamMemberAdded {
    pub tournament_id: TournamentId,
    pub team: u32,
    pub player_id: PlayerId,
    pub added_by: Actor,
}

/// A director took an entrant out of team `team`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamMemberRemoved {
    pub tournament_id: TournamentId,
    pub team: u32,
    pub player_id: PlayerId,
    pub removed_by: Actor,
}

/// One of the tournament's organisers (or the site admin) sets the team rules.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeTeamRules {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub rules: TeamRules,
}

/// One of the tournament's organisers (or the site admin) creates a team.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTeam {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub name: String,
}

/// One of the tournament's organisers (or the site admin) renames a team.
#[derive(Debug, Clone, PartialEq)]
pub struct RenameTeam {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub team: u32,
    pub name: String,
}

/// One of the tournament's organisers (or the site admin) dissolves a team.
#[derive(Debug, Clone, PartialEq)]
pub struct DissolveTeam {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub team: u32,
}

/// One of the tournament's organisers (or the site admin) puts an entrant in a team.
#[derive(Debug, Clone, PartialEq)]
pub struct AddTeamMember {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub team: u32,
    pub player_id: PlayerId,
}

/// One of the tournament's organisers (or the site admin) takes an entrant out of a team.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoveTeamMember {
    pub actor: Actor,
    pub tournament_id: TournamentId,
    pub team: u32,
    pub player_id: PlayerId,
}

/// A team standing (not dissolved): its number, name and members in the order put in.
#[derive(Debug, Clone, PartialEq)]
pub struct Team {
    pub team: u32,
    pub name: String,
    pub members: Vec<PlayerId>,
}

/// One member's score that may count for their team.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamScore {
    pub player: PlayerId,
    pub round: u32,
    /// The board (by number in its round) for a board score; none for a round score.
    pub board: Option<u32>,
    pub score: f64,
    /// Among the scores the team's total adds (all of them, or the best N).
    pub counted: bool,
}

/// A team's line in the team standings.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamStanding {
    /// Competition rank: teams level on total (to the thousandth) share it (1, 2, 2, 4).
    pub rank: u32,
    pub team: u32,
    pub name: String,
    pub total: f64,
    /// Every score of its members in team rounds, best first.
    pub scores: Vec<TeamScore>,
}

/// The team state a tournament folds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Teams {
    rules: TeamRules,
    /// Every team ever created, in the order created; `None` once dissolved.
    created: Vec<Option<Team>>,
}

impl Teams {
    pub(super) fn apply(&mut self, event: &TournamentEvent) {
        match event {
            TournamentEvent::TeamRulesChanged(e) => self.rules = e.rules.clone(),
            TournamentEvent::TeamCreated(e) => self.created.push(Some(Team {
                team: e.team,
                name: e.name.clone(),
                members: Vec::new(),
            })),
            TournamentEvent::TeamRenamed(e) => {
                if let Some(team) = self.team_mut(e.team) {
                    team.name.clone_from(&e.name);
                }
            }
            TournamentEvent::TeamDissolved(e) => {
                if let Some(slot) = self.created.get_mut((e.team as usize).wrapping_sub(1)) {
                    *slot = None;
                }
            }
            TournamentEvent::TeamMemberAdded(e) => {
                if let Some(team) = self.team_mut(e.team) {
                    team.members.push(e.player_id);
                }
            }
            TournamentEvent::TeamMemberRemoved(e) => {
                if let Some(team) = self.team_mut(e.team) {
                    team.members.retain(|p| *p != e.player_id);
                }
            }
            _ => {}
        }
    }

    fn team_mut(&mut self, team: u32) -> Option<&mut Team> {
        self.created.get_mut((team as usize).checked_sub(1)?)?.as_mut()
    }

    fn standing(&self) -> impl Iterator<Item = &Team> {
        self.created.iter().flatten()
    }
}

impl Tournament {
    /// The team rules as they now stand.
    pub fn team_rules(&self) -> &TeamRules {
        &self.teams.rules
    }

    /// The teams standing (not dissolved), in the order created.
    pub fn teams(&self) -> impl Iterator<Item = &Team> {
        self.teams.standing()
    }

    /// The team `player` is in, if any.
    pub fn team_of(&self, player: PlayerId) -> Option<&Team> {
        self.teams.standing().find(|team| team.members.contains(&player))
    }

    /// The teams whose members the seeder keeps apart in round `round`: none unless it is a
    /// team round; else each team's members present and not sitting out, when two or more.
    pub(super) fn teams_kept_apart(
        &self,
        round: u32,
        present: &[PlayerId],
        sitting_out: &[PlayerId],
    ) -> Vec<Vec<String>> {
        if !self.teams.rules.is_team_round(round) {
            return Vec::new();
        }
        self.teams
            .standing()
            .map(|team| {
                team.members
                    .iter()
                    .filter(|p| present.contains(p) && !sitting_out.contains(p))
                    .copied()
                    .map(player_key)
                    .collect::<Vec<_>>()
            })
            .filter(|members| members.len() > 1)
            .collect()
    }

    /// The team standings over the boards finished so far (live while the tournament runs).
    pub fn team_standings(&self) -> Result<Vec<TeamStanding>, DomainError> {
        let standings = self.standings(None)?;
        Ok(rank_teams(&self.teams.rules, self.teams.standing(), &standings))
    }

    pub(super) fn change_team_rules(
        &self,
        c: &ChangeTeamRules,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        let settings = self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "change the team rules")?;
        let mut rules = c.rules.clone();
        if let Some(max) = rules.max_size {
            if max < 2 {
                return Err(DomainError::invalid("maxSize", "a team has at least 2 members"));
            }
            if let Some(team) = self.teams().find(|team| team.members.len() > max as usize) {
                return Err(DomainError::conflict(format!(
                    "team {:?} already has {} members, more than {max}",
                    team.name,
                    team.members.len()
                )));
            }
        }
        if rules.best == Some(0) {
            return Err(DomainError::invalid("best", "count at least 1 score, or leave it out"));
        }
        if let Some(rounds) = &mut rules.team_rounds {
            rounds.sort_unstable();
            rounds.dedup();
            if let Some(bad) = rounds.iter().find(|r| **r == 0 || **r > settings.rounds) {
                return Err(DomainError::invalid(
                    "teamRounds",
                    format!("round {bad} is not one of rounds 1 to {}", settings.rounds),
                ));
            }
        }
        if let Some(seeded) = self.rounds.iter().find(|round| {
            rules.is_team_round(round.number) != self.teams.rules.is_team_round(round.number)
        }) {
            return Err(DomainError::conflict(format!(
                "round {} is already seeded: whether it is a team round stays as it was",
                seeded.number
            )));
        }
        if self.teams.rules == rules {
            return Err(DomainError::conflict("the team rules are already that"));
        }
        Ok(vec![TournamentEvent::TeamRulesChanged(TeamRulesChanged {
            tournament_id: c.tournament_id,
            rules,
            changed_by: c.actor,
        })])
    }

    pub(super) fn create_team(&self, c: &CreateTeam) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "create teams")?;
        let name = self.free_team_name(&c.name, None)?;
        Ok(vec![TournamentEvent::TeamCreated(TeamCreated {
            tournament_id: c.tournament_id,
            team: self.teams.created.len() as u32 + 1,
            name,
            created_by: c.actor,
        })])
    }

    pub(super) fn rename_team(&self, c: &RenameTeam) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "rename teams")?;
        let team = self.standing_team(c.team)?;
        let name = self.free_team_name(&c.name, Some(team))?;
        Ok(vec![TournamentEvent::TeamRenamed(TeamRenamed {
            tournament_id: c.tournament_id,
            team: c.team,
            name,
            renamed_by: c.actor,
        })])
    }

    pub(super) fn dissolve_team(
        &self,
        c: &DissolveTeam,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "dissolve teams")?;
        self.standing_team(c.team)?;
        Ok(vec![TournamentEvent::TeamDissolved(TeamDissolved {
            tournament_id: c.tournament_id,
            team: c.team,
            dissolved_by: c.actor,
        })])
    }

    pub(super) fn add_team_member(
        &self,
        c: &AddTeamMember,
        context: &Context,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "put entrants in teams")?;
        if context.unknown_players.contains(&c.player_id) {
            return Err(DomainError::PlayerNotFound(c.player_id));
        }
        context.refuse_erased(c.player_id)?;
        let team = self.standing_team(c.team)?;
        if self.entrant(c.player_id).is_none() {
            return Err(DomainError::invalid(
                "playerId",
                format!("player {} has not entered the tournament", c.player_id),
            ));
        }
        if let Some(other) = self.team_of(c.player_id) {
            return Err(DomainError::conflict(format!(
                "player {} is already in team {:?}",
                c.player_id, other.name
            )));
        }
        if let Some(max) = self.teams.rules.max_size
            && team.members.len() >= max as usize
        {
            return Err(DomainError::conflict(format!(
                "team {:?} is full: a team has at most {max} members",
                team.name
            )));
        }
        Ok(vec![TournamentEvent::TeamMemberAdded(TeamMemberAdded {
            tournament_id: c.tournament_id,
            team: c.team,
            player_id: c.player_id,
            added_by: c.actor,
        })])
    }

    pub(super) fn remove_team_member(
        &self,
        c: &RemoveTeamMember,
    ) -> Result<Vec<TournamentEvent>, DomainError> {
        self.created(c.tournament_id)?;
        self.authorise(c.actor, c.tournament_id, "take entrants out of teams")?;
        let team = self.standing_team(c.team)?;
        if !team.members.contains(&c.player_id) {
            return Err(DomainError::invalid(
                "playerId",
                format!("player {} is not in team {:?}", c.player_id, team.name),
            ));
        }
        Ok(vec![TournamentEvent::TeamMemberRemoved(TeamMemberRemoved {
            tournament_id: c.tournament_id,
            team: c.team,
            player_id: c.player_id,
            removed_by: c.actor,
        })])
    }

    fn standing_team(&self, team: u32) -> Result<&Team, DomainError> {
        self.teams().find(|t| t.team == team).ok_or(DomainError::TeamNotFound(team))
    }

    /// `name` cleaned, refused when another standing team has it (letter case aside) or,
    /// for a rename, when it is the team's name already.
    fn free_team_name(&self, name: &str, renamed: Option<&Team>) -> Result<String, DomainError> {
        let name = clean_name("name", name)?;
        if let Some(team) = renamed
            && team.name == name
        {
            return Err(DomainError::conflict(format!("the team is already named {name:?}")));
        }
        if self.teams().any(|t| {
            t.name.to_lowercase() == name.to_lowercase() && renamed.is_none_or(|r| r.team != t.team)
        }) {
            return Err(DomainError::conflict(format!("a team is already named {name:?}")));
        }
        Ok(name)
    }
}

/// The team standings under `rules` from the players' standings: each team's members'
/// scores in team rounds (each board's score, or each round's score for a round the member
/// played), the best N of them or all added, teams ranked by total (exact thousandths), level
/// teams sharing a rank and listed by name.
pub fn rank_teams<'a>(
    rules: &TeamRules,
    teams: impl IntoIterator<Item = &'a Team>,
    standings: &[TournamentStanding<PlayerId>],
) -> Vec<TeamStanding> {
    let mut lines: Vec<TeamStanding> = teams
        .into_iter()
        .map(|team| {
            let mut scores: Vec<TeamScore> = team
                .members
                .iter()
                .filter_map(|member| standings.iter().find(|s| s.player == *member))
                .flat_map(|standing| member_scores(rules, standing))
                .collect();
            scores.sort_by_key(|s| std::cmp::Reverse(thousandths(s.score)));
            let counted = rules.best.map_or(scores.len(), |best| best as usize);
            for score in scores.iter_mut().take(counted) {
                score.counted = true;
            }
            let total: i64 =
                scores.iter().filter(|s| s.counted).map(|s| thousandths(s.score)).sum();
            TeamStanding {
                rank: 0,
                team: team.team,
                name: team.name.clone(),
                total: total as f64 / 1000.0,
                scores,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        thousandths(b.total).cmp(&thousandths(a.total)).then_with(|| a.name.cmp(&b.name))
    });
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && thousandths(lines[i].total) == thousandths(lines[i - 1].total) {
            lines[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    lines
}

/// A member's scores in team rounds, none counted yet.
fn member_scores(rules: &TeamRules, standing: &TournamentStanding<PlayerId>) -> Vec<TeamScore> {
    let player = standing.player;
    standing
        .rounds
        .iter()
        .filter(|line| rules.is_team_round(line.round) && !line.boards.is_empty())
        .flat_map(|line| match (rules.basis, line.score) {
            (TeamScoreBasis::Round, Some(score)) => {
                vec![TeamScore { player, round: line.round, board: None, score, counted: false }]
            }
            (TeamScoreBasis::Round, None) => Vec::new(),
            (TeamScoreBasis::Board, _) => line
                .boards
                .iter()
                .map(|board| TeamScore {
                    player,
                    round: line.round,
                    board: Some(board.board),
                    score: board.score,
                    counted: false,
                })
                .collect(),
        })
        .collect()
}
