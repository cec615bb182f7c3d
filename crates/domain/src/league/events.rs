//! The events of a league's stream (`league-<uuid>`): settings, subscriptions, the stored schedule, results, corrections, completion, co-organisers.

use league_scoring::{ConcessionRule, GameResult};
use serde::{Deserialize, Serialize};

use crate::event_enum::aggregate_enum;
use crate::ids::{Actor, GameId, LeagueId, PlayerId};
use crate::scores::Effects;
use crate::settings::LeagueSettings;

/// A player was made co-organiser of a league: they manage it as its creator does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueCoOrganiserAdded {
    pub league_id: LeagueId,
    pub player_id: PlayerId,
    pub added_by: Actor,
}

/// A league was created with its fixed settings (`docs/scheduling.md#league-life-cycle`).
/// The settings are flattened: the stored JSON is `leagueId` beside the settings' fields,
/// exactly as when they were fields of this event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueCreated {
    pub league_id: LeagueId,
    #[serde(flatten)]
    pub settings: LeagueSettings,
    /// The organiser who created it; absent when the site admin did (so events from before
    /// organisers existed keep their bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<Actor>,
}

/// A player joined a league that is still open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerSubscribed {
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// A player left a league that is still open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerUnsubscribed {
    pub league_id: LeagueId,
    pub player_id: PlayerId,
}

/// One game of the schedule: its number (1-based), derived id, and the player in each seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledGame {
    pub game_id: GameId,
    pub number: u32,
    /// `seats[i]` is the player in seat i (see [`crate::seat_labels`]).
    pub seats: Vec<PlayerId>,
}

/// Every game of the league, appended together with the subscription that filled it.
/// The schedule is stored, never recomputed on replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GamesScheduled {
    pub league_id: LeagueId,
    pub games: Vec<ScheduledGame>,
}

/// A game's result as reported (player strings are the players' UUID strings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFinished {
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
    pub reported_by: Actor,
}

/// A finished game's result was replaced, with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameResultCorrected {
    pub league_id: LeagueId,
    pub game_id: GameId,
    pub result: GameResult,
    pub reason: String,
    pub corrected_by: Actor,
}

/// The last game of the league finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeagueCompleted {
    pub league_id: LeagueId,
}

/// The league's event types, one line each, like `player_events!`. Results are at version 3
/// since each system scores a concession as its own rule says: older results keep the rule
/// they were recorded under ([`crate::upcast`]).
macro_rules! league_events {
    ([$next:ident $(, $rest:ident)*] $($groups:tt)*) => {
        $next! { [$($rest),*] $($groups)*
            League(LeagueEvent, league_id) {
                LeagueCreated = "LeagueCreated" version 1 in catalog,
                PlayerSubscribed = "PlayerSubscribed" version 1 in catalog,
                PlayerUnsubscribed = "PlayerUnsubscribed" version 1 in catalog,
                GamesScheduled = "GamesScheduled" version 1 in catalog notify [LeagueStarted],
                GameFinished = "GameFinished" version 3 notify [ResultReported, StandingsChanged],
                GameResultCorrected = "GameResultCorrected" version 3
                    notify [ResultCorrected, StandingsChanged],
                LeagueCompleted = "LeagueCompleted" version 1 in catalog notify [LeagueCompleted],
                LeagueCoOrganiserAdded = "LeagueCoOrganiserAdded" version 1 in catalog,
            }
        }
    };
}
pub(crate) use league_events;
league_events! { [aggregate_enum] }

impl LeagueEvent {
    /// The steps of [`crate::upcast`] for a league's events
    /// (`docs/scoring.md#draws-and-concessions`): a version 1 `GameFinished` or
    /// `GameResultCorrected` was recorded when a concession was scored as a draw of one, so a
    /// concession among them is marked [`ConcessionRule::DrawOfOne`] and keeps its scores; a
    /// version 2 one was recorded when a concession was a solo in every system but Baf and
    /// Detour 98f, so it is marked [`ConcessionRule::Solo`].
    pub(crate) fn upcast(&mut self, schema_version: i64) {
        match self {
            LeagueEvent::GameFinished(GameFinished { result, .. })
            | LeagueEvent::GameResultCorrected(GameResultCorrected { result, .. }) => {
                match schema_version {
                    1 => result.set_concession_rule(ConcessionRule::DrawOfOne),
                    2 => result.set_concession_rule(ConcessionRule::Solo),
                    _ => {}
                }
            }
            LeagueEvent::LeagueCreated(_)
            | LeagueEvent::PlayerSubscribed(_)
            | LeagueEvent::PlayerUnsubscribed(_)
            | LeagueEvent::GamesScheduled(_)
            | LeagueEvent::LeagueCompleted(_)
            | LeagueEvent::LeagueCoOrganiserAdded(_) => {}
        }
    }
}

impl LeagueEvent {
    /// What the event changes beyond the league's own state: a result, a correction (the
    /// result it records) or the roster (standings list every subscribed player) move the
    /// standings.
    pub fn effects(&self) -> Effects<'_> {
        match self {
            LeagueEvent::GameFinished(e) => {
                Effects::result(e.league_id.uuid(), e.game_id.uuid(), &e.result, false)
            }
            LeagueEvent::GameResultCorrected(e) => {
                Effects::result(e.league_id.uuid(), e.game_id.uuid(), &e.result, true)
            }
            LeagueEvent::PlayerSubscribed(_) | LeagueEvent::PlayerUnsubscribed(_) => {
                Effects::MOVES_STANDINGS
            }
            LeagueEvent::LeagueCreated(_)
            | LeagueEvent::GamesScheduled(_)
            | LeagueEvent::LeagueCompleted(_)
            | LeagueEvent::LeagueCoOrganiserAdded(_) => Effects::NONE,
        }
    }
}
