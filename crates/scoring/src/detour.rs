//! `docs/scoring.md#detour-98f`: DAANZ "DETOUR 98f" (parts 1 and 2): raw points for centres,
//! survival, being
//! alive, an outright lead and the first four positions, normalised to 100 and rounded to two
//! decimals; an 18-centre win scores 110.

use crate::finish::{SOLO_CENTRES, diplomacy_rows, position, soloist};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringSystem};

/// Detour 98f part 2.1: the winning player's score.
pub const DETOUR_SOLO_POINTS: f64 = 110.0;

/// Last year a power must reach to earn the survival point (Detour 98f part 1.2: "to Fall 1905").
const SURVIVAL_YEAR: i32 = 1905;

/// The parts of one player's Detour raw score (Detour 98f part 1.1–1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DetourRaw {
    pub centres: u32,
    pub survival: u32,
    pub alive: u32,
    pub lead: u32,
    pub position: u32,
}

impl DetourRaw {
    pub fn total(self) -> u32 {
        self.centres + self.survival + self.alive + self.lead + self.position
    }
}

/// Detour 98f part 1.2: 1 point for survival to Fall 1905. Chosen: a power survived if it
/// ends with centres, or was eliminated after 1905 (`eliminatedYear` > 1905).
pub fn survival_point(entry: &DiplomacyEntry) -> u32 {
    let survived =
        entry.centres > 0 || entry.eliminated_year.is_some_and(|year| year > SURVIVAL_YEAR);
    u32::from(survived)
}

/// Detour 98f part 1.3: 1 point for holding 1 or more centres at the end.
pub fn alive_point(entry: &DiplomacyEntry) -> u32 {
    u32::from(entry.centres > 0)
}

/// Detour 98f part 1.4: the outright leader gets the difference between their centres and the
/// second highest; a shared lead gives nothing.
pub fn lead_points(entries: &[DiplomacyEntry], index: usize) -> u32 {
    let own = entries[index].centres;
    let best_other = crate::finish::best_other_centres(entries, index);
    own.saturating_sub(best_other)
}

/// Detour 98f part 1.5: 4/3/2/1 for positions 1–4 by centres; players on equal centres all get
/// the points of the lower position of their group (two tied for 1st both get 3).
pub fn position_points(entries: &[DiplomacyEntry], index: usize) -> u32 {
    const POINTS: [u32; 4] = [4, 3, 2, 1];
    let (best, sharing) = position(entries.len(), index, |i| entries[i].centres);
    let lower = best + sharing - 1;
    POINTS.get(lower as usize - 1).copied().unwrap_or(0)
}

/// Detour 98f parts 1.1–1.5 for one player.
pub fn raw_points(entries: &[DiplomacyEntry], index: usize) -> DetourRaw {
    let entry = &entries[index];
    DetourRaw {
        centres: entry.centres,
        survival: survival_point(entry),
        alive: alive_point(entry),
        lead: lead_points(entries, index),
        position: position_points(entries, index),
    }
}

/// Detour 98f part 1.6: the share of the game's raw total, as a percentage rounded to two
/// decimals half away from zero. Computed in integer hundredths so that exact halves
/// (e.g. 12.345) round the way the rule says and not the way binary floating point lands.
pub fn normalised(raw: u32, total: u32) -> f64 {
    debug_assert!(total > 0);
    let (raw, total) = (u64::from(raw), u64::from(total));
    let hundredths = (2 * 10_000 * raw + total) / (2 * total);
    hundredths as f64 / 100.0
}

