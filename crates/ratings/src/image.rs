//! A ledger's window and its image (`docs/ratings.md#memory`): what a ledger keeps when it
//! forgets old games, and what a ratings snapshot stores.
//!
//! A [`LedgerImage`] is a ledger as of its last result with every result before a *cut*
//! forgotten: each player's *base* rating (their rating as of the cut), then the window:
//! its results, its games' current outcomes and each player's changes in it. The ratings
//! before each seat and the current ratings are not stored: a load re-rates the window's
//! games from the base ratings, which gives them to the bit, because a ledger's current
//! ratings are always those of rating its games' current outcomes in order of first report.
//!
//! A cut is only made where no result after it corrects a game reported before it (such a
//! correction would re-rate from a forgotten game). The image is canonical: the same log
//! folded to the same position and cut after the same result gives the same image, whatever
//! the ledger forgot before, so a stored snapshot can be checked against a fresh fold.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ledger::{BASE, Board, PRIOR, Rerate, ResultRow, Seat, State, TEAM_START, dense};
use crate::{GameKind, Params, RatingError, Ratings};

/// A rating as stored: μ, σ, games.
pub type RatingImage = (f64, f64, u32);

/// A ledger with the results before its cut forgotten.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerImage {
    /// Results folded before the window.
    pub forgotten: u64,
    /// Log position of the last forgotten result (0: none).
    pub cut: u64,
    /// The window's results, in log order.
    pub results: Vec<ResultImage>,
    /// One board per kind, in [`GameKind::ALL`] order.
    pub boards: Vec<BoardImage>,
}

/// One result of the window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ResultImage {
    pub position: u64,
    /// Index of its kind in [`GameKind::ALL`].
    pub kind: u8,
    /// Its game, by index in its board's window games.
    pub game: u32,
    pub correction: bool,
}

/// One kind's ratings: every player, their base rating and their changes in the window,
/// and the window's games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardImage {
    /// Every player ever rated at the kind, in order of their first rated game.
    pub players: Vec<Uuid>,
    /// Per player: the rating as of the cut (`None`: the prior).
    pub base: Vec<Option<RatingImage>>,
    /// The window's games, in order of first report.
    pub games: Vec<Uuid>,
    /// Per game: the index of its first seat.
    pub starts: Vec<u32>,
    /// Every seat of the window's games, current outcome: player index, and the team's
    /// rank with the high bit on a team's first player.
    pub seats: Vec<(u32, u32)>,
    /// Per player: their changes in the window (window result index, rating after).
    pub history: Vec<Vec<(u32, RatingImage)>>,
}

fn invalid(what: &str) -> RatingError {
    RatingError::Invalid(format!("ratings image: {what}"))
}

fn kind_of(index: u8) -> Result<GameKind, RatingError> {
    GameKind::ALL.get(usize::from(index)).copied().ok_or_else(|| invalid("unknown kind"))
}

impl Ratings {
    /// Forgets the oldest results, keeping at least the last `keep` in the window (more
    /// when a later correction re-rates an older game): the model's memory then follows the
    /// window, not the log. Answers now and as of positions from the new cut on are
    /// unchanged.
    pub fn forget(&mut self, keep: usize) {
        let cut = self.cut_keeping(keep);
        if cut > 0 {
            let image = self.image_at(cut);
            *self = Ratings::from_image(self.params, image).expect("a ledger's own image loads");
        }
    }

    /// The image of this ledger keeping at least the last `keep` results in its window
    /// (the cut [`Self::forget`] makes).
    pub fn image(&self, keep: usize) -> LedgerImage {
        self.image_at(self.cut_keeping(keep))
    }

    /// The image of this ledger with exactly the first `forgotten` results of the log
    /// forgotten; refused when the ledger already forgot more, or a later correction
    /// re-rates one of their games.
    pub fn image_forgetting(&self, forgotten: usize) -> Result<LedgerImage, RatingError> {
        let cut = forgotten
            .checked_sub(self.forgotten)
            .filter(|cut| *cut <= self.results.len())
            .ok_or(RatingError::CannotForget(forgotten))?;
        if self.needed_before(cut).is_some() {
            return Err(RatingError::CannotForget(forgotten));
        }
        Ok(self.image_at(cut))
    }

    /// The window index of the cut that keeps the last `keep` results and every game a
    /// correction after it re-rates.
    fn cut_keeping(&self, keep: usize) -> usize {
        let mut cut = self.results.len().saturating_sub(keep);
        while let Some(earlier) = self.needed_before(cut) {
            cut = earlier;
        }
        cut
    }

