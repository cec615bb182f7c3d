//! Powers by preference (`docs/tournaments.md#power-assignment`): on each board the players
//! choose in turn, the lowest placed in the standings first (ties in the seeded draw's order),
//! each taking the best still-free seat of their ranking; players without a ranking, or whose
//! ranked seats are all taken, are indifferent and share the seats left by the automatic rule
//! (no seat they already had when avoidable). dipvis's order, stated with its source in the
//! docs. The seeder still forms the boards; only the seat within a board changes.

use serde::{Deserialize, Serialize};

use super::SeedingError;

/// Stored in `RoundSeeded` when the seats came from preferences; older seedings keep
/// [`super::SEEDING_ALGORITHM`].
pub const PREFERENCE_SEEDING_ALGORITHM: &str = "league-seeder/1+preferences/1";

/// The preferences a round is seated with: part of the request, so its digest covers them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PowerPreferences {
    /// Players' rankings of the seat labels, best first; a player not listed is indifferent.
    #[serde(default)]
    pub rankings: Vec<SeatRanking>,
    /// Each player's place in the standings before the round (1 = best). The lowest placed
    /// choose first; a player not listed counts as placed below everyone listed.
    #[serde(default)]
    pub places: Vec<PlayerPlace>,
}

/// One player's ranking of seats, best first (it may leave seats out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeatRanking {
    pub player: String,
    pub seats: Vec<String>,
}

/// One player's place in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlayerPlace {
    pub player: String,
    pub place: u32,
}

