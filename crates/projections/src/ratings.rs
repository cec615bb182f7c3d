//! [`RatingsModel`]: ratings across leagues and tournaments (`docs/ratings.md`), folded from
//! the result events only ([`RATING_EVENT_TYPES`]): each result (a league game or a tournament
//! board) is scored under its competition's system,
//! turned into ranked teams and rated by the pure `league-ratings` crate in log order.
//! Loaded on first use through the `events(event_type, position)` index
//! ([`load_ratings`]), never with the whole log; kept current by the live feed; rebuilt by
//! `league replay`. Every change carries its log position, so as-of reads are binary
//! searches in memory.
//!
//! A model is *complete* (every result kept: what `league replay` folds) or *windowed*
//! ([`RatingsModel::windowed`]: only a window of recent results, older ones forgotten into
//! base ratings; what the gateway loads from a ratings snapshot, `crate::ratings_snapshot`).
//! A windowed model answers ratings now and as of a point in its window; a history, an older
//! as-of read, or anything after a correction of a forgotten game ([`RatingsModel::answers`])
//! needs a complete one.

use chrono::{DateTime, SubsecRound, Utc};
use std::sync::LazyLock;

use league_domain::{DomainEvent, EventType, RecordedResult};
use league_ratings::{GameKind, GameOutcome, LedgerImage, RatingError, Ratings, outcome};
use league_scoring::{GameResult, ScoringSystem, score_game_unexplained};
use league_store::{EventStore, RecordedEvent};
use uuid::Uuid;

use crate::asof::AsOf;
use crate::decode::EventMeta;
use crate::decode::decode;
use crate::error::ProjectionError;

/// The event types the ratings fold: those recording a result ([`EventType::records_result`]);
/// every other event leaves them unchanged.
pub static RATING_EVENT_TYPES: LazyLock<Vec<EventType>> =
    LazyLock::new(|| EventType::ALL.iter().copied().filter(|t| t.records_result()).collect());

/// How many recent results a windowed model keeps at least: corrections of those games and
/// as-of reads back to them are answered in memory. At about 230 bytes a result, the window
/// costs a few MB however long the log.
pub const RATINGS_WINDOW: usize = 20_000;

/// A windowed model forgets its oldest results once its window holds this many times
/// [`RatingsModel::window`]: each forgetting re-rates the window once, so the fold pays at
/// most one extra rating per this many results.
const FORGET_AT: usize = 4;

/// A windowed model's parts as a snapshot stores them: the ledger's image, the commit times
/// of its window's results and of its last forgotten result.
pub(crate) type ModelImage = (LedgerImage, Vec<DateTime<Utc>>, Option<DateTime<Utc>>);

/// A question to the ratings, for [`RatingsModel::answers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatingsQuestion {
    /// Ratings and leaderboards now.
    Now,
    /// Ratings and leaderboards as of a point in history.
    AsOf(AsOf),
    /// A player's every change (from their first game).
    History,
}

/// Every player's rating at every game kind as of the last folded event. Pure: no IO (but
/// [`load_ratings`] and [`RatingsModel::catch_up`]).
#[derive(Debug, Clone, Default)]
pub struct RatingsModel {
    position: u64,
    ratings: Ratings,
    /// Commit time of every result of the ledger's window, in order of results (which
    /// keeps their positions): the times of rating changes, and the last change at or
    /// before an instant.
    times: Vec<DateTime<Utc>>,
    /// Commit time of the last forgotten result (windowed models).
    cut_time: Option<DateTime<Utc>>,
    /// Results kept at least (`None`: every result, a complete model).
    window: Option<usize>,
    /// Position of a correction of a forgotten game: the model stopped folding there and
    /// answers nothing (a complete fold replaces it).
    stale: Option<u64>,
}

impl RatingsModel {
    /// A complete model: every result kept.
    pub fn new() -> Self {
        Self::default()
    }

    /// A model that keeps at least the last `keep` results (and forgets older ones as it
    /// folds).
    pub fn windowed(keep: usize) -> Self {
        RatingsModel { window: Some(keep), ..Self::default() }
    }

