//! The rating model's promises (`docs/ratings.md`): winners rise and losers fall, tied
//! players move alike, a draw pulls ratings together, uncertainty shrinks with games, equal
//! uncertainties conserve the sum of μ, and a correction gives the ratings of the corrected
//! history rated from scratch, with the old ratings still readable as of earlier positions.

use league_ratings::{GameKind, GameOutcome, Params, Rating, RatingError, Ratings, Team, outcome};
use league_scoring::{GameResult, PlacementEntry, ScoringSystem, score_game};
use proptest::prelude::*;
use uuid::Uuid;

const KIND: GameKind = GameKind::Placement;

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n + 1)
}

fn game(n: u128) -> Uuid {
    Uuid::from_u128(1_000_000 + n)
}

/// A free-for-all game where player `i` of `players` finishes `ranks[i]`.
fn ffa(players: &[u128], ranks: &[u32]) -> GameOutcome {
    GameOutcome::free_for_all(players.iter().zip(ranks).map(|(p, r)| (id(*p), *r)))
}

fn teams(sides: &[(&[u128], u32)]) -> GameOutcome {
    GameOutcome {
        teams: sides
            .iter()
            .map(|(players, rank)| Team {
                players: players.iter().map(|p| id(*p)).collect(),
                rank: *rank,
            })
            .collect(),
    }
}

fn rating(ratings: &Ratings, kind: GameKind, player: u128) -> Rating {
    ratings.rating(kind, id(player)).expect("rated")
}

const EPS: f64 = 1e-9;

#[test]
fn a_newcomer_starts_at_the_defaults_and_displays_zero() {
    let initial = Params::standard().initial_rating();
    assert_eq!((initial.mu, initial.games), (25.0, 0));
    assert!((initial.sigma - 25.0 / 3.0).abs() < EPS);
    assert!(initial.display().abs() < EPS);
    assert_eq!(Ratings::default().rating(KIND, id(0)), None);
}

#[test]
fn the_winner_rises_the_loser_falls_and_both_grow_more_certain() {
    let mut ratings = Ratings::default();
    ratings.rate_game(KIND, game(0), 10, ffa(&[0, 1], &[1, 2])).unwrap();
    let (winner, loser) = (rating(&ratings, KIND, 0), rating(&ratings, KIND, 1));
    assert!(winner.mu > 25.0 && loser.mu < 25.0, "{winner:?} {loser:?}");
    assert!(winner.sigma < 25.0 / 3.0 && loser.sigma < 25.0 / 3.0);
    assert_eq!((winner.games, loser.games), (1, 1));
    assert!((winner.mu - 25.0 + loser.mu - 25.0).abs() < EPS, "equal σ: the sum of μ is kept");
}

#[test]
fn tied_players_move_alike() {
    let mut ratings = Ratings::default();
    ratings.rate_game(KIND, game(0), 1, ffa(&[0, 1, 2, 3], &[1, 2, 2, 4])).unwrap();
    let (a, b) = (rating(&ratings, KIND, 1), rating(&ratings, KIND, 2));
    assert!((a.mu - b.mu).abs() < EPS && (a.sigma - b.sigma).abs() < EPS);
    assert!(rating(&ratings, KIND, 0).mu > a.mu && a.mu > rating(&ratings, KIND, 3).mu);
}

#[test]
fn a_draw_between_equals_moves_no_mean_but_shrinks_sigma() {
    let mut ratings = Ratings::default();
    ratings.rate_game(KIND, game(0), 1, ffa(&[0, 1], &[1, 1])).unwrap();
    for player in [0, 1] {
        let r = rating(&ratings, KIND, player);
        assert!((r.mu - 25.0).abs() < EPS);
        assert!(r.sigma < 25.0 / 3.0);
    }
}

