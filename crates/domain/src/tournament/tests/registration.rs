//! Given/when/then tests of a tournament's registration controls: closed or open, the window,
//! the cap and its waitlist, approval, and undoing a withdrawal
//! (`docs/tournaments.md#registration`).

use chrono::{DateTime, Duration, Utc};

use super::{
    TOURNAMENT, a_played_tournament, all_present, created, given, seed, settings, then, when,
    with_entrants,
};
use crate::fixtures::player;
use crate::*;

const ORGANISER: Actor = Actor::Admin;

fn registration(registration: Registration) -> TournamentSettings {
    TournamentSettings { registration, ..settings(3) }
}

fn capped(cap: u32) -> TournamentSettings {
    registration(Registration { max_entrants: Some(cap), ..Registration::default() })
}

fn enter(n: u128) -> EnterTournament {
    EnterTournament {
        actor: Actor::Player(player(n)),
        tournament_id: TOURNAMENT,
        player_id: player(n),
    }
}

fn enter_by_organiser(n: u128) -> EnterTournament {
    EnterTournament { actor: ORGANISER, ..enter(n) }
}

fn withdraw(n: u128, actor: Actor) -> WithdrawFromTournament {
    WithdrawFromTournament { actor, tournament_id: TOURNAMENT, player_id: player(n) }
}

fn change(actor: Actor, change: RegistrationChange) -> ChangeTournamentRegistration {
    ChangeTournamentRegistration { actor, tournament_id: TOURNAMENT, change }
}

fn approve(n: u128, actor: Actor) -> ApproveTournamentEntry {
    ApproveTournamentEntry { actor, tournament_id: TOURNAMENT, player_id: player(n) }
}

fn decline(n: u128, actor: Actor) -> DeclineTournamentEntry {
    DeclineTournamentEntry { actor, tournament_id: TOURNAMENT, player_id: player(n) }
}

fn undo(n: u128, actor: Actor) -> UndoTournamentWithdrawal {
    UndoTournamentWithdrawal { actor, tournament_id: TOURNAMENT, player_id: player(n) }
}

fn at(
    events: &[DomainEvent],
    now: DateTime<Utc>,
    command: impl Into<TournamentCommand>,
) -> Result<Vec<DomainEvent>, DomainError> {
    given(events).decide(&command.into(), &Context::new(now))
}

/// The stored type names of `events`.
fn types(events: &[DomainEvent]) -> Vec<&'static str> {
    events.iter().map(DomainEvent::event_type).collect()
}

fn refused(result: Result<Vec<DomainEvent>, DomainError>, code: ErrorCode, words: &str) {
    let error = result.expect_err("refused");
    assert_eq!(error.code(), code, "{error}");
    assert!(error.to_string().contains(words), "{error:?} should say {words:?}");
}

fn active(events: &[DomainEvent]) -> Vec<PlayerId> {
    given(events).entrants().iter().filter(|e| e.is_active()).map(|e| e.player).collect()
}

#[test]
fn a_closed_registration_refuses_a_player_but_not_an_organiser_until_it_opens() {
    let events = created(registration(Registration { closed: true, ..Registration::default() }));
    refused(when(&events, enter(1)), ErrorCode::Conflict, "registration is closed");
    assert_eq!(types(&when(&events, enter_by_organiser(1)).unwrap()), ["TournamentPlayerEntered"]);
    let mut events = events;
    let open = RegistrationChange { closed: Some(false), ..RegistrationChange::default() };
    refused(
        when(&events, change(Actor::Player(player(1)), open)),
        ErrorCode::Forbidden,
        "organise",
    );
    then(&mut events, change(ORGANISER, open));
    assert!(!given(&events).registration().closed);
    then(&mut events, enter(1));
    assert_eq!(active(&events), [player(1)]);
    refused(when(&events, change(ORGANISER, open)), ErrorCode::Conflict, "already so");
}

#[test]
fn players_enter_themselves_only_within_the_window_and_organisers_at_any_time() {
    let opens = "2026-12-01T09:00:00Z".parse::<DateTime<Utc>>().unwrap();
    let closes = opens + Duration::days(7);
    let events = created(registration(Registration {
        opens_at: Some(opens),
        closes_at: Some(closes),
        ..Registration::default()
    }));
    let before = opens - Duration::seconds(1);
    refused(at(&events, before, enter(1)), ErrorCode::Conflict, "registration opens at 2026-12-01");
    refused(
        at(&events, closes, enter(1)),
        ErrorCode::Conflict,
        "registration closed at 2026-12-08",
    );
    assert_eq!(types(&at(&events, opens, enter(1)).unwrap()), ["TournamentPlayerEntered"]);
    assert_eq!(
        types(&at(&events, before, enter_by_organiser(1)).unwrap()),
        ["TournamentPlayerEntered"]
    );
    let backwards = RegistrationChange { closes_at: Some(Some(opens)), ..Default::default() };
    refused(
        when(&events, change(ORGANISER, backwards)),
        ErrorCode::BadUserInput { field: "registration.closesAt".into() },
        "close after it opens",
    );
}

