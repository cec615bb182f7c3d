//! The Baf scoring system (Anjou Feu tournaments; `docs/scoring.md#baf`), which values the top: a
//! double-entry table by own centres and the best other player's centres, with tie tables
//! (b)–(i) for a shared top. Blank cells are impossible results, never guessed.

use crate::finish::{SOLO_CENTRES, diplomacy_rows};
use crate::scorer::Scores;
use crate::{DiplomacyEntry, Explain, ScoringError, ScoringSystem};

/// One cell of the Baf table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BafCell {
    /// The source leaves the cell blank: the result cannot happen.
    Blank,
    /// Points for this (own, best other) pair.
    Points(f64),
    /// A shared top: marked (a)–(i) on the diagonal, scored by the tie tables.
    SharedTop,
}

use BafCell::{Blank as B, Points as P, SharedTop as T};

/// The Baf table, transcribed cell by cell: `BAF_TABLE[own][best_other]`, both capped at 18
/// (row and column "18" mean "18 centres or more"). The source has no row 0 (a player on 0
/// centres is eliminated) and no column 0; those are blank here.
#[rustfmt::skip]
pub const BAF_TABLE: [[BafCell; 19]; 19] = [
    // own 0: no row in the source (a player on 0 centres is eliminated and scores 0).
    [B; 19],
    // own 1: best other 0..18
    [B, B, B, B, P(15.069), P(15.069), P(15.069), P(14.476), P(13.982), P(13.686), P(13.389), P(13.192), P(12.994), P(12.895), P(12.796), P(12.698), P(12.599), P(12.5), P(0.0)],
    // own 2: best other 0..18
    [B, B, B, B, P(17.243), P(17.243), P(17.243), P(16.453), P(15.761), P(15.168), P(14.773), P(14.377), P(14.081), P(13.785), P(13.587), P(13.488), P(13.291), P(13.093), P(0.0)],
    // own 3: best other 0..18
    [B, B, B, T, P(19.615), P(19.615), P(19.615), P(18.429), P(17.343), P(16.749), P(16.057), P(15.662), P(15.267), P(14.872), P(14.575), P(14.279), P(14.18), P(13.883), P(0.0)],
    // own 4: best other 0..18
    [B, B, B, P(50.0), T, P(23.765), P(21.986), P(20.405), P(19.121), P(18.231), P(17.441), P(16.848), P(16.354), P(15.958), P(15.563), P(15.366), P(14.97), P(14.674), P(0.0)],
    // own 5: best other 0..18
    [B, B, B, P(50.0), P(50.0), T, P(23.864), P(22.283), P(20.8), P(19.713), P(18.824), P(18.132), P(17.54), P(16.947), P(16.551), P(16.156), P(15.86), P(15.464), P(0.0)],
    // own 6: best other 0..18
    [B, B, B, P(50.143), P(50.143), P(50.143), T, P(23.962), P(22.579), P(21.294), P(20.208), P(19.318), P(18.628), P(18.034), P(17.638), P(17.045), P(16.65), P(16.255), P(0.0)],
    // own 7: best other 0..18
    [B, B, B, P(51.0), P(51.0), P(51.0), P(50.429), T, P(24.061), P(22.875), P(21.492), P(20.603), P(19.812), P(19.022), P(18.528), P(17.935), P(17.737), P(17.144), P(0.0)],
    // own 8: best other 0..18
    [B, B, B, P(52.249), P(52.249), P(52.249), P(51.571), P(50.714), T, P(24.16), P(22.974), P(21.789), P(20.899), P(20.109), P(19.417), P(18.923), P(18.33), P(17.836), P(0.0)],
    // own 9: best other 0..18
    [B, B, B, P(54.429), P(54.429), P(54.429), P(53.286), P(52.143), P(51.286), T, P(24.259), P(23.073), P(22.085), P(21.196), P(20.504), P(19.911), P(19.219), P(18.725), P(0.0)],
    // own 10: best other 0..18
    [B, B, P(58.714), P(58.714), P(58.714), P(57.0), P(55.571), P(54.143), P(53.0), P(51.857), T, P(24.358), P(23.172), P(22.184), P(21.393), P(20.702), P(20.01), P(19.516), P(0.0)],
    // own 11: best other 0..18
    [B, B, P(62.429), P(62.429), P(62.429), P(60.429), P(58.429), P(56.714), P(55.286), P(53.857), P(52.714), T, P(24.457), P(23.271), P(22.381), P(21.591), P(20.998), P(20.306), P(0.0)],
    // own 12: best other 0..18
    [B, B, P(65.857), P(65.857), P(65.857), P(64.143), P(62.143), P(60.143), P(58.143), P(56.429), P(55.0), P(53.571), P(44.022), P(24.555), P(23.37), P(22.48), P(21.69), P(21.097), P(0.0)],
    // own 13: best other 0..18
    [B, B, P(68.714), P(68.714), P(68.714), P(67.286), P(65.571), P(63.857), P(61.857), P(59.857), P(57.787), P(56.143), P(54.714), P(45.109), P(24.654), P(23.468), P(22.678), P(21.897), P(0.0)],
    // own 14: best other 0..18
    [B, B, P(71.0), P(71.0), P(71.0), P(69.857), P(68.429), P(67.0), P(65.286), P(63.571), P(61.571), P(59.571), P(57.571), P(55.857), P(46.196), P(24.753), P(23.567), P(22.777), P(0.0)],
    // own 15: best other 0..18
    [B, B, P(72.714), P(72.714), P(72.714), P(71.857), P(70.714), P(69.571), P(68.143), P(66.714), P(65.0), P(63.286), P(61.286), P(59.286), P(57.286), P(47.283), P(24.852), P(23.666), P(0.0)],
    // own 16: best other 0..18
    [B, P(74.429), P(74.429), P(74.429), P(73.857), P(73.286), P(72.429), P(71.571), P(70.429), P(69.286), P(67.857), P(66.429), P(64.714), P(63.0), P(61.0), P(59.0), P(48.37), P(24.951), P(0.0)],
    // own 17: best other 0..18
    [B, P(75.0), P(75.0), P(75.0), P(74.414), P(74.143), P(73.571), P(73.0), P(72.143), P(71.286), P(70.243), P(69.0), P(67.571), P(66.143), P(64.429), P(62.714), P(60.714), P(49.457), B],
    // own 18: best other 0..18
    [B, P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), P(100.0), B, B],
];

