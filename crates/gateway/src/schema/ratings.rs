//! Ratings across leagues over GraphQL (`docs/ratings.md`): `Player.rating`,
//! `Player.ratingHistory` and the `ratings` leaderboard (a Relay connection), each now or
//! as of a point in history.

use async_graphql::connection::{Connection, Edge};
use async_graphql::{Enum, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_app::{App, RatingChangeView};
use league_projections::GameKind;
use uuid::Uuid;

use super::inputs::AsOf;
use super::pagination::page_size;
use super::query::ConnectionTotals;
use super::types::{Game, Player};
use crate::error::{GatewayError, GatewayResult};

/// The games a rating is kept for; ratings never mix kinds.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(name = "GameKind")]
pub enum GameKindValue {
    /// Every league scored by placement (all-vs-all games).
    Placement,
    /// Every league scored by a Diplomacy system.
    Diplomacy,
    /// Blue Max leagues.
    BlueMax,
    /// Wooden Ships & Iron Men leagues (current and legacy rules).
    WoodenShips,
}

impl From<GameKindValue> for GameKind {
    fn from(kind: GameKindValue) -> GameKind {
        match kind {
            GameKindValue::Placement => GameKind::Placement,
            GameKindValue::Diplomacy => GameKind::Diplomacy,
            GameKindValue::BlueMax => GameKind::BlueMax,
            GameKindValue::WoodenShips => GameKind::WoodenShips,
        }
    }
}

impl From<GameKind> for GameKindValue {
    fn from(kind: GameKind) -> GameKindValue {
        match kind {
            GameKind::Placement => GameKindValue::Placement,
            GameKind::Diplomacy => GameKindValue::Diplomacy,
            GameKind::BlueMax => GameKindValue::BlueMax,
            GameKind::WoodenShips => GameKindValue::WoodenShips,
        }
    }
}

/// A player's Weng–Lin rating at one kind of game (`docs/ratings.md`).
#[derive(SimpleObject, Debug, Clone, Copy)]
pub struct Rating {
    /// Estimated skill (μ); a newcomer starts at 25.
    pub mu: f64,
    /// Uncertainty of the estimate (σ); starts at 25/3 and shrinks with every game.
    pub sigma: f64,
    /// The conservative estimate shown and ranked on: μ − 3σ (a newcomer shows 0).
    pub display: f64,
    /// Games rated.
    pub games: u32,
}

impl From<league_projections::Rating> for Rating {
    fn from(rating: league_projections::Rating) -> Self {
        Rating {
            mu: rating.mu,
            sigma: rating.sigma,
            display: rating.display(),
            games: rating.games,
        }
    }
}

/// One change of a player's rating: a game rated on its first report, or re-rated after a
/// correction of it or of an earlier game.
pub struct RatingChange {
    app: App,
    change: RatingChangeView,
}

/// One change of a player's rating: a game rated on its first report, or re-rated after a
/// correction of it or of an earlier game.
#[Object]
impl RatingChange {
    /// Global position of the event that made the change.
    async fn position(&self) -> u64 {
        self.change.change.position
    }

    /// Commit time of that event.
    async fn recorded_at(&self) -> Option<DateTime<Utc>> {
        self.change.recorded_at
    }

    /// The game reported or corrected.
    async fn game(&self) -> GatewayResult<Option<Game>> {
        let id = self.change.change.game;
        Ok(self.app.league_of_game(id).await?.map(|model| Game::new(self.app.clone(), model, id)))
    }

    /// Whether a correction made the change (re-rating every later game of the kind).
    async fn correction(&self) -> bool {
        self.change.change.correction
    }

    /// The rating after the change.
    async fn rating(&self) -> Rating {
        self.change.change.rating.into()
    }

    /// Change of μ.
    async fn delta(&self) -> f64 {
        self.change.change.rating.mu - self.change.previous.mu
    }
}

/// One line of a ratings leaderboard.
#[derive(SimpleObject)]
pub struct RatedPlayer {
    /// Competition rank by displayed rating (1, 2, 2, 4).
    pub rank: u32,
    pub player: Player,
    pub rating: Rating,
}

pub type RatingConnection = Connection<String, RatedPlayer, ConnectionTotals>;

/// `Player.rating`: the rating now or as of a point (the prior with no game yet).
pub(crate) async fn rating(
    app: &App,
    player: Uuid,
    game: GameKindValue,
    as_of: Option<AsOf>,
) -> GatewayResult<Rating> {
    let as_of = as_of.map(|as_of| as_of.to_bound()).transpose()?;
    Ok(app.rating(game.into(), player, as_of).await?.into())
}

/// `Player.ratingHistory`: every change, oldest first, up to a point.
pub(crate) async fn rating_history(
    app: &App,
    player: Uuid,
    game: GameKindValue,
    as_of: Option<AsOf>,
) -> GatewayResult<Vec<RatingChange>> {
    let as_of = as_of.map(|as_of| as_of.to_bound()).transpose()?;
    let changes = app.rating_history(game.into(), player, as_of).await?;
    Ok(changes.into_iter().map(|change| RatingChange { app: app.clone(), change }).collect())
}

/// `Query.ratings`: one page of the leaderboard of a game kind; cursors are player ids.
pub(crate) async fn leaderboard(
    app: &App,
    game: GameKindValue,
    first: Option<i32>,
    after: Option<String>,
    as_of: Option<AsOf>,
) -> GatewayResult<RatingConnection> {
    let size = page_size(first)?;
    let as_of = as_of.map(|as_of| as_of.to_bound()).transpose()?;
    let rows = app.leaderboard(game.into(), as_of).await?;
    let start = match after {
        None => 0,
        Some(cursor) => Uuid::parse_str(&cursor)
            .ok()
            .and_then(|after| rows.iter().position(|row| row.player == after))
            .map(|index| index + 1)
            .ok_or_else(|| {
                GatewayError::bad_input(
                    "after",
                    format!("{cursor:?} is not a cursor of this connection"),
                )
            })?,
    };
    let end = (start + size).min(rows.len());
    let mut connection = Connection::with_additional_fields(
        start > 0,
        end < rows.len(),
        ConnectionTotals { total_count: rows.len() as u64 },
    );
    connection.edges.extend(rows[start..end].iter().map(|row| {
        Edge::new(
            row.player.to_string(),
            RatedPlayer {
                rank: row.rank,
                player: Player::new(app.clone(), row.player),
                rating: row.rating.into(),
            },
        )
    }));
    Ok(connection)
}