/// Rounds to two decimals, half away from zero (Detour 98f part 1.6), for values already
/// computed in floating point.
pub fn round_half_away_2dp(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// Detour 98f part 2: the 18-centre winner scores 110, everybody else 0.
pub fn solo_points(entry: &DiplomacyEntry) -> f64 {
    if entry.centres >= SOLO_CENTRES { DETOUR_SOLO_POINTS } else { 0.0 }
}

/// Scores a validated Diplomacy game with Detour 98f (input order).
pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    if soloist(entries).is_some() {
        return Ok(diplomacy_rows(system, entries, |index| {
            let points = solo_points(&entries[index]);
            let explanation = match explain {
                Explain::No => Vec::new(),
                Explain::Yes if points > 0.0 => {
                    vec![format!("centres {}, 18-centre win → {points}", entries[index].centres)]
                }
                Explain::Yes => {
                    vec![format!("centres {}, another player won → 0", entries[index].centres)]
                }
            };
            (points, explanation)
        }));
    }
    let mut raws = [DetourRaw { centres: 0, survival: 0, alive: 0, lead: 0, position: 0 }; 7];
    for (index, raw) in raws.iter_mut().enumerate().take(entries.len()) {
        *raw = raw_points(entries, index);
    }
    let total: u32 = raws.iter().map(|raw| raw.total()).sum();
    Ok(diplomacy_rows(system, entries, |index| {
        let raw = raws[index];
        let points = normalised(raw.total(), total);
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes => vec![format!(
                "centres {}, survival {}, alive {}, lead {}, position {} → raw {} of {total} → {points}",
                raw.centres,
                raw.survival,
                raw.alive,
                raw.lead,
                raw.position,
                raw.total()
            )],
        };
        (points, explanation)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(centres: [u32; 7]) -> Vec<DiplomacyEntry> {
        ["A", "E", "F", "G", "I", "R", "T"]
            .iter()
            .zip(centres)
            .map(|(player, centres)| DiplomacyEntry::new(*player, centres))
            .collect()
    }

    /// The check of `docs/scoring.md#detour-98f`: A2 E3 F4 G10 I4 R5 T6 → G 32.79, T 18.03, R
    /// 14.75,
    /// F 9.84, I 9.84, E 8.20, A 6.56.
    #[test]
    fn detour_worked_example() {
        let entries = game([2, 3, 4, 10, 4, 5, 6]);
        let scores: Vec<f64> = score(ScoringSystem::Detour98f, &entries, Explain::No)
            .unwrap()
            .iter()
            .map(|row| row.score)
            .collect();
        assert_eq!(scores, [6.56, 8.20, 9.84, 32.79, 9.84, 14.75, 18.03]);
        assert_eq!(
            raw_points(&entries, 3),
            DetourRaw { centres: 10, survival: 1, alive: 1, lead: 4, position: 4 }
        );
        let explained = score(ScoringSystem::Detour98f, &entries, Explain::Yes).unwrap();
        assert_eq!(
            explained[3].explanation,
            ["centres 10, survival 1, alive 1, lead 4, position 4 → raw 20 of 61 → 32.79"]
        );
    }

    /// Detour 98f part 1.5: two tied for 1st both get the 2nd place's 3 points, and no lead
    /// points are given (part 1.4).
    #[test]
    fn seed_001_ties_take_the_lower_position() {
        let entries = game([8, 8, 6, 5, 4, 3, 0]);
        assert_eq!(position_points(&entries, 0), 3);
        assert_eq!(position_points(&entries, 1), 3);
        assert_eq!(lead_points(&entries, 0), 0);
        assert_eq!(position_points(&entries, 2), 2);
        assert_eq!(position_points(&entries, 3), 1);
        assert_eq!(position_points(&entries, 4), 0);
        let three_way = game([5, 5, 5, 2, 2, 0, 0]);
        assert_eq!(position_points(&three_way, 0), 2);
        assert_eq!(position_points(&three_way, 3), 0, "tied 4th–5th take the 5th's nothing");
    }

    /// Detour 98f part 1.2 as chosen in `docs/scoring.md#detour-98f`: eliminated after 1905 keeps
    /// the survival point.
    #[test]
    fn seed_001_survival_to_1905() {
        let mut entries = game([10, 8, 6, 5, 5, 0, 0]);
        entries[5].eliminated_year = Some(1906);
        entries[6].eliminated_year = Some(1905);
        assert_eq!(survival_point(&entries[5]), 1);
        assert_eq!(survival_point(&entries[6]), 0);
        assert_eq!(alive_point(&entries[5]), 0);
        assert_eq!(raw_points(&entries, 5).total(), 1);
    }

    /// Detour 98f part 2: 110 to the 18-centre winner, 0 to the others.
    #[test]
    fn seed_001_solo_scores_110() {
        let entries = game([18, 3, 4, 2, 4, 2, 1]);
        let scores: Vec<f64> = score(ScoringSystem::Detour98f, &entries, Explain::No)
            .unwrap()
            .iter()
            .map(|row| row.score)
            .collect();
        assert_eq!(scores, [110.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    }

    /// Detour 98f part 1.6: exact halves round away from zero (1/8 = 12.5 % → 12.5; 1/16 of
    /// 100 = 6.25; 1/800 · 10000 = 12.5 hundredths → 0.13).
    #[test]
    fn seed_001_rounding_is_half_away_from_zero() {
        assert_eq!(normalised(1, 16), 6.25);
        assert_eq!(normalised(1, 800), 0.13);
        assert_eq!(normalised(1, 3), 33.33);
        assert_eq!(normalised(2, 3), 66.67);
        assert_eq!(round_half_away_2dp(-0.125), -0.13);
    }
}
