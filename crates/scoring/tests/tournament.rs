//! Round and tournament scoring (`docs/tournaments.md#round-and-tournament-scoring`) through
//! the public contract: a worked example of every rule (computed by hand in the comments), the
//! WDC 2025 cut with a tie at 21st broken at each step, sitting-out points, players on two
//! boards, the catalogue of ids, and a property test that the standings never depend on the
//! order results were reported in.

use league_scoring::{
    Outcome, PlayerGameScore, RoundScoring, ScoredGame, ScoringSystem, SitOut, TieBreak,
    TournamentBoard, TournamentRules, TournamentScoring, TournamentStanding, rank_tournament,
    round_scorings, tournament_scorings,
};
use proptest::prelude::*;

/// A board from `(player, score, outcome, centres)` rows; positions follow the scores.
fn board_of(
    round: u32,
    board: u32,
    rows: &[(u32, f64, Outcome, Option<u32>)],
) -> TournamentBoard<u32> {
    let players = rows
        .iter()
        .map(|&(player, score, outcome, _)| PlayerGameScore {
            player: format!("P{player}"),
            score,
            outcome,
            explanation: Vec::new(),
            position: 1 + rows.iter().filter(|other| other.1 > score).count() as u32,
            sharing: rows.iter().filter(|other| other.1 == score).count() as u32,
            eliminated_year: None,
        })
        .collect();
    TournamentBoard {
        round,
        board,
        game: ScoredGame { system: ScoringSystem::Placement, players },
        players: rows.iter().map(|row| row.0).collect(),
        centres: rows.iter().map(|row| row.3).collect(),
    }
}

/// A board from `(player, score)` rows: the one top scorer wins, everyone else loses.
fn board(round: u32, board: u32, rows: &[(u32, f64)]) -> TournamentBoard<u32> {
    let top = rows.iter().map(|row| row.1).fold(f64::MIN, f64::max);
    let alone = rows.iter().filter(|row| row.1 == top).count() == 1;
    let rows: Vec<_> = rows
        .iter()
        .map(|&(player, score)| {
            let outcome = if alone && score == top { Outcome::Win } else { Outcome::Loss };
            (player, score, outcome, None)
        })
        .collect();
    board_of(round, board, &rows)
}

fn rules(scoring: TournamentScoring, round_scoring: RoundScoring) -> TournamentRules {
    TournamentRules {
        scoring,
        round_scoring,
        rounds: 4,
        sit_out_points: 0.0,
        sit_out_points_once: false,
    }
}

fn rank(
    rules: &TournamentRules,
    boards: &[TournamentBoard<u32>],
    sit_outs: &[SitOut<u32>],
) -> Vec<TournamentStanding<u32>> {
    let mut entrants: Vec<u32> = boards.iter().flat_map(|b| b.players.clone()).collect();
    entrants.extend(sit_outs.iter().map(|s| s.player));
    entrants.sort_unstable();
    entrants.dedup();
    rank_tournament(rules, &entrants, boards, sit_outs)
}

fn line(standings: &[TournamentStanding<u32>], player: u32) -> &TournamentStanding<u32> {
    standings.iter().find(|s| s.player == player).unwrap()
}

fn order(standings: &[TournamentStanding<u32>]) -> Vec<(u32, u32, f64)> {
    standings.iter().map(|s| (s.rank, s.player, s.total)).collect()
}

/// Per round of `player`: (score, dropped, sat out, boards' (score, dropped)).
type RoundView = (Option<f64>, bool, bool, Vec<(f64, bool)>);

fn rounds(standings: &[TournamentStanding<u32>], player: u32) -> Vec<RoundView> {
    line(standings, player)
        .rounds
        .iter()
        .map(|r| {
            let boards = r.boards.iter().map(|b| (b.score, b.dropped)).collect();
            (r.score, r.dropped, r.sat_out, boards)
        })
        .collect()
}

/// Three rounds, one board each: 1 scores 60, 20, 40; 2 scores 30, 50, 35; 3 scores 10, 40, 70.
fn three_rounds() -> Vec<TournamentBoard<u32>> {
    vec![
        board(1, 1, &[(1, 60.0), (2, 30.0), (3, 10.0)]),
        board(2, 1, &[(1, 20.0), (2, 50.0), (3, 40.0)]),
        board(3, 1, &[(1, 40.0), (2, 35.0), (3, 70.0)]),
    ]
}

