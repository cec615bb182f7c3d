//! Scores with typed identities. The scoring crate knows players as opaque strings and
//! returns a game's scores in the order of the result's rows; here each row is matched to
//! the seated [`PlayerId`] whose key it carries, and standings are ranked by `PlayerId`
//! ([`league_scoring::rank_standings_keyed`]) and come back keyed by it, so no caller ever
//! parses a player string back into an id and no ranking hashes or copies one
//! (`docs/scoring.md#standings-and-tie-breakers`).

use league_scoring::{Aggregation, PlayerGameScore, ScoredGame, TieBreak, rank_standings_keyed};

use crate::ids::PlayerId;

/// Length of a player key: a hyphenated UUID ([`crate::player_key`]).
const KEY_LEN: usize = uuid::fmt::Hyphenated::LENGTH;

/// A scored game that does not fit its game's seats: only a log that contradicts itself
/// (results are checked against the seats before they are stored) gives one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("result row {row} names {key:?}, who is not seated in the game")]
    NotSeated { row: usize, key: String },
    #[error("the result misses seated player {0}")]
    MissingSeat(PlayerId),
}

/// One game's scores (the scoring crate's rows, in result order) with the typed id of each
/// row: `players()[i]` is the player of `scored().players[i]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredResult {
    scored: ScoredGame,
    players: Vec<PlayerId>,
}

impl ScoredResult {
    /// Matches every row of `scored` to the seat whose player key it names; every seat must
    /// be named exactly once.
    pub fn new(
        scored: ScoredGame,
        seats: impl IntoIterator<Item = PlayerId, IntoIter: Clone>,
    ) -> Result<ScoredResult, ScoreError> {
        let seats = seats.into_iter();
        let players = scored
            .players
            .iter()
            .enumerate()
            .map(|(row, score)| {
                seat_of_key(&score.player, seats.clone())
                    .ok_or_else(|| ScoreError::NotSeated { row, key: score.player.clone() })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(missing) = seats.clone().find(|seat| !players.contains(seat)) {
            return Err(ScoreError::MissingSeat(missing));
        }
        Ok(ScoredResult { scored, players })
    }

    /// The scoring crate's answer.
    pub fn scored(&self) -> &ScoredGame {
        &self.scored
    }

    /// The scoring crate's answer and each row's player, taken apart.
    pub fn into_parts(self) -> (ScoredGame, Vec<PlayerId>) {
        (self.scored, self.players)
    }

    /// Each row with its player, in result order.
    pub fn rows(&self) -> impl Iterator<Item = (PlayerId, &PlayerGameScore)> {
        self.players.iter().copied().zip(&self.scored.players)
    }

    /// One player's row.
    pub fn of(&self, player: PlayerId) -> Option<&PlayerGameScore> {
        self.rows().find(|(id, _)| *id == player).map(|(_, row)| row)
    }

    /// Each seated player's score, in the order of `seats`.
    pub fn in_seat_order(&self, seats: impl IntoIterator<Item = PlayerId>) -> Vec<(PlayerId, f64)> {
        seats.into_iter().filter_map(|seat| self.of(seat).map(|row| (seat, row.score))).collect()
    }
}

/// The seat whose player key is exactly `key` (the canonical key of [`crate::player_key`]).
/// The key is parsed once, which is the same as comparing it with every seat's key without
/// encoding any seat (this runs for every row of every result of a replay): of the forms the
/// parser accepts only the hyphenated one is [`KEY_LEN`] long, so a key of that length that
/// parses and has no upper-case hex digit is the canonical text of its id.
fn seat_of_key(key: &str, mut seats: impl Iterator<Item = PlayerId>) -> Option<PlayerId> {
    if key.len() != KEY_LEN || key.bytes().any(|byte| byte.is_ascii_uppercase()) {
        return None;
    }
    let id = key.parse::<PlayerId>().ok()?;
    seats.any(|seat| seat == id).then_some(id)
}

/// One line of a league's standings.
#[derive(Debug, Clone, PartialEq)]
pub struct StandingRow {
    /// Competition rank (1, 2, 2, 4) after the scoring crate's tie-breakers.
    pub rank: u32,
    pub player: PlayerId,
    pub total: f64,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    /// Under best N: the games the total counts; `None` when every game counts
    /// (`docs/scoring.md#league-aggregation`).
    pub counted: Option<u32>,
    /// The tie-breaker that split this line from a neighbour level on total
    /// (`docs/scoring.md#standings-and-tie-breakers`); `None` when the total alone ranks it.
    pub separated_by: Option<TieBreak>,
}

/// A league's scored games, each with the typed id of every row: what standings are
/// ranked from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoredGames {
    games: Vec<ScoredResult>,
}

impl ScoredGames {
    /// Adds a game; returns its index (for [`ScoredGames::replace`]).
    pub fn push(&mut self, game: ScoredResult) -> usize {
        self.games.push(game);
        self.games.len() - 1
    }

