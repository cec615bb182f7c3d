//! The persisted read models (`rm_*` tables, created by `league-migration`): the
//! [`Projector`] that keeps them in step with the log, and [`replay`], which rebuilds them.
//!
//! The projector folds each event into the in-memory [`ReadModel`] and records which rows
//! the event touched; [`Projector::take_batch`] turns those into owned rows (the current
//! state of each touched entity, so a batch of many events writes each row once) and
//! [`Projector::write`] writes them together with the checkpoint in one transaction. The
//! checkpoint is advanced by compare-and-set (`UPDATE … WHERE position < new`): when two
//! processes follow one PostgreSQL database, the row lock serialises them and the one that
//! finds the checkpoint already at or past its batch writes nothing, so no event is ever
//! applied twice and rows never move backwards.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use league_store::{EventStore, format_time};
use sea_orm::{
    ConnectionTrait, DatabaseConnection, DbBackend, SqliteTransactionMode, Statement,
    TransactionOptions, TransactionTrait, Value,
};
use uuid::Uuid;

use crate::asof::load_model;
use crate::error::ProjectionError;
use crate::model::{Applied, ReadModel};

/// The checkpoint row's name.
const CHECKPOINT: &str = "read_model";
/// Bound parameters per multi-row INSERT (SQLite allows 32 766, PostgreSQL 65 535).
const MAX_PARAMS: usize = 30_000;

/// One read-model table: its name, columns (key columns first) and key length.
#[derive(Debug, Clone, Copy)]
struct Table {
    name: &'static str,
    columns: &'static [(&'static str, Kind)],
    key: usize,
}

/// How a column is read back in [`read_tables`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Int,
    Float,
}

const PLAYERS: Table = Table {
    name: "rm_players",
    columns: &[
        ("player_id", Kind::Text),
        ("name", Kind::Text),
        ("token_hash", Kind::Text),
        ("registered_at", Kind::Text),
    ],
    key: 1,
};
const LEAGUES: Table = Table {
    name: "rm_leagues",
    columns: &[
        ("league_id", Kind::Text),
        ("name", Kind::Text),
        ("game", Kind::Text),
        ("game_version", Kind::Text),
        ("scoring_system", Kind::Text),
        ("players_per_game", Kind::Int),
        ("size", Kind::Int),
        ("games_per_seat", Kind::Int),
        ("require_active_players", Kind::Int),
        ("status", Kind::Text),
        ("players", Kind::Text),
        ("created_at", Kind::Text),
        ("stream_version", Kind::Int),
    ],
    key: 1,
};
const GAMES: Table = Table {
    name: "rm_games",
    columns: &[
        ("game_id", Kind::Text),
        ("league_id", Kind::Text),
        ("number", Kind::Int),
        ("seats", Kind::Text),
        ("status", Kind::Text),
        ("result", Kind::Text),
        ("scores", Kind::Text),
        ("finished_at", Kind::Text),
    ],
    key: 1,
};
const STANDINGS: Table = Table {
    name: "rm_standings",
    columns: &[
        ("league_id", Kind::Text),
        ("player_id", Kind::Text),
        ("standing_rank", Kind::Int),
        ("total", Kind::Float),
        ("played", Kind::Int),
        ("wins", Kind::Int),
        ("draws", Kind::Int),
    ],
    key: 2,
};
const HISTORY: Table = Table {
    name: "rm_score_history",
    columns: &[
        ("league_id", Kind::Text),
        ("player_id", Kind::Text),
        ("position", Kind::Int),
        ("game_id", Kind::Text),
        ("recorded_at", Kind::Text),
        ("delta", Kind::Float),
        ("total", Kind::Float),
        ("reason", Kind::Text),
    ],
    key: 3,
};
const TABLES: [Table; 5] = [PLAYERS, LEAGUES, GAMES, STANDINGS, HISTORY];

