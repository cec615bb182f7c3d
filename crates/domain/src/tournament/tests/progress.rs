//! Given/when/then tests of a board's live progress: centre counts per game year, corrections,
//! eliminations, refusals, provisional scores and standings
//! (`docs/tournaments.md#live-progress`).

use league_scoring::ScoringSystem;

use super::{
    TOURNAMENT, all_present, given, report_round, seed, settings, then, when, with_entrants,
};
use crate::fixtures::player;
use crate::*;

/// A running tournament of 7 entrants with round 1 seeded: one board.
fn seeded() -> (Vec<DomainEvent>, Board) {
    let mut events = with_entrants(settings(2), 7);
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    let board = given(&events).round(1).unwrap().boards[0].clone();
    (events, board)
}

fn record(actor: Actor, board: &Board, year: i32, centres: [u32; 7]) -> RecordBoardProgress {
    RecordBoardProgress {
        actor,
        tournament_id: TOURNAMENT,
        board_id: board.id,
        year,
        centres: centres.map(|count| count as i32).to_vec(),
        reason: None,
    }
}

/// One stored example of the progress event, for the golden file.
pub(crate) fn one_of_each_progress_event() -> DomainEvent {
    DomainEvent::Tournament(TournamentEvent::BoardProgressRecorded(BoardProgressRecorded {
        tournament_id: TOURNAMENT,
        board_id: board_id(TOURNAMENT, 1, 1),
        round: 1,
        year: 1902,
        centres: vec![6, 5, 5, 5, 4, 5, 4],
        reason: Some("recount".into()),
        recorded_by: Actor::Admin,
    }))
}

#[test]
fn a_seated_player_and_a_director_record_years_and_a_second_record_corrects_the_first() {
    let (mut events, board) = seeded();
    let seated = Actor::Player(board.seats[2]);
    then(&mut events, record(seated, &board, 1901, [5, 5, 5, 5, 4, 5, 4]));
    then(&mut events, record(Actor::Admin, &board, 1902, [6, 5, 5, 5, 4, 5, 3]));
    let correction = RecordBoardProgress {
        reason: Some("  Turkey held Bulgaria ".into()),
        ..record(Actor::Admin, &board, 1902, [6, 5, 5, 5, 3, 5, 4])
    };
    then(&mut events, correction);
    let tournament = given(&events);
    let progress = tournament.progress(board.id);
    assert_eq!(progress.records().len(), 3, "a correction is a new record");
    let years = progress.years();
    assert_eq!(years.iter().map(|y| y.year).collect::<Vec<_>>(), [1901, 1902]);
    assert_eq!(years[0].recorded_by, seated);
    assert_eq!(years[1].centres, [6, 5, 5, 5, 3, 5, 4], "the latest record wins");
    assert_eq!(
        (years[1].corrections, years[1].reason.as_deref()),
        (1, Some("Turkey held Bulgaria"))
    );
    let DomainEvent::Tournament(TournamentEvent::BoardProgressRecorded(stored)) =
        events.last().unwrap()
    else {
        panic!("a progress event")
    };
    assert_eq!(stored.round, 1);
}

#[test]
fn zero_centres_eliminate_a_power_in_the_first_year_counted_at_zero_for_good() {
    let (mut events, board) = seeded();
    then(&mut events, record(Actor::Admin, &board, 1903, [8, 6, 6, 5, 5, 4, 0]));
    then(&mut events, record(Actor::Admin, &board, 1904, [9, 6, 6, 5, 5, 3, 0]));
    assert_eq!(given(&events).progress(board.id).eliminated_year(6), Some(1903));
    let revived = when(&events, record(Actor::Admin, &board, 1905, [9, 6, 6, 5, 4, 3, 1]));
    let error = revived.unwrap_err();
    assert_eq!(error.code(), ErrorCode::BadUserInput { field: "centres[6]".into() }, "{error}");
    assert!(error.to_string().contains("1903"), "{error}");
}

