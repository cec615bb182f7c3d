//! [`App`]: command execution with optimistic retries, idempotency and read-your-writes;
//! read-model access, as-of queries, audit-log pages and live notifications.

use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard};
use std::time::Duration;

use chrono::Utc;
use league_domain::{
    Actor, Aggregate, Context, DomainEvent, League, LeagueCommand, Player, PlayerCommand,
    league_stream_id,
};
use league_projections::{
    Applied, AsOf, Projector, ReadModel, ScoreChange, StandingRow, decode_event, load_model, replay,
};
use league_store::{
    AppendOutcome, EventStore, ExpectedVersion, Metadata, NewEvent, RecordedEvent, StoreError,
    StreamId,
};
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use uuid::Uuid;

use crate::error::AppError;
use crate::follow::Follower;

/// Attempts of a command whose append meets a version conflict (each attempt reloads the
/// aggregate and decides again). Enough for a league's worth of simultaneous subscribers.
pub const MAX_ATTEMPTS: usize = 24;
/// Longest wait for the read model to apply an append (it normally takes milliseconds).
const APPLY_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest idempotency key accepted from a caller.
const MAX_KEY_CHARS: usize = 200;
/// Largest page of [`App::events`].
pub const MAX_PAGE: usize = 1000;
/// Live notifications buffered per subscriber before the slowest ones miss some.
const NOTIFICATION_BUFFER: usize = 4096;

/// A command for either aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    Player(PlayerCommand),
    League(LeagueCommand),
}

impl AppCommand {
    pub fn actor(&self) -> Actor {
        match self {
            AppCommand::Player(c) => c.actor(),
            AppCommand::League(c) => c.actor(),
        }
    }

    /// The stream the command appends to.
    pub fn stream_id(&self) -> String {
        match self {
            AppCommand::Player(c) => c.stream_id(),
            AppCommand::League(c) => c.stream_id(),
        }
    }
}

impl From<PlayerCommand> for AppCommand {
    fn from(c: PlayerCommand) -> Self {
        AppCommand::Player(c)
    }
}

impl From<LeagueCommand> for AppCommand {
    fn from(c: LeagueCommand) -> Self {
        AppCommand::League(c)
    }
}

macro_rules! app_command_from {
    ($($ty:ident => $outer:ident),*) => {$(
        impl From<league_domain::$ty> for AppCommand {
            fn from(c: league_domain::$ty) -> Self {
                AppCommand::$outer(c.into())
            }
        }
    )*};
}
app_command_from!(
    RegisterPlayer => Player,
    CreateLeague => League,
    Subscribe => League,
    Unsubscribe => League,
    ReportResult => League,
    CorrectResult => League
);

/// Per-call options of [`App::execute`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandOptions {
    /// A retried call with the same key (from the same actor) returns the first call's
    /// outcome and appends nothing.
    pub idempotency_key: Option<String>,
    /// Stored in the events' metadata, to tie them to a request.
    pub correlation_id: Option<Uuid>,
}

/// What a command appended (or, when `deduplicated`, what the first call with the same
/// idempotency key appended).
#[derive(Debug, Clone, PartialEq)]
pub struct Executed {
    pub events: Vec<RecordedEvent>,
    pub last_position: u64,
    pub deduplicated: bool,
}

impl From<AppendOutcome> for Executed {
    fn from(outcome: AppendOutcome) -> Self {
        Executed {
            last_position: outcome.last_position,
            deduplicated: outcome.deduplicated,
            events: outcome.events,
        }
    }
}

/// One event as folded into the read model, for live subscriptions.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub event: RecordedEvent,
    /// The league the event concerns (`None` for player registrations).
    pub league: Option<Uuid>,
    /// Whether the league's standings changed.
    pub standings_changed: bool,
    pub applied: Applied,
}

/// Read access to the in-memory read model. Do not hold it across an `.await`.
pub type ReadGuard<'a> = RwLockReadGuard<'a, ReadModel>;

/// The application service. Cheap to clone; the background follower stops when the last
/// clone is dropped.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    store: EventStore,
    model: Arc<RwLock<ReadModel>>,
    applied: watch::Receiver<u64>,
    persisted: watch::Receiver<u64>,
    notifications: broadcast::Sender<Arc<Notification>>,
    follower: JoinHandle<()>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.follower.abort();
    }
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("store", &self.inner.store)
            .field("applied", &*self.inner.applied.borrow())
            .finish_non_exhaustive()
    }
}

impl App {
    /// Connects to `sqlite://…` or `postgres://…`, migrates, loads the read model and starts
    /// following the live feed.
    pub async fn open(database_url: &str) -> Result<App, AppError> {
        let store = EventStore::connect(database_url).await.map_err(|error| match error {
            StoreError::UnsupportedDatabase { .. } => {
                AppError::invalid("database", error.to_string())
            }
            other => AppError::internal(other),
        })?;
        App::from_store(store).await
    }

