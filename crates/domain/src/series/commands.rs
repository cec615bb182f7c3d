//! The commands of the [`crate::Series`] aggregate.

use league_scoring::SeriesBasis;
use uuid::Uuid;

use crate::ids::{Actor, SeriesId, series_stream_id};

/// An organiser or the site admin creates a series.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateSeries {
    pub actor: Actor,
    pub series_id: SeriesId,
    pub name: String,
    pub best: u32,
    pub basis: SeriesBasis,
}

/// Adds a league or tournament to the series.
#[derive(Debug, Clone, PartialEq)]
pub struct AddSeriesEvent {
    pub actor: Actor,
    pub series_id: SeriesId,
    pub competition: Uuid,
}

/// Takes a league or tournament out of the series.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoveSeriesEvent {
    pub actor: Actor,
    pub series_id: SeriesId,
    pub competition: Uuid,
}

/// Changes the series' name, count or basis (each absent one is kept).
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeSeriesSettings {
    pub actor: Actor,
    pub series_id: SeriesId,
    pub name: Option<String>,
    pub best: Option<u32>,
    pub basis: Option<SeriesBasis>,
}

/// Commands handled by the [`crate::Series`] aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum SeriesCommand {
    Create(CreateSeries),
    Add(AddSeriesEvent),
    Remove(RemoveSeriesEvent),
    Change(ChangeSeriesSettings),
}

impl SeriesCommand {
    /// The stream this command appends to.
    pub fn stream_id(&self) -> String {
        series_stream_id(self.series_id())
    }

    /// The competitions the [`crate::Context`] must say exist
    /// ([`crate::Context::unknown_competitions`]): the one an addition names.
    pub fn competitions_to_check(&self) -> Vec<Uuid> {
        match self {
            SeriesCommand::Add(c) => vec![c.competition],
            SeriesCommand::Create(_) | SeriesCommand::Remove(_) | SeriesCommand::Change(_) => {
                Vec::new()
            }
        }
    }
}

macro_rules! series_commands {
    ($($ty:ident => $variant:ident),*) => {
        impl SeriesCommand {
            pub fn actor(&self) -> Actor {
                match self {
                    $(SeriesCommand::$variant(c) => c.actor,)*
                }
            }

            pub fn series_id(&self) -> SeriesId {
                match self {
                    $(SeriesCommand::$variant(c) => c.series_id,)*
                }
            }
        }

        $(
            impl From<$ty> for SeriesCommand {
                fn from(c: $ty) -> Self {
                    SeriesCommand::$variant(c)
                }
            }
        )*
    };
}

series_commands!(
    CreateSeries => Create,
    AddSeriesEvent => Add,
    RemoveSeriesEvent => Remove,
    ChangeSeriesSettings => Change
);