/// Rows touched since the last write.
#[derive(Debug, Default)]
struct Dirty {
    players: BTreeSet<Uuid>,
    leagues: BTreeSet<Uuid>,
    /// Leagues whose every game was just scheduled.
    league_games: BTreeSet<Uuid>,
    games: BTreeSet<Uuid>,
    standings: BTreeSet<Uuid>,
    /// (league, game, position) of each result or correction: one history row per seat.
    history: Vec<(Uuid, Uuid, u64)>,
    /// The last position noted.
    position: u64,
}

/// Owned rows to write, prepared from the model (under its lock) and written without it.
#[derive(Debug, Default)]
pub struct RowBatch {
    /// The checkpoint after this batch.
    position: u64,
    /// Rebuild: delete every row first (the checkpoint may stay where it is).
    rebuild: bool,
    /// Leagues whose standings rows are replaced.
    standings_leagues: Vec<Uuid>,
    rows: [Vec<Vec<Value>>; 5],
}

impl RowBatch {
    /// The checkpoint this batch moves the tables to.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Rows in the batch, over every table.
    pub fn row_count(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }
}

/// What [`Projector::write`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushOutcome {
    /// The rows were written and the checkpoint moved to this position.
    Written(u64),
    /// Another process had already written up to this position (≥ the batch's): nothing
    /// was written.
    AlreadyApplied(u64),
}

/// Keeps the `rm_*` tables in step with a [`ReadModel`] that it is told about.
#[derive(Debug)]
pub struct Projector {
    checkpoint: u64,
    dirty: Dirty,
    /// The next batch rewrites every row (a write failed and its noted set was lost).
    rebuild: bool,
}

impl Projector {
    /// A projector resuming from the tables' checkpoint.
    pub async fn open(db: &DatabaseConnection) -> Result<Projector, ProjectionError> {
        Ok(Projector {
            checkpoint: read_checkpoint(db).await?,
            dirty: Dirty::default(),
            rebuild: false,
        })
    }

    /// The position the tables are known to reflect.
    pub fn checkpoint(&self) -> u64 {
        self.checkpoint
    }

    /// Records the rows an event folded into the model touched (events the tables already
    /// reflect are ignored).
    pub fn note(&mut self, applied: &Applied) {
        if applied.position <= self.checkpoint {
            return;
        }
        let dirty = &mut self.dirty;
        dirty.position = dirty.position.max(applied.position);
        if let Some(player) = applied.player {
            dirty.players.insert(player);
        }
        if let Some(league) = applied.league {
            dirty.leagues.insert(league);
            if applied.games_scheduled {
                dirty.league_games.insert(league);
            }
            if let Some(game) = applied.game {
                dirty.games.insert(game);
                dirty.history.push((league, game, applied.position));
            }
            if applied.standings_changed {
                dirty.standings.insert(league);
            }
        }
    }

    /// Whether noted events are waiting to be written.
    pub fn has_pending(&self) -> bool {
        self.rebuild || self.dirty.position > self.checkpoint
    }

    /// Makes the next batch rewrite every row from the model (after a failed write).
    pub fn mark_all(&mut self, model: &ReadModel) {
        self.rebuild = model.position() > 0;
    }

    /// The rows touched since the last write, as they are in `model` now (which must have
    /// folded every noted event). `None` when nothing is pending.
    pub fn take_batch(&mut self, model: &ReadModel) -> Option<RowBatch> {
        if !self.has_pending() {
            return None;
        }
        let dirty = std::mem::take(&mut self.dirty);
        if std::mem::take(&mut self.rebuild) {
            return Some(full_batch(model));
        }
        let mut batch = RowBatch { position: dirty.position, ..RowBatch::default() };
        for id in &dirty.players {
            if let Some(player) = model.player(*id) {
                batch.rows[0].push(player_row(player));
            }
        }
        let mut games: BTreeSet<Uuid> = dirty.games;
        for id in &dirty.leagues {
            if let Some(league) = model.league(*id) {
                batch.rows[1].push(league_row(league));
                if dirty.league_games.contains(id) {
                    games.extend(league.games.iter().copied());
                }
            }
        }
        for id in &games {
            if let Some(game) = model.game(*id) {
                batch.rows[2].push(game_row(game));
            }
        }
        for league in &dirty.standings {
            if let Some(state) = model.leagues.get(league) {
                batch.rows[3]
                    .extend(state.standings_rows().iter().map(|s| standing_row(*league, s)));
            }
            batch.standings_leagues.push(*league);
        }
        for (league, game, position) in dirty.history {
            let Some(game) = model.game(game) else { continue };
            for seat in &game.seats {
                let Some(changes) = model.history.get(&(league, seat.player)) else { continue };
                if let Ok(index) = changes.binary_search_by_key(&position, |c| c.position) {
                    batch.rows[4].push(history_row(league, seat.player, &changes[index]));
                }
            }
        }
        Some(batch)
    }

