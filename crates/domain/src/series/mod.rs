//! The `Series` aggregate (stream `series-<uuid>`, `docs/series.md`): a named group of
//! tournaments and leagues whose standings are each player's best N results over them. The
//! stream holds only the series' own facts (its name, count, basis and members); the results
//! are the members' own, read from their current standings when the series is read.
//!
//! Rights, as for leagues and tournaments (`docs/series.md#rights`): the site admin or an
//! appointed organiser creates a series; its creator and the site admin manage it. Any
//! existing league or tournament may be added (their standings are public).

pub(crate) mod commands;
pub(crate) mod events;

pub use self::commands::*;
pub use self::events::*;

use league_scoring::SeriesBasis;
use uuid::Uuid;

use crate::aggregate::{Aggregate, Decision};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, SeriesId};
use crate::rights::{Organisers, authorise_creation};

/// Longest accepted series name, in characters.
pub const MAX_SERIES_NAME_CHARS: usize = 120;
/// Most results of a player a series counts (best N).
pub const MAX_SERIES_BEST: u32 = 100;
/// Most member events of a series.
pub const MAX_SERIES_EVENTS: usize = 100;

/// What a series is: its name, count and basis as last set.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesSettings {
    pub name: String,
    pub best: u32,
    pub basis: SeriesBasis,
}

/// A series, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    version: u64,
    settings: Option<SeriesSettings>,
    organisers: Organisers,
    /// Member leagues and tournaments, in the order they were added.
    events: Vec<Uuid>,
}

impl Series {
    /// The settings, once created.
    pub fn settings(&self) -> Option<&SeriesSettings> {
        self.settings.as_ref()
    }

    /// The member leagues and tournaments, in the order they were added.
    pub fn events(&self) -> &[Uuid] {
        &self.events
    }

    /// Who manages the series besides the site admin.
    pub fn organisers(&self) -> &Organisers {
        &self.organisers
    }

    fn create(&self, c: &CreateSeries, context: &Context) -> Result<Vec<SeriesEvent>, DomainError> {
        let created_by = authorise_creation(c.actor, context, "series")?;
        if self.settings.is_some() {
            return Err(DomainError::conflict(format!("series {} already exists", c.series_id)));
        }
        let (name, best) = check_settings(&c.name, c.best)?;
        Ok(vec![
            SeriesCreated { series_id: c.series_id, name, best, basis: c.basis, created_by }.into(),
        ])
    }

    /// The settings of an existing series the actor manages. Rights first: a series that does
    /// not exist has no organisers, so a player learns nothing of it (`FORBIDDEN`) and only
    /// the site admin hears `NOT_FOUND`.
    fn managed(
        &self,
        actor: Actor,
        id: SeriesId,
        right: &str,
    ) -> Result<&SeriesSettings, DomainError> {
        let settings = self.settings.as_ref();
        match actor {
            _ if self.organisers.may_manage(actor) => {}
            Actor::Player(player) => {
                return Err(DomainError::forbidden(format!(
                    "player {player} does not organise this series: only its organisers or the \
                     site admin may {right}"
                )));
            }
            Actor::Admin => {}
        }
        settings.ok_or(DomainError::SeriesNotFound(id))
    }

    fn add(&self, c: &AddSeriesEvent, context: &Context) -> Result<Vec<SeriesEvent>, DomainError> {
        self.managed(c.actor, c.series_id, "add events to it")?;
        if context.unknown_competitions.contains(&c.competition) {
            return Err(DomainError::CompetitionNotFound(c.competition));
        }
        if self.events.contains(&c.competition) {
            return Err(DomainError::conflict(format!(
                "competition {} is already in the series",
                c.competition
            )));
        }
        if self.events.len() >= MAX_SERIES_EVENTS {
            return Err(DomainError::invalid(
                "competition",
                format!("a series holds at most {MAX_SERIES_EVENTS} events"),
            ));
        }
        Ok(vec![
            SeriesEventAdded {
                series_id: c.series_id,
                competition: c.competition,
                added_by: c.actor,
            }
            .into(),
        ])
    }

    fn remove(&self, c: &RemoveSeriesEvent) -> Result<Vec<SeriesEvent>, DomainError> {
        self.managed(c.actor, c.series_id, "remove events from it")?;
        if !self.events.contains(&c.competition) {
            return Err(DomainError::CompetitionNotFound(c.competition));
        }
        Ok(vec![
            SeriesEventRemoved {
                series_id: c.series_id,
                competition: c.competition,
                removed_by: c.actor,
            }
            .into(),
        ])
    }

    fn change(&self, c: &ChangeSeriesSettings) -> Result<Vec<SeriesEvent>, DomainError> {
        let current = self.managed(c.actor, c.series_id, "change its settings")?;
        let (name, best) = check_settings(
            c.name.as_deref().unwrap_or(&current.name),
            c.best.unwrap_or(current.best),
        )?;
        let basis = c.basis.unwrap_or(current.basis);
        if name == current.name && best == current.best && basis == current.basis {
            return Err(DomainError::conflict("the series already has these settings"));
        }
        Ok(vec![
            SeriesSettingsChanged {
                series_id: c.series_id,
                name,
                best,
                basis,
                changed_by: c.actor,
            }
            .into(),
        ])
    }
}

/// The name trimmed and the count, or the typed refusal of either.
fn check_settings(name: &str, best: u32) -> Result<(String, u32), DomainError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(DomainError::invalid("name", "must not be empty"));
    }
    if name.chars().count() > MAX_SERIES_NAME_CHARS {
        return Err(DomainError::invalid(
            "name",
            format!("at most {MAX_SERIES_NAME_CHARS} characters"),
        ));
    }
    if !(1..=MAX_SERIES_BEST).contains(&best) {
        return Err(DomainError::invalid("best", format!("from 1 to {MAX_SERIES_BEST}")));
    }
    Ok((name.to_owned(), best))
}

impl Aggregate for Series {
    type Command = SeriesCommand;
    type Event = SeriesEvent;

    fn handle(&self, command: &Self::Command, context: &Context) -> Decision<Self::Event> {
        match command {
            SeriesCommand::Create(c) => self.create(c, context),
            SeriesCommand::Add(c) => self.add(c, context),
            SeriesCommand::Remove(c) => self.remove(c),
            SeriesCommand::Change(c) => self.change(c),
        }
    }

    fn apply(&mut self, event: &SeriesEvent) {
        self.version += 1;
        match event {
            SeriesEvent::SeriesCreated(e) => {
                self.settings =
                    Some(SeriesSettings { name: e.name.clone(), best: e.best, basis: e.basis });
                self.organisers = Organisers::created_by(e.created_by);
            }
            SeriesEvent::SeriesEventAdded(e) => self.events.push(e.competition),
            SeriesEvent::SeriesEventRemoved(e) => self.events.retain(|id| *id != e.competition),
            SeriesEvent::SeriesSettingsChanged(e) => {
                self.settings =
                    Some(SeriesSettings { name: e.name.clone(), best: e.best, basis: e.basis });
            }
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}

#[cfg(test)]
pub(crate) mod tests;
