//! Finishing positions and outcome classes shared by the systems: what the standings
//! tie-breakers (DAANZ part 4) need to know about each player's game.

use crate::{ConcessionRule, DiplomacyEntry, Outcome, PlayerGameScore, ScoringSystem};

/// Centres that win a Diplomacy game outright (an "18 centre WIN", Baf, Detour 98f and Squares).
pub(crate) const SOLO_CENTRES: u32 = 18;

/// The most centres any power other than `index` holds (0 when it is alone).
pub(crate) fn best_other_centres(entries: &[DiplomacyEntry], index: usize) -> u32 {
    entries
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != index)
        .map(|(_, entry)| entry.centres)
        .max()
        .unwrap_or(0)
}

/// Finishing position of player `index` among `count` players ranked by `key` (higher is
/// better): 1 + how many are strictly ahead, and how many share that position, including the
/// player (DAANZ part 4.3: "an equal 1st is behind an outright 1st but ahead of a 2nd").
/// Quadratic but allocation-free; games have at most eight players.
pub(crate) fn position<K: PartialOrd>(
    count: usize,
    index: usize,
    key: impl Fn(usize) -> K,
) -> (u32, u32) {
    let own = key(index);
    let mut ahead = 0u32;
    let mut sharing = 0u32;
    for other in 0..count {
        let other_key = key(other);
        if other_key > own {
            ahead += 1;
        } else if other_key == own {
            sharing += 1;
        }
    }
    (ahead + 1, sharing)
}

/// The soloist of a Diplomacy game, if any: the power on 18 or more centres (validation
/// guarantees at most one).
pub(crate) fn soloist(entries: &[DiplomacyEntry]) -> Option<usize> {
    entries.iter().position(|entry| entry.centres >= SOLO_CENTRES)
}

/// The power a game was conceded to, if any: the one power flagged `inDraw`
/// (`docs/scoring.md#draws-and-concessions`).
pub(crate) fn conceded_to(entries: &[DiplomacyEntry]) -> Option<usize> {
    let mut flagged = entries.iter().enumerate().filter(|(_, entry)| entry.in_draw);
    match (flagged.next(), flagged.next()) {
        (Some((index, _)), None) => Some(index),
        _ => None,
    }
}

/// The power `system` scores as the game's winner: the soloist, or the power conceded to when
/// the system scores a concession as a solo under the rule the result was recorded under
/// (`docs/scoring.md#draws-and-concessions`).
pub(crate) fn winner(system: ScoringSystem, entries: &[DiplomacyEntry]) -> Option<usize> {
    soloist(entries).or_else(|| {
        conceded_to(entries)
            .filter(|&index| system.scores_concession_as_solo(concession_rule(&entries[index])))
    })
}

/// The rule a concession is scored under, from the markers on the power conceded to.
pub(crate) fn concession_rule(conceded: &DiplomacyEntry) -> ConcessionRule {
    if conceded.concession_as_draw {
        ConcessionRule::DrawOfOne
    } else if conceded.concession_as_solo {
        ConcessionRule::Solo
    } else {
        ConcessionRule::PerSystem
    }
}

/// Outcome classes for Diplomacy (DAANZ part 4.1, `docs/scoring.md#standings-and-tie-breakers`):
/// win = solo (or a concession the system scores as one); loss = someone
/// else won; elimination = no solo and 0 centres or flagged eliminated; draw otherwise.
pub(crate) fn diplomacy_outcome(
    entries: &[DiplomacyEntry],
    index: usize,
    soloist: Option<usize>,
) -> Outcome {
    match soloist {
        Some(winner) if winner == index => Outcome::Win,
        Some(_) => Outcome::Loss,
        None if entries[index].centres == 0 || entries[index].eliminated => Outcome::Elimination,
        None => Outcome::Draw,
    }
}

/// Builds the per-player rows of a Diplomacy game from the league scores (input order),
/// ranking finishing positions by centres; the winner is [`winner`]'s for `system`.
pub(crate) fn diplomacy_rows(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    mut score_of: impl FnMut(usize) -> (f64, Vec<String>),
) -> Vec<PlayerGameScore> {
    let solo = winner(system, entries);
    (0..entries.len())
        .map(|index| {
            let (score, explanation) = score_of(index);
            let (position, sharing) = position(entries.len(), index, |i| entries[i].centres);
            PlayerGameScore {
                player: entries[index].player.clone(),
                score,
                outcome: diplomacy_outcome(entries, index, solo),
                explanation,
                position,
                sharing,
                eliminated_year: entries[index].eliminated_year,
            }
        })
        .collect()
}

/// One player's row of a team game, before [`rank_by_score`] sets its finishing position.
pub(crate) fn team_row(
    player: &str,
    score: f64,
    outcome: Outcome,
    explanation: Vec<String>,
) -> PlayerGameScore {
    PlayerGameScore {
        player: player.to_owned(),
        score,
        outcome,
        explanation,
        position: 1,
        sharing: 1,
        eliminated_year: None,
    }
}

/// Sets finishing positions of a scored non-Diplomacy game by league score
/// (`docs/scoring.md#standings-and-tie-breakers`: "by game
/// score otherwise").
pub(crate) fn rank_by_score(rows: &mut [PlayerGameScore]) {
    for index in 0..rows.len() {
        let (position, sharing) = position(rows.len(), index, |i| rows[i].score);
        rows[index].position = position;
        rows[index].sharing = sharing;
    }
}