/// Sum of all rounds: 1 = 60 + 20 + 40 = 120, 2 = 30 + 50 + 35 = 115, 3 = 10 + 40 + 70 = 120.
/// 1 and 3 each won one board and drew none; 3's best game (70) beats 1's (60).
#[test]
fn sum_all_rounds() {
    let standings = rank(
        &rules(TournamentScoring::SumAllRounds, RoundScoring::BestBoard),
        &three_rounds(),
        &[],
    );
    assert_eq!(order(&standings), [(1, 3, 120.0), (2, 1, 120.0), (3, 2, 115.0)]);
    let one = line(&standings, 1);
    assert_eq!((one.games, one.wins, one.draws), (3, 1, 0));
    // Four planned rounds: the 4th is not played yet.
    assert_eq!(one.rounds.len(), 4);
    assert_eq!(one.rounds[3].score, None);
    assert!(one.rounds.iter().all(|round| !round.dropped));
}

/// Best 2 rounds: 1 = 60 + 40 = 100 (round 2 dropped), 2 = 50 + 35 = 85 (round 1 dropped),
/// 3 = 70 + 40 = 110 (round 1 dropped).
#[test]
fn best_rounds() {
    let standings = rank(
        &rules(TournamentScoring::BestRounds { n: 2 }, RoundScoring::BestBoard),
        &three_rounds(),
        &[],
    );
    assert_eq!(order(&standings), [(1, 3, 110.0), (2, 1, 100.0), (3, 2, 85.0)]);
    let dropped = |player| -> Vec<bool> {
        line(&standings, player).rounds.iter().map(|round| round.dropped).collect()
    };
    assert_eq!(dropped(1), [false, true, false, false]);
    assert_eq!(dropped(2), [true, false, false, false]);
    assert_eq!(rounds(&standings, 3)[0], (Some(10.0), true, false, vec![(10.0, true)]));
    // Best 3 of 3 played rounds: every round counts.
    let all = rank(
        &rules(TournamentScoring::BestRounds { n: 3 }, RoundScoring::BestBoard),
        &three_rounds(),
        &[],
    );
    assert_eq!(line(&all, 2).total, 115.0);
}

/// Player 1 plays two boards in round 1: 30 on board 1, 45 on board 2. Best board: the round
/// scores 45 and board 1 is dropped; sum of boards: 30 + 45 = 75, nothing dropped.
#[test]
fn two_boards_best_board_or_sum() {
    let boards = [board(1, 1, &[(1, 30.0), (2, 50.0)]), board(1, 2, &[(1, 45.0), (3, 20.0)])];
    let best = rank(&rules(TournamentScoring::SumAllRounds, RoundScoring::BestBoard), &boards, &[]);
    assert_eq!(rounds(&best, 1)[0], (Some(45.0), false, false, vec![(30.0, true), (45.0, false)]));
    assert_eq!(line(&best, 1).total, 45.0);
    assert_eq!(line(&best, 1).games, 2);
    let sum =
        rank(&rules(TournamentScoring::SumAllRounds, RoundScoring::SumOfBoards), &boards, &[]);
    assert_eq!(rounds(&sum, 1)[0], (Some(75.0), false, false, vec![(30.0, false), (45.0, false)]));
    assert_eq!(order(&sum)[0], (1, 1, 75.0));
}

/// Player 4 plays round 1 (10) and sits out rounds 2 and 3, sitting out worth 25: every time
/// 10 + 25 + 25 = 60; only once 10 + 25 + 0 = 35 (round 3 scores 0, still sat out).
#[test]
fn sitting_out_once_or_every_time() {
    let boards = [board(1, 1, &[(4, 10.0), (5, 0.0)])];
    let sit_outs = [SitOut { round: 3, player: 4 }, SitOut { round: 2, player: 4 }];
    let mut every = rules(TournamentScoring::SumAllRounds, RoundScoring::BestBoard);
    every.sit_out_points = 25.0;
    let standings = rank(&every, &boards, &sit_outs);
    assert_eq!(line(&standings, 4).total, 60.0);
    assert_eq!(rounds(&standings, 4)[2], (Some(25.0), false, true, vec![]));
    let once = TournamentRules { sit_out_points_once: true, ..every };
    let standings = rank(&once, &boards, &sit_outs);
    assert_eq!(line(&standings, 4).total, 35.0);
    assert_eq!(rounds(&standings, 4)[1], (Some(25.0), false, true, vec![]));
    assert_eq!(rounds(&standings, 4)[2], (Some(0.0), false, true, vec![]));
    // Sitting out scores no game: games, wins and draws are the boards played.
    assert_eq!(line(&standings, 4).games, 1);
}

