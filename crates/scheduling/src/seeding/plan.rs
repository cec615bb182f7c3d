//! Roll-call planning (`docs/tournaments.md#seeding`): who sits out or plays two boards so
//! that the players present fill whole boards, and why each of them was chosen. With n
//! present and r = n mod k: r = 0 → nobody; else r standbys sit out, if there are r standbys
//! (those who sat out least first); else k − r two-board volunteers (entry order) play twice,
//! if there are that many and ≥ 2 boards; else r players sit out: standbys first, then those
//! who sat out least, then the lowest ranked in the current standings, and only among players
//! level on all of these the one who entered latest. A leader is never benched for entering
//! early.

use std::cmp::Reverse;
use std::collections::BTreeMap;

/// A player present at the roll call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attendee {
    pub player: String,
    /// May sit out this round.
    pub standby: bool,
    /// Volunteers to play two boards this round.
    pub two_boards: bool,
    /// Rounds of this tournament the player sat out so far.
    pub times_sat_out: u32,
    /// Place in the current standings (1 leads; level players share a place); `None` when the
    /// player has none yet, which counts as last.
    pub rank: Option<u32>,
}

impl Attendee {
    /// The order in which players sit out when nobody volunteers enough: who sat out least,
    /// then the lowest ranked (no rank is lowest).
    fn bench_order(&self) -> (u32, Reverse<u32>) {
        (self.times_sat_out, Reverse(self.rank.unwrap_or(u32::MAX)))
    }

    fn rank_words(&self) -> String {
        self.rank.map_or_else(|| "no rank yet".to_owned(), |rank| format!("rank {rank}"))
    }
}

/// Who sits out and who plays twice this round, and why.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundPlan {
    pub sitting_out: Vec<String>,
    pub playing_twice: Vec<String>,
    /// Why each player of `sitting_out` and `playing_twice` was chosen, by player, e.g.
    /// "volunteered (standby)" or "lowest ranked of those who sat out least (rank 22)".
    pub reasons: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("board size {0}: a board needs at least 2 seats")]
    BoardTooSmall(usize),
    #[error("{present} players present; a board needs {board_size}: {} more must check in", board_size - present)]
    TooFew { present: usize, board_size: usize },
}

/// The standby's reason.
const VOLUNTEERED: &str = "volunteered (standby)";
/// A two-board volunteer's reason.
const ASKED_FOR_TWO: &str = "asked to play two boards";

/// Plans the round for the players `present` (in entry order) and boards of `board_size`.
pub fn plan_round(board_size: usize, present: &[Attendee]) -> Result<RoundPlan, PlanError> {
    let k = board_size;
    if k < 2 {
        return Err(PlanError::BoardTooSmall(k));
    }
    let n = present.len();
    if n < k {
        return Err(PlanError::TooFew { present: n, board_size: k });
    }
    let left_over = n % k;
    if left_over == 0 {
        return Ok(RoundPlan::default());
    }
    // Latest entrant first among players level on everything else: sorting the reversed
    // entry order with a stable sort.
    let mut standbys: Vec<&Attendee> = present.iter().rev().filter(|a| a.standby).collect();
    if standbys.len() >= left_over {
        standbys.sort_by_key(|a| a.bench_order());
        standbys.truncate(left_over);
        return Ok(sitting_out(standbys, &[]));
    }
    let extra = k - left_over;
    let volunteers: Vec<&Attendee> = present.iter().filter(|a| a.two_boards).collect();
    if volunteers.len() >= extra && (n + extra) / k >= 2 {
        let chosen: Vec<&Attendee> = volunteers.into_iter().take(extra).collect();
        return Ok(RoundPlan {
            sitting_out: Vec::new(),
            playing_twice: chosen.iter().map(|a| a.player.clone()).collect(),
            reasons: chosen.iter().map(|a| (a.player.clone(), ASKED_FOR_TWO.to_owned())).collect(),
        });
    }
    let mut everyone: Vec<&Attendee> = present.iter().rev().collect();
    everyone.sort_by_key(|a| (!a.standby, a.bench_order()));
    let rest = everyone.split_off(left_over);
    Ok(sitting_out(everyone, &rest))
}