#[test]
fn a_draw_pulls_a_stronger_and_a_weaker_player_together() {
    let mut ratings = Ratings::default();
    // Player 0 beats player 2 twice, player 1 loses to player 2 twice: 0 is now ahead of 1.
    for (n, (winner, loser)) in [(0, 2), (2, 1), (0, 2), (2, 1)].into_iter().enumerate() {
        ratings
            .rate_game(KIND, game(n as u128), n as u64 + 1, ffa(&[winner, loser], &[1, 2]))
            .unwrap();
    }
    let (strong, weak) = (rating(&ratings, KIND, 0), rating(&ratings, KIND, 1));
    assert!(strong.mu > weak.mu);
    ratings.rate_game(KIND, game(9), 9, ffa(&[0, 1], &[1, 1])).unwrap();
    let (strong_after, weak_after) = (rating(&ratings, KIND, 0), rating(&ratings, KIND, 1));
    assert!(strong_after.mu < strong.mu && weak_after.mu > weak.mu);
    assert!(strong_after.mu - weak_after.mu < strong.mu - weak.mu);
}

#[test]
fn team_games_move_whole_sides_and_a_team_draw_between_equals_moves_no_mean() {
    let mut ratings = Ratings::default();
    let kind = GameKind::BlueMax;
    ratings.rate_game(kind, game(0), 1, teams(&[(&[0, 1], 1), (&[2, 3], 2)])).unwrap();
    for player in [0, 1] {
        assert!(rating(&ratings, kind, player).mu > 25.0);
    }
    for player in [2, 3] {
        assert!(rating(&ratings, kind, player).mu < 25.0);
    }
    let kind = GameKind::WoodenShips;
    ratings.rate_game(kind, game(1), 2, teams(&[(&[0, 1], 1), (&[2, 3], 1)])).unwrap();
    for player in 0..4 {
        let r = rating(&ratings, kind, player);
        assert!((r.mu - 25.0).abs() < EPS && r.sigma < 25.0 / 3.0 && r.games == 1);
    }
    assert_eq!(ratings.rating(GameKind::Diplomacy, id(0)), None, "kinds never mix");
}

#[test]
fn a_game_is_rated_once_and_only_rated_games_are_corrected() {
    let mut ratings = Ratings::default();
    ratings.rate_game(KIND, game(0), 1, ffa(&[0, 1], &[1, 2])).unwrap();
    assert_eq!(
        ratings.rate_game(KIND, game(0), 2, ffa(&[0, 1], &[2, 1])),
        Err(RatingError::AlreadyRated(game(0)))
    );
    assert_eq!(
        ratings.correct_game(KIND, game(5), 3, ffa(&[0, 1], &[2, 1])),
        Err(RatingError::NotRated(game(5)))
    );
    assert!(matches!(
        ratings.rate_game(KIND, game(1), 4, ffa(&[0, 0], &[1, 2])),
        Err(RatingError::Invalid(_))
    ));
    assert!(matches!(
        ratings.rate_game(KIND, game(2), 5, ffa(&[0], &[1])),
        Err(RatingError::Invalid(_))
    ));
    assert_eq!(ratings.games_rated(KIND), 1);
}

