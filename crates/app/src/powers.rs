//! Power preferences as organisers handle them (`docs/tournaments.md#power-assignment`): a
//! pasted list read into rankings (one line per player: the entrant's name or id, then the
//! powers in order), and the rankings recorded so far as an export (JSON or CSV). Who may see
//! or record them is the domain's and the callers' business.

use league_domain::{PlayerId, Tournament};
use serde::Serialize;
use uuid::Uuid;

use crate::App;
use crate::error::AppError;
use crate::exports::spreadsheet_text;
use crate::walk_ins::comparable_name;

/// One player's recorded ranking, best first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerPreferenceRow {
    pub player_id: Uuid,
    pub player: String,
    pub powers: Vec<String>,
}

impl App {
    /// Reads a pasted list of rankings: each non-blank line is the entrant's name (as
    /// registered, case and accents aside) or id, then the powers best first, separated by
    /// commas, semicolons or tabs. A line naming nobody entered, or a name two entrants share,
    /// refuses the whole list (`BAD_USER_INPUT`, field `list`, naming the line).
    pub fn read_power_preference_list(
        &self,
        tournament: &Tournament,
        text: &str,
    ) -> Result<Vec<(PlayerId, Vec<String>)>, AppError> {
        let catalog = self.catalog();
        let entrants: Vec<(PlayerId, String)> = tournament
            .entrants()
            .iter()
            .map(|e| {
                let name = catalog.player(e.player.uuid()).map(|v| v.name.clone());
                (e.player, comparable_name(&name.unwrap_or_default()))
            })
            .collect();
        let mut rankings = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let fields: Vec<&str> =
                line.split([',', ';', '\t']).map(str::trim).filter(|f| !f.is_empty()).collect();
            let Some((who, powers)) = fields.split_first() else { continue };
            let line = index + 1;
            let player = match Uuid::parse_str(who) {
                Ok(id) => entrants.iter().find(|(p, _)| p.uuid() == id).map(|(p, _)| *p),
                Err(_) => {
                    let wanted = comparable_name(who);
                    let mut named = entrants.iter().filter(|(_, name)| *name == wanted);
                    match (named.next(), named.next()) {
                        (Some(_), Some(_)) => {
                            return Err(AppError::invalid(
                                "list",
                                format!("line {line}: two entrants are named {who:?}; use the id"),
                            ));
                        }
                        (found, _) => found.map(|(p, _)| *p),
                    }
                }
            };
            let Some(player) = player else {
                return Err(AppError::invalid(
                    "list",
                    format!("line {line}: no entrant is {who:?}"),
                ));
            };
            rankings.push((player, powers.iter().map(|p| (*p).to_owned()).collect()));
        }
        if rankings.is_empty() {
            return Err(AppError::invalid("list", "the list has no line"));
        }
        Ok(rankings)
    }

    /// Every recorded ranking, in entry order.
    pub fn power_preference_rows(&self, tournament: &Tournament) -> Vec<PowerPreferenceRow> {
        let catalog = self.catalog();
        tournament
            .entrants()
            .iter()
            .filter_map(|e| {
                let powers = tournament.power_preferences().get(&e.player)?.clone();
                let player = catalog.player(e.player.uuid()).map(|v| v.name.clone());
                Some(PowerPreferenceRow {
                    player_id: e.player.uuid(),
                    player: player.unwrap_or_default(),
                    powers,
                })
            })
            .collect()
    }
}

/// The rankings as CSV: `player,playerId,1,2,…` (one column per rank, as many as seats).
pub fn power_preferences_csv(
    rows: &[PowerPreferenceRow],
    seats: usize,
) -> Result<String, AppError> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["player".to_owned(), "playerId".to_owned()];
    header.extend((1..=seats).map(|rank| rank.to_string()));
    writer.write_record(&header).map_err(AppError::internal)?;
    for row in rows {
        let mut cells = vec![spreadsheet_text(&row.player), row.player_id.to_string()];
        cells.extend(
            (0..seats).map(|i| row.powers.get(i).map_or(String::new(), |p| spreadsheet_text(p))),
        );
        writer.write_record(&cells).map_err(AppError::internal)?;
    }
    let bytes = writer.into_inner().map_err(AppError::internal)?;
    String::from_utf8(bytes).map_err(AppError::internal)
}
