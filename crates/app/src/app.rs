//! [`App`]: command execution with optimistic retries, idempotency and read-your-writes;
//! the catalog, per-league models loaded on demand into a bounded cache, as-of queries,
//! audit-log pages and live notifications.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError, RwLock, RwLockReadGuard};
use std::time::Duration;

use chrono::Utc;
use league_domain::rules::ACTIVE_PLAYER_MIN_FINISHED_GAMES;
use league_domain::{
    Actor, Aggregate, Context, DomainEvent, PlayerCommand, PlayerId, TournamentCommand,
    league_stream_id, player_stream_id,
};
use league_projections::{
    AsOf, Catalog, CatalogSource, PersonKeys, ReadModel, StandingRow, decode, load_catalog,
    load_league, person_keys,
};
use league_store::{
    AppendOutcome, EventStore, ExpectedVersion, Metadata, NewEvent, RecordedEvent, StoreError,
    StreamId,
};
use lru::LruCache;
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use uuid::Uuid;

use crate::aggregates::{Aggregates, StreamState};
use crate::command::AppCommand;
use crate::error::AppError;
use crate::follow::Follower;
use crate::idempotency::{check_reuse, fingerprint, scoped_key};
use crate::personal::{seal_personal_data, sealed_under_held_key};
use crate::shared::{Notification, Shared};
use crate::snapshot::keep_snapshots;

/// Attempts of a command whose append meets a version conflict (each attempt reloads the
/// aggregate and decides again). Enough for a league's worth of simultaneous subscribers.
pub const MAX_ATTEMPTS: usize = 24;
/// Longest wait for the read model to apply an append (it normally takes milliseconds).
const APPLY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a command waits, by default, for a read replica to replay its events before it
/// answers [`AppError::ReplicaLag`] (a standby normally replays within milliseconds).
pub const DEFAULT_REPLICA_LAG_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a start waits for a read replica to replay the primary as it was after the
/// migrations (a standby copied moments ago, or a schema just upgraded on the primary).
const REPLICA_START_TIMEOUT: Duration = Duration::from_secs(60);
/// Largest page of [`App::events`].
pub const MAX_PAGE: usize = 1000;
/// Live notifications buffered before the slowest subscribers miss some (they are told they
/// lagged; the audit log has everything). Each holds its event (≈ 2.5 KB for a result), and
/// the buffer keeps the last ones whether read or not: 1,024 bound it to a few MB.
const NOTIFICATION_BUFFER: usize = 1024;
/// League models kept in memory when `LEAGUE_CACHE_LEAGUES` is not set.
pub const DEFAULT_CACHE_LEAGUES: usize = 1000;
/// Streams whose applied version is remembered, per kept league model: more than the kept
/// aggregates, so a kept state is rarely read from the log only because its stream was
/// forgotten.
const FOLLOWED_STREAMS_PER_KEPT: NonZeroUsize = NonZeroUsize::new(4).unwrap();
/// Environment variable bounding the league-model cache (a number of leagues, ≥ 1).
pub const CACHE_LEAGUES_ENV: &str = "LEAGUE_CACHE_LEAGUES";

/// Per-call options of [`App::execute`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandOptions {
    /// A retried call of the same command with the same key (from the same actor) returns
    /// the first call's outcome and appends nothing; the key used for another command is
    /// refused ([`AppError::IdempotencyKeyReused`]).
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

/// How an [`App`] runs, beyond its database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppSettings {
    /// League models (and aggregates) kept in memory.
    pub cache_leagues: NonZeroUsize,
    /// With a read replica: how long a command waits for the replica to replay its events
    /// (read-your-writes) before it answers [`AppError::ReplicaLag`].
    pub replica_lag_timeout: Duration,
}

impl Default for AppSettings {
    fn default() -> Self {
        AppSettings {
            cache_leagues: NonZeroUsize::new(DEFAULT_CACHE_LEAGUES).expect("non-zero"),
            replica_lag_timeout: DEFAULT_REPLICA_LAG_TIMEOUT,
        }
    }
}