    /// Results a windowed model keeps at least (`None`: complete model).
    pub fn window(&self) -> Option<usize> {
        self.window
    }

    /// Whether every result folded is kept (nothing forgotten).
    pub fn is_complete(&self) -> bool {
        self.ratings.is_complete() && self.stale.is_none()
    }

    /// Position of the correction of a forgotten game that stopped this model, if one did.
    pub fn stale_since(&self) -> Option<u64> {
        self.stale
    }

    /// Whether this model holds the answer to `question` (a complete model holds every
    /// answer; a windowed one those from its window on).
    pub fn answers(&self, question: RatingsQuestion) -> bool {
        if self.stale.is_some() {
            return false;
        }
        if self.ratings.is_complete() {
            return true;
        }
        match question {
            RatingsQuestion::Now => true,
            RatingsQuestion::AsOf(AsOf::Position(position)) => position >= self.ratings.cut(),
            RatingsQuestion::AsOf(AsOf::Time(time)) => {
                self.cut_time.is_some_and(|cut| time.trunc_subsecs(6) >= cut)
            }
            RatingsQuestion::History => false,
        }
    }

    /// Position of the last event folded (or skipped).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The ratings ledger.
    pub fn ratings(&self) -> &Ratings {
        &self.ratings
    }

    /// Results folded (first reports and corrections, forgotten ones included).
    pub fn results_folded(&self) -> usize {
        self.ratings.results()
    }

    /// Moves the position to `position` (the model reflects every event up to it).
    pub fn advance_to(&mut self, position: u64) {
        self.position = self.position.max(position);
    }

    /// The last log position included in `as_of`, as far as ratings go: a position as is,
    /// an instant as the last result recorded at or before it (ratings change only there).
    pub fn position_of(&self, as_of: AsOf) -> u64 {
        match as_of {
            AsOf::Position(position) => position,
            AsOf::Time(time) => {
                let time = time.trunc_subsecs(6);
                let count = self.times.partition_point(|at| *at <= time);
                let first = self.ratings.forgotten_results();
                match count.checked_sub(1) {
                    Some(last) => self.ratings.result_position(first + last),
                    // Before the window: its cut, if the time is past the last forgotten
                    // result (`answers` tells whether it is).
                    None => {
                        self.cut_time.filter(|cut| *cut <= time).map_or(0, |_| self.ratings.cut())
                    }
                }
            }
        }
    }

    /// When the result event at `position` was recorded (if in the window).
    pub fn recorded_at(&self, position: u64) -> Option<DateTime<Utc>> {
        let first = self.ratings.forgotten_results();
        self.ratings.result_at(position).map(|index| self.times[index - first])
    }

    /// Decodes and folds one stored event (see [`Self::apply_event`]).
    pub fn apply(
        &mut self,
        recorded: &RecordedEvent,
        system_of: impl Fn(Uuid) -> Option<ScoringSystem>,
    ) -> Result<(), ProjectionError> {
        if !RATING_EVENT_TYPES.iter().any(|t| t.as_str() == recorded.event_type) {
            return self.skip(recorded.position);
        }
        let (meta, event) = decode(recorded)?;
        self.apply_event(meta, &event, system_of)
    }

    fn skip(&mut self, position: u64) -> Result<(), ProjectionError> {
        if position <= self.position {
            return Err(ProjectionError::OutOfOrder { after: self.position, got: position });
        }
        self.position = position;
        Ok(())
    }

