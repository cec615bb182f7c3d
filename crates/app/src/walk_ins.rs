//! Walk-ins and bulk entry (`docs/tournaments.md#walk-ins-and-bulk-entry`): an organiser's
//! list of people (CSV: a name per line, optionally external ids) registered and entered in
//! their competition in one step. [`parse_walk_ins`] reads the list (bad lines are typed
//! problems with their line numbers), [`App::walk_ins_preview`] says which names match
//! players already registered (case- and accent-insensitively) and who is entered already,
//! and [`App::walk_ins`] registers and enters everyone with the existing commands, and
//! records the external ids the list gives them (`docs/tournaments.md#external-ids`).
//!
//! Appends are atomic per stream only, so the whole list is checked before anything is
//! appended (a bad line, a player who withdrew, closed entries refuse it all), and each new
//! player's id is derived from the list itself: sending the same list again (after a
//! failure half-way, or twice) registers and enters nobody twice.

use std::collections::HashMap;

use league_domain::{
    Actor, EnterTournament, LeagueStatus, PlayerId, RegisterPlayer, Subscribe, TournamentStatus,
    WDR, check_external_id, check_external_system, rules::clean_name,
};
use league_projections::person_keys;
use serde::Serialize;
use sha2::{Digest, Sha256};
use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};
use uuid::Uuid;

use crate::command::AppCommand;
use crate::{App, AppError, CommandOptions};

/// The most people one list may hold.
pub const MAX_WALK_INS: usize = 500;

/// One person of a list, as read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalkInLine {
    /// The line of the text it was read from (1-based).
    pub line: usize,
    pub name: String,
    /// External ids by column (`wdr` …), in column order; blank cells left out.
    pub external_ids: Vec<ExternalId>,
}

/// An id of the person elsewhere, e.g. `wdr` 1234 (recorded when the list is committed,
/// `docs/tournaments.md#external-ids`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExternalId {
    pub system: String,
    pub id: String,
}

/// A line that cannot be read: which, which field, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineProblem {
    pub line: usize,
    pub field: String,
    pub message: String,
}

/// A list as read: its people, and its bad lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct WalkInList {
    pub lines: Vec<WalkInLine>,
    pub problems: Vec<LineProblem>,
}

/// A registered player whose name matches a line's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerMatch {
    pub player_id: Uuid,
    pub name: String,
    /// Already entered in (subscribed to) the competition.
    pub entered: bool,
}

/// One line of a preview: the person, the players their name matches, and warnings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewLine {
    #[serde(flatten)]
    pub person: WalkInLine,
    pub matches: Vec<PlayerMatch>,
    /// Earlier lines of the list with the same name (case- and accent-insensitively).
    pub same_name_as_lines: Vec<usize>,
}

/// What committing the list would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalkInPreview {
    pub competition: Uuid,
    pub lines: Vec<PreviewLine>,
    pub problems: Vec<LineProblem>,
}

/// The organiser's pick for a line whose name matches a registered player: enter that
/// player instead of registering someone new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UseExisting {
    pub line: usize,
    pub player_id: Uuid,
}

/// One person of a committed list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalkedIn {
    pub line: usize,
    pub player_id: Uuid,
    pub name: String,
    /// Registered by this call (not an existing player, nor registered by an earlier send of
    /// the same list).
    pub registered: bool,
    /// The new player's bearer token, shown only this once (`None` unless `registered`).
    #[serde(skip)]
    pub token: Option<String>,
    /// Entered by this call (`false`: they were entered already).
    pub entered: bool,
}

/// A new player's bearer token and the hash the log keeps of it.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub token: String,
    pub hash: String,
}

