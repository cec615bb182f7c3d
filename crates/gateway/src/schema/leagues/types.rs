//! A league as the API shows it: settings, subscribed players, its schedule and standings,
//! a game with its seats and result (the `GameResult` union, also a tournament board's), a
//! standing and a score change. Each object holds the application (a cheap
//! handle) and an id; league settings are lookups in the in-memory catalog, a league's
//! games and standings come from its model (cached, loaded from its stream once), and a
//! game holds its league's model, so nested fields (a league's games, a game's seated
//! players) cost no IO once the league is cached: no N+1, and no DataLoader needed.

use std::sync::Arc;

use async_graphql::{ComplexObject, ID, Object, SimpleObject, Union};
use chrono::{DateTime, Utc};
use league_app::{App, LeagueSummary, ReadModel};
use league_domain::LeagueSettings;
use league_projections::{GameView, SeatView, StandingRow};
use uuid::Uuid;

use crate::error::GatewayResult;
use crate::schema::aggregation::AggregationValue;
use crate::schema::events::Event;
use crate::schema::feeds::fields::{ExportFormat, ExportTableValue, export};
use crate::schema::inputs::{AsOf, ScoringSystemValue};
use crate::schema::pagination::league_list_complexity;
use crate::schema::players::types::Player;
use crate::schema::tie_break::TieBreakValue;

use super::values::{GameStatus, LeagueStatus};

/// A league: settings, subscribed players, its schedule and standings.
#[derive(Clone)]
pub struct League {
    app: App,
    id: Uuid,
}

impl League {
    pub fn new(app: App, id: Uuid) -> Self {
        League { app, id }
    }

    /// Looks the league up in the catalog. League objects are built only for ids found in
    /// it, and it never forgets a league (the log is append-only), so this cannot miss.
    fn with<T>(&self, f: impl FnOnce(&LeagueSummary) -> T) -> T {
        let catalog = self.app.catalog();
        f(catalog.league(self.id).expect("a League object is built from an existing league"))
    }

    /// The league's settings, from the catalog (see [`Self::with`]).
    fn settings<T>(&self, f: impl FnOnce(&LeagueSettings) -> T) -> T {
        self.with(|l| f(&l.settings))
    }

    /// The league's model (games, results, standings).
    async fn model(&self) -> GatewayResult<Arc<ReadModel>> {
        Ok(self.app.existing_league(self.id).await?)
    }
}

/// A league: settings, subscribed players, its schedule and standings.
#[Object]
impl League {
    async fn id(&self) -> ID {
        ID(self.id.to_string())
    }

    /// The league's standings or every finished game's result and scores, as CSV (one
    /// `table`) or JSON (both), as `GET /export/leagues/<id>.csv|json` serves them
    /// (`docs/feeds.md#exports`).
    async fn export(
        &self,
        format: ExportFormat,
        #[graphql(default_with = "ExportTableValue::Results")] table: ExportTableValue,
    ) -> GatewayResult<String> {
        export(&self.app, league_app::CompetitionKind::League, self.id, format, table).await
    }

    async fn name(&self) -> String {
        self.settings(|s| s.name.clone())
    }

    /// The board game played (e.g. "Diplomacy").
    async fn game(&self) -> String {
        self.settings(|s| s.game.clone())
    }

    async fn game_version(&self) -> Option<String> {
        self.settings(|s| s.game_version.clone())
    }

    async fn scoring_system(&self) -> ScoringSystemValue {
        self.settings(|s| s.scoring_system.into())
    }

    /// k: seats per game.
    async fn players_per_game(&self) -> u32 {
        self.settings(|s| s.players_per_game)
    }

    /// N: players in the league.
    async fn size(&self) -> u32 {
        self.settings(|s| s.size)
    }

    /// s: times each player takes each seat.
    async fn games_per_seat(&self) -> u32 {
        self.settings(|s| s.games_per_seat)
    }

    async fn require_active_players(&self) -> bool {
        self.settings(|s| s.require_active_players)
    }

    /// How game scores make the standings total (docs/scoring.md#league-aggregation).
    async fn aggregation(&self) -> AggregationValue {
        self.settings(|s| s.aggregation.into())
    }

    async fn status(&self) -> LeagueStatus {
        self.with(|v| v.status.into())
    }

    async fn created_at(&self) -> DateTime<Utc> {
        self.with(|l| l.created_at)
    }

