//! Given/when/then tests of power assignment (`docs/tournaments.md#power-assignment`).

use super::{
    TOURNAMENT, all_present, given, report_round, result, seed, settings, then, when, with_entrants,
};
use crate::fixtures::player;
use crate::*;

const POWERS: [&str; 7] = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

fn method(method: PowerAssignment) -> ChangePowerAssignment {
    ChangePowerAssignment {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        rule: PowerAssignmentRule { method, top_board_ordered_choice: false },
    }
}

fn rank(actor: Actor, rankings: &[(u128, &[&str])]) -> SubmitPowerPreferences {
    SubmitPowerPreferences {
        actor,
        tournament_id: TOURNAMENT,
        rankings: rankings
            .iter()
            .map(|(n, powers)| (player(*n), powers.iter().map(|p| p.to_string()).collect()))
            .collect(),
    }
}

fn first_board(events: &[DomainEvent], round: u32) -> Board {
    given(events).round(round).unwrap().boards[0].clone()
}

fn power_of(board: &Board, n: u128) -> &'static str {
    POWERS[board.seats.iter().position(|p| *p == player(n)).unwrap()]
}

fn recorded(events: &[DomainEvent]) -> Vec<EventType> {
    events.iter().map(DomainEvent::kind).collect()
}

#[test]
fn only_a_director_changes_how_powers_are_assigned_and_automatic_is_the_default() {
    let events = with_entrants(settings(2), 7);
    assert_eq!(given(&events).power_assignment().method, PowerAssignment::Automatic);
    let by_player = ChangePowerAssignment {
        actor: Actor::Player(player(1)),
        ..method(PowerAssignment::Preferences)
    };
    assert_eq!(when(&events, by_player).unwrap_err().code(), ErrorCode::Forbidden);
    let same = when(&events, method(PowerAssignment::Automatic)).unwrap_err();
    assert_eq!(same.code(), ErrorCode::Conflict);
    let changed = when(&events, method(PowerAssignment::Manual)).unwrap();
    assert_eq!(recorded(&changed), [EventType::PowerAssignmentChanged]);
    assert_eq!(
        given(&[events, changed].concat()).power_assignment().method,
        PowerAssignment::Manual
    );
}

#[test]
fn a_player_ranks_the_powers_for_themself_spelled_loosely_and_never_for_another() {
    let mut events = with_entrants(settings(2), 7);
    let own = rank(Actor::Player(player(1)), &[(1, &["france", "Eng", " Italy "])]);
    then(&mut events, own.clone());
    assert_eq!(given(&events).power_preferences()[&player(1)], ["France", "England", "Italy"]);
    assert_eq!(when(&events, own).unwrap_err().code(), ErrorCode::Conflict);
    let for_another = rank(Actor::Player(player(1)), &[(2, &["France"])]);
    assert_eq!(when(&events, for_another).unwrap_err().code(), ErrorCode::Forbidden);
    then(&mut events, rank(Actor::Player(player(1)), &[(1, &[])]));
    assert!(given(&events).power_preferences().is_empty(), "an empty ranking clears it");
}

#[test]
fn an_organisers_pasted_list_is_recorded_whole_or_not_at_all() {
    let events = with_entrants(settings(2), 7);
    for (bad, field) in [
        (rank(Actor::Admin, &[(1, &["France"]), (2, &["Prussia"])]), "powers"),
        (rank(Actor::Admin, &[(1, &["France"]), (2, &["Italy", "italy"])]), "powers"),
        (rank(Actor::Admin, &[(1, &["France"]), (1, &["Italy"])]), "rankings"),
        (rank(Actor::Admin, &[(1, &["France"]), (2, &["Xyz"])]), "powers"),
    ] {
        let field = field.into();
        assert_eq!(when(&events, bad).unwrap_err().code(), ErrorCode::BadUserInput { field });
    }
    let stranger = rank(Actor::Admin, &[(1, &["France"]), (9, &["Italy"])]);
    assert_eq!(when(&events, stranger).unwrap_err().code(), ErrorCode::Conflict);
    let pasted = when(&events, rank(Actor::Admin, &[(1, &["France"]), (2, &["Italy"])])).unwrap();
    assert_eq!(recorded(&pasted), [EventType::PowerPreferencesSubmitted; 2]);
}

