//! Given/when/then tests of Best Country and awards
//! (`docs/tournaments.md#best-country-and-awards`).

use league_scoring::{BestCountryCriterion, DiplomacyEntry, GameResult};

use super::{
    TOURNAMENT, all_present, given, report_round, seed, settings, then, when, with_entrants,
};
use crate::fixtures::player;
use crate::*;

/// 14 entrants, round 1 seeded into two boards and both reported with the same centres
/// (seat i: 10, 8, 6, 4, 3, 2, 1): every power is level on both boards.
pub(super) fn two_level_boards() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 14);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    report_round(&mut events, 1);
    events
}

pub(super) fn board(events: &[DomainEvent], round: u32, number: usize) -> Board {
    given(events).round(round).unwrap().boards[number - 1].clone()
}

fn centres_result(seats: &[PlayerId], centres: [u32; 7]) -> GameResult {
    GameResult::Diplomacy(
        seats.iter().zip(centres).map(|(p, c)| DiplomacyEntry::new(player_key(*p), c)).collect(),
    )
}

fn correct(events: &mut Vec<DomainEvent>, round: u32, number: usize, centres: [u32; 7]) {
    let board = board(events, round, number);
    then(
        events,
        CorrectBoardResult {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            board_id: board.id,
            result: centres_result(&board.seats, centres),
            replacements: Vec::new(),
            reason: "recount".into(),
        },
    );
}

fn rule(criterion: BestCountryCriterion, exclude_top_boards: bool) -> ChangeBestCountryRule {
    ChangeBestCountryRule {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        rule: BestCountryRule { criterion, exclude_top_boards },
    }
}

fn give(actor: Actor, player_n: u128, power: Option<&str>) -> GiveAward {
    GiveAward {
        actor,
        tournament_id: TOURNAMENT,
        name: " Best Diplomat ".into(),
        player_id: player(player_n),
        power: power.map(str::to_owned),
        reason: Some("kept every promise".into()),
    }
}

fn revoke(actor: Actor, award: u32) -> RevokeAward {
    RevokeAward { actor, tournament_id: TOURNAMENT, award, reason: None }
}

fn leaders_of(events: &[DomainEvent], power: usize) -> Vec<(PlayerId, u32, bool)> {
    given(events).best_countries().unwrap()[power]
        .leaders
        .iter()
        .map(|l| (l.player, l.centres, l.tied))
        .collect()
}

#[test]
fn before_any_board_is_finished_each_power_is_listed_without_a_leader() {
    let mut events = with_entrants(settings(2), 14);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    let best = given(&events).best_countries().unwrap();
    assert_eq!(best.len(), 7);
    assert_eq!(best[2].power, "France");
    assert!(best.iter().all(|power| power.leaders.is_empty()));
}

#[test]
fn results_level_on_score_and_centres_share_best_country() {
    let events = two_level_boards();
    let austria = leaders_of(&events, 0);
    assert_eq!(austria.len(), 2, "both Austrias are level: {austria:?}");
    assert!(austria.iter().all(|(_, centres, tied)| *centres == 10 && *tied));
    assert_eq!(given(&events).best_country_rule(), BestCountryRule::default());
}

#[test]
fn the_rule_decides_by_score_or_by_centres_and_the_other_figure_breaks_a_tie() {
    let mut events = two_level_boards();
    // Squares: a power scores its share of the board's squared centres. Board 1 holds
    // 10, 8, 6, 4, 3, 2, 1 (squares total 230); board 2 now 15, 8, 7, 1, 1, 1, 1 (342).
    correct(&mut events, 1, 2, [15, 8, 7, 1, 1, 1, 1]);
    let (board1, board2) = (board(&events, 1, 1), board(&events, 1, 2));
    // Austria: 225/342 = 65.8 beats 100/230 = 43.5, and 15 centres beat 10.
    assert_eq!(leaders_of(&events, 0), vec![(board2.seats[0], 15, false)]);
    // France by score: 36/230 = 15.7 (6 centres) beats 49/342 = 14.3 (7 centres).
    assert_eq!(leaders_of(&events, 2), vec![(board1.seats[2], 6, false)]);
    // England: 8 centres on both boards; by score 64/230 = 27.8 beats 64/342 = 18.7.
    assert_eq!(leaders_of(&events, 1), vec![(board1.seats[1], 8, false)]);
    then(&mut events, rule(BestCountryCriterion::Centres, false));
    // By centres: France's 7 beat 6; England's level 8s are broken by score.
    assert_eq!(leaders_of(&events, 2), vec![(board2.seats[2], 7, false)]);
    assert_eq!(leaders_of(&events, 1), vec![(board1.seats[1], 8, false)]);
}