    /// [`App::open`] on an already connected store (migrates it too).
    pub async fn from_store(store: EventStore) -> Result<App, AppError> {
        store.migrate().await?;
        let db = store.connection();
        let mut projector = Projector::open(db).await?;
        let head = store.head_position().await?;
        let checkpoint = projector.checkpoint();
        let model = if (checkpoint == 0 && head > 0) || checkpoint > head {
            // Tables never written (or ahead of this log): rebuild them in bulk.
            let (model, _) = replay(&store, |_| {}).await?;
            projector = Projector::open(db).await?;
            model
        } else {
            // Fold what the tables already reflect from the table scan; the follower folds
            // the rest event by event and writes the rows it touches.
            load_model(&store, Some(AsOf::Position(checkpoint)), |_| {}).await?
        };
        let (applied_tx, applied) = watch::channel(model.position());
        let (persisted_tx, persisted) = watch::channel(projector.checkpoint());
        let (notifications, _) = broadcast::channel(NOTIFICATION_BUFFER);
        let model = Arc::new(RwLock::new(model));
        let follower = Follower {
            store: store.clone(),
            model: model.clone(),
            projector,
            applied: applied_tx,
            persisted: persisted_tx,
            notifications: notifications.clone(),
        };
        let follower = tokio::spawn(follower.run());
        let app = App {
            inner: Arc::new(Inner { store, model, applied, persisted, notifications, follower }),
        };
        app.wait_applied(head).await?;
        Ok(app)
    }

    pub fn store(&self) -> &EventStore {
        &self.inner.store
    }

    /// The in-memory read model (no IO). Do not hold the guard across an `.await`.
    pub fn read(&self) -> ReadGuard<'_> {
        self.inner.model.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// The highest log position the read model has applied.
    pub fn applied_position(&self) -> u64 {
        *self.inner.applied.borrow()
    }