/// The plan benching `chosen`, each with their reason; `rest` are those who play, to tell
/// when entry order decided between level players.
fn sitting_out(chosen: Vec<&Attendee>, rest: &[&Attendee]) -> RoundPlan {
    let reasons = chosen
        .iter()
        .map(|a| {
            let reason = if a.standby {
                VOLUNTEERED.to_owned()
            } else if rest.iter().any(|b| !b.standby && b.bench_order() == a.bench_order()) {
                format!("sat out least, level with others at {}: entered latest", a.rank_words())
            } else {
                format!("lowest ranked of those who sat out least ({})", a.rank_words())
            };
            (a.player.clone(), reason)
        })
        .collect();
    RoundPlan {
        sitting_out: chosen.iter().map(|a| a.player.clone()).collect(),
        playing_twice: Vec::new(),
        reasons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attendee(name: &str) -> Attendee {
        Attendee {
            player: name.into(),
            standby: false,
            two_boards: false,
            times_sat_out: 0,
            rank: None,
        }
    }

    fn present(count: usize) -> Vec<Attendee> {
        (1..=count).map(|i| attendee(&format!("P{i}"))).collect()
    }

    #[test]
    fn whole_boards_need_no_plan() {
        assert_eq!(plan_round(7, &present(14)), Ok(RoundPlan::default()));
    }

    #[test]
    fn too_few_names_the_shortfall() {
        let error = plan_round(7, &present(5)).unwrap_err();
        assert_eq!(error.to_string(), "5 players present; a board needs 7: 2 more must check in");
        assert_eq!(plan_round(1, &present(5)), Err(PlanError::BoardTooSmall(1)));
    }

    #[test]
    fn standbys_who_sat_out_least_sit_out_first() {
        let mut players = present(16); // r = 2
        for (i, sat_out) in [(3, 2), (5, 1), (9, 1), (12, 0)] {
            players[i].standby = true;
            players[i].times_sat_out = sat_out;
        }
        players[0].two_boards = true; // standbys win over volunteers
        let plan = plan_round(7, &players).unwrap();
        // P6 and P10 are level (sat out once, no rank): the later entrant sits out.
        assert_eq!(plan.sitting_out, ["P13", "P10"]);
        assert!(plan.playing_twice.is_empty());
        assert_eq!(plan.reasons["P13"], "volunteered (standby)");
    }

    #[test]
    fn volunteers_play_twice_in_entry_order_when_standbys_are_too_few() {
        let mut players = present(19); // r = 5, k − r = 2
        players[0].standby = true;
        for i in [4, 2, 10] {
            players[i].two_boards = true;
        }
        let plan = plan_round(7, &players).unwrap();
        assert!(plan.sitting_out.is_empty());
        assert_eq!(plan.playing_twice, ["P3", "P5"]);
        assert_eq!(plan.reasons["P5"], "asked to play two boards");
    }

    #[test]
    fn otherwise_standbys_then_those_who_sat_out_least_sit_out() {
        let mut players = present(17); // r = 3, k − r = 4 volunteers needed
        players[8].standby = true;
        players[8].times_sat_out = 3;
        players[0].times_sat_out = 1;
        players[1].two_boards = true;
        let plan = plan_round(7, &players).unwrap();
        assert_eq!(plan.sitting_out, ["P9", "P17", "P16"]);
        assert!(plan.playing_twice.is_empty());
        assert_eq!(
            plan.reasons["P17"],
            "sat out least, level with others at no rank yet: entered latest"
        );
    }

    #[test]
    fn the_lowest_ranked_of_those_who_sat_out_least_sit_out_never_the_leader_for_entering_first() {
        // Given 22 present for boards of 7 (r = 1), nobody volunteering; the leader entered
        // first, P22 (rank 22) sat out before, P21 is last of those who have not.
        let mut players = present(22);
        for (i, player) in players.iter_mut().enumerate() {
            player.rank = Some(i as u32 + 1);
        }
        players[21].times_sat_out = 1;
        // When the round is planned
        let plan = plan_round(7, &players).unwrap();
        // Then the lowest ranked of those who sat out least sits out, and says why.
        assert_eq!(plan.sitting_out, ["P21"]);
        assert_eq!(plan.reasons["P21"], "lowest ranked of those who sat out least (rank 21)");
        assert!(!plan.sitting_out.contains(&"P1".to_owned()));
        // And with the standings reversed the leader (who entered last) plays and P1 sits out.
        for (i, player) in players.iter_mut().enumerate() {
            player.rank = Some(22 - i as u32);
            player.times_sat_out = 0;
        }
        assert_eq!(plan_round(7, &players).unwrap().sitting_out, ["P1"]);
    }

    #[test]
    fn eight_present_and_six_volunteers_make_two_boards() {
        // r = 1: six volunteers playing twice make 14 seats, two boards.
        let mut players = present(8);
        for player in &mut players {
            player.two_boards = true;
        }
        assert_eq!(plan_round(7, &players).unwrap().playing_twice.len(), 6);
    }
}