impl AppSettings {
    /// The defaults, with the cache bound from `LEAGUE_CACHE_LEAGUES`.
    pub fn from_env() -> Result<AppSettings, AppError> {
        Ok(AppSettings { cache_leagues: cache_leagues_from_env()?, ..AppSettings::default() })
    }
}

/// Read access to the catalog. Do not hold it across an `.await`.
pub type CatalogGuard<'a> = RwLockReadGuard<'a, Catalog>;

/// The application service. Cheap to clone; the background follower stops when the last
/// clone is dropped.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    /// The primary: appends, and the reads that decide commands.
    store: EventStore,
    /// Where queries, the catalog fold, league loads and the follower read the log: the
    /// replica when the store has one, else the primary.
    reads: EventStore,
    /// How long a command waits for the replica to replay it ([`AppSettings`]).
    replica_lag_timeout: Duration,
    /// Each stream's aggregate as last folded, for deciding commands.
    aggregates: Aggregates,
    shared: Arc<Shared>,
    applied: watch::Receiver<u64>,
    notifications: broadcast::Sender<Arc<Notification>>,
    follower: JoinHandle<()>,
    /// Keeps the catalog snapshot fresh (`crate::snapshot`).
    snapshots: JoinHandle<()>,
    /// How the start loaded the catalog (from a snapshot or the whole log).
    catalog_source: CatalogSource,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.follower.abort();
        self.snapshots.abort();
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

/// The cache bound from `LEAGUE_CACHE_LEAGUES` (default [`DEFAULT_CACHE_LEAGUES`]).
pub fn cache_leagues_from_env() -> Result<NonZeroUsize, AppError> {
    match std::env::var(CACHE_LEAGUES_ENV) {
        Err(_) => Ok(NonZeroUsize::new(DEFAULT_CACHE_LEAGUES).expect("non-zero")),
        Ok(text) => text.trim().parse::<NonZeroUsize>().map_err(|_| {
            AppError::invalid(
                CACHE_LEAGUES_ENV,
                format!("must be a whole number ≥ 1, got {text:?}"),
            )
        }),
    }
}

impl App {
    /// Connects to `sqlite://…` or `postgres://…`, migrates, folds the catalog and starts
    /// following the live feed.
    pub async fn open(database_url: &str) -> Result<App, AppError> {
        App::connect(database_url, None, AppSettings::from_env()?).await
    }

    /// [`App::open`] with `settings`, and, given `read_database_url` (a PostgreSQL hot
    /// standby of the primary `database_url`), reading the log there: the catalog fold,
    /// league loads, as-of and ratings loads, queries and the follower read the standby;
    /// commands, the reads that decide them, key tables, snapshot saves, webhook tables and
    /// migrations go to the primary. A URL that names no supported database, or a replica
    /// beside SQLite, is `BAD_USER_INPUT` on `database` or `readDatabase`.
    pub async fn connect(
        database_url: &str,
        read_database_url: Option<&str>,
        settings: AppSettings,
    ) -> Result<App, AppError> {
        let connected = match read_database_url {
            None => EventStore::connect(database_url).await,
            Some(read_url) => EventStore::connect_with_replica(database_url, read_url).await,
        };
        let store = connected.map_err(|error| match error {
            StoreError::UnsupportedDatabase { .. } => {
                AppError::invalid("database", error.to_string())
            }
            StoreError::UnsupportedReplica { .. } => {
                AppError::invalid("readDatabase", error.to_string())
            }
            other => other.into(),
        })?;
        App::with_settings(store, settings).await
    }

    /// [`App::open`] on an already connected store (migrates it too); the cache bound comes
    /// from `LEAGUE_CACHE_LEAGUES`.
    pub async fn from_store(store: EventStore) -> Result<App, AppError> {
        App::with_settings(store, AppSettings::from_env()?).await
    }

    /// [`App::from_store`] keeping at most `cache_leagues` league models in memory.
    pub async fn with_cache(
        store: EventStore,
        cache_leagues: NonZeroUsize,
    ) -> Result<App, AppError> {
        App::with_settings(store, AppSettings { cache_leagues, ..AppSettings::default() }).await
    }

