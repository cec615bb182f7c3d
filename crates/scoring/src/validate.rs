//! Validation: a result is checked before it is scored, and every error names the
//! offending field as a path into the input (`players[3].centres`, `sides[1].players[0].lost`).

use crate::finish::{SOLO_CENTRES, conceded_to};
use crate::{DiplomacyEntry, PlacementEntry, ScoringError, ScoringSystem, TeamResult};

/// Powers in a Diplomacy game.
pub(crate) const DIPLOMACY_PLAYERS: usize = 7;
/// Supply centres on the standard map: a Diplomacy result's centres add up to at most this.
pub const TOTAL_CENTRES: u32 = 34;
/// The year a Diplomacy game starts (spring 1901): the first year whose end has a centre count.
pub const FIRST_GAME_YEAR: i32 = 1901;
/// Players an all-vs-all placement game may have (the placement table's columns 2..8,
/// `docs/scoring.md#placement`).
pub(crate) const PLACEMENT_PLAYERS: std::ops::RangeInclusive<usize> = 2..=8;

/// Player names must be non-empty and distinct within one game. `path(i)` names player i.
/// Each name is compared with the ones before it, walking the names again instead of
/// collecting them: a game has a handful of players, and every result of a replay is
/// validated.
fn distinct_names<'a>(
    names: impl Iterator<Item = &'a str> + Clone,
    path: impl Fn(usize) -> String,
) -> Result<(), ScoringError> {
    for (index, name) in names.clone().enumerate() {
        if name.trim().is_empty() {
            return Err(ScoringError::invalid(path(index), "must not be empty"));
        }
        if names.clone().take(index).any(|earlier| earlier == name) {
            return Err(ScoringError::invalid(
                path(index),
                format!("`{name}` appears twice in this game"),
            ));
        }
    }
    Ok(())
}

/// Diplomacy systems: exactly 7 distinct players, centres 0..34 with total ≤ 34, at
/// most one soloist, somebody holding a centre, `eliminatedYear` (≥ 1901) only for a
/// power that has 0 centres or is flagged eliminated, `soloYear` (≥ 1901, no elimination
/// after it) only for the soloist or the power conceded to, `inDraw` only for a power holding
/// centres in a game nobody won outright, and `concessionAsDraw` and `concessionAsSolo` only on the power conceded to
/// (`docs/scoring.md#draws-and-concessions`).
pub(crate) fn diplomacy(entries: &[DiplomacyEntry]) -> Result<(), ScoringError> {
    if entries.len() != DIPLOMACY_PLAYERS {
        return Err(ScoringError::invalid(
            "players",
            format!(
                "a Diplomacy game has exactly {DIPLOMACY_PLAYERS} players, got {}",
                entries.len()
            ),
        ));
    }
    distinct_names(entries.iter().map(|entry| entry.player.as_str()), |i| {
        format!("players[{i}].player")
    })?;
    let mut total = 0;
    let mut soloist = None;
    for (index, entry) in entries.iter().enumerate() {
        if entry.centres > TOTAL_CENTRES {
            return Err(ScoringError::invalid(
                format!("players[{index}].centres"),
                format!("{} is more than the {TOTAL_CENTRES} centres on the board", entry.centres),
            ));
        }
        total += entry.centres;
        if let Some((year, &count)) =
            entry.earlier_centres.iter().enumerate().find(|&(_, &count)| count > TOTAL_CENTRES)
        {
            return Err(ScoringError::invalid(
                format!("players[{index}].earlierCentres[{year}]"),
                format!("{count} is more than the {TOTAL_CENTRES} centres on the board"),
            ));
        }
        if entry.centres >= SOLO_CENTRES {
            if entry.eliminated {
                return Err(ScoringError::invalid(
                    format!("players[{index}].eliminated"),
                    format!("a power on {} centres cannot be eliminated", entry.centres),
                ));
            }
            if let Some(first) = soloist {
                return Err(ScoringError::invalid(
                    format!("players[{index}].centres"),
                    format!(
                        "a second soloist (players[{first}] already has {SOLO_CENTRES}+ centres)"
                    ),
                ));
            }
            soloist = Some(index);
        }
        if let Some(year) = entry.eliminated_year {
            if year < FIRST_GAME_YEAR {
                return Err(ScoringError::invalid(
                    format!("players[{index}].eliminatedYear"),
                    format!("{year} is before the game starts ({FIRST_GAME_YEAR})"),
                ));
            }
            if entry.centres > 0 && !entry.eliminated {
                return Err(ScoringError::invalid(
                    format!("players[{index}].eliminatedYear"),
                    format!(
                        "given for a power still holding {} centres and not flagged eliminated",
                        entry.centres
                    ),
                ));
            }
        }
    }
    let conceded = conceded_to(entries);
    for (index, entry) in entries.iter().enumerate() {
        for (marked, field) in [
            (entry.concession_as_draw, "concessionAsDraw"),
            (entry.concession_as_solo, "concessionAsSolo"),
        ] {
            if marked && conceded != Some(index) {
                return Err(ScoringError::invalid(
                    format!("players[{index}].{field}"),
                    "only the power conceded to (the one power flagged inDraw) carries it",
                ));
            }
        }
        if entry.concession_as_draw && entry.concession_as_solo {
            return Err(ScoringError::invalid(
                format!("players[{index}].concessionAsSolo"),
                "a concession is scored under one rule: not with concessionAsDraw",
            ));
        }
    }
    // The power conceded to is scored as a soloist (unless marked to be scored under the
    // earlier rule), so it may carry the year the game ended.
    let solo_year_holder = soloist.or(conceded.filter(|&index| !entries[index].concession_as_draw));
    for (index, entry) in entries.iter().enumerate() {
        let Some(year) = entry.solo_year else { continue };
        let field = format!("players[{index}].soloYear");
        if solo_year_holder != Some(index) {
            return Err(ScoringError::invalid(
                field,
                format!(
                    "given for a power on {} centres, short of a solo and not conceded to",
                    entry.centres
                ),
            ));
        }
        if year < FIRST_GAME_YEAR {
            return Err(ScoringError::invalid(
                field,
                format!("{year} is before the game starts ({FIRST_GAME_YEAR})"),
            ));
        }
        if let Some((fallen, later)) = entries
            .iter()
            .enumerate()
            .find_map(|(i, other)| other.eliminated_year.filter(|&y| y > year).map(|y| (i, y)))
        {
            return Err(ScoringError::invalid(
                format!("players[{fallen}].eliminatedYear"),
                format!("{later} is after the solo in {year}, when the game ended"),
            ));
        }
    }
    for (index, entry) in entries.iter().enumerate() {
        if !entry.in_draw {
            continue;
        }
        let field = format!("players[{index}].inDraw");
        if let Some(winner) = soloist {
            return Err(ScoringError::invalid(
                field,
                format!("players[{winner}] won outright, so no draw was voted"),
            ));
        }
        if entry.centres == 0 {
            return Err(ScoringError::invalid(
                field,
                "a power without centres cannot share a draw",
            ));
        }
    }
    if total > TOTAL_CENTRES {
        return Err(ScoringError::invalid(
            "players",
            format!("centres add up to {total}, more than the {TOTAL_CENTRES} on the board"),
        ));
    }
    if total == 0 {
        return Err(ScoringError::invalid("players", "no power holds a centre"));
    }
    Ok(())
}