    /// Live notifications, one per event folded from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Notification>> {
        self.inner.notifications.subscribe()
    }

    /// Waits until the read model has applied `position`.
    pub async fn wait_applied(&self, position: u64) -> Result<(), AppError> {
        wait_for(self.inner.applied.clone(), position).await
    }

    /// Waits until the `rm_*` tables reflect `position` (tests, tools).
    pub async fn wait_persisted(&self, position: u64) -> Result<(), AppError> {
        wait_for(self.inner.persisted.clone(), position).await
    }

    /// Runs a command: see the crate docs. Refusals append nothing.
    pub async fn execute(
        &self,
        command: impl Into<AppCommand>,
        options: CommandOptions,
    ) -> Result<Executed, AppError> {
        let command = command.into();
        let actor = command.actor();
        let key =
            options.idempotency_key.as_deref().map(|key| scoped_key(actor, key)).transpose()?;
        if let Some(key) = &key
            && let Some(outcome) = self.inner.store.idempotent_outcome(key).await?
        {
            self.wait_applied(outcome.last_position).await?;
            return Ok(outcome.into());
        }
        let stream = StreamId::new(command.stream_id())
            .map_err(|error| AppError::invalid("id", error.to_string()))?;
        let metadata = Metadata {
            actor: Some(actor.to_string()),
            correlation_id: options.correlation_id.map(|id| id.to_string()),
            causation_id: None,
            idempotency_key: key,
        };
        for attempt in 0..MAX_ATTEMPTS {
            let history = self.load_stream(&stream).await?;
            let version = history.len() as u64;
            let decided = match self.decide(&command, &history) {
                Ok(decided) => decided,
                Err(refusal) => {
                    // A concurrent call with the same key may have committed between the key
                    // check above and this decision (its events refuse ours, e.g. "already
                    // has a result"): its outcome is this call's answer.
                    if let Some(key) = &metadata.idempotency_key
                        && let Some(outcome) = self.inner.store.idempotent_outcome(key).await?
                    {
                        self.wait_applied(outcome.last_position).await?;
                        return Ok(outcome.into());
                    }
                    return Err(refusal);
                }
            };
            if decided.is_empty() {
                let last_position = self.applied_position();
                return Ok(Executed { events: Vec::new(), last_position, deduplicated: false });
            }
            let events = decided
                .iter()
                .map(|event| {
                    NewEvent::new(
                        event.event_type(),
                        event.schema_version() as i32,
                        event.payload(),
                    )
                })
                .collect();
            let expected = if version == 0 {
                ExpectedVersion::NoStream
            } else {
                ExpectedVersion::Exact(version)
            };
            match self.inner.store.append(&stream, expected, events, metadata.clone()).await {
                Ok(outcome) => {
                    self.wait_applied(outcome.last_position).await?;
                    return Ok(outcome.into());
                }
                Err(StoreError::Conflict { .. }) => {
                    // Someone appended to the same aggregate first: decide again on the new
                    // state, after a short, growing pause so contenders spread out.
                    let pause = Duration::from_millis((attempt as u64 + 1).min(10) * 2);
                    tokio::time::sleep(pause).await;
                }
                Err(error) => return Err(AppError::internal(error)),
            }
        }
        Err(AppError::Contention { stream: stream.to_string() })
    }

    async fn load_stream(&self, stream: &StreamId) -> Result<Vec<DomainEvent>, AppError> {
        self.inner
            .store
            .read_stream(stream, 1)
            .await?
            .iter()
            .map(|event| {
                decode_event(&event.event_type, event.schema_version.into(), &event.payload)
                    .map_err(|error| {
                        AppError::internal(format!("position {}: {error}", event.position))
                    })
            })
            .collect()
    }

    /// Folds the aggregate, fills the context from the read model and handles the command.
    fn decide(
        &self,
        command: &AppCommand,
        history: &[DomainEvent],
    ) -> Result<Vec<DomainEvent>, AppError> {
        let mut context = Context::new(Utc::now());
        Ok(match command {
            AppCommand::Player(c) => Player::from_events(history).handle(c, &context)?,
            AppCommand::League(c) => {
                if let Some(player) = c.subscriber() {
                    let model = self.read();
                    if model.player(player).is_some() {
                        let since = context.activity_window_start();
                        let finished = model.finished_games_since(player, since);
                        context =
                            context.with_subscriber(u32::try_from(finished).unwrap_or(u32::MAX));
                    }
                }
                League::from_events(history).handle(c, &context)?
            }
        })
    }

    /// A league's standings at a point in history (replaying the log up to it).
    pub async fn standings_as_of(
        &self,
        league: Uuid,
        as_of: AsOf,
    ) -> Result<Vec<StandingRow>, AppError> {
        self.as_of(league, as_of, |model| model.standings(league)).await
    }

    /// A player's score history in a league at a point in history.
    pub async fn score_history_as_of(
        &self,
        league: Uuid,
        player: Uuid,
        as_of: AsOf,
    ) -> Result<Vec<ScoreChange>, AppError> {
        self.as_of(league, as_of, |model| model.score_history(league, player)).await
    }

    /// The read model at `as_of` (the live one when the bound is at or past it).
    pub async fn model_as_of(&self, as_of: AsOf) -> Result<ReadModel, AppError> {
        Ok(load_model(&self.inner.store, Some(as_of), |_| {}).await?)
    }

    async fn as_of<T>(
        &self,
        league: Uuid,
        as_of: AsOf,
        view: impl Fn(&ReadModel) -> T,
    ) -> Result<T, AppError> {
        {
            let model = self.read();
            if model.league(league).is_none() {
                return Err(AppError::NotFound(format!("league {league}")));
            }
            // The live model already is the history up to a position at or past its own.
            if let AsOf::Position(position) = as_of
                && position >= model.position()
            {
                return Ok(view(&model));
            }
        }
        let model = self.model_as_of(as_of).await?;
        Ok(view(&model))
    }

    /// One page of the audit log: up to `first` events after position `after`, of one
    /// league's stream or of the whole log.
    pub async fn events(
        &self,
        league: Option<Uuid>,
        after: Option<u64>,
        first: usize,
    ) -> Result<Vec<RecordedEvent>, AppError> {
        if first == 0 || first > MAX_PAGE {
            return Err(AppError::invalid(
                "first",
                format!("must be 1 to {MAX_PAGE}, got {first}"),
            ));
        }
        let after = after.unwrap_or(0);
        match league {
            None => Ok(self.inner.store.read_all(after + 1, first as u64).await?),
            Some(league) => {
                if self.read().league(league).is_none() {
                    return Err(AppError::NotFound(format!("league {league}")));
                }
                let stream = StreamId::new(league_stream_id(league)).map_err(AppError::internal)?;
                let mut events = self.inner.store.read_stream(&stream, 1).await?;
                events.retain(|event| event.position > after);
                events.truncate(first);
                Ok(events)
            }
        }
    }
}

/// Scopes a caller's idempotency key to the actor, so two users' keys never collide.
fn scoped_key(actor: Actor, key: &str) -> Result<String, AppError> {
    let chars = key.chars().count();
    if key.trim().is_empty() || chars > MAX_KEY_CHARS {
        return Err(AppError::invalid(
            "idempotencyKey",
            format!("must be 1 to {MAX_KEY_CHARS} non-blank characters, got {chars}"),
        ));
    }
    Ok(format!("{actor}:{key}"))
}

async fn wait_for(mut position: watch::Receiver<u64>, target: u64) -> Result<(), AppError> {
    match tokio::time::timeout(APPLY_TIMEOUT, position.wait_for(|p| *p >= target)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(_)) => Err(AppError::internal("the read-model follower stopped")),
        Err(_) => Err(AppError::internal(format!(
            "the read model did not reach position {target} within {APPLY_TIMEOUT:?}"
        ))),
    }
}
