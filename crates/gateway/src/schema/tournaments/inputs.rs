//! Tournament inputs and enums: `createTournament`'s input and its mapping onto the
//! domain's settings, the registration controls, replacements, and the tournament and round
//! scorings the catalogue offers.

use async_graphql::{Enum, ID, InputObject, MaybeUndefined, SimpleObject};
use chrono::{DateTime, Utc};
use league_domain::{Registration, RegistrationChange, TournamentSettings};
use league_scoring::TournamentScoring;

use crate::error::{GatewayError, GatewayResult};
use crate::schema::inputs::{ScoringSystemValue, count, parse_id};

/// `Tournament.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::TournamentStatus")]
pub enum TournamentStatus {
    /// Taking entries; no round seeded yet.
    Open,
    /// Rounds being played.
    Running,
    /// The last round completed.
    Completed,
}

/// A player's round score when they played two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_scoring::RoundScoring")]
pub enum RoundScoring {
    /// The best board counts; the other is dropped.
    BestBoard,
    /// Both boards count.
    SumOfBoards,
}

/// Who scores a seat that a replacement player finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::ReplacementScores")]
pub enum ReplacementScores {
    /// The player the seeding seated scores the seat (the default).
    SeatedPlayer,
    /// The replacement who finished the seat scores it.
    Replacement,
}

/// `createTournament` input. Omitted settings take their defaults (round scoring BEST_BOARD,
/// tournament scoring `sum-all-rounds`, no keep-apart pairs, no sit-out points, no top board,
/// the seated player scores a replaced seat).
#[derive(Debug, InputObject)]
pub struct CreateTournamentInput {
    pub name: String,
    pub game: String,
    pub game_version: Option<String>,
    pub scoring_system: ScoringSystemValue,
    /// Seats per board (Diplomacy: 7).
    pub players_per_board: i32,
    /// Rounds planned.
    pub rounds: i32,
    pub round_scoring: Option<RoundScoring>,
    /// A tournament scoring id from `tournamentScorings` (e.g. `best-rounds-2`, `wdc-2025`).
    pub tournament_scoring: Option<String>,
    /// Pairs of player ids never seated together unless impossible.
    pub keep_apart: Option<Vec<Vec<ID>>>,
    pub sit_out_points: Option<f64>,
    pub sit_out_points_once: Option<bool>,
    pub top_board_last_round: Option<bool>,
    pub replacement_scores: Option<ReplacementScores>,
    /// Registration controls (`docs/tournaments.md#registration`); omitted: open to anyone
    /// at any time, no cap, no approval.
    pub registration: Option<TournamentRegistrationInput>,
    /// Dates, venue, time zone and check-in window (`docs/tournaments.md#times`); omitted:
    /// none, times shown in UTC.
    pub schedule: Option<super::times::TournamentScheduleInput>,
    /// A result a seated player reports waits for another player of the board or a director
    /// to confirm it (`docs/tournaments.md#result-confirmation`); omitted: off.
    pub confirm_player_results: Option<bool>,
}

/// Registration controls (`docs/tournaments.md#registration`). At creation an omitted control
/// takes its default; in `changeTournamentRegistration` it keeps its value, and `null`
/// removes a window end or the cap.
#[derive(Debug, Default, InputObject)]
pub struct TournamentRegistrationInput {
    /// Players cannot enter themselves while closed (organisers still enter anyone).
    pub closed: Option<bool>,
    /// Players enter themselves from this instant (UTC) on.
    pub opens_at: MaybeUndefined<DateTime<Utc>>,
    /// Players enter themselves until this instant (UTC).
    pub closes_at: MaybeUndefined<DateTime<Utc>>,
    /// Most entrants; later entries join the waitlist in order.
    pub max_entrants: MaybeUndefined<i32>,
    /// A player's own entry is a request the organisers approve or decline.
    pub approval: Option<bool>,
}