/// A player listed as sitting out a round they played a board in played it.
#[test]
fn a_board_beats_a_sit_out_in_the_same_round() {
    let mut rules = rules(TournamentScoring::SumAllRounds, RoundScoring::BestBoard);
    rules.sit_out_points = 25.0;
    let standings = rank(&rules, &[board(1, 1, &[(1, 10.0)])], &[SitOut { round: 1, player: 1 }]);
    assert_eq!(rounds(&standings, 1)[0], (Some(10.0), false, false, vec![(10.0, false)]));
}

/// Player 1's games: 60 and 20 (two boards of round 1), sitting out round 2 (25), 40 in
/// round 3. Best 3 games: 60 + 40 + 25 = 125, the 20 dropped, round 1 still counts (its 60
/// does). Without sitting-out points the sit-out is no game: 60 + 40 + 20 = 120, round 2
/// dropped.
#[test]
fn best_games_in_any_rounds() {
    let boards = [
        board(1, 1, &[(1, 60.0), (2, 10.0)]),
        board(1, 2, &[(1, 20.0), (3, 30.0)]),
        board(3, 1, &[(1, 40.0), (2, 5.0)]),
    ];
    let sit_outs = [SitOut { round: 2, player: 1 }];
    let mut rules = rules(TournamentScoring::BestGames { n: 3 }, RoundScoring::BestBoard);
    rules.sit_out_points = 25.0;
    let standings = rank(&rules, &boards, &sit_outs);
    assert_eq!(line(&standings, 1).total, 125.0);
    let view = rounds(&standings, 1);
    // The round score is still shown under best board (60); board 2 does not count.
    assert_eq!(view[0], (Some(60.0), false, false, vec![(60.0, false), (20.0, true)]));
    assert_eq!(view[1], (Some(25.0), false, true, vec![]));
    rules.sit_out_points = 0.0;
    let standings = rank(&rules, &boards, &sit_outs);
    assert_eq!(line(&standings, 1).total, 120.0);
    let view = rounds(&standings, 1);
    assert_eq!(view[0].3, [(60.0, false), (20.0, false)]);
    assert_eq!(view[1], (Some(0.0), true, true, vec![]));
    // Best single game.
    rules.scoring = TournamentScoring::BestGames { n: 1 };
    let standings = rank(&rules, &boards, &sit_outs);
    assert_eq!(line(&standings, 1).total, 60.0);
    assert_eq!(rounds(&standings, 1)[2], (Some(40.0), true, false, vec![(40.0, true)]));
}

/// Games 60 and 30, sitting out worth 20 once: (60 + 30 + 20) / (3 + 10) = 8.4615… → 8.462.
/// A second sit-out scores nothing and is no game.
#[test]
fn games_average_plus_ten() {
    let boards = [board(1, 1, &[(1, 60.0)]), board(2, 1, &[(1, 30.0)])];
    let sit_outs = [SitOut { round: 3, player: 1 }, SitOut { round: 4, player: 1 }];
    let mut rules = rules(TournamentScoring::GamesAveragePlusTen, RoundScoring::BestBoard);
    rules.sit_out_points = 20.0;
    rules.sit_out_points_once = true;
    let standings = rank(&rules, &boards, &sit_outs);
    assert_eq!(line(&standings, 1).total, 8.462);
    assert_eq!(line(&standings, 1).notes, ["3 games + 10"]);
    assert!(rounds(&standings, 1)[3].1, "the sit-out scoring nothing counts for nothing");
}

/// One board per round for player 1 with the given scores.
fn games(scores: &[f64]) -> Vec<TournamentBoard<u32>> {
    scores.iter().zip(1..).map(|(&score, round)| board(round, 1, &[(1, score)])).collect()
}

fn total_and_dropped(scoring: TournamentScoring, scores: &[f64]) -> (f64, Vec<bool>, Vec<String>) {
    let mut rules = rules(scoring, RoundScoring::BestBoard);
    rules.rounds = scores.len() as u32;
    let standings = rank(&rules, &games(scores), &[]);
    let one = line(&standings, 1);
    let dropped = one.rounds.iter().map(|r| r.boards[0].dropped).collect();
    (one.total, dropped, one.notes.clone())
}