    /// The window index of the earliest first report before `cut` whose game a result at
    /// or after `cut` corrects (`None`: the results before `cut` may be forgotten).
    fn needed_before(&self, cut: usize) -> Option<usize> {
        let mut first_reports: [Vec<usize>; 4] = Default::default();
        for (index, row) in self.results[..cut].iter().enumerate() {
            if !row.correction {
                first_reports[row.kind.index()].push(index);
            }
        }
        self.results[cut..]
            .iter()
            .filter(|row| row.correction)
            .filter_map(|row| first_reports[row.kind.index()].get(row.game as usize).copied())
            .min()
    }

    /// The image with the window's first `cut` results forgotten too.
    fn image_at(&self, cut: usize) -> LedgerImage {
        let cut_position = cut.checked_sub(1).map_or(self.cut, |last| self.results[last].position);
        let mut dropped = [0u32; 4];
        for row in &self.results[..cut] {
            if !row.correction {
                dropped[row.kind.index()] += 1;
            }
        }
        let results = self.results[cut..]
            .iter()
            .map(|row| ResultImage {
                position: row.position,
                kind: row.kind.index() as u8,
                game: row.game - dropped[row.kind.index()],
                correction: row.correction,
            })
            .collect();
        let boards = self
            .boards
            .iter()
            .zip(dropped)
            .map(|(board, dropped)| board_image(board, dropped as usize, cut))
            .collect();
        LedgerImage { forgotten: (self.forgotten + cut) as u64, cut: cut_position, results, boards }
    }

    /// The ledger an image stands for: its window's games re-rated from the base ratings.
    pub fn from_image(params: Params, image: LedgerImage) -> Result<Ratings, RatingError> {
        if image.boards.len() != GameKind::ALL.len() {
            return Err(invalid("not one board per kind"));
        }
        let mut ratings = Ratings::new(params);
        ratings.forgotten =
            usize::try_from(image.forgotten).map_err(|_| invalid("too many results"))?;
        ratings.cut = image.cut;
        let mut first_reports = [0u32; 4];
        let mut previous = image.cut;
        for row in &image.results {
            let kind = kind_of(row.kind)?;
            if row.position <= previous {
                return Err(invalid("results out of order"));
            }
            previous = row.position;
            let games = image.boards[kind.index()].games.len() as u32;
            let expected = &mut first_reports[kind.index()];
            let named = if row.correction {
                row.game < *expected
            } else {
                row.game == *expected && row.game < games
            };
            if !named {
                return Err(invalid("a result names a game it cannot"));
            }
            if !row.correction {
                *expected += 1;
            }
            ratings.results.push(ResultRow {
                position: row.position,
                game: row.game,
                kind,
                correction: row.correction,
            });
        }
        for (index, board) in image.boards.into_iter().enumerate() {
            if first_reports[index] as usize != board.games.len() {
                return Err(invalid("a game without its first report"));
            }
            ratings.boards[index] = board_of(board, &ratings.results, index, &params)?;
        }
        Ok(ratings)
    }
}

/// One board's image with its first `dropped` games (those of the window's first `cut`
/// results) forgotten.
fn board_image(board: &Board, dropped: usize, cut: usize) -> BoardImage {
    let first_seat = board.games.get(dropped).map_or(board.seats.len(), |start| *start as usize);
    let rating = |state: u32| {
        (state != PRIOR)
            .then(|| board.states[state as usize])
            .filter(|state| state.games > 0)
            .map(|state| (state.mu, state.sigma, state.games))
    };
    let mut base = Vec::with_capacity(board.players.len());
    let mut history = Vec::with_capacity(board.players.len());
    for (player, changes) in board.history.iter().enumerate() {
        let kept =
            changes.partition_point(|state| (board.states[*state as usize].result as usize) < cut);
        let before = kept.checked_sub(1).map_or(board.base[player], |last| changes[last]);
        base.push(rating(before));
        history.push(
            changes[kept..]
                .iter()
                .map(|state| {
                    let state = &board.states[*state as usize];
                    ((state.result as usize - cut) as u32, (state.mu, state.sigma, state.games))
                })
                .collect(),
        );
    }
    BoardImage {
        players: board.players.ids.clone(),
        base,
        games: board.game_ids.ids[dropped..].to_vec(),
        starts: board.games[dropped..].iter().map(|start| start - first_seat as u32).collect(),
        seats: board.seats[first_seat..].iter().map(|seat| (seat.player, seat.rank)).collect(),
        history,
    }
}

