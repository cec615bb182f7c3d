//! `docs/scoring.md#standings-and-tie-breakers` (DAANZ parts 3–4): league standings by total score
//! with the DAANZ tie-breakers, and the game comparison they use. Applied to every system,
//! under the league's aggregation (`docs/scoring.md#league-aggregation`).

use std::cmp::Ordering;
use std::hash::Hash;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::aggregation::div_round_half_away;
use crate::{
    Aggregation, Outcome, PlayerGameScore, ScoredGame, Standing, from_thousandths, thousandths,
};

/// Scores are compared in millionths of a point so that sums of two-decimal scores that are
/// equal on paper (0.1 + 0.2 versus 0.3) compare equal despite binary floating point.
pub(crate) fn micro(points: f64) -> i64 {
    round_half_away(points * 1_000_000.0)
}

/// `x.round() as i64` (half away from zero, saturating, NaN to 0) without `f64::round`, which
/// on the baseline x86-64 target is a software routine: ranking a league rounds scores and
/// score gaps in every game comparison. Truncation is a hardware conversion, and `x` minus its
/// truncation is exact in binary floating point, so the half-way test is exact too.
fn round_half_away(x: f64) -> i64 {
    let truncated = x as i64;
    let fraction = x - truncated as f64;
    if fraction >= 0.5 {
        truncated.saturating_add(1)
    } else if fraction <= -0.5 {
        truncated.saturating_sub(1)
    } else {
        truncated
    }
}

/// One player's game inside the list of scored games.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GameRef<'a> {
    pub(crate) row: &'a PlayerGameScore,
    /// League scores of the game's finishers, best finisher first (zero for eliminated ones).
    finishers: &'a [f64],
    /// The game's place in the list, so every aggregation adds scores in the same order.
    order: usize,
    /// The player's place in order of first appearance.
    slot: usize,
    /// The row's score in millionths, rounded once instead of in every comparison.
    pub(crate) micro: i64,
}

/// DAANZ part 4.5–4.6: appends the game's scores in finishing order (1st … 7th) to `out`,
/// zero used for eliminated players. Players sharing a position are ordered by score.
/// `order` is scratch space, kept by the caller across games.
pub(crate) fn push_finishing_scores<'a>(
    rows: &'a [PlayerGameScore],
    order: &mut Vec<&'a PlayerGameScore>,
    out: &mut Vec<f64>,
) {
    order.clear();
    order.extend(rows);
    order.sort_by(|a, b| a.position.cmp(&b.position).then(b.score.total_cmp(&a.score)));
    out.extend(
        order.iter().map(|row| if row.outcome == Outcome::Elimination { 0.0 } else { row.score }),
    );
}

/// DAANZ part 4.5–4.6 for one game (see [`push_finishing_scores`]).
#[cfg(test)]
fn finishing_scores(game: &ScoredGame) -> Vec<f64> {
    let mut out = Vec::new();
    push_finishing_scores(&game.players, &mut Vec::new(), &mut out);
    out
}

/// DAANZ part 4, comparing two games (`Greater` = `a` is the better game): 1. win > draw >
/// elimination > loss; 2. points from the game; 3. finishing position (an outright place
/// beats a shared one, fewer sharers beat more); 4. if both eliminated, the later
/// elimination year; 5–6. own score minus the 1st finisher's score, then the 2nd's, … .
pub fn compare_games(
    a: &PlayerGameScore,
    a_finishers: &[f64],
    b: &PlayerGameScore,
    b_finishers: &[f64],
) -> Ordering {
    compare_scored(a, micro(a.score), a_finishers, b, micro(b.score), b_finishers)
}

