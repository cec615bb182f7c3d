//! Series standings (`docs/series.md`): each player's best N results over a series' member
//! events (tournaments and leagues), a result being rank points for the finishing position
//! (`players ranked − rank + 1`) or the event's own total, and the attendance grid (player ×
//! event: the result, or absent). Pure: the caller passes each member event's current
//! standings, so the series moves as soon as any of them does.

use std::cmp::Reverse;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{from_thousandths, thousandths};

/// What a player's result in one member event is worth in the series (`docs/series.md#basis`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SeriesBasis {
    /// Points for the finishing position: the number of players the event ranks, minus the
    /// player's rank, plus one (1st of 22 → 22, 22nd → 1). Players sharing a rank share its
    /// points.
    RankPoints,
    /// The player's total in the event's own standings, as the event scored it.
    Score,
}

impl SeriesBasis {
    /// Every basis, in declaration order.
    pub const ALL: [SeriesBasis; 2] = [SeriesBasis::RankPoints, SeriesBasis::Score];

    /// The name the CLI and the stored payloads use.
    pub const fn name(self) -> &'static str {
        match self {
            SeriesBasis::RankPoints => "rank-points",
            SeriesBasis::Score => "score",
        }
    }
}

impl fmt::Display for SeriesBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SeriesBasis {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        SeriesBasis::ALL
            .into_iter()
            .find(|basis| basis.name() == text)
            .ok_or_else(|| format!("unknown series basis {text:?}: rank-points or score"))
    }
}

/// One player's line in a member event's standings, as the series reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct EventPlacing<K> {
    pub player: K,
    /// The event's competition rank (players level share it).
    pub rank: u32,
    /// The player's total in the event.
    pub total: f64,
    /// Whether the player played in the event (a game or a board); a player who did not is
    /// absent from it.
    pub played: bool,
}

/// A player's result in one member event, as the attendance grid shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesCell {
    /// The event's rank of the player.
    pub rank: u32,
    /// What the result is worth in the series (rank points or the event's total).
    pub points: f64,
    /// Whether it is one of the player's best N (counted in the series total).
    pub counted: bool,
}

/// A player's line in the series standings, with their row of the attendance grid.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesStanding<K> {
    /// Competition rank: players with equal totals share it (1, 2, 2, 4).
    pub rank: u32,
    pub player: K,
    /// The sum of the counted results, exact to a thousandth.
    pub total: f64,
    /// Events the player attended.
    pub attended: u32,
    /// One cell per member event, in the series' order: `None` where the player was absent.
    pub cells: Vec<Option<SeriesCell>>,
}