    /// Folds one decoded event (any type; others only move the position). `system_of`
    /// names each league's scoring system (the catalog's, or the whole-log model's).
    pub fn apply_event(
        &mut self,
        meta: EventMeta,
        event: &DomainEvent,
        system_of: impl Fn(Uuid) -> Option<ScoringSystem>,
    ) -> Result<(), ProjectionError> {
        self.skip(meta.position)?;
        if self.stale.is_some() {
            return Ok(());
        }
        let Some(RecordedResult { competition: league, game, result, correction }) = event.result()
        else {
            return Ok(());
        };
        let position = meta.position;
        let system = system_of(league).ok_or_else(|| {
            ProjectionError::inconsistent(
                position,
                format!("unknown league or tournament {league}"),
            )
        })?;
        let kind = GameKind::of(system);
        let outcome = rate_input(system, result)
            .map_err(|reason| ProjectionError::inconsistent(position, reason))?;
        let rated = if correction {
            self.ratings.correct_game(kind, game, position, outcome)
        } else {
            self.ratings.rate_game(kind, game, position, outcome)
        };
        match rated {
            Ok(()) => {}
            Err(RatingError::Forgotten(_)) => {
                // Answered by a complete fold; this model only follows positions from here.
                self.stale = Some(position);
                return Ok(());
            }
            Err(error) => {
                return Err(ProjectionError::inconsistent(position, error.to_string()));
            }
        }
        self.times.push(meta.recorded_at);
        if let Some(keep) = self.window
            && self.times.len() >= FORGET_AT * keep.max(1)
        {
            self.forget(keep);
        }
        Ok(())
    }

    /// Forgets the oldest results, keeping at least `keep` (and the times of those kept).
    fn forget(&mut self, keep: usize) {
        let before = self.ratings.forgotten_results();
        self.ratings.forget(keep);
        let forgotten = self.ratings.forgotten_results() - before;
        if forgotten > 0 {
            self.cut_time = Some(self.times[forgotten - 1]);
            self.times.drain(..forgotten);
        }
    }

    /// The parts of a snapshot: the ledger's image keeping at least `keep` results, the
    /// commit times of the image's window and of its last forgotten result (`None` when the
    /// model is stale).
    pub(crate) fn image(&self, keep: usize) -> Option<ModelImage> {
        if self.stale.is_some() {
            return None;
        }
        Some(self.image_parts(self.ratings.image(keep)))
    }

    /// [`Self::image`] with exactly the log's first `forgotten` results forgotten.
    pub(crate) fn image_forgetting(&self, forgotten: usize) -> Result<ModelImage, RatingError> {
        Ok(self.image_parts(self.ratings.image_forgetting(forgotten)?))
    }

    fn image_parts(&self, image: LedgerImage) -> ModelImage {
        let newly = image.forgotten as usize - self.ratings.forgotten_results();
        let cut_time = newly.checked_sub(1).map_or(self.cut_time, |last| Some(self.times[last]));
        (image, self.times[newly..].to_vec(), cut_time)
    }

    /// The windowed model an image stands for, as of log `position`.
    pub(crate) fn from_image(
        position: u64,
        image: LedgerImage,
        times: Vec<DateTime<Utc>>,
        cut_time: Option<DateTime<Utc>>,
        keep: usize,
    ) -> Result<RatingsModel, RatingError> {
        if times.len() != image.results.len() || (image.forgotten > 0) != cut_time.is_some() {
            return Err(RatingError::Invalid("ratings image: times do not fit".into()));
        }
        let ratings = Ratings::from_image(league_ratings::Params::standard(), image)?;
        if ratings.results() > 0 && ratings.result_position(ratings.results() - 1) > position {
            return Err(RatingError::Invalid("ratings image: a result past its position".into()));
        }
        Ok(RatingsModel { position, ratings, times, cut_time, window: Some(keep), stale: None })
    }

    /// Folds the events after this model's position up to `last`, read with one query by
    /// position (the live feed's catch-up: a few events between a load and its insertion).
    pub async fn catch_up(
        &mut self,
        store: &EventStore,
        last: u64,
        system_of: impl Fn(Uuid) -> Option<ScoringSystem>,
    ) -> Result<(), ProjectionError> {
        if last > self.position {
            let events = store.read_all(self.position + 1, last - self.position).await?;
            for event in events.iter().filter(|event| event.position <= last) {
                self.apply(event, &system_of)?;
            }
        }
        self.advance_to(last);
        Ok(())
    }
}

/// A result as the rating model sees it: scored under its league's system, then ranked.
fn rate_input(system: ScoringSystem, result: &GameResult) -> Result<GameOutcome, String> {
    let scored = score_game_unexplained(system, result).map_err(|error| error.to_string())?;
    outcome(&scored, result).map_err(|error| error.to_string())
}

