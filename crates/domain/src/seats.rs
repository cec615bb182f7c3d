//! Seat names for display: the seven Diplomacy powers, otherwise "Seat 1".."Seat k".

use league_scoring::ScoringSystem;

/// The seven great powers of Diplomacy, in the game's alphabetical order.
pub const DIPLOMACY_POWERS: [&str; 7] =
    ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

/// The label of seat `seat` (0-based) in a league of `system` with `players_per_game` seats.
pub fn seat_label(system: ScoringSystem, players_per_game: u32, seat: usize) -> String {
    if system.is_diplomacy() && players_per_game == 7 && seat < DIPLOMACY_POWERS.len() {
        DIPLOMACY_POWERS[seat].to_owned()
    } else {
        format!("Seat {}", seat + 1)
    }
}

/// Every seat label of a game, in seat order.
pub fn seat_labels(system: ScoringSystem, players_per_game: u32) -> Vec<String> {
    (0..players_per_game as usize).map(|seat| seat_label(system, players_per_game, seat)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diplomacy_seats_are_the_seven_powers() {
        for system in [ScoringSystem::Baf, ScoringSystem::Detour98f, ScoringSystem::Squares] {
            assert_eq!(seat_labels(system, 7), DIPLOMACY_POWERS.map(str::to_owned).to_vec());
        }
    }

    #[test]
    fn other_games_number_their_seats() {
        assert_eq!(seat_labels(ScoringSystem::Placement, 3), ["Seat 1", "Seat 2", "Seat 3"]);
        assert_eq!(seat_label(ScoringSystem::Placement, 7, 0), "Seat 1");
        assert_eq!(seat_label(ScoringSystem::BlueMax, 2, 1), "Seat 2");
    }
}