/// Seven players each ranking a different power first, players 1 and 2 the same one
/// (France): the lowest placed of the two gets it.
fn seeded_by_preferences() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 7);
    then(&mut events, method(PowerAssignment::Preferences));
    then(
        &mut events,
        rank(
            Actor::Admin,
            &[
                (1, &["France", "Turkey"]),
                (2, &["France", "Russia"]),
                (3, &["England"]),
                (4, &["Germany"]),
                (5, &["Italy"]),
                (6, &["Austria"]),
            ],
        ),
    );
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    events
}

#[test]
fn seeding_by_preferences_gives_each_player_their_best_free_power_and_verifies() {
    let mut events = seeded_by_preferences();
    let board = first_board(&events, 1);
    for (n, power) in [(3, "England"), (4, "Germany"), (5, "Italy"), (6, "Austria")] {
        assert_eq!(power_of(&board, n), power, "player {n}");
    }
    // Round 1: everyone is level, so the seeded draw decided who of 1 and 2 chose first.
    let mut contested = [power_of(&board, 1), power_of(&board, 2)];
    contested.sort();
    assert!(contested == ["France", "Russia"] || contested == ["France", "Turkey"]);
    assert_eq!(
        power_of(&board, 7),
        ["Russia", "Turkey"].into_iter().find(|p| !contested.contains(p)).unwrap()
    );
    let seeded = given(&events).round(1).unwrap().seeded.clone();
    assert_eq!(seeded.algorithm, league_scheduling::PREFERENCE_SEEDING_ALGORITHM);

    // Round 2: seat i scored 10 − i centres, so whoever had seat 0 (Austria: player 6) is
    // best placed and chooses last.
    report_round(&mut events, 1);
    all_present(&mut events, 7, 2);
    then(&mut events, rank(Actor::Admin, &[(6, &["France"]), (1, &["France"])]));
    then(&mut events, seed(2));
    let lowest_of_1_and_6 = {
        let standings = given(&events).standings(Some(1)).unwrap();
        let place = |n| standings.iter().find(|s| s.player == player(n)).unwrap().rank;
        if place(1) > place(6) { 1 } else { 6 }
    };
    assert_eq!(power_of(&first_board(&events, 2), lowest_of_1_and_6), "France");
    let checks = Tournament::verify_seeding(&events);
    assert_eq!(checks.len(), 2);
    assert!(checks.iter().all(SeedingCheck::verified), "{checks:?}");
}

#[test]
fn a_recorded_preference_seeding_no_longer_verifies_once_its_rankings_are_tampered_with() {
    let mut events = seeded_by_preferences();
    let seeded_at = events.iter().position(|e| e.kind() == EventType::RoundSeeded).unwrap();
    let ranking_at =
        events.iter().position(|e| e.kind() == EventType::PowerPreferencesSubmitted).unwrap();
    if let DomainEvent::Tournament(TournamentEvent::PowerPreferencesSubmitted(e)) =
        &mut events[ranking_at]
    {
        e.powers = vec!["Austria".into()];
    }
    let check = &Tournament::verify_seeding(&events[..=seeded_at])[0];
    assert!(!check.verified());
    assert_ne!(check.recorded_digest, check.recomputed_digest);
}

#[test]
fn automatic_seeding_records_the_unchanged_algorithm() {
    let mut events = with_entrants(settings(2), 7);
    then(&mut events, rank(Actor::Admin, &[(1, &["France"])]));
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    let seeded = given(&events).round(1).unwrap().seeded.clone();
    assert_eq!(seeded.algorithm, league_scheduling::SEEDING_ALGORITHM);
    assert!(Tournament::verify_seeding(&events)[0].verified());
}

fn set_powers(board: &Board, order: [u128; 7]) -> SetBoardPowers {
    SetBoardPowers {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        board_id: board.id,
        seats: POWERS.iter().zip(order).map(|(p, n)| (p.to_string(), player(n))).collect(),
    }
}

