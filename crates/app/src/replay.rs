//! Replaying the log from scratch (`league replay`): the whole log read once, its hash chain
//! walked as it is read, folded into the read side and the ratings across leagues
//! (`projections::rebuild`, in memory bounded by the leagues still open), or the read side as
//! of a point in history; and the report printed from them (standings of every league or
//! one, every game kind's leaderboard). Nothing is written: every read model is a fold of
//! the log (`docs/architecture.md`). Unlike [`crate::App`], which folds a small catalog and
//! loads leagues on demand, a replay folds everything, once.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use league_domain::LeagueStatus;
use league_projections::{
    AsOf, GameKind, Keep, ProjectionError, RatingsModel, RebuildError, Rebuilt, RebuiltLeague,
    StandingRow, load_league, rebuild as rebuild_log,
};
use league_scoring::ScoringSystem;
use league_store::{ChainBreak, EventStore};
use serde::Serialize;
use uuid::Uuid;

/// Why a replay failed, or what it was asked that the log does not hold.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// An event of the log does not fold (or cannot be read).
    #[error("replay failed")]
    Fold(#[source] ProjectionError),
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

impl From<RebuildError> for ReplayError {
    fn from(error: RebuildError) -> Self {
        match error {
            RebuildError::Fold(error) => ReplayError::Fold(error),
            RebuildError::Ratings(error) => ReplayError::Ratings(error),
        }
    }
}

/// The whole log replayed: its hash chain broken (nothing more to rebuild), or intact.
#[derive(Debug)]
pub enum Rebuild {
    ChainBroken(ChainBreak),
    Intact(Box<Replay>),
}

/// The read side rebuilt from the log, up to a bound or whole: the standings asked for and
/// the ratings across leagues (`projections::rebuild`: the log read once, in memory bounded
/// by the leagues still open).
#[derive(Debug)]
pub struct Replay {
    rebuilt: Rebuilt,
    /// The bound folded to (`None`: the whole log).
    pub as_of: Option<AsOf>,
    /// Events whose hash chain was verified (the whole log's replay only).
    pub events_verified: Option<u64>,
    /// Time to read, verify and fold the log.
    pub fold_time: Duration,
}

/// What standings a replay keeps: one league's, or every league's (a bounded replay prints
/// them all), or none (a whole replay without `--league` prints only its summary).
fn keep(as_of: Option<AsOf>, league: Option<Uuid>) -> Keep {
    match (league, as_of) {
        (Some(league), _) => Keep::One(league),
        (None, Some(_)) => Keep::Every,
        (None, None) => Keep::Nothing,
    }
}

/// Replays the whole log, walking its hash chain as it is read, keeping the standings of
/// `league` (if any) for the report. `progress` gets the last folded position now and then.
pub async fn rebuild(
    store: &EventStore,
    league: Option<Uuid>,
    progress: impl FnMut(u64),
) -> Result<Rebuild, ReplayError> {
    let started = Instant::now();
    let rebuilt = rebuild_log(store, None, keep(None, league), progress).await?;
    let chain = rebuilt.scan.as_ref().and_then(|scan| scan.chain.clone());
    let verified = match chain {
        Some(report) => match report.first_bad {
            Some(bad) => return Ok(Rebuild::ChainBroken(bad)),
            None => report.events_verified,
        },
        None => 0,
    };
    Ok(Rebuild::Intact(Box::new(Replay {
        rebuilt,
        as_of: None,
        events_verified: Some(verified),
        fold_time: started.elapsed(),
    })))
}

/// Replays the log up to `as_of` (verifies nothing), keeping every league's standings, or
/// those of `league`.
pub async fn fold_as_of(
    store: &EventStore,
    as_of: AsOf,
    league: Option<Uuid>,
    progress: impl FnMut(u64),
) -> Result<Replay, ReplayError> {
    let started = Instant::now();
    let rebuilt = rebuild_log(store, Some(as_of), keep(Some(as_of), league), progress).await?;
    Ok(Replay { rebuilt, as_of: Some(as_of), events_verified: None, fold_time: started.elapsed() })
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
            player: row.player.into(),
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
    /// Position of the last event replayed.
    pub fn position(&self) -> u64 {
        self.rebuilt.model.position()
    }

    /// The ratings across leagues as of the replayed position.
    pub fn ratings(&self) -> &RatingsModel {
        &self.rebuilt.ratings
    }

    /// One line per game kind with rated games: games, players and the leader.
    pub fn ratings_summary(&self) -> String {
        let ratings = self.rebuilt.ratings.ratings();
        let mut lines =
            vec![format!("ratings rebuilt from {} results", self.rebuilt.ratings.results_folded())];
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
    /// bound, a [`ReplayError::LeagueNotYet`] (told apart by the league's own stream).
    pub async fn report(
        &self,
        store: &EventStore,
        league: Option<Uuid>,
    ) -> Result<ReplayReport, ReplayError> {
        let kept = &self.rebuilt.leagues;
        let leagues = match league {
            Some(id) => match kept.iter().find(|rebuilt| rebuilt.id == id) {
                Some(rebuilt) => vec![self.league_standings(rebuilt)],
                None => {
                    let later = self.as_of.is_some()
                        && load_league(store, id, None)
                            .await
                            .map_err(ReplayError::Fold)?
                            .league(id)
                            .is_some();
                    let unknown =
                        if later { ReplayError::LeagueNotYet } else { ReplayError::UnknownLeague };
                    return Err(unknown(id));
                }
            },
            None => kept.iter().map(|rebuilt| self.league_standings(rebuilt)).collect(),
        };
        Ok(ReplayReport {
            position: self.rebuilt.model.position(),
            recorded_at: self.rebuilt.model.last_recorded_at(),
            leagues,
            ratings: self.leaderboards(),
        })
    }

    fn league_standings(&self, league: &RebuiltLeague) -> LeagueStandings {
        let model = &self.rebuilt.model;
        let standings = league
            .standings
            .iter()
            .map(|row| {
                NamedStanding::of(row, model.player(row.player.into()).map(|p| p.name.clone()))
            })
            .collect();
        LeagueStandings {
            league: league.id,
            name: league.name.clone(),
            status: league.status,
            scoring_system: league.scoring_system,
            games_finished: league.games_finished,
            games: league.games,
            standings,
        }
    }

    /// Every game kind's leaderboard as of the replayed position.
    fn leaderboards(&self) -> BTreeMap<String, Vec<RatingRow>> {
        let ratings = self.rebuilt.ratings.ratings();
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