/// The Baf rule "Shared Top" tie tables (b)–(i): points for each of `tied` players sharing the
/// top on `centres` centres (4..=11). A tie count the source does not list is `None`.
pub fn baf_shared_top(centres: u32, tied: u32) -> Option<f64> {
    let points = match (centres, tied) {
        // (b) tied at 4 centres
        (4, 7) => 25.0,
        (4, 6) => 25.0,
        (4, 5) => 25.543,
        (4, 4) => 26.630,
        (4, 3) => 29.891,
        (4, 2) => 36.413,
        // (c) tied at 5 centres
        (5, 6) => 25.543,
        (5, 5) => 25.543,
        (5, 4) => 26.630,
        (5, 3) => 29.891,
        (5, 2) => 36.413,
        // (d) tied at 6 centres
        (6, 5) => 26.630,
        (6, 4) => 27.717,
        (6, 3) => 30.978,
        (6, 2) => 37.5,
        // (e) tied at 7 centres
        (7, 4) => 28.804,
        (7, 3) => 32.065,
        (7, 2) => 38.587,
        // (f) tied at 8 centres
        (8, 4) => 29.891,
        (8, 3) => 33.152,
        (8, 2) => 39.674,
        // (g) tied at 9 centres
        (9, 3) => 34.239,
        (9, 2) => 40.761,
        // (h) tied at 10 centres
        (10, 3) => 35.326,
        (10, 2) => 41.848,
        // (i) tied at 11 centres
        (11, 3) => 36.413,
        (11, 2) => 42.935,
        _ => return None,
    };
    Some(points)
}

/// Why a Baf score is what it is (for the explanation and the tests).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BafReason {
    /// The Baf rule "Eliminated player": 0 centres, or no units and only non-home centres.
    Eliminated,
    /// The Baf rule "Losing to a solo = 0" (another player on 18+).
    LostToSolo,
    /// The Baf rule "SOLO = 100" (row 18).
    Solo,
    /// A table cell (own, best other), both capped at 18.
    Table { own: u32, best_other: u32 },
    /// A tie table (b)–(i): `tied` players share the top on `centres`.
    SharedTop { centres: u32, tied: u32 },
    /// A shared top at 12+ centres, read on the table's diagonal.
    SharedTopDiagonal { centres: u32 },
}

