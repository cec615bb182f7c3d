//! [`Ratings`]: every player's rating at every game kind, with the history of each change
//! by log position (`docs/ratings.md#order-and-corrections`).
//!
//! Games are rated in the order their results were first reported. A correction replaces
//! that game's outcome and re-rates it and every later game of the same kind, because each
//! of those started from ratings the corrected game had moved; the players whose rating
//! changes get one history entry at the correction's position. That costs one Weng–Lin
//! update per later game of the kind (corrections are rare), and keeps the answer equal to
//! rating the corrected history from scratch.
//!
//! Memory is bounded by what the answers need (`docs/ratings.md#memory`): a gateway keeps
//! every rated game of the log, so the per-game cost is what counts. Players and games are
//! interned to `u32` indices per kind (one `Uuid` each); every rating the model computes
//! is one [`State`] in one arena, named by index from the game's seats (the rating before
//! the game, for a correction's roll back), from a player's current rating and from their
//! history; a game's seats are a range of one flat arena; and every result's position is
//! kept once, for every change it made.
//!
//! A ledger may also keep only a recent *window* of results ([`Ratings::forget`], the
//! images of [`LedgerImage`](crate::LedgerImage)): the games before it are forgotten and their
//! effect is kept as each player's *base* rating, the rating as of the window's start. Such a
//! ledger answers ratings now and as of any position in the window like the complete one; a
//! correction of a forgotten game, a history from the start and an as-of read before the window
//! need the complete ledger ([`RatingError::Forgotten`], [`Ratings::is_complete`]).

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinRating, weng_lin_multi_team};
use std::hash::BuildHasher;
use uuid::Uuid;

use crate::{GameKind, GameOutcome, Params, Rating, RatingError};

/// One change of a player's rating: a game rated on its first report, or re-rated after a
/// correction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChange {
    /// Global log position of the event that made the change.
    pub position: u64,
    /// The game reported (or corrected).
    pub game: Uuid,
    /// The rating after the change.
    pub rating: Rating,
    /// The change comes from a correction (of `game`), not a first report.
    pub correction: bool,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LeaderboardRow {
    /// Competition rank by displayed rating (1, 2, 2, 4).
    pub rank: u32,
    pub player: Uuid,
    pub rating: Rating,
}

/// No state: a player's rating is the prior (no game yet).
pub(crate) const PRIOR: u32 = u32::MAX;

/// [`State::result`] of a state no result of the window made: a player's rating at the
/// window's start (a base, or a seat's rating before whose last change was forgotten).
/// No history names it and nothing may overwrite it.
pub(crate) const BASE: u32 = u32::MAX;

/// [`State::result`] of a state an image's load computed by re-rating the window: no history
/// names it, so a later re-rating may overwrite it in place (like a correction's).
pub(crate) const RERATED: u32 = u32::MAX - 1;

/// The bit of [`Seat::rank`] that marks the first player of a team (a team's players are
/// consecutive seats; two teams may share a rank, so the rank alone cannot separate them).
pub(crate) const TEAM_START: u32 = 1 << 31;

/// A rank a team may have: below [`TEAM_START`].
pub(crate) const MAX_RANK: u32 = TEAM_START - 1;

/// One rating the model computed: after a player's game (first report or re-rating), or
/// the rating a correction left them with. 24 bytes, no padding.
#[derive(Debug, Clone, Copy)]
pub(crate) struct State {
    pub(crate) mu: f64,
    pub(crate) sigma: f64,
    pub(crate) games: u32,
    /// The result (index in [`Ratings::results`]) that made it: its position, game and
    /// kind of change for the player's history; or [`BASE`], or [`RERATED`].
    pub(crate) result: u32,
}

impl State {
    pub(crate) fn rating(&self) -> Rating {
        Rating { mu: self.mu, sigma: self.sigma, games: self.games }
    }
}

