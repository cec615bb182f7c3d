//! Given/when/then tests of a player's permanent keep-apart list carried to a round's
//! seeding (`docs/tournaments.md#a-players-permanent-keep-apart-list`): the worked example of
//! the docs.

use super::{
    TOURNAMENT, all_present, context, given, report_round, seed, settings, then, with_entrants,
};
use crate::fixtures::player;
use crate::*;

/// Players 1 and 2 list each other, player 3 lists player 9, player 5 lists player 99 (who
/// did not enter).
fn lists() -> Context {
    let pair = |a, b| [player(a), player(b)];
    context().with_permanent_keep_apart(vec![pair(1, 2), pair(2, 1), pair(3, 9), pair(5, 99)])
}

fn seed_with_lists(events: &mut Vec<DomainEvent>, round: u32) -> Vec<DomainEvent> {
    let decided = given(events).decide(&seed(round).into(), &lists()).unwrap();
    events.extend(decided.clone());
    decided
}

fn carried(decided: &[DomainEvent]) -> Vec<[PlayerId; 2]> {
    decided
        .iter()
        .filter_map(|event| match event {
            DomainEvent::Tournament(TournamentEvent::KeepApartAdded(e)) => {
                assert_eq!(e.reason.as_deref(), Some("a player's permanent keep-apart list"));
                Some([e.first, e.second])
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_round_players_lists_are_recorded_before_the_seeding_that_keeps_them_apart() {
    let mut events = with_entrants(settings(2), 14);
    all_present(&mut events, 14, 1);
    let decided = seed_with_lists(&mut events, 1);
    // Each pair once, in id order, only pairs of the round's players, before `RoundSeeded`.
    assert_eq!(carried(&decided), [[player(1), player(2)], [player(3), player(9)]]);
    assert!(matches!(
        decided[2],
        DomainEvent::Tournament(TournamentEvent::RoundSeeded(ref seeded)) if seeded.keep_apart_met == 0
    ));
    let apart = |round: &Round, a, b| {
        round.boards.iter().all(|board| !(board.is_seated(player(a)) && board.is_seated(player(b))))
    };
    let round = given(&events).round(1).unwrap().clone();
    assert!(apart(&round, 1, 2) && apart(&round, 3, 9));

    // A director removes a carried pair: the lists carry it again to the next seeding.
    report_round(&mut events, 1);
    then(
        &mut events,
        ChangeKeepApart {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            first: player(2),
            second: player(1),
            keep: false,
            reason: None,
        },
    );
    all_present(&mut events, 14, 2);
    let decided = seed_with_lists(&mut events, 2);
    assert_eq!(carried(&decided), [[player(1), player(2)]]);
    let round = given(&events).round(2).unwrap().clone();
    assert!(apart(&round, 1, 2) && apart(&round, 3, 9));

    // Verification re-runs from the tournament's own log, with no list at hand.
    let checks = Tournament::verify_seeding(&events);
    assert_eq!(checks.len(), 2);
    assert!(checks.iter().all(SeedingCheck::verified), "{checks:?}");
}
