//! A league's life-cycle status, named by the league's fold and by refusals (`crate::DomainError`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// Where a league is in its life: open for subscriptions, running (games scheduled),
/// completed (every game finished).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LeagueStatus {
    Open,
    Running,
    Completed,
}

impl fmt::Display for LeagueStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LeagueStatus::Open => "open",
            LeagueStatus::Running => "running",
            LeagueStatus::Completed => "completed",
        })
    }
}