    /// Writes a batch and advances the checkpoint in one transaction (see the module docs).
    pub async fn write(
        &mut self,
        db: &DatabaseConnection,
        batch: RowBatch,
    ) -> Result<FlushOutcome, ProjectionError> {
        let outcome = write_batch(db, &batch).await?;
        self.checkpoint = match outcome {
            FlushOutcome::Written(position) | FlushOutcome::AlreadyApplied(position) => {
                self.checkpoint.max(position)
            }
        };
        Ok(outcome)
    }
}

/// What [`replay`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// Events folded (= the last position).
    pub events: u64,
    /// Time spent reading and folding the log.
    pub fold_time: Duration,
    /// Time spent rewriting the tables.
    pub write_time: Duration,
    /// Rows written over every table.
    pub rows: usize,
}

impl ReplayReport {
    /// Events folded per second of reading and folding.
    pub fn events_per_second(&self) -> f64 {
        self.events as f64 / self.fold_time.as_secs_f64().max(1e-9)
    }
}

/// Rebuilds every `rm_*` table from the log: folds the whole log (reporting progress with
/// the last folded position), then, in one transaction, deletes every row, writes the
/// model's rows and sets the checkpoint. Returns the model too.
pub async fn replay(
    store: &EventStore,
    progress: impl FnMut(u64),
) -> Result<(ReadModel, ReplayReport), ProjectionError> {
    let started = Instant::now();
    let model = load_model(store, None, progress).await?;
    let fold_time = started.elapsed();
    let batch = full_batch(&model);
    let rows = batch.row_count();
    let started = Instant::now();
    write_batch(store.connection(), &batch).await?;
    let report =
        ReplayReport { events: model.position(), fold_time, write_time: started.elapsed(), rows };
    Ok((model, report))
}

/// Every row of the model, for a rebuild.
fn full_batch(model: &ReadModel) -> RowBatch {
    let mut batch = RowBatch { position: model.position(), rebuild: true, ..RowBatch::default() };
    batch.rows[0] = model.players().map(player_row).collect();
    for league in model.leagues() {
        batch.rows[1].push(league_row(league));
        batch.rows[2].extend(model.games_of(league.id).map(game_row));
        if let Some(state) = model.leagues.get(&league.id) {
            batch.rows[3].extend(state.standings_rows().iter().map(|s| standing_row(league.id, s)));
        }
    }
    for ((league, player), changes) in &model.history {
        batch.rows[4].extend(changes.iter().map(|c| history_row(*league, *player, c)));
    }
    batch
}

