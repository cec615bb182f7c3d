//! Maxonian and 7Eleven (`docs/scoring.md#maxonian-and-7eleven`): 7, 6, 5, 4, 3, 2, 1 by final
//! centres, ties broken by who was ahead most recently in the earlier years' counts (powers
//! level in every year given share the average), plus one point per centre above 13 (Maxonian)
//! or 11 (7Eleven), which with a solo only the soloist gets (counted up to 18) and with a
//! concession only the power conceded to.

use super::show;
use crate::finish::{SOLO_CENTRES, conceded_to, concession_rule, diplomacy_rows, winner};
use crate::scorer::Scores;
use crate::{ConcessionRule, DiplomacyEntry, Explain, ScoringError, ScoringSystem};

/// Position points, 1st to 7th.
pub const POSITIONS: [f64; 7] = [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
/// Maxonian: a point per centre above 13.
pub const MAXONIAN_THRESHOLD: u32 = 13;
/// 7Eleven: a point per centre above 11.
pub const SEVEN_ELEVEN_THRESHOLD: u32 = 11;

/// A power's centre count `depth` years before the end (0 = the final count).
fn count_at(entry: &DiplomacyEntry, depth: usize) -> Option<u32> {
    match depth {
        0 => Some(entry.centres),
        _ => entry.earlier_centres.get(depth - 1).copied(),
    }
}

/// Gives the powers of `group`, level on every count before `depth`, the position points of
/// the places from `first` on: split by the count `depth` years before the end, the higher
/// first; powers still level go one year further back. Powers whose counts run out in the same
/// year share their places' points; a count missing for only some of them, or no earlier count
/// at all for a tie on the final count, is a typed error naming `earlierCentres`.
fn place(
    system: ScoringSystem,
    entries: &[DiplomacyEntry],
    group: &[usize],
    depth: usize,
    first: usize,
    points: &mut [f64],
) -> Result<(), ScoringError> {
    if let [only] = group {
        points[*only] = POSITIONS[first];
        return Ok(());
    }
    let missing: Vec<usize> =
        group.iter().copied().filter(|&i| count_at(&entries[i], depth).is_none()).collect();
    if !missing.is_empty() {
        if missing.len() == group.len() && depth > 1 {
            let share =
                POSITIONS[first..first + group.len()].iter().sum::<f64>() / group.len() as f64;
            for &index in group {
                points[index] = share;
            }
            return Ok(());
        }
        return Err(ScoringError::invalid(
            format!("players[{}].earlierCentres", missing[0]),
            format!(
                "{system} breaks a tie on centres with earlier years' counts; {} are needed",
                if depth == 1 { "they".to_owned() } else { format!("{depth} years' counts") }
            ),
        ));
    }
    let mut counts: Vec<u32> =
        group.iter().map(|&i| count_at(&entries[i], depth).unwrap_or(0)).collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    counts.dedup();
    let mut next = first;
    for count in counts {
        let level: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&i| count_at(&entries[i], depth) == Some(count))
            .collect();
        place(system, entries, &level, depth + 1, next, points)?;
        next += level.len();
    }
    Ok(())
}

pub(crate) fn score(
    system: ScoringSystem,
    threshold: u32,
    entries: &[DiplomacyEntry],
    explain: Explain,
) -> Scores {
    let winner = winner(system, entries);
    // A concession scored from the centres: as dipvis's code does, only the power conceded to
    // (its soloer) may take the points above the threshold, on the centres it holds.
    let conceded = conceded_to(entries)
        .filter(|&index| concession_rule(&entries[index]) != ConcessionRule::DrawOfOne);
    let mut positions = vec![0.0; entries.len()];
    let everyone: Vec<usize> = (0..entries.len()).collect();
    place(system, entries, &everyone, 0, 0, &mut positions)?;
    Ok(diplomacy_rows(system, entries, |index| {
        let centres = entries[index].centres;
        let bonus = match winner {
            // A solo, or a concession scored as one, counts as 18 centres.
            Some(w) if w == index => SOLO_CENTRES - threshold,
            Some(_) => 0,
            None => match conceded {
                Some(c) if c != index => 0,
                _ => centres.saturating_sub(threshold),
            },
        };
        let points = positions[index] + f64::from(bonus);
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes => vec![format!(
                "centres {centres}, position points {}, above {threshold} {bonus} → {}",
                show(positions[index]),
                show(points)
            )],
        };
        (points, explanation)
    }))
}