/// Placement: 2..8 distinct players with finite game points.
pub(crate) fn placement(entries: &[PlacementEntry]) -> Result<(), ScoringError> {
    if !PLACEMENT_PLAYERS.contains(&entries.len()) {
        return Err(ScoringError::invalid(
            "players",
            format!("a placement game has 2 to 8 players, got {}", entries.len()),
        ));
    }
    distinct_names(entries.iter().map(|entry| entry.player.as_str()), |i| {
        format!("players[{i}].player")
    })?;
    for (index, entry) in entries.iter().enumerate() {
        if !entry.points.is_finite() {
            return Err(ScoringError::invalid(
                format!("players[{index}].points"),
                "must be a finite number",
            ));
        }
    }
    Ok(())
}

/// Team systems: ≥ 2 sides (exactly 2 for Blue Max and its legacy Wooden Ships
/// scheme), each with a distinct name and at least one player; players distinct across the
/// game; points finite and not negative; Blue Max schemes: units ≥ 1 and `lost` ≤ `units`;
/// Wooden Ships: `shipsLeft` reported.
pub(crate) fn teams(system: ScoringSystem, result: &TeamResult) -> Result<(), ScoringError> {
    let two_sides_only =
        matches!(system, ScoringSystem::BlueMax | ScoringSystem::WoodenShipsLegacy);
    let sides = result.sides.len();
    if sides < 2 || (two_sides_only && sides != 2) {
        let wanted = if two_sides_only { "exactly 2" } else { "at least 2" };
        return Err(ScoringError::invalid(
            "sides",
            format!("{system} needs {wanted} sides, got {sides}"),
        ));
    }
    distinct_names(result.sides.iter().map(|side| side.name.as_str()), |i| {
        format!("sides[{i}].name")
    })?;
    let mut paths = Vec::new();
    for (side_index, side) in result.sides.iter().enumerate() {
        if side.players.is_empty() {
            return Err(ScoringError::invalid(
                format!("sides[{side_index}].players"),
                "a side needs at least one player",
            ));
        }
        paths.extend((0..side.players.len()).map(|player_index| (side_index, player_index)));
    }
    let all_players = result
        .sides
        .iter()
        .flat_map(|side| side.players.iter().map(|player| player.player.as_str()));
    distinct_names(all_players, |i| {
        let (side, player) = paths[i];
        format!("sides[{side}].players[{player}].player")
    })?;
    for (side_index, side) in result.sides.iter().enumerate() {
        for (player_index, player) in side.players.iter().enumerate() {
            let field = |name: &str| format!("sides[{side_index}].players[{player_index}].{name}");
            if !player.points.is_finite() || player.points < 0.0 {
                return Err(ScoringError::invalid(
                    field("points"),
                    "must be a finite number, not negative",
                ));
            }
            if two_sides_only {
                if player.units == 0 {
                    return Err(ScoringError::invalid(
                        field("units"),
                        "a player starts with at least 1 unit",
                    ));
                }
                if player.lost > player.units {
                    return Err(ScoringError::invalid(
                        field("lost"),
                        format!(
                            "{} lost is more than the {} units the player had",
                            player.lost, player.units
                        ),
                    ));
                }
            }
            if system == ScoringSystem::WoodenShips && player.ships_left.is_none() {
                return Err(ScoringError::invalid(
                    field("shipsLeft"),
                    "Wooden Ships needs the ships left",
                ));
            }
        }
    }
    Ok(())
}
