//! Teams in the application (`docs/tournaments.md#teams`): the team rules in words for the
//! audit, and the exports' team standings table and each entrant's team.

use league_domain::{TeamRules, TeamScoreBasis, Tournament};
use serde::Serialize;
use uuid::Uuid;

use crate::app::App;
use crate::error::AppError;

/// The team rules in words: "Teams: at most 3 members; team rounds 2, 3; best 4 board
/// scores".
pub fn team_rules_words(rules: &TeamRules) -> String {
    let size =
        rules.max_size.map_or("no size limit".to_owned(), |max| format!("at most {max} members"));
    let rounds = match &rules.team_rounds {
        None => "every round a team round".to_owned(),
        Some(rounds) if rounds.is_empty() => "no team round".to_owned(),
        Some(rounds) => format!(
            "team rounds {}",
            rounds.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        ),
    };
    let basis = match rules.basis {
        TeamScoreBasis::Board => "board scores",
        TeamScoreBasis::Round => "round scores",
    };
    let counted =
        rules.best.map_or(format!("sum of {basis}"), |best| format!("best {best} {basis}"));
    format!("Teams: {size}; {rounds}; {counted}")
}

/// A team's line in an export's team standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamStandingExport {
    pub rank: u32,
    pub team: u32,
    pub name: String,
    pub total: f64,
    /// The members' names, in the order put in.
    pub members: Vec<String>,
    pub member_ids: Vec<Uuid>,
    /// The member scores the total adds.
    pub counted: u32,
}

impl App {
    /// A tournament's team standings as the exports show them (empty without teams).
    pub(crate) fn team_exports(
        &self,
        tournament: &Tournament,
    ) -> Result<Vec<TeamStandingExport>, AppError> {
        let teams: Vec<_> = tournament.teams().collect();
        Ok(tournament
            .team_standings()?
            .into_iter()
            .map(|line| {
                let members = teams
                    .iter()
                    .find(|t| t.team == line.team)
                    .map(|t| t.members.clone())
                    .unwrap_or_default();
                TeamStandingExport {
                    rank: line.rank,
                    team: line.team,
                    name: line.name,
                    total: line.total,
                    members: members.iter().map(|p| self.player_name(p.uuid())).collect(),
                    member_ids: members.iter().map(|p| p.uuid()).collect(),
                    counted: line.scores.iter().filter(|s| s.counted).count() as u32,
                }
            })
            .collect())
    }
}

/// The team standings table's header and rows (`rank,team,total,counted,members`).
pub(crate) fn team_rows(teams: &[TeamStandingExport]) -> Vec<Vec<String>> {
    let header = ["rank", "team", "total", "counted", "members"].map(str::to_owned).to_vec();
    std::iter::once(header)
        .chain(teams.iter().map(|t| {
            vec![
                t.rank.to_string(),
                crate::exports::spreadsheet_text(&t.name),
                t.total.to_string(),
                t.counted.to_string(),
                crate::exports::spreadsheet_text(&t.members.join("; ")),
            ]
        }))
        .collect()
}
