//! Given/when/then tests of rulings (`docs/tournaments.md#rulings`): the worked examples of
//! the docs.

use league_scoring::{DiplomacyEntry, GameResult, TieBreak, thousandths};

use super::awards::{board, two_level_boards};
use super::{
    TOURNAMENT, all_present, given, last_round_on_a_top_board, report_round, seed, settings, then,
    when, with_entrants,
};
use crate::fixtures::player;
use crate::*;

fn adjust(player_n: u128, target: AdjustmentTarget, points: f64) -> AdjustScore {
    AdjustScore {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        player_id: player(player_n),
        target,
        points,
        reason: "late to the board".into(),
    }
}

fn revoke(adjustment: u32) -> RevokeScoreAdjustment {
    RevokeScoreAdjustment {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        adjustment,
        reason: Some("appeal upheld".into()),
    }
}

fn handicap(player_n: u128, points: f64) -> SetHandicap {
    SetHandicap {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        player_id: player(player_n),
        points,
        reason: Some("club rating".into()),
    }
}

fn unranked(player_n: u128, unranked: bool) -> SetUnranked {
    SetUnranked {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        player_id: player(player_n),
        unranked,
        reason: Some("the director plays to fill a board".into()),
    }
}

fn keep_apart(first: u128, second: u128, keep: bool) -> ChangeKeepApart {
    ChangeKeepApart {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        first: player(first),
        second: player(second),
        keep,
        reason: Some("same club".into()),
    }
}

/// Each player's (rank, total in thousandths).
fn line(events: &[DomainEvent], player_id: PlayerId) -> (u32, i64) {
    let standings = given(events).standings(None).unwrap();
    let line = standings.iter().find(|s| s.player == player_id).unwrap();
    (line.rank, thousandths(line.total))
}

fn number(player_id: PlayerId) -> u128 {
    (1..=14).find(|n| player(*n) == player_id).unwrap()
}

#[test]
fn a_board_penalty_lowers_the_board_round_and_total_and_a_revocation_restores_them() {
    let mut events = two_level_boards();
    let board1 = board(&events, 1, 1);
    let austria = board1.seats[0];
    let before = line(&events, austria);
    let on_board = AdjustmentTarget::Board { board_id: board1.id };
    then(&mut events, adjust(number(austria), on_board, -5.0));
    let after = given(&events).standings(None).unwrap();
    let row = after.iter().find(|s| s.player == austria).unwrap();
    assert_eq!(thousandths(row.total), before.1 - 5_000);
    assert_eq!(thousandths(row.rounds[0].boards[0].score), before.1 - 5_000);
    // Level with the other board's Austria before, now behind them.
    assert_eq!(before.0, 1);
    assert_eq!(row.rank, 2);
    then(&mut events, revoke(1));
    assert_eq!(line(&events, austria), before);
    assert_eq!(given(&events).all_adjustments().len(), 1, "the revoked one stays in the log");
}

#[test]
fn round_and_tournament_adjustments_and_handicaps_add_to_the_total() {
    let mut events = with_entrants(settings(2), 14);
    then(&mut events, handicap(3, 2.5));
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    report_round(&mut events, 1);
    let before = line(&events, player(3));
    then(&mut events, adjust(3, AdjustmentTarget::Round { round: 1 }, 1.5));
    then(&mut events, adjust(3, AdjustmentTarget::Tournament, -10.0));
    let tournament = given(&events);
    let standings = tournament.standings(None).unwrap();
    let row = standings.iter().find(|s| s.player == player(3)).unwrap();
    assert_eq!(thousandths(row.total), before.1 + 1_500 - 10_000);
    assert_eq!(tournament.handicaps()[&player(3)].points, 2.5);
    // A handicap is the starting point: once round 1 is seeded it is refused.
    let error = when(&events, handicap(3, 1.0)).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Conflict);
}