    /// Number of events in the league's stream (its optimistic-concurrency version).
    async fn version(&self) -> GatewayResult<u64> {
        let model = self.model().await?;
        Ok(model.league(self.id).map_or(0, |l| l.stream_version))
    }

    /// Who manages the league besides the site admin: its creator (when an organiser created
    /// it) and its co-organisers (docs/api.md#roles).
    async fn organisers(&self) -> Vec<Player> {
        let organisers = self.with(|l| {
            l.organisers
                .creator()
                .into_iter()
                .chain(l.organisers.co_organisers().iter().copied())
                .collect::<Vec<_>>()
        });
        organisers.into_iter().map(|id| Player::new(self.app.clone(), id.into())).collect()
    }

    /// Subscribed players, in subscription order.
    ///
    /// Complexity: the selection counts once per player a league may hold (64).
    #[graphql(complexity = "league_list_complexity(child_complexity)")]
    async fn players(&self) -> Vec<Player> {
        let ids = self.with(|l| l.players.clone());
        ids.into_iter().map(|id| Player::new(self.app.clone(), id)).collect()
    }

    /// Every game of the schedule, by number (empty while the league is open).
    ///
    /// Complexity: the selection counts once per player a league may hold (64), like the
    /// league's players (a league with several games per seat holds more games).
    #[graphql(complexity = "league_list_complexity(child_complexity)")]
    async fn games(&self) -> GatewayResult<Vec<Game>> {
        let model = self.model().await?;
        Ok(model
            .games_of(self.id)
            .map(|game| Game::new(self.app.clone(), model.clone(), game.id))
            .collect())
    }

    /// Standings now, or as of a point in history (replayed from the log).
    ///
    /// Complexity: the selection counts once per player a league may hold (64).
    #[graphql(complexity = "league_list_complexity(child_complexity)")]
    async fn standings(&self, as_of: Option<AsOf>) -> GatewayResult<Vec<Standing>> {
        standings(&self.app, self.id, as_of).await
    }

    /// The league's newest event (the first thing its time travel shows; the rest of its
    /// log is `events(leagueId:)`).
    async fn latest_event(&self) -> GatewayResult<Option<Event>> {
        Ok(self.app.latest_league_event(self.id).await?.map(Event))
    }

    /// Every subscribed player's score history, in the order of `players` (the running
    /// totals chart in one request, `docs/api.md#score-history`); with `afterPosition`, only
    /// the changes made after that global log position, and only the players they changed
    /// (what a live page lacks after a result).
    ///
    /// Complexity: the selection counts once per player a league may hold (64).
    #[graphql(complexity = "league_list_complexity(child_complexity)")]
    async fn score_histories(
        &self,
        after_position: Option<u64>,
    ) -> GatewayResult<Vec<PlayerScoreHistory>> {
        let model = self.model().await?;
        let players = self.with(|l| l.players.clone());
        Ok(players
            .into_iter()
            .map(|player| {
                let changes = model
                    .score_history(self.id, player)
                    .into_iter()
                    .filter(|change| after_position.is_none_or(|after| change.position > after))
                    .map(|change| {
                        ScoreChange::new(self.app.clone(), model.clone(), self.id, player, change)
                    })
                    .collect();
                PlayerScoreHistory { player: Player::new(self.app.clone(), player), changes }
            })
            .filter(|history| after_position.is_none() || !history.changes.is_empty())
            .collect())
    }
}

/// One player's score history in a league, oldest change first.
#[derive(SimpleObject)]
pub struct PlayerScoreHistory {
    pub player: Player,
    pub changes: Vec<ScoreChange>,
}

/// Standings of a league, now (from `read`) or as of a bound (replayed by the app).
async fn standings(app: &App, league: Uuid, as_of: Option<AsOf>) -> GatewayResult<Vec<Standing>> {
    let as_of = as_of.map(|as_of| as_of.to_bound()).transpose()?;
    let rows = app.league_standings(league, as_of).await?;
    Ok(rows.into_iter().map(|row| Standing::new(app.clone(), row)).collect())
}

/// One game of a league's schedule.
#[derive(Clone)]
pub struct Game {
    app: App,
    /// The model of the game's league (a snapshot: one request sees one state).
    model: Arc<ReadModel>,
    id: Uuid,
}

