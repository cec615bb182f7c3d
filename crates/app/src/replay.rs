//! Replaying the log from scratch (`league replay`): the whole log folded in memory with its
//! hash chain walked beside it, or the read side as of a point in history; the ratings
//! across leagues rebuilt from the same log; and the report printed from them (standings of
//! every league or one, every game kind's leaderboard). Nothing is written: every read model
//! is a fold of the log (`docs/architecture.md`). Unlike [`crate::App`], which folds a small
//! catalog and loads leagues on demand, a replay folds everything at once.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use league_domain::LeagueStatus;
use league_projections::{
    AsOf, GameKind, ProjectionError, RatingsModel, ReadModel, StandingRow, load_model, load_ratings,
};
use league_scoring::ScoringSystem;
use league_store::{ChainBreak, EventStore, StoreError};
use serde::Serialize;
use uuid::Uuid;

/// Why a replay failed, or what it was asked that the log does not hold.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// An event of the log does not fold (or cannot be read).
    #[error("replay failed")]
    Fold(#[source] ProjectionError),
    #[error("cannot verify the hash chain")]
    Verify(#[source] StoreError),
    /// A result does not fit the ratings (unknown league, a second first report, a
    /// correction of nothing): the replay fails like any other fold error.
    #[error("ratings replay failed")]
    Ratings(#[source] ProjectionError),
    /// The league asked for is not in the log.
    #[error("no league {0} in this log")]
    UnknownLeague(Uuid),
    /// The league asked for is in the log, but created after the replay's bound.
    #[error("league {0} did not exist yet at that point")]
    LeagueNotYet(Uuid),
}

/// The whole log folded: its hash chain broken (nothing more to rebuild), or intact.
#[derive(Debug)]
pub enum Rebuild {
    ChainBroken(ChainBreak),
    Intact(Box<Folded>),
}

/// The log folded into the read model, up to a bound or whole; the ratings come next
/// ([`Folded::with_ratings`]).
#[derive(Debug)]
pub struct Folded {
    pub model: ReadModel,
    /// The bound folded to (`None`: the whole log).
    pub as_of: Option<AsOf>,
    /// Events whose hash chain was verified (the whole log's fold only).
    pub events_verified: Option<u64>,
    /// Time to fold the log (and walk its chain).
    pub fold_time: Duration,
}

/// The read side rebuilt from the log: the read model and the ratings across leagues.
#[derive(Debug)]
pub struct Replay {
    pub folded: Folded,
    pub ratings: RatingsModel,
}

/// Folds the whole log and walks its hash chain, the two scans side by side. `progress`
/// gets the last folded position now and then.
pub async fn rebuild(
    store: &EventStore,
    progress: impl FnMut(u64),
) -> Result<Rebuild, ReplayError> {
    let started = Instant::now();
    let (model, verified) = tokio::join!(load_model(store, None, progress), store.verify());
    let model = model.map_err(ReplayError::Fold)?;
    let verified = verified.map_err(ReplayError::Verify)?;
    if let Some(bad) = verified.first_bad {
        return Ok(Rebuild::ChainBroken(bad));
    }
    Ok(Rebuild::Intact(Box::new(Folded {
        model,
        as_of: None,
        events_verified: Some(verified.events_verified),
        fold_time: started.elapsed(),
    })))
}

/// Folds the log up to `as_of` (verifies nothing).
pub async fn fold_as_of(
    store: &EventStore,
    as_of: AsOf,
    progress: impl FnMut(u64),
) -> Result<Folded, ReplayError> {
    let started = Instant::now();
    let model = load_model(store, Some(as_of), progress).await.map_err(ReplayError::Fold)?;
    Ok(Folded { model, as_of: Some(as_of), events_verified: None, fold_time: started.elapsed() })
}

impl Folded {
    /// Rebuilds the ratings across leagues (docs/ratings.md) up to the model's position.
    pub async fn with_ratings(self, store: &EventStore) -> Result<Replay, ReplayError> {
        let model = &self.model;
        let ratings = load_ratings(store, model.position(), |competition| {
            model.scoring_system_of(competition)
        })
        .await
        .map_err(ReplayError::Ratings)?;
        Ok(Replay { folded: self, ratings })
    }
}

/// What `league replay` prints as JSON: standings and leaderboards at the replayed point.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayReport {
    pub position: u64,
    pub recorded_at: Option<DateTime<Utc>>,
    pub leagues: Vec<LeagueStandings>,
    /// Every game kind's leaderboard, by the kind's name.
    pub ratings: BTreeMap<String, Vec<RatingRow>>,
}

/// One league's standings in a replay report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueStandings {
    pub league: Uuid,
    pub name: String,
    pub status: LeagueStatus,
    pub scoring_system: ScoringSystem,
    pub games_finished: usize,
    pub games: usize,
    pub standings: Vec<NamedStanding>,
}

