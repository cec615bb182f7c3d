//! The ledger as it was before its memory was compacted (one `Vec` of outcomes and
//! ratings per game, `Uuid`-keyed maps, a full `RatingChange` per history entry): the
//! reference the compact [`league_ratings::Ratings`] must answer exactly like. Validation is
//! left to the ledger under test (the histories fed to both are valid).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinRating, weng_lin_multi_team};
use uuid::Uuid;

use league_ratings::{
    GameKind, GameOutcome, LeaderboardRow, Params, Rating, RatingChange, RatingError,
};

/// A rated game: its outcome and its players' ratings before it (team by team), so a
/// correction can roll back to them.
#[derive(Debug, Clone)]
struct RatedGame {
    outcome: GameOutcome,
    before: Vec<Rating>,
}

/// The ratings of one game kind.
#[derive(Debug, Clone, Default)]
struct Board {
    /// Rated games in order of first report.
    games: Vec<RatedGame>,
    /// Game → index in `games`.
    slot: HashMap<Uuid, usize>,
    /// Player → current rating (only players with at least one game).
    current: HashMap<Uuid, Rating>,
    /// Player → every change, oldest first (positions increase).
    history: HashMap<Uuid, Vec<RatingChange>>,
    /// Players in order of their first rated game.
    players: Vec<Uuid>,
}

/// Every player's rating at every game kind. Pure: no IO.
#[derive(Debug, Clone)]
pub struct Ratings {
    params: Params,
    boards: [Board; 4],
}

impl Default for Ratings {
    fn default() -> Self {
        Ratings::new(Params::standard())
    }
}

impl Ratings {
    pub fn new(params: Params) -> Ratings {
        Ratings { params, boards: Default::default() }
    }

    fn board(&self, kind: GameKind) -> &Board {
        &self.boards[kind as usize]
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
        let params = self.params;
        let board = &mut self.boards[kind as usize];
        if board.slot.contains_key(&game) {
            return Err(RatingError::AlreadyRated(game));
        }
        let before = board.ratings_of(&outcome, &params);
        let after = rate(&params, &outcome, &before);
        for (player, rating) in outcome.players().zip(&after) {
            board.set(player, *rating);
            let change = RatingChange { position, game, rating: *rating, correction: false };
            board.record_for(player, change);
        }
        board.slot.insert(game, board.games.len());
        board.games.push(RatedGame { outcome, before });
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
        let params = self.params;
        let board = &mut self.boards[kind as usize];
        let Some(&first) = board.slot.get(&game) else {
            return Err(RatingError::NotRated(game));
        };
        // Roll every player of the corrected and later games back to their rating before
        // the first of those games they played.
        let mut touched: Vec<Uuid> = Vec::new();
        let mut seen: HashSet<Uuid> = HashSet::default();
        for rated in &board.games[first..] {
            for (player, before) in rated.outcome.players().zip(&rated.before) {
                if seen.insert(player) {
                    touched.push(player);
                    if before.games == 0 {
                        board.current.remove(&player);
                    } else {
                        board.current.insert(player, *before);
                    }
                }
            }
        }
        // A correction may name players the report did not (their rating starts here).
        touched.extend(outcome.players().filter(|player| seen.insert(*player)));
        board.games[first].outcome = outcome;
        for index in first..board.games.len() {
            let before = board.ratings_of(&board.games[index].outcome, &params);
            let after = rate(&params, &board.games[index].outcome, &before);
            let players: Vec<Uuid> = board.games[index].outcome.players().collect();
            for (player, rating) in players.into_iter().zip(after) {
                board.set(player, rating);
            }
            board.games[index].before = before;
        }
        for player in touched {
            let now = board.current.get(&player).copied().unwrap_or(params.initial_rating());
            let last = board.history.get(&player).and_then(|changes| changes.last());
            if last.is_none_or(|last| last.rating != now) {
                board.record_for(
                    player,
                    RatingChange { position, game, rating: now, correction: true },
                );
            }
        }
        Ok(())
    }

    /// A player's rating now (`None` before their first game of the kind).
    pub fn rating(&self, kind: GameKind, player: Uuid) -> Option<Rating> {
        self.board(kind).current.get(&player).copied().filter(|rating| rating.games > 0)
    }

    /// A player's rating as of log `position`: after every change at or before it.
    pub fn rating_at(&self, kind: GameKind, player: Uuid, position: u64) -> Option<Rating> {
        let changes = self.history(kind, player);
        let count = changes.partition_point(|change| change.position <= position);
        count.checked_sub(1).map(|last| changes[last].rating).filter(|rating| rating.games > 0)
    }

    /// Every change of a player's rating, oldest first.
    pub fn history(&self, kind: GameKind, player: Uuid) -> &[RatingChange] {
        self.board(kind).history.get(&player).map(Vec::as_slice).unwrap_or_default()
    }

    /// Number of games rated of a kind.
    pub fn games_rated(&self, kind: GameKind) -> usize {
        self.board(kind).games.len()
    }

    /// Players with a rating of a kind (ever), in order of their first game.
    pub fn players(&self, kind: GameKind) -> &[Uuid] {
        &self.board(kind).players
    }

    /// Every rated player of a kind, best first, now (`None`) or as of a log position: by
    /// displayed rating, then μ, then games, then player id (so the order is total).
    pub fn leaderboard(&self, kind: GameKind, at: Option<u64>) -> Vec<LeaderboardRow> {
        let board = self.board(kind);
        let mut rows: Vec<LeaderboardRow> = board
            .players
            .iter()
            .filter_map(|player| {
                let rating = match at {
                    None => self.rating(kind, *player),
                    Some(position) => self.rating_at(kind, *player, position),
                };
                rating.map(|rating| LeaderboardRow { rank: 0, player: *player, rating })
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

impl Board {
    /// The current ratings of an outcome's players, team by team (newcomers' initial).
    fn ratings_of(&self, outcome: &GameOutcome, params: &Params) -> Vec<Rating> {
        outcome
            .players()
            .map(|player| {
                self.current.get(&player).copied().unwrap_or_else(|| params.initial_rating())
            })
            .collect()
    }

    fn set(&mut self, player: Uuid, rating: Rating) {
        self.current.insert(player, rating);
    }

    fn record_for(&mut self, player: Uuid, change: RatingChange) {
        let changes = self.history.entry(player).or_insert_with(|| {
            self.players.push(player);
            Vec::new()
        });
        changes.push(change);
    }
}

/// One Weng–Lin update: the ratings after the game, in the order of `before` (team by
/// team), each with one more game.
fn rate(params: &Params, outcome: &GameOutcome, before: &[Rating]) -> Vec<Rating> {
    let mut teams: Vec<Vec<WengLinRating>> = Vec::with_capacity(outcome.teams.len());
    let mut next = before.iter();
    for team in &outcome.teams {
        teams.push(
            next.by_ref()
                .take(team.players.len())
                .map(|r| WengLinRating { rating: r.mu, uncertainty: r.sigma })
                .collect(),
        );
    }
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&outcome.teams)
        .map(|(ratings, team)| (ratings.as_slice(), MultiTeamOutcome::new(team.rank as usize)))
        .collect();
    weng_lin_multi_team(&ranked, &params.config)
        .into_iter()
        .flatten()
        .zip(before)
        .map(|(after, before)| Rating {
            mu: after.rating,
            sigma: after.uncertainty,
            games: before.games + 1,
        })
        .collect()
}