impl PowerPreferences {
    /// Every ranked seat is one of `labels`, none twice, and no player is ranked twice.
    pub(super) fn check(&self, labels: &[String]) -> Result<(), SeedingError> {
        for (i, ranking) in self.rankings.iter().enumerate() {
            if self.rankings[..i].iter().any(|r| r.player == ranking.player) {
                return Err(SeedingError::DuplicatePlayer(ranking.player.clone(), "rankings"));
            }
            for (j, seat) in ranking.seats.iter().enumerate() {
                if !labels.contains(seat) || ranking.seats[..j].contains(seat) {
                    return Err(SeedingError::BadRanking {
                        player: ranking.player.clone(),
                        seat: seat.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    fn ranking(&self, player: &str) -> &[String] {
        self.rankings.iter().find(|r| r.player == player).map_or(&[], |r| &r.seats)
    }

    fn place(&self, player: &str) -> u32 {
        self.places.iter().find(|p| p.player == player).map_or(u32::MAX, |p| p.place)
    }

    /// `players` (one board, in the seeded draw's order) in choosing order: lowest placed
    /// first; equal places keep the draw's order.
    pub fn choosing_order<'a>(&self, players: &[&'a str]) -> Vec<&'a str> {
        let mut order = players.to_vec();
        order.sort_by_key(|player| std::cmp::Reverse(self.place(player)));
        order
    }

    /// Each player's seat in choosing order (`players` already in that order): the best
    /// ranked seat nobody before them took, or `None` when they are indifferent (no ranking,
    /// or every seat they ranked is taken).
    pub fn choose(&self, players: &[&str], labels: &[String]) -> Vec<Option<usize>> {
        let mut taken = vec![false; labels.len()];
        players
            .iter()
            .map(|player| {
                let seat = self
                    .ranking(player)
                    .iter()
                    .filter_map(|seat| labels.iter().position(|label| label == seat))
                    .find(|&seat| !taken[seat])?;
                taken[seat] = true;
                Some(seat)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SEEDING_ALGORITHM, SeatedPlayer, SeedingRequest, seed_round};
    use super::*;

    fn labels() -> Vec<String> {
        ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
            .map(String::from)
            .to_vec()
    }

    fn ranking(player: &str, seats: &[&str]) -> SeatRanking {
        SeatRanking { player: player.into(), seats: seats.iter().map(|s| s.to_string()).collect() }
    }

    fn place(player: &str, place: u32) -> PlayerPlace {
        PlayerPlace { player: player.into(), place }
    }

    /// The first worked example of `docs/tournaments.md#power-assignment`.
    fn worked_example() -> PowerPreferences {
        PowerPreferences {
            rankings: vec![
                ranking("Anna", &["France", "Italy"]),
                ranking("Ben", &["Turkey"]),
                ranking("Cleo", &["France", "England", "Germany"]),
                ranking("Dan", &["England"]),
                ranking("Finn", &["France", "Germany"]),
                ranking("Gus", &["France", "England", "Italy"]),
            ],
            places: vec![
                place("Anna", 1),
                place("Ben", 3),
                place("Cleo", 5),
                place("Dan", 9),
                place("Eve", 12),
                place("Finn", 15),
                place("Gus", 20),
            ],
        }
    }

    #[test]
    fn the_lowest_placed_choose_first_and_take_their_best_free_power() {
        let preferences = worked_example();
        let drawn = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus"];
        let order = preferences.choosing_order(&drawn);
        assert_eq!(order, ["Gus", "Finn", "Eve", "Dan", "Cleo", "Ben", "Anna"]);
        let labels = labels();
        let chosen: Vec<Option<&str>> = preferences
            .choose(&order, &labels)
            .into_iter()
            .map(|seat| seat.map(|s| labels[s].as_str()))
            .collect();
        assert_eq!(
            chosen,
            [
                Some("France"),
                Some("Germany"),
                None,
                Some("England"),
                None,
                Some("Turkey"),
                Some("Italy")
            ]
        );
    }

    #[test]
    fn equal_places_keep_the_seeded_draws_order() {
        let preferences = PowerPreferences {
            rankings: vec![ranking("Ben", &["France"]), ranking("Anna", &["France"])],
            places: vec![place("Anna", 1), place("Ben", 1)],
        };
        let order = preferences.choosing_order(&["Ben", "Anna"]);
        assert_eq!(order, ["Ben", "Anna"]);
        assert_eq!(preferences.choose(&order, &labels()), [Some(2), None]);
        let order = preferences.choosing_order(&["Anna", "Ben"]);
        assert_eq!(preferences.choose(&order, &labels()), [Some(2), None]);
    }

    #[test]
    fn an_unplaced_player_chooses_before_every_placed_one() {
        let preferences =
            PowerPreferences { rankings: Vec::new(), places: vec![place("Anna", 30)] };
        assert_eq!(preferences.choosing_order(&["Anna", "Newcomer"]), ["Newcomer", "Anna"]);
    }

    #[test]
    fn a_ranking_of_unknown_or_repeated_powers_is_refused() {
        let unknown =
            PowerPreferences { rankings: vec![ranking("Anna", &["Prussia"])], places: Vec::new() };
        assert_eq!(
            unknown.check(&labels()),
            Err(SeedingError::BadRanking { player: "Anna".into(), seat: "Prussia".into() })
        );
        let repeated = PowerPreferences {
            rankings: vec![ranking("Anna", &["Italy", "Italy"])],
            places: Vec::new(),
        };
        assert!(repeated.check(&labels()).is_err());
        assert!(worked_example().check(&labels()).is_ok());
    }

    /// The worked example seated whole: the choices stand, the two indifferent players share
    /// Austria and Russia, and the request names the preference algorithm.
    #[test]
    fn a_seeded_board_gives_each_player_the_power_they_chose() {
        let players: Vec<String> =
            ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus"].map(String::from).to_vec();
        let mut request = SeedingRequest {
            board_size: 7,
            seats: Some(labels()),
            players,
            earlier_boards: Vec::new(),
            keep_apart: Vec::new(),
            sitting_out: Vec::new(),
            playing_twice: Vec::new(),
            top_board: Vec::new(),
            teams: Vec::new(),
            seed: 11,
            power_preferences: None,
            pool: Vec::new(),
        };
        let automatic_digest = request.digest();
        assert_eq!(request.algorithm(), SEEDING_ALGORITHM);
        request.power_preferences = Some(worked_example());
        assert_eq!(request.algorithm(), PREFERENCE_SEEDING_ALGORITHM);
        assert_ne!(request.digest(), automatic_digest);
        let seeding = seed_round(&request).unwrap();
        let seat_of = |player: &str| {
            seeding.boards[0].iter().find(|s| s.player == player).map(|s| s.seat.clone()).unwrap()
        };
        for (player, power) in [
            ("Gus", "France"),
            ("Finn", "Germany"),
            ("Dan", "England"),
            ("Ben", "Turkey"),
            ("Anna", "Italy"),
        ] {
            assert_eq!(seat_of(player), power, "{player}");
        }
        let mut rest = [seat_of("Eve"), seat_of("Cleo")];
        rest.sort();
        assert_eq!(rest, ["Austria", "Russia"]);
        assert!(
            seeding.boards[0]
                .contains(&SeatedPlayer { player: "Gus".into(), seat: "France".into() })
        );
    }
}