#[test]
fn a_top_board_counts_unless_the_rule_excludes_it() {
    let mut events = super::last_round_on_a_top_board();
    report_round(&mut events, 2);
    correct(&mut events, 2, 1, [18, 4, 4, 4, 2, 1, 1]);
    let top_board = board(&events, 2, 1);
    assert!(given(&events).round(2).unwrap().seeded.top_board);
    assert_eq!(leaders_of(&events, 0), vec![(top_board.seats[0], 18, false)]);
    then(&mut events, rule(BestCountryCriterion::Score, true));
    let austria = given(&events).best_countries().unwrap()[0].leaders.clone();
    assert_eq!(austria.len(), 3, "the three other boards' Austrias are level");
    assert!(austria.iter().all(|l| !(l.round == 2 && l.board_number == 1)));
}

#[test]
fn only_a_director_changes_the_rule_and_the_same_rule_twice_is_a_conflict() {
    let events = two_level_boards();
    let by_player = ChangeBestCountryRule {
        actor: Actor::Player(player(1)),
        ..rule(BestCountryCriterion::Centres, false)
    };
    assert_eq!(when(&events, by_player).unwrap_err().code(), ErrorCode::Forbidden);
    let error = when(&events, rule(BestCountryCriterion::Score, false)).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Conflict);
    let missing = rule(BestCountryCriterion::Centres, false);
    assert_eq!(when(&[], missing).unwrap_err().code(), ErrorCode::NotFound);
}

#[test]
fn a_director_gives_an_award_for_a_power_and_revokes_it_which_keeps_it_in_the_log() {
    let mut events = two_level_boards();
    then(&mut events, give(Actor::Admin, 3, Some("france")));
    then(&mut events, give(Actor::Admin, 4, None));
    let tournament = given(&events);
    let standing: Vec<_> = tournament.awards().collect();
    assert_eq!(standing.len(), 2);
    assert_eq!(standing[0].award, 1);
    assert_eq!(standing[0].name, "Best Diplomat", "the name is trimmed");
    assert_eq!(standing[0].power.as_deref(), Some("France"), "the power as the board names it");
    assert_eq!(standing[1].award, 2);
    then(&mut events, revoke(Actor::Admin, 1));
    let tournament = given(&events);
    assert_eq!(tournament.awards().map(|a| a.award).collect::<Vec<_>>(), [2]);
    assert_eq!(tournament.all_awards().len(), 2);
    assert!(tournament.all_awards()[0].revoked.is_some());
    // Numbers are never reused.
    then(&mut events, give(Actor::Admin, 5, None));
    assert_eq!(given(&events).awards().last().unwrap().award, 3);
}

#[test]
fn award_refusals_come_after_the_rights() {
    let events = two_level_boards();
    let player_one = Actor::Player(player(1));
    assert_eq!(when(&events, give(player_one, 3, None)).unwrap_err().code(), ErrorCode::Forbidden);
    let nameless = GiveAward { name: "  ".into(), ..give(player_one, 3, None) };
    assert_eq!(when(&events, nameless).unwrap_err().code(), ErrorCode::Forbidden);
    let nameless = GiveAward { name: "  ".into(), ..give(Actor::Admin, 3, None) };
    assert_eq!(
        when(&events, nameless).unwrap_err().code(),
        ErrorCode::BadUserInput { field: "name".into() }
    );
    assert_eq!(
        when(&events, give(Actor::Admin, 3, Some("Atlantis"))).unwrap_err().code(),
        ErrorCode::BadUserInput { field: "power".into() }
    );
    assert_eq!(
        when(&events, give(Actor::Admin, 40, None)).unwrap_err().code(),
        ErrorCode::BadUserInput { field: "playerId".into() },
        "an award goes to an entrant"
    );
    assert_eq!(when(&events, revoke(player_one, 1)).unwrap_err().code(), ErrorCode::Forbidden);
    assert_eq!(when(&events, revoke(Actor::Admin, 1)).unwrap_err().code(), ErrorCode::NotFound);
    let mut events = events;
    then(&mut events, give(Actor::Admin, 3, None));
    then(&mut events, revoke(Actor::Admin, 1));
    assert_eq!(when(&events, revoke(Actor::Admin, 1)).unwrap_err().code(), ErrorCode::Conflict);
}

/// One stored example of each Best Country and award event, for the golden file.
pub(crate) fn one_of_each_awards_event() -> Vec<DomainEvent> {
    let mut events = two_level_boards();
    let start = events.len();
    then(&mut events, rule(BestCountryCriterion::Centres, true));
    then(&mut events, give(Actor::Admin, 3, Some("France")));
    then(
        &mut events,
        RevokeAward { reason: Some("given twice".into()), ..revoke(Actor::Admin, 1) },
    );
    events.split_off(start)
}