/// [`compare_games`] with each game's score in millionths already rounded.
fn compare_scored(
    a: &PlayerGameScore,
    a_micro: i64,
    a_finishers: &[f64],
    b: &PlayerGameScore,
    b_micro: i64,
    b_finishers: &[f64],
) -> Ordering {
    a.outcome
        .cmp(&b.outcome)
        .then_with(|| a_micro.cmp(&b_micro))
        .then_with(|| (b.position, b.sharing).cmp(&(a.position, a.sharing)))
        .then_with(|| match (a.outcome, b.outcome, a.eliminated_year, b.eliminated_year) {
            (Outcome::Elimination, Outcome::Elimination, Some(a_year), Some(b_year)) => {
                a_year.cmp(&b_year)
            }
            _ => Ordering::Equal,
        })
        .then_with(|| {
            let depth = a_finishers.len().max(b_finishers.len());
            (0..depth)
                .map(|k| {
                    let a_gap = a.score - a_finishers.get(k).copied().unwrap_or(0.0);
                    let b_gap = b.score - b_finishers.get(k).copied().unwrap_or(0.0);
                    micro(a_gap).cmp(&micro(b_gap))
                })
                .find(|ordering| ordering.is_ne())
                .unwrap_or(Ordering::Equal)
        })
}

impl<'a> GameRef<'a> {
    /// A game on its own, outside a ranking's list (tournament scoring compares boards with
    /// the same DAANZ game comparison).
    pub(crate) fn single(row: &'a PlayerGameScore, finishers: &'a [f64]) -> Self {
        GameRef { row, finishers, order: 0, slot: 0, micro: micro(row.score) }
    }
}

pub(crate) fn compare_refs(a: &GameRef<'_>, b: &GameRef<'_>) -> Ordering {
    compare_scored(a.row, a.micro, a.finishers, b.row, b.micro, b.finishers)
}

/// One player's record while ranking. The player's games are a range of the ranking's one
/// list of [`GameRef`]s (no list per player): the counted ones first, best first by the DAANZ
/// game comparison.
#[derive(Debug)]
struct Record<K> {
    player: K,
    /// Where the player's games start in the list.
    first: usize,
    /// The games the tie-breakers look at (the counted ones under best N): the first
    /// `counted` of the player's games.
    counted: usize,
    /// Games, wins and draws as played (every game, whatever the aggregation counts).
    played: u32,
    wins: u32,
    draws: u32,
    /// What ranks the player under the league's aggregation, in thousandths: the sum of the
    /// counted games, or the average per game played.
    key: i64,
    /// Wins and draws among the counted games (DAANZ part 3.1–3.2).
    counted_wins: u32,
    counted_draws: u32,
}

impl<K> Record<K> {
    /// Settles the player's key and counted games under `aggregation`
    /// (`docs/scoring.md#league-aggregation`); `games` are the player's games in game order
    /// (starting at `first` in the list), left with the counted ones first, best first.
    fn new(player: K, first: usize, games: &mut [GameRef<'_>], aggregation: Aggregation) -> Self {
        let count = |games: &[GameRef<'_>], outcome| {
            games.iter().filter(|g| g.row.outcome == outcome).count() as u32
        };
        let (wins, draws) = (count(games, Outcome::Win), count(games, Outcome::Draw));
        let played = games.len() as u32;
        let (key, counted) = match aggregation {
            Aggregation::Sum => (thousandths(games.iter().map(|g| g.row.score).sum()), games.len()),
            Aggregation::BestN { n } => {
                // The N highest game scores; between games of equal score the better game
                // by the DAANZ comparison counts, so the tie-breakers see the better one.
                games.sort_by(|a, b| b.micro.cmp(&a.micro).then_with(|| compare_refs(b, a)));
                let counted = games.len().min(n as usize);
                games[..counted].sort_by_key(|g| g.order);
                (thousandths(games[..counted].iter().map(|g| g.row.score).sum()), counted)
            }
            Aggregation::Average => {
                // Exact for scores of up to six decimals: the sum in millionths over
                // 1000 × games, rounded once.
                let sum: i64 = games.iter().map(|g| g.micro).sum();
                let played = i64::try_from(games.len()).unwrap_or(i64::MAX).max(1);
                (div_round_half_away(sum, played * 1000), games.len())
            }
        };
        let best = &mut games[..counted];
        best.sort_by(|a, b| compare_refs(b, a));
        let (counted_wins, counted_draws) = (count(best, Outcome::Win), count(best, Outcome::Draw));
        Record { player, first, counted, played, wins, draws, key, counted_wins, counted_draws }
    }

    /// The counted games, best first.
    fn best<'g, 'a>(&self, games: &'g [GameRef<'a>]) -> &'g [GameRef<'a>] {
        &games[self.first..self.first + self.counted]
    }

    /// What the tie-breakers look at: the counted games and their wins and draws.
    fn view<'g, 'a>(&self, games: &'g [GameRef<'a>]) -> TieBreakView<'g, 'a> {
        TieBreakView {
            wins: self.counted_wins as usize,
            draws: self.counted_draws as usize,
            best: self.best(games),
        }
    }
}

