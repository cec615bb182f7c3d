//! A player's permanent keep-apart list carried to a round's seeding
//! (`docs/tournaments.md#a-players-permanent-keep-apart-list`): the seeding records every pair
//! of the round's players where one lists the other as a `KeepApartAdded` before its
//! `RoundSeeded`, so the seeding re-runs from the tournament's own log and names no other
//! entry of anyone's list.

use super::commands::SeedRound;
use super::rulings::KeepApartAdded;
use super::{Tournament, TournamentEvent};
use crate::context::Context;
use crate::ids::PlayerId;

/// The reason a carried pair is recorded with: it says where the pair comes from and not
/// whose list holds it.
pub const PERMANENT_LIST_REASON: &str = "a player's permanent keep-apart list";

impl Tournament {
    /// The pairs of round `c.round`'s players that a permanent list keeps apart and the
    /// tournament does not yet, each once, in id order, as the events recording them.
    pub(super) fn permanent_pairs_carried(
        &self,
        c: &SeedRound,
        context: &Context,
    ) -> Vec<TournamentEvent> {
        let present = self.present(c.round);
        let mut pairs: Vec<[PlayerId; 2]> = context
            .permanent_keep_apart
            .iter()
            .filter(|pair| pair[0] != pair[1] && pair.iter().all(|p| present.contains(p)))
            .map(|&[a, b]| if a <= b { [a, b] } else { [b, a] })
            .filter(|&[a, b]| !self.keep_apart().iter().any(|kept| same_pair(*kept, a, b)))
            .collect();
        pairs.sort();
        pairs.dedup();
        pairs
            .into_iter()
            .map(|[first, second]| {
                TournamentEvent::KeepApartAdded(KeepApartAdded {
                    tournament_id: c.tournament_id,
                    first,
                    second,
                    reason: Some(PERMANENT_LIST_REASON.to_owned()),
                    added_by: c.actor,
                })
            })
            .collect()
    }
}

fn same_pair([a, b]: [PlayerId; 2], first: PlayerId, second: PlayerId) -> bool {
    (a == first && b == second) || (a == second && b == first)
}