#[test]
fn an_unranked_entrant_is_listed_without_a_rank_never_best_country_and_the_others_close_up() {
    let mut events = two_level_boards();
    let austria = board(&events, 1, 1).seats[0];
    let other_austria = board(&events, 1, 2).seats[0];
    assert_eq!(line(&events, other_austria).0, 1);
    then(&mut events, unranked(number(austria), true));
    let standings = given(&events).standings(None).unwrap();
    let last = standings.last().unwrap();
    assert_eq!((last.player, last.rank, last.unranked), (austria, 0, true));
    assert_eq!(standings[0].player, other_austria);
    assert_eq!(standings[0].rank, 1, "alone at the top now");
    assert_eq!(standings[1].rank, 2, "the ranks close up");
    let best = given(&events).best_countries().unwrap();
    assert_eq!(best[0].leaders.len(), 1);
    assert_eq!(best[0].leaders[0].player, other_austria);
    let award = GiveAward {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        name: "Best Diplomat".into(),
        player_id: austria,
        power: None,
        reason: None,
    };
    assert_eq!(when(&events, award).unwrap_err().code(), ErrorCode::Conflict);
    then(&mut events, unranked(number(austria), false));
    assert_eq!(line(&events, austria).0, 1);
}

#[test]
fn keep_apart_pairs_change_until_the_last_seeding_and_every_seeding_still_verifies() {
    let mut events = with_entrants(settings(2), 14);
    then(&mut events, keep_apart(1, 2, true));
    assert_eq!(given(&events).keep_apart(), [[player(1), player(2)]]);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    let round = given(&events).round(1).unwrap().clone();
    assert!(round.boards.iter().all(|b| !(b.is_seated(player(1)) && b.is_seated(player(2)))));
    report_round(&mut events, 1);
    then(&mut events, keep_apart(2, 1, false));
    then(&mut events, keep_apart(3, 4, true));
    all_present(&mut events, 14, 2);
    then(&mut events, seed(2));
    let checks = Tournament::verify_seeding(&events);
    assert_eq!(checks.len(), 2);
    assert!(checks.iter().all(SeedingCheck::verified), "{checks:?}");
    let error = when(&events, keep_apart(5, 6, true)).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Conflict, "no seeding would use it");
}

/// Round 2's top board reported with `level` (two players level after round 1) on 5 centres
/// each.
fn top_board_with_level_pair() -> (Vec<DomainEvent>, PlayerId, PlayerId) {
    let mut events = last_round_on_a_top_board();
    let tournament = given(&events);
    let top = tournament.round(2).unwrap().boards[0].seats.clone();
    let after_one = tournament.standings(Some(1)).unwrap();
    let total =
        |p: &PlayerId| thousandths(after_one.iter().find(|s| s.player == *p).unwrap().total);
    let (a, b) = top
        .iter()
        .enumerate()
        .find_map(|(i, a)| top[i + 1..].iter().find(|b| total(a) == total(b)).map(|b| (*a, *b)))
        .expect("two top-board players level after round 1");
    let mut others = [6, 6, 5, 4, 3].into_iter();
    let result = GameResult::Diplomacy(
        top.iter()
            .map(|p| {
                let centres = if *p == a || *p == b { 5 } else { others.next().unwrap() };
                DiplomacyEntry::new(player_key(*p), centres)
            })
            .collect(),
    );
    let board_id = top_board_id(&events);
    then(
        &mut events,
        ReportBoardResult {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            board_id,
            result,
            replacements: Vec::new(),
        },
    );
    (events, a, b)
}

fn top_board_id(events: &[DomainEvent]) -> BoardId {
    given(events).round(2).unwrap().boards[0].id
}

fn break_tie(order: Vec<PlayerId>) -> BreakTopBoardTie {
    BreakTopBoardTie {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        round: 2,
        order,
        reason: "agreed order of the top board".into(),
    }
}