/// One player of one game, in the outcome's order (team by team).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seat {
    /// The player (index in the board's players).
    pub(crate) player: u32,
    /// The team's rank, with [`TEAM_START`] on the team's first player.
    pub(crate) rank: u32,
    /// The player's rating before the game ([`State`] index, or [`PRIOR`]), so a
    /// correction can roll back to it.
    pub(crate) before: u32,
}

/// A result folded: a first report or a correction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ResultRow {
    pub(crate) position: u64,
    /// The game reported or corrected (index in its board's games).
    pub(crate) game: u32,
    pub(crate) kind: GameKind,
    pub(crate) correction: bool,
}

/// Ids interned to dense `u32` indices: each id stored once, the table holds indices only.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ids {
    pub(crate) ids: Vec<Uuid>,
    index: HashTable<u32>,
}

impl Ids {
    fn hash(id: &Uuid) -> u64 {
        FxBuildHasher.hash_one(id)
    }

    pub(crate) fn find(&self, id: Uuid) -> Option<u32> {
        self.index.find(Self::hash(&id), |&index| self.ids[index as usize] == id).copied()
    }

    /// The index of `id`, added at the end if new (and whether it was).
    pub(crate) fn intern(&mut self, id: Uuid) -> Result<(u32, bool), RatingError> {
        let Ids { ids, index } = self;
        match index.entry(
            Self::hash(&id),
            |&index| ids[index as usize] == id,
            |&index| Self::hash(&ids[index as usize]),
        ) {
            Entry::Occupied(entry) => Ok((*entry.get(), false)),
            Entry::Vacant(entry) => {
                let next = dense(ids.len())?;
                entry.insert(next);
                ids.push(id);
                Ok((next, true))
            }
        }
    }

    pub(crate) fn get(&self, index: u32) -> Uuid {
        self.ids[index as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }
}

/// An arena length as a `u32` index (4 billion of anything is far past what fits in memory).
pub(crate) fn dense(len: usize) -> Result<u32, RatingError> {
    u32::try_from(len).ok().filter(|index| *index < PRIOR).ok_or(RatingError::Capacity)
}

/// The ratings of one game kind.
#[derive(Debug, Clone, Default)]
pub(crate) struct Board {
    /// Rated games (of the window) in order of first report.
    pub(crate) games: Vec<u32>,
    /// Game ids, by game index.
    pub(crate) game_ids: Ids,
    /// Players, in order of their first rated game (forgotten games' players included).
    pub(crate) players: Ids,
    /// Every game's seats: game `i`'s are `seats[games[i]..games[i + 1]]` (the last game's
    /// run to the end).
    pub(crate) seats: Vec<Seat>,
    /// Every rating computed for this kind.
    pub(crate) states: Vec<State>,
    /// Player → current rating ([`State`] index, or [`PRIOR`]).
    pub(crate) current: Vec<u32>,
    /// Player → rating at the window's start ([`State`] index, or [`PRIOR`]: always, in a
    /// complete ledger).
    pub(crate) base: Vec<u32>,
    /// Player → every change in the window ([`State`] indices), oldest first (positions
    /// increase).
    pub(crate) history: Vec<Vec<u32>>,
}

/// Every player's rating at every game kind. Pure: no IO.
#[derive(Debug, Clone)]
pub struct Ratings {
    pub(crate) params: Params,
    pub(crate) boards: [Board; 4],
    /// Every result of the window, in order (positions increase).
    pub(crate) results: Vec<ResultRow>,
    /// Results folded before the window (forgotten): the index of `results[0]`.
    pub(crate) forgotten: usize,
    /// Log position of the last forgotten result (0 in a complete ledger).
    pub(crate) cut: u64,
}

impl Default for Ratings {
    fn default() -> Self {
        Ratings::new(Params::standard())
    }
}

impl Ratings {
    pub fn new(params: Params) -> Ratings {
        Ratings { params, boards: Default::default(), results: Vec::new(), forgotten: 0, cut: 0 }
    }