/// Games 70, 60, 40, 20, 0: 70 + 60 + ½ × (40 + 20 + 0) / 3 = 140; nothing dropped.
#[test]
fn best_two_plus_half_the_average_of_the_rest() {
    let (total, dropped, notes) = total_and_dropped(
        TournamentScoring::BestTwoPlusHalfAverageOfRest,
        &[40.0, 70.0, 0.0, 60.0, 20.0],
    );
    assert_eq!(total, 140.0);
    assert_eq!(dropped, [false; 5]);
    assert_eq!(notes, ["best 2 games in full, half the average of the other 3"]);
    // Two games: nothing to average.
    let (total, _, notes) =
        total_and_dropped(TournamentScoring::BestTwoPlusHalfAverageOfRest, &[40.0, 70.0]);
    assert_eq!((total, notes.len()), (110.0, 0));
}

/// Games 70, 60, 40, 20: best 2 plus half the 3rd = 130 + 20 = 150, the 20 dropped. Games 70,
/// 60, 40, 20, 10: best 3 plus half the 4th = 170 + 10 = 180, the 10 dropped.
#[test]
fn best_two_or_three_plus_half_the_next() {
    let (total, dropped, notes) =
        total_and_dropped(TournamentScoring::BestTwoPlusHalfThird, &[20.0, 40.0, 60.0, 70.0]);
    assert_eq!((total, dropped), (150.0, vec![true, false, false, false]));
    assert_eq!(notes, ["3rd best game counts half"]);
    let (total, dropped, notes) = total_and_dropped(
        TournamentScoring::BestThreePlusHalfFourth,
        &[20.0, 40.0, 60.0, 70.0, 10.0],
    );
    assert_eq!((total, dropped), (180.0, vec![false, false, false, false, true]));
    assert_eq!(notes, ["4th best game counts half"]);
}

/// Best 2 plus half the 3rd (3 games) or a third of the 3rd and 4th (4 or more):
/// 70, 60, 40 → 130 + 20 = 150; 70, 60, 45, 30 → 130 + 75 / 3 = 155; 70, 60, 45, 30, 15 →
/// still 155, the 5th game dropped (the rule names the 3rd and 4th only; dipvis would count a
/// third of every game after the 2nd: 130 + 90 / 3 = 160). 70, 60, 45, 31 → 130 + 76 / 3 =
/// 155.333….
#[test]
fn best_two_plus_half_the_third_or_a_third_of_the_third_and_fourth() {
    let scoring = TournamentScoring::BestTwoPlusHalfThirdOrThirdOfThirdAndFourth;
    assert_eq!(total_and_dropped(scoring, &[70.0, 60.0, 40.0]).0, 150.0);
    let (total, dropped, notes) = total_and_dropped(scoring, &[70.0, 60.0, 45.0, 30.0]);
    assert_eq!((total, dropped), (155.0, vec![false; 4]));
    assert_eq!(notes, ["3rd and 4th best games count a third each"]);
    let (total, dropped, _) = total_and_dropped(scoring, &[15.0, 70.0, 60.0, 45.0, 30.0]);
    assert_eq!((total, dropped), (155.0, vec![true, false, false, false, false]));
    assert_eq!(total_and_dropped(scoring, &[70.0, 60.0, 45.0, 31.0]).0, 155.333);
}

/// Players level after every tie-breaker share the rank and are listed in key order; one
/// with no board yet has a line with total 0.
#[test]
fn level_players_share_a_rank() {
    let boards = [board(1, 1, &[(7, 10.0), (3, 10.0)])];
    let standings = rank_tournament(
        &rules(TournamentScoring::SumAllRounds, RoundScoring::BestBoard),
        &[9, 7, 3],
        &boards,
        &[],
    );
    assert_eq!(order(&standings), [(1, 3, 10.0), (1, 7, 10.0), (3, 9, 0.0)]);
    assert_eq!(standings[2].rounds.iter().map(|r| r.score).collect::<Vec<_>>(), [None; 4]);
}

