//! Given/when/then tests of the tournament aggregate (`docs/tournaments.md`).

use chrono::Utc;
use league_scoring::{DiplomacyEntry, GameResult, ScoringSystem, TournamentScoring};
use uuid::Uuid;

use crate::fixtures::player;
use crate::*;

mod awards;
mod confirmation;
mod permanent;
mod pools;
mod powers;
mod progress;
mod registration;
mod rulings;
mod teams;
mod times;
pub(crate) use awards::one_of_each_awards_event;
pub(crate) use confirmation::one_of_each_confirmation_event;
pub(crate) use pools::one_of_each_pools_event;
pub(crate) use powers::one_of_each_powers_event;
pub(crate) use progress::one_of_each_progress_event;
pub(crate) use registration::one_of_each_registration_event;
pub(crate) use rulings::one_of_each_rulings_event;
pub(crate) use teams::one_of_each_teams_event;
pub(crate) use times::one_of_each_times_event;

const TOURNAMENT: TournamentId =
    TournamentId::new(Uuid::from_u128(0x0193_4f00_0000_7000_8000_0000_0000_00bb));

fn context() -> Context {
    Context::new(Utc::now())
}

fn given(events: &[DomainEvent]) -> Tournament {
    Tournament::from_events(events)
}

fn when(
    events: &[DomainEvent],
    command: impl Into<TournamentCommand>,
) -> Result<Vec<DomainEvent>, DomainError> {
    given(events).decide(&command.into(), &context())
}

/// Runs `command` on `events` and appends what it decides.
fn then(events: &mut Vec<DomainEvent>, command: impl Into<TournamentCommand>) {
    let new = when(events, command).expect("command accepted");
    events.extend(new);
}

fn settings(rounds: u32) -> TournamentSettings {
    TournamentSettings::new("Autumn Cup", "Diplomacy", ScoringSystem::Squares, 7, rounds)
}

fn created(settings: TournamentSettings) -> Vec<DomainEvent> {
    when(&[], CreateTournament { actor: Actor::Admin, tournament_id: TOURNAMENT, settings })
        .unwrap()
}

/// A tournament of `players` entrants (players 1..=n).
fn with_entrants(settings: TournamentSettings, players: u128) -> Vec<DomainEvent> {
    let mut events = created(settings);
    for n in 1..=players {
        then(
            &mut events,
            EnterTournament {
                actor: Actor::Player(player(n)),
                tournament_id: TOURNAMENT,
                player_id: player(n),
            },
        );
    }
    events
}

fn answer(n: u128, round: u32, present: bool, standby: bool, two_boards: bool) -> AnswerRollCall {
    AnswerRollCall {
        actor: Actor::Player(player(n)),
        tournament_id: TOURNAMENT,
        round,
        player_id: player(n),
        attendance: Attendance { present, standby, two_boards },
    }
}

fn seed(round: u32) -> SeedRound {
    SeedRound {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        round,
        seed: 7,
        sitting_out: None,
        playing_twice: None,
    }
}

/// Every board of `round` reported: seat i gets 10 − i centres (a legal Squares result).
fn report_round(events: &mut Vec<DomainEvent>, round: u32) {
    let boards: Vec<(BoardId, Vec<PlayerId>)> = given(events)
        .round(round)
        .unwrap()
        .boards
        .iter()
        .map(|b| (b.id, b.seats.clone()))
        .collect();
    for (board_id, seats) in boards {
        then(
            events,
            ReportBoardResult {
                actor: Actor::Admin,
                tournament_id: TOURNAMENT,
                board_id,
                result: result(&seats),
                replacements: Vec::new(),
            },
        );
    }
}

fn result(seats: &[PlayerId]) -> GameResult {
    let centres = [10, 8, 6, 4, 3, 2, 1];
    GameResult::Diplomacy(
        seats.iter().zip(centres).map(|(p, c)| DiplomacyEntry::new(player_key(*p), c)).collect(),
    )
}

fn all_present(events: &mut Vec<DomainEvent>, players: u128, round: u32) {
    for n in 1..=players {
        then(events, answer(n, round, true, false, false));
    }
}