/// The board a [`BoardImage`] stands for (kind `kind`; `results` the window's).
fn board_of(
    image: BoardImage,
    results: &[ResultRow],
    kind: usize,
    params: &Params,
) -> Result<Board, RatingError> {
    let players = image.players.len();
    if image.base.len() != players || image.history.len() != players {
        return Err(invalid("players, base ratings and histories differ in number"));
    }
    let mut board = Board::default();
    for player in image.players {
        if !board.players.intern(player)?.1 {
            return Err(invalid("a player twice"));
        }
    }
    let state = |(mu, sigma, games): RatingImage, result: u32| State { mu, sigma, games, result };
    for base in image.base {
        let index = match base.filter(|rating| rating.2 > 0) {
            Some(rating) => {
                board.states.push(state(rating, BASE));
                dense(board.states.len() - 1)?
            }
            None => PRIOR,
        };
        board.base.push(index);
    }
    board.current = board.base.clone();
    for changes in image.history {
        let mut list = Vec::with_capacity(changes.len());
        let mut previous: Option<u32> = None;
        for (result, rating) in changes {
            let row = results.get(result as usize).ok_or_else(|| invalid("unknown result"))?;
            if row.kind.index() != kind || previous.is_some_and(|previous| previous >= result) {
                return Err(invalid("a change out of order or of another kind"));
            }
            previous = Some(result);
            board.states.push(state(rating, result));
            list.push(dense(board.states.len() - 1)?);
        }
        board.history.push(list);
    }
    for game in image.games {
        if !board.game_ids.intern(game)?.1 {
            return Err(invalid("a game twice"));
        }
    }
    let seats = image.seats.len();
    let mut next = 0;
    for (index, start) in image.starts.iter().enumerate() {
        let end = image.starts.get(index + 1).map_or(seats, |end| *end as usize);
        if *start as usize != next || end <= next {
            return Err(invalid("games' seats out of order"));
        }
        next = end;
    }
    if next != seats {
        return Err(invalid("seats outside every game"));
    }
    board.games = image.starts;
    for (player, rank) in image.seats {
        if player as usize >= players {
            return Err(invalid("a seat names no player"));
        }
        board.seats.push(Seat { player, rank, before: PRIOR });
    }
    if board.games.iter().any(|start| board.seats[*start as usize].rank & TEAM_START == 0) {
        return Err(invalid("a game does not start with a team"));
    }
    dense(board.states.len() + seats)?;
    board.rate_seats(0..seats, 0, params, Rerate::Load);
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameOutcome;

    fn ledger() -> Ratings {
        let mut ratings = Ratings::default();
        for game in 0..6u128 {
            let players = [game % 4, (game + 1) % 4, (game + 2) % 4];
            let ranks = players.iter().enumerate().map(|(r, p)| (Uuid::from_u128(p + 1), r as u32));
            let outcome = GameOutcome::free_for_all(ranks);
            let id = Uuid::from_u128(100 + game);
            ratings.rate_game(GameKind::Placement, id, game as u64 + 1, outcome).unwrap();
        }
        ratings
    }

    /// An image that does not describe a ledger is refused with a typed error, whatever
    /// part of it is wrong; its own image loads.
    #[test]
    fn an_image_that_does_not_fit_is_refused() {
        let image = ledger().image(2);
        assert!(image.forgotten > 0);
        assert!(Ratings::from_image(Params::standard(), image.clone()).is_ok());
        let placement = GameKind::Placement.index();
        type Break = fn(&mut LedgerImage);
        let breaks: [(&str, Break); 6] = [
            ("a seat without a player", |i| i.boards[0].seats[0].0 = 99),
            ("a change of an unknown result", |i| i.boards[0].history[0].push((99, (1.0, 1.0, 1)))),
            ("results out of order", |i| i.results.swap(0, 1)),
            ("a first report twice", |i| i.results[1].game = 0),
            ("a game without its first report", |i| {
                i.results.pop();
            }),
            ("a board missing", |i| {
                i.boards.pop();
            }),
        ];
        for (what, break_it) in breaks {
            let mut broken = image.clone();
            assert!(broken.boards[placement].history.iter().any(|changes| !changes.is_empty()));
            break_it(&mut broken);
            let loaded = Ratings::from_image(Params::standard(), broken);
            assert!(matches!(loaded, Err(RatingError::Invalid(_))), "{what}: {loaded:?}");
        }
    }

    /// The first results cannot be forgotten where a later one corrects their game.
    #[test]
    fn a_cut_before_a_correction_of_a_forgotten_game_is_refused() {
        let mut ratings = ledger();
        let outcome = GameOutcome::free_for_all([(Uuid::from_u128(2), 0), (Uuid::from_u128(1), 1)]);
        ratings.correct_game(GameKind::Placement, Uuid::from_u128(101), 10, outcome).unwrap();
        assert_eq!(ratings.image_forgetting(3), Err(RatingError::CannotForget(3)));
        assert!(ratings.image_forgetting(1).is_ok());
        // Keeping one result moves the cut back to the corrected game's first report.
        assert_eq!(ratings.image(1).forgotten, 1);
    }
}
