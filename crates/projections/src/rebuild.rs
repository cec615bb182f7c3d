//! The whole log folded once for a rebuild (`league replay`), in memory bounded by what is
//! still open: [`rebuild`] reads every row once through the store's scan (which walks the
//! hash chain in log order as it reads, on a thread of its own), decodes each once and
//! folds it into the read model and into the ratings ([`RebuildFold`]).
//!
//! A league is dropped from the model once it has been completed for a while (the
//! [`RETIRE_AFTER`] leagues completed most recently stay, so the correction that often
//! follows a last result finds its league at hand), keeping only the standings asked for
//! ([`Keep`]); the scoring systems of every competition stay, for the ratings. An event for
//! a dropped league (a late correction) re-folds that league from its own stream first, so
//! every answer equals a fold of the whole log.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use league_domain::{DomainEvent, GameStatus, LeagueEvent, LeagueStatus, TournamentEvent};
use league_scoring::ScoringSystem;
use league_store::{EventStore, ScanEnd};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use uuid::Uuid;

use crate::asof::{AsOf, load_league};
use crate::decode::EventMeta;
use crate::decode::decode_raw;
use crate::error::ProjectionError;
use crate::model::{LeagueState, ReadModel, StandingRow};
use crate::players::{erased_players, person_keys};
use crate::ratings::RatingsModel;

/// Completed leagues kept whole before the oldest of them is dropped.
pub const RETIRE_AFTER: usize = 64;

/// Which leagues' standings a rebuild keeps (the others are only folded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every league's, in creation order.
    Every,
    /// One league's.
    One(Uuid),
    /// None: the ratings and the chain are the point.
    Nothing,
}

impl Keep {
    fn keeps(self, league: Uuid) -> bool {
        match self {
            Keep::Every => true,
            Keep::One(id) => id == league,
            Keep::Nothing => false,
        }
    }
}

/// A league as a rebuild ends with it: what a report of its standings needs.
#[derive(Debug, Clone, PartialEq)]
pub struct RebuiltLeague {
    pub id: Uuid,
    pub name: String,
    pub status: LeagueStatus,
    pub scoring_system: ScoringSystem,
    /// Scheduled games, and those with a result.
    pub games: usize,
    pub games_finished: usize,
    /// Ranked under the league's own system, best first.
    pub standings: Vec<StandingRow>,
}

impl RebuiltLeague {
    fn of(state: &LeagueState) -> RebuiltLeague {
        let view = &state.view;
        RebuiltLeague {
            id: view.id,
            name: view.settings.name.clone(),
            status: view.status,
            scoring_system: view.settings.scoring_system,
            games: view.games.len(),
            games_finished: state
                .games()
                .iter()
                .filter(|game| game.status == GameStatus::Finished)
                .count(),
            standings: state.standings().to_vec(),
        }
    }
}

