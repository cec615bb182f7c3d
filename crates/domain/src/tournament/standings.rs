//! A tournament's standings (`docs/tournaments.md#round-and-tournament-scoring`): each finished
//! board scored by the tournament's system, rounds and totals by its round and tournament
//! scoring, ranked with the DAANZ tie-breakers as leagues are.

use league_scoring::{
    GameResult, SitOut, TournamentBoard, TournamentRules, TournamentStanding, rank_tournament_ruled,
};

use super::{ReplacementScores, Tournament};
use crate::error::DomainError;
use crate::ids::PlayerId;

impl Tournament {
    /// Standings after round `after_round` (every round so far when `None`): every entrant
    /// (withdrawn ones too: their scores stay) and anyone else who scored, best first.
    pub fn standings(
        &self,
        after_round: Option<u32>,
    ) -> Result<Vec<TournamentStanding<PlayerId>>, DomainError> {
        let Some(settings) = self.settings() else { return Ok(Vec::new()) };
        let last = after_round.unwrap_or(u32::MAX);
        let rules = TournamentRules {
            scoring: settings.tournament_scoring,
            round_scoring: settings.round_scoring,
            rounds: settings.rounds,
            sit_out_points: settings.sit_out_points,
            sit_out_points_once: settings.sit_out_points_once,
        };
        let mut entrants: Vec<PlayerId> = self.entrants.iter().map(|e| e.player).collect();
        let mut boards = Vec::new();
        let mut sit_outs = Vec::new();
        for round in self.rounds.iter().filter(|r| r.number <= last) {
            sit_outs.extend(
                round.sitting_out.iter().map(|&player| SitOut { round: round.number, player }),
            );
            for board in &round.boards {
                let Some(result) = &board.result else { continue };
                let Some(scored) = board.scored(self.board_system(board))? else { continue };
                let (game, seated) = scored.into_parts();
                let mut game = self.pool_multiplied(round.number, board.number, game);
                let players: Vec<PlayerId> = seated
                    .into_iter()
                    .map(|seated| scorer(settings.replacement_scores, &board.replacements, seated))
                    .collect();
                self.adjust_board(board.id, &players, &mut game);
                for player in &players {
                    if !entrants.contains(player) {
                        entrants.push(*player);
                    }
                }
                let centres = centres_of(result, game.players.len());
                boards.push(TournamentBoard {
                    round: round.number,
                    board: board.number,
                    game,
                    players,
                    centres,
                });
            }
        }
        let rulings = self.ranking_rulings(last);
        let ranked = rank_tournament_ruled(&rules, &entrants, &boards, &sit_outs, &rulings);
        Ok(self.pool_places(ranked, last))
    }
}

/// Who scores a seat: the seated player, or the replacement who finished it when the
/// tournament says so (`docs/tournaments.md#replacements-standings-and-ratings`).
fn scorer(
    rule: ReplacementScores,
    replacements: &[super::Replacement],
    seated: PlayerId,
) -> PlayerId {
    match rule {
        ReplacementScores::SeatedPlayer => seated,
        ReplacementScores::Replacement => {
            replacements.iter().find(|r| r.seated == seated).map_or(seated, |r| r.replacement)
        }
    }
}

/// Each row's supply centres when the result has them (Diplomacy), in row order.
fn centres_of(result: &GameResult, rows: usize) -> Vec<Option<u32>> {
    match result {
        GameResult::Diplomacy(entries) => entries.iter().map(|e| Some(e.centres)).collect(),
        _ => vec![None; rows],
    }
}