    /// [`App::from_store`] with `settings`. A store connected with a replica
    /// ([`EventStore::connect_with_replica`]) is read from there (see [`App::connect`]).
    pub async fn with_settings(store: EventStore, settings: AppSettings) -> Result<App, AppError> {
        let cache_leagues = settings.cache_leagues;
        store.migrate().await?;
        if !store.wait_for_replica(REPLICA_START_TIMEOUT).await? {
            return Err(AppError::internal(format!(
                "the read replica has not replayed the primary's schema and log within \
                 {REPLICA_START_TIMEOUT:?} (is its replay paused, or is it a standby of another \
                 server?)"
            )));
        }
        let reads = store.for_reads();
        // Only the catalog is folded at start (the catalog event types, by their index);
        // each league is loaded from its own stream when first asked for. The head is the
        // one of the log read, so the follower goes on exactly where the fold stopped even
        // when a replica is behind the primary.
        let head = reads.head_position().await?;
        let (catalog, source) = load_catalog(&reads, head).await?;
        tracing::info!(
            head,
            snapshot = source.snapshot,
            events_folded = source.events_folded,
            "catalog loaded"
        );
        let (applied_tx, applied) = watch::channel(head);
        let (notifications, _) = broadcast::channel(NOTIFICATION_BUFFER);
        let shared = Arc::new(Shared {
            catalog: RwLock::new(catalog),
            cache: Mutex::new(LruCache::new(cache_leagues)),
            failure: RwLock::new(None),
            ratings: RwLock::new(None),
            ratings_load: Mutex::new(None),
            ratings_window: league_projections::RATINGS_WINDOW.into(),
            standings_watchers: Default::default(),
            followed: crate::aggregates::FollowedVersions::new(
                cache_leagues.saturating_mul(FOLLOWED_STREAMS_PER_KEPT),
            ),
        });
        let follower = Follower {
            store: reads.clone(),
            shared: shared.clone(),
            applied: applied_tx,
            notifications: notifications.clone(),
        };
        let follower = tokio::spawn(follower.run());
        let snapshots = tokio::spawn(keep_snapshots(
            store.clone(),
            shared.clone(),
            applied.clone(),
            source.snapshot.unwrap_or(0),
        ));
        let catalog_source = source;
        let aggregates = Aggregates::new(cache_leagues);
        Ok(App {
            inner: Arc::new(Inner {
                store,
                reads,
                replica_lag_timeout: settings.replica_lag_timeout,
                aggregates,
                shared,
                applied,
                notifications,
                follower,
                snapshots,
                catalog_source,
            }),
        })
    }

    /// The store commands append to (the primary).
    pub fn store(&self) -> &EventStore {
        &self.inner.store
    }

    /// The store queries read the log from: the read replica when the app has one, else the
    /// primary as [`App::store`]. What it has read is at least what the follower applied.
    pub fn reads(&self) -> &EventStore {
        &self.inner.reads
    }

    /// Whether the app reads the log from a replica.
    pub fn reads_replica(&self) -> bool {
        self.inner.store.has_replica()
    }

    pub(crate) fn shared(&self) -> &Shared {
        &self.inner.shared
    }

    pub(crate) fn shared_arc(&self) -> Arc<Shared> {
        self.inner.shared.clone()
    }