#[test]
fn only_an_admin_creates_and_settings_are_checked() {
    let by_player = CreateTournament {
        actor: Actor::Player(player(1)),
        tournament_id: TOURNAMENT,
        settings: settings(3),
    };
    assert_eq!(when(&[], by_player).unwrap_err().code(), ErrorCode::Forbidden);
    for (bad, field) in [
        (TournamentSettings { rounds: 0, ..settings(3) }, "rounds"),
        (TournamentSettings { players_per_board: 5, ..settings(3) }, "playersPerBoard"),
        (
            TournamentSettings { tournament_scoring: TournamentScoring::Wdc2025, ..settings(3) },
            "tournamentScoring",
        ),
        (TournamentSettings { sit_out_points: -1.0, ..settings(3) }, "sitOutPoints"),
        (
            TournamentSettings { keep_apart: vec![[player(1), player(1)]], ..settings(3) },
            "keepApart[0]",
        ),
    ] {
        let error = when(
            &[],
            CreateTournament { actor: Actor::Admin, tournament_id: TOURNAMENT, settings: bad },
        )
        .unwrap_err();
        assert_eq!(error.code(), ErrorCode::BadUserInput { field: field.into() }, "{error}");
    }
}

#[test]
fn a_round_seats_everyone_present_into_boards_of_seven_powers() {
    let mut events = with_entrants(settings(3), 21);
    all_present(&mut events, 21, 1);
    then(&mut events, seed(1));
    let tournament = given(&events);
    let round = tournament.round(1).unwrap();
    assert_eq!(round.boards.len(), 3);
    let mut seated: Vec<PlayerId> = round.boards.iter().flat_map(|b| b.seats.clone()).collect();
    seated.sort();
    assert_eq!(seated, (1..=21).map(player).collect::<Vec<_>>());
    assert_eq!(tournament.status(), Some(TournamentStatus::Running));
    assert_eq!(tournament.seat_labels()[0], "Austria");
}

#[test]
fn a_standby_sits_out_and_a_volunteer_plays_two_boards() {
    // 22 present, a standby: the standby sits out.
    let mut events = with_entrants(settings(3), 22);
    all_present(&mut events, 21, 1);
    then(&mut events, answer(22, 1, true, true, false));
    then(&mut events, seed(1));
    let round = given(&events).round(1).unwrap().clone();
    assert_eq!(round.sitting_out, vec![player(22)]);
    // 20 present, one volunteer for two boards: they double.
    let mut events = with_entrants(settings(3), 20);
    all_present(&mut events, 19, 1);
    then(&mut events, answer(20, 1, true, false, true));
    then(&mut events, seed(1));
    let round = given(&events).round(1).unwrap().clone();
    assert_eq!(round.playing_twice, vec![player(20)]);
    let boards_of_20 = round.boards.iter().filter(|b| b.is_seated(player(20))).count();
    assert_eq!(boards_of_20, 2);
}

#[test]
fn the_proposal_benches_the_lowest_ranked_never_the_first_entrant_for_entry_order_alone() {
    // Given 15 entrants, round 1 played by players 1–14 (player 15 absent), so everyone but
    // player 15 has a score; round 2 with all 15 present: one must sit out (15 = 2 × 7 + 1).
    let mut events = with_entrants(settings(3), 15);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    report_round(&mut events, 1);
    all_present(&mut events, 15, 2);
    let tournament = given(&events);
    let standings = tournament.standings(None).unwrap();
    let last = standings.iter().find(|s| s.player == player(15)).unwrap().rank;
    assert_eq!(last, 15, "player 15 did not play: last");
    // When the roll call's proposal is read and the round seeded
    let proposal = tournament.proposal(2).unwrap();
    then(&mut events, seed(2));
    // Then the lowest ranked of those who sat out least sits out, saying why; the first
    // entrant (whom entry order alone would bench) plays.
    assert_eq!(proposal.sitting_out, vec![player(15)]);
    assert_eq!(
        proposal.reasons,
        vec![(player(15), "lowest ranked of those who sat out least (rank 15)".to_owned())]
    );
    assert_eq!(given(&events).round(2).unwrap().sitting_out, vec![player(15)]);
    // And in round 3, the one who sat out plays: the lowest ranked of the others sits out.
    report_round(&mut events, 2);
    all_present(&mut events, 15, 3);
    let tournament = given(&events);
    let proposal = tournament.proposal(3).unwrap();
    let ranks: Vec<(PlayerId, u32)> =
        tournament.standings(None).unwrap().into_iter().map(|s| (s.player, s.rank)).collect();
    let lowest = ranks.iter().filter(|(p, _)| *p != player(15)).map(|(_, r)| *r).max().unwrap();
    assert_eq!(proposal.sitting_out.len(), 1);
    assert_ne!(proposal.sitting_out[0], player(15));
    assert!(ranks.contains(&(proposal.sitting_out[0], lowest)), "{proposal:?} {ranks:?}");
}

