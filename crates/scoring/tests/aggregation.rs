//! League aggregation (`docs/scoring.md#league-aggregation`) through the public contract:
//! worked examples of sum, best N and average, how the tie-breakers apply under each, and
//! property tests of what each aggregation guarantees.

use league_scoring::{
    Aggregation, GameResult, PlacementEntry, ScoredGame, ScoringSystem, Standing, rank_standings,
    rank_standings_keyed, rank_standings_with, score_game,
};
use proptest::prelude::*;

/// A placement game from `(player, game points)`: 1st of n scores n(n−1), … last 0.
fn placement(points: &[(&str, f64)]) -> ScoredGame {
    let entries = points
        .iter()
        .map(|(player, points)| PlacementEntry { player: (*player).to_owned(), points: *points })
        .collect();
    score_game(ScoringSystem::Placement, &GameResult::Placement(entries)).unwrap()
}

fn line<'a>(standings: &'a [Standing], player: &str) -> &'a Standing {
    standings.iter().find(|s| s.player == player).unwrap()
}

fn order(standings: &[Standing]) -> Vec<(u32, &str)> {
    standings.iter().map(|s| (s.rank, s.player.as_str())).collect()
}

/// Three duels (2 players: the winner scores 2, the loser 0) and a three-player game
/// (6, 2, 0): A wins twice and loses twice; B wins once in four games; C plays twice.
fn season() -> Vec<ScoredGame> {
    vec![
        placement(&[("A", 9.0), ("B", 1.0)]),
        placement(&[("A", 9.0), ("C", 1.0)]),
        placement(&[("B", 9.0), ("A", 1.0)]),
        placement(&[("C", 9.0), ("A", 5.0), ("B", 1.0)]),
        placement(&[("B", 1.0), ("C", 0.5)]),
    ]
}

#[test]
fn sum_counts_every_game() {
    let standings = rank_standings_with(&season(), Aggregation::Sum);
    assert_eq!(standings, rank_standings(&season()), "sum is the default ranking");
    // A: 2 + 2 + 0 + 2 = 6; B: 0 + 2 + 0 + 2 = 4; C: 0 + 6 + 0 = 6.
    assert_eq!((line(&standings, "A").total, line(&standings, "C").total), (6.0, 6.0));
    assert_eq!(line(&standings, "B").total, 4.0);
    // A and C level on 6: A has two wins to C's one.
    assert_eq!(order(&standings), [(1, "A"), (2, "C"), (3, "B")]);
    assert!(standings.iter().all(|s| s.counted.is_none()));
}

#[test]
fn best_n_counts_the_highest_scores_and_shows_games_as_played() {
    let standings = rank_standings_with(&season(), Aggregation::BestN { n: 1 });
    // Best single game: C's 6 (the three-player win), A's 2, B's 2.
    assert_eq!(line(&standings, "C").total, 6.0);
    assert_eq!(line(&standings, "A").total, 2.0);
    assert_eq!(line(&standings, "B").total, 2.0);
    assert_eq!(order(&standings)[0], (1, "C"));
    let a = line(&standings, "A");
    assert_eq!((a.games, a.wins, a.counted), (4, 2, Some(1)), "wins and games as played");
    let two = rank_standings_with(&season(), Aggregation::BestN { n: 2 });
    // A: 2 + 2 = 4; B: 2 + 2 = 4; C: 6 + 0 = 6.
    assert_eq!(
        [line(&two, "A").total, line(&two, "B").total, line(&two, "C").total],
        [4.0, 4.0, 6.0]
    );
}

