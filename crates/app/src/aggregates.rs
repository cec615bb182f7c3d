//! The write side's aggregates as last folded, per stream: a command reads only the events
//! appended to its stream since (by any process), so deciding costs what is new, not the
//! stream's whole history (a league with a thousand results used to be re-read and
//! re-decoded for every correction). Bounded like the league models
//! (`LEAGUE_CACHE_LEAGUES` streams, least recently used dropped).
//!
//! A cached state is only ever the fold of a stream's first `version` events, so it can
//! lag but never be wrong: the append's expected version still guards the decision.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use league_domain::{
    Aggregate, Calendar, DomainEvent, League, Player, Series, Tournament, Webhook,
};
use lru::LruCache;

/// One stream's state: the aggregate its commands are decided on.
#[derive(Debug, Clone)]
pub(crate) enum StreamState {
    Player(Arc<Player>),
    League(Arc<League>),
    Tournament(Arc<Tournament>),
    Calendar(Arc<Calendar>),
    Webhook(Arc<Webhook>),
    Series(Arc<Series>),
}

impl StreamState {
    /// Events folded so far: the version to expect when appending.
    pub(crate) fn version(&self) -> u64 {
        match self {
            StreamState::Player(player) => player.version(),
            StreamState::League(league) => league.version(),
            StreamState::Tournament(tournament) => tournament.version(),
            StreamState::Calendar(calendar) => calendar.version(),
            StreamState::Webhook(webhook) => webhook.version(),
            StreamState::Series(series) => series.version(),
        }
    }

    /// Folds `events` (the stream's next ones, in order), copying the state first if
    /// another command still decides on it.
    pub(crate) fn fold(&mut self, events: &[DomainEvent]) {
        match self {
            StreamState::Player(player) => fold_into(Arc::make_mut(player), events),
            StreamState::League(league) => fold_into(Arc::make_mut(league), events),
            StreamState::Tournament(tournament) => fold_into(Arc::make_mut(tournament), events),
            StreamState::Calendar(calendar) => fold_into(Arc::make_mut(calendar), events),
            StreamState::Webhook(webhook) => fold_into(Arc::make_mut(webhook), events),
            StreamState::Series(series) => fold_into(Arc::make_mut(series), events),
        }
    }
}

fn fold_into<A: Aggregate>(state: &mut A, events: &[DomainEvent]) {
    for event in events {
        state.apply_event(event);
    }
}

/// Stream id → its state at some version.
pub(crate) struct Aggregates {
    cache: Mutex<LruCache<String, StreamState>>,
}

impl Aggregates {
    pub(crate) fn new(capacity: NonZeroUsize) -> Aggregates {
        Aggregates { cache: Mutex::new(LruCache::new(capacity)) }
    }

    /// The last state kept for `stream`, if any.
    pub(crate) fn get(&self, stream: &str) -> Option<StreamState> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner).get(stream).cloned()
    }

    /// `state` (as [`Aggregates::get`] gave it) with `events`, the stream's next ones, folded
    /// in, kept for the next command. When the kept state is still the one `state` copies
    /// and no other command holds it, it is folded in place (no copy of a long league per
    /// command); commands on one stream may finish in any order, so a later kept state is
    /// never replaced by an earlier one.
    pub(crate) fn advance(
        &self,
        stream: &str,
        mut state: StreamState,
        events: &[DomainEvent],
    ) -> StreamState {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(kept) = cache.get_mut(stream)
            && kept.version() == state.version()
        {
            drop(state);
            kept.fold(events);
            return kept.clone();
        }
        state.fold(events);
        if cache.peek(stream).is_none_or(|kept| kept.version() < state.version()) {
            cache.put(stream.to_owned(), state.clone());
        }
        state
    }

    pub(crate) fn len(&self) -> usize {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

/// Stream id → the version of its last event the read side has applied (or a query read from
/// the log since), for the streams seen lately. A query may answer with the kept state
/// without reading the log when that state is at least this version: it then holds every
/// event the read side has applied, which is all a query promises (`App::stream_state`).
/// Bounded; a forgotten stream is read from the log as before.
pub(crate) struct FollowedVersions {
    versions: Mutex<LruCache<String, u64>>,
}

impl FollowedVersions {
    pub(crate) fn new(capacity: NonZeroUsize) -> FollowedVersions {
        FollowedVersions { versions: Mutex::new(LruCache::new(capacity)) }
    }

    /// The version known applied for `stream`, if it is remembered.
    pub(crate) fn get(&self, stream: &str) -> Option<u64> {
        self.lock().get(stream).copied()
    }

    /// Notes that `stream` has reached at least `version` on the read side's log; versions
    /// only ever move on.
    pub(crate) fn note<'a>(&self, streams: impl IntoIterator<Item = (&'a str, u64)>) {
        let mut versions = self.lock();
        for (stream, version) in streams {
            match versions.get_mut(stream) {
                Some(known) => *known = (*known).max(version),
                None => {
                    versions.put(stream.to_owned(), version);
                }
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<String, u64>> {
        self.versions.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