#[test]
fn entries_beyond_the_cap_wait_in_order_and_a_withdrawal_promotes_the_first() {
    let mut events = created(capped(2));
    for n in 1..=2 {
        then(&mut events, enter(n));
    }
    assert_eq!(types(&when(&events, enter(3)).unwrap()), ["TournamentPlayerWaitlisted"]);
    then(&mut events, enter(3));
    // An organiser's entry waits too: the cap is the room's size.
    then(&mut events, enter_by_organiser(4));
    assert_eq!(given(&events).waitlist(), [player(3), player(4)]);
    refused(when(&events, enter(3)), ErrorCode::Conflict, "already on the waitlist (place 1)");

    let withdrawn = when(&events, withdraw(1, Actor::Player(player(1)))).unwrap();
    assert_eq!(types(&withdrawn), ["TournamentPlayerWithdrawn", "TournamentPlayerPromoted"]);
    events.extend(withdrawn);
    assert_eq!(active(&events), [player(2), player(3)]);
    assert_eq!(given(&events).waitlist(), [player(4)]);

    // A waiting player gives their place up; nobody is promoted by it.
    let cancelled = when(&events, withdraw(4, Actor::Player(player(4)))).unwrap();
    assert_eq!(types(&cancelled), ["TournamentEntryCancelled"]);
    events.extend(cancelled);
    assert!(given(&events).waitlist().is_empty());
    then(&mut events, enter(4));
    assert_eq!(given(&events).waitlist(), [player(4)]);
}

#[test]
fn a_higher_cap_or_none_promotes_the_waitlist_in_order() {
    let mut events = created(capped(1));
    for n in 1..=4 {
        then(&mut events, enter(n));
    }
    let raise = RegistrationChange { max_entrants: Some(Some(2)), ..Default::default() };
    let raised = when(&events, change(ORGANISER, raise)).unwrap();
    assert_eq!(types(&raised), ["TournamentRegistrationChanged", "TournamentPlayerPromoted"]);
    events.extend(raised);
    assert_eq!(active(&events), [player(1), player(2)]);
    let lower = RegistrationChange { max_entrants: Some(Some(1)), ..Default::default() };
    then(&mut events, change(ORGANISER, lower));
    assert_eq!(active(&events), [player(1), player(2)], "nobody loses their place");
    let uncap = RegistrationChange { max_entrants: Some(None), ..Default::default() };
    then(&mut events, change(ORGANISER, uncap));
    assert_eq!(active(&events), (1..=4).map(player).collect::<Vec<_>>());
    let zero = RegistrationChange { max_entrants: Some(Some(0)), ..Default::default() };
    refused(
        when(&events, change(ORGANISER, zero)),
        ErrorCode::BadUserInput { field: "registration.maxEntrants".into() },
        "at least 1",
    );
}

#[test]
fn an_erased_player_on_the_waitlist_is_passed_over() {
    let mut events = created(capped(1));
    for n in 1..=3 {
        then(&mut events, enter(n));
    }
    let context = Context::new(Utc::now()).with_erased_players(vec![player(2)]);
    let decided = given(&events).decide(&withdraw(1, ORGANISER).into(), &context).unwrap();
    events.extend(decided);
    assert_eq!(active(&events), [player(3)]);
}

#[test]
fn with_approval_a_players_entry_is_a_request_the_organisers_answer() {
    let mut events = created(TournamentSettings {
        registration: Registration {
            approval: true,
            max_entrants: Some(1),
            ..Registration::default()
        },
        ..settings(3)
    });
    for n in 1..=3 {
        then(&mut events, enter(n));
    }
    assert_eq!(given(&events).requests(), (1..=3).map(player).collect::<Vec<_>>());
    assert!(active(&events).is_empty());
    refused(when(&events, enter(1)), ErrorCode::Conflict, "already asked");
    refused(when(&events, approve(1, Actor::Player(player(2)))), ErrorCode::Forbidden, "organise");

    let approved = when(&events, approve(1, ORGANISER)).unwrap();
    assert_eq!(types(&approved), ["TournamentEntryApproved", "TournamentPlayerEntered"]);
    events.extend(approved);
    // Full: the next approved entry waits for a place.
    let approved = when(&events, approve(2, ORGANISER)).unwrap();
    assert_eq!(types(&approved), ["TournamentEntryApproved", "TournamentPlayerWaitlisted"]);
    events.extend(approved);

    then(&mut events, decline(3, ORGANISER));
    assert!(given(&events).requests().is_empty());
    refused(when(&events, enter(3)), ErrorCode::Conflict, "declined");
    refused(when(&events, decline(3, ORGANISER)), ErrorCode::Conflict, "no entry request");
    refused(when(&events, approve(3, ORGANISER)), ErrorCode::Conflict, "no entry request");
    // An organiser may still enter a declined player (here onto the waitlist: it is full).
    then(&mut events, enter_by_organiser(3));
    assert_eq!(given(&events).waitlist(), [player(2), player(3)]);
    // Organisers' own entries need no approval.
    assert_eq!(
        types(&when(&events, enter_by_organiser(9)).unwrap()),
        ["TournamentPlayerWaitlisted"]
    );
}