#[test]
fn too_few_present_is_refused_naming_the_shortfall_and_changes_nothing() {
    let mut events = with_entrants(settings(3), 10);
    all_present(&mut events, 5, 1);
    let error = when(&events, seed(1)).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Conflict);
    assert!(error.to_string().contains('5'), "{error}");
}

#[test]
fn the_next_round_waits_for_every_board_then_results_complete_the_tournament() {
    let mut events = with_entrants(settings(2), 14);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    all_present(&mut events, 14, 2);
    assert_eq!(when(&events, seed(2)).unwrap_err().code(), ErrorCode::Conflict);
    report_round(&mut events, 1);
    assert!(events.iter().any(
        |e| matches!(e, DomainEvent::Tournament(TournamentEvent::RoundCompleted(r)) if r.round == 1)
    ));
    then(&mut events, seed(2));
    report_round(&mut events, 2);
    let tournament = given(&events);
    assert_eq!(tournament.status(), Some(TournamentStatus::Completed));
    let standings = tournament.standings(None).unwrap();
    assert_eq!(standings.len(), 14);
    assert!(standings.iter().all(|s| s.games == 2));
    // After round 1 only one round counts.
    let after_one = tournament.standings(Some(1)).unwrap();
    assert!(after_one.iter().all(|s| s.games == 1));
}

#[test]
fn late_entries_play_from_the_next_round_and_withdrawn_players_are_never_seated_again() {
    let mut events = with_entrants(settings(3), 14);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    // Seated in a round being played: withdraw after it.
    let withdraw = WithdrawFromTournament {
        actor: Actor::Player(player(3)),
        tournament_id: TOURNAMENT,
        player_id: player(3),
    };
    assert_eq!(when(&events, withdraw.clone()).unwrap_err().code(), ErrorCode::Conflict);
    then(
        &mut events,
        EnterTournament { actor: Actor::Admin, tournament_id: TOURNAMENT, player_id: player(15) },
    );
    report_round(&mut events, 1);
    then(&mut events, withdraw);
    assert_eq!(
        when(&events, answer(3, 2, true, false, false)).unwrap_err().code(),
        ErrorCode::Conflict
    );
    for n in (1..=15).filter(|n| *n != 3) {
        then(&mut events, answer(n, 2, true, false, false));
    }
    then(&mut events, seed(2));
    let tournament = given(&events);
    let round = tournament.round(2).unwrap();
    assert!(round.boards.iter().all(|b| !b.is_seated(player(3))));
    assert!(round.boards.iter().any(|b| b.is_seated(player(15))));
    assert_eq!(tournament.entrant(player(15)).unwrap().entered_after_round, 1);
    // The withdrawn player's round-1 score stays in the standings.
    let line =
        tournament.standings(None).unwrap().into_iter().find(|s| s.player == player(3)).unwrap();
    assert_eq!(line.games, 1);
}

#[test]
fn a_player_answers_only_for_themself_and_only_the_open_round() {
    let events = with_entrants(settings(3), 7);
    let mut other = answer(1, 1, true, false, false);
    other.player_id = player(2);
    assert_eq!(when(&events, other).unwrap_err().code(), ErrorCode::Forbidden);
    assert_eq!(
        when(&events, answer(1, 2, true, false, false)).unwrap_err().code(),
        ErrorCode::BadUserInput { field: "round".into() }
    );
}