async fn write_batch(
    db: &DatabaseConnection,
    batch: &RowBatch,
) -> Result<FlushOutcome, ProjectionError> {
    let backend = db.get_database_backend();
    let txn = match backend {
        DbBackend::Sqlite => {
            db.begin_with_options(TransactionOptions {
                sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                ..Default::default()
            })
            .await?
        }
        _ => db.begin().await?,
    };
    let position = to_db(batch.position);
    // A rebuild may rewrite the position the tables are at; an incremental batch must move
    // them forward.
    let moved = if batch.rebuild {
        txn.execute_raw(statement(
            backend,
            "UPDATE rm_checkpoint SET position = $1 WHERE name = $2 AND position <= $1",
            vec![position.into(), CHECKPOINT.into()],
        ))
        .await?
    } else {
        txn.execute_raw(statement(
            backend,
            "UPDATE rm_checkpoint SET position = $1 WHERE name = $2 AND position < $1",
            vec![position.into(), CHECKPOINT.into()],
        ))
        .await?
    };
    if moved.rows_affected() == 0 {
        txn.rollback().await?;
        let current = read_checkpoint(db).await?;
        return Ok(FlushOutcome::AlreadyApplied(current));
    }
    if batch.rebuild {
        for table in TABLES {
            txn.execute_unprepared(&format!("DELETE FROM {}", table.name)).await?;
        }
    }
    for league in &batch.standings_leagues {
        txn.execute_raw(statement(
            backend,
            "DELETE FROM rm_standings WHERE league_id = $1",
            vec![league.to_string().into()],
        ))
        .await?;
    }
    for (table, rows) in TABLES.iter().zip(&batch.rows) {
        upsert(&txn, backend, table, rows).await?;
    }
    txn.commit().await?;
    Ok(FlushOutcome::Written(batch.position))
}

/// `INSERT … ON CONFLICT (key) DO UPDATE` in chunks (valid on SQLite and PostgreSQL).
async fn upsert<C: ConnectionTrait>(
    db: &C,
    backend: DbBackend,
    table: &Table,
    rows: &[Vec<Value>],
) -> Result<(), ProjectionError> {
    let width = table.columns.len();
    let names: Vec<&str> = table.columns.iter().map(|(name, _)| *name).collect();
    let keys = names[..table.key].join(", ");
    let updates: Vec<String> =
        names[table.key..].iter().map(|name| format!("{name} = excluded.{name}")).collect();
    for chunk in rows.chunks((MAX_PARAMS / width).max(1)) {
        let mut sql = format!("INSERT INTO {} ({}) VALUES ", table.name, names.join(", "));
        let mut values = Vec::with_capacity(chunk.len() * width);
        for (index, row) in chunk.iter().enumerate() {
            if index > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for column in 0..width {
                if column > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!("${}", values.len() + column + 1));
            }
            sql.push(')');
            values.extend(row.iter().cloned());
        }
        sql.push_str(&format!(" ON CONFLICT ({keys}) DO UPDATE SET {}", updates.join(", ")));
        db.execute_raw(statement(backend, &sql, values)).await?;
    }
    Ok(())
}

/// SQL written with `$n` placeholders, as SQLite's `?n` where needed.
fn statement(backend: DbBackend, sql: &str, values: Vec<Value>) -> Statement {
    let sql = match backend {
        DbBackend::Sqlite => sql.replace('$', "?"),
        _ => sql.to_owned(),
    };
    Statement::from_sql_and_values(backend, sql, values)
}

/// The position the `rm_*` tables reflect (0 when never written).
pub async fn read_checkpoint(db: &DatabaseConnection) -> Result<u64, ProjectionError> {
    let backend = db.get_database_backend();
    let row = db
        .query_one_raw(statement(
            backend,
            "SELECT position FROM rm_checkpoint WHERE name = $1",
            vec![CHECKPOINT.into()],
        ))
        .await?;
    Ok(match row {
        Some(row) => from_db(row.try_get_by_index::<i64>(0)?),
        None => 0,
    })
}

/// Every row of every `rm_*` table, as text, sorted by key: what "incremental equals
/// replay" compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSnapshot {
    pub checkpoint: u64,
    /// `(table name, rows)`; each row is its columns rendered as text (`NULL` for null).
    pub tables: Vec<(&'static str, Vec<Vec<String>>)>,
}

