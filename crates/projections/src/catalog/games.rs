//! [`GameIndex`]: which league a game belongs to, at 9 bytes a game.
//!
//! A long log holds millions of games (a 10M-event log about 7M), and a map from each game's
//! 16-byte id to its league cost ≈ 24 bytes a game. A game's id is not arbitrary: it is the
//! UUID v5 of its league and its number ([`league_domain::game_id`]), so it need not be kept.
//! The index keeps, per game, only 4 bytes of the id (its *tag*: SHA-1 output, uniformly
//! spread) and the league's index; a lookup finds the entries with the id's tag and checks
//! each candidate league by deriving its game ids, so an answer is exact, also when two games
//! share a tag (about one pair in a thousand at a million games) or when the id is unknown.

use hashbrown::HashTable;
use uuid::Uuid;

/// One game: the tag of its id and the index of its league in the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    tag: u32,
    league: u32,
}

/// Game → league index; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct GameIndex {
    entries: HashTable<Entry>,
}

/// The first four bytes of a game id: SHA-1 output for every game id the domain makes.
pub(crate) fn tag_of(game: Uuid) -> u32 {
    let bytes = game.as_bytes();
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// The table's hash of a tag: spread over 64 bits (the table takes its bucket from the low
/// bits and a 7-bit filter from the high ones), so growing the table needs no id.
fn hash(tag: u32) -> u64 {
    u64::from(tag).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl GameIndex {
    /// Room for `additional` more games without growing.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional, |entry| hash(entry.tag));
    }

    /// Records that the game tagged `tag` belongs to the league at index `league`.
    pub(crate) fn insert(&mut self, tag: u32, league: u32) {
        self.entries.insert_unique(hash(tag), Entry { tag, league }, |entry| hash(entry.tag));
    }

    /// The index of the league holding `game`: among the leagues with a game of the same
    /// tag, the one `holds(league, game)` confirms.
    pub(crate) fn league_of(&self, game: Uuid, holds: impl Fn(u32, Uuid) -> bool) -> Option<u32> {
        let tag = tag_of(game);
        self.entries
            .find(hash(tag), |entry| entry.tag == tag && holds(entry.league, game))
            .map(|entry| entry.league)
    }

    /// Number of games indexed.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Every game's (tag, league index), in no particular order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.entries.iter().map(|entry| (entry.tag, entry.league))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use league_domain::game_id;

    /// Leagues of `games` games each; `holds` derives ids as the catalog does.
    fn leagues(count: u128, games: u32) -> (Vec<Uuid>, GameIndex) {
        let ids: Vec<Uuid> = (1..=count).map(Uuid::from_u128).collect();
        let mut index = GameIndex::default();
        for (league, id) in ids.iter().enumerate() {
            for number in 1..=games {
                index.insert(tag_of(game_id((*id).into(), number).into()), league as u32);
            }
        }
        (ids, index)
    }

    fn holds(ids: &[Uuid], games: u32) -> impl Fn(u32, Uuid) -> bool + '_ {
        move |league, game| {
            (1..=games).any(|n| game_id(ids[league as usize].into(), n) == game.into())
        }
    }

    #[test]
    fn every_game_finds_its_league_and_unknown_ids_find_none() {
        let (ids, index) = leagues(300, 24);
        assert_eq!(index.len(), 300 * 24);
        for (league, id) in ids.iter().enumerate() {
            for number in [1, 7, 24] {
                let found = index.league_of(game_id((*id).into(), number).into(), holds(&ids, 24));
                assert_eq!(found, Some(league as u32), "game {number} of league {league}");
            }
        }
        assert_eq!(index.league_of(game_id(ids[0].into(), 25).into(), holds(&ids, 24)), None);
        assert_eq!(index.league_of(Uuid::from_u128(u128::MAX), holds(&ids, 24)), None);
    }

    #[test]
    fn games_sharing_a_tag_are_told_apart_by_their_league() {
        // Two games whose ids share their first four bytes: each is found in its own league.
        let (ids, mut index) = leagues(2, 0);
        let first = game_id(ids[0].into(), 1).uuid();
        let mut twin = *first.as_bytes();
        twin[15] ^= 1;
        let twin = Uuid::from_bytes(twin);
        index.insert(tag_of(first), 0);
        index.insert(tag_of(twin), 1);
        let holds = |league: u32, game: Uuid| {
            (league == 0 && game == first) || (league == 1 && game == twin)
        };
        assert_eq!(index.league_of(first, holds), Some(0));
        assert_eq!(index.league_of(twin, holds), Some(1));
    }
}