#[test]
fn a_correction_rerates_later_games_and_keeps_the_past_readable() {
    let mut ratings = Ratings::default();
    ratings.rate_game(KIND, game(0), 10, ffa(&[0, 1], &[1, 2])).unwrap();
    ratings.rate_game(KIND, game(1), 20, ffa(&[1, 2], &[1, 2])).unwrap();
    ratings.rate_game(KIND, game(2), 30, ffa(&[3, 4], &[1, 2])).unwrap();
    let before = rating(&ratings, KIND, 2);
    let untouched = rating(&ratings, KIND, 3);
    ratings.correct_game(KIND, game(0), 40, ffa(&[0, 1], &[2, 1])).unwrap();

    let mut fresh = Ratings::default();
    fresh.rate_game(KIND, game(0), 10, ffa(&[0, 1], &[2, 1])).unwrap();
    fresh.rate_game(KIND, game(1), 20, ffa(&[1, 2], &[1, 2])).unwrap();
    fresh.rate_game(KIND, game(2), 30, ffa(&[3, 4], &[1, 2])).unwrap();
    for player in 0..5 {
        assert_eq!(ratings.rating(KIND, id(player)), fresh.rating(KIND, id(player)));
    }
    // Player 2 lost to a player who is now rated higher: player 2 loses less.
    assert!(rating(&ratings, KIND, 2).mu > before.mu);
    assert_eq!(ratings.rating_at(KIND, id(2), 39), Some(before), "as of before the correction");
    assert_eq!(ratings.rating_at(KIND, id(2), 19), None, "before player 2's first game");
    let history = ratings.history(KIND, id(2));
    assert_eq!(history.len(), 2);
    assert_eq!((history[1].position, history[1].game, history[1].correction), (40, game(0), true));
    assert_eq!(
        ratings.history(KIND, id(3)).len(),
        1,
        "players of unaffected games keep one change"
    );
    assert_eq!(rating(&ratings, KIND, 3), untouched);
}

#[test]
fn the_leaderboard_ranks_by_displayed_rating_now_and_as_of() {
    let mut ratings = Ratings::default();
    ratings.rate_game(KIND, game(0), 1, ffa(&[0, 1, 2], &[3, 1, 2])).unwrap();
    ratings.rate_game(KIND, game(1), 2, ffa(&[0, 1, 2], &[3, 1, 2])).unwrap();
    ratings.rate_game(KIND, game(2), 3, ffa(&[3, 4], &[1, 1])).unwrap();
    let board = ratings.leaderboard(KIND, None);
    assert_eq!(board.len(), 5);
    assert_eq!(board[0].player, id(1));
    assert!(board.windows(2).all(|w| w[0].rating.display() >= w[1].rating.display()));
    let tied: Vec<_> =
        board.iter().filter(|row| row.player == id(3) || row.player == id(4)).collect();
    assert_eq!(tied[0].rank, tied[1].rank, "equal ratings share a rank");
    let earlier = ratings.leaderboard(KIND, Some(1));
    assert_eq!(earlier.len(), 3);
    assert_eq!(earlier[0].rating.games, 1);
}

#[test]
fn placement_results_rate_through_the_scored_game() {
    let result = GameResult::Placement(
        [(0u128, 52.0), (1, 61.0), (2, 38.0), (3, 45.0)]
            .into_iter()
            .map(|(p, points)| PlacementEntry { player: id(p).to_string(), points })
            .collect(),
    );
    let scored = score_game(ScoringSystem::Placement, &result).unwrap();
    let mut ratings = Ratings::default();
    ratings.rate_game(KIND, game(0), 1, outcome(&scored, &result).unwrap()).unwrap();
    let order: Vec<Uuid> = ratings.leaderboard(KIND, None).iter().map(|row| row.player).collect();
    assert_eq!(order, vec![id(1), id(0), id(3), id(2)]);
}

#[test]
fn game_kinds_follow_the_scoring_system() {
    assert_eq!(GameKind::of(ScoringSystem::Placement), GameKind::Placement);
    assert_eq!(GameKind::of(ScoringSystem::Baf), GameKind::Diplomacy);
    assert_eq!(GameKind::of(ScoringSystem::Squares), GameKind::Diplomacy);
    assert_eq!(GameKind::of(ScoringSystem::BlueMax), GameKind::BlueMax);
    assert_eq!(GameKind::of(ScoringSystem::WoodenShips), GameKind::WoodenShips);
    assert_eq!(GameKind::of(ScoringSystem::WoodenShipsLegacy), GameKind::WoodenShips);
}

