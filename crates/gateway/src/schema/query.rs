//! Queries: public reads from the catalog and the per-league models (as-of views and the
//! audit log are read from the event log by the application).

use async_graphql::connection::{Connection, Edge};
use async_graphql::{Context, ID, Object, SimpleObject};
use league_app::{AppError, WhatIf};

use league_scoring::{ConcessionRule, ScoringSystem};

use super::aggregation::AggregationInput;
use super::inputs::{AsOf, ScoringSystemValue, parse_id};
use super::pagination::{page_size, position_cursor};
use super::types::{Event, Game, League, Player, ScoreChange, Standing, standings};
use super::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, app, caller};
use crate::auth::Caller;
use crate::error::{GatewayError, GatewayResult};

/// Extra fields of every connection.
#[derive(SimpleObject)]
pub struct ConnectionTotals {
    /// Number of nodes over all pages.
    pub total_count: u64,
}

pub type LeagueConnection = Connection<String, League, ConnectionTotals>;
pub type PlayerConnection = Connection<String, Player, ConnectionTotals>;
pub type EventConnection = Connection<String, Event, ConnectionTotals>;

/// League and player reads (merged into the query root).
#[derive(Debug, Default)]
pub struct LeagueQuery;

/// Reads: public, served from the in-memory catalog and league models.
#[Object]
impl LeagueQuery {
    /// A league by id (null if there is none).
    async fn league(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<League>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.catalog().league(id).is_some().then(|| League::new(app.clone(), id)))
    }

    /// Every league, in creation order (Relay connection; `first` ≤ 100).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn leagues(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
    ) -> GatewayResult<LeagueConnection> {
        let app = app(ctx);
        let catalog = app.catalog();
        id_page(catalog.league_ids(), first, after, |id| League::new(app.clone(), id))
    }

    /// A game by id (null if there is none).
    async fn game(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<Game>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app
            .league_of_game(id)
            .await?
            .filter(|model| model.game(id).is_some())
            .map(|model| Game::new(app.clone(), model, id)))
    }

    /// A player by id (null if there is none).
    async fn player(&self, ctx: &Context<'_>, id: ID) -> GatewayResult<Option<Player>> {
        let id = parse_id(&id, "id")?;
        let app = app(ctx);
        Ok(app.catalog().player(id).is_some().then(|| Player::new(app.clone(), id)))
    }

    /// Every registered player, in registration order (Relay connection; `first` ≤ 100).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn players(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
    ) -> GatewayResult<PlayerConnection> {
        let app = app(ctx);
        let catalog = app.catalog();
        id_page(catalog.player_ids(), first, after, |id| Player::new(app.clone(), id))
    }

    /// The calling player (null for the admin and anonymous callers).
    async fn me(&self, ctx: &Context<'_>) -> Option<Player> {
        match caller(ctx) {
            Caller::Player(id) => Some(Player::new(app(ctx).clone(), id)),
            Caller::Admin | Caller::Anonymous => None,
        }
    }

    /// Standings of a league, now or as of a position or instant of the log. With `system`
    /// and/or `aggregation`, the what-if standings had its results been scored under that
    /// system or aggregated that way (default: the league's own); a system that cannot score
    /// the league's games is `BAD_USER_INPUT` on `system`, a best N out of range on
    /// `aggregation.n`. With `concessionsAsSolos: true`, every concession is scored as the
    /// power conceded to's solo by every system but Baf and Detour 98f, whatever rule its
    /// result was recorded under (`docs/scoring.md#draws-and-concessions`). Nothing is
    /// appended.
    ///
    /// Complexity: the selection counts once per player a league may hold (64).
    #[graphql(complexity = "super::types::league_list_complexity(child_complexity)")]
    async fn standings(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
        system: Option<ScoringSystemValue>,
        as_of: Option<AsOf>,
        aggregation: Option<AggregationInput>,
        concessions_as_solos: Option<bool>,
    ) -> GatewayResult<Vec<Standing>> {
        let league = parse_id(&league_id, "leagueId")?;
        let app = app(ctx);
        let aggregation = aggregation.as_ref().map(AggregationInput::to_domain).transpose()?;
        let own = app
            .catalog()
            .league(league)
            .map(|summary| (summary.settings.scoring_system, summary.settings.aggregation));
        let system = system.map(ScoringSystem::from);
        let concessions = (concessions_as_solos == Some(true)).then_some(ConcessionRule::Solo);
        let differs = own.is_some_and(|(own_system, own_aggregation)| {
            system.is_some_and(|s| s != own_system)
                || aggregation.is_some_and(|a| a != own_aggregation)
                || concessions.is_some()
        });
        if differs {
            let as_of = as_of.as_ref().map(AsOf::to_bound).transpose()?;
            let what_if = WhatIf { system, aggregation, concessions };
            let rows = app.standings_if(league, what_if, as_of).await?;
            return Ok(rows.into_iter().map(|row| Standing::new(app.clone(), row)).collect());
        }
        standings(app, league, as_of).await
    }

    /// How a player's total in a league came to be: one entry per reported or corrected
    /// result, oldest first.
    async fn score_history(
        &self,
        ctx: &Context<'_>,
        league_id: ID,
        player_id: ID,
    ) -> GatewayResult<Vec<ScoreChange>> {
        let league = parse_id(&league_id, "leagueId")?;
        let player = parse_id(&player_id, "playerId")?;
        let app = app(ctx);
        let model = app.existing_league(league).await?;
        if app.catalog().player(player).is_none() {
            return Err(GatewayError::NotFound(format!("player {player}")));
        }
        let changes = model.score_history(league, player);
        Ok(changes
            .into_iter()
            .map(|change| ScoreChange::new(app.clone(), model.clone(), league, player, change))
            .collect())
    }

    /// Players ranked by rating at a kind of game across every league, now or as of a
    /// point in history (Relay connection; `first` ≤ 100; `docs/ratings.md`).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn ratings(
        &self,
        ctx: &Context<'_>,
        game: super::ratings::GameKindValue,
        first: Option<i32>,
        after: Option<String>,
        as_of: Option<AsOf>,
    ) -> GatewayResult<super::ratings::RatingConnection> {
        super::ratings::leaderboard(app(ctx), game, first, after, as_of).await
    }

    /// Every scoring system the platform knows, in catalogue order, with everything a
    /// client needs to offer it and to report its games (docs/scoring.md).
    async fn scoring_systems(&self) -> Vec<super::catalogue::ScoringSystemInfo> {
        super::catalogue::scoring_systems()
    }

    /// Every kind of league aggregation, the default first
    /// (docs/scoring.md#league-aggregation).
    async fn aggregations(&self) -> Vec<super::catalogue::AggregationInfo> {
        super::catalogue::aggregations()
    }

    /// The audit log, oldest first: every event, or one league's, or one tournament's (Relay
    /// connection; `first` ≤ 100; cursors are global positions).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn events(
        &self,
        ctx: &Context<'_>,
        league_id: Option<ID>,
        tournament_id: Option<ID>,
        first: Option<i32>,
        after: Option<String>,
    ) -> GatewayResult<EventConnection> {
        let league = league_id.as_ref().map(|id| parse_id(id, "leagueId")).transpose()?;
        let tournament =
            tournament_id.as_ref().map(|id| parse_id(id, "tournamentId")).transpose()?;
        if league.is_some() && tournament.is_some() {
            return Err(GatewayError::bad_input(
                "tournamentId",
                "name a league or a tournament, not both",
            ));
        }
        let size = page_size(first)?;
        let after = position_cursor(after.as_deref())?;
        let app = app(ctx);
        // Positions are gapless from 1, so the log's head position counts every event (read
        // from the store, so the count never lags behind an append); a league's or
        // tournament's stream version counts its own.
        let total_count = match (league, tournament) {
            (Some(league), _) => {
                let model = app.existing_league(league).await?;
                model.league(league).map_or(0, |view| view.stream_version)
            }
            (None, Some(tournament)) => league_domain::Aggregate::version(
                app.existing_tournament(tournament).await?.as_ref(),
            ),
            (None, None) => app.store().head_position().await.map_err(AppError::from)?,
        };
        // One more than the page tells whether there is a next page.
        let mut events = match (size, tournament) {
            (0, _) => Vec::new(),
            (_, Some(tournament)) => {
                app.tournament_events_page(tournament, after, size + 1).await?
            }
            (_, None) => app.events(league, after, size + 1).await?,
        };
        let has_next_page = events.len() > size;
        events.truncate(size);
        let mut connection = Connection::with_additional_fields(
            after.is_some_and(|position| position > 0),
            has_next_page,
            ConnectionTotals { total_count },
        );
        connection.edges.extend(
            events.into_iter().map(|event| Edge::new(event.position.to_string(), Event(event))),
        );
        Ok(connection)
    }
}

