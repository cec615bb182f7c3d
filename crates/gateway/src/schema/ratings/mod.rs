//! Ratings across leagues over GraphQL (`docs/ratings.md`): the `ratings` leaderboard (a
//! Relay connection) now or as of a point in history. A player's own rating and its
//! changes are fields of `Player` ([`super::players::types`]).

pub(super) mod values;

use async_graphql::connection::{Connection, Edge};
use async_graphql::{Context, Object, SimpleObject};
use league_app::App;
use uuid::Uuid;

use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::app;
use crate::schema::inputs::AsOf;
use crate::schema::pagination::{ConnectionTotals, page_complexity, page_size};
use crate::schema::players::types::Player;
use values::{GameKindValue, Rating};

/// The leaderboard (merged into the query root).
#[derive(Debug, Default)]
pub struct RatingsQuery;

#[Object]
impl RatingsQuery {
    /// Players ranked by rating at a kind of game across every league, now or as of a
    /// point in history (Relay connection; `first` ≤ 100; `docs/ratings.md`).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn ratings(
        &self,
        ctx: &Context<'_>,
        game: GameKindValue,
        first: Option<i32>,
        after: Option<String>,
        as_of: Option<AsOf>,
    ) -> GatewayResult<RatingConnection> {
        leaderboard(app(ctx), game, first, after, as_of).await
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

/// `Query.ratings`: one page of the leaderboard of a game kind; cursors are player ids.
async fn leaderboard(
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
