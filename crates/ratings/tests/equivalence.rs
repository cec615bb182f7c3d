//! The compact ledger gives every answer the ledger before it gave ([`reference`]), to the
//! bit: over random histories of first reports and corrections (corrections that reorder,
//! re-team, add or drop players, of any earlier game, several times) across two kinds, the
//! ratings now, as of every position, every history, and every leaderboard now and as of
//! every position are equal, and so are the refusals.

mod reference;

use league_ratings::{GameKind, GameOutcome, Ratings, Team};
use proptest::prelude::*;
use uuid::Uuid;

const KINDS: [GameKind; 2] = [GameKind::Placement, GameKind::BlueMax];
const PLAYERS: u128 = 10;

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n + 1)
}

fn game(n: u128) -> Uuid {
    Uuid::from_u128(1_000_000 + n)
}

/// A valid outcome: 2..=7 distinct players of `PLAYERS`, split into at least two teams
/// (consecutive players; a split that leaves one team makes every player a team of one),
/// each ranked 1..=4 (ties included).
fn an_outcome() -> impl Strategy<Value = GameOutcome> {
    (
        Just((0..PLAYERS).collect::<Vec<_>>()).prop_shuffle(),
        2usize..=7,
        proptest::collection::vec(any::<bool>(), 7),
        proptest::collection::vec(1u32..=4, 7),
    )
        .prop_map(|(players, size, splits, ranks)| {
            let players = &players[..size];
            let mut teams: Vec<Vec<Uuid>> = Vec::new();
            for (n, player) in players.iter().enumerate() {
                match teams.last_mut() {
                    Some(team) if !splits[n] => team.push(id(*player)),
                    _ => teams.push(vec![id(*player)]),
                }
            }
            if teams.len() < 2 {
                teams = players.iter().map(|player| vec![id(*player)]).collect();
            }
            GameOutcome {
                teams: teams
                    .into_iter()
                    .zip(&ranks)
                    .map(|(players, rank)| Team { players, rank: *rank })
                    .collect(),
            }
        })
}

/// One result: a first report of a new game, or a correction of a game picked among those
/// rated of its kind (of an unrated game when there is none).
#[derive(Debug, Clone)]
struct Op {
    correction: bool,
    kind: usize,
    pick: prop::sample::Index,
    outcome: GameOutcome,
    /// Positions skipped before this result (other events of the log).
    gap: u64,
}