#[test]
fn a_director_sets_a_boards_powers_before_its_result() {
    let mut events = with_entrants(settings(2), 7);
    then(&mut events, method(PowerAssignment::Manual));
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    let board = first_board(&events, 1);
    let by_player = SetBoardPowers {
        actor: Actor::Player(player(1)),
        ..set_powers(&board, [1, 2, 3, 4, 5, 6, 7])
    };
    assert_eq!(when(&events, by_player).unwrap_err().code(), ErrorCode::Forbidden);
    for bad in [[1, 1, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 9]] {
        let code = when(&events, set_powers(&board, bad)).unwrap_err().code();
        assert_eq!(code, ErrorCode::BadUserInput { field: "seats".into() });
    }
    then(&mut events, set_powers(&board, [7, 6, 5, 4, 3, 2, 1]));
    let board = first_board(&events, 1);
    assert_eq!(power_of(&board, 7), "Austria");
    assert_eq!(power_of(&board, 1), "Turkey");
    report_round(&mut events, 1);
    let late = set_powers(&board, [1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(when(&events, late).unwrap_err().code(), ErrorCode::Conflict);
}

fn choose(board: &Board, actor: Actor, n: u128, power: &str) -> ChoosePower {
    ChoosePower {
        actor,
        tournament_id: TOURNAMENT,
        board_id: board.id,
        player_id: player(n),
        power: power.into(),
    }
}

#[test]
fn on_ordered_choice_the_best_placed_pick_first_and_the_board_waits_for_every_pick() {
    let mut events = with_entrants(settings(2), 7);
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    report_round(&mut events, 1);
    then(&mut events, method(PowerAssignment::OrderedChoice));
    all_present(&mut events, 7, 2);
    then(&mut events, seed(2));
    assert_eq!(
        recorded(&events[events.len() - 2..]),
        [EventType::RoundSeeded, EventType::BoardPowerChoiceOpened]
    );
    let board = first_board(&events, 2);
    let standings = given(&events).standings(Some(1)).unwrap();
    let order: Vec<PlayerId> = standings.iter().map(|s| s.player).collect();
    let choice = given(&events).power_choice(board.id).unwrap().clone();
    assert_eq!(choice.order, order, "best placed first");
    let number = |p: PlayerId| (1..=7).find(|n| player(*n) == p).unwrap();

    let report = ReportBoardResult {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        board_id: board.id,
        result: result(&board.seats),
        replacements: Vec::new(),
    };
    assert_eq!(when(&events, report.clone()).unwrap_err().code(), ErrorCode::Conflict);
    let second = number(order[1]);
    let out_of_turn = choose(&board, Actor::Player(order[1]), second, "France");
    assert_eq!(when(&events, out_of_turn).unwrap_err().code(), ErrorCode::Conflict);
    let first = number(order[0]);
    let for_another = choose(&board, Actor::Player(order[1]), first, "France");
    assert_eq!(when(&events, for_another).unwrap_err().code(), ErrorCode::Forbidden);

    // The best placed takes Turkey, then each in turn the first power still free.
    then(&mut events, choose(&board, Actor::Player(order[0]), first, "turkey"));
    let taken = choose(&board, Actor::Admin, second, "Turkey");
    assert_eq!(when(&events, taken).unwrap_err().code(), ErrorCode::Conflict);
    for (turn, power) in order[1..6].iter().zip(POWERS) {
        then(&mut events, choose(&board, Actor::Player(*turn), number(*turn), power));
    }
    assert!(given(&events).power_choice(board.id).is_none(), "six picks leave one power");
    let board = first_board(&events, 2);
    assert_eq!(power_of(&board, first), "Turkey");
    assert_eq!(power_of(&board, number(order[1])), "Austria");
    assert_eq!(power_of(&board, number(order[6])), "Russia", "the last gets the power left");
    then(&mut events, ReportBoardResult { result: result(&board.seats), ..report });
    assert!(Tournament::verify_seeding(&events).iter().all(SeedingCheck::verified));
}

/// One stored example of each power-assignment event, for the golden file.
pub(crate) fn one_of_each_powers_event() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 7);
    let start = events.len();
    then(&mut events, rank(Actor::Player(player(1)), &[(1, &["France", "Italy"])]));
    then(
        &mut events,
        ChangePowerAssignment {
            rule: PowerAssignmentRule {
                method: PowerAssignment::OrderedChoice,
                top_board_ordered_choice: true,
            },
            ..method(PowerAssignment::OrderedChoice)
        },
    );
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    let board = first_board(&events, 1);
    let next = given(&events).power_choice(board.id).unwrap().order[0];
    let n = (1..=7).find(|n| player(*n) == next).unwrap();
    then(&mut events, choose(&board, Actor::Admin, n, "England"));
    then(&mut events, set_powers(&board, [1, 2, 3, 4, 5, 6, 7]));
    let kept = [
        EventType::PowerPreferencesSubmitted,
        EventType::PowerAssignmentChanged,
        EventType::BoardPowerChoiceOpened,
        EventType::PowerChosen,
        EventType::BoardPowersSet,
    ];
    events.split_off(start).into_iter().filter(|e| kept.contains(&e.kind())).collect()
}
