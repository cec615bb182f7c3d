//! Team rounds (`docs/tournaments.md#teams`): team-mates never share a board. The pair of
//! two team-mates costs what a player with themself costs, so the search separates them
//! before anything else; a request where they cannot all be apart is refused up front (a
//! team with more seats to fill than there are boards, or two team-mates on the fixed top
//! board), and boards that still seat two team-mates are refused after the search.

use std::collections::BTreeMap;

use super::SeedingError;
use super::SeedingRequest;
use super::problem::Problem;

/// `mates[p * n + q]` for the players to seat (`names`, in problem order): p and q are in the
/// same team. Refuses a team that cannot be kept apart on this round's boards.
pub(super) fn team_mates(
    request: &SeedingRequest,
    names: &[String],
    twice: &[bool],
    top_board: &[usize],
) -> Result<Vec<bool>, SeedingError> {
    let n = names.len();
    let id: BTreeMap<&str, usize> =
        names.iter().enumerate().map(|(i, name)| (name.as_str(), i)).collect();
    let boards = (n + twice.iter().filter(|&&t| t).count()) / request.board_size;
    let mut mates = vec![false; n * n];
    for (number, team) in (1..).zip(&request.teams) {
        let members: Vec<usize> =
            team.iter().filter_map(|name| id.get(name.as_str()).copied()).collect();
        let seats: usize = members.iter().map(|&p| 1 + usize::from(twice[p])).sum();
        if seats > boards {
            return Err(SeedingError::TeamLargerThanBoards {
                team: number,
                members: seats,
                boards,
            });
        }
        let on_top: Vec<usize> =
            members.iter().copied().filter(|p| top_board.contains(p)).collect();
        if let [first, second, ..] = on_top[..] {
            return Err(SeedingError::TeamMatesOnTopBoard(
                names[first].clone(),
                names[second].clone(),
            ));
        }
        for &p in &members {
            for &q in &members {
                if p != q {
                    mates[p * n + q] = true;
                }
            }
        }
    }
    Ok(mates)
}

/// Refuses boards that seat two team-mates together (the search found no seating that
/// keeps every team apart).
pub(super) fn check_apart(problem: &Problem, boards: &[Vec<usize>]) -> Result<(), SeedingError> {
    let n = problem.players();
    for board in boards {
        for (i, &p) in board.iter().enumerate() {
            if let Some(&q) = board[i + 1..].iter().find(|&&q| problem.team_mates[p * n + q]) {
                return Err(SeedingError::TeamMatesTogether(
                    problem.names[p].clone(),
                    problem.names[q].clone(),
                ));
            }
        }
    }
    Ok(())
}