/// Reads a list: CSV, one person per line. A first line whose first cell is `name` is a
/// header naming the other columns' external id systems (`name,wdr`); without a header a
/// line is `name` or `name,wdr`. Blank lines are skipped; bad lines are problems, not
/// errors, so a preview can show them all.
pub fn parse_walk_ins(text: &str) -> WalkInList {
    let mut list = WalkInList::default();
    let mut columns: Option<Vec<String>> = None;
    let mut first = true;
    let mut seen_ids: HashMap<(String, String), usize> = HashMap::new();
    // Line by line, so each line's number is exact (a name holds no line break).
    for (index, text) in text.lines().enumerate() {
        let line = index + 1;
        let record = match read_line(text) {
            Ok(Some(record)) => record,
            Ok(None) => continue,
            Err(error) => {
                list.problems.push(problem(line, "line", format!("cannot be read: {error}")));
                continue;
            }
        };
        if record.iter().all(str::is_empty) {
            continue;
        }
        if std::mem::take(&mut first) && record[0].eq_ignore_ascii_case("name") {
            match header(&record) {
                Ok(names) => columns = Some(names),
                Err(message) => list.problems.push(problem(line, "header", message)),
            }
            continue;
        }
        let systems = columns.clone().unwrap_or_else(|| vec![WDR.to_owned()]);
        if record.len() > systems.len() + 1 {
            let message = match &columns {
                Some(_) => format!("has {} cells, the header {}", record.len(), systems.len() + 1),
                None => "has more than two cells: without a header a line is `name` or \
                         `name,wdr`"
                    .to_owned(),
            };
            list.problems.push(problem(line, "line", message));
            continue;
        }
        if list.lines.len() == MAX_WALK_INS {
            list.problems.push(problem(
                line,
                "line",
                format!("a list holds at most {MAX_WALK_INS} people"),
            ));
            break;
        }
        let name = match clean_name("name", &record[0]) {
            Ok(name) => name,
            Err(error) => {
                let message =
                    error.invalid_input().map_or(error.to_string(), |(_, m)| m.to_owned());
                list.problems.push(problem(line, "name", message));
                continue;
            }
        };
        let mut external_ids = Vec::new();
        let mut bad = false;
        for (system, id) in systems.iter().zip(record.iter().skip(1)) {
            if id.is_empty() {
                continue;
            }
            if let Err(message) = check_external_id(system, id) {
                list.problems.push(problem(line, system, message));
                bad = true;
            } else if let Some(earlier) = seen_ids.insert((system.clone(), id.to_owned()), line) {
                list.problems.push(problem(line, system, format!("{id} is on line {earlier} too")));
                bad = true;
            } else {
                external_ids.push(ExternalId { system: system.clone(), id: id.to_owned() });
            }
        }
        if !bad {
            list.lines.push(WalkInLine { line, name, external_ids });
        }
    }
    list
}

/// One line's cells, trimmed (`None` for a blank line).
fn read_line(text: &str) -> Result<Option<csv::StringRecord>, csv::Error> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    reader.records().next().transpose()
}

fn problem(line: usize, field: &str, message: impl Into<String>) -> LineProblem {
    LineProblem { line, field: field.to_owned(), message: message.into() }
}

/// The external id systems a header names after `name`: lower-case letters, digits and
/// `-`, each once.
fn header(record: &csv::StringRecord) -> Result<Vec<String>, String> {
    let mut systems: Vec<String> = Vec::new();
    for cell in record.iter().skip(1) {
        let system = cell.to_ascii_lowercase();
        if let Err(message) = check_external_system(&system) {
            return Err(format!("column {message}"));
        }
        if systems.contains(&system) {
            return Err(format!("column {system:?} appears twice"));
        }
        systems.push(system);
    }
    Ok(systems)
}