/// The series standings over `events` (each member event's standings, in the series' order)
/// counting each player's best `best` results on `basis`. Players are ranked by total, high
/// first; equal totals share a rank and are listed in key order. Among equal results the
/// earlier event is the one counted (the total is the same either way).
pub fn series_standings<K: Ord + Clone>(
    events: &[Vec<EventPlacing<K>>],
    basis: SeriesBasis,
    best: u32,
) -> Vec<SeriesStanding<K>> {
    let mut rows: std::collections::BTreeMap<K, Vec<Option<SeriesCell>>> = Default::default();
    for (index, placings) in events.iter().enumerate() {
        let ranked = u32::try_from(placings.len()).unwrap_or(u32::MAX);
        for placing in placings.iter().filter(|placing| placing.played) {
            let points = match basis {
                SeriesBasis::RankPoints => f64::from((ranked + 1).saturating_sub(placing.rank)),
                SeriesBasis::Score => placing.total,
            };
            let cells =
                rows.entry(placing.player.clone()).or_insert_with(|| vec![None; events.len()]);
            cells[index] = Some(SeriesCell { rank: placing.rank, points, counted: false });
        }
    }
    let mut standings: Vec<(i64, SeriesStanding<K>)> = rows
        .into_iter()
        .map(|(player, mut cells)| {
            let mut present: Vec<usize> =
                (0..cells.len()).filter(|i| cells[*i].is_some()).collect();
            let points = |i: &usize| cells[*i].map_or(0, |cell| thousandths(cell.points));
            present.sort_by_key(|i| (Reverse(points(i)), *i));
            present.truncate(best as usize);
            let total: i64 = present.iter().map(points).sum();
            for i in present {
                if let Some(cell) = cells[i].as_mut() {
                    cell.counted = true;
                }
            }
            let attended = cells.iter().filter(|cell| cell.is_some()).count() as u32;
            let total_points = from_thousandths(total);
            (total, SeriesStanding { rank: 0, player, total: total_points, attended, cells })
        })
        .collect();
    standings.sort_by(|(a, x), (b, y)| b.cmp(a).then_with(|| x.player.cmp(&y.player)));
    let mut previous = None;
    let mut rank = 0;
    for (position, (total, standing)) in standings.iter_mut().enumerate() {
        if previous != Some(*total) {
            rank = position as u32 + 1;
            previous = Some(*total);
        }
        standing.rank = rank;
    }
    standings.into_iter().map(|(_, standing)| standing).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placings(lines: &[(&'static str, u32, f64)]) -> Vec<EventPlacing<&'static str>> {
        lines
            .iter()
            .map(|&(player, rank, total)| EventPlacing { player, rank, total, played: true })
            .collect()
    }

    /// The worked example of `docs/series.md#worked-example`: three events, best two.
    fn example() -> Vec<Vec<EventPlacing<&'static str>>> {
        vec![
            placings(&[("Ann", 1, 60.0), ("Bob", 2, 45.5), ("Cat", 3, 30.0), ("Dan", 4, 12.0)]),
            placings(&[("Bob", 1, 70.0), ("Dan", 2, 50.0), ("Ann", 3, 20.0)]),
            placings(&[("Cat", 1, 80.0), ("Ann", 2, 40.0), ("Dan", 3, 5.0)]),
        ]
    }

    fn summary(rows: &[SeriesStanding<&'static str>]) -> Vec<(u32, &'static str, f64, u32)> {
        rows.iter().map(|row| (row.rank, row.player, row.total, row.attended)).collect()
    }

    #[test]
    fn rank_points_count_each_players_best_two_and_equal_totals_share_a_rank() {
        let rows = series_standings(&example(), SeriesBasis::RankPoints, 2);
        assert_eq!(
            summary(&rows),
            vec![(1, "Ann", 6.0, 3), (1, "Bob", 6.0, 2), (3, "Cat", 5.0, 2), (4, "Dan", 3.0, 3),]
        );
        let ann = &rows[0].cells;
        assert_eq!(ann[0], Some(SeriesCell { rank: 1, points: 4.0, counted: true }));
        assert_eq!(ann[1], Some(SeriesCell { rank: 3, points: 1.0, counted: false }));
        assert_eq!(ann[2], Some(SeriesCell { rank: 2, points: 2.0, counted: true }));
        // Dan's 1 point in the first and the third event: the earlier is counted.
        let dan = &rows[3].cells;
        assert_eq!(
            dan.iter().map(|cell| cell.unwrap().counted).collect::<Vec<_>>(),
            [true, true, false]
        );
        assert_eq!(rows[2].cells[1], None, "Cat missed the second event");
    }

    #[test]
    fn scores_count_the_events_own_totals() {
        let rows = series_standings(&example(), SeriesBasis::Score, 2);
        assert_eq!(
            summary(&rows),
            vec![
                (1, "Bob", 115.5, 2),
                (2, "Cat", 110.0, 2),
                (3, "Ann", 100.0, 3),
                (4, "Dan", 62.0, 3),
            ]
        );
    }

    #[test]
    fn a_player_who_played_nothing_is_absent_and_best_one_keeps_the_highest() {
        let mut events = example();
        events[2].push(EventPlacing { player: "Eve", rank: 3, total: 0.0, played: false });
        let rows = series_standings(&events, SeriesBasis::RankPoints, 1);
        assert!(rows.iter().all(|row| row.player != "Eve"));
        let ann = rows.iter().find(|row| row.player == "Ann").unwrap();
        assert_eq!(ann.total, 4.0);
        // Eve still counts among the players the third event ranks: Cat's 1st is worth 4.
        let cat = rows.iter().find(|row| row.player == "Cat").unwrap();
        assert_eq!(cat.cells[2].unwrap().points, 4.0);
    }

    #[test]
    fn bases_read_back_from_their_names() {
        for basis in SeriesBasis::ALL {
            assert_eq!(basis.name().parse::<SeriesBasis>(), Ok(basis));
        }
        assert!("points".parse::<SeriesBasis>().is_err());
    }
}
