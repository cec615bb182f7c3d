//! The tie-breaker a standings line names (`docs/scoring.md#standings-and-tie-breakers`):
//! `Standing.separatedBy` and `TournamentStanding.separatedBy`.

use async_graphql::{Enum, SimpleObject};
use league_scoring::TieBreak;

/// The DAANZ tie-breakers, in the order they apply.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(name = "TieBreakCode")]
pub enum TieBreakCode {
    /// More wins among the counted games.
    MoreWins,
    /// More drawn games among the counted games.
    MoreDraws,
    /// The better best game (by the DAANZ game comparison).
    BetterBestGame,
    /// The better second-best game.
    BetterSecondBestGame,
    /// The better third-best game.
    BetterThirdBestGame,
    /// Not DAANZ: the order a director gave players level on a top board, asked before the
    /// others (`docs/tournaments.md#rulings`).
    DirectorsRank,
}

/// The tie-breaker that split a standings line from a neighbour level on total: the line
/// above, or (for the first of a run of equal totals) the line below.
#[derive(SimpleObject, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(name = "TieBreak")]
pub struct TieBreakValue {
    /// Which tie-breaker, for programs.
    pub code: TieBreakCode,
    /// The tie-breaker in words, as the web app shows it ("more wins").
    pub label: &'static str,
}

impl From<TieBreak> for TieBreakValue {
    fn from(tie_break: TieBreak) -> Self {
        let code = match tie_break {
            TieBreak::MoreWins => TieBreakCode::MoreWins,
            TieBreak::MoreDraws => TieBreakCode::MoreDraws,
            TieBreak::BetterBestGame => TieBreakCode::BetterBestGame,
            TieBreak::BetterSecondBestGame => TieBreakCode::BetterSecondBestGame,
            TieBreak::BetterThirdBestGame => TieBreakCode::BetterThirdBestGame,
            TieBreak::DirectorsRank => TieBreakCode::DirectorsRank,
        };
        TieBreakValue { code, label: tie_break.label() }
    }
}