/// The Baf rule, whole for one player: eliminated → 0; someone else on 18+ → 0; own 18+ →
/// 100; otherwise the table cell (own, best other), and on a shared top the tie table
/// (b)–(i) for 4..=11 centres or the diagonal for 12+. Blank cells and unlisted tie counts
/// are [`ScoringError::Impossible`] on `players[index].centres`.
pub fn baf_score(
    entries: &[DiplomacyEntry],
    index: usize,
) -> Result<(f64, BafReason), ScoringError> {
    let me = &entries[index];
    if me.centres == 0 || me.eliminated {
        return Ok((0.0, BafReason::Eliminated));
    }
    let best_other = crate::finish::best_other_centres(entries, index);
    if best_other >= SOLO_CENTRES {
        return Ok((0.0, BafReason::LostToSolo));
    }
    if me.centres >= SOLO_CENTRES {
        return Ok((100.0, BafReason::Solo));
    }
    let own = me.centres;
    let field = || format!("players[{index}].centres");
    match BAF_TABLE[own as usize][best_other as usize] {
        BafCell::Points(points) if own == best_other => {
            Ok((points, BafReason::SharedTopDiagonal { centres: own }))
        }
        BafCell::Points(points) => Ok((points, BafReason::Table { own, best_other })),
        BafCell::SharedTop => {
            let tied = entries.iter().filter(|entry| entry.centres == own).count() as u32;
            baf_shared_top(own, tied)
                .map(|points| (points, BafReason::SharedTop { centres: own, tied }))
                .ok_or_else(|| {
                    ScoringError::impossible(
                        field(),
                        format!(
                            "Baf has no shared-top points for {tied} players tied on {own} centres"
                        ),
                    )
                })
        }
        BafCell::Blank => Err(ScoringError::impossible(
            field(),
            format!(
                "the Baf table has no cell for {own} centres against a best other of {best_other}"
            ),
        )),
    }
}

fn explain_line(centres: u32, points: f64, reason: BafReason) -> String {
    match reason {
        BafReason::Eliminated => format!("centres {centres}, eliminated → 0"),
        BafReason::LostToSolo => format!("centres {centres}, another player soloed → 0"),
        BafReason::Solo => format!("centres {centres}, solo → 100"),
        BafReason::Table { own, best_other } => {
            format!("centres {own}, best other {best_other} → table {points}")
        }
        BafReason::SharedTop { centres, tied } => {
            format!("centres {centres}, top shared by {tied} → tie table {points}")
        }
        BafReason::SharedTopDiagonal { centres } => {
            format!("centres {centres}, top shared by 2 → diagonal {points}")
        }
    }
}

