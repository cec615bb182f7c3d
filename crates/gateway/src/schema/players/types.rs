//! A player as the API shows them (profile, leagues, ratings, calendar feed) and
//! `registerPlayer`'s answer. A player's rating changes (`Player.ratingHistory`) are kept
//! beside `Player`: each names its game (`leagues::types`), whose seats name players, and
//! keeping them here keeps that circle of objects to two files.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_app::{App, RatingChangeView};
use league_projections::{PlayerView, SeatView};
use uuid::Uuid;

use crate::error::{GatewayError, GatewayResult};
use crate::schema::feeds::fields::calendar_feed_exists;
use crate::schema::inputs::AsOf;
use crate::schema::leagues::types::{Game, League};
use crate::schema::pagination::league_list_complexity;
use crate::schema::ratings::values::{GameKindValue, Rating};

/// A registered player.
#[derive(Clone)]
pub struct Player {
    app: App,
    id: Uuid,
}

impl Player {
    pub fn new(app: App, id: Uuid) -> Self {
        Player { app, id }
    }

    /// The seated player a result's row names by its key. Every stored result names
    /// exactly its game's seats (checked when it was reported, and again when folded).
    pub(crate) fn from_key(app: &App, key: &str, seats: &[SeatView]) -> GatewayResult<Self> {
        let mut buffer = Uuid::encode_buffer();
        seats
            .iter()
            .find(|seat| seat.player.hyphenated().encode_lower(&mut buffer) == key)
            .map(|seat| Player::new(app.clone(), seat.player))
            .ok_or_else(|| {
                GatewayError::App(league_app::AppError::internal(format!(
                    "a stored result names {key:?}, who is not seated in the game"
                )))
            })
    }

    fn with<T>(&self, f: impl FnOnce(&PlayerView) -> T) -> Option<T> {
        self.app.catalog().player(self.id).map(f)
    }
}

/// A registered player.
#[Object]
impl Player {
    async fn id(&self) -> ID {
        ID(self.id.to_string())
    }

    /// The player's name; their pseudonym ("Erased player 34cd56ef") once erased.
    async fn name(&self) -> String {
        self.with(|p| p.name.clone()).unwrap_or_default()
    }

    /// Whether the player's personal data was erased (`docs/personal-data.md`).
    async fn erased(&self) -> bool {
        self.with(|p| p.erased).unwrap_or_default()
    }

    async fn registered_at(&self) -> Option<DateTime<Utc>> {
        self.with(|p| p.registered_at)
    }

    /// An appointed organiser: may create leagues and tournaments (docs/api.md#roles).
    async fn is_organiser(&self) -> bool {
        self.app.catalog().is_organiser(self.id)
    }

    /// The leagues this player is subscribed to, in creation order.
    async fn leagues(&self) -> Vec<League> {
        let ids = self.app.catalog().leagues_of(self.id);
        ids.into_iter().map(|id| League::new(self.app.clone(), id)).collect()
    }

    /// The player's tournaments, then leagues, each with their current rank and, in a
    /// tournament, their next board ("My page": `docs/tournaments.md#times`).
    async fn competitions(
        &self,
    ) -> GatewayResult<Vec<crate::schema::tournaments::mine::PlayerCompetition>> {
        crate::schema::tournaments::mine::competitions_of(&self.app, self.id).await
    }

    /// Rating at a kind of game across every league, now or as of a point in history
    /// (`docs/ratings.md`); the prior (μ 25, σ 25/3, 0 games) before any game of the kind.
    async fn rating(&self, game: GameKindValue, as_of: Option<AsOf>) -> GatewayResult<Rating> {
        let as_of = as_of.map(|as_of| as_of.to_bound()).transpose()?;
        Ok(self.app.rating(game.into(), self.id, as_of).await?.into())
    }

    /// Every change of the rating at a kind of game, oldest first, up to a point in history.
    #[graphql(complexity = "league_list_complexity(child_complexity)")]
    async fn rating_history(
        &self,
        game: GameKindValue,
        as_of: Option<AsOf>,
    ) -> GatewayResult<Vec<RatingChange>> {
        let as_of = as_of.map(|as_of| as_of.to_bound()).transpose()?;
        let changes = self.app.rating_history(game.into(), self.id, as_of).await?;
        Ok(changes
            .into_iter()
            .map(|change| RatingChange { app: self.app.clone(), player: self.id, change })
            .collect())
    }

    /// Whether the player has a calendar feed (`rotateCalendarFeed`, `docs/feeds.md`): told
    /// only to the player themself and the site admin, `null` for anyone else.
    async fn calendar_feed(&self, ctx: &Context<'_>) -> GatewayResult<Option<bool>> {
        calendar_feed_exists(ctx, self.id).await
    }

    /// The players this player is never to share a board with
    /// (`docs/tournaments.md#a-players-permanent-keep-apart-list`): told only to the player
    /// themself and the site admin, `null` for anyone else.
    async fn keep_apart(
        &self,
        ctx: &Context<'_>,
    ) -> GatewayResult<Option<Vec<crate::schema::keep_apart::PermanentKeepApart>>> {
        crate::schema::keep_apart::keep_apart_shown(ctx, self.id).await
    }
}

/// `registerPlayer`'s answer: the player and their bearer token, shown this once.
#[derive(SimpleObject)]
pub struct PlayerRegistration {
    pub player: Player,
    /// Keep it: only its hash is stored, it cannot be shown again.
    pub token: String,
}

/// One change of a player's rating: a game rated on its first report, or re-rated after a
/// correction of it or of an earlier game.
pub struct RatingChange {
    app: App,
    player: Uuid,
    change: RatingChangeView,
}

/// A tournament board a rating change rated.
#[derive(SimpleObject)]
pub struct RatedBoard {
    pub id: ID,
    pub tournament_id: ID,
    pub tournament_name: String,
    pub round: u32,
    pub number: u32,
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

    /// The tournament board reported or corrected, when the change is a board's (`game`
    /// is then null): its tournament, round and number (`docs/ratings.md`).
    async fn board(&self) -> GatewayResult<Option<RatedBoard>> {
        let found = self.app.board_of_player(self.player, self.change.change.game).await?;
        Ok(found.map(|b| RatedBoard {
            id: ID(self.change.change.game.to_string()),
            tournament_id: ID(b.tournament.to_string()),
            tournament_name: b.tournament_name,
            round: b.round,
            number: b.number,
        }))
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