impl Game {
    /// A game of the league whose model is `model`.
    pub fn new(app: App, model: Arc<ReadModel>, id: Uuid) -> Self {
        Game { app, model, id }
    }

    /// Looks the game up; games never leave their league's model.
    fn with<T>(&self, f: impl FnOnce(&GameView) -> T) -> T {
        f(self.model.game(self.id).expect("a Game object is built from an existing game"))
    }
}

/// One game of a league's schedule.
#[Object]
impl Game {
    async fn id(&self) -> ID {
        ID(self.id.to_string())
    }

    /// 1-based number within the league.
    async fn number(&self) -> u32 {
        self.with(|g| g.number)
    }

    async fn league(&self) -> League {
        League::new(self.app.clone(), self.with(|g| g.league_id))
    }

    /// Who sits where (seat 1 first).
    async fn seats(&self) -> Vec<Seat> {
        self.with(|g| {
            g.seats
                .iter()
                .map(|seat| Seat {
                    seat: seat.seat,
                    label: seat.label.to_string(),
                    player: Player::new(self.app.clone(), seat.player),
                })
                .collect()
        })
    }

    async fn status(&self) -> GameStatus {
        self.with(|v| v.status.into())
    }

    /// The result as reported (or last corrected); null until the game is finished.
    async fn result(&self) -> GatewayResult<Option<GameResultValue>> {
        self.with(|g| {
            g.result.as_ref().map(|result| GameResultValue::new(&self.app, result, &g.seats))
        })
        .transpose()
    }

    /// League score of each seated player for this game; empty until finished.
    async fn scores(&self) -> Vec<GameScore> {
        self.with(|g| {
            g.scores
                .iter()
                .map(|(player, score)| GameScore {
                    player: Player::new(self.app.clone(), *player),
                    score: *score,
                })
                .collect()
        })
    }

    async fn finished_at(&self) -> Option<DateTime<Utc>> {
        self.with(|g| g.finished_at)
    }
}

/// A player's line in the standings.
#[derive(SimpleObject)]
pub struct Standing {
    /// Competition rank after every tie-breaker (1, 2, 2, 4).
    pub rank: u32,
    pub player: Player,
    pub total: f64,
    /// Finished games counted.
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    /// Under BEST_N: the games the total counts (n, or fewer while fewer are played); null
    /// when every game counts.
    pub counted: Option<u32>,
    /// When this line's total equals a neighbour's but the rank differs: the tie-breaker that
    /// split them (from the line above, or else the line below); null when the total alone
    /// ranks it or nothing split the level lines.
    pub separated_by: Option<TieBreakValue>,
}

impl Standing {
    pub fn new(app: App, row: StandingRow) -> Self {
        Standing {
            rank: row.rank,
            player: Player::new(app, row.player.into()),
            total: row.total,
            played: row.played,
            wins: row.wins,
            draws: row.draws,
            counted: row.counted,
            separated_by: row.separated_by.map(TieBreakValue::from),
        }
    }
}

/// One change of a player's league total: a reported or corrected result.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct ScoreChange {
    #[graphql(skip)]
    app: App,
    #[graphql(skip)]
    league: Uuid,
    #[graphql(skip)]
    player: Uuid,
    pub game: Game,
    /// Global position of the event that made the change.
    pub position: u64,
    pub recorded_at: DateTime<Utc>,
    /// Change of the player's total.
    pub delta: f64,
    /// The player's total after the change.
    pub total: f64,
    /// The correction's reason (null for a first report).
    pub reason: Option<String>,
}

impl ScoreChange {
    /// A change of `player`'s total in `league`, whose live model is `model`.
    pub fn new(
        app: App,
        model: Arc<ReadModel>,
        league: Uuid,
        player: Uuid,
        change: league_projections::ScoreChange,
    ) -> Self {
        ScoreChange {
            app: app.clone(),
            league,
            player,
            game: Game::new(app, model, change.game),
            position: change.position,
            recorded_at: change.recorded_at,
            delta: change.delta,
            total: change.total,
            reason: change.reason,
        }
    }
}

#[ComplexObject]
impl ScoreChange {
    /// How the scoring system arrived at the player's score for the game in this change:
    /// the system's explanation lines (`docs/scoring.md`), read from the log on request.
    async fn explanation(&self) -> GatewayResult<Vec<String>> {
        Ok(self.app.score_explanation(self.league, self.position, self.player).await?)
    }
}