#[test]
fn swaps_exchange_places_until_the_round_starts() {
    let mut events = with_entrants(settings(3), 14);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    let round = given(&events).round(1).unwrap().clone();
    let (a, b) = (round.boards[0].seats[0], round.boards[1].seats[0]);
    let swap = SwapRoundPlayers {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        round: 1,
        first: a,
        second: b,
        reason: "family at one board".into(),
    };
    then(&mut events, swap.clone());
    let swapped = given(&events).round(1).unwrap().clone();
    assert_eq!((swapped.boards[0].seats[0], swapped.boards[1].seats[0]), (b, a));
    report_round(&mut events, 1);
    assert_eq!(when(&events, swap).unwrap_err().code(), ErrorCode::Conflict);
}

#[test]
fn results_are_validated_like_league_games_and_corrections_need_a_reason() {
    let mut events = with_entrants(settings(3), 7);
    all_present(&mut events, 7, 1);
    then(&mut events, seed(1));
    let board = given(&events).round(1).unwrap().boards[0].clone();
    let mut wrong = board.seats.clone();
    wrong[0] = player(99);
    let report = |result| ReportBoardResult {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        board_id: board.id,
        result,
        replacements: Vec::new(),
    };
    assert!(matches!(
        when(&events, report(result(&wrong))).unwrap_err().code(),
        ErrorCode::BadUserInput { .. }
    ));
    let outsider =
        ReportBoardResult { actor: Actor::Player(player(99)), ..report(result(&board.seats)) };
    assert_eq!(when(&events, outsider).unwrap_err().code(), ErrorCode::Forbidden);
    then(&mut events, report(result(&board.seats)));
    let correct = |reason: &str| CorrectBoardResult {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        board_id: board.id,
        result: result(&board.seats),
        replacements: Vec::new(),
        reason: reason.into(),
    };
    assert_eq!(
        when(&events, correct(" ")).unwrap_err().code(),
        ErrorCode::BadUserInput { field: "reason".into() }
    );
    then(&mut events, correct("centres miscounted"));
    assert_eq!(given(&events).board(board.id).unwrap().corrections, 1);
}

#[test]
fn a_replacement_scores_the_seat_only_when_the_tournament_says_so() {
    for (rule, scorer) in
        [(ReplacementScores::SeatedPlayer, 0usize), (ReplacementScores::Replacement, 1)]
    {
        let mut events =
            with_entrants(TournamentSettings { replacement_scores: rule, ..settings(3) }, 7);
        all_present(&mut events, 7, 1);
        then(&mut events, seed(1));
        let board = given(&events).round(1).unwrap().boards[0].clone();
        let replacement = Replacement { seated: board.seats[0], replacement: player(50) };
        then(
            &mut events,
            ReportBoardResult {
                actor: Actor::Admin,
                tournament_id: TOURNAMENT,
                board_id: board.id,
                result: result(&board.seats),
                replacements: vec![replacement],
            },
        );
        let standings = given(&events).standings(None).unwrap();
        let top = standings.iter().max_by(|a, b| a.total.total_cmp(&b.total)).unwrap();
        assert_eq!(top.player, [board.seats[0], player(50)][scorer]);
    }
}

#[test]
fn every_recorded_seeding_re_runs_to_the_same_boards_and_a_tampered_one_does_not() {
    let mut events = a_played_tournament();
    let checks = Tournament::verify_seeding(&events);
    assert_eq!(checks.len(), 2);
    assert!(checks.iter().all(SeedingCheck::verified), "{checks:?}");
    let seeded = events.iter_mut().find_map(|e| match e {
        DomainEvent::Tournament(TournamentEvent::RoundSeeded(r)) if r.round == 2 => Some(r),
        _ => None,
    });
    let seeded = seeded.unwrap();
    seeded.boards[0].seats.swap(0, 1);
    let checks = Tournament::verify_seeding(&events);
    assert!(checks[0].verified());
    assert!(!checks[1].verified() && !checks[1].boards_match);
}

/// A short tournament with every tournament event type: entries, a withdrawal, roll calls,
/// two rounds seeded, a swap, results, a correction, completion.
pub(crate) fn a_played_tournament() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 8);
    all_present(&mut events, 7, 1);
    then(&mut events, answer(8, 1, true, true, false));
    then(&mut events, seed(1));
    let round = given(&events).round(1).unwrap().clone();
    let (a, b) = (round.boards[0].seats[0], round.boards[0].seats[1]);
    then(
        &mut events,
        SwapRoundPlayers {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            round: 1,
            first: a,
            second: b,
            reason: "seat preference".into(),
        },
    );
    report_round(&mut events, 1);
    let board = given(&events).round(1).unwrap().boards[0].clone();
    then(
        &mut events,
        CorrectBoardResult {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            board_id: board.id,
            result: result(&board.seats),
            replacements: Vec::new(),
            reason: "recount".into(),
        },
    );
    then(
        &mut events,
        WithdrawFromTournament {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            player_id: player(8),
        },
    );
    all_present(&mut events, 7, 2);
    then(&mut events, seed(2));
    report_round(&mut events, 2);
    events
}

