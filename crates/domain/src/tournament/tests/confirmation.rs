//! Result confirmation (`docs/tournaments.md#result-confirmation`): a seated player's report
//! waits for another player of the board or a director; a dispute leaves it to a director.

use super::{
    TOURNAMENT, all_present, answer, given, result, seed, settings, then, when, with_entrants,
};
use crate::fixtures::player;
use crate::*;

/// A one-board round 1 of a tournament asking for confirmation (players 1..=8, player 8
/// sitting out), with its board id and seats.
fn seated_board() -> (Vec<DomainEvent>, BoardId, Vec<PlayerId>) {
    let mut events =
        with_entrants(TournamentSettings { confirm_player_results: true, ..settings(1) }, 8);
    all_present(&mut events, 7, 1);
    then(&mut events, answer(8, 1, true, true, false));
    then(&mut events, seed(1));
    let board = given(&events).round(1).unwrap().boards[0].clone();
    (events, board.id, board.seats)
}

fn report(actor: Actor, board_id: BoardId, seats: &[PlayerId]) -> ReportBoardResult {
    ReportBoardResult {
        actor,
        tournament_id: TOURNAMENT,
        board_id,
        result: result(seats),
        replacements: Vec::new(),
    }
}

fn confirm(actor: Actor, board_id: BoardId) -> ConfirmBoardResult {
    ConfirmBoardResult { actor, tournament_id: TOURNAMENT, board_id }
}

fn dispute(actor: Actor, board_id: BoardId, reason: &str) -> DisputeBoardResult {
    DisputeBoardResult { actor, tournament_id: TOURNAMENT, board_id, reason: reason.into() }
}

fn types(events: &[DomainEvent]) -> Vec<&'static str> {
    events.iter().map(DomainEvent::event_type).collect()
}

fn refused(result: Result<Vec<DomainEvent>, DomainError>, code: ErrorCode) {
    assert_eq!(result.unwrap_err().code(), code);
}

#[test]
fn a_players_report_awaits_another_player_of_the_board_and_is_not_the_result_until_then() {
    let (mut events, board_id, seats) = seated_board();
    let reporter = Actor::Player(seats[0]);
    let decided = when(&events, report(reporter, board_id, &seats)).unwrap();
    assert_eq!(types(&decided), ["BoardResultAwaitingConfirmation"]);
    events.extend(decided);
    let state = given(&events);
    let board = state.board(board_id).unwrap();
    assert!(board.result.is_none(), "not the board's result yet");
    assert_eq!(board.pending.as_ref().unwrap().reported_by, reporter);
    assert!(!state.round(1).unwrap().completed);

    refused(when(&events, report(Actor::Player(seats[1]), board_id, &seats)), ErrorCode::Conflict);
    refused(when(&events, confirm(reporter, board_id)), ErrorCode::Conflict);
    let sitting_out = Actor::Player(player(8));
    assert!(!seats.contains(&player(8)));
    refused(when(&events, confirm(sitting_out, board_id)), ErrorCode::Forbidden);
    refused(when(&events, dispute(sitting_out, board_id, "wrong")), ErrorCode::Forbidden);

    let confirmer = Actor::Player(seats[1]);
    let decided = when(&events, confirm(confirmer, board_id)).unwrap();
    assert_eq!(types(&decided), ["BoardFinished", "RoundCompleted", "TournamentCompleted"]);
    let DomainEvent::Tournament(TournamentEvent::BoardFinished(finished)) = &decided[0] else {
        panic!("a board result")
    };
    assert_eq!((finished.reported_by, finished.confirmed_by), (reporter, Some(confirmer)));
    events.extend(decided);
    let board = given(&events).board(board_id).unwrap().clone();
    assert_eq!(board.result, Some(result(&seats)));
    assert!(board.pending.is_none());
    refused(when(&events, confirm(confirmer, board_id)), ErrorCode::Conflict);
}

#[test]
fn a_disputed_report_is_left_to_a_director_who_confirms_it_or_reports_the_result() {
    let (mut events, board_id, seats) = seated_board();
    then(&mut events, report(Actor::Player(seats[0]), board_id, &seats));
    refused(
        when(&events, dispute(Actor::Player(seats[2]), board_id, "  ")),
        ErrorCode::BadUserInput { field: "reason".into() },
    );
    then(&mut events, dispute(Actor::Player(seats[2]), board_id, "Austria had 4, not 3"));
    let pending = given(&events).board(board_id).unwrap().pending.clone().unwrap();
    assert_eq!(pending.dispute, Some((Actor::Player(seats[2]), "Austria had 4, not 3".into())));
    refused(when(&events, confirm(Actor::Player(seats[1]), board_id)), ErrorCode::Conflict);
    refused(
        when(&events, dispute(Actor::Player(seats[3]), board_id, "again")),
        ErrorCode::Conflict,
    );

    // The director confirms it …
    let confirmed = when(&events, confirm(Actor::Admin, board_id)).unwrap();
    assert_eq!(types(&confirmed)[0], "BoardFinished");
    // … or reports the board's result, which replaces it.
    let mut fixed = seats.clone();
    fixed.swap(0, 1);
    let decided = when(&events, report(Actor::Admin, board_id, &fixed)).unwrap();
    assert_eq!(types(&decided)[0], "BoardFinished");
    events.extend(decided);
    let board = given(&events).board(board_id).unwrap().clone();
    assert_eq!((board.result, board.pending), (Some(result(&fixed)), None));
}

#[test]
fn a_directors_report_needs_no_confirmation_and_without_the_setting_nobody_waits() {
    let (events, board_id, seats) = seated_board();
    let decided = when(&events, report(Actor::Admin, board_id, &seats)).unwrap();
    assert_eq!(types(&decided)[0], "BoardFinished");

    let mut events = with_entrants(settings(1), 7);
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    let board = given(&events).round(1).unwrap().boards[0].clone();
    let decided =
        when(&events, report(Actor::Player(board.seats[0]), board.id, &board.seats)).unwrap();
    assert_eq!(types(&decided)[0], "BoardFinished");
    refused(when(&events, confirm(Actor::Player(board.seats[1]), board.id)), ErrorCode::Conflict);
}

/// One event of each confirmation type, for the stored-form tests.
pub(crate) fn one_of_each_confirmation_event() -> Vec<DomainEvent> {
    let (mut events, board_id, seats) = seated_board();
    let start = events.len();
    then(&mut events, report(Actor::Player(seats[0]), board_id, &seats));
    then(&mut events, dispute(Actor::Player(seats[2]), board_id, "Austria had 4, not 3"));
    events.split_off(start)
}