#[test]
fn refusals_name_the_problem_and_rights_come_first() {
    let (mut events, board) = seeded();
    let stranger = Actor::Player(player(99));
    // Rights first: a stranger is refused for who they are even with a bad count.
    let mut negative = record(stranger, &board, 1800, [40; 7]);
    negative.centres[0] = -1;
    let error = when(&events, negative.clone()).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Forbidden);
    let by_admin = RecordBoardProgress { actor: Actor::Admin, year: 1901, ..negative };
    let error = when(&events, by_admin).unwrap_err();
    assert_eq!(error.code(), ErrorCode::BadUserInput { field: "centres[0]".into() });
    let over = when(&events, record(Actor::Admin, &board, 1902, [10, 10, 10, 5, 0, 0, 0]));
    let error = over.unwrap_err();
    assert_eq!(error.code(), ErrorCode::BadUserInput { field: "centres".into() });
    assert!(error.to_string().contains("35") && error.to_string().contains("34"), "{error}");
    let early = when(&events, record(Actor::Admin, &board, 1900, [5, 5, 5, 5, 4, 5, 4]));
    assert_eq!(early.unwrap_err().code(), ErrorCode::BadUserInput { field: "year".into() });
    let short =
        RecordBoardProgress { centres: vec![5, 5], ..record(Actor::Admin, &board, 1901, [0; 7]) };
    assert_eq!(
        when(&events, short).unwrap_err().code(),
        ErrorCode::BadUserInput { field: "centres".into() }
    );
    let reason_first = RecordBoardProgress {
        reason: Some("why".into()),
        ..record(Actor::Admin, &board, 1901, [5, 5, 5, 5, 4, 5, 4])
    };
    assert_eq!(
        when(&events, reason_first).unwrap_err().code(),
        ErrorCode::BadUserInput { field: "reason".into() }
    );
    report_round(&mut events, 1);
    let finished = when(&events, record(Actor::Admin, &board, 1905, [5, 5, 5, 5, 4, 5, 4]));
    assert_eq!(finished.unwrap_err().code(), ErrorCode::Conflict);
}

#[test]
fn a_placement_tournament_records_no_progress() {
    let placement = TournamentSettings::new("Cup", "Cartagena", ScoringSystem::Placement, 4, 1);
    let mut events = with_entrants(placement, 4);
    all_present(&mut events, 4, 1);
    then(&mut events, seed(1));
    let board = given(&events).round(1).unwrap().boards[0].clone();
    let command = RecordBoardProgress {
        centres: vec![1, 2, 3, 4],
        ..record(Actor::Admin, &board, 1901, [0; 7])
    };
    assert_eq!(when(&events, command).unwrap_err().code(), ErrorCode::Conflict);
}

/// `docs/scoring.md#squares`'s worked game of 10, 8, 6, 5, 3, 2, 0 counted after 1904: each
/// seat's provisional Squares score is its centres squared of 238, and the provisional
/// standings rank the board's players by it while the official ones have no score yet.
#[test]
fn the_latest_counts_give_provisional_scores_and_standings_if_every_board_ended_now() {
    let (mut events, board) = seeded();
    then(&mut events, record(Actor::Admin, &board, 1904, [10, 8, 6, 5, 3, 2, 0]));
    let tournament = given(&events);
    let scored = board.provisional(&tournament, ScoringSystem::Squares).unwrap().unwrap();
    let scores = scored.in_seat_order(board.seats.iter().copied());
    assert!((scores[0].1 - 10_000.0 / 238.0).abs() < 1e-9, "{scores:?}");
    assert_eq!(scores[6].1, 0.0);
    let official = tournament.standings(None).unwrap();
    assert!(official.iter().all(|row| row.total == 0.0));
    let provisional = tournament.as_if_every_board_ended_now().standings(None).unwrap();
    assert_eq!(provisional[0].player, board.seats[0]);
    let order: Vec<PlayerId> = provisional.iter().map(|row| row.player).collect();
    assert_eq!(order, board.seats, "ranked by the provisional board scores");
    assert!(provisional[0].total > provisional[1].total);
    assert_eq!(
        tournament.as_if_every_board_ended_now().progress(board.id),
        tournament.progress(board.id)
    );
}