/// A random history: games of 2–7 players out of 8, with random (possibly tied) ranks.
fn history() -> impl Strategy<Value = Vec<(Vec<u128>, Vec<u32>)>> {
    let game = (2usize..=7).prop_flat_map(|size| {
        (
            Just((0..8u128).collect::<Vec<_>>()).prop_shuffle().prop_map(move |mut p| {
                p.truncate(size);
                p
            }),
            proptest::collection::vec(1u32..=4, size),
        )
    });
    proptest::collection::vec(game, 1..12)
}

proptest! {
    #[test]
    fn every_game_moves_players_by_rank_and_shrinks_sigma(games in history()) {
        let mut ratings = Ratings::default();
        for (n, (players, ranks)) in games.iter().enumerate() {
            let before: Vec<Rating> = players
                .iter()
                .map(|p| ratings.rating(KIND, id(*p)).unwrap_or(Params::standard().initial_rating()))
                .collect();
            ratings.rate_game(KIND, game(n as u128), n as u64 + 1, ffa(players, ranks)).unwrap();
            let after: Vec<Rating> = players.iter().map(|p| rating(&ratings, KIND, *p)).collect();
            for i in 0..players.len() {
                prop_assert!(after[i].sigma < before[i].sigma);
                prop_assert_eq!(after[i].games, before[i].games + 1);
                let best = ranks.iter().all(|r| ranks[i] <= *r) && ranks.iter().any(|r| ranks[i] < *r);
                let worst = ranks.iter().all(|r| ranks[i] >= *r) && ranks.iter().any(|r| ranks[i] > *r);
                // Against players rated alike, finishing first outright gains and last loses.
                let alike = before.iter().all(|b| b == &before[0]);
                if alike && best { prop_assert!(after[i].mu > before[i].mu); }
                if alike && worst { prop_assert!(after[i].mu < before[i].mu); }
                for j in 0..players.len() {
                    if ranks[i] == ranks[j] && before[i] == before[j] {
                        prop_assert!((after[i].mu - after[j].mu).abs() < EPS);
                        prop_assert!((after[i].sigma - after[j].sigma).abs() < EPS);
                    }
                }
            }
            if before.iter().all(|b| (b.sigma - before[0].sigma).abs() < 1e-12) {
                let sum = |r: &[Rating]| r.iter().map(|r| r.mu).sum::<f64>();
                prop_assert!((sum(&after) - sum(&before)).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn a_correction_equals_rating_the_corrected_history_from_scratch(
        games in history(),
        pick in any::<prop::sample::Index>(),
        new_ranks in proptest::collection::vec(1u32..=4, 7),
    ) {
        let corrected = pick.index(games.len());
        let mut ratings = Ratings::default();
        for (n, (players, ranks)) in games.iter().enumerate() {
            ratings.rate_game(KIND, game(n as u128), n as u64 + 1, ffa(players, ranks)).unwrap();
        }
        let before_correction = ratings.leaderboard(KIND, None);
        let position = games.len() as u64 + 1;
        let players = &games[corrected].0;
        let new_ranks = &new_ranks[..players.len()];
        ratings.correct_game(KIND, game(corrected as u128), position, ffa(players, new_ranks)).unwrap();

        let mut fresh = Ratings::default();
        for (n, (players, ranks)) in games.iter().enumerate() {
            let ranks = if n == corrected { new_ranks } else { ranks.as_slice() };
            fresh.rate_game(KIND, game(n as u128), n as u64 + 1, ffa(players, ranks)).unwrap();
        }
        for player in 0..8 {
            let (got, want) = (ratings.rating(KIND, id(player)), fresh.rating(KIND, id(player)));
            match (got, want) {
                (Some(got), Some(want)) => {
                    prop_assert!((got.mu - want.mu).abs() < 1e-9 && (got.sigma - want.sigma).abs() < 1e-9);
                    prop_assert_eq!(got.games, want.games);
                }
                (got, want) => prop_assert_eq!(got, want),
            }
        }
        prop_assert_eq!(ratings.leaderboard(KIND, Some(position - 1)), before_correction);
    }
}
