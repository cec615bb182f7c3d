//! Rulings in words (`docs/tournaments.md#rulings`): the sentence each ruling event reads as.

use league_domain::{AdjustmentTarget, TournamentEvent};

use super::Words;

impl Words<'_> {
    /// The sentence of a ruling event (`None` for any other event).
    pub(super) async fn ruling(&self, event: &TournamentEvent) -> Option<String> {
        let with_reason = |text: String, reason: Option<&String>| match reason {
            Some(reason) => format!("{text}: {reason}"),
            None => text,
        };
        Some(match event {
            TournamentEvent::ScoreAdjusted(e) => {
                let kind = if e.points < 0.0 { "Penalty" } else { "Bonus" };
                let on = match e.target {
                    AdjustmentTarget::Board { board_id } => {
                        self.board_label(e.tournament_id.into(), board_id.into()).await
                    }
                    AdjustmentTarget::Round { round } => format!("round {round}"),
                    AdjustmentTarget::Tournament => "the tournament".to_owned(),
                };
                let player = self.name(e.player_id.into());
                let text = format!(
                    "Adjustment {}: {kind} {:+} to {player} on {on}",
                    e.adjustment, e.points
                );
                with_reason(text, Some(&e.reason))
            }
            TournamentEvent::ScoreAdjustmentRevoked(e) => {
                with_reason(format!("Adjustment {} revoked", e.adjustment), e.reason.as_ref())
            }
            TournamentEvent::HandicapSet(e) => {
                let player = self.name(e.player_id.into());
                let text = format!("{player}'s handicap set to {:+}", e.points);
                with_reason(text, e.reason.as_ref())
            }
            TournamentEvent::EntrantRankingChanged(e) => {
                let player = self.name(e.player_id.into());
                let state = if e.unranked { "unranked" } else { "ranked again" };
                with_reason(format!("{player} is {state}"), e.reason.as_ref())
            }
            TournamentEvent::KeepApartAdded(e) => {
                let (a, b) = (self.name(e.first.into()), self.name(e.second.into()));
                with_reason(format!("{a} and {b} are kept apart"), e.reason.as_ref())
            }
            TournamentEvent::KeepApartRemoved(e) => {
                let (a, b) = (self.name(e.first.into()), self.name(e.second.into()));
                with_reason(format!("{a} and {b} are no longer kept apart"), e.reason.as_ref())
            }
            TournamentEvent::TopBoardTieBroken(e) => {
                let text =
                    format!("Round {}'s top board ordered: {}", e.round, self.names(&e.order));
                with_reason(text, Some(&e.reason))
            }
            _ => return None,
        })
    }
}