#[test]
fn once_the_tournament_has_completed_nobody_withdraws() {
    let events = a_played_tournament();
    assert_eq!(given(&events).status(), Some(TournamentStatus::Completed));
    for actor in [Actor::Player(player(1)), Actor::Admin] {
        let withdraw =
            WithdrawFromTournament { actor, tournament_id: TOURNAMENT, player_id: player(1) };
        let error = when(&events, withdraw).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Conflict);
        assert!(error.to_string().contains("has completed"), "{error}");
    }
    // The rights are checked first: another player is refused for who they are.
    let other = WithdrawFromTournament {
        actor: Actor::Player(player(2)),
        tournament_id: TOURNAMENT,
        player_id: player(1),
    };
    assert_eq!(when(&events, other).unwrap_err().code(), ErrorCode::Forbidden);
}

/// Two rounds of 14 entrants, the last on a top board: round 1 reported, round 2 seeded.
fn last_round_on_a_top_board() -> Vec<DomainEvent> {
    let top = TournamentSettings { top_board_last_round: true, ..settings(2) };
    let mut events = with_entrants(top, 14);
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    report_round(&mut events, 1);
    all_present(&mut events, 14, 2);
    then(&mut events, seed(2));
    events
}

#[test]
fn the_last_round_seats_the_best_seven_together_on_board_one() {
    let events = last_round_on_a_top_board();
    let tournament = given(&events);
    let mut best: Vec<PlayerId> =
        tournament.standings(Some(1)).unwrap().iter().take(7).map(|s| s.player).collect();
    let mut board_one = tournament.round(2).unwrap().boards[0].seats.clone();
    best.sort();
    board_one.sort();
    assert_eq!(board_one, best);
    assert!(tournament.round(2).unwrap().seeded.top_board);
    assert!(Tournament::verify_seeding(&events).iter().all(SeedingCheck::verified));
}

mod rights {
    use super::*;

    const ORGANISER: u128 = 60;

    fn created_by_organiser() -> Vec<DomainEvent> {
        let command = CreateTournament {
            actor: Actor::Player(player(ORGANISER)),
            tournament_id: TOURNAMENT,
            settings: settings(2),
        };
        given(&[]).decide(&command.into(), &context().with_actor_organiser(true)).unwrap()
    }

    #[test]
    fn only_organisers_create_tournaments() {
        let command = CreateTournament {
            actor: Actor::Player(player(ORGANISER)),
            tournament_id: TOURNAMENT,
            settings: settings(2),
        };
        let error = when(&[], command).unwrap_err();
        assert!(error.to_string().contains("may create tournaments"), "{error}");
        let events = created_by_organiser();
        assert_eq!(given(&events).organisers().creator(), Some(player(ORGANISER)));
    }

    #[test]
    fn the_creator_and_co_organisers_seed_and_an_outsider_may_not() {
        let mut events = created_by_organiser();
        events.extend(with_entrants(settings(2), 8).into_iter().skip(1));
        all_present(&mut events, 8, 1);
        let seed_as = |n| SeedRound { actor: Actor::Player(player(n)), ..seed(1) };
        let error = when(&events, seed_as(1)).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Forbidden);
        let message = error.to_string();
        assert!(
            message.contains(&format!("does not organise tournament {TOURNAMENT}")),
            "{message}"
        );
        assert!(message.contains("seed a round"), "{message}");
        assert!(when(&events, seed_as(ORGANISER)).is_ok());
        then(
            &mut events,
            AddTournamentCoOrganiser {
                actor: Actor::Player(player(ORGANISER)),
                tournament_id: TOURNAMENT,
                player_id: player(1),
            },
        );
        assert!(when(&events, seed_as(1)).is_ok());
        // The organiser answers the roll call for an entrant.
        let answer_for = AnswerRollCall {
            actor: Actor::Player(player(ORGANISER)),
            ..answer(2, 1, false, false, false)
        };
        assert!(when(&events, answer_for).is_ok());
    }
}