/// The DAANZ tie-breakers look at the counted games only: under best 1 round, 1's dropped
/// win does not help.
#[test]
fn tie_breakers_look_at_counted_games() {
    let boards = [
        board(1, 1, &[(1, 30.0), (9, 0.0)]),  // 1 wins
        board(2, 1, &[(1, 50.0), (8, 50.0)]), // 1 and 8 level: no win
        board(1, 2, &[(2, 50.0), (12, 50.0)]),
        board(2, 2, &[(2, 20.0), (9, 10.0)]), // 2 wins
    ];
    let sum = rank(&rules(TournamentScoring::SumAllRounds, RoundScoring::BestBoard), &boards, &[]);
    assert_eq!(line(&sum, 1).total, 80.0);
    let rules = TournamentRules {
        rounds: 2,
        ..rules(TournamentScoring::BestRounds { n: 1 }, RoundScoring::BestBoard)
    };
    let standings = rank(&rules, &boards, &[]);
    // 1, 2, 8 and 12 all count a 50 without a win; they differ only by key.
    let fifty: Vec<_> = standings.iter().filter(|s| s.total == 50.0).map(|s| s.rank).collect();
    assert_eq!(fifty, [1, 1, 1, 1]);
    assert_eq!(line(&standings, 1).wins, 1, "wins are shown as played");
    assert!(standings.iter().all(|s| s.separated_by.is_none()), "level all the way: none named");
}

/// Equal totals split by a tie-breaker name it on both lines: summing every round, 2 (50, then
/// 20 with a win) and 12 (50, then 20 shared, no win) are level on 70; 2 is ahead on wins.
#[test]
fn lines_name_the_tie_breaker_that_split_equal_totals() {
    let level = [
        board(1, 1, &[(1, 30.0), (9, 0.0)]),
        board(2, 1, &[(1, 50.0), (8, 50.0)]),
        board(1, 2, &[(2, 50.0), (12, 50.0)]),
        board(2, 2, &[(2, 20.0), (9, 10.0)]),
        board(2, 3, &[(12, 20.0), (13, 20.0)]),
    ];
    let sum = rank(&rules(TournamentScoring::SumAllRounds, RoundScoring::BestBoard), &level, &[]);
    assert_eq!((line(&sum, 2).total, line(&sum, 12).total), (70.0, 70.0));
    assert!(line(&sum, 2).rank < line(&sum, 12).rank);
    assert_eq!(line(&sum, 2).separated_by, Some(TieBreak::MoreWins));
    assert_eq!(line(&sum, 12).separated_by, Some(TieBreak::MoreWins));
    assert_eq!(line(&sum, 1).separated_by, None, "80 is alone on its total");
}

/// WDC 2025 with fewer than 21 players: everyone is in the top 21. Player 1 scores 10, 20, 30
/// in rounds 1–3 and 40 in round 4: before round 4, 20 + 30 = 50; after, 50 + 1.5 × 40 = 110.
#[test]
fn wdc_2025_best_two_of_three_plus_round_four() {
    let rules = rules(TournamentScoring::Wdc2025, RoundScoring::BestBoard);
    let early = games(&[10.0, 20.0, 30.0]);
    let standings = rank(&rules, &early, &[]);
    assert_eq!(line(&standings, 1).total, 50.0);
    assert!(line(&standings, 1).notes.is_empty());
    assert!(rounds(&standings, 1)[0].1, "round 1 is the dropped round");
    let all = games(&[10.0, 20.0, 30.0, 40.0]);
    let standings = rank(&rules, &all, &[]);
    assert_eq!(line(&standings, 1).total, 110.0);
    assert_eq!(line(&standings, 1).notes, ["in the top 21 after round 3: round 4 ×1.5"]);
    assert_eq!(rounds(&standings, 1)[3], (Some(40.0), false, false, vec![(40.0, false)]));
}

/// `leaders` players (keys 1..) alone on boards scoring 100 in rounds 1 and 2, the tied
/// players' `boards`, and a round 4 board where 101, 102 and 103 each score 10.
fn wdc_field(leaders: u32, boards: Vec<TournamentBoard<u32>>) -> Vec<TournamentStanding<u32>> {
    let mut all = boards;
    for leader in 1..=leaders {
        all.push(board(1, 100 + leader, &[(leader, 100.0)]));
        all.push(board(2, 100 + leader, &[(leader, 100.0)]));
    }
    all.push(board(4, 1, &[(101, 10.0), (102, 10.0), (103, 10.0)]));
    rank(&rules(TournamentScoring::Wdc2025, RoundScoring::BestBoard), &all, &[])
}