/// A DAANZ tie-breaker (`docs/scoring.md#standings-and-tie-breakers`, part 3.1–3.5), in the
/// order they apply: the one that separated two players level on total, which a standings line
/// shows beside its total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TieBreak {
    MoreWins,
    MoreDraws,
    BetterBestGame,
    BetterSecondBestGame,
    BetterThirdBestGame,
    /// Not a DAANZ tie-breaker (never in [`Self::ALL`]): the order a director gave players
    /// level on a top board (`docs/tournaments.md#rulings`), asked before the others.
    DirectorsRank,
}

impl TieBreak {
    /// Every tie-breaker, in the order they apply.
    pub const ALL: [TieBreak; 5] = [
        TieBreak::MoreWins,
        TieBreak::MoreDraws,
        TieBreak::BetterBestGame,
        TieBreak::BetterSecondBestGame,
        TieBreak::BetterThirdBestGame,
    ];

    /// The tie-breaker in words, as standings tables and exports show it ("more wins").
    pub fn label(self) -> &'static str {
        match self {
            TieBreak::MoreWins => "more wins",
            TieBreak::MoreDraws => "more draws",
            TieBreak::BetterBestGame => "better best game",
            TieBreak::BetterSecondBestGame => "better 2nd best game",
            TieBreak::BetterThirdBestGame => "better 3rd best game",
            TieBreak::DirectorsRank => "director's top-board rank",
        }
    }
}

/// What the DAANZ tie-breakers look at in one player's record: the wins and draws among the
/// counted games, and the counted games, best first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TieBreakView<'r, 'a> {
    pub(crate) wins: usize,
    pub(crate) draws: usize,
    pub(crate) best: &'r [GameRef<'a>],
}

/// How two standings lines compare: `ordering` (`Greater` = the first ranks higher), and the
/// tie-breaker that decided when the totals were level and one split them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decision {
    pub(crate) ordering: Ordering,
    pub(crate) by: Option<TieBreak>,
}

impl Decision {
    /// Decided by the totals (or level on them, when `ordering` is `Equal`, before the
    /// tie-breakers are asked).
    pub(crate) fn on_total(ordering: Ordering) -> Self {
        Decision { ordering, by: None }
    }

    /// This decision, or when it is level, the DAANZ tie-breakers between `a` and `b`.
    pub(crate) fn or_tie_break(self, a: TieBreakView<'_, '_>, b: TieBreakView<'_, '_>) -> Self {
        if self.ordering.is_ne() {
            return self;
        }
        break_tie(a, b)
    }
}

/// DAANZ part 3.1–3.5 between two players level on total: most wins, most draws, then the
/// better best, second best and third best game (a player without such a game is behind one
/// who has it). The first tie-breaker that separates them decides, and is named; players level
/// on every one are `Equal`, with none named. The one place the tie-breakers' order is written.
pub(crate) fn break_tie(a: TieBreakView<'_, '_>, b: TieBreakView<'_, '_>) -> Decision {
    let game = |k: usize| match (a.best.get(k), b.best.get(k)) {
        (Some(a), Some(b)) => compare_refs(a, b),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => Ordering::Equal,
    };
    TieBreak::ALL
        .into_iter()
        .map(|tie_break| {
            let ordering = match tie_break {
                TieBreak::MoreWins => a.wins.cmp(&b.wins),
                TieBreak::MoreDraws => a.draws.cmp(&b.draws),
                TieBreak::BetterBestGame => game(0),
                TieBreak::BetterSecondBestGame => game(1),
                TieBreak::BetterThirdBestGame => game(2),
                TieBreak::DirectorsRank => Ordering::Equal,
            };
            Decision { ordering, by: Some(tie_break) }
        })
        .find(|decision| decision.ordering.is_ne())
        .unwrap_or(Decision { ordering: Ordering::Equal, by: None })
}