    /// The catalog (no IO): every league's settings and roster, every player. Do not hold
    /// the guard across an `.await`.
    pub fn catalog(&self) -> CatalogGuard<'_> {
        self.inner.shared.read_catalog()
    }

    /// How the start loaded the catalog: from which snapshot, if any, and how many catalog
    /// events it folded.
    pub fn catalog_source(&self) -> &CatalogSource {
        &self.inner.catalog_source
    }

    /// Why the follower stopped (an event it cannot fold), if it did: the process then serves
    /// stale reads and must report itself not ready.
    pub fn failure(&self) -> Option<String> {
        self.inner.shared.failure.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Number of league models in the cache now.
    pub fn cached_leagues(&self) -> usize {
        self.inner.shared.lock_cache().len()
    }

    /// A league's model as of the applied position (`None` if there is no such league):
    /// from the cache, else folded from the league's stream and cached.
    pub async fn league(&self, id: Uuid) -> Result<Option<Arc<ReadModel>>, AppError> {
        if self.catalog().league(id).is_none() {
            return Ok(None);
        }
        if let Some(model) = self.inner.shared.lock_cache().get(&id) {
            return Ok(Some(model.clone()));
        }
        let stream = StreamId::new(league_stream_id(id.into())).map_err(AppError::internal)?;
        let mut model = ReadModel::new();
        let mut next_version = 1;
        loop {
            // Fold up to the applied position A; the follower folds what comes after A into
            // cached models only, so the model is inserted only if A is still the applied
            // position under the cache lock (the lock the follower folds under); otherwise
            // catch up on (A, applied] and try again.
            let target = *self.inner.applied.borrow();
            for event in self.inner.reads.read_stream(&stream, next_version).await? {
                if event.position > target {
                    break;
                }
                next_version = event.stream_version + 1;
                model.apply(&event).map_err(AppError::internal)?;
            }
            let mut cache = self.inner.shared.lock_cache();
            if let Some(cached) = cache.get(&id) {
                return Ok(Some(cached.clone()));
            }
            if *self.inner.applied.borrow() == target {
                let model = Arc::new(model);
                cache.put(id, model.clone());
                return Ok(Some(model));
            }
        }
    }

    /// A league's model, or `NOT_FOUND` if there is no such league.
    pub async fn existing_league(&self, id: Uuid) -> Result<Arc<ReadModel>, AppError> {
        self.league(id).await?.ok_or_else(|| not_found(id))
    }

    /// `NOT_FOUND` unless the league exists (a catalog lookup, no IO).
    pub fn require_league(&self, id: Uuid) -> Result<(), AppError> {
        match self.catalog().league(id) {
            Some(_) => Ok(()),
            None => Err(not_found(id)),
        }
    }

    /// The model of the league a game belongs to (`None` if there is no such game).
    pub async fn league_of_game(&self, game: Uuid) -> Result<Option<Arc<ReadModel>>, AppError> {
        let league = self.catalog().league_of_game(game);
        match league {
            Some(league) => self.league(league).await,
            None => Ok(None),
        }
    }

    /// The highest log position the read side has applied.
    pub fn applied_position(&self) -> u64 {
        *self.inner.applied.borrow()
    }

    /// Live notifications, one per event folded from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Notification>> {
        self.inner.notifications.subscribe()
    }

    /// Waits until the read side has applied `position`. Reading a replica, it waits the
    /// replica lag timeout and then answers [`AppError::ReplicaLag`]: the caller's write is
    /// committed, the replica just has not replayed it yet.
    pub async fn wait_applied(&self, position: u64) -> Result<(), AppError> {
        let timeout =
            if self.reads_replica() { self.inner.replica_lag_timeout } else { APPLY_TIMEOUT };
        let mut applied = self.inner.applied.clone();
        match tokio::time::timeout(timeout, applied.wait_for(|p| *p >= position)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) => Err(AppError::internal("the read side's follower stopped")),
            Err(_) if self.reads_replica() => {
                let applied = self.applied_position();
                tracing::warn!(position, applied, "the read replica has not replayed a write yet");
                Err(AppError::ReplicaLag { position, applied })
            }
            Err(_) => Err(AppError::internal(format!(
                "the read model did not reach position {position} within {timeout:?}"
            ))),
        }
    }

    /// Refuses `command` when its actor lacks the right to it (`FORBIDDEN`), deciding it on
    /// the aggregate as it stands and appending nothing; any other refusal is left for
    /// [`App::execute`]. For a use case that must do work of its own before the command is
    /// executed (a webhook's address is resolved), so that work is never done for a caller
    /// who may not (docs/api.md#idempotency-keys: rights first).
    pub async fn check_rights(&self, command: &AppCommand) -> Result<(), AppError> {
        let stream = StreamId::new(command.stream_id())
            .map_err(|error| AppError::invalid("id", error.to_string()))?;
        let state = self.current_state(&stream, command).await?;
        match self.decide(command, &state).await {
            Err(refusal) if refusal.code() == league_domain::ErrorCode::Forbidden => Err(refusal),
            _ => Ok(()),
        }
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
        let stream = StreamId::new(command.stream_id())
            .map_err(|error| AppError::invalid("id", error.to_string()))?;
        let metadata = Metadata {
            actor: Some(actor.to_string()),
            correlation_id: options.correlation_id.map(|id| id.to_string()),
            causation_id: None,
            command_fingerprint: key.as_ref().map(|_| fingerprint(&command)),
            idempotency_key: key,
        };
        for attempt in 0..MAX_ATTEMPTS {
            let state = self.current_state(&stream, &command).await?;
            let version = state.version();
            let decided = self.decide(&command, &state).await;
            // Rights first, retries included (docs/api.md#idempotency-keys): a caller who may
            // not do this command learns nothing from a key, not even the first outcome of
            // their own earlier command.
            if let Err(refusal) = &decided
                && refusal.code() == league_domain::ErrorCode::Forbidden
            {
                return Err(refusal.clone());
            }
            // A used key answers its first outcome, if that was this command. Looked up on
            // the first attempt, and again on a refusal: a concurrent call with the same key
            // may have committed since (its events refuse ours, e.g. "already has a result").
            if (attempt == 0 || decided.is_err())
                && let Some(outcome) = self.earlier_outcome(&metadata, &command, &options).await?
            {
                return Ok(outcome);
            }
            let mut decided = decided?;
            if decided.is_empty() {
                let last_position = self.applied_position();
                return Ok(Executed { events: Vec::new(), last_position, deduplicated: false });
            }
            // Personal data is sealed before it is stored; its key commits with it.
            let held = match sealed_under_held_key(&decided) {
                Some(person) => person_keys(self.store(), Some(&[person])).await?,
                None => PersonKeys::default(),
            };
            let key_change = seal_personal_data(&mut decided, &held)?;
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
            let appended = match key_change {
                None => self.inner.store.append(&stream, expected, events, metadata.clone()).await,
                Some(change) => {
                    let store = &self.inner.store;
                    store.append_with_key(&stream, expected, events, metadata.clone(), change).await
                }
            };
            match appended {
                Ok(outcome) => {
                    if outcome.deduplicated {
                        // The key was used in the meantime (a concurrent call): its outcome
                        // answers only the same command.
                        let (Some(fingerprint), Some(key)) =
                            (&metadata.command_fingerprint, &options.idempotency_key)
                        else {
                            return Err(AppError::internal("a deduplicated append without a key"));
                        };
                        check_reuse(&outcome, &command, fingerprint, key)?;
                    }
                    self.wait_applied(outcome.last_position).await?;
                    return Ok(outcome.into());
                }
                Err(StoreError::Conflict { .. }) => {
                    // Someone appended to the same aggregate first: decide again on the new
                    // state, after a short, growing pause so contenders spread out.
                    let pause = Duration::from_millis((attempt as u64 + 1).min(10) * 2);
                    tokio::time::sleep(pause).await;
                }
                Err(error) => return Err(error.into()),
            }
        }
        Err(AppError::Contention { stream: stream.to_string() })
    }

    /// The first outcome recorded under the command's key (`None` without a key or when the
    /// key is unused), once the read side has applied it; the key's use for another command
    /// is [`AppError::IdempotencyKeyReused`].
    async fn earlier_outcome(
        &self,
        metadata: &Metadata,
        command: &AppCommand,
        options: &CommandOptions,
    ) -> Result<Option<Executed>, AppError> {
        let (Some(key), Some(fingerprint), Some(caller_key)) =
            (&metadata.idempotency_key, &metadata.command_fingerprint, &options.idempotency_key)
        else {
            return Ok(None);
        };
        let Some(outcome) = self.inner.store.idempotent_outcome(key).await? else {
            return Ok(None);
        };
        check_reuse(&outcome, command, fingerprint, caller_key)?;
        self.wait_applied(outcome.last_position).await?;
        Ok(Some(outcome.into()))
    }

    /// The stream's aggregate as of its last committed event: the kept state (if any)
    /// with the events appended since folded in (docs: `crate::aggregates`).
    async fn current_state(
        &self,
        stream: &StreamId,
        command: &AppCommand,
    ) -> Result<StreamState, AppError> {
        // Decided on the primary: a replica may not have the stream's last events yet.
        let primary = &self.inner.store;
        self.stream_state_in(primary, stream, || match command {
            AppCommand::Player(_) => StreamState::Player(Arc::default()),
            AppCommand::League(_) => StreamState::League(Arc::default()),
            AppCommand::Tournament(_) => StreamState::Tournament(Arc::default()),
            AppCommand::Calendar(_) => StreamState::Calendar(Arc::default()),
            AppCommand::Webhook(_) => StreamState::Webhook(Arc::default()),
            AppCommand::Series(_) => StreamState::Series(Arc::default()),
        })
        .await
    }

    /// A stream's aggregate for a query: as of its last event on the log queries read (at
    /// least the applied position), starting from `empty` when none is kept.
    /// The kept state answers without a read of the log when it holds the stream's last
    /// applied event: a thousand spectators' reads after one result then cost no query.
    pub(crate) async fn stream_state(
        &self,
        stream: &StreamId,
        empty: impl FnOnce() -> StreamState,
    ) -> Result<StreamState, AppError> {
        let followed = &self.inner.shared.followed;
        if let Some(kept) = self.inner.aggregates.get(stream.as_str())
            && followed.get(stream.as_str()).is_some_and(|applied| kept.version() >= applied)
        {
            return Ok(kept);
        }
        let state = self.stream_state_in(&self.inner.reads, stream, empty).await?;
        // What the log held when read includes everything applied before.
        followed.note([(stream.as_str(), state.version())]);
        Ok(state)
    }

    /// A player's aggregate as of the applied log (their keep-apart list and external ids
    /// are read from it).
    pub(crate) async fn player_state(
        &self,
        player: PlayerId,
    ) -> Result<Arc<league_domain::Player>, AppError> {
        let stream = StreamId::new(player_stream_id(player)).map_err(AppError::internal)?;
        match self.stream_state(&stream, || StreamState::Player(Arc::default())).await? {
            StreamState::Player(state) => Ok(state),
            _ => Err(AppError::internal(format!("stream {stream} is no player's"))),
        }
    }

    /// A stream's aggregate as kept in memory, without reading the log for newer events.
    pub(crate) fn kept_state(&self, stream: &str) -> Option<StreamState> {
        self.inner.aggregates.get(stream)
    }

    /// A stream's aggregate as of its last event in `log`. The kept state may be ahead of a
    /// replica (a command advanced it on the primary): it is never moved back, only on.
    async fn stream_state_in(
        &self,
        log: &EventStore,
        stream: &StreamId,
        empty: impl FnOnce() -> StreamState,
    ) -> Result<StreamState, AppError> {
        let state = self.inner.aggregates.get(stream.as_str()).unwrap_or_else(empty);
        let recorded = log.read_stream(stream, state.version() + 1).await?;
        if recorded.is_empty() {
            return Ok(state);
        }
        let events = recorded
            .iter()
            .map(|event| decode(event).map(|(_, domain)| domain).map_err(AppError::internal))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.inner.aggregates.advance(stream.as_str(), state, &events))
    }

    /// The subscriber's finished games in the activity window, counted only as far as the
    /// active-player rule needs (`docs/scheduling.md#league-life-cycle`): up to its minimum,
    /// newest leagues first, skipping leagues completed before the window opened (none of
    /// their games finished inside it). So a subscription costs the player's recent leagues,
    /// not every league they ever joined.
    async fn finished_games_in_window(
        &self,
        player: Uuid,
        since: chrono::DateTime<Utc>,
    ) -> Result<u32, AppError> {
        let recent: Vec<Uuid> = {
            let catalog = self.catalog();
            catalog
                .leagues_joined(player)
                .into_iter()
                .rev()
                .filter(|league| {
                    catalog.league(*league).is_none_or(|summary| {
                        summary.completed_at.is_none_or(|completed| completed >= since)
                    })
                })
                .collect()
        };
        let mut finished = 0u32;
        for league in recent {
            if finished >= ACTIVE_PLAYER_MIN_FINISHED_GAMES {
                break;
            }
            if let Some(model) = self.league(league).await? {
                let count = model.finished_games_since(player, since);
                finished = finished.saturating_add(u32::try_from(count).unwrap_or(u32::MAX));
            }
        }
        Ok(finished)
    }

    /// Folds the aggregate, fills the context from the read side and handles the command.
    async fn decide(
        &self,
        command: &AppCommand,
        state: &StreamState,
    ) -> Result<Vec<DomainEvent>, AppError> {
        let mut context = self.rights_context(command);
        Ok(match command {
            AppCommand::Player(c) => match state {
                StreamState::Player(player) => {
                    let names_another = matches!(
                        c,
                        PlayerCommand::IssueSignInLink(_) | PlayerCommand::RecordExternalId(_)
                    );
                    if let (true, Actor::Player(actor)) = (names_another, c.actor()) {
                        let organises =
                            self.catalog().organises_player(actor.into(), c.player_id().into());
                        context = context.with_actor_organising_player(organises);
                    }
                    if let PlayerCommand::ChangePermanentKeepApart(change) = c {
                        context = self.with_players(context, vec![change.other]);
                    }
                    player.decide(c, &self.with_invite(context, c).await?)?
                }
                _ => return Err(mismatched(command)),
            },
            AppCommand::League(c) => {
                context = self.with_players(context, c.players_to_check());
                if let Some(player) = c.subscriber() {
                    let registered = self.catalog().player(player.into()).is_some();
                    if registered {
                        let requires_active = matches!(state, StreamState::League(league)
                            if league.settings().is_some_and(|s| s.require_active_players));
                        let finished = if requires_active {
                            self.finished_games_in_window(
                                player.into(),
                                context.activity_window_start(),
                            )
                            .await?
                        } else {
                            0
                        };
                        context = context.with_subscriber(finished);
                    }
                }
                match state {
                    StreamState::League(league) => league.decide(c, &context)?,
                    _ => return Err(mismatched(command)),
                }
            }
            AppCommand::Tournament(c) => match state {
                StreamState::Tournament(tournament) => {
                    let mut context = self.with_players(context, c.players_to_check(tournament));
                    if let TournamentCommand::SeedRound(seed) = c {
                        let present = tournament.present(seed.round);
                        let pairs = self.permanent_pairs_among(&present).await?;
                        context = context.with_permanent_keep_apart(pairs);
                    }
                    tournament.decide(c, &context)?
                }
                _ => return Err(mismatched(command)),
            },
            AppCommand::Calendar(c) => {
                context = self.with_players(context, c.players_to_check());
                match state {
                    StreamState::Calendar(calendar) => calendar.decide(c, &context)?,
                    _ => return Err(mismatched(command)),
                }
            }
            AppCommand::Webhook(c) => match state {
                StreamState::Webhook(webhook) => {
                    let competitions = c.competitions_to_check(webhook);
                    let (unknown, unmanaged) = self.competition_rights(c.actor(), competitions);
                    webhook.decide(c, &context.with_competitions(unknown, unmanaged))?
                }
                _ => return Err(mismatched(command)),
            },
            AppCommand::Series(c) => match state {
                StreamState::Series(series) => {
                    let (unknown, _) =
                        self.competition_rights(c.actor(), c.competitions_to_check());
                    series.decide(c, &context.with_competitions(unknown, Vec::new()))?
                }
                _ => return Err(mismatched(command)),
            },
        })
    }

    /// A context for deciding `command` now, with what the catalog knows of the actor's
    /// rights (whether a player actor is an appointed organiser).
    fn rights_context(&self, command: &AppCommand) -> Context {
        let is_organiser = command
            .actor()
            .player_id()
            .is_some_and(|player| self.catalog().is_organiser(player.into()));
        Context::new(Utc::now()).with_actor_organiser(is_organiser)
    }

    /// Of `competitions`, those that are no league or tournament, and those `actor` does not
    /// organise (the site admin organises every one).
    fn competition_rights(&self, actor: Actor, competitions: Vec<Uuid>) -> (Vec<Uuid>, Vec<Uuid>) {
        let catalog = self.catalog();
        let (known, unknown): (Vec<Uuid>, Vec<Uuid>) = competitions
            .into_iter()
            .partition(|id| catalog.league(*id).is_some() || catalog.tournament(*id).is_some());
        let unmanaged = match actor {
            Actor::Admin => Vec::new(),
            Actor::Player(player) => {
                known.into_iter().filter(|id| !catalog.organises(player.into(), *id)).collect()
            }
        };
        (unknown, unmanaged)
    }

    /// `context` told which of `players` (those a command names) the catalog does not know,
    /// and which were erased (`docs/personal-data.md#erasure`).
    fn with_players(&self, context: Context, players: Vec<PlayerId>) -> Context {
        let catalog = self.catalog();
        let (mut unknown, mut erased) = (Vec::new(), Vec::new());
        for player in players {
            match catalog.player(player.uuid()) {
                None => unknown.push(player),
                Some(view) if view.erased => erased.push(player),
                Some(_) => {}
            }
        }
        context.with_unknown_players(unknown).with_erased_players(erased)
    }

    /// How many streams' aggregates are kept for deciding commands.
    pub fn aggregates_kept(&self) -> usize {
        self.inner.aggregates.len()
    }

    /// A league's standings at a point in history (its stream folded up to it).
    pub async fn standings_as_of(
        &self,
        league: Uuid,
        as_of: AsOf,
    ) -> Result<Vec<StandingRow>, AppError> {
        self.as_of(league, as_of, |model| model.standings(league)).await
    }

    /// The league's model at `as_of`: the live one when it has folded none of the league's
    /// events after a position bound (a bound at or past the applied position, or a cached
    /// league unchanged since it), else the league's stream folded up to the bound (never the
    /// whole log).
    pub async fn league_as_of(
        &self,
        league: Uuid,
        as_of: AsOf,
    ) -> Result<Option<Arc<ReadModel>>, AppError> {
        if self.catalog().league(league).is_none() {
            return Ok(None);
        }
        if let AsOf::Position(position) = as_of {
            // The live model is the one as of `position` if it has folded none of the
            // league's events after it (the follower may have folded more since the check).
            let live = if position >= self.applied_position() {
                self.league(league).await?
            } else {
                self.inner.shared.lock_cache().peek(&league).cloned()
            };
            if let Some(model) = live
                && model.position() <= position
            {
                return Ok(Some(model));
            }
        }
        Ok(Some(Arc::new(load_league(&self.inner.reads, league, Some(as_of)).await?)))
    }

    async fn as_of<T>(
        &self,
        league: Uuid,
        as_of: AsOf,
        view: impl Fn(&ReadModel) -> T,
    ) -> Result<T, AppError> {
        let model = self.league_as_of(league, as_of).await?.ok_or_else(|| not_found(league))?;
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
        check_page(first)?;
        let after = after.unwrap_or(0);
        match league {
            None => Ok(self.inner.reads.read_all(after + 1, first as u64).await?),
            Some(league) => {
                self.require_league(league)?;
                let stream =
                    StreamId::new(league_stream_id(league.into())).map_err(AppError::internal)?;
                Ok(self.inner.reads.read_stream_after(&stream, after, first as u64).await?)
            }
        }
    }

    /// A league's newest event (`None` only for a league the model has not folded yet): what
    /// a page that reads the rest of the log on demand shows first.
    pub async fn latest_league_event(
        &self,
        league: Uuid,
    ) -> Result<Option<RecordedEvent>, AppError> {
        let model = self.existing_league(league).await?;
        let version = model.league(league).map_or(0, |view| view.stream_version);
        if version == 0 {
            return Ok(None);
        }
        let stream = StreamId::new(league_stream_id(league.into())).map_err(AppError::internal)?;
        Ok(self.inner.reads.read_stream(&stream, version).await?.into_iter().next())
    }
}

/// A command whose stream holds another kind of aggregate (cannot happen: the stream id
/// is derived from the command).
fn mismatched(command: &AppCommand) -> AppError {
    AppError::internal(format!("stream {} holds another kind of aggregate", command.stream_id()))
}

/// The error of a league that does not exist.
fn not_found(league: Uuid) -> AppError {
    AppError::NotFound(format!("league {league}"))
}

/// A page of the audit log holds 1 to [`MAX_PAGE`] events.
pub(crate) fn check_page(first: usize) -> Result<(), AppError> {
    if first == 0 || first > MAX_PAGE {
        return Err(AppError::invalid("first", format!("must be 1 to {MAX_PAGE}, got {first}")));
    }
    Ok(())
}