impl TournamentRegistrationInput {
    /// The domain's change, `field` naming the input in errors.
    pub(super) fn into_change(self, field: &str) -> GatewayResult<RegistrationChange> {
        let kept = |value: MaybeUndefined<DateTime<Utc>>| match value {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(at) => Some(Some(at)),
        };
        let max_entrants = match self.max_entrants {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(cap) => Some(Some(count(cap, &format!("{field}.maxEntrants"))?)),
        };
        Ok(RegistrationChange {
            closed: self.closed,
            opens_at: kept(self.opens_at),
            closes_at: kept(self.closes_at),
            max_entrants,
            approval: self.approval,
        })
    }
}

impl CreateTournamentInput {
    pub(super) fn into_settings(self) -> GatewayResult<TournamentSettings> {
        let mut settings = TournamentSettings::new(
            self.name,
            self.game,
            self.scoring_system.into(),
            count(self.players_per_board, "input.playersPerBoard")?,
            count(self.rounds, "input.rounds")?,
        );
        settings.game_version = self.game_version;
        if let Some(round_scoring) = self.round_scoring {
            settings.round_scoring = round_scoring.into();
        }
        if let Some(id) = &self.tournament_scoring {
            settings.tournament_scoring = TournamentScoring::parse(id).map_err(|error| {
                GatewayError::bad_input("input.tournamentScoring", error.to_string())
            })?;
        }
        for (index, pair) in self.keep_apart.iter().flatten().enumerate() {
            let field = format!("input.keepApart[{index}]");
            let [a, b] = pair.as_slice() else {
                return Err(GatewayError::bad_input(field, "a pair is two player ids"));
            };
            settings.keep_apart.push([parse_id(a, &field)?.into(), parse_id(b, &field)?.into()]);
        }
        if let Some(points) = self.sit_out_points {
            settings.sit_out_points = points;
        }
        if let Some(once) = self.sit_out_points_once {
            settings.sit_out_points_once = once;
        }
        if let Some(top) = self.top_board_last_round {
            settings.top_board_last_round = top;
        }
        if let Some(rule) = self.replacement_scores {
            settings.replacement_scores = rule.into();
        }
        if let Some(confirm) = self.confirm_player_results {
            settings.confirm_player_results = confirm;
        }
        if let Some(registration) = self.registration {
            settings.registration =
                registration.into_change("input.registration")?.applied_to(Registration::default());
        }
        if let Some(schedule) = self.schedule {
            settings.schedule = schedule.into_schedule("schedule")?;
        }
        Ok(settings)
    }
}

/// A replacement player who finished a seated player's seat.
#[derive(Debug, InputObject)]
pub struct ReplacementInput {
    pub seated: ID,
    pub replacement: ID,
}

pub(super) fn replacements_of(
    input: Option<Vec<ReplacementInput>>,
) -> GatewayResult<Vec<league_domain::Replacement>> {
    input
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(index, r)| {
            Ok(league_domain::Replacement {
                seated: parse_id(&r.seated, &format!("replacements[{index}].seated"))?.into(),
                replacement: parse_id(
                    &r.replacement,
                    &format!("replacements[{index}].replacement"),
                )?
                .into(),
            })
        })
        .collect()
}

/// A tournament scoring of the catalogue (`docs/tournaments.md#round-and-tournament-scoring`).
#[derive(SimpleObject)]
pub struct TournamentScoringInfo {
    /// The id `createTournament` takes.
    pub id: String,
    pub name: String,
    pub description: String,
    /// Whether it combines round scores (else board scores directly).
    pub uses_round_scores: bool,
}

impl From<league_scoring::TournamentScoringInfo> for TournamentScoringInfo {
    fn from(info: league_scoring::TournamentScoringInfo) -> Self {
        TournamentScoringInfo {
            id: info.id,
            name: info.name,
            description: info.description,
            uses_round_scores: info.uses_round_scores,
        }
    }
}

/// A round scoring (what counts when a player plays two boards in a round).
#[derive(SimpleObject)]
pub struct RoundScoringInfo {
    pub value: RoundScoring,
    pub name: String,
    pub description: String,
}