#[test]
fn a_directors_order_splits_players_level_on_a_top_board_before_the_tie_breakers() {
    let (mut events, a, b) = top_board_with_level_pair();
    let (rank_a, total_a) = line(&events, a);
    assert_eq!(line(&events, b), (rank_a, total_a), "level after every tie-breaker");
    then(&mut events, break_tie(vec![b, a]));
    let standings = given(&events).standings(None).unwrap();
    let row = |p| standings.iter().find(|s| s.player == p).unwrap();
    assert_eq!(row(b).rank, rank_a);
    assert_eq!(row(a).rank, rank_a + 1);
    assert_eq!(row(a).separated_by, Some(TieBreak::DirectorsRank));
    // Only players of that top board, each once, and at least two.
    let refused = |order| when(&events, break_tie(order)).unwrap_err().code();
    let elsewhere = given(&events).round(2).unwrap().boards[1].seats[0];
    assert_eq!(refused(vec![a, elsewhere]), ErrorCode::BadUserInput { field: "playerId".into() });
    assert_eq!(refused(vec![a, a]), ErrorCode::BadUserInput { field: "order".into() });
    assert_eq!(refused(vec![a]), ErrorCode::BadUserInput { field: "order".into() });
    assert_eq!(refused(vec![b, a]), ErrorCode::Conflict);
}

#[test]
fn ruling_refusals_come_after_the_rights() {
    let mut events = two_level_boards();
    let outsider = Actor::Player(player(1));
    let board1 = board(&events, 1, 1);
    let on_board = AdjustmentTarget::Board { board_id: board1.id };
    let by_player = AdjustScore { actor: outsider, ..adjust(1, on_board, -1.0) };
    assert_eq!(when(&events, by_player).unwrap_err().code(), ErrorCode::Forbidden);
    let code = |command: AdjustScore| when(&events, command).unwrap_err().code();
    let points = ErrorCode::BadUserInput { field: "points".into() };
    assert_eq!(code(adjust(1, on_board, 0.0)), points);
    assert_eq!(code(adjust(1, on_board, f64::NAN)), points);
    assert_eq!(code(adjust(1, on_board, 20_000.0)), points);
    let reasonless = AdjustScore { reason: " ".into(), ..adjust(1, on_board, -1.0) };
    assert_eq!(code(reasonless), ErrorCode::BadUserInput { field: "reason".into() });
    let elsewhere = board(&events, 1, 2).seats[0];
    let not_seated = adjust(number(elsewhere), on_board, -1.0);
    assert_eq!(code(not_seated), ErrorCode::BadUserInput { field: "playerId".into() });
    let unseeded = adjust(1, AdjustmentTarget::Round { round: 2 }, -1.0);
    assert_eq!(code(unseeded), ErrorCode::BadUserInput { field: "round".into() });
    let missing_board = AdjustmentTarget::Board { board_id: board_id(TOURNAMENT, 9, 9) };
    assert_eq!(code(adjust(1, missing_board, -1.0)), ErrorCode::NotFound);
    assert_eq!(when(&events, revoke(1)).unwrap_err().code(), ErrorCode::NotFound);
    then(&mut events, unranked(1, true));
    assert_eq!(when(&events, unranked(1, true)).unwrap_err().code(), ErrorCode::Conflict);
    let self_pair = when(&events, keep_apart(1, 1, true)).unwrap_err().code();
    assert_eq!(self_pair, ErrorCode::BadUserInput { field: "second".into() });
    assert_eq!(when(&events, keep_apart(1, 2, false)).unwrap_err().code(), ErrorCode::Conflict);
    let outsider_pair = ChangeKeepApart { actor: outsider, ..keep_apart(1, 2, true) };
    assert_eq!(when(&events, outsider_pair).unwrap_err().code(), ErrorCode::Forbidden);
}

/// One stored example of each ruling event, for the golden file.
pub(crate) fn one_of_each_rulings_event() -> Vec<DomainEvent> {
    let (mut events, a, b) = top_board_with_level_pair();
    let start = events.len();
    let on_board = AdjustmentTarget::Board { board_id: top_board_id(&events) };
    then(&mut events, adjust(number(a), on_board, -2.5));
    then(&mut events, revoke(1));
    then(&mut events, unranked(number(b), true));
    then(&mut events, break_tie(vec![b, a]));
    let mut added = with_entrants(settings(2), 3);
    let entered = added.len();
    then(&mut added, handicap(1, 3.0));
    then(&mut added, keep_apart(1, 2, true));
    then(&mut added, keep_apart(1, 2, false));
    let mut ruled = events.split_off(start);
    ruled.extend(added.split_off(entered));
    ruled
}