/// A seat of a game: its number, its label (a Diplomacy power, "Seat 2"…), its player.
#[derive(SimpleObject)]
pub struct Seat {
    /// 1-based seat number.
    pub seat: u32,
    pub label: String,
    pub player: Player,
}

/// A player's league score for one game.
#[derive(SimpleObject)]
pub struct GameScore {
    pub player: Player,
    pub score: f64,
}

/// A game result, in the shape of the league's scoring system.
#[derive(Union)]
#[graphql(name = "GameResult")]
pub enum GameResultValue {
    Placement(PlacementResult),
    Diplomacy(DiplomacyResult),
    Teams(TeamResult),
}

impl GameResultValue {
    pub(crate) fn new(
        app: &App,
        result: &league_scoring::GameResult,
        seats: &[SeatView],
    ) -> GatewayResult<Self> {
        use league_scoring::GameResult as R;
        Ok(match result {
            R::Placement(entries) => GameResultValue::Placement(PlacementResult {
                entries: entries
                    .iter()
                    .map(|e| {
                        Ok(PlacementEntry {
                            player: Player::from_key(app, &e.player, seats)?,
                            points: e.points,
                        })
                    })
                    .collect::<GatewayResult<_>>()?,
            }),
            R::Diplomacy(entries) => GameResultValue::Diplomacy(DiplomacyResult {
                entries: entries
                    .iter()
                    .map(|e| {
                        Ok(DiplomacyEntry {
                            player: Player::from_key(app, &e.player, seats)?,
                            centres: e.centres,
                            eliminated: e.eliminated,
                            eliminated_year: e.eliminated_year,
                            in_draw: e.in_draw,
                            solo_year: e.solo_year,
                            earlier_centres: e.earlier_centres.clone(),
                        })
                    })
                    .collect::<GatewayResult<_>>()?,
            }),
            R::Teams(teams) => GameResultValue::Teams(TeamResult {
                draw: teams.draw,
                sides: teams
                    .sides
                    .iter()
                    .map(|side| {
                        Ok(Side {
                            name: side.name.clone(),
                            players: side
                                .players
                                .iter()
                                .map(|p| {
                                    Ok(TeamPlayer {
                                        player: Player::from_key(app, &p.player, seats)?,
                                        points: p.points,
                                        units: p.units,
                                        lost: p.lost,
                                        kills: p.kills,
                                        ships_left: p.ships_left,
                                        surrendered: p.surrendered,
                                    })
                                })
                                .collect::<GatewayResult<_>>()?,
                        })
                    })
                    .collect::<GatewayResult<_>>()?,
            }),
        })
    }
}

/// An all-vs-all game's final points.
#[derive(SimpleObject)]
pub struct PlacementResult {
    pub entries: Vec<PlacementEntry>,
}

#[derive(SimpleObject)]
pub struct PlacementEntry {
    pub player: Player,
    pub points: f64,
}

/// A Diplomacy game's end position.
#[derive(SimpleObject)]
pub struct DiplomacyResult {
    pub entries: Vec<DiplomacyEntry>,
}

#[derive(SimpleObject)]
pub struct DiplomacyEntry {
    pub player: Player,
    pub centres: u32,
    pub eliminated: bool,
    pub eliminated_year: Option<i32>,
    /// Included in a passed draw vote (when no power is, the draw is every survivor; one
    /// power alone is a concession: `docs/scoring.md`).
    pub in_draw: bool,
    /// The soloist's year of the solo, when reported (`docs/scoring.md#draws-and-concessions`).
    pub solo_year: Option<i32>,
    /// Centre counts at the end of earlier years, latest first, when reported (the Maxonian
    /// and 7Eleven tie-breaks, `docs/scoring.md#maxonian-and-7eleven`); empty otherwise.
    pub earlier_centres: Vec<u32>,
}

/// A side-against-side game.
#[derive(SimpleObject)]
pub struct TeamResult {
    pub draw: bool,
    pub sides: Vec<Side>,
}

#[derive(SimpleObject)]
pub struct Side {
    pub name: String,
    pub players: Vec<TeamPlayer>,
}

#[derive(SimpleObject)]
pub struct TeamPlayer {
    pub player: Player,
    pub points: f64,
    pub units: u32,
    pub lost: u32,
    pub kills: u32,
    pub ships_left: Option<u32>,
    pub surrendered: bool,
}