/// Reads a [`TableSnapshot`].
pub async fn read_tables(db: &DatabaseConnection) -> Result<TableSnapshot, ProjectionError> {
    let backend = db.get_database_backend();
    let mut tables = Vec::new();
    for table in TABLES {
        let names: Vec<&str> = table.columns.iter().map(|(name, _)| *name).collect();
        let sql = format!(
            "SELECT {} FROM {} ORDER BY {}",
            names.join(", "),
            table.name,
            names[..table.key].join(", ")
        );
        let mut rows = Vec::new();
        for row in db.query_all_raw(Statement::from_string(backend, sql)).await? {
            let mut cells = Vec::with_capacity(names.len());
            for (index, (_, kind)) in table.columns.iter().enumerate() {
                let cell = match kind {
                    Kind::Text => row.try_get_by_index::<Option<String>>(index)?,
                    Kind::Int => row.try_get_by_index::<Option<i64>>(index)?.map(|v| v.to_string()),
                    Kind::Float => {
                        row.try_get_by_index::<Option<f64>>(index)?.map(|v| format!("{v:?}"))
                    }
                };
                cells.push(cell.unwrap_or_else(|| "NULL".to_owned()));
            }
            rows.push(cells);
        }
        tables.push((table.name, rows));
    }
    Ok(TableSnapshot { checkpoint: read_checkpoint(db).await?, tables })
}

fn player_row(player: &crate::PlayerView) -> Vec<Value> {
    vec![
        player.id.to_string().into(),
        player.name.clone().into(),
        player.token_hash.clone().into(),
        format_time(player.registered_at).into(),
    ]
}

fn league_row(league: &crate::LeagueView) -> Vec<Value> {
    let players: Vec<String> = league.players.iter().map(Uuid::to_string).collect();
    vec![
        league.id.to_string().into(),
        league.name.clone().into(),
        league.game.clone().into(),
        league.game_version.clone().into(),
        league.scoring_system.name().into(),
        i64::from(league.players_per_game).into(),
        i64::from(league.size).into(),
        i64::from(league.games_per_seat).into(),
        i64::from(league.require_active_players).into(),
        status_name(league.status).into(),
        json_text(&players).into(),
        format_time(league.created_at).into(),
        to_db(league.stream_version).into(),
    ]
}

fn game_row(game: &crate::GameView) -> Vec<Value> {
    let seats: Vec<serde_json::Value> = game
        .seats
        .iter()
        .map(|s| serde_json::json!({"seat": s.seat, "label": s.label, "player": s.player}))
        .collect();
    let scores: Vec<(String, f64)> =
        game.scores.iter().map(|(player, score)| (player.to_string(), *score)).collect();
    vec![
        game.id.to_string().into(),
        game.league_id.to_string().into(),
        i64::from(game.number).into(),
        json_text(&seats).into(),
        match game.status {
            league_domain::GameStatus::Scheduled => "SCHEDULED",
            league_domain::GameStatus::Finished => "FINISHED",
        }
        .into(),
        game.result.as_ref().map(json_text).into(),
        json_text(&scores).into(),
        game.finished_at.map(format_time).into(),
    ]
}

fn standing_row(league: Uuid, standing: &crate::StandingRow) -> Vec<Value> {
    vec![
        league.to_string().into(),
        standing.player.to_string().into(),
        i64::from(standing.rank).into(),
        standing.total.into(),
        i64::from(standing.played).into(),
        i64::from(standing.wins).into(),
        i64::from(standing.draws).into(),
    ]
}

fn history_row(league: Uuid, player: Uuid, change: &crate::ScoreChange) -> Vec<Value> {
    vec![
        league.to_string().into(),
        player.to_string().into(),
        to_db(change.position).into(),
        change.game.to_string().into(),
        format_time(change.recorded_at).into(),
        change.delta.into(),
        change.total.into(),
        change.reason.clone().into(),
    ]
}

fn status_name(status: league_domain::LeagueStatus) -> &'static str {
    match status {
        league_domain::LeagueStatus::Open => "OPEN",
        league_domain::LeagueStatus::Running => "RUNNING",
        league_domain::LeagueStatus::Completed => "COMPLETED",
    }
}

fn json_text<T: serde::Serialize>(value: &T) -> String {
    // Plain data (strings, numbers, UUIDs) always serialises.
    serde_json::to_string(value).expect("read-model values serialise to JSON")
}

fn to_db(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

fn from_db(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}