/// Scores a validated Diplomacy game with Baf (input order); fails on the first impossible cell.
pub(crate) fn score(system: ScoringSystem, entries: &[DiplomacyEntry], explain: Explain) -> Scores {
    // Look every cell up first so an impossible game fails before anything is built.
    let mut scores = [(0.0, BafReason::Eliminated); 7];
    for (index, slot) in scores.iter_mut().enumerate().take(entries.len()) {
        *slot = baf_score(entries, index)?;
    }
    Ok(diplomacy_rows(system, entries, |index| {
        let (points, reason) = scores[index];
        let explanation = match explain {
            Explain::No => Vec::new(),
            Explain::Yes => vec![explain_line(entries[index].centres, points, reason)],
        };
        (points, explanation)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(centres: [u32; 7]) -> Vec<DiplomacyEntry> {
        crate::seven_powers(centres)
    }

    fn scores(centres: [u32; 7]) -> Result<Vec<f64>, ScoringError> {
        let entries = game(centres);
        (0..7).map(|i| baf_score(&entries, i).map(|(points, _)| points)).collect()
    }

    /// The Baf table, sample cells read straight off the source (row = own, column = best other).
    #[test]
    fn seed_000_table_cells() {
        assert_eq!(BAF_TABLE[1][4], P(15.069));
        assert_eq!(BAF_TABLE[1][17], P(12.5));
        assert_eq!(BAF_TABLE[4][3], P(50.0));
        assert_eq!(BAF_TABLE[10][2], P(58.714));
        assert_eq!(BAF_TABLE[13][10], P(57.787));
        assert_eq!(BAF_TABLE[16][1], P(74.429));
        assert_eq!(BAF_TABLE[16][18], P(0.0));
        assert_eq!(BAF_TABLE[17][4], P(74.414));
        assert_eq!(BAF_TABLE[17][16], P(60.714));
        assert_eq!(BAF_TABLE[12][12], P(44.022));
        assert_eq!(BAF_TABLE[17][17], P(49.457));
        assert_eq!(BAF_TABLE[18][16], P(100.0));
        for (centres, row) in BAF_TABLE.iter().enumerate().take(12).skip(3) {
            assert_eq!(row[centres], T, "diagonal ({centres}) is a tie table");
        }
        for blank in [(1, 1), (1, 3), (2, 2), (4, 2), (10, 1), (17, 18), (18, 17), (18, 18)] {
            assert_eq!(BAF_TABLE[blank.0][blank.1], B, "{blank:?} is blank in the Baf table");
        }
    }

    /// The Baf table: a player on 10 with the best other on 6 scores cell (10, 6) = 55.571;
    /// everybody else reads their row against 10.
    #[test]
    fn seed_000_top_and_followers_read_the_table() {
        let got = scores([10, 6, 5, 4, 4, 3, 2]).unwrap();
        assert_eq!(got, [55.571, 20.208, 18.824, 17.441, 17.441, 16.057, 14.773]);
    }

    /// The Baf rule "Shared Top" (h): two players tied on 10 score 41.848 each.
    #[test]
    fn seed_000_shared_top_h_two_players() {
        let got = scores([10, 10, 5, 4, 3, 2, 0]).unwrap();
        assert_eq!(got[..2], [41.848, 41.848]);
        assert_eq!(got[2], 18.824);
        assert_eq!(got[6], 0.0);
    }

    /// The Baf rule "Shared Top" (b): seven players tied on 4 score 25 each; (d) 3 tied on 6.
    #[test]
    fn seed_000_shared_top_b_and_d() {
        assert_eq!(scores([4; 7]).unwrap(), [25.0; 7]);
        let got = scores([6, 6, 6, 5, 4, 3, 2]).unwrap();
        assert_eq!(got[..3], [30.978; 3]);
        assert_eq!(got[3], 23.864);
    }

    /// The Baf rule "Tied at 12 centers and more": read on the diagonal (12 → 44.022).
    #[test]
    fn seed_000_shared_top_at_twelve_uses_diagonal() {
        let got = scores([12, 12, 5, 2, 1, 1, 1]).unwrap();
        assert_eq!(got[..2], [44.022, 44.022]);
        assert_eq!(got[2], 17.54);
    }

    /// The Baf rule: SOLO = 100, losing to a solo = 0, eliminated = 0.
    #[test]
    fn seed_000_solo_and_elimination() {
        assert_eq!(scores([18, 5, 4, 3, 2, 1, 1]).unwrap(), [100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let mut entries = game([9, 8, 7, 5, 3, 2, 0]);
        entries[4].eliminated = true;
        assert_eq!(baf_score(&entries, 4).unwrap(), (0.0, BafReason::Eliminated));
        assert_eq!(baf_score(&entries, 6).unwrap(), (0.0, BafReason::Eliminated));
    }

    /// Chosen (docs/scoring.md#baf): a blank cell and a tie the source does not list ((a),
    /// three-all) are typed
    /// errors naming the field, never a guess.
    #[test]
    fn impossible_results_are_typed_errors() {
        // own 3 against a best other of 2: blank in the source.
        let error = scores([3, 2, 2, 2, 2, 2, 1]).unwrap_err();
        assert!(matches!(error, ScoringError::Impossible { .. }), "{error}");
        assert_eq!(error.field(), "players[0].centres");
        // Everybody on 3: the diagonal is (a), which has no tie table.
        let error = scores([3; 7]).unwrap_err();
        assert!(matches!(error, ScoringError::Impossible { .. }), "{error}");
        assert_eq!(error.field(), "players[0].centres");
        // Six tied on 5 is listed in (c): 25.543 each; the seventh on 4 reads cell (4, 5).
        assert_eq!(
            scores([5, 5, 5, 5, 5, 5, 4]).unwrap(),
            [25.543, 25.543, 25.543, 25.543, 25.543, 25.543, 23.765]
        );
    }
}