/// 101 and 102 tie on 50 after round 3 for the 21st place behind 20 leaders; `step` put
/// 101 in (round 4: 50 + 15) and 102 out (50 + 10).
fn assert_cut(standings: &[TournamentStanding<u32>], into: u32, out: u32, step: &str) {
    let (winner, loser) = (line(standings, into), line(standings, out));
    assert_eq!((winner.total, loser.total), (65.0, 60.0), "{standings:#?}");
    let tie = |top: &str| format!("tied 21st after round 3 on 50: {top} the top 21 by {step}");
    assert!(winner.notes.contains(&tie("into")), "{:?}", winner.notes);
    assert!(loser.notes.contains(&tie("out of")), "{:?}", loser.notes);
    assert!(winner.notes.iter().any(|note| note.contains("round 4 ×1.5")));
    assert!(loser.notes.iter().all(|note| !note.contains("round 4 ×1.5")));
    assert_eq!(line(standings, 1).total, 200.0);
}

/// A one-row board for a tied player: `(round, board, player, score, outcome, centres)`.
fn alone(
    round: u32,
    board: u32,
    player: u32,
    score: f64,
    outcome: Outcome,
    centres: Option<u32>,
) -> TournamentBoard<u32> {
    board_of(round, board, &[(player, score, outcome, centres)])
}

/// A one-row board a tied player lost, without centres.
fn lost(round: u32, board: u32, player: u32, score: f64) -> TournamentBoard<u32> {
    alone(round, board, player, score, Outcome::Loss, None)
}

/// Step 1: the higher single game score. 101: 40 + 10; 102: 30 + 20.
#[test]
fn wdc_2025_cut_by_best_game() {
    let mut boards = apart([None; 4], Outcome::Loss);
    boards[..2].clone_from_slice(&[lost(1, 1, 101, 40.0), lost(2, 1, 101, 10.0)]);
    assert_cut(&wdc_field(20, boards), 101, 102, "higher single game score");
}

/// Step 2 (dipvis left it undone): the players' scores on the boards they shared. Both score
/// 30 + 20; on their shared board 101 scored 30 and 102 scored 20.
#[test]
fn wdc_2025_cut_by_head_to_head() {
    let standings = wdc_field(
        20,
        vec![
            board_of(1, 1, &[(101, 30.0, Outcome::Loss, None), (102, 20.0, Outcome::Loss, None)]),
            lost(2, 1, 101, 20.0),
            lost(2, 2, 102, 30.0),
        ],
    );
    assert_cut(&standings, 101, 102, "head-to-head score");
}

/// Boards of 30 in round 1 and 20 in round 2 for 101 and 102 apart, with their centres.
fn apart(centres: [Option<u32>; 4], outcome_101: Outcome) -> Vec<TournamentBoard<u32>> {
    vec![
        alone(1, 1, 101, 30.0, outcome_101, centres[0]),
        alone(2, 1, 101, 20.0, Outcome::Loss, centres[1]),
        alone(1, 2, 102, 30.0, Outcome::Loss, centres[2]),
        alone(2, 2, 102, 20.0, Outcome::Loss, centres[3]),
    ]
}

/// Step 3: centres in the two counted games: 10 + 8 against 9 + 8.
#[test]
fn wdc_2025_cut_by_centres() {
    let boards = apart([Some(10), Some(8), Some(9), Some(8)], Outcome::Loss);
    assert_cut(&wdc_field(20, boards), 101, 102, "more centres in the two counted games");
}

/// Step 4: the dropped round: 101 scored 15 in round 3, 102 scored 10.
#[test]
fn wdc_2025_cut_by_dropped_round() {
    let mut boards = apart([None; 4], Outcome::Loss);
    boards.push(lost(3, 1, 101, 15.0));
    boards.push(lost(3, 2, 102, 10.0));
    assert_cut(&wdc_field(20, boards), 101, 102, "higher dropped-round score");
}

/// Step 5 (the last resort before player order): the DAANZ tie-breakers; 101's 30 was a win.
#[test]
fn wdc_2025_cut_by_daanz() {
    let boards = apart([None; 4], Outcome::Win);
    assert_cut(&wdc_field(20, boards), 101, 102, "the DAANZ tie-breakers");
}

/// Step 6: nothing splits them: the lower key is in.
#[test]
fn wdc_2025_cut_by_player_order() {
    let boards = apart([None; 4], Outcome::Loss);
    assert_cut(&wdc_field(20, boards), 101, 102, "player order");
}