    /// Whether the ledger holds every result folded (none forgotten): then every question
    /// has its answer here.
    pub fn is_complete(&self) -> bool {
        self.forgotten == 0
    }

    /// Log position of the last forgotten result (0: none). Ratings as of a position at or
    /// after it are answered; before it only a complete ledger knows them.
    pub fn cut(&self) -> u64 {
        self.cut
    }

    /// Results folded before the window (index of the window's first result).
    pub fn forgotten_results(&self) -> usize {
        self.forgotten
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    fn board(&self, kind: GameKind) -> &Board {
        &self.boards[kind.index()]
    }

    /// Rates a game on its first report, at log `position` (positions increase from call
    /// to call). A game is rated once; its later results are corrections.
    pub fn rate_game(
        &mut self,
        kind: GameKind,
        game: Uuid,
        position: u64,
        outcome: GameOutcome,
    ) -> Result<(), RatingError> {
        outcome.check()?;
        let params = self.params;
        let result = dense(self.results.len())?;
        let board = &mut self.boards[kind.index()];
        if board.game_ids.find(game).is_some() {
            return Err(RatingError::AlreadyRated(game));
        }
        board.room(outcome.players().count(), outcome.players().count())?;
        let start = board.seats.len() as u32;
        let (index, _) = board.game_ids.intern(game)?;
        board.games.push(start);
        board.push_seats(&outcome)?;
        let end = board.seats.len();
        board.rate_seats(start as usize..end, result, &params, Rerate::FirstReport);
        self.results.push(ResultRow { position, game: index, kind, correction: false });
        Ok(())
    }

    /// Replaces a rated game's outcome at log `position` and re-rates that game and every
    /// later one of its kind; every player whose rating moved gets a change at `position`.
    pub fn correct_game(
        &mut self,
        kind: GameKind,
        game: Uuid,
        position: u64,
        outcome: GameOutcome,
    ) -> Result<(), RatingError> {
        outcome.check()?;
        let params = self.params;
        let result = dense(self.results.len())?;
        let board = &mut self.boards[kind.index()];
        let Some(first) = board.game_ids.find(game) else {
            return Err(if self.forgotten == 0 {
                RatingError::NotRated(game)
            } else {
                RatingError::Forgotten(game)
            });
        };
        let start = board.games[first as usize] as usize;
        let count = outcome.players().count();
        board.room(count, board.seats.len() - start + count + board.players.len())?;
        // The corrected game's seats, then every later game's.
        let old_end =
            board.games.get(first as usize + 1).map_or(board.seats.len(), |end| *end as usize);
        // The state each later seat's game left its player with: the player's next seat's
        // rating before, or their current rating after their last seat. One the ratings of a
        // re-rating made (a correction's result: no history names it) takes the seat's new
        // rating in place, so re-rating does not grow the model.
        let mut reuse = vec![PRIOR; board.seats.len() - old_end];
        let mut next_before: FxHashMap<u32, u32> = FxHashMap::default();
        for (index, seat) in board.seats[old_end..].iter().enumerate().rev() {
            let after = next_before.insert(seat.player, seat.before);
            let after = after.unwrap_or(board.current[seat.player as usize]);
            if after != PRIOR && reusable(&self.results, &board.states[after as usize]) {
                reuse[index] = after;
            }
        }
        // Roll every player of the corrected and later games back to their rating before
        // the first of those games they played.
        let mut touched: Vec<u32> = Vec::new();
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        for seat in &board.seats[start..] {
            if seen.insert(seat.player) {
                touched.push(seat.player);
                board.current[seat.player as usize] = seat.before;
            }
        }
        // The corrected game's seats replace its old ones; later games' seats move along.
        let appended = board.seats.len();
        board.push_seats(&outcome)?;
        let new: Vec<Seat> = board.seats.drain(appended..).collect();
        let new_end = start + new.len();
        board.seats.splice(start..old_end, new);
        if new_end != old_end {
            for begin in &mut board.games[first as usize + 1..] {
                *begin = (*begin as usize + new_end - old_end) as u32;
            }
        }
        // A correction may name players the report did not (their rating starts here).
        for seat in &board.seats[start..new_end] {
            if seen.insert(seat.player) {
                touched.push(seat.player);
            }
        }
        let end = board.seats.len();
        board.rate_seats(start..end, result, &params, Rerate::Correction(&reuse));
        for player in touched {
            let now = board.current[player as usize];
            let now = board.rating_of(now, &params);
            let history = &board.history[player as usize];
            let last = history.last().map(|state| board.states[*state as usize].rating());
            if last.is_none_or(|last| last != now) {
                let state = board.states.len() as u32;
                board.states.push(State { mu: now.mu, sigma: now.sigma, games: now.games, result });
                board.history[player as usize].push(state);
            }
        }
        self.results.push(ResultRow { position, game: first, kind, correction: true });
        Ok(())
    }

    /// A player's rating now (`None` before their first game of the kind).
    pub fn rating(&self, kind: GameKind, player: Uuid) -> Option<Rating> {
        let board = self.board(kind);
        board.current_rating(board.players.find(player)?)
    }

    /// A player's rating as of log `position`: after every change at or before it.
    pub fn rating_at(&self, kind: GameKind, player: Uuid, position: u64) -> Option<Rating> {
        let board = self.board(kind);
        let player = board.players.find(player)?;
        self.rating_of_at(board, player, position)
    }

    fn rating_of_at(&self, board: &Board, player: u32, position: u64) -> Option<Rating> {
        let changes = &board.history[player as usize];
        let count = changes.partition_point(|state| {
            self.results[board.states[*state as usize].result as usize].position <= position
        });
        let state = count.checked_sub(1).map_or(board.base[player as usize], |last| changes[last]);
        (state != PRIOR).then(|| board.states[state as usize].rating()).filter(|r| r.games > 0)
    }

    /// Every change of a player's rating, oldest first (in a ledger that is not complete,
    /// those of the window only).
    pub fn history(&self, kind: GameKind, player: Uuid) -> Vec<RatingChange> {
        let board = self.board(kind);
        let Some(player) = board.players.find(player) else {
            return Vec::new();
        };
        board.history[player as usize]
            .iter()
            .map(|state| {
                let state = &board.states[*state as usize];
                let result = &self.results[state.result as usize];
                RatingChange {
                    position: result.position,
                    game: board.game_ids.get(result.game),
                    rating: state.rating(),
                    correction: result.correction,
                }
            })
            .collect()
    }

    /// Number of games rated of a kind.
    pub fn games_rated(&self, kind: GameKind) -> usize {
        self.board(kind).games.len()
    }

    /// Players with a rating of a kind (ever), in order of their first game.
    pub fn players(&self, kind: GameKind) -> &[Uuid] {
        &self.board(kind).players.ids
    }

    /// Results folded (first reports and corrections of every kind, forgotten ones
    /// included), in log order.
    pub fn results(&self) -> usize {
        self.forgotten + self.results.len()
    }

    /// The log position of result `index` (in order of folding, from
    /// [`Self::forgotten_results`] to [`Self::results`]).
    pub fn result_position(&self, index: usize) -> u64 {
        self.results[index - self.forgotten].position
    }

    /// The index of the result folded at log `position`, if one was (and is in the window).
    pub fn result_at(&self, position: u64) -> Option<usize> {
        let found = self.results.binary_search_by_key(&position, |row| row.position).ok()?;
        Some(self.forgotten + found)
    }

    /// Every rated player of a kind, best first, now (`None`) or as of a log position (at or
    /// after [`Self::cut`] in a ledger that is not complete): by
    /// displayed rating, then μ, then games, then player id (so the order is total).
    pub fn leaderboard(&self, kind: GameKind, at: Option<u64>) -> Vec<LeaderboardRow> {
        let board = self.board(kind);
        let mut rows: Vec<LeaderboardRow> = (0..board.players.len() as u32)
            .filter_map(|player| {
                let rating = match at {
                    None => board.current_rating(player),
                    Some(position) => self.rating_of_at(board, player, position),
                };
                rating.map(|rating| LeaderboardRow {
                    rank: 0,
                    player: board.players.get(player),
                    rating,
                })
            })
            .collect();
        rows.sort_by(|a, b| {
            b.rating
                .display()
                .total_cmp(&a.rating.display())
                .then(b.rating.mu.total_cmp(&a.rating.mu))
                .then(b.rating.games.cmp(&a.rating.games))
                .then(a.player.cmp(&b.player))
        });
        let mut previous: Option<(f64, u32)> = None;
        for (index, row) in rows.iter_mut().enumerate() {
            let display = row.rating.display();
            row.rank = match previous {
                Some((value, rank)) if value == display => rank,
                _ => index as u32 + 1,
            };
            previous = Some((display, row.rank));
        }
        rows
    }
}

/// What a run of [`Board::rate_seats`] is for.
#[derive(Clone, Copy)]
pub(crate) enum Rerate<'a> {
    /// A first report: every new rating is a change in its player's history.
    FirstReport,
    /// A correction: later seats' new ratings go into these states where named.
    Correction(&'a [u32]),
    /// An image's window rated from its base ratings: no history entry.
    Load,
}

/// Whether state `state` may take a re-rating's value in place: no history names it (one
/// a correction's or a load's re-rating made; never a base).
fn reusable(results: &[ResultRow], state: &State) -> bool {
    state.result == RERATED || (state.result != BASE && results[state.result as usize].correction)
}

impl Board {
    /// Player index `player`'s rating now (`None` before their first game).
    fn current_rating(&self, player: u32) -> Option<Rating> {
        let state = self.current[player as usize];
        (state != PRIOR).then(|| self.states[state as usize].rating()).filter(|r| r.games > 0)
    }