/// Under best N the tie-breakers look at the counted games only: A and B both count two
/// wins (4 points), so their extra wins outside the best two do not split them, and their
/// counted games are equal: they finish equal.
#[test]
fn best_n_tie_breakers_compare_the_counted_games() {
    let games = vec![
        placement(&[("A", 9.0), ("X", 1.0)]),
        placement(&[("A", 9.0), ("X", 1.0)]),
        placement(&[("A", 9.0), ("X", 1.0)]),
        placement(&[("B", 9.0), ("Y", 1.0)]),
        placement(&[("B", 9.0), ("Y", 1.0)]),
    ];
    let best_two = rank_standings_with(&games, Aggregation::BestN { n: 2 });
    assert_eq!((line(&best_two, "A").total, line(&best_two, "B").total), (4.0, 4.0));
    assert_eq!(line(&best_two, "A").wins, 3, "shown as played");
    assert_eq!(order(&best_two)[..2], [(1, "A"), (1, "B")]);
    // Under sum, A's third win counts.
    assert_eq!(order(&rank_standings(&games))[..2], [(1, "A"), (2, "B")]);
}

/// A player with fewer games than N counts every game played.
#[test]
fn best_n_with_fewer_games_counts_them_all() {
    let games = vec![placement(&[("A", 9.0), ("B", 1.0)])];
    let standings = rank_standings_with(&games, Aggregation::BestN { n: 5 });
    assert_eq!(line(&standings, "A").total, 2.0);
    assert_eq!(line(&standings, "A").counted, Some(1));
}

#[test]
fn average_ranks_by_points_per_game_rounded_half_away_from_zero() {
    let standings = rank_standings_with(&season(), Aggregation::Average);
    // A 6 / 4 = 1.5; B 4 / 4 = 1; C 6 / 3 = 2.
    assert_eq!(
        [line(&standings, "A").total, line(&standings, "B").total, line(&standings, "C").total],
        [1.5, 1.0, 2.0]
    );
    assert_eq!(order(&standings), [(1, "C"), (2, "A"), (3, "B")]);
    assert_eq!(line(&standings, "C").games, 3);
    // 2 / 3 = 0.6666… → 0.667; 1 / 3 → 0.333 (thousandths, half away from zero).
    let thirds = vec![
        placement(&[("A", 9.0), ("B", 1.0)]),
        placement(&[("B", 9.0), ("A", 1.0)]),
        placement(&[("B", 9.0), ("A", 1.0)]),
    ];
    let standings = rank_standings_with(&thirds, Aggregation::Average);
    assert_eq!(line(&standings, "B").total, 1.333);
    assert_eq!(line(&standings, "A").total, 0.667);
    assert_eq!(line(&standings, "A").total_thousandths(), 667);
}

/// Averages equal to the thousandth go on to the tie-breakers (over every game played):
/// A 2 / 1 and B 4 / 2 both average 2; B has two wins to A's one.
#[test]
fn equal_averages_go_to_the_tie_breakers() {
    let games = vec![
        placement(&[("A", 9.0), ("X", 1.0)]),
        placement(&[("B", 9.0), ("X", 1.0)]),
        placement(&[("B", 9.0), ("Y", 1.0)]),
    ];
    let standings = rank_standings_with(&games, Aggregation::Average);
    assert_eq!((line(&standings, "A").total, line(&standings, "B").total), (2.0, 2.0));
    assert_eq!(order(&standings)[..2], [(1, "B"), (2, "A")]);
}

/// Random placement leagues: 2..6 players per game over 1..8 games among six players.
fn league() -> impl Strategy<Value = Vec<ScoredGame>> {
    let game = prop::collection::vec(0u8..10, 2..=6).prop_map(|points| {
        let named: Vec<(String, f64)> =
            points.iter().enumerate().map(|(i, &p)| (format!("P{i}"), f64::from(p))).collect();
        let refs: Vec<(&str, f64)> = named.iter().map(|(n, p)| (n.as_str(), *p)).collect();
        placement(&refs)
    });
    prop::collection::vec(game, 1..8)
}

/// Players level after every tie-breaker are listed in the order of the caller's keys.
#[test]
fn keyed_ranking_lists_level_players_in_key_order() {
    let twins = [placement(&[("X", 5.0), ("Y", 5.0)])];
    let by_name = |game: &ScoredGame, row: usize| game.players[row].player.clone();
    let reversed = rank_standings_keyed(
        &twins,
        Aggregation::Sum,
        |game| &game.players,
        |game, row| std::cmp::Reverse(by_name(game, row).chars().next().unwrap()),
    );
    let listed: Vec<(u32, char)> = reversed.iter().map(|s| (s.rank, s.player.0)).collect();
    assert_eq!(listed, [(1, 'Y'), (1, 'X')]);
    assert_eq!(order(&rank_standings(&twins)), [(1, "X"), (1, "Y")]);
}