    /// Replaces the game at `index` (a corrected result); pushes it if there is none.
    pub fn replace(&mut self, index: usize, game: ScoredResult) -> usize {
        match self.games.get_mut(index) {
            Some(slot) => {
                *slot = game;
                index
            }
            None => self.push(game),
        }
    }

    pub fn as_slice(&self) -> &[ScoredResult] {
        &self.games
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Every player of `roster` ranked under `aggregation` with the scoring crate's
    /// tie-breakers (`docs/scoring.md#league-aggregation`). Players without a result yet come
    /// last, sharing one rank (with no best game they lose every tie-breaker to a player who
    /// has one, `docs/scoring.md#standings-and-tie-breakers`), so a league table is never
    /// missing anyone.
    ///
    /// Ranked by typed id, never by player string: the ids are the rows' canonical keys
    /// ([`crate::player_key`], checked by [`ScoredResult::new`]), and the hyphenated
    /// lower-case text of a UUID sorts as its bytes do, so players level after every
    /// tie-breaker are listed in the same order as by name.
    pub fn standings(&self, roster: &[PlayerId], aggregation: Aggregation) -> Vec<StandingRow> {
        let ranked = rank_standings_keyed(
            &self.games,
            aggregation,
            |game| &game.scored.players,
            |game, row| game.players[row],
        );
        let mut rows: Vec<StandingRow> = Vec::with_capacity(ranked.len().max(roster.len()));
        rows.extend(ranked.into_iter().map(|standing| StandingRow {
            rank: standing.rank,
            player: standing.player,
            total: standing.total,
            played: standing.games,
            wins: standing.wins,
            draws: standing.draws,
            counted: standing.counted,
            separated_by: standing.separated_by,
        }));
        let played = rows.len();
        let unplayed_rank = played as u32 + 1;
        for player in roster {
            if !rows[..played].iter().any(|row| row.player == *player) {
                rows.push(StandingRow {
                    rank: unplayed_rank,
                    player: *player,
                    total: 0.0,
                    played: 0,
                    wins: 0,
                    draws: 0,
                    counted: matches!(aggregation, Aggregation::BestN { .. }).then_some(0),
                    separated_by: None,
                });
            }
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use league_scoring::{GameResult, PlacementEntry, ScoringSystem, score_game};
    use uuid::Uuid;

    use super::*;

    fn id(n: u128) -> PlayerId {
        PlayerId::new(Uuid::from_u128(n))
    }

    /// A placement game where `players[i]` scored `10 - i` points.
    fn scored(players: &[PlayerId]) -> ScoredGame {
        let entries = players
            .iter()
            .enumerate()
            .map(|(i, p)| PlacementEntry { player: p.to_string(), points: 10.0 - i as f64 })
            .collect();
        score_game(ScoringSystem::Placement, &GameResult::Placement(entries)).unwrap()
    }

    #[test]
    fn rows_are_matched_to_seats_whatever_their_order() {
        let result = ScoredResult::new(scored(&[id(2), id(1)]), [id(1), id(2)]).unwrap();
        assert_eq!(result.rows().map(|(player, _)| player).collect::<Vec<_>>(), [id(2), id(1)]);
        // docs/scoring.md#placement, 2 players: 1st 2, 2nd 0.
        assert_eq!(result.in_seat_order([id(1), id(2)]), [(id(1), 0.0), (id(2), 2.0)]);
    }

    #[test]
    fn a_row_of_an_unseated_player_or_a_missing_seat_is_refused() {
        let error = ScoredResult::new(scored(&[id(1), id(3)]), [id(1), id(2)]).unwrap_err();
        assert_eq!(error, ScoreError::NotSeated { row: 1, key: id(3).to_string() });
        let error = ScoredResult::new(scored(&[id(1), id(2)]), [id(1), id(2), id(3)]);
        assert_eq!(error.unwrap_err(), ScoreError::MissingSeat(id(3)));
    }

    #[test]
    fn only_the_canonical_key_of_a_seat_matches_it() {
        let seats = [id(0xAB), id(2)];
        let with_key = |key: String| {
            let mut game = scored(&[id(0xAB), id(2)]);
            game.players[0].player = key;
            ScoredResult::new(game, seats)
        };
        assert!(with_key(id(0xAB).uuid().hyphenated().to_string()).is_ok());
        for other in [
            id(0xAB).uuid().hyphenated().to_string().to_uppercase(),
            id(0xAB).uuid().simple().to_string(),
            id(0xAB).uuid().braced().to_string(),
            format!(" {}", id(0xAB).uuid().hyphenated()),
        ] {
            let error = with_key(other.clone()).unwrap_err();
            assert_eq!(error, ScoreError::NotSeated { row: 0, key: other });
        }
    }

    /// Ranked by typed id, the standings are the scoring crate's ranking of the same games by
    /// player key, line for line, level players included (listed as their keys sort).
    #[test]
    fn standings_by_id_are_the_ranking_by_player_key() {
        use league_scoring::rank_standings_with;
        let (a, b, c) = (id(0xAB), id(2), id(1 << 100));
        let games =
            [scored(&[a, b, c]), scored(&[b, a, c]), scored(&[c, b, a]), scored(&[c, a, b])];
        let mut typed = ScoredGames::default();
        for game in &games {
            let seats: Vec<PlayerId> =
                game.players.iter().map(|row| row.player.parse().unwrap()).collect();
            typed.push(ScoredResult::new(game.clone(), seats).unwrap());
        }
        for aggregation in [Aggregation::Sum, Aggregation::BestN { n: 2 }, Aggregation::Average] {
            let by_id: Vec<(u32, String, i64)> = typed
                .standings(&[a, b, c], aggregation)
                .iter()
                .map(|row| (row.rank, row.player.to_string(), (row.total * 1000.0).round() as i64))
                .collect();
            let by_key: Vec<(u32, String, i64)> = rank_standings_with(&games, aggregation)
                .into_iter()
                .map(|line| (line.rank, line.total_thousandths(), line.player))
                .map(|(rank, total, player)| (rank, player, total))
                .collect();
            assert_eq!(by_id, by_key, "{aggregation}");
        }
        // c leads; a and b are level after every tie-breaker: listed as their keys sort
        // ("…02" before "…ab"), which is the ids' own order.
        let sum = typed.standings(&[a, b, c], Aggregation::Sum);
        assert_eq!((sum[0].player, sum[1].rank, sum[2].rank), (c, 2, 2));
        assert_eq!((sum[1].player, sum[2].player), (b, a));
    }

    #[test]
    fn standings_are_keyed_by_player_id_with_unplayed_players_last() {
        let mut games = ScoredGames::default();
        games.push(ScoredResult::new(scored(&[id(2), id(1)]), [id(1), id(2)]).unwrap());
        let rows = games.standings(&[id(1), id(2), id(3)], Aggregation::Sum);
        let ranks: Vec<(u32, PlayerId, u32)> =
            rows.iter().map(|row| (row.rank, row.player, row.played)).collect();
        assert_eq!(ranks, [(1, id(2), 1), (2, id(1), 1), (3, id(3), 0)]);
    }
}

/// A game's or board's result as an event records it: the competition (league or
/// tournament), the game or board, the result, and whether it replaced an earlier one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordedResult<'a> {
    pub competition: uuid::Uuid,
    pub game: uuid::Uuid,
    pub result: &'a league_scoring::GameResult,
    pub correction: bool,
}

/// What an event of a competition changes beyond its own stream's state: whether its
/// standings move, and the result it records (a result always moves them).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Effects<'a> {
    pub moves_standings: bool,
    pub result: Option<RecordedResult<'a>>,
}

impl<'a> Effects<'a> {
    /// Nothing beyond the stream's own state.
    pub const NONE: Effects<'static> = Effects { moves_standings: false, result: None };
    /// The standings move (the roster or the seating changed), no result is recorded.
    pub const MOVES_STANDINGS: Effects<'static> = Effects { moves_standings: true, result: None };

    /// A result reported (`correction` false) or corrected for `game` of `competition`.
    pub fn result(
        competition: uuid::Uuid,
        game: uuid::Uuid,
        result: &'a league_scoring::GameResult,
        correction: bool,
    ) -> Effects<'a> {
        let result = RecordedResult { competition, game, result, correction };
        Effects { moves_standings: true, result: Some(result) }
    }
}