#[test]
fn a_request_is_withdrawn_like_an_entry() {
    let mut events =
        created(registration(Registration { approval: true, ..Registration::default() }));
    then(&mut events, enter(1));
    let cancelled = when(&events, withdraw(1, Actor::Player(player(1)))).unwrap();
    assert_eq!(types(&cancelled), ["TournamentEntryCancelled"]);
    events.extend(cancelled);
    assert!(given(&events).requests().is_empty());
}

#[test]
fn once_round_1_is_seeded_only_opening_or_closing_registration_changes() {
    let mut events = with_entrants(settings(3), 7);
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    let cap = RegistrationChange { max_entrants: Some(Some(9)), ..Default::default() };
    refused(when(&events, change(ORGANISER, cap)), ErrorCode::Conflict, "round 1 is seeded");
    let close = RegistrationChange { closed: Some(true), ..Default::default() };
    then(&mut events, change(ORGANISER, close));
    refused(when(&events, enter(8)), ErrorCode::Conflict, "registration is closed");
    assert_eq!(types(&when(&events, enter_by_organiser(8)).unwrap()), ["TournamentPlayerEntered"]);
}

#[test]
fn an_organiser_undoes_a_withdrawal_until_the_next_round_is_seeded() {
    let mut events = with_entrants(settings(3), 8);
    then(&mut events, withdraw(8, Actor::Player(player(8))));
    refused(when(&events, undo(8, Actor::Player(player(8)))), ErrorCode::Forbidden, "organise");
    refused(when(&events, undo(1, ORGANISER)), ErrorCode::Conflict, "has not withdrawn");
    let undone = when(&events, undo(8, ORGANISER)).unwrap();
    assert_eq!(types(&undone), ["TournamentWithdrawalUndone"]);
    events.extend(undone);
    assert_eq!(active(&events).len(), 8);

    then(&mut events, withdraw(8, ORGANISER));
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    refused(when(&events, undo(8, ORGANISER)), ErrorCode::Conflict, "round 1 was seeded after");
    let completed = a_played_tournament();
    refused(when(&completed, undo(8, ORGANISER)), ErrorCode::Conflict, "has completed");
}

#[test]
fn undoing_a_withdrawal_that_promoted_someone_keeps_both() {
    let mut events = created(capped(2));
    for n in 1..=3 {
        then(&mut events, enter(n));
    }
    then(&mut events, withdraw(1, ORGANISER));
    then(&mut events, undo(1, ORGANISER));
    assert_eq!(active(&events), [player(1), player(2), player(3)]);
    // Over the cap: the next withdrawal promotes nobody.
    then(&mut events, enter(4));
    let withdrawn = when(&events, withdraw(2, ORGANISER)).unwrap();
    assert_eq!(types(&withdrawn), ["TournamentPlayerWithdrawn"]);
}

/// One event of each registration type, for the stored-form tests.
pub(crate) fn one_of_each_registration_event() -> Vec<DomainEvent> {
    let mut events = created(TournamentSettings {
        registration: Registration {
            approval: true,
            max_entrants: Some(1),
            opens_at: Some("2026-12-01T09:00:00Z".parse().unwrap()),
            ..Registration::default()
        },
        ..settings(3)
    });
    let start = events.len();
    let now = "2026-12-02T09:00:00Z".parse().unwrap();
    let mut run = |command: TournamentCommand| {
        let decided = at(&events, now, command).expect("accepted");
        events.extend(decided);
    };
    for n in 1..=3 {
        run(enter(n).into());
    }
    run(approve(1, ORGANISER).into());
    run(approve(2, ORGANISER).into());
    run(decline(3, ORGANISER).into());
    run(withdraw(1, ORGANISER).into());
    run(undo(1, ORGANISER).into());
    run(change(ORGANISER, RegistrationChange { closed: Some(true), ..Default::default() }).into());
    run(enter_by_organiser(4).into());
    run(withdraw(4, ORGANISER).into());
    events.split_off(start)
}