/// A name as compared: decomposed, accents dropped, lower case, single spaces ("Zoë
/// Müller" and "zoe  muller" are the same).
pub fn comparable_name(name: &str) -> String {
    let folded: String =
        name.nfkd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The competition a list is entered in: a tournament or a league.
enum Competition {
    Tournament,
    League,
}

impl App {
    /// What [`App::walk_ins`] would do with `text` for `competition`: each person with the
    /// registered players of the same name (and whether they are entered already), names
    /// repeated in the list, and the bad lines. Only who may enter players in the
    /// competition may ask (`FORBIDDEN` otherwise).
    pub async fn walk_ins_preview(
        &self,
        actor: Actor,
        competition: Uuid,
        text: &str,
    ) -> Result<WalkInPreview, AppError> {
        let kind = self.check_walk_in_rights(actor, competition, true).await?;
        let list = parse_walk_ins(text);
        let entered = self.entered_in(&kind, competition).await?;
        let by_name = self.players_by_comparable_name();
        let mut first_line_of: HashMap<String, Vec<usize>> = HashMap::new();
        let lines = list
            .lines
            .into_iter()
            .map(|person| {
                let key = comparable_name(&person.name);
                let matches = by_name
                    .get(&key)
                    .into_iter()
                    .flatten()
                    .map(|(player_id, name)| PlayerMatch {
                        player_id: *player_id,
                        name: name.clone(),
                        entered: entered.contains(player_id),
                    })
                    .collect();
                let earlier = first_line_of.entry(key).or_default();
                let same_name_as_lines = earlier.clone();
                earlier.push(person.line);
                PreviewLine { person, matches, same_name_as_lines }
            })
            .collect();
        Ok(WalkInPreview { competition, lines, problems: list.problems })
    }

    /// Registers every person of `text` (but those `existing` says are registered players)
    /// and enters them all in `competition` (a tournament; for a league, subscribes them),
    /// as `actor`. All or nothing as far as checks go: a bad line, an unknown or erased
    /// player picked, a player who withdrew, or a competition not taking entries refuses the
    /// whole list and appends nothing. New players get `new_token()`'s token.
    pub async fn walk_ins(
        &self,
        actor: Actor,
        competition: Uuid,
        text: &str,
        existing: &[UseExisting],
        mut new_token: impl FnMut() -> NewToken,
    ) -> Result<Vec<WalkedIn>, AppError> {
        // Parsing is pure: what it finds wrong is only told after the rights check, which
        // needs to know whether anyone new would be registered.
        let list = parse_walk_ins(text);
        let registers = existing.len() < list.lines.len();
        let kind = self.check_walk_in_rights(actor, competition, registers).await?;
        if !list.problems.is_empty() {
            let lines: Vec<String> = list
                .problems
                .iter()
                .map(|p| format!("line {}: {}: {}", p.line, p.field, p.message))
                .collect();
            return Err(AppError::invalid("lines", lines.join("; ")));
        }
        if list.lines.is_empty() {
            return Err(AppError::invalid("lines", "the list has nobody in it"));
        }
        self.check_open_for_entries(&kind, competition).await?;
        let picks = self.check_picks(&list, existing)?;
        let entered = self.entered_in(&kind, competition).await?;
        let withdrawn = self.withdrawn_from(&kind, competition).await?;
        let plan: Vec<(WalkInLine, PlayerId, bool)> = list
            .lines
            .into_iter()
            .map(|person| {
                let (id, new) = match picks.get(&person.line) {
                    Some(id) => ((*id).into(), false),
                    None => (walk_in_player_id(actor, competition, text, person.line), true),
                };
                (person, id, new)
            })
            .collect();
        if let Some((person, id, _)) = plan.iter().find(|(_, id, _)| withdrawn.contains(&id.uuid()))
        {
            return Err(AppError::Domain(league_domain::DomainError::Conflict(format!(
                "line {}: player {id} has withdrawn and cannot enter again",
                person.line
            ))));
        }
        let players: Vec<Uuid> = plan.iter().map(|(_, id, _)| id.uuid()).collect();
        let recorded = self.external_ids(&players).await?;
        self.check_keys_for_external_ids(&plan).await?;
        let mut walked_in = Vec::with_capacity(plan.len());
        for (person, player_id, new) in plan {
            let mut token = None;
            let mut registered = false;
            if new && self.catalog().player(player_id.uuid()).is_none() {
                let issued = new_token();
                let command = RegisterPlayer {
                    actor,
                    player_id,
                    name: person.name.clone(),
                    token_hash: issued.hash,
                };
                self.execute(command, CommandOptions::default()).await?;
                token = Some(issued.token);
                registered = true;
            }
            let is_entered = entered.contains(&player_id.uuid());
            if !is_entered {
                self.execute(
                    entry(&kind, actor, competition, player_id),
                    CommandOptions::default(),
                )
                .await?;
            }
            // After the entry: the organiser now organises a competition the player is in.
            for ExternalId { system, id } in &person.external_ids {
                let known = recorded.get(&player_id.uuid()).and_then(|ids| ids.get(system));
                if known != Some(id) {
                    self.record_external_id(actor, player_id.uuid(), system, id).await?;
                }
            }
            let name =
                self.catalog().player(player_id.uuid()).map_or(person.name, |p| p.name.clone());
            walked_in.push(WalkedIn {
                line: person.line,
                player_id: player_id.uuid(),
                name,
                registered,
                token,
                entered: !is_entered,
            });
        }
        Ok(walked_in)
    }

    /// `CONFLICT` when the list gives external ids to a registered player who holds no key
    /// (registered before personal data was sealed): their ids could not be sealed, and
    /// finding it out after the first entries would leave the list half done.
    async fn check_keys_for_external_ids(
        &self,
        plan: &[(WalkInLine, PlayerId, bool)],
    ) -> Result<(), AppError> {
        let registered: Vec<(usize, Uuid)> = {
            let catalog = self.catalog();
            plan.iter()
                .filter(|(person, id, _)| {
                    !person.external_ids.is_empty() && catalog.player(id.uuid()).is_some()
                })
                .map(|(person, id, _)| (person.line, id.uuid()))
                .collect()
        };
        if registered.is_empty() {
            return Ok(());
        }
        let players: Vec<Uuid> = registered.iter().map(|(_, id)| *id).collect();
        let keys = person_keys(self.store(), Some(&players)).await?;
        match registered.iter().find(|(_, id)| !keys.contains_key(id)) {
            None => Ok(()),
            Some((line, id)) => {
                Err(AppError::Domain(league_domain::DomainError::Conflict(format!(
                    "line {line}: player {id} was registered before personal data was sealed: \
                 their external ids cannot be recorded; leave them out of the list \
                 (docs/personal-data.md)"
                ))))
            }
        }
    }

    /// Rights first: `actor` must be able to enter players in `competition` (its organisers
    /// and the site admin) and, when `registers`, to register players (appointed organisers
    /// and the site admin); the domain decides both on its own commands.
    async fn check_walk_in_rights(
        &self,
        actor: Actor,
        competition: Uuid,
        registers: bool,
    ) -> Result<Competition, AppError> {
        let kind = {
            let catalog = self.catalog();
            if catalog.tournament(competition).is_some() {
                Competition::Tournament
            } else if catalog.league(competition).is_some() {
                Competition::League
            } else {
                return Err(AppError::NotFound(format!("competition {competition}")));
            }
        };
        // Someone else than the actor: entering another player is what needs the right.
        let anyone = PlayerId::from(Uuid::nil());
        self.check_rights(&entry(&kind, actor, competition, anyone)).await?;
        if registers {
            let register = RegisterPlayer {
                actor,
                player_id: anyone,
                name: "-".into(),
                token_hash: "-".into(),
            };
            self.check_rights(&register.into()).await?;
        }
        Ok(kind)
    }

    /// `CONFLICT` unless the competition takes entries: a tournament before its last round
    /// is seeded and not completed, a league still open.
    async fn check_open_for_entries(
        &self,
        kind: &Competition,
        competition: Uuid,
    ) -> Result<(), AppError> {
        let catalog = self.catalog();
        let open = match kind {
            Competition::Tournament => catalog.tournament(competition).is_some_and(|t| {
                t.status != TournamentStatus::Completed && t.rounds_seeded < t.settings.rounds
            }),
            Competition::League => {
                catalog.league(competition).is_some_and(|l| l.status == LeagueStatus::Open)
            }
        };
        if open {
            Ok(())
        } else {
            Err(AppError::Domain(league_domain::DomainError::Conflict(format!(
                "competition {competition} takes no more entries"
            ))))
        }
    }

    /// The organiser's picks by line: each a registered player who was not erased, on a
    /// line of the list, each player once.
    fn check_picks(
        &self,
        list: &WalkInList,
        existing: &[UseExisting],
    ) -> Result<HashMap<usize, Uuid>, AppError> {
        let catalog = self.catalog();
        let mut picks = HashMap::new();
        for pick in existing {
            if !list.lines.iter().any(|l| l.line == pick.line) {
                return Err(AppError::invalid(
                    "useExisting",
                    format!("line {} is no person of the list", pick.line),
                ));
            }
            match catalog.player(pick.player_id) {
                None => {
                    return Err(AppError::invalid(
                        "useExisting",
                        format!("line {}: no player {}", pick.line, pick.player_id),
                    ));
                }
                Some(view) if view.erased => {
                    return Err(league_domain::DomainError::erased(pick.player_id.into()).into());
                }
                Some(_) => {}
            }
            if picks.values().any(|id| *id == pick.player_id)
                || picks.insert(pick.line, pick.player_id).is_some()
            {
                return Err(AppError::invalid(
                    "useExisting",
                    format!("line {}: each line and player may be picked once", pick.line),
                ));
            }
        }
        Ok(picks)
    }

    /// Every registered player not erased, by [`comparable_name`].
    fn players_by_comparable_name(&self) -> HashMap<String, Vec<(Uuid, String)>> {
        let catalog = self.catalog();
        let mut by_name: HashMap<String, Vec<(Uuid, String)>> = HashMap::new();
        for id in catalog.player_ids() {
            if let Some(view) = catalog.player(*id).filter(|view| !view.erased) {
                by_name
                    .entry(comparable_name(&view.name))
                    .or_default()
                    .push((*id, view.name.clone()));
            }
        }
        by_name
    }

    /// The players entered in (subscribed to) the competition now, withdrawn ones left out.
    async fn entered_in(
        &self,
        kind: &Competition,
        competition: Uuid,
    ) -> Result<Vec<Uuid>, AppError> {
        Ok(match kind {
            Competition::Tournament => {
                let tournament = self.existing_tournament(competition).await?;
                let active = tournament.entrants().iter().filter(|e| e.is_active());
                active.map(|e| e.player.uuid()).collect()
            }
            Competition::League => {
                self.catalog().league(competition).map(|l| l.players.clone()).unwrap_or_default()
            }
        })
    }

    /// The players who withdrew from the tournament (they cannot enter again); none for a
    /// league (a player who left may subscribe again).
    async fn withdrawn_from(
        &self,
        kind: &Competition,
        competition: Uuid,
    ) -> Result<Vec<Uuid>, AppError> {
        Ok(match kind {
            Competition::Tournament => {
                let tournament = self.existing_tournament(competition).await?;
                let gone = tournament.entrants().iter().filter(|e| !e.is_active());
                gone.map(|e| e.player.uuid()).collect()
            }
            Competition::League => Vec::new(),
        })
    }
}

/// The command entering `player` in the competition.
fn entry(kind: &Competition, actor: Actor, competition: Uuid, player: PlayerId) -> AppCommand {
    match kind {
        Competition::Tournament => {
            EnterTournament { actor, tournament_id: competition.into(), player_id: player }.into()
        }
        Competition::League => {
            Subscribe { actor, league_id: competition.into(), player_id: player }.into()
        }
    }
}

/// The id a new player of a list gets: derived from who sends which list for which
/// competition and the line, so the same list sent again names the same players.
fn walk_in_player_id(actor: Actor, competition: Uuid, text: &str, line: usize) -> PlayerId {
    let mut digest = Sha256::new();
    for part in
        [actor.to_string(), competition.to_string(), text.trim().to_owned(), line.to_string()]
    {
        digest.update((part.len() as u64).to_be_bytes());
        digest.update(part.as_bytes());
    }
    Uuid::new_v5(&WALK_IN_NAMESPACE, &digest.finalize()).into()
}

/// The UUID namespace of walk-in players' ids.
const WALK_IN_NAMESPACE: Uuid = Uuid::from_u128(0x6c65_6167_7565_2d77_616c_6b2d_696e_7331);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_without_a_header_is_names_with_an_optional_wdr_id() {
        let list = parse_walk_ins("Ann\n\n  Bob Stone , 1234\n\"Smith, Jo\"\n");
        assert_eq!(list.problems, []);
        let names: Vec<(usize, &str)> =
            list.lines.iter().map(|l| (l.line, l.name.as_str())).collect();
        assert_eq!(names, [(1, "Ann"), (3, "Bob Stone"), (4, "Smith, Jo")]);
        assert_eq!(
            list.lines[1].external_ids,
            [ExternalId { system: "wdr".into(), id: "1234".into() }]
        );
    }

    #[test]
    fn a_header_names_the_external_id_columns() {
        let list = parse_walk_ins("Name,WDR,club\nAnn,12,Paris-7\nBob,,\n");
        assert_eq!(list.problems, []);
        assert_eq!(list.lines[0].line, 2);
        assert_eq!(
            list.lines[0].external_ids,
            [
                ExternalId { system: "wdr".into(), id: "12".into() },
                ExternalId { system: "club".into(), id: "Paris-7".into() }
            ]
        );
        assert_eq!(list.lines[1].external_ids, []);
    }

    #[test]
    fn bad_lines_are_problems_with_their_line_and_field() {
        let long = "x".repeat(201);
        let text = format!("Ann,12\n{long}\nBob,abc\nCid,12\nDee,1,2\n,5\n");
        let list = parse_walk_ins(&text);
        let problems: Vec<(usize, &str)> =
            list.problems.iter().map(|p| (p.line, p.field.as_str())).collect();
        assert_eq!(problems, [(2, "name"), (3, "wdr"), (4, "wdr"), (5, "line"), (6, "name")]);
        assert!(list.problems[2].message.contains("line 1"), "{:?}", list.problems[2]);
        assert_eq!(list.lines.len(), 1);
    }

    #[test]
    fn a_bad_header_is_a_problem_of_line_one() {
        let list = parse_walk_ins("name,W D R\nAnn\n");
        assert_eq!(
            list.problems.iter().map(|p| (p.line, p.field.as_str())).collect::<Vec<_>>(),
            [(1, "header")]
        );
    }

    #[test]
    fn names_compare_without_case_accents_or_extra_spaces() {
        assert_eq!(comparable_name("  Zoë   MÜLLER "), "zoe muller");
        assert_eq!(comparable_name("Zoe Muller"), comparable_name("zoë müller"));
        assert_ne!(comparable_name("Zoe Mullar"), comparable_name("Zoe Muller"));
    }

    #[test]
    fn the_same_list_names_the_same_new_players() {
        let competition = Uuid::from_u128(7);
        let a = walk_in_player_id(Actor::Admin, competition, "Ann\nBob", 2);
        assert_eq!(a, walk_in_player_id(Actor::Admin, competition, "Ann\nBob\n", 2));
        assert_ne!(a, walk_in_player_id(Actor::Admin, competition, "Ann\nBob", 1));
        assert_ne!(a, walk_in_player_id(Actor::Admin, Uuid::from_u128(8), "Ann\nBob", 2));
    }
}