/// Three tied for two places behind 19 leaders: 101 is in by its best game (40); the search
/// starts over with 102 and 103 (both best 30), and 103 beat 102 on their shared board.
#[test]
fn wdc_2025_cut_starts_over_after_each_admission() {
    let standings = wdc_field(
        19,
        vec![
            lost(1, 1, 101, 40.0),
            lost(2, 1, 101, 10.0),
            board_of(1, 2, &[(102, 20.0, Outcome::Loss, None), (103, 30.0, Outcome::Loss, None)]),
            lost(2, 2, 102, 30.0),
            lost(2, 3, 103, 20.0),
        ],
    );
    assert_eq!(line(&standings, 101).total, 65.0);
    assert_eq!(line(&standings, 103).total, 65.0);
    assert_eq!(line(&standings, 102).total, 60.0);
    let by = |player| line(&standings, player).notes[0].clone();
    assert!(by(101).ends_with("into the top 21 by higher single game score"), "{}", by(101));
    assert!(by(103).ends_with("into the top 21 by head-to-head score"), "{}", by(103));
    assert!(by(102).ends_with("out of the top 21 by head-to-head score"), "{}", by(102));
}

/// No tie across the cut: the 21 best are in, the 22nd is out without a tie note.
#[test]
fn wdc_2025_cut_without_a_tie() {
    let standings = wdc_field(20, vec![lost(1, 1, 101, 40.0), lost(1, 2, 102, 30.0)]);
    assert_eq!(line(&standings, 101).total, 55.0);
    assert_eq!(line(&standings, 102).total, 40.0);
    assert!(line(&standings, 102).notes.is_empty());
}

#[test]
fn ids_round_trip_and_the_catalogue_lists_each_once() {
    let catalogue = tournament_scorings();
    // Sum of all rounds, best 2..5 rounds, best 1..5 games and six more.
    assert_eq!(catalogue.len(), 16);
    for info in &catalogue {
        let scoring = TournamentScoring::parse(&info.id).unwrap();
        assert_eq!(scoring.id(), info.id);
        assert_eq!(scoring.info(), *info);
        let json = serde_json::to_string(&scoring).unwrap();
        assert_eq!(json, format!("\"{}\"", info.id));
        assert_eq!(serde_json::from_str::<TournamentScoring>(&json).unwrap(), scoring);
    }
    let ids: std::collections::BTreeSet<_> = catalogue.iter().map(|info| &info.id).collect();
    assert_eq!(ids.len(), 16);
    assert_eq!(catalogue[0].id, "sum-all-rounds");
    assert!(catalogue.iter().any(|i| i.id == "best-2-plus-half-3rd-or-third-of-3rd-and-4th"));
    assert_eq!(
        catalogue.iter().filter(|info| info.uses_round_scores).count(),
        6,
        "sum of rounds, best 2..5 rounds, WDC 2025"
    );
    assert_eq!(round_scorings().len(), 2);
    assert_eq!(serde_json::to_string(&RoundScoring::SumOfBoards).unwrap(), "\"sumOfBoards\"");
    assert_eq!(RoundScoring::ALL.map(|s| s.info().id), ["bestBoard", "sumOfBoards"]);
}

#[test]
fn unknown_ids_and_rules_that_cannot_work_are_refused() {
    let error = TournamentScoring::parse("best-of-everything").unwrap_err();
    assert_eq!(error.field(), "scoring");
    assert!(error.to_string().contains("wdc-2025"), "{error}");
    assert!(error.to_string().contains("best-rounds-N"), "{error}");
    for id in ["best-rounds-1", "best-rounds-6", "best-games-0", "best-games-x"] {
        assert_eq!(TournamentScoring::parse(id).unwrap_err().field(), "scoring", "{id}");
    }
    assert_eq!(TournamentScoring::parse(" WDC-2025 ").unwrap(), TournamentScoring::Wdc2025);
    assert!(serde_json::from_str::<TournamentScoring>("\"best-rounds-9\"").is_err());
    assert!(TournamentScoring::Wdc2025.check(4).is_ok());
    assert_eq!(TournamentScoring::Wdc2025.check(5).unwrap_err().field(), "rounds");
    assert!(TournamentScoring::BestRounds { n: 3 }.check(3).is_ok());
    assert_eq!(TournamentScoring::BestRounds { n: 4 }.check(3).unwrap_err().field(), "rounds");
    assert_eq!(TournamentScoring::BestRounds { n: 7 }.check(9).unwrap_err().field(), "scoring");
    assert_eq!(TournamentScoring::BestGames { n: 0 }.check(3).unwrap_err().field(), "scoring");
    assert_eq!(TournamentScoring::SumAllRounds.check(0).unwrap_err().field(), "rounds");
    assert!(TournamentScoring::BestGames { n: 5 }.check(2).is_ok(), "two boards a round");
}