/// Why a rebuild stopped: the read model's fold refused an event or the log could not be
/// read (the first in log order), or else the ratings refused a result.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error("replay failed")]
    Fold(#[source] ProjectionError),
    /// A result does not fit the ratings (unknown league, a second first report, a
    /// correction of nothing).
    #[error("ratings replay failed")]
    Ratings(#[source] ProjectionError),
}

impl From<league_store::StoreError> for RebuildError {
    fn from(error: league_store::StoreError) -> Self {
        RebuildError::Fold(error.into())
    }
}

/// The read model's side of a rebuild, one decoded event at a time. Pure: the one thing it
/// cannot do alone is bring back a dropped league ([`Self::dropped_league_of`],
/// [`Self::reopen`]).
#[derive(Debug)]
pub struct RebuildFold {
    keep: Keep,
    /// Players, tournaments' systems and the leagues not dropped.
    model: ReadModel,
    /// Completed leagues not dropped yet, oldest first.
    completed: VecDeque<Uuid>,
    /// Leagues dropped (and not brought back since).
    dropped_leagues: HashSet<Uuid>,
    /// The kept standings of dropped leagues.
    kept: HashMap<Uuid, RebuiltLeague>,
    dropped: u64,
    reopened: u64,
}

impl RebuildFold {
    pub fn new(keep: Keep) -> RebuildFold {
        RebuildFold {
            keep,
            model: ReadModel::standings_only(),
            completed: VecDeque::new(),
            dropped_leagues: HashSet::default(),
            kept: HashMap::default(),
            dropped: 0,
            reopened: 0,
        }
    }

    /// Position of the last event folded.
    pub fn position(&self) -> u64 {
        self.model.position()
    }

    /// The dropped league `event` concerns, which must be brought back ([`Self::reopen`])
    /// before it is folded: every league event but those the model ignores.
    pub fn dropped_league_of(&self, event: &DomainEvent) -> Option<Uuid> {
        if matches!(event, DomainEvent::League(LeagueEvent::LeagueCoOrganiserAdded(_))) {
            return None;
        }
        event.league_id().map(Uuid::from).filter(|league| self.dropped_leagues.contains(league))
    }

    /// Brings back a dropped league from `own`, its own stream folded up to the event
    /// before the one that needs it.
    pub fn reopen(&mut self, league: Uuid, mut own: ReadModel) -> Result<(), ProjectionError> {
        if !self.model.adopt_league(&mut own, league) {
            return Err(ProjectionError::inconsistent(
                own.position(),
                format!("league {league} is not in its own stream"),
            ));
        }
        self.dropped_leagues.remove(&league);
        self.kept.remove(&league);
        self.reopened += 1;
        if self.model.league(league).is_some_and(|view| view.status == LeagueStatus::Completed) {
            self.completed.push_back(league);
        }
        Ok(())
    }

    /// Folds one decoded event; the league completed [`RETIRE_AFTER`] completions ago is
    /// dropped.
    pub fn apply(&mut self, meta: EventMeta, event: DomainEvent) -> Result<(), ProjectionError> {
        let completed = match &event {
            DomainEvent::League(LeagueEvent::LeagueCompleted(e)) => Some(e.league_id),
            _ => None,
        };
        self.model.apply_event(meta, event)?;
        if let Some(league) = completed {
            self.completed.push_back(league.into());
            while self.completed.len() > RETIRE_AFTER {
                if let Some(oldest) = self.completed.pop_front() {
                    self.drop_league(oldest);
                }
            }
        }
        Ok(())
    }

    fn drop_league(&mut self, league: Uuid) {
        let Some(state) = self.model.take_league(league) else { return };
        if self.keep.keeps(league) {
            self.kept.insert(league, RebuiltLeague::of(&state));
        }
        self.dropped_leagues.insert(league);
        self.dropped += 1;
    }

    /// The fold's end: the model (players and the leagues not dropped) and the kept
    /// leagues in creation order.
    fn finish(self, ratings: RatingsModel) -> Rebuilt {
        let RebuildFold { keep, model, mut kept, dropped, reopened, .. } = self;
        let chosen: Vec<Uuid> = match keep {
            Keep::Every => model.league_order().to_vec(),
            Keep::One(league) => vec![league],
            Keep::Nothing => Vec::new(),
        };
        let leagues = chosen
            .into_iter()
            .filter_map(|id| {
                kept.remove(&id).or_else(|| model.leagues.get(&id).map(RebuiltLeague::of))
            })
            .collect();
        Rebuilt { model, leagues, ratings, dropped, reopened, scan: None }
    }
}

/// The ratings' side of a rebuild: every competition's scoring system, and the ratings
/// folded from the results under them.
#[derive(Debug, Default)]
pub struct RatingsFold {
    ratings: RatingsModel,
    systems: HashMap<Uuid, ScoringSystem>,
}

impl RatingsFold {
    pub fn new() -> RatingsFold {
        RatingsFold::default()
    }

    /// Folds one decoded event (results are rated; every event moves the position).
    pub fn apply(&mut self, meta: EventMeta, event: &DomainEvent) -> Result<(), ProjectionError> {
        match event {
            DomainEvent::League(LeagueEvent::LeagueCreated(e)) => {
                self.systems.insert(e.league_id.into(), e.settings.scoring_system);
            }
            DomainEvent::Tournament(TournamentEvent::TournamentCreated(e)) => {
                self.systems.insert(e.tournament_id.into(), e.settings.scoring_system);
            }
            _ => {}
        }
        let systems = &self.systems;
        self.ratings.apply_event(meta, event, |competition| systems.get(&competition).copied())
    }

    pub fn into_ratings(self) -> RatingsModel {
        self.ratings
    }
}

/// What a rebuild ends with.
#[derive(Debug)]
pub struct Rebuilt {
    /// Players (names opened as [`crate::load_model`] opens them), tournaments' systems and
    /// the leagues that stayed open, folded for their standings only (no seat labels,
    /// results or score history); its position is the last event folded.
    pub model: ReadModel,
    /// The leagues [`Keep`] asked for, in creation order (a league not in the log is absent).
    pub leagues: Vec<RebuiltLeague>,
    pub ratings: RatingsModel,
    /// Leagues dropped once completed, and brought back for a late event.
    pub dropped: u64,
    pub reopened: u64,
    /// How the store's scan ended: rows read and, for the whole log, the chain walk.
    pub scan: Option<ScanEnd>,
}

/// How often [`rebuild`] calls its `progress`.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);
/// Decoded batches the decoder may run ahead of the model's fold.
const DECODED_AHEAD: usize = 4;

/// Rebuilds the read side from the log up to `until` (the whole log, hash chain walked,
/// for `None`); `progress` is called with the last folded position now and then. A chain
/// break ends the fold before the broken row: see [`Rebuilt::scan`].
///
/// Three threads share the work, each batch passing from one to the next: the store's
/// scan (reading, hashing), a decoder that also rates every result (the ratings borrow the
/// events), and the model's fold (which takes them). The first error in log order wins,
/// the ratings' last: a result the ratings refuse is reported only when the model folds the
/// whole log (as when the ratings were rebuilt after the model).
pub async fn rebuild(
    store: &EventStore,
    until: Option<AsOf>,
    keep: Keep,
    mut progress: impl FnMut(u64),
) -> Result<Rebuilt, RebuildError> {
    let last = match until {
        None => u64::MAX,
        Some(as_of) => store.position_at(as_of.into()).await?,
    };
    let mut scan = store.scan_log(last, until.is_none()).await?;
    let (to_model, decoded) = std::sync::mpsc::sync_channel::<Decoded>(DECODED_AHEAD);
    let decoder = tokio::task::spawn_blocking(move || {
        let mut ratings = RatingsFold::new();
        let mut rating_error = None;
        let mut decode_error = None;
        while let Some(batch) = scan.blocking_next() {
            let mut events = Vec::with_capacity(batch.len());
            for raw in batch.events() {
                match decode_raw(raw) {
                    Ok(event) => events.push(event),
                    Err(error) => {
                        decode_error = Some(error);
                        break;
                    }
                }
            }
            drop(batch);
            if rating_error.is_none() {
                for (meta, event) in &events {
                    if let Err(error) = ratings.apply(*meta, event) {
                        // Decoding goes on: a model error later in the log comes first.
                        rating_error = Some(error);
                        break;
                    }
                }
            }
            if to_model.send(events).is_err() || decode_error.is_some() {
                break;
            }
        }
        (ratings, rating_error, decode_error, scan)
    });
    let folded = Arc::new(AtomicU64::new(0));
    let folder = {
        let (store, folded, runtime) =
            (store.clone(), folded.clone(), tokio::runtime::Handle::current());
        tokio::task::spawn_blocking(move || {
            let mut fold = RebuildFold::new(keep);
            let outcome = (|| -> Result<(), ProjectionError> {
                while let Ok(events) = decoded.recv() {
                    for (meta, event) in events {
                        if let Some(league) = fold.dropped_league_of(&event) {
                            let before = AsOf::Position(meta.position - 1);
                            let own =
                                runtime.block_on(load_league(&store, league, Some(before)))?;
                            fold.reopen(league, own)?;
                        }
                        fold.apply(meta, event)?;
                    }
                    folded.store(fold.position(), Ordering::Relaxed);
                }
                Ok(())
            })();
            (fold, outcome)
        })
    };
    let mut folder = std::pin::pin!(folder);
    let (fold, outcome) = loop {
        tokio::select! {
            done = &mut folder => break done.unwrap_or_else(resume),
            () = tokio::time::sleep(PROGRESS_EVERY) => progress(folded.load(Ordering::Relaxed)),
        }
    };
    let (ratings, rating_error, decode_error, scan) = decoder.await.unwrap_or_else(resume);
    let ended = scan.finish().await;
    // Each stage saw only the rows before the previous stage's error, so the later stage's
    // error comes first.
    outcome.map_err(RebuildError::Fold)?;
    if let Some(error) = decode_error {
        return Err(RebuildError::Fold(error));
    }
    let ended = ended?;
    if let Some(error) = rating_error {
        return Err(RebuildError::Ratings(error));
    }
    let mut rebuilt = fold.finish(ratings.into_ratings());
    rebuilt.scan = Some(ended);
    // Names: keys read after the fold (see `load_catalog`); a view of an earlier point also
    // hides those erased after it.
    rebuilt.model.open_names(&person_keys(store, None).await.map_err(RebuildError::Fold)?);
    if until.is_some() {
        rebuilt.model.forget_names(erased_players(store).await.map_err(RebuildError::Fold)?);
    }
    progress(rebuilt.model.position());
    Ok(rebuilt)
}

/// A batch of decoded events, in log order.
type Decoded = Vec<(EventMeta, DomainEvent)>;

/// A pipeline thread's panic goes on in the caller; a cancelled thread is a bug.
fn resume<T>(error: tokio::task::JoinError) -> T {
    match error.try_into_panic() {
        Ok(panic) => std::panic::resume_unwind(panic),
        Err(error) => panic!("a rebuild thread was cancelled: {error}"),
    }
}