/// Complexity of a connection field: its selection counted once per node of the page
/// asked for (clamped to the largest page, so a too-large `first` is reported as
/// `BAD_USER_INPUT` by the resolver rather than as too complex).
fn page_complexity(first: Option<i32>, child_complexity: usize) -> usize {
    let page = first.map_or(DEFAULT_PAGE_SIZE, |n| n.clamp(1, MAX_PAGE_SIZE as i32) as usize);
    page.saturating_mul(child_complexity).max(1)
}

/// One page of a list of ids, the cursor of each node being its id.
fn id_page<Node: async_graphql::OutputType>(
    ids: &[uuid::Uuid],
    first: Option<i32>,
    after: Option<String>,
    node: impl Fn(uuid::Uuid) -> Node,
) -> GatewayResult<Connection<String, Node, ConnectionTotals>> {
    let size = page_size(first)?;
    let start = match after {
        None => 0,
        Some(cursor) => {
            let index = uuid::Uuid::parse_str(&cursor)
                .ok()
                .and_then(|after| ids.iter().position(|id| *id == after));
            index.map(|i| i + 1).ok_or_else(|| {
                GatewayError::bad_input(
                    "after",
                    format!("{cursor:?} is not a cursor of this connection"),
                )
            })?
        }
    };
    let end = (start + size).min(ids.len());
    let mut connection = Connection::with_additional_fields(
        start > 0,
        end < ids.len(),
        ConnectionTotals { total_count: ids.len() as u64 },
    );
    connection.edges.extend(ids[start..end].iter().map(|id| Edge::new(id.to_string(), node(*id))));
    Ok(connection)
}