/// A tournament created by the site admin with `co_organiser` added (for the stored-form
/// round trip of every event type).
pub(crate) fn co_organised_tournament(co_organiser: PlayerId) -> Vec<DomainEvent> {
    let mut events = created(settings(1));
    then(
        &mut events,
        AddTournamentCoOrganiser {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            player_id: co_organiser,
        },
    );
    events.split_off(1)
}

/// The context the application builds once `erased` were erased: of the players `command`
/// names in the tournament `events` fold to, those erased.
fn erased_context(
    events: &[DomainEvent],
    command: &TournamentCommand,
    erased: &[PlayerId],
) -> Context {
    let named = command.players_to_check(&given(events));
    context().with_erased_players(named.into_iter().filter(|p| erased.contains(p)).collect())
}

fn when_erased(
    events: &[DomainEvent],
    command: impl Into<TournamentCommand>,
    erased: &[PlayerId],
) -> Result<Vec<DomainEvent>, DomainError> {
    let command = command.into();
    given(events).decide(&command, &erased_context(events, &command, erased))
}

fn assert_erased(result: Result<Vec<DomainEvent>, DomainError>, erased: PlayerId) {
    let error = result.expect_err("refused");
    assert_eq!(error.code(), ErrorCode::Conflict, "{error}");
    assert!(error.to_string().starts_with(&format!("player {erased} was erased")), "{error}");
}

#[test]
fn an_erased_player_is_entered_answered_seeded_swapped_or_brought_in_by_nobody() {
    let erased = player(8);
    let mut events = with_entrants(settings(2), 7);
    // Entering, co-organising, answering the roll call: refused.
    let enter =
        EnterTournament { actor: Actor::Admin, tournament_id: TOURNAMENT, player_id: erased };
    assert_erased(when_erased(&events, enter, &[erased]), erased);
    let co_organiser = AddTournamentCoOrganiser {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        player_id: erased,
    };
    assert_erased(when_erased(&events, co_organiser, &[erased]), erased);
    then(
        &mut events,
        EnterTournament { actor: Actor::Admin, tournament_id: TOURNAMENT, player_id: erased },
    );
    all_present(&mut events, 8, 1);
    let answer_for = AnswerRollCall { actor: Actor::Admin, ..answer(8, 1, false, false, false) };
    assert_erased(when_erased(&events, answer_for, &[erased]), erased);

    // Present before the erasure: seeding would seat them (or sit them out) anew.
    let refused = when_erased(&events, seed(1), &[erased]);
    assert_erased(refused.clone(), erased);
    assert!(refused.unwrap_err().to_string().contains("withdraw them"));
    // Withdrawing them is allowed (it records nothing new about them), then seeding goes on.
    let withdraw = WithdrawFromTournament {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        player_id: erased,
    };
    events.extend(when_erased(&events, withdraw, &[erased]).expect("withdrawn"));
    events.extend(when_erased(&events, seed(1), &[erased]).expect("seeded without them"));
    let round = given(&events).round(1).unwrap().clone();
    assert!(!round.takes_part(erased));

    // Erased once seated: swaps and replacements naming them are refused, their board's
    // result is still reported (with another replacement, or none).
    let seated = round.boards[0].seats[0];
    let board = round.boards[0].id;
    let swap = SwapRoundPlayers {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        round: 1,
        first: seated,
        second: round.boards[0].seats[1],
        reason: "table".into(),
    };
    assert_erased(when_erased(&events, swap, &[seated]), seated);
    let with_replacement = |replacement| ReportBoardResult {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        board_id: board,
        result: result(&round.boards[0].seats),
        replacements: vec![Replacement { seated: round.boards[0].seats[1], replacement }],
    };
    assert_erased(when_erased(&events, with_replacement(erased), &[erased, seated]), erased);
    let report = with_replacement(player(9));
    let reported = when_erased(&events, report, &[erased, seated]).expect("reported");
    assert!(
        matches!(reported[0], DomainEvent::Tournament(TournamentEvent::BoardFinished(_))),
        "{reported:?}"
    );
}