/// The tie-breaker each line of a ranked list shows (`docs/scoring.md#standings-and-tie-breakers`),
/// given each line's competition rank and `between[i]`, the tie-breaker that split line `i`
/// from the line above (`None` for the first line, or when the totals or nothing split them).
/// Lines sharing a rank show the same: the split of their rank from the one above, or else from
/// the one below, so every split inside a run of equal totals is named on the lines it
/// separates (a line between two splits names the one above it).
pub(crate) fn shown_tie_breaks(
    ranks: &[u32],
    between: &[Option<TieBreak>],
) -> Vec<Option<TieBreak>> {
    let mut shown = vec![None; ranks.len()];
    let mut start = 0;
    while start < ranks.len() {
        let end =
            (start + 1..ranks.len()).find(|&k| ranks[k] != ranks[start]).unwrap_or(ranks.len());
        let split = between[start].or_else(|| between.get(end).copied().flatten());
        shown[start..end].fill(split);
        start = end;
    }
    shown
}

/// DAANZ part 3: most points, then the tie-breakers of [`break_tie`] over the counted games
/// (`Greater` = `a` ranks higher). Totals compare as the thousandths they are shown as, so two
/// totals that print the same go on to the tie-breakers
/// (`docs/scoring.md#league-aggregation`).
fn compare_records<K>(a: &Record<K>, b: &Record<K>, games: &[GameRef<'_>]) -> Decision {
    Decision::on_total(a.key.cmp(&b.key)).or_tie_break(a.view(games), b.view(games))
}

/// DAANZ part 3 under `aggregation`: rank every player over `games`, best first; players that
/// cannot be split "are considered to have finished equal" and share the rank (1, 2, 2, 4),
/// listed by name. Wins, draws and games are shown as played.
pub(crate) fn rank(games: &[ScoredGame], aggregation: Aggregation) -> Vec<Standing> {
    rank_keyed(
        games,
        aggregation,
        |game| &game.players,
        |game, row| game.players[row].player.as_str(),
    )
    .into_iter()
    .map(|standing| standing.map_player(str::to_owned))
    .collect()
}

/// [`rank_standings_with`](crate::rank_standings_with) over any list of scored games, with the
/// caller's own identity for each row's player: `rows` gives a game's rows (what
/// [`ScoredGame::players`] holds) and `key` the player of its row `row`. Equal keys are the
/// same player; players still level after every tie-breaker are listed in key order. Ranking by
/// a small copyable key (a typed id) instead of the rows' names hashes, compares and copies no
/// strings: the read side ranks every league of a replayed log this way; the ranking makes a
/// handful of allocations per call, none per player or per game.
pub fn rank_keyed<'a, G, K>(
    games: &'a [G],
    aggregation: Aggregation,
    rows: impl Fn(&'a G) -> &'a [PlayerGameScore],
    key: impl Fn(&'a G, usize) -> K,
) -> Vec<Standing<K>>
where
    K: Copy + Ord + Hash,
{
    // Each game's finishing scores, one after another, and each row's player slot.
    let mut finishers: Vec<f64> = Vec::new();
    let mut finisher_ends: Vec<usize> = Vec::with_capacity(games.len());
    let mut order = Vec::new();
    let mut index: FxHashMap<K, usize> = FxHashMap::default();
    let mut players: Vec<K> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    let mut slots: Vec<usize> = Vec::new();
    for game in games {
        let rows = rows(game);
        push_finishing_scores(rows, &mut order, &mut finishers);
        finisher_ends.push(finishers.len());
        for row in 0..rows.len() {
            let player = key(game, row);
            let slot = *index.entry(player).or_insert_with(|| {
                players.push(player);
                counts.push(0);
                players.len() - 1
            });
            counts[slot] += 1;
            slots.push(slot);
        }
    }
    // Every player's games in one list, grouped by player in order of first appearance,
    // each player's in game order.
    let mut refs: Vec<GameRef<'_>> = Vec::with_capacity(slots.len());
    let mut slots = slots.into_iter();
    let mut start = 0;
    for (order, game) in games.iter().enumerate() {
        let end = finisher_ends[order];
        let game_finishers = &finishers[start..end];
        start = end;
        for row in rows(game) {
            let slot = slots.next().expect("one slot per row");
            refs.push(GameRef {
                row,
                finishers: game_finishers,
                order,
                slot,
                micro: micro(row.score),
            });
        }
    }
    // Stable: each player's games stay in game order.
    refs.sort_by_key(|g| g.slot);
    let mut records: Vec<Record<K>> = Vec::with_capacity(players.len());
    let mut first = 0;
    for (player, count) in players.iter().zip(&counts) {
        let games = &mut refs[first..first + count];
        records.push(Record::new(*player, first, games, aggregation));
        first += count;
    }
    records.sort_by(|a, b| {
        compare_records(b, a, &refs).ordering.then_with(|| a.player.cmp(&b.player))
    });
    let mut standings: Vec<Standing<K>> = Vec::with_capacity(records.len());
    let mut between: Vec<Option<TieBreak>> = Vec::with_capacity(records.len());
    for (place, record) in records.iter().enumerate() {
        let above = (place > 0).then(|| compare_records(&records[place - 1], record, &refs));
        between.push(above.and_then(|decision| decision.by));
        let rank = match above {
            Some(decision) if decision.ordering.is_eq() => {
                standings.last().map_or(1, |previous| previous.rank)
            }
            _ => place as u32 + 1,
        };
        standings.push(Standing {
            rank,
            player: record.player,
            // Exact thousandths: the float sum's noise (121.49199999999999) never shows.
            total: from_thousandths(record.key),
            wins: record.wins,
            draws: record.draws,
            games: record.played,
            counted: matches!(aggregation, Aggregation::BestN { .. })
                .then_some(record.counted as u32),
            separated_by: None,
        });
    }
    let ranks: Vec<u32> = standings.iter().map(|standing| standing.rank).collect();
    for (standing, shown) in standings.iter_mut().zip(shown_tie_breaks(&ranks, &between)) {
        standing.separated_by = shown;
    }
    standings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DiplomacyEntry, GameResult, PlacementEntry, ScoringSystem, score_game};

    fn row(
        player: &str,
        score: f64,
        outcome: Outcome,
        position: u32,
        sharing: u32,
    ) -> PlayerGameScore {
        PlayerGameScore {
            player: player.to_owned(),
            score,
            outcome,
            explanation: Vec::new(),
            position,
            sharing,
            eliminated_year: None,
        }
    }

    fn placement(points: &[(&str, f64)]) -> ScoredGame {
        let entries = points
            .iter()
            .map(|(player, points)| PlacementEntry {
                player: (*player).to_owned(),
                points: *points,
            })
            .collect();
        score_game(ScoringSystem::Placement, &GameResult::Placement(entries)).unwrap()
    }

    /// Totals are exact thousandths: sums whose binary floating-point value is noisy come
    /// out, and serialise, as the decimal total.
    #[test]
    fn totals_are_exact_thousandths() {
        let games: Vec<ScoredGame> = [41.848, 41.848, 37.796]
            .iter()
            .map(|&score| ScoredGame {
                system: ScoringSystem::Baf,
                players: vec![
                    row("A", score, Outcome::Draw, 1, 2),
                    row("B", 0.1, Outcome::Draw, 1, 2),
                ],
            })
            .collect();
        assert_ne!(41.848 + 41.848 + 37.796, 121.492, "the float sum itself is noisy");
        let standings = rank(&games, Aggregation::Sum);
        assert_eq!(standings[0].total, 121.492);
        assert_eq!(standings[0].total_thousandths(), 121_492);
        assert_eq!(standings[1].total_thousandths(), 300);
        let json = serde_json::to_string(&standings).unwrap();
        assert!(json.contains(r#""total":121.492"#), "{json}");
        assert!(json.contains(r#""total":0.3"#), "{json}");
    }

    fn ranks(standings: &[Standing]) -> Vec<(u32, &str)> {
        standings.iter().map(|s| (s.rank, s.player.as_str())).collect()
    }

    /// DAANZ part 4.1: a loss is below an elimination or a draw "even though more
    /// tournament points may be gained".
    #[test]
    fn seed_001_part_4_1_class_beats_points() {
        let loss = row("A", 50.0, Outcome::Loss, 2, 1);
        let elimination = row("B", 0.0, Outcome::Elimination, 7, 1);
        let draw = row("C", 1.0, Outcome::Draw, 6, 1);
        let win = row("D", 1.0, Outcome::Win, 1, 1);
        assert_eq!(compare_games(&elimination, &[], &loss, &[]), Ordering::Greater);
        assert_eq!(compare_games(&draw, &[], &elimination, &[]), Ordering::Greater);
        assert_eq!(compare_games(&win, &[], &draw, &[]), Ordering::Greater);
    }

    /// DAANZ part 4.2–4.3: points first, then position: an equal 1st is behind an
    /// outright 1st but ahead of a 2nd; equal 2nd with 2 beats equal 2nd with 3.
    #[test]
    fn seed_001_part_4_3_position() {
        let outright_first = row("A", 20.0, Outcome::Draw, 1, 1);
        let shared_first = row("B", 20.0, Outcome::Draw, 1, 2);
        let second = row("C", 20.0, Outcome::Draw, 2, 1);
        let second_of_two = row("D", 20.0, Outcome::Draw, 2, 2);
        let second_of_three = row("E", 20.0, Outcome::Draw, 2, 3);
        assert_eq!(compare_games(&outright_first, &[], &shared_first, &[]), Ordering::Greater);
        assert_eq!(compare_games(&shared_first, &[], &second, &[]), Ordering::Greater);
        assert_eq!(compare_games(&second_of_two, &[], &second_of_three, &[]), Ordering::Greater);
        let more_points = row("F", 20.5, Outcome::Draw, 3, 1);
        assert_eq!(compare_games(&more_points, &[], &outright_first, &[]), Ordering::Greater);
    }

    /// DAANZ part 4.4: if both eliminated, the longer survival (later year) is better.
    #[test]
    fn seed_001_part_4_4_longest_survival() {
        let mut early = row("A", 0.0, Outcome::Elimination, 6, 2);
        let mut late = row("B", 0.0, Outcome::Elimination, 6, 2);
        early.eliminated_year = Some(1903);
        late.eliminated_year = Some(1907);
        assert_eq!(compare_games(&late, &[], &early, &[]), Ordering::Greater);
    }

    /// DAANZ part 4.5–4.6: own score minus the 1st finisher's, then the 2nd's, … .
    #[test]
    fn seed_001_part_4_5_gap_to_finishers() {
        let a = row("A", 10.0, Outcome::Draw, 3, 1);
        let b = row("B", 10.0, Outcome::Draw, 3, 1);
        // A's game leader scored 30, B's 40: A is closer to the top.
        assert_eq!(
            compare_games(&a, &[30.0, 20.0, 10.0], &b, &[40.0, 15.0, 10.0]),
            Ordering::Greater
        );
        // Same leader: the 2nd finisher decides.
        assert_eq!(compare_games(&a, &[30.0, 25.0, 10.0], &b, &[30.0, 20.0, 10.0]), Ordering::Less);
    }

    /// DAANZ part 3: most points first; level players share the rank (1, 2, 2, 4).
    #[test]
    fn seed_001_part_3_totals_and_shared_ranks() {
        let games = [placement(&[("A", 9.0), ("B", 5.0), ("C", 5.0), ("D", 1.0)])];
        let standings = rank(&games, Aggregation::Sum);
        assert_eq!(ranks(&standings), [(1, "A"), (2, "B"), (2, "C"), (4, "D")]);
        assert_eq!(standings[0].total, 12.0);
        assert_eq!((standings[0].wins, standings[1].draws, standings[1].games), (1, 0, 1));
    }

    /// DAANZ part 3.1: equal totals → most wins. A: outright first (6) and last (0);
    /// B: second three times (2 + 2 + 2); both total 6, A has the win.
    #[test]
    fn seed_001_part_3_1_most_wins() {
        let games = [
            placement(&[("A", 3.0), ("B", 2.0), ("C", 1.0)]),
            placement(&[("C", 3.0), ("B", 2.0), ("A", 1.0)]),
            placement(&[("C", 3.0), ("B", 2.0), ("D", 1.0)]),
        ];
        let standings = rank(&games, Aggregation::Sum);
        let a = standings.iter().find(|s| s.player == "A").unwrap();
        let b = standings.iter().find(|s| s.player == "B").unwrap();
        assert_eq!((a.total, b.total), (6.0, 6.0));
        assert!(a.rank < b.rank, "{standings:?}");
        assert_eq!(ranks(&standings)[0], (1, "C"));
        assert_eq!((a.separated_by, b.separated_by), (Some(TieBreak::MoreWins), a.separated_by));
        assert_eq!(standings[0].separated_by, None, "C is alone on 9");
    }

    /// DAANZ part 3.2: equal totals and wins → most drawn games (shared first is a draw).
    #[test]
    fn seed_001_part_3_2_most_draws() {
        let games = [
            // A and X share first: (6 + 2) / 2 = 4 each, a draw for both.
            placement(&[("A", 5.0), ("X", 5.0), ("Y", 1.0)]),
            // B: second alone (2) twice.
            placement(&[("Z", 5.0), ("B", 3.0), ("Y", 1.0)]),
            placement(&[("Z", 5.0), ("B", 3.0), ("Y", 1.0)]),
        ];
        let standings = rank(&games, Aggregation::Sum);
        let a = standings.iter().find(|s| s.player == "A").unwrap();
        let b = standings.iter().find(|s| s.player == "B").unwrap();
        assert_eq!((a.total, b.total, a.wins, b.wins, a.draws), (4.0, 4.0, 0, 0, 1));
        assert!(a.rank < b.rank, "{standings:?}");
        assert_eq!((a.separated_by, b.separated_by), (Some(TieBreak::MoreDraws), a.separated_by));
        let x = standings.iter().find(|s| s.player == "X").unwrap();
        assert_eq!((x.rank, x.separated_by), (a.rank, a.separated_by), "X shares A's rank");
    }

    /// DAANZ part 3.3: equal totals, wins and draws → the better best game. Same points
    /// everywhere, but A's best game is a 2nd place and B's best only a 3rd.
    #[test]
    fn seed_001_part_3_3_better_best_game() {
        let a = row("A", 10.0, Outcome::Draw, 2, 1);
        let a2 = row("A", 10.0, Outcome::Draw, 5, 1);
        let b = row("B", 10.0, Outcome::Draw, 3, 1);
        let b2 = row("B", 10.0, Outcome::Draw, 3, 1);
        let game = |rows: Vec<PlayerGameScore>| ScoredGame {
            system: ScoringSystem::Squares,
            players: rows,
        };
        let games = [game(vec![a, b]), game(vec![a2, b2])];
        let standings = rank(&games, Aggregation::Sum);
        assert_eq!(ranks(&standings), [(1, "A"), (2, "B")]);
        let shown: Vec<_> = standings.iter().map(|s| s.separated_by).collect();
        assert_eq!(shown, [Some(TieBreak::BetterBestGame); 2]);
        // Identical records: finished equal, listed by name, no tie-breaker named.
        let twins =
            [game(vec![row("Y", 5.0, Outcome::Draw, 1, 2), row("X", 5.0, Outcome::Draw, 1, 2)])];
        let standings = rank(&twins, Aggregation::Sum);
        assert_eq!(ranks(&standings), [(1, "X"), (1, "Y")]);
        assert!(standings.iter().all(|s| s.separated_by.is_none()));
    }

    /// DAANZ part 3.4: equal totals, wins, draws and best game → the better second-best
    /// game. Both have a 2nd place (20) as their best; A's other game is a 3rd place, B's a 4th.
    #[test]
    fn seed_001_part_3_4_better_second_best_game() {
        let game = |rows: Vec<PlayerGameScore>| ScoredGame {
            system: ScoringSystem::Squares,
            players: rows,
        };
        let games = [
            game(vec![row("A", 20.0, Outcome::Draw, 2, 1), row("B", 20.0, Outcome::Draw, 2, 1)]),
            game(vec![row("A", 5.0, Outcome::Draw, 3, 1), row("B", 5.0, Outcome::Draw, 4, 1)]),
        ];
        let standings = rank(&games, Aggregation::Sum);
        assert_eq!(ranks(&standings), [(1, "A"), (2, "B")]);
        assert_eq!(standings[1].separated_by, Some(TieBreak::BetterSecondBestGame));
    }

    /// A run of equal totals split by different tie-breakers names each split: a line shows
    /// the split from the line above, the run's first line the split from the line below, and
    /// lines level all the way (shared rank) name nothing between them.
    #[test]
    fn each_split_in_a_run_of_equal_totals_is_named() {
        use TieBreak::{MoreDraws, MoreWins};
        // 1st ahead of 2nd on wins, 2nd of 3rd on draws; 4th and 5th are behind on total.
        let between = [None, Some(MoreWins), Some(MoreDraws), None, None];
        assert_eq!(
            shown_tie_breaks(&[1, 2, 3, 4, 5], &between),
            [Some(MoreWins), Some(MoreWins), Some(MoreDraws), None, None]
        );
        // Two sharing 1st, then one level on total behind them on draws: all three name it.
        assert_eq!(
            shown_tie_breaks(&[1, 1, 3], &[None, None, Some(MoreDraws)]),
            [Some(MoreDraws); 3]
        );
        // Two sharing 1st on a total nobody else has: nothing split them.
        assert_eq!(shown_tie_breaks(&[1, 1, 3], &[None, None, None]), [None; 3]);
        assert_eq!(TieBreak::ALL.map(TieBreak::label)[0], "more wins");
    }

    /// Totals equal on paper compare equal although binary sums differ (0.1 + 0.2 vs 0.3).
    #[test]
    fn totals_compare_in_millionths() {
        let game = |rows: Vec<PlayerGameScore>| ScoredGame {
            system: ScoringSystem::Detour98f,
            players: rows,
        };
        let games = [
            game(vec![row("A", 0.1, Outcome::Draw, 1, 1), row("B", 0.3, Outcome::Draw, 1, 1)]),
            game(vec![row("A", 0.2, Outcome::Draw, 1, 1)]),
        ];
        assert_ne!(0.1 + 0.2, 0.3);
        let standings = rank(&games, Aggregation::Sum);
        // A has two draws to B's one, so A is ahead only through the draws tie-breaker.
        assert_eq!(ranks(&standings), [(1, "A"), (2, "B")]);
        assert_eq!(standings[0].draws, 2);
    }

    /// The hardware rounding is `f64::round` (half away from zero, saturating, NaN to 0).
    #[test]
    fn rounding_matches_f64_round() {
        let cases = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            4_503_599_627_370_495.5,
            9.3e18,
            -9.3e18,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            121_491.999_999_999_99,
            41.848 * 1_000_000.0,
        ];
        for x in cases {
            assert_eq!(round_half_away(x), x.round() as i64, "{x}");
        }
        for step in 0..20_000 {
            let x = (f64::from(step) - 10_000.0) * 0.05 + 1e-9 * f64::from(step % 7);
            assert_eq!(round_half_away(x), x.round() as i64, "{x}");
        }
    }

    /// Finishing order for part 4.5 uses zero for eliminated players (DAANZ part 4.6).
    #[test]
    fn finishing_scores_zero_eliminated() {
        let entries: Vec<DiplomacyEntry> = [10, 8, 6, 5, 3, 2, 0]
            .iter()
            .enumerate()
            .map(|(i, &centres)| DiplomacyEntry {
                eliminated_year: (centres == 0).then_some(1908),
                ..DiplomacyEntry::new(format!("P{i}"), centres)
            })
            .collect();
        let game = score_game(ScoringSystem::Detour98f, &GameResult::Diplomacy(entries)).unwrap();
        assert!(game.players[6].score > 0.0, "eliminated after 1905 keeps the survival point");
        let order = finishing_scores(&game);
        assert_eq!(order[0], game.players[0].score);
        assert_eq!(order[6], 0.0);
    }
}