/// Each entry of the catalogue has its row in the table of `docs/tournaments.md`, with its kind
/// (round or game), and each row of that table is an entry.
#[test]
fn the_docs_list_every_tournament_scoring() {
    let docs = include_str!("../../../docs/tournaments.md");
    let mut patterns = std::collections::BTreeSet::new();
    for scoring in TournamentScoring::all() {
        assert!(!scoring.source().is_empty(), "{scoring} names no source");
        let id = match scoring.numbers() {
            Some(numbers) => {
                format!("`{}` (N = {}..{})", scoring.id_pattern(), numbers.start(), numbers.end())
            }
            None => format!("`{}`", scoring.id_pattern()),
        };
        let kind = if scoring.uses_round_scores() { "round" } else { "game" };
        let row = format!("| {id} | {kind} |");
        assert!(docs.contains(&row), "docs/tournaments.md has no row {row}");
        patterns.insert(format!("`{}`", scoring.id_pattern()));
    }
    let table = docs.split("| id | kind | total | worked example |").nth(1).unwrap();
    let rows = table.lines().skip(2).take_while(|line| line.starts_with('|'));
    for row in rows {
        let id = row.split('|').nth(1).unwrap().split_whitespace().next().unwrap();
        assert!(patterns.contains(id), "docs/tournaments.md lists {id}, which is no scoring");
    }
}

/// Reports of a 4-round tournament of 8 players: each (round, player) is absent, sits out,
/// or plays one board or two; scores in eighths, centres from the score.
fn reports() -> impl Strategy<Value = (Vec<TournamentBoard<u32>>, Vec<SitOut<u32>>)> {
    proptest::collection::vec((0u8..5, 1u32..=3, 0u32..=400, 0u32..=400), 32).prop_map(|cells| {
        let mut rows: std::collections::BTreeMap<(u32, u32), Vec<(u32, f64)>> = Default::default();
        let mut sit_outs = Vec::new();
        for (index, (kind, board, first, second)) in cells.into_iter().enumerate() {
            let (round, player) = (index as u32 / 8 + 1, index as u32 % 8);
            match kind {
                0 => {}
                1 => sit_outs.push(SitOut { round, player }),
                _ => {
                    rows.entry((round, board)).or_default().push((player, f64::from(first) / 8.0));
                    if kind == 4 {
                        let other = board % 3 + 1;
                        rows.entry((round, other))
                            .or_default()
                            .push((player, f64::from(second) / 8.0));
                    }
                }
            }
        }
        let boards = rows
            .into_iter()
            .map(|((round, number), rows)| {
                let mut board = board(round, number, &rows);
                board.centres = rows.iter().map(|row| Some(row.1 as u32 % 18)).collect();
                board
            })
            .collect();
        (boards, sit_outs)
    })
}

proptest! {
    /// A player's total, and the whole standings, never depend on the order results were
    /// reported in, under every scoring and round scoring.
    #[test]
    fn standings_do_not_depend_on_report_order(
        (boards, sit_outs, shuffled_boards, shuffled_sit_outs, sit_out_points, once) in reports()
            .prop_flat_map(|(boards, sit_outs)| (
                Just(boards.clone()),
                Just(sit_outs.clone()),
                Just(boards).prop_shuffle(),
                Just(sit_outs).prop_shuffle(),
                prop_oneof![Just(0.0), Just(12.5)],
                any::<bool>(),
            ))
    ) {
        let entrants: Vec<u32> = (0..10).collect();
        let mut reversed_entrants = entrants.clone();
        reversed_entrants.reverse();
        for scoring in TournamentScoring::all() {
            for round_scoring in RoundScoring::ALL {
                let rules = TournamentRules {
                    scoring,
                    round_scoring,
                    rounds: 4,
                    sit_out_points,
                    sit_out_points_once: once,
                };
                let reported = rank_tournament(&rules, &entrants, &boards, &sit_outs);
                let shuffled = rank_tournament(
                    &rules,
                    &reversed_entrants,
                    &shuffled_boards,
                    &shuffled_sit_outs,
                );
                prop_assert_eq!(&reported, &shuffled, "{}", scoring);
                prop_assert_eq!(reported.len(), 10);
                for standing in &reported {
                    prop_assert_eq!(standing.rounds.len(), 4);
                }
            }
        }
    }
}
