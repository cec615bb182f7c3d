//! Roll-call planning (`docs/tournaments.md#seeding`): who sits out or plays two boards so
//! that the players present fill whole boards. With n present and r = n mod k: r = 0 →
//! nobody; else the r standbys who sat out least, if there are r standbys; else k − r
//! two-board volunteers (entry order) play twice, if there are that many and ≥ 2 boards;
//! else r players sit out, standbys first, then those who sat out least. Ties go by the
//! order given (the entry order).

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
}

/// Who sits out and who plays twice this round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundPlan {
    pub sitting_out: Vec<String>,
    pub playing_twice: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("board size {0}: a board needs at least 2 seats")]
    BoardTooSmall(usize),
    #[error("{present} players present; a board needs {board_size}: {} more must check in", board_size - present)]
    TooFew { present: usize, board_size: usize },
}

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
    let names = |chosen: Vec<&Attendee>| chosen.into_iter().map(|a| a.player.clone()).collect();
    // A stable sort keeps the entry order among equals.
    let mut standbys: Vec<&Attendee> = present.iter().filter(|a| a.standby).collect();
    if standbys.len() >= left_over {
        standbys.sort_by_key(|a| a.times_sat_out);
        standbys.truncate(left_over);
        return Ok(RoundPlan { sitting_out: names(standbys), playing_twice: Vec::new() });
    }
    let extra = k - left_over;
    let volunteers: Vec<&Attendee> = present.iter().filter(|a| a.two_boards).collect();
    if volunteers.len() >= extra && (n + extra) / k >= 2 {
        return Ok(RoundPlan {
            sitting_out: Vec::new(),
            playing_twice: names(volunteers.into_iter().take(extra).collect()),
        });
    }
    let mut everyone: Vec<&Attendee> = present.iter().collect();
    everyone.sort_by_key(|a| (!a.standby, a.times_sat_out));
    everyone.truncate(left_over);
    Ok(RoundPlan { sitting_out: names(everyone), playing_twice: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attendee(name: &str) -> Attendee {
        Attendee { player: name.into(), standby: false, two_boards: false, times_sat_out: 0 }
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
        assert_eq!(plan.sitting_out, ["P13", "P6"]);
        assert!(plan.playing_twice.is_empty());
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
    }

    #[test]
    fn otherwise_standbys_then_those_who_sat_out_least_sit_out() {
        let mut players = present(17); // r = 3, k − r = 4 volunteers needed
        players[8].standby = true;
        players[8].times_sat_out = 3;
        players[0].times_sat_out = 1;
        players[1].two_boards = true;
        let plan = plan_round(7, &players).unwrap();
        assert_eq!(plan.sitting_out, ["P9", "P2", "P3"]);
        assert!(plan.playing_twice.is_empty());
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