proptest! {
    /// Ranking by keys that sort as the names do (here each name's digit) is ranking by
    /// name, line for line, under every aggregation.
    #[test]
    fn keyed_ranking_is_ranking_by_name(games in league(), n in 1u32..4, kind in 0u8..3) {
        let aggregation = match kind {
            0 => Aggregation::Sum,
            1 => Aggregation::BestN { n },
            _ => Aggregation::Average,
        };
        let digit = |game: &ScoredGame, row: usize| {
            game.players[row].player.trim_start_matches('P').parse::<u8>().unwrap()
        };
        let keyed = rank_standings_keyed(&games, aggregation, |game| &game.players, digit);
        let named: Vec<Standing> = keyed
            .into_iter()
            .map(|line| line.map_player(|digit| format!("P{digit}")))
            .collect();
        prop_assert_eq!(named, rank_standings_with(&games, aggregation));
    }

    /// Best N with N at least every player's games is the sum, line for line (but for the
    /// count of games counted).
    #[test]
    fn best_n_covering_every_game_is_the_sum(games in league(), extra in 0u32..3) {
        let n = games.len() as u32 + extra;
        let mut best: Vec<Standing> = rank_standings_with(&games, Aggregation::BestN { n });
        for line in &mut best {
            prop_assert_eq!(line.counted, Some(line.games));
            line.counted = None;
        }
        prop_assert_eq!(best, rank_standings(&games));
    }

    /// A player whose every game scored the same averages exactly that score.
    #[test]
    fn the_average_of_equal_games_is_that_game(score in 0u8..10, times in 1usize..6) {
        let games: Vec<ScoredGame> = (0..times)
            .map(|_| placement(&[("A", f64::from(score)), ("B", f64::from(score))]))
            .collect();
        let one = rank_standings(&games[..1]);
        let standings = rank_standings_with(&games, Aggregation::Average);
        for player in ["A", "B"] {
            prop_assert_eq!(line(&standings, player).total, line(&one, player).total);
            prop_assert_eq!(line(&standings, player).games, times as u32);
        }
    }

    /// Under every aggregation the ranks follow the aggregate: a higher total never ranks
    /// below a lower one, ranks start at 1 and equal ranks have equal totals.
    #[test]
    fn ranks_follow_the_aggregate(games in league(), n in 1u32..4, kind in 0u8..3) {
        let aggregation = match kind {
            0 => Aggregation::Sum,
            1 => Aggregation::BestN { n },
            _ => Aggregation::Average,
        };
        let standings = rank_standings_with(&games, aggregation);
        prop_assert_eq!(standings.first().map(|s| s.rank), Some(1));
        for pair in standings.windows(2) {
            prop_assert!(pair[0].total_thousandths() >= pair[1].total_thousandths());
            prop_assert!(pair[0].rank <= pair[1].rank);
            if pair[0].rank == pair[1].rank {
                prop_assert_eq!(pair[0].total_thousandths(), pair[1].total_thousandths());
            }
        }
        if let Aggregation::BestN { n } = aggregation {
            for line in &standings {
                prop_assert_eq!(line.counted, Some(line.games.min(n)));
            }
        }
    }
}

#[test]
fn each_kind_says_what_every_surface_shows() {
    for aggregation in [Aggregation::Sum, Aggregation::BestN { n: 3 }, Aggregation::Average] {
        let info = aggregation.info();
        let stored = serde_json::to_value(aggregation).unwrap();
        assert_eq!(stored["kind"], info.kind);
        assert_eq!(info.takes_n, stored.get("n").is_some());
        let cli = info.cli.replace('N', "3");
        assert_eq!(cli.parse::<Aggregation>().unwrap(), aggregation);
        assert!(Aggregation::KINDS.contains(&info));
    }
    assert_eq!(Aggregation::KINDS[0], Aggregation::default().info());
}