fn an_op() -> impl Strategy<Value = Op> {
    (prop::bool::weighted(0.3), 0..KINDS.len(), any::<prop::sample::Index>(), an_outcome(), 0u64..3)
        .prop_map(|(correction, kind, pick, outcome, gap)| Op {
            correction,
            kind,
            pick,
            outcome,
            gap,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_compact_ledger_answers_as_the_reference(ops in proptest::collection::vec(an_op(), 1..40)) {
        let mut compact = Ratings::default();
        let mut reference = reference::Ratings::default();
        let mut rated: [Vec<Uuid>; 2] = Default::default();
        let mut position = 0;
        let mut next_game = 0;
        for op in &ops {
            position += 1 + op.gap;
            let kind = KINDS[op.kind];
            let (got, want) = if op.correction {
                let target = if rated[op.kind].is_empty() {
                    game(u128::MAX >> 1)
                } else {
                    rated[op.kind][op.pick.index(rated[op.kind].len())]
                };
                (
                    compact.correct_game(kind, target, position, op.outcome.clone()),
                    reference.correct_game(kind, target, position, op.outcome.clone()),
                )
            } else {
                let new = game(next_game);
                next_game += 1;
                rated[op.kind].push(new);
                (
                    compact.rate_game(kind, new, position, op.outcome.clone()),
                    reference.rate_game(kind, new, position, op.outcome.clone()),
                )
            };
            prop_assert_eq!(got, want);
        }
        for kind in KINDS {
            prop_assert_eq!(compact.games_rated(kind), reference.games_rated(kind));
            prop_assert_eq!(compact.players(kind), reference.players(kind));
            for player in (0..=PLAYERS).map(id) {
                prop_assert_eq!(compact.rating(kind, player), reference.rating(kind, player));
                let history = compact.history(kind, player);
                prop_assert_eq!(history.as_slice(), reference.history(kind, player));
                for at in 0..=position + 1 {
                    prop_assert_eq!(
                        compact.rating_at(kind, player, at),
                        reference.rating_at(kind, player, at)
                    );
                }
            }
            prop_assert_eq!(compact.leaderboard(kind, None), reference.leaderboard(kind, None));
            for at in 0..=position + 1 {
                prop_assert_eq!(
                    compact.leaderboard(kind, Some(at)),
                    reference.leaderboard(kind, Some(at))
                );
            }
        }
    }
}

/// Applies `op` (numbered by `next_game`, at `position`) to `ratings`.
fn apply(
    ratings: &mut Ratings,
    op: &Op,
    position: u64,
    target: Uuid,
    new: Uuid,
) -> Result<(), league_ratings::RatingError> {
    let kind = KINDS[op.kind];
    if op.correction {
        ratings.correct_game(kind, target, position, op.outcome.clone())
    } else {
        ratings.rate_game(kind, new, position, op.outcome.clone())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A ledger that forgets its oldest results (keeping `keep`, every `every` results), and
    /// one reloaded from its own image, answer what the complete ledger answers, to the bit:
    /// ratings now after every result, and at the end ratings and leaderboards as of every
    /// position from the cut on and each history's part after the cut. A correction of a
    /// forgotten game is refused as such (the gateway then folds every result); the image
    /// of a forgetting ledger is the complete ledger's image cut at the same result.
    #[test]
    fn a_windowed_ledger_answers_as_the_complete_one(
        ops in proptest::collection::vec(an_op(), 1..60),
        keep in 0usize..6,
        every in 1usize..8,
        reload in any::<bool>(),
    ) {
        let params = league_ratings::Params::standard();
        let mut complete = Ratings::default();
        let mut windowed = Ratings::default();
        let mut rated: [Vec<Uuid>; 2] = Default::default();
        let mut position = 0;
        let mut next_game = 0;
        for (n, op) in ops.iter().enumerate() {
            position += 1 + op.gap;
            let target = if rated[op.kind].is_empty() {
                game(u128::MAX >> 1)
            } else {
                rated[op.kind][op.pick.index(rated[op.kind].len())]
            };
            let new = game(next_game);
            if !op.correction {
                next_game += 1;
                rated[op.kind].push(new);
            }
            let want = apply(&mut complete, op, position, target, new);
            match apply(&mut windowed, op, position, target, new) {
                Err(league_ratings::RatingError::Forgotten(game)) => {
                    prop_assert_eq!(game, target);
                    prop_assert!(!windowed.is_complete());
                    prop_assert!(
                        matches!(want, Ok(()) | Err(league_ratings::RatingError::NotRated(_))),
                        "{:?}",
                        want
                    );
                    // What the gateway does: the complete fold, kept windowed from here.
                    windowed = Ratings::from_image(params, complete.image(keep)).unwrap();
                }
                got => prop_assert_eq!(got, want),
            }
            if (n + 1) % every == 0 {
                if reload {
                    windowed = Ratings::from_image(params, windowed.image(keep)).unwrap();
                } else {
                    windowed.forget(keep);
                }
            }
            for kind in KINDS {
                for player in (0..=PLAYERS).map(id) {
                    prop_assert_eq!(windowed.rating(kind, player), complete.rating(kind, player));
                }
                prop_assert_eq!(windowed.leaderboard(kind, None), complete.leaderboard(kind, None));
            }
        }
        prop_assert_eq!(windowed.results(), complete.results());
        let cut = windowed.cut();
        for kind in KINDS {
            prop_assert_eq!(windowed.players(kind), complete.players(kind));
            for player in (0..=PLAYERS).map(id) {
                let after_cut: Vec<_> = complete
                    .history(kind, player)
                    .into_iter()
                    .filter(|change| change.position > cut)
                    .collect();
                prop_assert_eq!(windowed.history(kind, player), after_cut);
                for at in cut..=position + 1 {
                    prop_assert_eq!(
                        windowed.rating_at(kind, player, at),
                        complete.rating_at(kind, player, at)
                    );
                }
            }
            for at in cut..=position + 1 {
                prop_assert_eq!(windowed.leaderboard(kind, Some(at)), complete.leaderboard(kind, Some(at)));
            }
        }
        let forgotten = windowed.forgotten_results();
        prop_assert_eq!(
            windowed.image_forgetting(forgotten).unwrap(),
            complete.image_forgetting(forgotten).unwrap()
        );
    }
}