/// Folds the complete ratings from the database: one streaming query over the result event
/// types only (served by the `events(event_type, position)` index), up to `last`; the
/// model's position is `last` afterwards. `system_of` names each league's scoring system.
pub async fn load_ratings(
    store: &EventStore,
    last: u64,
    system_of: impl Fn(Uuid) -> Option<ScoringSystem>,
) -> Result<RatingsModel, ProjectionError> {
    let (model, _) = crate::fold_ratings(store, RatingsModel::new(), last, system_of).await?;
    Ok(model)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use league_domain::{Actor, GameFinished, GameResultCorrected, LeagueEvent};
    use league_scoring::PlacementEntry;

    use super::*;

    const LEAGUE: Uuid = Uuid::from_u128(7);

    fn meta(position: u64, second: u32) -> EventMeta {
        EventMeta {
            position,
            stream_version: position,
            recorded_at: Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, second).unwrap(),
        }
    }

    fn result(first: u128, second: u128) -> GameResult {
        GameResult::Placement(vec![
            PlacementEntry { player: Uuid::from_u128(first).to_string(), points: 10.0 },
            PlacementEntry { player: Uuid::from_u128(second).to_string(), points: 5.0 },
        ])
    }

    fn finished(game: u128, result: GameResult) -> DomainEvent {
        DomainEvent::League(LeagueEvent::GameFinished(GameFinished {
            league_id: LEAGUE.into(),
            game_id: Uuid::from_u128(game).into(),
            result,
            reported_by: Actor::Admin,
        }))
    }

    fn corrected(game: u128, result: GameResult) -> DomainEvent {
        DomainEvent::League(LeagueEvent::GameResultCorrected(GameResultCorrected {
            league_id: LEAGUE.into(),
            game_id: Uuid::from_u128(game).into(),
            result,
            reason: "sheet".into(),
            corrected_by: Actor::Admin,
        }))
    }

    fn placement(league: Uuid) -> Option<ScoringSystem> {
        (league == LEAGUE).then_some(ScoringSystem::Placement)
    }

    #[test]
    fn results_rate_in_log_order_and_time_bounds_find_the_last_result() {
        let mut model = RatingsModel::new();
        model.apply_event(meta(3, 10), &finished(100, result(1, 2)), placement).unwrap();
        model.apply_event(meta(5, 20), &corrected(100, result(2, 1)), placement).unwrap();
        let winner = model.ratings().rating(GameKind::Placement, Uuid::from_u128(2)).unwrap();
        assert!(winner.mu > 25.0 && winner.games == 1, "the correction's winner: {winner:?}");
        assert_eq!(model.position(), 5);
        assert_eq!(model.results_folded(), 2);
        assert_eq!(model.recorded_at(5), Some(meta(5, 20).recorded_at));
        assert_eq!(model.recorded_at(4), None);
        let at = |second| AsOf::Time(meta(0, second).recorded_at);
        assert_eq!(model.position_of(at(9)), 0);
        assert_eq!(model.position_of(at(10)), 3);
        assert_eq!(model.position_of(at(19)), 3);
        assert_eq!(model.position_of(at(59)), 5);
        assert_eq!(model.position_of(AsOf::Position(4)), 4);
    }

    #[test]
    fn results_that_do_not_fit_the_history_are_refused() {
        let mut model = RatingsModel::new();
        let error = model.apply_event(meta(1, 0), &finished(100, result(1, 2)), |_| None);
        assert!(matches!(error, Err(ProjectionError::Inconsistent { position: 1, .. })));
        let error = model.apply_event(meta(2, 0), &corrected(101, result(1, 2)), placement);
        assert!(matches!(error, Err(ProjectionError::Inconsistent { position: 2, .. })));
        model.apply_event(meta(3, 0), &finished(100, result(1, 2)), placement).unwrap();
        let error = model.apply_event(meta(4, 0), &finished(100, result(1, 2)), placement);
        assert!(matches!(error, Err(ProjectionError::Inconsistent { position: 4, .. })));
        let error = model.apply_event(meta(4, 0), &finished(102, result(1, 2)), placement);
        assert!(matches!(error, Err(ProjectionError::OutOfOrder { after: 4, got: 4 })));
    }
}