    /// The rating a state index stands for (the prior for [`PRIOR`]).
    fn rating_of(&self, state: u32, params: &Params) -> Rating {
        if state == PRIOR { params.initial_rating() } else { self.states[state as usize].rating() }
    }

    /// Refuses a change that would add `seats` seats and `states` states past what a
    /// `u32` index names, before anything changes.
    fn room(&self, seats: usize, states: usize) -> Result<(), RatingError> {
        dense(self.seats.len() + seats)?;
        dense(self.states.len() + states)?;
        Ok(())
    }

    /// Appends an outcome's seats (players interned; ratings before filled in by
    /// [`Self::rate_seats`]).
    fn push_seats(&mut self, outcome: &GameOutcome) -> Result<(), RatingError> {
        for team in &outcome.teams {
            let mut rank = team.rank | TEAM_START;
            for id in &team.players {
                let (player, new) = self.players.intern(*id)?;
                if new {
                    self.current.push(PRIOR);
                    self.base.push(PRIOR);
                    self.history.push(Vec::new());
                }
                self.seats.push(Seat { player, rank, before: PRIOR });
                rank = team.rank;
            }
        }
        Ok(())
    }

    /// Rates the games whose seats are `seats`, in order, from the players' current
    /// ratings: records each seat's rating before, and moves the players' current ratings
    /// to the states `result` leaves them with. A first report makes new states, each a
    /// change in the player's history. A correction's re-rating writes a seat's new rating
    /// into the state `reuse` names for it (aligned with the last seats of the range; no
    /// history names those states), else into a new one. A load's re-rating makes new
    /// states that no history names ([`RERATED`]).
    pub(crate) fn rate_seats(
        &mut self,
        seats: std::ops::Range<usize>,
        result: u32,
        params: &Params,
        mode: Rerate<'_>,
    ) {
        let (reuse, result) = match mode {
            Rerate::FirstReport => (None, result),
            Rerate::Correction(reuse) => (Some(reuse), result),
            Rerate::Load => (Some(&[][..]), RERATED),
        };
        let reused_from = seats.end - reuse.map_or(0, <[u32]>::len);
        let mut start = seats.start;
        let mut teams: Vec<(usize, usize, u32)> = Vec::new();
        let mut ratings: Vec<WengLinRating> = Vec::new();
        while start < seats.end {
            // One game: seats up to the next team start whose game begins there.
            let game = self.games.partition_point(|begin| (*begin as usize) <= start);
            let end = self.games.get(game).map_or(seats.end, |e| *e as usize);
            teams.clear();
            ratings.clear();
            for index in start..end {
                let seat = &mut self.seats[index];
                seat.before = self.current[seat.player as usize];
                let before = if seat.before == PRIOR {
                    params.initial
                } else {
                    self.states[seat.before as usize].rating().weng_lin()
                };
                ratings.push(before);
                let offset = index - start;
                if seat.rank & TEAM_START != 0 {
                    teams.push((offset, offset + 1, seat.rank & MAX_RANK));
                } else if let Some(team) = teams.last_mut() {
                    team.1 = offset + 1;
                }
            }
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .map(|(from, to, rank)| {
                    (&ratings[*from..*to], MultiTeamOutcome::new(*rank as usize))
                })
                .collect();
            let after = weng_lin_multi_team(&ranked, &params.config);
            for (index, after) in (start..end).zip(after.into_iter().flatten()) {
                let seat = self.seats[index];
                let games = if seat.before == PRIOR {
                    params.initial_rating().games
                } else {
                    self.states[seat.before as usize].games
                } + 1;
                let rated = State { mu: after.rating, sigma: after.uncertainty, games, result };
                let owned = match reuse {
                    Some(reuse) if index >= reused_from => reuse[index - reused_from],
                    _ => PRIOR,
                };
                let state = if owned == PRIOR {
                    self.states.push(rated);
                    (self.states.len() - 1) as u32
                } else {
                    self.states[owned as usize] = rated;
                    owned
                };
                self.current[seat.player as usize] = state;
                if reuse.is_none() {
                    self.history[seat.player as usize].push(state);
                }
            }
            start = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ffa(game: u128, players: &[u128]) -> (Uuid, GameOutcome) {
        let ranks = players.iter().enumerate().map(|(rank, p)| (Uuid::from_u128(*p), rank as u32));
        (Uuid::from_u128(1_000_000 + game), GameOutcome::free_for_all(ranks))
    }

    /// A correction re-rates every later game of its kind; doing that again must not keep
    /// the ratings the previous re-rating computed: the model's memory follows the games and
    /// the history, not how often an old game was corrected.
    #[test]
    fn repeated_corrections_of_an_old_game_reuse_the_re_rated_states() {
        let mut ratings = Ratings::default();
        let kind = GameKind::Placement;
        for game in 0..500u128 {
            let players = [game % 13, (game + 1) % 13, (game + 5) % 13, (game + 7) % 13];
            let (id, outcome) = ffa(game, &players);
            ratings.rate_game(kind, id, game as u64 + 1, outcome).unwrap();
        }
        let states = |ratings: &Ratings| ratings.board(kind).states.len();
        let mut after_first = 0;
        for correction in 0..5u128 {
            let order = if correction % 2 == 0 { [7, 5, 1, 0] } else { [0, 1, 5, 7] };
            let (id, outcome) = ffa(0, &order);
            ratings.correct_game(kind, id, 1_000 + correction as u64, outcome).unwrap();
            if correction == 0 {
                after_first = states(&ratings);
            }
        }
        // Later corrections add at most their history entries (one per player, 13) and the
        // corrected game's new seats (4).
        assert!(
            states(&ratings) <= after_first + 4 * (13 + 4),
            "{} states after five corrections, {after_first} after the first",
            states(&ratings)
        );
    }
}