/// A standings row with the player's name (absent for a player the log does not name).
#[derive(Debug, Serialize)]
pub struct NamedStanding {
    pub rank: u32,
    pub player: Uuid,
    pub name: Option<String>,
    pub total: f64,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
}

impl NamedStanding {
    pub fn of(row: &StandingRow, name: Option<String>) -> NamedStanding {
        NamedStanding {
            rank: row.rank,
            player: row.player,
            name,
            total: row.total,
            played: row.played,
            wins: row.wins,
            draws: row.draws,
        }
    }
}

/// One line of a game kind's leaderboard.
#[derive(Debug, Serialize)]
pub struct RatingRow {
    pub rank: u32,
    pub player: Uuid,
    pub mu: f64,
    pub sigma: f64,
    pub display: f64,
    pub games: u32,
}

impl Replay {
    /// One line per game kind with rated games: games, players and the leader.
    pub fn ratings_summary(&self) -> String {
        let ratings = self.ratings.ratings();
        let mut lines =
            vec![format!("ratings rebuilt from {} results", self.ratings.results_folded())];
        for kind in GameKind::ALL {
            let board = ratings.leaderboard(kind, None);
            if let Some(top) = board.first() {
                lines.push(format!(
                    "  {kind}: {} games rated, {} players; top {} (display {:.3}, mu {:.3}, sigma {:.3})",
                    ratings.games_rated(kind),
                    board.len(),
                    top.player,
                    top.rating.display(),
                    top.rating.mu,
                    top.rating.sigma,
                ));
            }
        }
        lines.join("\n")
    }

    /// The standings of `league` (or of every league) and every leaderboard. A league the
    /// replay lacks is a [`ReplayError::UnknownLeague`] or, when it is created after the
    /// bound, a [`ReplayError::LeagueNotYet`]; for a bounded replay, the whole
    /// log is folded to tell "not yet" from "never".
    pub async fn report(
        &self,
        store: &EventStore,
        league: Option<Uuid>,
    ) -> Result<ReplayReport, ReplayError> {
        let (model, as_of) = (&self.folded.model, self.folded.as_of);
        let leagues = match league {
            Some(id) => {
                if model.league(id).is_none() {
                    let later = as_of.is_some()
                        && load_model(store, None, |_| {})
                            .await
                            .map_err(ReplayError::Fold)?
                            .league(id)
                            .is_some();
                    let unknown =
                        if later { ReplayError::LeagueNotYet } else { ReplayError::UnknownLeague };
                    return Err(unknown(id));
                }
                vec![self.league_standings(id)]
            }
            None => model.leagues().map(|view| self.league_standings(view.id)).collect(),
        };
        Ok(ReplayReport {
            position: model.position(),
            recorded_at: model.last_recorded_at(),
            leagues,
            ratings: self.leaderboards(),
        })
    }

    fn league_standings(&self, league: Uuid) -> LeagueStandings {
        let model = &self.folded.model;
        let view = model.league(league).expect("checked by the caller");
        let finished = model.games_of(league).filter(|game| game.result.is_some()).count();
        let standings = model
            .standings(league)
            .into_iter()
            .map(|row| NamedStanding::of(&row, model.player(row.player).map(|p| p.name.clone())))
            .collect();
        LeagueStandings {
            league: view.id,
            name: view.settings.name.clone(),
            status: view.status,
            scoring_system: view.settings.scoring_system,
            games_finished: finished,
            games: view.games.len(),
            standings,
        }
    }

    /// Every game kind's leaderboard as of the replayed position.
    fn leaderboards(&self) -> BTreeMap<String, Vec<RatingRow>> {
        let ratings = self.ratings.ratings();
        GameKind::ALL
            .into_iter()
            .map(|kind| {
                let rows = ratings
                    .leaderboard(kind, None)
                    .into_iter()
                    .map(|row| RatingRow {
                        rank: row.rank,
                        player: row.player,
                        mu: row.rating.mu,
                        sigma: row.rating.sigma,
                        display: row.rating.display(),
                        games: row.rating.games,
                    })
                    .collect();
                (kind.name().to_owned(), rows)
            })
            .collect()
    }
}
